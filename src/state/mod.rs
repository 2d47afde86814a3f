//! The page's shared state. Each context has two handles over the same signals (Leptos
//! todomvc style, made visible to the compiler): a read handle (`ReadSignal`s), which every
//! component takes, and a write handle (`RwSignal`s), which only the writers below take from
//! the tree. The `App` creates and provides them all ([`provide_page_state`]):
//!
//! | read handle | write handle | what it holds | taken by |
//! |---|---|---|---|
//! | [`Language`] | [`LanguageWriter`] | the UI language | `app::LanguageSwitch`, the settings link (`share`) |
//! | [`CalculatorFields`] | [`FieldsWriter`] | the form's fields as typed, the tokenizer | `calculator::Inputs`; the buttons that fill the form on the user's request ("use the library's defaults" in `compare::panel`, "use this setting" in `retrieval`); the model select (`compare::model_panel::ModelSelect`: tokenizer, price) and the size-tokenizer select (`compare::SizeTokenizerSelect`: tokenizer); the language switch (`app::LanguageSwitch`: the price's decimal mark); the settings link (`share`) |
//! | [`SourceText`] | [`SourceWriter`] | the pasted or loaded text, "reading a paste", its PDF pages | `file_input::TextSource` |
//! | [`Tokenization`] | [`TokenizationWriter`] | the finished tokenization, progress, worker in use | `tokenize::job` |
//! | [`Derived`] | — | memos read by several components | — |
//!
//! The sections' own contexts say who writes them: `compare::CompareSettings`,
//! `model::ModelSettings` and `retrieval::state::RetrievalSettings` are written by their
//! section's inputs and by the settings link; `compare::CompareResults`,
//! `model::ModelResults` and `retrieval::state::RetrievalResults` only by
//! `jobs`.
//!
//! Every figure in them comes from `chunk_core`; the page formats them.

pub mod model;
pub mod tokenization;

use std::sync::Arc;

use chunk_core::analysis::export::PageMap;
use chunk_core::formula::{compute, DocLength, FormulaOutput};
use chunk_core::text_stats::char_count;
use chunk_core::tokenizer::{tokens_between, Encoding};
use leptos::prelude::*;

use crate::i18n::{self, Key, Lang};
use crate::parse::{check, Checked, LengthUnit, RawInputs};
pub use tokenization::{EditKind, Loading, Progress};

