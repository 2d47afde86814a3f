//! The native core's semantic rows, for the end-to-end test (tests/e2e/semantic.test.mjs):
//! reads one JSON object from stdin and prints one JSON object, what the page's comparison
//! table must show for each semantic strategy with that embedding model.
//!
//! Input:
//! ```text
//! {"text": "...", "chunk_size": 512, "chunk_overlap": 64, "unit": "tokens" | "characters",
//!  "encoding": "cl100k_base" | "o200k_base", "model": "potion-base-8m" | "all-minilm-l6-v2",
//!  "breakpoints": {"percentile": 95, "chonkie_threshold": 0.8}}
//! ```
//! (`breakpoints` may be left out: the libraries' defaults.)
//! Output: `{"rows": [{"strategy", "chunks", "total_tokens", "embedding_texts",
//! "embedding_tokens"} | {"strategy", "refused"}]}`, one row per semantic strategy
//! (`embedding_texts`: the library's embedding calls, repeats included).
//!
//! A second way to the page's numbers: each strategy's sentence texts embedded here by the
//! model with int8 weights (what the site's model file holds), then cut by `run` on the text
//! alone (the worker cuts its prepared `Document` and embeds in the embedding worker).
//!
//! Usage: `EMBED_MODELS_DIR=target/models cargo run --release -p embed-core --example
//! semantic_chunks < request.json`. Errors print a message on stderr and exit with status 2.

use std::io::Read;
use std::process::ExitCode;
use std::sync::Arc;

use chunk_core::retrieval::DenseModel;
use chunk_core::strategy::semantic::Vectors;
use chunk_core::strategy::{run, Breakpoints, SemanticChunker, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use embed_core::encoder::Encoder;
use serde_json::{json, Value};

#[derive(serde::Deserialize)]
struct Input {
    text: String,
    chunk_size: usize,
    chunk_overlap: usize,
    unit: String,
    encoding: Encoding,
    model: DenseModel,
    #[serde(default)]
    breakpoints: Breakpoints,
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("semantic_chunks: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut raw = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut raw) {
        return fail(e);
    }
    let input: Input = match serde_json::from_str(&raw) {
        Ok(i) => i,
        Err(e) => return fail(format!("the request is not valid: {e}")),
    };
    let Ok(dir) = std::env::var("EMBED_MODELS_DIR") else {
        return fail("EMBED_MODELS_DIR is not set (scripts/ensure-models.sh)");
    };
    let encoder = match Encoder::read_model(std::path::Path::new(&dir), input.model, true) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let Ok(unit) = input.unit.parse::<SizeUnit>() else {
        return fail(format!("unknown unit {:?}", input.unit));
    };
    let settings = Settings {
        chunk_size: input.chunk_size,
        chunk_overlap: input.chunk_overlap,
        unit,
        encoding: input.encoding,
    };
    let counter = input.encoding.tokenizer();
    let rows: Vec<Value> = StrategyId::semantic()
        .map(|id| {
            let built = SemanticChunker::with_breakpoints(id, &settings, input.breakpoints)
                .expect("a semantic strategy");
            let cut = built.and_then(|c| {
                let mut vectors = Vectors::new();
                for t in c.embedding_texts(&input.text)? {
                    let v = encoder.embed(&t);
                    vectors.insert(t, v);
                }
                let texts = c.embedding_calls(&input.text)?;
                let chunks = run(
                    &c.with_vectors(Arc::new(vectors)),
                    &input.text,
                    input.encoding,
                )?;
                Ok((chunks, texts))
            });
            match cut {
                Ok((chunks, texts)) => json!({
                    "strategy": id.as_str(),
                    "chunks": chunks.chunks.len(),
                    "total_tokens": chunks.chunks.iter().map(|c| c.tokens).sum::<usize>(),
                    "embedding_texts": texts.len(),
                    "embedding_tokens": texts.iter().map(|t| counter.count(t)).sum::<usize>(),
                }),
                Err(e) => json!({"strategy": id.as_str(), "refused": e.to_string()}),
            }
        })
        .collect();
    println!("{}", json!({ "rows": rows }));
    ExitCode::SUCCESS
}
