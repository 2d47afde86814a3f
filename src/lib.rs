//! The web page of the RAG Chunk Calculator (Leptos 0.8, client-side rendering).
//!
//! Codemap (layers from the bottom; a module imports only from the layers below it or its
//! own, which `scripts/import-cycles.py` checks in `make test`):
//! - [`browser`], [`i18n`] (the catalogs' machinery, plural rules; [`i18n::locale`]: `Lang`,
//!   the decimal mark), [`format`] (locale number formats through `Intl.NumberFormat`),
//!   [`parse`] (parsing and validation of the fields, tested natively), [`ui`] (shared
//!   widgets: number field, figure, `fill_box`), [`worker`] (`ModuleWorker`, the one
//!   page-side handle of every module worker).
//! - [`state`]: the page's contexts, each with a read handle and a write handle that only its
//!   writers take (the module's doc names them), the memos derived from them, the model's
//!   contexts ([`state::model`]) and the tokenization's plain types.
//! - [`model`]: the embedding models' words (limit notes, estimate hints, vector formats).
//! - [`tokenize`]: counts the text's tokens on every edit without blocking the page: the job
//!   ([`tokenize::job`]), its pure schedule ([`tokenize::schedule`]: generations, progress, the
//!   module's download, when a job starts, when the worker is given up), the worker's handle
//!   ([`tokenize::worker`]), the page's own thread as the fallback ([`tokenize::local`]).
//! - [`extract_job`]: the document reader worker (one per HTML, DOCX or PDF file).
//! - [`compare`]: every strategy on the whole text (table, chosen strategy, A/B, export,
//!   snippet) and the model select and panel, from the comparison worker's replies.
//! - [`retrieval`]: the retrieval check and the sweep (pairs, fields, table, heat map).
//! - [`jobs`]: the worker jobs of [`compare`] and [`retrieval`]: a sans-io scheduler
//!   ([`jobs::schedule`]) and the effects that carry out its decisions.
//! - [`calculator`] (the settings form, the figures and their notices), [`file_input`] (paste
//!   box, file open / drop, tokenizer status, special-token notice), [`preview`] (the chunk
//!   preview), [`simulator`] (SPEC §4), [`share`] (the settings in the URL fragment), [`faq`].
//! - [`app`]: the page, the language switch; creates and provides the contexts;
//!   [`prerendered`]: the start over the markup the build prerendered into `index.html`.
//!
//! Architecture invariant: all arithmetic, tokenization and windowing come from `chunk_core`;
//! this crate only validates input, schedules work and renders.

#![deny(missing_docs)]
// The panels' view erased at once (src/panels.rs) is one deeply nested type where Leptos's
// `erase_components` is off (native builds: the prerender, the unit tests).
#![recursion_limit = "256"]

pub mod app;
pub mod browser;
pub mod calculator;
pub mod compare;
pub mod embed;
pub mod extract_job;
pub mod faq;
pub mod file_input;
pub mod format;
pub mod i18n;
pub mod jobs;
pub mod languages;
pub mod model;
pub mod panels;
pub mod parse;
pub mod prerendered;
pub mod preview;
pub mod retrieval;
pub mod semantic;
pub mod share;
pub mod simulator;
pub mod state;
pub mod tokenize;
pub mod ui;
pub mod worker;

pub use app::App;
