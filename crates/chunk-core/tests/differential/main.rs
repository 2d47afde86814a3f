//! Differential tests: every library-exact strategy against the library itself, chunk for
//! chunk, over a corpus × chunk sizes × overlaps × encodings (and characters where the library
//! sizes in them).
//!
//! The libraries run in Python (`oracle/main.py`, pinned in `requirements.txt`), in the venv
//! that `scripts/ensure-oracle.sh` creates; `make test` sets `CHUNK_ORACLE_PYTHON` and
//! `TIKTOKEN_CACHE_DIR`. Without `CHUNK_ORACLE_PYTHON` the tests fail, unless
//! `CHUNK_ORACLE_SKIP=1` asks to skip them (a skipped oracle must never look like a pass).
//! The Rust snippets of text-splitter need no Python: their test builds them with cargo,
//! offline, in `CARGO_TARGET_TMPDIR/rust-snippets` (its `target/` is kept between runs), and
//! never skips.
//!
//! Environment:
//! - `DIFF_STRATEGIES=langchain-token,semchunk`: only these strategies;
//! - `DIFF_DOCS=guide.md,empty`: only these documents;
//! - `DIFF_ALL_FAILURES=1`: list up to 20 differences per strategy instead of the first.

mod corpus;
mod keeps;
#[path = "../common/open_tokenizers.rs"]
mod open_tokenizers;

use chunk_core::strategy::{
    chunker, run, LlamaindexMarkdownNodeParser, MetadataFit, Settings, SizeUnit, StrategyError,
    StrategyId,
};
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::tokenizer::Encoding;
use open_tokenizers::install_open_tokenizers;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// One setting of one strategy on one document.
#[derive(Clone, Debug)]
struct Case {
    id: usize,
    strategy: StrategyId,
    doc: &'static str,
    settings: Settings,
}

impl Case {
    fn describe(&self) -> String {
        format!(
            "{} on {} with chunk_size={} chunk_overlap={} {} ({})",
            self.strategy,
            self.doc,
            self.settings.chunk_size,
            self.settings.chunk_overlap,
            match self.settings.unit {
                SizeUnit::Tokens => "tokens",
                SizeUnit::Characters => "characters",
                SizeUnit::Model(v) => v.code(),
            },
            self.settings.encoding
        )
    }
}

/// Chunk sizes in tokens and in characters: small to large, with overlaps 0, ~12 % and 25 %.
const TOKEN_SIZES: [usize; 5] = [24, 64, 200, 512, 1024];
/// Chunk sizes in an open model's tokens (each vocabulary, every strategy that sizes with it).
/// The smallest only on documents under [`SMALL_DOC_BYTES`]: on the 114 KB fixture it is
/// thousands of chunks a case, each measured by Python `tokenizers`, for no rule the smaller
/// documents do not exercise (the CI budget).
const MODEL_SIZES: [usize; 3] = [24, 64, 512];
/// Documents this small also run at the smallest model size.
const SMALL_DOC_BYTES: usize = 16 * 1024;
const CHAR_SIZES: [usize; 5] = [80, 300, 1000, 2000, 4000];

fn overlaps(size: usize) -> Vec<usize> {
    let mut o = vec![0, size * 12 / 100, size / 4];
    // Where libraries refuse (LangChain: overlap > size; TokenTextSplitter, text-splitter,
    // chonkie's TokenChunker: overlap ≥ size): one size per unit.
    if size == TOKEN_SIZES[1] || size == CHAR_SIZES[1] {
        o.extend([size, size + 1]);
    }
    o
}

