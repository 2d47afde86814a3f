//! The native core's retrieval check, for the end-to-end test (tests/e2e/retrieval.test.mjs):
//! reads one JSON object from stdin and prints one JSON object, the figures the page must show.
//!
//! Input:
//! ```text
//! {"text": "...", "pairs": [{"question": "...", "start": 0, "end": 5}, ...],
//!  "chunk_size": 512, "chunk_overlap": 64, "unit": "tokens" | "characters",
//!  "encoding": "cl100k_base" | "o200k_base", "k": 5, "k1": 1.2, "b": 0.75, "lang": "en",
//!  "strategies": ["fixed", ...], "sweep": "fixed" | null, "model": "all-minilm-l6-v2" | null}
//! ```
//! (`start` / `end`: UTF-8 byte offsets.) Output: `{"rows": [...], "sweep": {...} | null}`;
//! a row is `{"strategy", "refused": kind}` or `{"strategy", "chunks", "tokens_embedded",
//! "pairs": [{"whole", "rank", "hit_at_1", "hit_at_3", "hit_at_5", "recall", "precision",
//! "iou", "reciprocal_rank", "ndcg"}]}` (`whole` -1 and `rank` null when no chunk holds the
//! answer); the sweep is `{"best": "chunk_size=N,chunk_overlap=M" | "", "best_vectors": …,
//! "cells": [{"chunk_size", "overlap_percent", "chunk_overlap", "refused" |
//! "all_whole_in_top_k", "hits_at_k", "tokens_embedded", "chunks", "over_limit", "mrr",
//! "ndcg"}]}` over [`SweepGrid::standard`] in the unit given, each setting's chunks checked
//! against the model's limit ([`LimitCheck::for_model`], a WordPiece or Unigram model's
//! vocabulary read from `crates/chunk-core/vocab/`).
//!
//! Each strategy is cut by [`run`] on the text alone and evaluated by [`evaluate`] (every chunk
//! split into words again), not the page's prepared paths: the page's figures come from
//! `Document`, `DocumentTerms` and `evaluate_prepared` in the worker, so this is a second way
//! to the same numbers. The sweep is [`sweep`] (its best setting is one rule, not two).
//!
//! Usage: `cargo run --release -p chunk-core --example retrieval < request.json`
//! Errors: unreadable JSON, an unknown strategy, unit, encoding or language, a bad answer span
//! or BM25 parameter prints a message on stderr and exits with status 2.

use chunk_core::analysis::LimitCheck;
use chunk_core::models::model;
use chunk_core::retrieval::{
    check_span, evaluate, sweep, Bm25Params, CellOutcome, EvalOptions, QaPair, SweepCheck,
    SweepGrid, SweepObjective,
};
use chunk_core::strategy::{chunker, run, Document, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::open::OpenTokenizer;
use chunk_core::tokenizer::Encoding;
use chunk_core::Lang;
use serde_json::{json, Value};
use std::io::Read;
use std::process::ExitCode;

#[derive(serde::Deserialize)]
struct Pair {
    question: String,
    start: usize,
    end: usize,
}

#[derive(serde::Deserialize)]
struct Input {
    text: String,
    pairs: Vec<Pair>,
    chunk_size: usize,
    chunk_overlap: usize,
    unit: String,
    encoding: String,
    k: usize,
    k1: f64,
    b: f64,
    lang: String,
    strategies: Vec<String>,
    sweep: Option<String>,
    #[serde(default)]
    model: Option<String>,
}

fn fail(message: String) -> ExitCode {
    eprintln!("retrieval: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut raw = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut raw) {
        return fail(format!("cannot read stdin: {e}"));
    }
    let input: Input = match serde_json::from_str(&raw) {
        Ok(i) => i,
        Err(e) => return fail(format!("unreadable request: {e}")),
    };
    match answer(&input) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => fail(message),
    }
}

