//! The native core's dense and hybrid retrieval check, for the end-to-end test
//! (tests/e2e/dense.test.mjs): reads one JSON object from stdin and prints one JSON object,
//! the figures the page must show with the retriever select on dense or hybrid.
//!
//! Input:
//! ```text
//! {"text": "...", "pairs": [{"question": "...", "start": 0, "end": 5}, ...],
//!  "chunk_size": 256, "chunk_overlap": 32, "unit": "tokens" | "characters",
//!  "encoding": "cl100k_base" | "o200k_base", "k": 5, "k1": 1.2, "b": 0.75, "lang": "en",
//!  "strategies": ["fixed", ...], "model": "potion-base-8m" | "all-minilm-l6-v2",
//!  "weights": "int8" | "fp32"}
//! ```
//! (`weights`, int8 by default: the published fp32 weights instead of the site's int8 copy, to
//! measure what quantization changes in the figures.)
//! Output: `{"rows": [{"strategy", "retriever", "chunks", "tokens_embedded", "whole",
//! "hits_at_1", "hits_at_3", "hits_at_5", "hits_at_k", "mrr", "ndcg", "mean_recall",
//! "mean_precision", "mean_iou"} | {"strategy", "retriever", "refused"}]}`, a row per strategy
//! and retriever (BM25, dense, hybrid, in that order).
//!
//! A second way to the page's numbers: each strategy is cut by `run` on the text alone (not
//! the worker's prepared `Document`), every chunk text and question is embedded here by the
//! model with int8 weights (`quantize_int8` of the model folder `EMBED_MODELS_DIR/<model>`,
//! what the site's model file holds), and ranked by `evaluate_dense` (BM25 rows: `evaluate`).
//!
//! Usage: `EMBED_MODELS_DIR=target/models cargo run --release -p embed-core --example
//! dense_retrieval < request.json`. Errors print a message on stderr and exit with status 2.

use std::collections::HashMap;
use std::io::Read;
use std::process::ExitCode;

use chunk_core::retrieval::{
    check_span, evaluate, evaluate_dense, Aggregate, Bm25Params, DenseModel, DocumentTerms,
    EvalOptions, QaPair, Retriever, Vectors,
};
use chunk_core::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use chunk_core::Lang;
use embed_core::encoder::Encoder;
use serde_json::{json, Value};

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
    #[serde(default)]
    model: DenseModel,
    #[serde(default)]
    weights: Weights,
}

/// The weights to embed with.
#[derive(serde::Deserialize, Default, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Weights {
    /// The site's copy: int8 per row (`quantize_int8`).
    #[default]
    Int8,
    /// The published fp32 weights.
    Fp32,
}

fn fail(message: String) -> ExitCode {
    eprintln!("dense_retrieval: {message}");
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
    match load(input.model, input.weights).and_then(|encoder| answer(&input, &encoder)) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => fail(message),
    }
}

/// `model` from `EMBED_MODELS_DIR`, its int8 copy or its published fp32 weights.
fn load(model: DenseModel, weights: Weights) -> Result<Encoder, String> {
    let dir = std::env::var("EMBED_MODELS_DIR")
        .map_err(|_| "EMBED_MODELS_DIR is not set (scripts/ensure-models.sh)".to_owned())?;
    Encoder::read_model(std::path::Path::new(&dir), model, weights == Weights::Int8)
}

fn answer(input: &Input, encoder: &Encoder) -> Result<Value, String> {
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
    let options = EvalOptions {
        lang,
        bm25: Bm25Params::new(input.k1, input.b).map_err(|e| e.to_string())?,
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
    let model = input.model;
    let terms = DocumentTerms::new(&input.text, lang);
    let mut cache: HashMap<String, Vec<f32>> = HashMap::new();
    let mut embed = |text: String| -> Vec<f32> {
        cache
            .entry(text)
            .or_insert_with_key(|t| encoder.embed(t))
            .clone()
    };
    let questions: Vec<Vec<f32>> = pairs
        .iter()
        .map(|p| embed(model.query(&p.question)))
        .collect();
    let mut rows = Vec::new();
    for id in &input.strategies {
        let strategy: StrategyId = id.parse().map_err(|_| format!("unknown strategy {id:?}"))?;
        let cut = chunker(strategy, &settings).and_then(|c| run(c.as_ref(), &input.text, encoding));
        let chunks = match cut {
            Err(e) => {
                let kind = chunk_core::analysis::refusal::Refusal::from(&e).kind;
                for r in [Retriever::Bm25, Retriever::Dense, Retriever::Hybrid] {
                    let name: &str = r.into();
                    rows.push(json!({ "strategy": id, "retriever": name, "refused": kind }));
                }
                continue;
            }
            Ok(chunks) => chunks,
        };
        let vectors: Vec<Vec<f32>> = chunks
            .chunks
            .iter()
            .map(|c| embed(c.text(&input.text).into_owned()))
            .collect();
        for r in [Retriever::Bm25, Retriever::Dense, Retriever::Hybrid] {
            let e = match r {
                Retriever::Bm25 => evaluate(&input.text, &chunks, &pairs, &options),
                _ => evaluate_dense(
                    &input.text,
                    &terms,
                    &chunks,
                    &pairs,
                    &options,
                    Vectors {
                        retriever: r,
                        chunks: &vectors,
                        questions: &questions,
                    },
                )
                .map_err(|e| e.to_string())?,
            };
            rows.push(row(id, r, e.chunks, e.tokens_embedded, &e.aggregate));
        }
    }
    Ok(json!({ "rows": rows }))
}

fn row(id: &str, r: Retriever, chunks: usize, tokens: usize, a: &Aggregate) -> Value {
    let name: &str = r.into();
    json!({
        "strategy": id,
        "retriever": name,
        "chunks": chunks,
        "tokens_embedded": tokens,
        "whole": a.whole,
        "hits_at_1": a.hits_at_1,
        "hits_at_3": a.hits_at_3,
        "hits_at_5": a.hits_at_5,
        "hits_at_k": a.hits_at_k,
        "mrr": a.mrr,
        "ndcg": a.mean_ndcg,
        "mean_recall": a.mean_recall,
        "mean_precision": a.mean_precision,
        "mean_iou": a.mean_iou,
    })
}