fn grid(docs: &[(&'static str, String)], strategies: &[StrategyId]) -> Vec<Case> {
    let mut cases = Vec::new();
    for &strategy in strategies {
        for (doc, text) in docs {
            let mut push = |unit, encoding, size| {
                for overlap in overlaps(size) {
                    cases.push(Case {
                        id: cases.len(),
                        strategy,
                        doc,
                        settings: Settings {
                            chunk_size: size,
                            chunk_overlap: overlap,
                            unit,
                            encoding,
                        },
                    });
                }
            };
            for encoding in Encoding::ALL {
                for size in TOKEN_SIZES {
                    push(SizeUnit::Tokens, encoding, size);
                }
            }
            if strategy.supports(SizeUnit::Characters) {
                for size in CHAR_SIZES {
                    push(SizeUnit::Characters, Encoding::Cl100kBase, size);
                }
            }
            for vocab in OpenVocab::ALL {
                if strategy.supports(SizeUnit::Model(vocab)) {
                    for size in MODEL_SIZES {
                        if size > MODEL_SIZES[0] || text.len() < SMALL_DOC_BYTES {
                            push(SizeUnit::Model(vocab), Encoding::Cl100kBase, size);
                        }
                    }
                }
            }
        }
    }
    cases
}

/// The oracle venv's python from `CHUNK_ORACLE_PYTHON`. Without it the test fails, unless
/// `CHUNK_ORACLE_SKIP=1` says on purpose that it is not to run (then `None`, and it says so).
fn oracle_python(what: &str) -> Option<String> {
    match std::env::var("CHUNK_ORACLE_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ if std::env::var("CHUNK_ORACLE_SKIP").as_deref() == Ok("1") => {
            eprintln!("{what} tests NOT RUN: CHUNK_ORACLE_SKIP=1");
            None
        }
        _ => panic!(
            "CHUNK_ORACLE_PYTHON is not set, so the {what} tests cannot run: use `make test` or \
             `make test-differential` (they create the venv), or set CHUNK_ORACLE_SKIP=1 to skip"
        ),
    }
}

fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
}

/// Runs the oracle on every case; results by case id.
fn oracle(python: &str, docs: &[(&'static str, String)], cases: &[Case]) -> HashMap<usize, Value> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/differential/oracle/main.py"
    );
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the oracle {python}: {e}"));
    let mut input = String::new();
    let doc_map: BTreeMap<&str, &str> = docs.iter().map(|(n, t)| (*n, t.as_str())).collect();
    input.push_str(&json!({ "docs": doc_map }).to_string());
    input.push('\n');
    for c in cases {
        let line = json!({
            "id": c.id,
            "strategy": c.strategy.as_str(),
            "doc": c.doc,
            "chunk_size": c.settings.chunk_size,
            "chunk_overlap": c.settings.chunk_overlap,
            "unit": c.settings.unit.code(),
            "vocab": match c.settings.unit {
                SizeUnit::Model(v) => Some(v.code()),
                _ => None,
            },
            "encoding": c.settings.encoding.name(),
        });
        input.push_str(&line.to_string());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().expect("piped stdout");
    let mut out = HashMap::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("oracle output is UTF-8");
        let v: Value = serde_json::from_str(&line).expect("oracle output is JSON");
        let id = v["id"].as_u64().expect("oracle result has an id") as usize;
        out.insert(id, v);
    }
    writer
        .join()
        .expect("writer thread")
        .expect("oracle read its input");
    let status = child.wait().expect("oracle exits");
    assert!(status.success(), "the oracle failed: {status}");
    out
}

/// Char offset of every byte offset that starts a char (and of the end).
fn char_offsets(text: &str) -> HashMap<usize, usize> {
    text.char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()))
        .enumerate()
        .map(|(c, b)| (b, c))
        .collect()
}

fn show(s: &str) -> String {
    let mut t: String = s.chars().take(160).collect();
    if s.chars().count() > 160 {
        t.push('…');
    }
    format!("{t:?} ({} chars)", s.chars().count())
}

