//! `rag-chunk` against the page: a file's rows are the comparison worker's rows
//! (`compare-engine`, which the page runs), and the binary's outputs agree with each other,
//! skip what they cannot read with its reason, and say so in the exit status.

use std::path::{Path, PathBuf};
use std::process::Command;

use chunk_core::analysis::protocol::{Figures, Lane, Outcome, Reply, Request};
use chunk_core::models::ModelRef;
use chunk_core::strategy::StrategyId;
use chunk_core::tokenizer::open::OpenVocab;
use compare_engine::Engine;
use corpus_core::{compare_text, Config};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// The page's rows: the comparison worker's engine, its vocabulary loaded as the page's
/// worker loads the fetched file.
fn page_rows(text: &str, figures: &Figures) -> Vec<(StrategyId, Outcome)> {
    let mut engine = Engine::default();
    engine.set_text(1, text.to_owned(), None);
    let strategies: Vec<StrategyId> = StrategyId::all().collect();
    let request = Request::Compare {
        job: 1,
        lane: Lane::Table,
        text_id: 1,
        strategies: strategies.clone(),
        figures: *figures,
    };
    if let Some(vocab) = engine.vocab_needed(&request) {
        engine.load_vocab(vocab, vocab.embedded_bytes()).unwrap();
    }
    (0..strategies.len())
        .map(|i| match engine.compare_row(&request, i, || 0.0) {
            Reply::Row {
                strategy, outcome, ..
            } => (strategy, outcome),
            other => panic!("row {i}: {other:?}"),
        })
        .collect()
}

#[test]
fn a_files_rows_are_the_pages_rows() {
    let text = std::fs::read_to_string(fixture("moonstone-short.txt")).unwrap();
    for (size, overlap, unit, model) in [
        (512, 64, "tokens", Some("openai-text-embedding-3-small")),
        (200, 20, "tokens", Some("all-minilm-l6-v2")),
        (1000, 200, "characters", None),
        (128, 16, "model", Some("multilingual-e5-large")),
    ] {
        let config = Config::new(size, overlap, unit, "cl100k_base", model, None, &[]).unwrap();
        let figures = Figures {
            model: model.and_then(chunk_core::models::model).map(ModelRef),
            ..config.figures()
        };
        let ours = compare_text(&text, &config, &config.limit());
        let page: Vec<_> = page_rows(&text, &figures)
            .into_iter()
            .filter(|(s, _)| config.strategies.contains(s))
            .collect();
        assert_eq!(ours.rows.len(), page.len());
        let mut figures_rows = 0;
        for (row, (strategy, outcome)) in ours.rows.iter().zip(&page) {
            assert_eq!(row.strategy, *strategy);
            assert_eq!(
                &row.outcome, outcome,
                "{strategy} at {size}/{overlap} {unit}"
            );
            if let Outcome::Figures { summary, .. } = outcome {
                figures_rows += 1;
                assert_eq!(row.chunk_tokens.len(), summary.chunks);
                assert_eq!(row.chunk_tokens.iter().sum::<usize>(), summary.total_tokens);
            }
        }
        assert!(
            figures_rows >= 5,
            "{size}/{overlap} {unit}: {figures_rows} rows cut"
        );
    }
    // The model's own tokenizer counted the limit (not a stand-in).
    assert!(OpenVocab::BertUncased.loaded().is_some());
}

fn rag_chunk(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rag-chunk"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A folder with two documents, a file that is not UTF-8, an image, and a nested folder.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("moonstone-short.txt")).unwrap();
    std::fs::write(dir.path().join("a.txt"), &text[..20_000]).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::copy(fixture("docs-page.html"), dir.path().join("sub/page.html")).unwrap();
    std::fs::write(dir.path().join("sub/latin1.md"), b"caf\xe9 au lait").unwrap();
    std::fs::write(dir.path().join("logo.png"), b"\x89PNG\r\n").unwrap();
    dir
}

#[test]
fn compare_sums_the_files_rows_and_reports_what_it_skipped() {
    let dir = corpus();
    let root = dir.path().to_str().unwrap();
    let missing = format!("{root}/nothing-here.txt");
    let (code, out, err) = rag_chunk(&[
        "compare",
        root,
        &missing,
        "--format",
        "json",
        "--chunk-size",
        "256",
        "--chunk-overlap",
        "32",
        "--model",
        "openai-text-embedding-3-small",
        "--no-progress",
    ]);
    assert_eq!(code, 1, "a skipped file sets status 1: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["format"], "text");
    assert_eq!(files[1]["format"], "html");
    let reasons: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["not-found", "not-utf8"]);
    assert_eq!(v["ignored"]["png"], 1);
    assert!(
        err.contains("Read 2 files") && err.contains("latin1.md (not-utf8"),
        "{err}"
    );
    let rows = v["corpus"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), StrategyId::all().count());
    for row in rows {
        let strategy = row["strategy"].as_str().unwrap();
        let per_file = |key: &str| -> u64 {
            files
                .iter()
                .map(|f| {
                    let r = f["rows"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|r| r["strategy"] == strategy)
                        .unwrap();
                    r["summary"][key].as_u64().unwrap_or(0)
                })
                .sum()
        };
        for key in [
            "chunks",
            "total_tokens",
            "repeated_tokens",
            "over_limit",
            "split_sentences",
        ] {
            assert_eq!(
                row[key].as_u64().unwrap(),
                per_file(key),
                "{strategy} {key}"
            );
        }
        let chunks = row["chunks"].as_u64().unwrap();
        assert_eq!(row["storage_bytes"].as_u64().unwrap(), chunks * 1536 * 4);
        assert!(row["p95_tokens"].as_u64().unwrap() <= row["max_tokens"].as_u64().unwrap());
    }
    // CSV: the same rows, one per file and strategy, then one per strategy.
    let (code, csv, _) = rag_chunk(&[
        "compare",
        root,
        "--format",
        "csv",
        "--chunk-size",
        "256",
        "--chunk-overlap",
        "32",
        "--model",
        "openai-text-embedding-3-small",
    ]);
    assert_eq!(code, 1);
    let n = StrategyId::all().count();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * n + n);
    assert!(lines[0].starts_with("scope,path,strategy,library"));
    let corpus_fixed = lines
        .iter()
        .find(|l| l.starts_with("corpus,,fixed,"))
        .unwrap();
    let fixed = rows.iter().find(|r| r["strategy"] == "fixed").unwrap();
    assert!(
        corpus_fixed.contains(&format!(",{},", fixed["total_tokens"])),
        "{corpus_fixed}"
    );
}

