//! The page's shared state: the fields as typed, the text, its tokenization, and the figures
//! derived from them. One [`AppState`] (a `Copy` bundle of signal handles) is provided as
//! context by the `App` and read by every component.

use std::sync::Arc;

use chunk_core::formula::{compute, DocLength, FormulaOutput};
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;

use crate::i18n::{self, Key, Lang};
use crate::parse::{check, Checked, LengthUnit, RawInputs};

/// A finished tokenization of one text with one encoding.
#[derive(Debug)]
pub struct Tokenized {
    /// The text that was tokenized (shared with the `text` signal; compared by pointer).
    pub text: Arc<str>,
    /// The encoding used.
    pub encoding: Encoding,
    /// Byte offsets of the token boundaries: `tokens() + 1` of them, from 0 to the text's
    /// length, strictly increasing (as in `chunk_core::tokenizer::Encoded`, whose ids the
    /// page never needs).
    pub offsets: Vec<usize>,
    /// Special-token strings found in the text, with their byte offsets.
    pub specials: Vec<(usize, &'static str)>,
}

impl Tokenized {
    /// Number of tokens.
    pub fn tokens(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

/// Progress of the background tokenization.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Progress {
    /// Nothing running.
    #[default]
    Idle,
    /// Tokenizing: `done` of `total` bytes processed.
    Running {
        /// Bytes tokenized so far.
        done: usize,
        /// Bytes in the text.
        total: usize,
    },
}

/// Handles to every signal of the page. `Copy`, so closures capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    /// UI language.
    pub lang: RwSignal<Lang>,
    /// Document-length field, as typed.
    pub doc_length: RwSignal<String>,
    /// Unit of the document-length field.
    pub unit: RwSignal<LengthUnit>,
    /// Chunk-size field, as typed.
    pub chunk_size: RwSignal<String>,
    /// Overlap field, as typed.
    pub chunk_overlap: RwSignal<String>,
    /// Price field, as typed.
    pub price: RwSignal<String>,
    /// Tokenizer.
    pub encoding: RwSignal<Encoding>,
    /// The pasted or loaded text (an `Arc` so the tokenizer job and the result share it).
    pub text: RwSignal<Arc<str>>,
    /// The text's length in chars (Unicode scalar values). A `Memo`: the estimate, the char
    /// figure and the large-text notice all read it, and counting the chars of megabytes
    /// should happen once per edit, not once per reader or per edit of another field.
    pub text_chars: Memo<u64>,
    /// The latest finished tokenization (may be of an older text while a new one runs).
    pub tokenized: RwSignal<Option<Arc<Tokenized>>>,
    /// Progress of the running tokenization.
    pub progress: RwSignal<Progress>,
    /// True once the tokenizer's Web Worker has started and while it does the tokenizing;
    /// false before, and where the page's own thread does it (no worker in this browser, or it
    /// failed). Shown as a `data-worker` hook.
    pub worker: RwSignal<bool>,
    /// True while a long paste is being copied into the page (over several tasks, see
    /// `browser::read_js_string`): the figures are not ready until it is in.
    pub reading: RwSignal<bool>,
    /// Every field checked. A `Memo` because the outputs, the notices and each field's error
    /// read it, and it should run once per edit, not once per reader.
    pub checked: Memo<Checked>,
    /// The formula's output for the checked input (`None` while a field is invalid). A `Memo`
    /// so that an edit that does not change the figures (e.g. "512" → "512.0") re-renders
    /// nothing.
    pub output: Memo<Option<FormulaOutput>>,
}

impl AppState {
    /// Creates every signal with the page's defaults (SPEC worked example) and `lang`.
    pub fn new(lang: Lang) -> Self {
        let d = RawInputs::default();
        let doc_length = RwSignal::new(d.doc_length);
        let unit = RwSignal::new(d.unit);
        let chunk_size = RwSignal::new(d.chunk_size);
        let chunk_overlap = RwSignal::new(d.chunk_overlap);
        let price = RwSignal::new(d.price);
        let encoding = RwSignal::new(Encoding::default());
        let text: RwSignal<Arc<str>> = RwSignal::new(Arc::from(""));
        let tokenized: RwSignal<Option<Arc<Tokenized>>> = RwSignal::new(None);
        let text_chars = Memo::new(move |_| text.with(|t| t.chars().count() as u64));
        let checked = Memo::new(move |_| {
            let raw = RawInputs {
                doc_length: doc_length.get(),
                unit: unit.get(),
                chunk_size: chunk_size.get(),
                chunk_overlap: chunk_overlap.get(),
                price: price.get(),
            };
            check(&raw, text_document(text, text_chars, tokenized, encoding))
        });
        let output = Memo::new(move |_| checked.with(|c| c.input).and_then(|i| compute(i).ok()));
        AppState {
            lang: RwSignal::new(lang),
            doc_length,
            unit,
            chunk_size,
            chunk_overlap,
            price,
            encoding,
            text,
            text_chars,
            tokenized,
            progress: RwSignal::new(Progress::Idle),
            worker: RwSignal::new(false),
            reading: RwSignal::new(false),
            checked,
            output,
        }
    }

    /// The message `key` in the current language; reading it subscribes to language changes.
    pub fn t(&self, key: Key) -> &'static str {
        i18n::text(self.lang.get(), key)
    }

    /// The message `key` with its parameters filled.
    pub fn tf(&self, key: Key, args: &[(&str, &str)]) -> String {
        i18n::fill(self.t(key), args)
    }

    /// True when the figures describe the current text and tokenizer (or there is no text):
    /// what the `status` hook reports as `ready`.
    pub fn is_ready(&self) -> bool {
        if self.reading.get() {
            return false;
        }
        let text = self.text.get();
        if text.is_empty() {
            return true;
        }
        let enc = self.encoding.get();
        self.tokenized.with(|t| {
            t.as_ref()
                .is_some_and(|t| Arc::ptr_eq(&t.text, &text) && t.encoding == enc)
        })
    }
}

/// The document length implied by the text, if any: its exact token count once tokenized with
/// the current encoding; while a new text is being counted, the previous exact count if it used
/// the same encoding (so figures do not flicker while typing), else an estimate from its chars.
fn text_document(
    text: RwSignal<Arc<str>>,
    text_chars: Memo<u64>,
    tokenized: RwSignal<Option<Arc<Tokenized>>>,
    encoding: RwSignal<Encoding>,
) -> Option<DocLength> {
    if text.with(|t| t.is_empty()) {
        return None;
    }
    let enc = encoding.get();
    tokenized.with(|t| match t {
        Some(t) if t.encoding == enc => Some(DocLength::Tokens(t.tokens() as u64)),
        _ => Some(DocLength::from_chars(text_chars.get())),
    })
}
