//! Scores each enabled segmenter on the repository's sentence test sets, or measures its speed.
//! A figure for the comparison, not a test: it never fails on a score.

use sentence_crates::{candidates, Candidate};
use serde_json::Value;
use std::panic::catch_unwind;
use std::process::exit;
use std::time::Instant;

const USAGE: &str = "\
usage: eval [-v]
       eval --bench [--only=NAME] [--size=BYTES] [--para] [--cover]

  (scores)  cases right per test set; -v prints every miss to stderr
  --bench   ms per MB (MB = 10^6 bytes) on the golden texts repeated to --size bytes
            (default 1000000): the median of 3 whole-text runs after a warm-up run
  --only    only the segmenters whose name contains NAME (scores too)
  --para    one call per paragraph (the fallback when the whole-text call panics)
  --cover   instead of the speed: the non-whitespace characters a whole-text call keeps";

/// The test sets, in the repository.
const SETS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/chunk-core/tests/sentences"
);
/// The languages of `languages.json`, in the order printed.
const LANGS: [&str; 8] = ["en", "vi", "id", "ru", "pl", "zh", "ja", "hi"];

/// A test case: a text and the sentences it must be split into.
struct Case {
    /// Printed in the misses: the case number (golden) or the index in its language.
    id: String,
    text: String,
    sentences: Vec<String>,
}

fn load(file: &str) -> Value {
    let path = format!("{SETS}/{file}");
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn cases(items: &Value, id: impl Fn(usize, &Value) -> String) -> Vec<Case> {
    let str_of = |v: &Value| v.as_str().expect("a string").to_owned();
    let items = items.as_array().expect("an array of cases");
    let case = |(i, c): (usize, &Value)| Case {
        id: id(i, c),
        text: str_of(&c["text"]),
        sentences: c["sentences"]
            .as_array()
            .expect("sentences")
            .iter()
            .map(str_of)
            .collect(),
    };
    items.iter().enumerate().map(case).collect()
}

/// The segments of `text`, trimmed and without empty ones; `None` if the segmenter has no rules
/// for `lang`. A panic counts as a miss: one segment `<panic>`.
fn segments(c: &Candidate, lang: &str, text: &str) -> Option<Vec<String>> {
    match catch_unwind(|| (c.segment)(lang, text)) {
        Ok(segs) => segs.map(|v| {
            v.iter()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        }),
        Err(_) => Some(vec!["<panic>".to_owned()]),
    }
}

/// The cases right (segments equal to the sentences) and the ids of the others; `None` if the
/// segmenter has no rules for `lang`.
fn score<'a>(
    c: &Candidate,
    set: &str,
    lang: &str,
    cases: &'a [Case],
    verbose: bool,
) -> Option<(usize, Vec<&'a str>)> {
    let mut misses = Vec::new();
    for case in cases {
        let got = segments(c, lang, &case.text)?;
        if got != case.sentences {
            misses.push(case.id.as_str());
            if verbose {
                eprintln!(
                    "[{}] {set} #{}: want {:?}\n   got {got:?}",
                    c.name, case.id, case.sentences
                );
            }
        }
    }
    Some((cases.len() - misses.len(), misses))
}

fn scores(cands: &[Candidate], golden: &[Case], verbose: bool) {
    // A panic is scored as a miss; its message would only clutter stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let langs = load("languages.json");
    let langs = &langs["languages"];
    let in_file: Vec<&str> = langs
        .as_object()
        .expect("languages")
        .keys()
        .map(String::as_str)
        .collect();
    assert!(
        in_file.iter().all(|l| LANGS.contains(l)),
        "languages.json has languages not in LANGS: {in_file:?}"
    );
    let sets: Vec<(&str, Vec<Case>)> = LANGS
        .iter()
        .map(|&l| (l, cases(&langs[l], |i, _| i.to_string())))
        .collect();
    let own_total: usize = sets.iter().map(|(_, cs)| cs.len()).sum();
    let fraction = |s: &Option<(usize, Vec<&str>)>, total: usize| match s {
        Some((ok, _)) => format!("{ok}/{total}"),
        None => format!("-/{total}"),
    };
    for c in cands {
        let g = score(c, "golden", "en", golden, verbose);
        let mut own = 0;
        let mut per = Vec::new();
        for (lang, cs) in &sets {
            let s = score(c, lang, lang, cs, verbose);
            own += s.as_ref().map_or(0, |s| s.0);
            per.push(format!("{lang} {}", fraction(&s, cs.len())));
        }
        let wrong = g
            .as_ref()
            .map_or("-".to_owned(), |(_, m)| format!("[{}]", m.join(", ")));
        println!(
            "{:32} golden {} | {} | own {own}/{own_total} | wrong: {wrong}",
            c.name,
            fraction(&g, golden.len()),
            per.join(" ")
        );
    }
}

