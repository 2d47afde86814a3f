//! Sentence embeddings for the RAG Chunk Calculator, computed on the user's device: the
//! retrieval check's dense and hybrid retrievers embed chunks and questions with them. No web
//! dependency; the page runs it in a worker of its own (`crates/embed-engine`).
//!
//! - [`safetensors`]: the weights format, read and written.
//! - [`ops`]: the arithmetic (linear layers in fp32 and int8, layer norm, GELU, softmax; wasm
//!   SIMD with the `simd128` feature, equal to the scalar path bit for bit).
//! - [`bert`]: the BERT encoder (all-MiniLM-L6-v2), fp32 or with int8 linear layers.
//! - [`sentence`]: what `sentence-transformers` adds around it (the tokenizer, the truncation,
//!   pooling, normalisation) and the cosine.
//! - [`static_model`]: model2vec's static models (potion-base-8M).
//! - [`encoder`]: either kind behind one interface.
//! - [`site`]: the int8 model files the site serves.
//! - [`folder`]: the published model folders, read from disk (the build, examples and tests).
//! - [`tiny`]: a tiny random BERT for the tests.
//!
//! The tokenizer is the core's exact WordPiece (`chunk_core::tokenizer::wordpiece`), equal to
//! Hugging Face `tokenizers` id for id. The embeddings are checked in `tests/reference.rs`
//! against an independent NumPy implementation, and in `tests/static_reference.rs` against
//! model2vec itself.

#![warn(missing_docs)]

pub mod bert;
pub mod encoder;
pub mod folder;
pub mod ops;
pub mod safetensors;
pub mod sentence;
pub mod site;
pub mod static_model;
pub mod tiny;