#[test]
fn chunks_writes_the_export_rows_with_their_path() {
    let dir = corpus();
    let a = dir.path().join("a.txt");
    let (code, out, err) = rag_chunk(&[
        "chunks",
        a.to_str().unwrap(),
        "--strategy",
        "recursive",
        "--strategy",
        "langchain-token",
        "--chunk-size",
        "100",
        "--chunk-overlap",
        "10",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&a).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let recursive: Vec<&Value> = lines
        .iter()
        .filter(|l| l["strategy"] == "recursive")
        .collect();
    assert!(recursive.len() > 10);
    // Every byte is in a chunk: each starts at or before where the one before it ended.
    let mut covered = 0;
    for l in &recursive {
        assert_eq!(l["path"], a.to_str().unwrap());
        let (s, e) = (
            l["byte_start"].as_u64().unwrap() as usize,
            l["byte_end"].as_u64().unwrap() as usize,
        );
        assert_eq!(l["text"].as_str().unwrap(), &text[s..e]);
        assert!(
            s <= covered && e > covered,
            "chunk {s}..{e} after {covered}"
        );
        covered = e;
    }
    assert_eq!(covered, text.len());
    assert!(lines.iter().any(|l| l["strategy"] == "langchain-token"));
    // No strategy named, an unknown one, a semantic one: status 2 with the reason.
    let (code, _, err) = rag_chunk(&["chunks", a.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("--strategy"), "{err}");
    let (code, _, err) = rag_chunk(&["compare", a.to_str().unwrap(), "--strategy", "semantic"]);
    assert_eq!(code, 2);
    assert!(err.contains("embedding model"), "{err}");
    let (code, _, err) = rag_chunk(&["compare", a.to_str().unwrap(), "--chunk-size", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("chunk_size"), "{err}");
}

#[test]
fn count_gives_each_files_tokens_and_their_total() {
    let dir = corpus();
    let root = dir.path().to_str().unwrap();
    let (code, out, err) = rag_chunk(&["count", root, "--encoding", "o200k_base"]);
    assert_eq!(code, 1, "latin1.md is skipped: {err}");
    let lines: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    let tokens: Vec<u64> = lines.iter().map(|l| l[0].parse().unwrap()).collect();
    assert_eq!(lines[2][2], "total");
    assert_eq!(tokens[0] + tokens[1], tokens[2]);
    // The same counts as the document tokens of compare's rows.
    let (_, json, _) = rag_chunk(&[
        "compare",
        root,
        "--format",
        "json",
        "--encoding",
        "o200k_base",
        "--strategy",
        "fixed",
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let docs: Vec<u64> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["document_tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(docs, tokens[..2]);
    assert!(
        v["corpus"]["rows"][0]["max_input_tokens"].is_null(),
        "no model, no limit"
    );
    let a = std::fs::read_to_string(dir.path().join("a.txt")).unwrap();
    assert_eq!(
        tokens[0],
        chunk_core::tokenizer::Encoding::O200kBase
            .tokenizer()
            .count(&a) as u64
    );
}

#[test]
fn an_output_is_never_an_input_nor_emptied_by_a_typo() {
    let dir = corpus();
    let a = dir.path().join("a.txt");
    let before = std::fs::read(&a).unwrap();
    let (a_str, root) = (a.to_str().unwrap(), dir.path().to_str().unwrap());
    // The output named as the input, or inside a folder that is read: refused, nothing written.
    for inputs in [a_str, root] {
        let (code, _, err) = rag_chunk(&["chunks", inputs, "--strategy", "fixed", "-o", a_str]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("is also an input"), "{err}");
        assert_eq!(std::fs::read(&a).unwrap(), before);
    }
    // A typo in the settings leaves an earlier output as it was.
    let out = dir.path().join("out.jsonl");
    std::fs::write(&out, "precious\n").unwrap();
    let o = out.to_str().unwrap();
    let (code, _, _) = rag_chunk(&["chunks", a_str, "--strategy", "bogus", "-o", o]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    // A new output in the folder it reads is not read back as an input.
    let fresh = dir.path().join("fresh.txt");
    let (code, _, err) = rag_chunk(&[
        "chunks",
        root,
        "--strategy",
        "fixed",
        "-o",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "latin1.md is skipped: {err}");
    assert!(err.contains("Read 2 files"), "{err}");
    let lines = std::fs::read_to_string(&fresh).unwrap();
    assert!(lines.lines().all(|l| !l.contains("fresh.txt")));
}
