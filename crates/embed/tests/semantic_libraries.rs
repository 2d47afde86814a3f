//! The semantic chunkers against their libraries, chunk for chunk, with the same vectors.
//!
//! The algorithm is tested apart from the model's numerics: our static encoder
//! (potion-base-8M) embeds every text the strategies ask for on every document of the
//! differential corpus, and each library runs with an embedding object of its own kind that
//! looks those very vectors up by text (`crates/chunk-core/tests/differential/oracle/
//! lib_semantic.py`; a text we did not embed makes the library raise). Over the corpus ×
//! thresholds (chonkie's `threshold` and sizes in three units, every LangChain breakpoint type
//! at two amounts and its `number_of_chunks` and `min_chunk_size`, LlamaIndex's percentile),
//! every chunk's text must be equal, and its offset where the library gives one.
//!
//! Also printed: the largest chunk each library made against the size, which `semantic` never
//! exceeds (asserted here on the same documents).
//!
//! Needs `EMBED_MODELS_DIR` and `CHUNK_ORACLE_PYTHON` (`make test`); `CHUNK_ORACLE_SKIP=1`
//! skips on purpose, saying so.

#[allow(dead_code)]
mod common;

#[path = "../../chunk-core/tests/differential/corpus.rs"]
mod corpus;
#[path = "../../chunk-core/tests/common/open_tokenizers.rs"]
mod open_tokenizers;

use chunk_core::strategy::semantic::{
    BreakpointThresholdType, ChonkieSemantic, LangchainSemantic, LlamaindexSemantic, OwnSemantic,
    Vectors,
};
use chunk_core::strategy::{Chunker, SemanticChunker, Settings, SizeUnit};
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::tokenizer::{Encoding, TokenCounter};
use embed_core::folder::StaticFolder;
use embed_core::static_model::StaticEncoder;
use open_tokenizers::install_open_tokenizers;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;