fn answer(input: &Input) -> Result<Value, String> {
    let unit: SizeUnit = input
        .unit
        .parse()
        .map_err(|_| format!("unknown unit {:?}", input.unit))?;
    let encoding = Encoding::ALL
        .into_iter()
        .find(|e| e.name() == input.encoding)
        .ok_or_else(|| format!("unknown encoding {:?}", input.encoding))?;
    let lang =
        Lang::from_code(&input.lang).ok_or_else(|| format!("unknown language {:?}", input.lang))?;
    let bm25 = Bm25Params::new(input.k1, input.b).map_err(|e| e.to_string())?;
    let options = EvalOptions {
        lang,
        bm25,
        k: input.k,
    };
    let pairs = input
        .pairs
        .iter()
        .map(|p| {
            check_span(&input.text, p.start, p.end)
                .map(|answer| QaPair {
                    question: p.question.clone(),
                    answer,
                })
                .map_err(|e| format!("{:?}: {e}", p.question))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let settings = Settings {
        chunk_size: input.chunk_size,
        chunk_overlap: input.chunk_overlap,
        unit,
        encoding,
    };
    let mut rows = Vec::new();
    for id in &input.strategies {
        let strategy: StrategyId = id.parse().map_err(|_| format!("unknown strategy {id:?}"))?;
        let cut = chunker(strategy, &settings).and_then(|c| run(c.as_ref(), &input.text, encoding));
        let row = match cut {
            Err(e) => {
                json!({ "strategy": id, "refused": chunk_core::analysis::refusal::Refusal::from(&e).kind })
            }
            Ok(chunks) => {
                let e = evaluate(&input.text, &chunks, &pairs, &options);
                let each: Vec<Value> = e
                    .pairs
                    .iter()
                    .map(|p| {
                        json!({
                            "whole": p.whole.map_or(-1, |c| c as i64),
                            "rank": p.rank,
                            "hit_at_1": p.hit_at_1,
                            "hit_at_3": p.hit_at_3,
                            "hit_at_5": p.hit_at_5,
                            "recall": p.at_k.recall,
                            "precision": p.at_k.precision,
                            "iou": p.at_k.iou,
                            "reciprocal_rank": p.reciprocal_rank,
                            "ndcg": p.ndcg,
                        })
                    })
                    .collect();
                json!({
                    "strategy": id,
                    "chunks": e.chunks,
                    "tokens_embedded": e.tokens_embedded,
                    "pairs": each,
                })
            }
        };
        rows.push(row);
    }
    let swept = match &input.sweep {
        None => Value::Null,
        Some(id) => {
            let strategy: StrategyId =
                id.parse().map_err(|_| format!("unknown strategy {id:?}"))?;
            let document = Document::new(&input.text, encoding);
            let chosen = match &input.model {
                Some(id) => Some(model(id).ok_or_else(|| format!("unknown model {id:?}"))?),
                None => None,
            };
            let open = open_tokenizers(chosen)?;
            let limit = match chosen {
                Some(m) => LimitCheck::for_model(m, encoding, &open),
                None => LimitCheck::within(usize::MAX),
            };
            let check = SweepCheck {
                pairs: &pairs,
                options: &options,
                limit: &limit,
            };
            let s = sweep(&document, strategy, &SweepGrid::standard(unit), &check);
            let best = |objective| {
                s.best_cell(objective)
                    .map(|c| {
                        format!(
                            "chunk_size={},chunk_overlap={}",
                            c.chunk_size, c.chunk_overlap
                        )
                    })
                    .unwrap_or_default()
            };
            let cells: Vec<Value> = s
                .cells
                .iter()
                .map(|c| match &c.outcome {
                    CellOutcome::Refused(r) => json!({
                        "chunk_size": c.chunk_size,
                        "overlap_percent": c.overlap_percent,
                        "chunk_overlap": c.chunk_overlap,
                        "refused": r.kind,
                    }),
                    CellOutcome::Evaluated(f) => json!({
                        "chunk_size": c.chunk_size,
                        "overlap_percent": c.overlap_percent,
                        "chunk_overlap": c.chunk_overlap,
                        "all_whole_in_top_k": f.aggregate.all_whole_in_top_k,
                        "hits_at_k": f.aggregate.hits_at_k,
                        "tokens_embedded": f.tokens_embedded,
                        "chunks": f.chunks,
                        "over_limit": f.over_limit,
                        "mrr": f.aggregate.mrr,
                        "ndcg": f.aggregate.mean_ndcg,
                    }),
                })
                .collect();
            json!({
                "best": best(SweepObjective::Tokens),
                "best_vectors": best(SweepObjective::Vectors),
                "cells": cells,
            })
        }
    };
    Ok(json!({ "rows": rows, "sweep": swept }))
}

/// The open tokenizer `model` needs, read from `crates/chunk-core/vocab/` (none for a BPE or
/// proxy model).
fn open_tokenizers(
    model: Option<&'static chunk_core::models::EmbeddingModel>,
) -> Result<Vec<&'static OpenTokenizer>, String> {
    let Some(vocab) = model.and_then(|m| m.tokenizer.open_vocab()) else {
        return Ok(Vec::new());
    };
    let name = vocab.file().trim_start_matches("vocab/");
    let path = format!("{}/vocab/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let tokenizer = OpenTokenizer::load(vocab, &bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(vec![tokenizer.install()])
}
