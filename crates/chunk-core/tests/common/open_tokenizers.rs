//! The open models' tokenizers installed as the page's worker installs them when it fetches
//! their files: read from `crates/chunk-core/vocab/`, so that strategies can size chunks in a
//! model's own tokens (`SizeUnit::Model`).

use chunk_core::tokenizer::open::{OpenTokenizer, OpenVocab};

/// Installs every open vocabulary's tokenizer for this test process (once; later calls keep
/// the first).
pub fn install_open_tokenizers() {
    for vocab in OpenVocab::ALL {
        if vocab.loaded().is_some() {
            continue;
        }
        let name = vocab.file().trim_start_matches("vocab/");
        // chunk-core's folder, also when another crate's test includes this file (`#[path]`).
        let path = format!("{}/../chunk-core/vocab/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        OpenTokenizer::load(vocab, &bytes)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .install();
    }
}