/// A chunk over the size: its units, the size, the document.
type Oversize = (usize, usize, &'static str);

/// One run of one strategy with one setting on one document.
struct Case {
    doc: &'static str,
    chunker: SemanticChunker,
    settings: Settings,
    /// The library's parameters as the oracle passes them (keyword arguments).
    params: Value,
    label: String,
}

fn settings(chunk_size: usize, unit: SizeUnit) -> Settings {
    Settings {
        chunk_size,
        chunk_overlap: 0,
        unit,
        encoding: Encoding::Cl100kBase,
    }
}

fn cases(docs: &[(&'static str, String)]) -> Vec<Case> {
    let mut out = Vec::new();
    for (doc, _) in docs {
        let doc: &'static str = doc;
        // chonkie: threshold × size in three units.
        for threshold in [0.5, 0.8, 0.95] {
            for s in [
                settings(64, SizeUnit::Tokens),
                settings(512, SizeUnit::Tokens),
                settings(300, SizeUnit::Characters),
                settings(128, SizeUnit::Model(OpenVocab::BertUncased)),
            ] {
                let rule = ChonkieSemantic {
                    threshold,
                    ..ChonkieSemantic::new(&s).unwrap()
                };
                out.push(Case {
                    doc,
                    chunker: SemanticChunker::of(rule, &s),
                    settings: s,
                    params: json!({"threshold": threshold}),
                    label: format!(
                        "threshold={threshold} chunk_size={} {:?}",
                        s.chunk_size, s.unit
                    ),
                });
            }
        }
        // LangChain: every breakpoint type at two amounts, number_of_chunks, min_chunk_size.
        let s = settings(512, SizeUnit::Tokens);
        let base = LangchainSemantic::new(&s).unwrap();
        let mut lc = |rule: LangchainSemantic, params: Value| {
            out.push(Case {
                doc,
                chunker: SemanticChunker::of(rule, &s),
                settings: s,
                label: params.to_string(),
                params,
            });
        };
        use BreakpointThresholdType as B;
        for b in [
            B::Percentile(95.0),
            B::Percentile(50.0),
            B::StandardDeviation(3.0),
            B::StandardDeviation(0.5),
            B::Interquartile(1.5),
            B::Interquartile(0.0),
            B::Gradient(95.0),
            B::Gradient(50.0),
        ] {
            lc(
                LangchainSemantic {
                    breakpoint: b,
                    ..base.clone()
                },
                json!({"breakpoint_threshold_type": b.name(),
                       "breakpoint_threshold_amount": b.amount()}),
            );
        }
        lc(
            LangchainSemantic {
                number_of_chunks: Some(5),
                ..base.clone()
            },
            json!({"number_of_chunks": 5}),
        );
        lc(
            LangchainSemantic {
                min_chunk_size: Some(300),
                breakpoint: B::Percentile(50.0),
                ..base.clone()
            },
            json!({"min_chunk_size": 300, "breakpoint_threshold_amount": 50.0}),
        );
        // LlamaIndex: three percentiles.
        for p in [50.0, 80.0, 95.0] {
            let rule = LlamaindexSemantic {
                breakpoint_percentile_threshold: p,
                ..LlamaindexSemantic::new(&s).unwrap()
            };
            out.push(Case {
                doc,
                chunker: SemanticChunker::of(rule, &s),
                settings: s,
                params: json!({"breakpoint_percentile_threshold": p}),
                label: format!("breakpoint_percentile_threshold={p}"),
            });
        }
    }
    out
}

fn unit_fields(s: &Settings) -> Value {
    match s.unit {
        SizeUnit::Tokens => json!({"unit": "tokens", "encoding": s.encoding.name()}),
        SizeUnit::Characters => json!({"unit": "characters", "encoding": s.encoding.name()}),
        SizeUnit::Model(v) => {
            json!({"unit": "model", "vocab": v.code(), "encoding": s.encoding.name()})
        }
    }
}

#[test]
fn semantic_chunkers_equal_their_libraries_with_the_same_vectors() {
    let Some((models, python)) = common::oracle_env("semantic chunkers") else {
        return;
    };
    install_open_tokenizers();
    let folder =
        StaticFolder::read(&models.join("potion-base-8m")).unwrap_or_else(|e| panic!("{e}"));
    let model = StaticEncoder::load(folder.files()).expect("the model loads");
    let docs = corpus::documents();
    let text_of: HashMap<&str, &str> = docs.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let cases = cases(&docs);

    // Every text any case embeds, once.
    let mut vectors = Vectors::new();
    let mut table = serde_json::Map::new();
    for case in &cases {
        // A refused text asks for nothing (the refusal is compared below).
        let Ok(texts) = case.chunker.embedding_texts(text_of[case.doc]) else {
            continue;
        };
        for t in vectors.missing(&texts) {
            let v = model.embed(&t).vector;
            table.insert(
                t.clone(),
                Value::from(v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()),
            );
            vectors.insert(t, v);
        }
    }
    let vectors = Arc::new(vectors);
    eprintln!(
        "semantic: {} cases, {} texts embedded",
        cases.len(),
        vectors.len()
    );

    let script = format!(
        "{}/../chunk-core/tests/differential/oracle/main.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the oracle");
    {
        let mut stdin = child.stdin.take().unwrap();
        let docs_json: serde_json::Map<String, Value> = docs
            .iter()
            .map(|(n, t)| (n.to_string(), Value::from(t.as_str())))
            .collect();
        writeln!(stdin, "{}", json!({"docs": docs_json, "vectors": table})).unwrap();
        for (id, case) in cases.iter().enumerate() {
            let mut line = json!({
                "id": id,
                "strategy": case.chunker.id().as_str(),
                "doc": case.doc,
                "chunk_size": case.settings.chunk_size,
                "chunk_overlap": 0,
                "params": case.params,
            });
            for (k, v) in unit_fields(&case.settings).as_object().unwrap() {
                line[k] = v.clone();
            }
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let mut results: BTreeMap<usize, Value> = BTreeMap::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let v: Value = serde_json::from_str(&line.unwrap()).expect("an oracle line");
        results.insert(v["id"].as_u64().unwrap() as usize, v);
    }
    assert!(child.wait().unwrap().success(), "the oracle failed");
    assert_eq!(results.len(), cases.len(), "an answer for every case");

    let mut failures = Vec::new();
    let mut equal_chunks = 0usize;
    let mut refusals = 0usize;
    // Per strategy: cases, and the largest chunk over the size (tokens, chunk_size, doc).
    let mut summary: BTreeMap<&str, (usize, Option<Oversize>)> = BTreeMap::new();
    for (id, case) in cases.iter().enumerate() {
        let text = text_of[case.doc];
        let name = case.chunker.id().as_str();
        let theirs = &results[&id];
        let what = format!("{name} on {} with {}", case.doc, case.label);
        let ours = case
            .chunker
            .clone()
            .with_vectors(vectors.clone())
            .split(text);
        let ours = match (ours, theirs.get("error")) {
            (Ok(ours), None) => ours,
            (Err(e), Some(theirs)) => {
                // Both refuse: the library's exception is the one our refusal names.
                eprintln!("semantic: {what}: both refuse ({e}; {theirs})");
                refusals += 1;
                continue;
            }
            (Ok(_), Some(e)) => {
                failures.push(format!("{what}: the library raised {e}"));
                continue;
            }
            (Err(e), None) => {
                failures.push(format!("{what}: we refuse ({e}), the library does not"));
                continue;
            }
        };
        let theirs = theirs["chunks"].as_array().unwrap();
        let entry = summary.entry(name).or_insert((0, None));
        entry.0 += 1;
        let length = case.settings.length();
        for p in &ours {
            let t = p
                .text
                .clone()
                .unwrap_or_else(|| text[p.bytes.clone()].to_string());
            let n = length.count(&t);
            if n > case.settings.chunk_size && entry.1.is_none_or(|(m, _, _)| n > m) {
                entry.1 = Some((n, case.settings.chunk_size, case.doc));
            }
        }
        if ours.len() != theirs.len() {
            failures.push(format!(
                "{what}: {} chunks, the library {}",
                ours.len(),
                theirs.len()
            ));
            continue;
        }
        for (k, (p, c)) in ours.iter().zip(theirs).enumerate() {
            let t = p
                .text
                .clone()
                .unwrap_or_else(|| text[p.bytes.clone()].to_string());
            if c["text"].as_str() != Some(t.as_str()) {
                failures.push(format!(
                    "{what}: chunk {k} differs: ours {:?}…, theirs {:?}…",
                    t.chars().take(60).collect::<String>(),
                    c["text"]
                        .as_str()
                        .unwrap_or("")
                        .chars()
                        .take(60)
                        .collect::<String>()
                ));
                break;
            }
            if let Some(start) = c["start"].as_u64() {
                let ours_start = text[..p.bytes.start].chars().count() as u64;
                if ours_start != start {
                    failures.push(format!(
                        "{what}: chunk {k} starts at character {ours_start}, the library says {start}"
                    ));
                    break;
                }
            }
            equal_chunks += 1;
        }
    }
    for (name, (n, worst)) in &summary {
        match worst {
            Some((tokens, size, doc)) => eprintln!(
                "semantic: {name}: {n} cases; largest chunk {tokens} units at chunk_size {size} ({doc})"
            ),
            None => eprintln!("semantic: {name}: {n} cases; no chunk over chunk_size"),
        }
    }
    eprintln!(
        "semantic: {} of {} cases equal ({refusals} refused by both), {equal_chunks} chunks equal",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );

    // `semantic` on the same documents and vectors: never over the size, every byte kept.
    for s in [
        settings(64, SizeUnit::Tokens),
        settings(512, SizeUnit::Tokens),
        settings(300, SizeUnit::Characters),
    ] {
        let own = SemanticChunker::of(OwnSemantic::new(&s).unwrap(), &s);
        for (doc, text) in &docs {
            let missing = vectors.missing(&own.embedding_texts(text).unwrap());
            let mut v = (*vectors).clone();
            for t in missing {
                let e = model.embed(&t).vector;
                v.insert(t, e);
            }
            let pieces = own.clone().with_vectors(Arc::new(v)).split(text).unwrap();
            let mut at = 0;
            for p in &pieces {
                assert_eq!(
                    p.bytes.start, at,
                    "semantic on {doc}: a gap or overlap at {at}"
                );
                assert!(p.text.is_none());
                let n = s.length().count(&text[p.bytes.clone()]);
                assert!(
                    n <= s.chunk_size,
                    "semantic on {doc}: {n} over {}",
                    s.chunk_size
                );
                at = p.bytes.end;
            }
            assert_eq!(at, text.len(), "semantic on {doc}: the end is lost");
        }
    }
}

/// The model as well as the algorithm: chonkie with model2vec's own potion-base-8M (loaded by
/// model2vec from the same folder; `tests/oracle/chonkie_semantic_model.py`) against our static
/// encoder's vectors through our rule, at chonkie's defaults (`chunk_size` 2048, counted here
/// in bert-base-uncased's tokens, a stand-in for potion's own 29,528-entry vocabulary, and by
/// chonkie in potion's). Reported: the similarities' largest difference and the cuts that
/// differ, with the similarity gap that flipped each. Asserted: the similarities agree to
/// 1e-5, and at least 95 % of the cuts are the same.
#[test]
fn chonkie_with_model2vec_end_to_end() {
    let Some((models, python)) = common::oracle_env("semantic chunkers, end to end") else {
        return;
    };
    install_open_tokenizers();
    let dir = models.join("potion-base-8m");
    let folder = StaticFolder::read(&dir).unwrap_or_else(|e| panic!("{e}"));
    let model = StaticEncoder::load(folder.files()).expect("the model loads");
    let names = [
        "moonstone-short.txt",
        "guide.md",
        "rules.md",
        "source.py",
        "default_ru.txt",
        "default_vi.txt",
        "default_pl.txt",
        "mixed_cjk.txt",
    ];
    let docs: Vec<(&str, String)> = corpus::documents()
        .into_iter()
        .filter(|(n, _)| names.contains(n))
        .collect();
    let lines: Vec<String> = docs
        .iter()
        .map(|(_, t)| json!({"text": t, "chunk_size": 2048}).to_string())
        .collect();
    let script = format!(
        "{}/tests/oracle/chonkie_semantic_model.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the reference");
    child
        .stdin
        .take()
        .unwrap()
        .write_all((lines.join("\n") + "\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("the reference exits");
    assert!(out.status.success(), "the reference failed");
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), docs.len());

    let s = settings(2048, SizeUnit::Model(OpenVocab::BertUncased));
    let (mut cuts_same, mut cuts_all, mut worst_sim) = (0usize, 0usize, 0f64);
    for ((doc, text), theirs) in docs.iter().zip(&answers) {
        let chunker = SemanticChunker::of(ChonkieSemantic::new(&s).unwrap(), &s);
        let mut v = Vectors::new();
        for t in chunker.embedding_texts(text).unwrap() {
            let e = model.embed(&t).vector;
            v.insert(t, e);
        }
        let (pieces, curve) = chunker
            .with_vectors(Arc::new(v))
            .split_with_curve(text)
            .unwrap();
        let sims: Vec<f64> = theirs["similarities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(sims.len(), curve.points.len(), "{doc}: the same sentences");
        for (p, &t) in curve.points.iter().zip(&sims) {
            worst_sim = worst_sim.max((p.value - t).abs());
        }
        // Cuts as character offsets (chonkie's start_index).
        let ours: Vec<u64> = pieces
            .iter()
            .skip(1)
            .map(|p| text[..p.bytes.start].chars().count() as u64)
            .collect();
        let theirs_cuts: Vec<u64> = theirs["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .skip(1)
            .map(|c| c["start"].as_u64().unwrap())
            .collect();
        let same = ours.iter().filter(|c| theirs_cuts.contains(c)).count();
        cuts_same += same;
        cuts_all += ours.len().max(theirs_cuts.len());
        eprintln!(
            "semantic end to end: {doc}: {} chunks ours, {} chonkie's; {same} cuts the same",
            pieces.len(),
            theirs_cuts.len() + 1
        );
        for c in ours.iter().filter(|c| !theirs_cuts.contains(c)) {
            eprintln!("  only ours: a cut at character {c}");
        }
        for c in theirs_cuts.iter().filter(|c| !ours.contains(c)) {
            eprintln!("  only chonkie's: a cut at character {c}");
        }
    }
    eprintln!(
        "semantic end to end: {cuts_same} of {cuts_all} cuts the same; largest similarity difference {worst_sim:.2e}"
    );
    assert!(worst_sim < 1e-5, "similarities differ by {worst_sim}");
    assert!(
        cuts_same * 100 >= cuts_all * 95,
        "{cuts_same} of {cuts_all} cuts the same"
    );
}