/// Three timed runs of `run`, which returns a segment count: the median in ms, the runs in ms,
/// and the count.
fn median3(mut run: impl FnMut() -> usize) -> (f64, String, usize) {
    let mut n = 0;
    let mut ms: Vec<f64> = (0..3)
        .map(|_| {
            let t0 = Instant::now();
            n = run();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let runs = ms
        .iter()
        .map(|t| format!("{t:.0}"))
        .collect::<Vec<_>>()
        .join(", ");
    ms.sort_by(f64::total_cmp);
    (ms[1], runs, n)
}

fn bench(cands: &[Candidate], golden: &[Case], size: usize, para: bool, cover: bool) {
    let mut corpus = String::new();
    while corpus.len() < size {
        for case in golden {
            corpus.push_str(&case.text);
            corpus.push_str("\n\n");
        }
    }
    let mb = corpus.len() as f64 / 1e6;
    println!(
        "corpus: {} bytes = {mb:.3} MB (MB = 10^6 bytes)",
        corpus.len()
    );
    let non_ws = |s: &str| s.chars().filter(|ch| !ch.is_whitespace()).count();
    for c in cands {
        let segment = |text: &str| (c.segment)(c.bench_lang, text);
        if cover {
            match catch_unwind(|| segment(&corpus)) {
                Ok(Some(v)) => {
                    let kept: usize = v.iter().map(|s| non_ws(s)).sum();
                    let all = non_ws(&corpus);
                    println!(
                        "{:32} non-whitespace chars kept {kept}/{all} in {} segments",
                        c.name,
                        v.len()
                    );
                }
                _ => println!("{:32} failed (panicked or no rules)", c.name),
            }
            continue;
        }
        // The first whole-text call is the warm-up (lazy rule compilation and the like).
        let (how, (ms, runs, n)) = if !para && catch_unwind(|| segment(&corpus)).is_ok() {
            (
                "whole text",
                median3(|| segment(&corpus).map_or(0, |v| v.len())),
            )
        } else {
            let paras: Vec<&str> = corpus.split("\n\n").collect();
            let how = if para {
                "per paragraph"
            } else {
                "per paragraph (whole text panicked)"
            };
            (
                how,
                median3(|| {
                    paras
                        .iter()
                        .map(|p| segment(p).map_or(0, |v| v.len()))
                        .sum()
                }),
            )
        };
        println!(
            "{:32} {:9.1} ms/MB  {how}, runs {runs} ms, {n} segments",
            c.name,
            ms / mb
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("{USAGE}");
        exit(2)
    };
    let (mut verbose, mut bench_mode, mut para, mut cover) = (false, false, false, false);
    let (mut only, mut size) = (None, 1_000_000);
    for a in &args {
        match a.as_str() {
            "-v" => verbose = true,
            "--bench" => bench_mode = true,
            "--para" => para = true,
            "--cover" => cover = true,
            _ if a.starts_with("--only=") => only = Some(&a["--only=".len()..]),
            _ if a.starts_with("--size=") => {
                size = a["--size=".len()..].parse().unwrap_or_else(|_| usage())
            }
            _ => usage(),
        }
    }
    #[cfg(feature = "srx")]
    match sentence_crates::srx_status() {
        Ok(dropped) => eprintln!("srx: {dropped} rules dropped (regex features the crate lacks)"),
        Err(why) => eprintln!("srx: skipped: {why}"),
    }
    let mut cands = candidates();
    if let Some(only) = only {
        cands.retain(|c| c.name.contains(only));
    }
    if cands.is_empty() {
        eprintln!("no segmenter enabled (or none matches --only): build with --features pure-rust");
        exit(2);
    }
    let golden = cases(&load("golden_en.json")["cases"], |_, c| {
        c["case"].to_string()
    });
    if bench_mode {
        bench(&cands, &golden, size, para, cover);
    } else {
        scores(&cands, &golden, verbose);
    }
}