/// True when our refusal is the kind of error the library raised (`"ExceptionType: message"`).
fn same_refusal(library: &str, ours: &StrategyError) -> bool {
    use StrategyError as E;
    let (kind, message) = library.split_once(": ").unwrap_or((library, ""));
    match kind {
        "RecursionError" => matches!(
            ours,
            E::CharacterOverChunkSize { .. } | E::RecursionLimit { .. }
        ),
        "ValueError" if message.contains("special token") => {
            matches!(ours, E::TextRefused { .. })
        }
        // LlamaIndex's split_text_metadata_aware: the same numbers.
        "ValueError" if message.starts_with("Metadata length (") => matches!(
            ours,
            E::MetadataOverChunkSize { metadata_length, chunk_size, .. }
                if message.starts_with(&format!(
                    "Metadata length ({metadata_length}) is longer than chunk size ({chunk_size})."
                ))
        ),
        "ValueError" => matches!(
            ours,
            E::OverlapRefused { .. }
                | E::ParameterRefused { .. }
                | E::Params(chunk_core::params::ParamsError::ZeroChunkSize)
        ),
        _ => false,
    }
}

/// What one case came to.
enum Outcome {
    /// This many chunks, equal to the library's.
    Equal(usize),
    /// Both refused, the same way.
    BothRefused,
    /// We refuse because the library decodes the model's token ids here
    /// ([`StrategyError::ModelDecode`]): a statement, not a reproduction; counted apart.
    NotReproduced,
}

/// Compares one case; `Err` describes the first difference.
fn compare(case: &Case, text: &str, theirs: &Value) -> Result<Outcome, String> {
    let ours = std::panic::catch_unwind(|| {
        chunker(case.strategy, &case.settings)
            .and_then(|c| run(c.as_ref(), text, case.settings.encoding))
    })
    .map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("our strategy panicked: {msg}")
    })?;
    if let Err(StrategyError::ModelDecode { .. }) = ours {
        return Ok(Outcome::NotReproduced);
    }
    if let Some(err) = theirs.get("error").and_then(Value::as_str) {
        return match ours {
            Err(e) if same_refusal(err, &e) => Ok(Outcome::BothRefused),
            Err(e) => Err(format!(
                "the library raised {err:?}; we refused otherwise: {e:?}"
            )),
            Ok(o) => Err(format!(
                "the library raised {err:?}; we made {} chunks",
                o.chunks.len()
            )),
        };
    }
    let ours = ours.map_err(|e| format!("we refused ({e}); the library chunked it"))?;
    keeps::check(ours.keeps, text, &ours)
        .map_err(|e| format!("our chunks break the {:?} statement: {e}", ours.keeps))?;
    let lib = theirs["chunks"].as_array().expect("chunks array");
    let chars = char_offsets(text);
    for (i, (o, l)) in ours.chunks.iter().zip(lib).enumerate() {
        let ot = o.text(text);
        let lt = l["text"].as_str().expect("chunk text");
        if ot != lt {
            return Err(format!(
                "chunk {i} of {} (library {}): ours {} ≠ library {}",
                ours.chunks.len(),
                lib.len(),
                show(&ot),
                show(lt)
            ));
        }
        // LlamaIndex's header_path metadata: the headings joined and framed by "/", or "/".
        if let Some(want) = l.get("header_path").and_then(Value::as_str) {
            let joined = o.heading_path.join("/");
            let got = if joined.is_empty() {
                "/".to_string()
            } else {
                format!("/{joined}/")
            };
            if got != want {
                return Err(format!(
                    "chunk {i}: header_path ours {got:?} ≠ library {want:?}"
                ));
            }
        }
        if let Some(path) = l.get("heading_path").and_then(Value::as_array) {
            let want: Vec<&str> = path.iter().filter_map(Value::as_str).collect();
            if o.heading_path != want {
                return Err(format!(
                    "chunk {i}: heading path ours {:?} ≠ library {want:?}",
                    o.heading_path
                ));
            }
        }
        for (key, byte) in [("start", o.bytes.start), ("end", o.bytes.end)] {
            if let Some(want) = l[key].as_u64() {
                let got = chars.get(&byte).copied();
                if got != Some(want as usize) {
                    return Err(format!(
                        "chunk {i}: {key} ours {got:?} (byte {byte}) ≠ library {want} (chars)"
                    ));
                }
            }
        }
    }
    if ours.chunks.len() != lib.len() {
        let next = lib
            .get(ours.chunks.len())
            .and_then(|l| l["text"].as_str())
            .map(show)
            .unwrap_or_default();
        return Err(format!(
            "ours {} chunks, library {} (first extra library chunk: {next})",
            ours.chunks.len(),
            lib.len()
        ));
    }
    // LlamaIndex's markdown chain: the nodes for which the library printed "Metadata length
    // (…) is close to chunk size (…)", by their metadata lengths, in order.
    if let Some(close) = theirs.get("close").and_then(Value::as_array) {
        let want: Vec<u64> = close.iter().filter_map(Value::as_u64).collect();
        let got: Vec<u64> = LlamaindexMarkdownNodeParser::new(&case.settings)
            .and_then(|p| p.sections(text))
            .map_err(|e| format!("no sections: {e}"))?
            .iter()
            .filter(|s| matches!(s.fit, MetadataFit::Close { .. }))
            .map(|s| s.fit.metadata_length() as u64)
            .collect();
        if got != want {
            return Err(format!(
                "the library printed \"close to chunk size\" for metadata lengths {want:?}, we \
                 say {got:?}"
            ));
        }
    }
    Ok(Outcome::Equal(lib.len()))
}

