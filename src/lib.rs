//! The web page of the RAG Chunk Calculator (Leptos 0.8, client-side rendering).
//!
//! Codemap:
//! - [`app`]: the page, the language switch; creates and provides the contexts.
//! - [`state`]: the contexts, one per writer, and the memos derived from them.
//! - [`parse`]: parsing and validation of the fields (plain functions, tested natively).
//! - [`calculator`]: the settings form, the figures and their notices.
//! - [`file_input`]: paste box, file open / drop (text, HTML, DOCX), tokenizer status,
//!   special-token notice.
//! - [`extract_job`]: the document reader worker (one per HTML or DOCX file), both sides.
//! - [`tokenize`]: counts the text's tokens on every edit without blocking the page: the job
//!   ([`tokenize::job`]), its pure schedule ([`tokenize::schedule`]: generations, progress, the
//!   module's download, when a job starts, when the worker is given up), the worker's handle
//!   ([`tokenize::worker`]), the page's own thread as the fallback ([`tokenize::local`]).
//! - [`compare`]: every strategy on the whole text (table, chosen strategy, A/B, export,
//!   snippet), computed by the comparison worker.
//! - [`preview`]: the chunk preview (cut points, overlap, cut characters as bytes).
//! - [`simulator`]: the chunking simulator (SPEC §4): strategies, metrics, coverage, charts.
//! - [`faq`]: the questions and answers.
//! - [`prerendered`]: the start over the markup the build prerendered into `index.html`.
//! - [`i18n`]: the message catalog (one key per message, five languages).
//! - [`format`]: locale number formats through `Intl.NumberFormat`.
//! - [`browser`]: the few direct browser calls (language memory, title, test sleep).
//!
//! Architecture invariant: all arithmetic, tokenization and windowing come from `chunk_core`;
//! this crate only validates input, schedules work and renders.

#![deny(missing_docs)]

pub mod app;
pub mod browser;
pub mod calculator;
pub mod compare;
pub mod extract_job;
pub mod faq;
pub mod file_input;
pub mod format;
pub mod i18n;
pub mod jobs;
pub mod model;
pub mod parse;
pub mod prerendered;
pub mod preview;
pub mod retrieval;
pub mod share;
pub mod simulator;
pub mod state;
pub mod tokenize;
pub mod ui;
pub mod worker;

pub use app::App;
