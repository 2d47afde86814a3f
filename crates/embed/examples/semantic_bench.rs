//! The semantic strategies' speed natively, for make bench-semantic (beside
//! `bench/semantic.py`, which times the libraries on the same files with the same model): per
//! file and strategy, the chunks and the wall time of one cut from a loaded model, embedding
//! included (every distinct sentence text embedded by potion-base-8M with its published fp32
//! weights, as the libraries' side loads it, then the cut), best of `RUNS` (default 3).
//!
//! Usage: `EMBED_MODELS_DIR=target/models cargo run --release -p embed-core --example
//! semantic_bench -- FILE...`; prints one JSON line per file and strategy:
//! `{"file", "bytes", "strategy", "chunks", "ms", "embed_ms", "texts"}`.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use chunk_core::retrieval::DenseModel;
use chunk_core::strategy::semantic::Vectors;
use chunk_core::strategy::{Chunker, SemanticChunker, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use embed_core::encoder::Encoder;
use serde_json::json;

fn main() -> ExitCode {
    let Ok(dir) = std::env::var("EMBED_MODELS_DIR") else {
        eprintln!("semantic_bench: EMBED_MODELS_DIR is not set (scripts/ensure-models.sh)");
        return ExitCode::from(2);
    };
    let encoder =
        match Encoder::read_model(std::path::Path::new(&dir), DenseModel::PotionBase8M, false) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("semantic_bench: {e}");
                return ExitCode::from(2);
            }
        };
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let settings = Settings {
        chunk_size: 512,
        chunk_overlap: 0,
        unit: SizeUnit::Tokens,
        encoding: Encoding::Cl100kBase,
    };
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("semantic_bench: {path}: {e}");
                return ExitCode::from(2);
            }
        };
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        for id in StrategyId::semantic() {
            let chunker = SemanticChunker::new(id, &settings)
                .expect("a semantic strategy")
                .expect("the settings are valid");
            let (mut best, mut best_embed, mut chunks, mut texts) = (f64::MAX, f64::MAX, 0, 0);
            for _ in 0..runs {
                let start = Instant::now();
                let wanted = chunker.embedding_texts(&text).expect("no refusal");
                let mut vectors = Vectors::new();
                for t in wanted {
                    let v = encoder.embed(&t);
                    vectors.insert(t, v);
                }
                let embedded = start.elapsed().as_secs_f64() * 1000.0;
                texts = vectors.len();
                let pieces = chunker
                    .clone()
                    .with_vectors(Arc::new(vectors))
                    .split(&text)
                    .expect("no refusal");
                chunks = pieces.len();
                best = best.min(start.elapsed().as_secs_f64() * 1000.0);
                best_embed = best_embed.min(embedded);
            }
            let line = json!({"file": name, "bytes": text.len(), "strategy": id.as_str(),
                "chunks": chunks, "ms": (best * 10.0).round() / 10.0,
                "embed_ms": (best_embed * 10.0).round() / 10.0, "texts": texts});
            println!("{line}");
        }
    }
    ExitCode::SUCCESS
}