/// Per strategy: settings compared, of which both refused, chunks equal, settings that differ,
/// and the first differences.
#[derive(Default)]
struct Tally {
    settings: usize,
    refused: usize,
    /// Cases we do not reproduce (the library decodes the model's tokens there).
    decoded: usize,
    /// Cases sized in an open model's tokens, the only ones that can be `decoded`.
    model_settings: usize,
    chunks: usize,
    differ: usize,
    first: Vec<String>,
}

#[test]
fn library_strategies_equal_the_libraries_chunk_for_chunk() {
    let Some(python) = oracle_python("differential") else {
        return;
    };
    let mut docs = corpus::documents();
    if let Some(only) = env_list("DIFF_DOCS") {
        docs.retain(|(n, _)| only.iter().any(|o| o == n));
    }
    let strategies: Vec<StrategyId> = StrategyId::all()
        .filter(|s| s.library().is_some())
        .filter(|s| {
            env_list("DIFF_STRATEGIES").is_none_or(|only| only.iter().any(|o| o == s.as_str()))
        })
        .collect();
    install_open_tokenizers();
    let cases = grid(&docs, &strategies);
    // A panic in our strategy is reported as that case's difference, not printed per case.
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let results = oracle(&python, &docs, &cases);
    eprintln!(
        "oracle: {} cases in {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    let texts: HashMap<&str, &str> = docs.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let all = std::env::var_os("DIFF_ALL_FAILURES").is_some();
    let mut per: BTreeMap<StrategyId, Tally> = BTreeMap::new();
    for case in &cases {
        let entry = per.entry(case.strategy).or_default();
        let theirs = results
            .get(&case.id)
            .unwrap_or_else(|| panic!("no oracle result for {}", case.describe()));
        entry.settings += 1;
        entry.model_settings += usize::from(matches!(case.settings.unit, SizeUnit::Model(_)));
        match compare(case, texts[case.doc], theirs) {
            Ok(Outcome::Equal(n)) => entry.chunks += n,
            Ok(Outcome::BothRefused) => entry.refused += 1,
            Ok(Outcome::NotReproduced) => entry.decoded += 1,
            Err(why) => {
                entry.differ += 1;
                if entry.first.is_empty() || (all && entry.first.len() < 20) {
                    entry.first.push(format!("{}: {why}", case.describe()));
                }
            }
        }
    }
    let mut failed = false;
    for (s, t) in &per {
        eprintln!(
            "{s}: {} settings compared ({} refused by both, the same way; {} not reproduced: the library decodes the model's tokens), {} chunks equal, {} settings differ",
            t.settings, t.refused, t.decoded, t.chunks, t.differ
        );
        // Only chonkie's RecursiveChunker decodes token ids (at its last level, on a sentence
        // longer than the size): no other strategy may leave a model-sized case unreproduced.
        if t.decoded > 0 {
            eprintln!(
                "    {s}: {} of {} model-sized settings not reproduced",
                t.decoded, t.model_settings
            );
            failed |= *s != StrategyId::ChonkieRecursive;
        }
        for f in &t.first {
            eprintln!("    {f}");
        }
        failed |= t.differ > 0;
    }
    let total: usize = per.values().map(|t| t.settings).sum();
    let refused: usize = per.values().map(|t| t.refused).sum();
    let chunks: usize = per.values().map(|t| t.chunks).sum();
    eprintln!(
        "differential: {total} comparisons ({refused} refused by both), {chunks} chunks compared equal, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        !failed,
        "a library strategy differs from its library (see above)"
    );
}

/// The page's Python snippets, run with the libraries in the venv, give exactly the strategy's
/// chunks (the texts the page exports) on the fixture and a CRLF markdown document.
#[test]
fn snippets_reproduce_the_strategies_chunks() {
    use chunk_core::analysis::export::rows;
    use chunk_core::analysis::snippet::{snippets_for, PYTHON};
    use chunk_core::models::{model, EmbeddingModel};
    let Some(python) = oracle_python("snippet") else {
        return;
    };
    install_open_tokenizers();
    // A model of each open vocabulary, for the settings sized in its own tokens.
    let bge = model("bge-small-en-v1-5").expect("bge-small-en-v1.5 is in the table");
    let e5 = model("multilingual-e5-large").expect("multilingual-e5-large is in the table");
    let docs: Vec<(&str, String)> = corpus::documents()
        .into_iter()
        .filter(|(n, _)| ["moonstone-short.txt", "guide-crlf.md"].contains(n))
        .collect();
    let settings = [
        (512, 64, SizeUnit::Tokens, Encoding::Cl100kBase),
        (256, 32, SizeUnit::Tokens, Encoding::O200kBase),
        (1000, 200, SizeUnit::Characters, Encoding::Cl100kBase),
        (400, 0, SizeUnit::Characters, Encoding::Cl100kBase),
        (
            256,
            32,
            SizeUnit::Model(OpenVocab::BertUncased),
            Encoding::Cl100kBase,
        ),
        (
            512,
            0,
            SizeUnit::Model(OpenVocab::XlmRoberta),
            Encoding::Cl100kBase,
        ),
    ];
    let model_of = |unit: SizeUnit| -> Option<&'static EmbeddingModel> {
        match unit {
            SizeUnit::Model(OpenVocab::BertUncased) => Some(bge),
            SizeUnit::Model(OpenVocab::XlmRoberta) => Some(e5),
            _ => None,
        }
    };
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("snippets");
    let _ = std::fs::remove_dir_all(&root);
    let mut cases = Vec::new(); // (dir, description, our chunk texts or None where we refuse)
    for id in StrategyId::all().filter(|s| s.library().is_some()) {
        for &(chunk_size, chunk_overlap, unit, encoding) in &settings {
            let s = Settings {
                chunk_size,
                chunk_overlap,
                unit,
                encoding,
            };
            // Every Python snippet, text-splitter's binding too (the page shows its Rust one,
            // tested by `text_splitter_rust_snippets_reproduce_the_strategies_chunks`).
            let model = model_of(unit);
            let Some(code) = snippets_for(id, &s, model)
                .into_iter()
                .find(|c| c.language == PYTHON)
            else {
                continue;
            };
            for (doc, text) in &docs {
                // Where we refuse, the snippet must raise (an empty list stands for that).
                let texts: Option<Vec<String>> = chunker(id, &s)
                    .and_then(|c| run(c.as_ref(), text, encoding))
                    .ok()
                    .map(|ours| {
                        rows(text, &ours, None)
                            .into_iter()
                            .map(|r| r.text)
                            .collect()
                    });
                let dir = root.join(cases.len().to_string());
                std::fs::create_dir_all(&dir).expect("temp dir");
                std::fs::write(dir.join("document.txt"), text).expect("write document");
                std::fs::write(dir.join("snippet.py"), &code.code).expect("write snippet");
                if let (Some(m), SizeUnit::Model(v)) = (model, unit) {
                    // What the runner's stand-in for the Hub gives for this model's name.
                    std::fs::write(
                        dir.join("hub.json"),
                        json!({ m.name: v.code() }).to_string(),
                    )
                    .expect("write hub.json");
                }
                let what =
                    format!("{id} on {doc} with {chunk_size}/{chunk_overlap} {unit:?} {encoding}");
                cases.push((dir, what, texts));
            }
        }
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/differential/oracle/run_snippets.py"
    );
    let mut child = Command::new(&python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the snippet runner");
    let list: String = cases
        .iter()
        .map(|(d, _, _)| format!("{}\n", d.display()))
        .collect();
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(list.as_bytes())
        .expect("send the list");
    let out = child.wait_with_output().expect("snippet runner exits");
    assert!(out.status.success(), "the snippet runner failed");
    let results: HashMap<String, Value> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("JSON");
            (v["dir"].as_str().unwrap_or_default().to_string(), v)
        })
        .collect();
    let mut failures = Vec::new();
    for (dir, what, ours) in &cases {
        let r = &results[&dir.display().to_string()];
        let theirs: Option<Vec<&str>> = r["chunks"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect());
        let Some(ours) = ours else {
            if theirs.is_some() {
                failures.push(format!("{what}: we refuse, but the snippet ran"));
            }
            continue;
        };
        match theirs {
            None => failures.push(format!("{what}: the snippet raised {}", r["error"])),
            Some(t) if t != *ours => {
                let i = t
                    .iter()
                    .zip(ours)
                    .position(|(a, b)| a != b)
                    .unwrap_or(t.len().min(ours.len()));
                failures.push(format!(
                    "{what}: snippet gives {} chunks, we {}; first difference at chunk {i}",
                    t.len(),
                    ours.len()
                ));
            }
            Some(_) => {}
        }
    }
    let requirements = include_str!("requirements.txt");
    for pin in [
        format!(
            "tiktoken=={}",
            chunk_core::analysis::snippet::TIKTOKEN_VERSION
        ),
        format!(
            "tokenizers=={}",
            chunk_core::analysis::snippet::TOKENIZERS_VERSION
        ),
    ] {
        if !requirements.lines().any(|l| l == pin) {
            failures.push(format!(
                "the snippets install {pin}, requirements.txt pins another"
            ));
        }
    }
    eprintln!("snippets: {} run, {} differ", cases.len(), failures.len());
    assert!(
        failures.is_empty(),
        "snippets that do not reproduce the page's chunks:\n{}",
        failures.join("\n")
    );
}

