//! The core of the RAG Chunk Calculator: chunking arithmetic, exact BPE tokenizers, chunk
//! windows and the invariants that check them. No web dependency: everything here runs and is
//! tested natively (`cargo test -p chunk-core`), and the page calls it through wasm.
//!
//! Units are explicit everywhere: tokens, bytes (UTF-8) or chars (Unicode scalar values).

#![deny(missing_docs)]

pub mod analysis;
pub mod formula;
mod lang;
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
