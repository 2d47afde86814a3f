//! The native int8 vectors of all-MiniLM-L6-v2 (`SentenceEncoder::load(..).quantize_int8()`
//! from the published files), for the test that the worker's module gives the same
//! (`tests/e2e/embed.test.mjs`): reads one JSON string a line on stdin, writes one JSON array
//! of 384 numbers a line (each `f32` printed so that it reads back exactly). The model folder is
//! `$EMBED_MODELS_DIR/all-minilm-l6-v2/`, by default `target/models/all-minilm-l6-v2/` of this
//! workspace (`scripts/ensure-models.sh`).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use embed_core::folder::ModelFolder;
use embed_core::sentence::SentenceEncoder;

fn main() -> ExitCode {
    let models = std::env::var_os("EMBED_MODELS_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models"));
    let dir = models.join("all-minilm-l6-v2");
    let loaded = ModelFolder::read(&dir)
        .map_err(|e| e.to_string())
        .and_then(|folder| {
            SentenceEncoder::load(folder.files())
                .map(|e| e.quantize_int8())
                .map_err(|e| e.to_string())
        });
    let encoder = match loaded {
        Ok(e) => e,
        Err(why) => {
            eprintln!(
                "vectors: {}: {why} (run scripts/ensure-models.sh first)",
                dir.display()
            );
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else {
            return ExitCode::FAILURE;
        };
        if line.trim().is_empty() {
            continue;
        }
        let Ok(text) = serde_json::from_str::<String>(&line) else {
            eprintln!("vectors: a line is not a JSON string: {line}");
            return ExitCode::FAILURE;
        };
        let vector = encoder.embed(&text).vector;
        let row: Vec<String> = vector.iter().map(|v| format!("{v:?}")).collect();
        if writeln!(out, "[{}]", row.join(",")).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