/// The page's Rust snippets for text-splitter, built as a user would (a `cargo new`
/// project, the snippet's `cargo add` lines run as they are, the workspace's `Cargo.lock` for
/// the versions) and run on the fixture and a CRLF markdown document, give exactly the
/// strategy's chunks (the texts the page exports). Needs no Python, so it never skips: without
/// cargo, or without the crates (offline or from the registry), it fails.
#[test]
fn text_splitter_rust_snippets_reproduce_the_strategies_chunks() {
    use chunk_core::analysis::export::rows;
    use chunk_core::analysis::snippet::{snippet, RUST, TIKTOKEN_RS_VERSION};
    use std::path::Path;
    let started = std::time::Instant::now();
    let docs: Vec<(&str, String)> = corpus::documents()
        .into_iter()
        .filter(|(n, _)| ["moonstone-short.txt", "guide-crlf.md"].contains(n))
        .collect();
    assert_eq!(docs.len(), 2, "the fixture and guide-crlf.md");
    let settings = [
        (512, 64, SizeUnit::Tokens, Encoding::Cl100kBase),
        (256, 32, SizeUnit::Tokens, Encoding::O200kBase),
        (1000, 200, SizeUnit::Characters, Encoding::Cl100kBase),
    ];
    // The crate versions the snippets add are the workspace's own.
    let lock = include_str!("../../../../Cargo.lock");
    for (name, version) in [
        ("text-splitter", "0.33.1"),
        ("tiktoken-rs", TIKTOKEN_RS_VERSION),
    ] {
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"\n");
        assert!(
            lock.contains(&entry),
            "the Rust snippets add {name} {version}, Cargo.lock has another"
        );
    }
    // One cargo project per install line, each snippet a binary of it: every project builds
    // once, with exactly the dependencies and features its `cargo add` lines give.
    let mut projects: BTreeMap<String, Vec<(String, String, StrategyId, Settings)>> =
        BTreeMap::new();
    for id in [StrategyId::TextSplitter, StrategyId::TextSplitterMarkdown] {
        for &(chunk_size, chunk_overlap, unit, encoding) in &settings {
            let s = Settings {
                chunk_size,
                chunk_overlap,
                unit,
                encoding,
            };
            let code = snippet(id, &s).unwrap_or_else(|| panic!("no snippet for {id} {s:?}"));
            assert_eq!(code.language, RUST, "the page shows Rust for {id}");
            let unit = match unit {
                SizeUnit::Tokens => encoding.name(),
                SizeUnit::Characters => "characters",
                SizeUnit::Model(v) => v.code(),
            };
            let bin = format!("{id}-{chunk_size}-{chunk_overlap}-{unit}");
            projects
                .entry(code.install)
                .or_default()
                .push((bin, code.code, id, s));
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust-snippets");
    // Kept between runs (the dependencies build once); its own, so the outer build's lock is
    // not in the way.
    let target = root.join("target");
    // Offline first: the workspace's own build has fetched every crate the snippets use. A
    // registry cache that lacks an index entry or a crate (a CI machine's, filled only by what
    // its earlier builds needed) is filled from the registry on a second try, and the first
    // error is printed, so a real failure still names its cause.
    let run_cargo = |dir: &Path, args: &[&str]| {
        let attempt = |args: &[&str]| {
            Command::new(&cargo)
                .args(args)
                .current_dir(dir)
                .env("CARGO_TARGET_DIR", &target)
                .output()
                .unwrap_or_else(|e| panic!("cannot run {cargo}: {e}"))
        };
        let mut out = attempt(args);
        if !out.status.success() && args.contains(&"--offline") {
            eprintln!(
                "rust snippets: `cargo {}` failed offline in {}, trying with the registry:\n{}",
                args.join(" "),
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let online: Vec<&str> = args.iter().copied().filter(|a| *a != "--offline").collect();
            out = attempt(&online);
        }
        assert!(
            out.status.success(),
            "`cargo {}` failed in {}:\n{}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let workspace_lock = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock");
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut chunks = 0;
    for (n, (install, bins)) in projects.iter().enumerate() {
        let dir = root.join(format!("project-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/bin")).expect("temp dir");
        // What `cargo new` writes.
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"snippet-{n}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n# Its own workspace: the temp dir may lie inside this repository's.\n[workspace]\n\n[dependencies]\n"
            ),
        )
        .expect("write Cargo.toml");
        for (bin, code, _, _) in bins {
            std::fs::write(dir.join(format!("src/bin/{bin}.rs")), code).expect("write snippet");
        }
        std::fs::copy(workspace_lock, dir.join("Cargo.lock")).expect("copy Cargo.lock");
        for line in install.lines() {
            let args: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(args[..2], ["cargo", "add"], "an install line: {line}");
            let mut add = vec!["add", "--offline"];
            add.extend(&args[2..]);
            run_cargo(&dir, &add);
        }
        // `cargo add` locks anew what it adds; the workspace's versions for every crate.
        std::fs::copy(workspace_lock, dir.join("Cargo.lock")).expect("copy Cargo.lock");
        // Formatted as rustfmt writes it, in the edition `cargo new` gives.
        let fmt = Command::new("rustfmt")
            .args(["--check", "--edition", "2024"])
            .args(bins.iter().map(|(bin, ..)| format!("src/bin/{bin}.rs")))
            .current_dir(&dir)
            .output()
            .expect("run rustfmt");
        assert!(
            fmt.status.success(),
            "a Rust snippet is not as rustfmt writes it:\n{}",
            String::from_utf8_lossy(&fmt.stdout)
        );
        run_cargo(&dir, &["build", "--offline", "--release", "--bins"]);
        for (bin, _, id, s) in bins {
            for (doc, text) in &docs {
                let what = format!("{bin} on {doc}");
                let ours: Vec<String> = rows(
                    text,
                    &run(
                        chunker(*id, s).expect("accepted").as_ref(),
                        text,
                        s.encoding,
                    )
                    .expect("chunks"),
                    None,
                )
                .into_iter()
                .map(|r| r.text)
                .collect();
                let run_dir = dir.join("runs").join(format!("{bin}-{doc}"));
                std::fs::create_dir_all(&run_dir).expect("run dir");
                std::fs::write(run_dir.join("document.txt"), text).expect("write document");
                let out = Command::new(target.join("release").join(bin))
                    .current_dir(&run_dir)
                    .output()
                    .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
                compared += 1;
                if !out.status.success() {
                    failures.push(format!(
                        "{what}: the snippet failed: {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    continue;
                }
                let theirs: Vec<String> = match serde_json::from_slice(&out.stdout) {
                    Ok(t) => t,
                    Err(e) => {
                        failures.push(format!("{what}: not a JSON array of strings: {e}"));
                        continue;
                    }
                };
                if theirs != ours {
                    let i = theirs
                        .iter()
                        .zip(&ours)
                        .position(|(a, b)| a != b)
                        .unwrap_or(theirs.len().min(ours.len()));
                    failures.push(format!(
                        "{what}: snippet gives {} chunks, we {}; first difference at chunk {i}",
                        theirs.len(),
                        ours.len()
                    ));
                } else {
                    chunks += ours.len();
                }
            }
        }
    }
    eprintln!(
        "rust snippets: {compared} run ({} projects), {chunks} chunks equal, {} differ, in {:.1} s",
        projects.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(compared == 12, "{compared} cases run, 12 expected");
    assert!(
        failures.is_empty(),
        "Rust snippets that do not reproduce the page's chunks:\n{}",
        failures.join("\n")
    );
}

/// Every library default the page offers ([`StrategyId::library_defaults`]) is the one the
/// pinned library's constructor declares (read from its signature by `oracle/defaults.py`),
/// and a library whose size has a default is listed.
#[test]
fn library_defaults_are_the_libraries_own() {
    let Some(python) = oracle_python("library defaults") else {
        return;
    };
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/differential/oracle/defaults.py"
    );
    let out = Command::new(&python)
        .arg(script)
        .output()
        .expect("run defaults.py");
    assert!(
        out.status.success(),
        "defaults.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: serde_json::Map<String, Value> =
        serde_json::from_slice(&out.stdout).expect("defaults.py prints a JSON object");
    let mut compared = 0;
    for id in StrategyId::all() {
        let ours = id.library_defaults();
        match (theirs.get(id.as_str()), ours) {
            (Some(t), Some(d)) => {
                let unit = match d.unit {
                    SizeUnit::Tokens => "tokens",
                    SizeUnit::Characters => "characters",
                    SizeUnit::Model(v) => v.code(),
                };
                assert_eq!(t["chunk_size"], d.chunk_size, "{id}: chunk_size default");
                assert_eq!(
                    t["chunk_overlap"], d.chunk_overlap,
                    "{id}: chunk_overlap default"
                );
                assert_eq!(t["unit"], unit, "{id}: default unit");
                compared += 1;
            }
            (None, None) => {}
            (t, d) => panic!("{id}: the library says {t:?}, the core {d:?}"),
        }
    }
    assert_eq!(compared, 9, "library defaults compared");
    eprintln!("library defaults: {compared} strategies equal to their libraries' signatures");
}
