//! Sentence embeddings for the RAG Chunk Calculator, computed on the user's device: the
//! retrieval check's dense retriever and the semantic strategies embed chunks and questions
//! with them. No web dependency; the page runs it in a worker of its own.
//!
//! - [`safetensors`]: the weights file, as the models publish it.
//! - [`bert`]: the BERT encoder (all-MiniLM-L6-v2, bge-*-en-v1.5), fp32 or with int8 linear
//!   layers.
//! - [`sentence`]: what `sentence-transformers` adds around it (the tokenizer, the truncation,
//!   pooling, normalisation) and the cosine.
//!
//! The tokenizer is the core's exact WordPiece (`chunk_core::tokenizer::wordpiece`), equal to
//! Hugging Face `tokenizers` id for id. The embeddings are checked in `tests/reference.rs`
//! against a reference computed in Python from the same files.

#![warn(missing_docs)]

pub mod bert;
pub mod encoder;
pub mod ops;
pub mod safetensors;
pub mod sentence;
pub mod site;
pub mod static_model;
pub mod tiny;