/// Declares a context as two handles over the same signals: the read handle (every field a
/// `ReadSignal`), which every component takes from the tree, and the write handle (the
/// `RwSignal`s), which only the writers named in its doc take. `$write::provide` provides
/// both; the compiler then shows every writer: a component that only reads cannot write.
macro_rules! split_context {
    (
        $(#[$rmeta:meta])* pub struct $read:ident;
        $(#[$wmeta:meta])* pub struct $write:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$rmeta])*
        #[derive(Clone, Copy)]
        pub struct $read {
            $( $(#[$fmeta])* pub $field: ReadSignal<$ty>, )*
        }

        $(#[$wmeta])*
        #[derive(Clone, Copy)]
        pub struct $write {
            $( $(#[$fmeta])* pub $field: RwSignal<$ty>, )*
        }

        impl $write {
            /// The read handle over the same signals.
            pub fn read(&self) -> $read {
                $read { $( $field: self.$field.read_only(), )* }
            }

            /// Provides both handles to the current owner's children; the read handle.
            pub fn provide(self) -> $read {
                provide_context(self);
                let read = self.read();
                provide_context(read);
                read
            }
        }
    };
}

/// A finished tokenization of one text with one encoding.
#[derive(Debug)]
pub struct Tokenized {
    /// The text that was tokenized (shared with [`SourceText::text`]; compared by pointer).
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
    /// Number of tokens (`chunk_core::tokenizer::tokens_between` of the offsets).
    pub fn tokens(&self) -> usize {
        tokens_between(&self.offsets)
    }
}

split_context! {
    /// The UI language, read by every component for its messages and number formats. `Copy`,
    /// so closures capture it freely.
    pub struct Language;
    /// The UI language's write handle: taken by the language switch (`app::LanguageSwitch`)
    /// and the settings link (`share`) only.
    pub struct LanguageWriter {
        /// The language itself.
        pub lang: Lang,
    }
}

impl LanguageWriter {
    /// The language signal, starting at `lang`.
    pub fn new(lang: Lang) -> Self {
        LanguageWriter {
            lang: RwSignal::new(lang),
        }
    }
}

impl Language {
    /// The current language; reading it subscribes to language changes.
    pub fn get(&self) -> Lang {
        self.lang.get()
    }

    /// The message `key`, one without parameters (a message with parameters is shown with
    /// [`Language::tf`]; debug builds assert it), in the current language; reading it
    /// subscribes to language changes.
    pub fn t(&self, key: Key) -> &'static str {
        i18n::text(self.lang.get(), key)
    }

    /// A message with parameters (a catalog's `args` struct), filled in the current language;
    /// reading it subscribes to language changes.
    pub fn tf(&self, message: impl crate::i18n::Message) -> String {
        message.fill(self.lang.get())
    }
}

split_context! {
    /// The calculator's inputs as typed, read by the [`Derived`] memos and every part that
    /// shows them.
    pub struct CalculatorFields;
    /// The calculator's inputs' write handle: taken by the settings form (`calculator::Inputs`),
    /// the buttons that fill it on the user's request (a library's defaults in
    /// `compare::panel`, the sweep's best setting in `retrieval`), the model select (the
    /// tokenizer and the price: `compare::model_panel::ModelSelect`), the size-tokenizer select
    /// (the tokenizer), the language switch (the price's decimal mark) and the settings link
    /// (`share`).
    pub struct FieldsWriter {
        /// Document-length field, as typed.
        pub doc_length: String,
        /// Unit of the document-length field.
        pub unit: LengthUnit,
        /// Chunk-size field, as typed.
        pub chunk_size: String,
        /// Overlap field, as typed.
        pub chunk_overlap: String,
        /// Price field, as typed.
        pub price: String,
        /// Tokenizer (also the one the text is tokenized with).
        pub encoding: Encoding,
    }
}

impl FieldsWriter {
    /// The fields with the page's defaults (SPEC worked example).
    pub fn new() -> Self {
        let d = RawInputs::default();
        FieldsWriter {
            doc_length: RwSignal::new(d.doc_length),
            unit: RwSignal::new(d.unit),
            chunk_size: RwSignal::new(d.chunk_size),
            chunk_overlap: RwSignal::new(d.chunk_overlap),
            price: RwSignal::new(d.price),
            encoding: RwSignal::new(Encoding::default()),
        }
    }
}

/// A text field of the settings form, by its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum TextField {
    /// `doc-length`.
    DocLength,
    /// `chunk-size`.
    ChunkSize,
    /// `chunk-overlap`.
    ChunkOverlap,
    /// `price`.
    Price,
}

impl FieldsWriter {
    /// The signal of `field`.
    pub fn signal(&self, field: TextField) -> RwSignal<String> {
        match field {
            TextField::DocLength => self.doc_length,
            TextField::ChunkSize => self.chunk_size,
            TextField::ChunkOverlap => self.chunk_overlap,
            TextField::Price => self.price,
        }
    }

    /// Fills `field` with `value` on the user's request (a library's defaults, the sweep's
    /// best setting, the model's price, the price's decimal mark): its box and its signal
    /// ([`crate::ui::fill_box`]).
    pub fn fill(&self, field: TextField, value: String) {
        crate::ui::fill_box(field.into(), self.signal(field), value);
    }

    /// Fills chunk_size and chunk_overlap.
    pub fn fill_size(&self, chunk_size: usize, chunk_overlap: usize) {
        self.fill(TextField::ChunkSize, chunk_size.to_string());
        self.fill(TextField::ChunkOverlap, chunk_overlap.to_string());
    }
}

impl Default for FieldsWriter {
    fn default() -> Self {
        Self::new()
    }
}

/// The text of the text box, read by the tokenizer job, the figures and the simulator's "own
/// text". Its write handle is [`SourceWriter`].
#[derive(Clone, Copy)]
pub struct SourceText {
    /// The pasted or loaded text (an `Arc` so the tokenizer job and the result share it).
    pub text: ReadSignal<Arc<str>>,
    /// True while a long paste is being copied into the page (over several tasks, see
    /// `browser::read_js_string`) or a document is being read by the reader worker
    /// (`extract_job`): the figures are not ready until the text is in.
    pub reading: ReadSignal<bool>,
    /// The kind of the edit that made `text` (typing, or a paste / drop / file), written just
    /// before `text`; the tokenizer job reads it to decide whether to debounce
    /// (`tokenize::schedule::start_delay`). A `StoredValue`: read in the job's effect without
    /// tracking (the text itself triggers it), never drawn; written only through
    /// [`SourceWriter`].
    pub last_edit: StoredValue<EditKind>,
    /// Where each page of `text` starts, when the text is a PDF's as the document reader made
    /// it; `None` for any other text, and from the first edit on. Written with `text`, just
    /// before it, so that whatever follows the text sees the pages of that text. A signal: the
    /// chunk preview draws the pages.
    pub pages: ReadSignal<Option<Arc<PageMap>>>,
}

/// The text's write handle: taken by the text source only (`file_input::TextSource`:
/// typing, pastes, files, clear).
#[derive(Clone, Copy)]
pub struct SourceWriter {
    text: RwSignal<Arc<str>>,
    reading: RwSignal<bool>,
    last_edit: StoredValue<EditKind>,
    pages: RwSignal<Option<Arc<PageMap>>>,
}

impl SourceWriter {
    /// No text, nothing being read.
    pub fn new() -> Self {
        SourceWriter {
            text: RwSignal::new(Arc::from("")),
            reading: RwSignal::new(false),
            last_edit: StoredValue::new(EditKind::Whole),
            pages: RwSignal::new(None),
        }
    }

    /// The read handle over the same signals.
    pub fn read(&self) -> SourceText {
        SourceText {
            text: self.text.read_only(),
            reading: self.reading.read_only(),
            last_edit: self.last_edit,
            pages: self.pages.read_only(),
        }
    }

    /// Provides both handles to the current owner's children; the read handle.
    pub fn provide(self) -> SourceText {
        provide_context(self);
        let read = self.read();
        provide_context(read);
        read
    }

    /// Makes `text` the page's text, made by an edit of `kind`, with its pages when it was
    /// read from a PDF (written before the text, so that whatever follows the text sees them).
    pub fn set_text(&self, text: Arc<str>, kind: EditKind, pages: Option<Arc<PageMap>>) {
        self.last_edit.set_value(kind);
        self.pages.set(pages);
        self.text.set(text);
    }

    /// Whether a paste or a document is being read into the page.
    pub fn set_reading(&self, reading: bool) {
        self.reading.set(reading);
    }
}

impl Default for SourceWriter {
    fn default() -> Self {
        Self::new()
    }
}

split_context! {
    /// The tokenization of the text, read by the status, the figures and the preview.
    pub struct Tokenization;
    /// The tokenization's write handle: taken by the tokenizer job only
    /// (`tokenize::job::spawn_tokenizer`, started by the `App`).
    pub struct TokenizationWriter {
        /// The latest finished tokenization (may be of an older text while a new one runs).
        pub tokenized: Option<Arc<Tokenized>>,
        /// Progress of the running tokenization.
        pub progress: Progress,
        /// The tokenizer module's download, then its table's, while the worker waits for them
        /// (`None` once a table has arrived, or where the page's thread does the work). Shown by
        /// the status while a count waits.
        pub loading: Option<Loading>,
        /// True once the tokenizer's Web Worker can count (its module runs and a table has
        /// arrived) and while it does the tokenizing; false before, and where the page's own
        /// thread does it (no worker in this browser, or it failed). Shown as a `data-worker`
        /// hook.
        pub worker: bool,
        /// True when the newest job waited for the debounce before it started (typing in a
        /// long text), false when it started at once (a paste, a drop, a file, a short text).
        /// Shown as the status's `data-debounced` hook.
        pub debounced: bool,
    }
}

impl TokenizationWriter {
    /// Nothing tokenized, idle, no worker yet.
    pub fn new() -> Self {
        TokenizationWriter {
            tokenized: RwSignal::new(None),
            progress: RwSignal::new(Progress::Idle),
            loading: RwSignal::new(None),
            worker: RwSignal::new(false),
            debounced: RwSignal::new(false),
        }
    }
}

impl Default for TokenizationWriter {
    fn default() -> Self {
        Self::new()
    }
}

/// What several components read and no component writes: memos over the other contexts.
/// Each is a `Memo` for the reason given on it; all run in the owner of the `App`.
#[derive(Clone, Copy)]
pub struct Derived {
    /// The text's length in chars (`chunk_core::text_stats::char_count`). A `Memo`: the
    /// estimate, the char figure, the status and the large-text notice all read it, and
    /// counting the chars of megabytes should happen once per edit, not once per reader or per
    /// edit of another field.
    pub text_chars: Memo<u64>,
    /// Every field checked. A `Memo` because the outputs, the notices, the preview and each
    /// field's error read it, and it should run once per edit, not once per reader.
    pub checked: Memo<Checked>,
    /// The formula's output for the checked input (`None` while a field is invalid). A `Memo`
    /// so that an edit that does not change the figures (e.g. "512" → "512.0") re-renders
    /// nothing.
    pub output: Memo<Option<FormulaOutput>>,
    /// True when the figures describe the current text and tokenizer (or there is no text):
    /// what the `status` hook reports as `ready`. A `Memo`: the status (three times), the
    /// preview and the notices read it, and it compares the text by pointer on each change of
    /// the text, the encoding or the tokenization, not on each read.
    pub ready: Memo<bool>,
}

impl Derived {
    /// The memos over `fields`, `source` and `tokenization`.
    pub fn new(
        language: Language,
        fields: CalculatorFields,
        source: SourceText,
        tokenization: Tokenization,
    ) -> Self {
        let text = source.text;
        let text_chars = Memo::new(move |_| text.with(|t| char_count(t)));
        let checked = Memo::new(move |_| {
            let raw = RawInputs {
                doc_length: fields.doc_length.get(),
                unit: fields.unit.get(),
                chunk_size: fields.chunk_size.get(),
                chunk_overlap: fields.chunk_overlap.get(),
                price: fields.price.get(),
                decimal_mark: crate::parse::decimal_mark(language.lang.get()),
            };
            check(
                &raw,
                text_document(text, text_chars, tokenization, fields.encoding),
            )
        });
        let output = Memo::new(move |_| checked.with(|c| c.input).and_then(|i| compute(i).ok()));
        let ready = Memo::new(move |_| {
            if source.reading.get() {
                return false;
            }
            let text = text.get();
            if text.is_empty() {
                return true;
            }
            let enc = fields.encoding.get();
            tokenization.tokenized.with(|t| {
                t.as_ref()
                    .is_some_and(|t| Arc::ptr_eq(&t.text, &text) && t.encoding == enc)
            })
        });
        Derived {
            text_chars,
            checked,
            output,
            ready,
        }
    }
}

/// Every context of the page, as created by [`provide_page_state`]. Not a context itself:
/// the `App` uses it to start the tokenizer job and the language effect.
#[derive(Clone, Copy)]
pub struct PageState {
    /// The UI language.
    pub language: Language,
    /// The calculator's fields.
    pub fields: CalculatorFields,
    /// The text.
    pub source: SourceText,
    /// The tokenization.
    pub tokenization: Tokenization,
    /// The memos over them.
    pub derived: Derived,
}

impl PageState {
    /// Every context of the page, read back from the component tree (for components that read
    /// several of them; each is still written only by its own component).
    ///
    /// # Panics
    /// Outside the tree under `App` (a missing context is a bug of the page's layout).
    pub fn from_context() -> Self {
        PageState {
            language: expect_context(),
            fields: expect_context(),
            source: expect_context(),
            tokenization: expect_context(),
            derived: expect_context(),
        }
    }
}

/// Creates every context with the page's defaults (SPEC worked example) in `lang`, and
/// provides each one separately to the current owner's children.
pub fn provide_page_state(lang: Lang) -> PageState {
    let language = LanguageWriter::new(lang).provide();
    let fields = FieldsWriter::new().provide();
    let source = SourceWriter::new().provide();
    let tokenization = TokenizationWriter::new().provide();
    let derived = Derived::new(language, fields, source, tokenization);
    provide_context(derived);
    PageState {
        language,
        fields,
        source,
        tokenization,
        derived,
    }
}

/// The document length implied by the text, if any: its exact token count once tokenized with
/// the current encoding; while a new text is being counted, the previous exact count if it used
/// the same encoding (so figures do not flicker while typing), else an estimate from its chars;
/// the estimate too when the newest text could not be counted at all (`Progress::Failed`, as
/// the status then says).
fn text_document(
    text: ReadSignal<Arc<str>>,
    text_chars: Memo<u64>,
    tokenization: Tokenization,
    encoding: ReadSignal<Encoding>,
) -> Option<DocLength> {
    if text.with(|t| t.is_empty()) {
        return None;
    }
    let enc = encoding.get();
    let failed = tokenization.progress.get() == Progress::Failed;
    tokenization.tokenized.with(|t| match t {
        Some(t) if t.encoding == enc && (!failed || text.with(|x| Arc::ptr_eq(x, &t.text))) => {
            Some(DocLength::Tokens(t.tokens() as u64))
        }
        _ => Some(DocLength::from_chars(text_chars.get())),
    })
}
