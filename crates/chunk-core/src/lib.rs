//! The core of the RAG Chunk Calculator: chunking arithmetic, exact BPE tokenizers, chunk
//! windows and the invariants that check them. No web dependency: everything here runs and is
//! tested natively (`cargo test -p chunk-core`), and the page calls it through wasm.
//!
//! Features (both default): `bpe-tables`, the BPE tables and what counts with them
//! (`tokenizer::Encoding::tokenizer`); `strategies`, the chunking strategies and the
//! computations over their chunks (`strategy::chunker`, `strategy::run`). The page's own module
//! takes neither (the first-paint guard, `scripts/check-page-wasm.py`); the engines do.
//!
//! Units are explicit everywhere: tokens, bytes (UTF-8) or chars (Unicode scalar values).

#![deny(missing_docs)]
// Without the `strategies` or `bpe-tables` features (the page's build), the helpers only the
// strategies and the tables use are left unused.
#![cfg_attr(
    not(all(feature = "strategies", feature = "bpe-tables")),
    allow(unused_imports, dead_code)
)]

pub mod analysis;
pub mod formula;
mod lang;
pub mod limit;
pub mod models;
pub mod params;
pub mod reconstruct;
pub mod retrieval;
pub mod segment;
pub mod sim;
pub mod strategy;
pub mod text_stats;
pub mod text_view;
pub mod tokenizer;
pub mod windows;

pub use lang::Lang;
