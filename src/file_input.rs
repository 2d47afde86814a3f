//! The text source: a paste box, a file picker and drag-and-drop (read on this device only) of
//! text files and of documents (HTML, DOCX: read by the document reader worker,
//! [`crate::extract_job`], into markdown-like text), the tokenizer status and the special-token
//! notice.

use crate::i18n::args as page_msg;
use std::sync::Arc;

use leptos::html::Textarea;
use leptos::prelude::*;

use chunk_core::analysis::export::PageMap;
use chunk_core::text_stats::{char_count, replacement_chars, whole_kib, whole_mib};
use chunk_core::tokenizer::special_token_counts;
use doc_extract::{ExtractError, Extracted, Format, Outcome};

use crate::extract_job::{ExtractJob, Finished, Progress};
use crate::i18n::Key;
use crate::state::{Derived, EditKind, Language, SourceText, Tokenization};
use crate::{browser, format};

/// Largest file accepted, in bytes (10 MB): far above any document worth previewing chunk by
/// chunk, and small enough that reading and tokenizing it stays quick.
pub const MAX_FILE_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

/// Largest document file accepted (HTML, DOCX, PDF by their name), in bytes (64 MiB): a
/// document's file is mostly markup, compression and images, so its text is far smaller. The
/// text read out of it then follows the same rules as a pasted text.
pub const MAX_DOCUMENT_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Texts longer than this (in bytes, 32 KiB) are not written into the paste box: Chromium lays
/// out and paints a textarea's whole content when it is shown and on every keystroke. Measured
/// on a bare textarea in headless Chromium 156 with mixed-script text: 64 KB takes one 141 ms
/// task to show, 128 KB 175 ms (79 ms per key), 250 KB 538 ms (151 ms per key); 32 KB stays
/// under 50 ms. Such a text is held in the state only; the box is emptied, made read-only and
/// replaced by a notice until the text is cleared. The box says it in `data-large-text`, so
/// that `assets/boot.js` holds such a paste back from the prerendered box in the same way.
pub const LARGE_TEXT_BYTES: usize = 32 * 1024;

/// A paste longer than this many UTF-16 code units (1 Mi) is copied into the page over several
/// browser tasks, this many per task (about 6 ms each in Chromium), rather than in one task
/// that would take about 60 ms for 10 MB.
const PASTE_SLICE_UNITS: u32 = 1 << 20;

/// The box's selection `[start, end)` in UTF-16 code units (the caret when both are equal).
fn selection(el: &web_sys::HtmlTextAreaElement) -> (u32, u32) {
    let start = el.selection_start().ok().flatten().unwrap_or(0);
    (start, el.selection_end().ok().flatten().unwrap_or(start))
}

/// `value` with `pasted` in place of `selection` (`pasted` itself, not a copy of it, when the
/// box was empty).
fn splice_selection(value: &str, (start, end): (u32, u32), pasted: String) -> String {
    if value.is_empty() {
        return pasted;
    }
    splice_utf16(value, start, end, &pasted)
}

/// Inserts `pasted` into `value` in place of the selection `[start, end)`, given in UTF-16
/// code units as the DOM reports them; out-of-range or split positions are clamped to the
/// nearest character boundary before them, so nothing of `value` is lost.
pub fn splice_utf16(value: &str, start: u32, end: u32, pasted: &str) -> String {
    let (s, e) = utf16_range_to_bytes(value, start, end);
    let mut out = String::with_capacity(value.len() - (e - s) + pasted.len());
    out.push_str(&value[..s]);
    out.push_str(pasted);
    out.push_str(&value[e..]);
    out
}

/// The UTF-8 byte range of `value` that the DOM's selection `[start, end)` (in UTF-16 code
/// units) covers; a position past the end or inside a surrogate pair is moved to the
/// character boundary before it, and reversed ends are swapped.
pub fn utf16_range_to_bytes(value: &str, start: u32, end: u32) -> (usize, usize) {
    let byte_at = |units: u32| {
        let mut seen = 0u32;
        for (i, c) in value.char_indices() {
            if seen + c.len_utf16() as u32 > units {
                return i;
            }
            seen += c.len_utf16() as u32;
        }
        value.len()
    };
    (byte_at(start.min(end)), byte_at(end.max(start)))
}

/// The text box's selection as a byte range of its value and that value, when something is
/// selected (`None` for a caret or when there is no box).
pub fn text_box_selection() -> Option<(String, usize, usize)> {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let el = leptos::prelude::document()
            .get_element_by_id("text-input")?
            .dyn_into::<web_sys::HtmlTextAreaElement>()
            .ok()?;
        let (start, end) = selection(&el);
        if start == end {
            return None;
        }
        let value = el.value();
        let (s, e) = utf16_range_to_bytes(&value, start, end);
        Some((value, s, e))
    }
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Why a file was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// Larger than [`size_limit`] of its name.
    TooLarge,
    /// Not UTF-8 text: invalid UTF-8.
    NotUtf8,
    /// UTF-16 text: it starts with a UTF-16 byte order mark (`FF FE` or `FE FF`).
    Utf16,
    /// Valid UTF-8 holding a NUL byte, which no text file holds but binary files (a PDF with
    /// another name, an image) and UTF-16 text do.
    NulBytes,
    /// The browser could not read it.
    Unreadable,
}

impl FileProblem {
    /// A stable name for the problem, the message's `data-reason`: `too-large`, `not-utf8`,
    /// `nul-bytes`, `utf-16`, `unreadable`.
    pub fn reason(&self) -> &'static str {
        match self {
            FileProblem::TooLarge => "too-large",
            FileProblem::NotUtf8 => "not-utf8",
            FileProblem::NulBytes => "nul-bytes",
            FileProblem::Utf16 => "utf-16",
            FileProblem::Unreadable => "unreadable",
        }
    }
}

/// What a file is, by its name and first bytes ([`Format::detect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Anything else: read as UTF-8 text ([`decode_file`]).
    Text,
    /// A document (HTML, DOCX, PDF) the reader worker turns into text.
    Document(Format),
}

impl FileKind {
    /// The kind of the file named `name` whose content starts with `first_bytes`.
    pub fn of(name: &str, first_bytes: &[u8]) -> FileKind {
        Format::detect(name, first_bytes).map_or(FileKind::Text, FileKind::Document)
    }
}

/// The largest file named `name` that is read, in bytes: [`MAX_DOCUMENT_BYTES`] for a
/// document's name (`.html`, `.htm`, `.xhtml`, `.docx`, `.pdf`, any case), else
/// [`MAX_FILE_BYTES`].
pub fn size_limit(name: &str) -> f64 {
    let lower = name.to_ascii_lowercase();
    let document = [".html", ".htm", ".xhtml", ".docx", ".pdf"]
        .iter()
        .any(|e| lower.ends_with(e));
    if document {
        MAX_DOCUMENT_BYTES
    } else {
        MAX_FILE_BYTES
    }
}

/// Checks a file's size before reading it: up to [`size_limit`] of its name. Any name is
/// accepted (README, notes.rst, page.html …): what it holds is decided by [`FileKind::of`] and
/// [`decode_file`].
pub fn precheck_file(name: &str, size_bytes: f64) -> Result<(), FileProblem> {
    if size_bytes > size_limit(name) {
        Err(FileProblem::TooLarge)
    } else {
        Ok(())
    }
}

/// Decodes a file's bytes as UTF-8 text, refusing invalid bytes rather than replacing them
/// (the page never shows invented U+FFFD characters, [`FileProblem::NotUtf8`]) and refusing a
/// NUL byte in valid UTF-8 with that reason ([`FileProblem::NulBytes`]): no text document
/// holds one, but binary files (PDF, images) and UTF-16 text do; UTF-16 text that starts with
/// its byte order mark is named as such ([`FileProblem::Utf16`]).
/// The rules are [`doc_extract::decode_text`]'s, which the corpus tools share.
pub fn decode_file(bytes: Vec<u8>) -> Result<String, FileProblem> {
    doc_extract::decode_text(bytes).map_err(|p| match p {
        doc_extract::TextProblem::Utf16 => FileProblem::Utf16,
        doc_extract::TextProblem::NotUtf8 { .. } => FileProblem::NotUtf8,
        doc_extract::TextProblem::NulBytes { .. } => FileProblem::NulBytes,
    })
}

/// Reads a file the user chose as text, on this device ([`decode_file`]'s rules): the copy
/// and the UTF-8 check each in a task of their own, since for 10 MB each takes tens of
/// milliseconds. Used by the text box and by the retrieval check's JSONL import.
///
/// # Errors
/// [`FileProblem::Unreadable`] when the browser cannot read it, [`FileProblem::NotUtf8`]
/// from [`decode_file`].
pub async fn read_file_text(file: web_sys::File) -> Result<String, FileProblem> {
    let bytes = read_file_bytes(file).await?.to_vec();
    browser::yield_now().await;
    decode_file(bytes)
}

/// Reads a file the user chose into a byte array in the page (no copy into wasm memory yet).
///
/// # Errors
/// [`FileProblem::Unreadable`] when the browser cannot read it.
async fn read_file_bytes(file: web_sys::File) -> Result<js_sys::Uint8Array, FileProblem> {
    let buf = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| FileProblem::Unreadable)?;
    Ok(js_sys::Uint8Array::new(&buf))
}

/// The kind of the text box's `input` event: its `InputEvent.inputType` (read by name, so that
/// a plain `Event`, as a script may dispatch, is typing), mapped by
/// [`EditKind::of_input_type`]. A paste, a drop or a cut is never debounced; typing may be.
fn input_kind(ev: &web_sys::Event) -> EditKind {
    let input_type = js_sys::Reflect::get(ev, &"inputType".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    EditKind::of_input_type(&input_type)
}

/// What the reader found in a document, for its summary (the text itself goes to the box).
#[derive(Clone, Debug, PartialEq)]
struct ExtractSummary {
    format: Format,
    /// Characters (Unicode scalar values) of the extracted text.
    chars: u64,
    headings: usize,
    list_items: usize,
    tables: usize,
    images: usize,
    removed: usize,
    /// HTML page boilerplate left out (navigation, the page's header, footer and sidebar).
    boilerplate: usize,
    /// A PDF's pages (0 for HTML and DOCX), those without text, those that could not be read.
    pages: usize,
    pages_without_text: usize,
    pages_unreadable: usize,
    /// A PDF's page-tree entries left out as repeats (a cycle).
    pages_repeated: usize,
    /// A PDF's glyphs whose font maps them to no character (`Extracted::glyphs_without_text`).
    glyphs_without_text: usize,
    /// A DOCX's footnotes and endnotes written after its text, its headers and footers and its
    /// comments left out (`Extracted::notes`, `headers_footers`, `comments`).
    notes: usize,
    headers_footers: usize,
    comments: usize,
    /// A DOCX's parts read without because they did not read (`Extracted::parts_unreadable`).
    parts_unreadable: usize,
    /// Time the reader spent, in milliseconds.
    millis: f64,
}

impl ExtractSummary {
    fn of(format: Format, found: &Extracted, millis: f64) -> Self {
        ExtractSummary {
            format,
            chars: char_count(&found.text),
            headings: found.headings,
            list_items: found.list_items,
            tables: found.tables,
            images: found.images,
            removed: found.removed,
            boilerplate: found.boilerplate,
            pages: found.pages(),
            pages_without_text: found.pages_without_text,
            pages_unreadable: found.pages_unreadable,
            pages_repeated: found.pages_repeated,
            glyphs_without_text: found.glyphs_without_text,
            notes: found.notes,
            headers_footers: found.headers_footers,
            comments: found.comments,
            parts_unreadable: found.parts_unreadable,
            millis,
        }
    }
}

/// A message about the last file (its name first), shown under the box.
#[derive(Clone, Debug, PartialEq)]
enum FileMessage {
    Loaded(String),
    Problem(String, FileProblem),
    /// The reader worker is reading it (a PDF: with the pages read so far, once reported).
    Reading(String, Option<Progress>),
    /// A document was read into the box.
    Extracted(String, ExtractSummary),
    /// The reader refused it.
    Refused(String, ExtractError),
    /// The user stopped the reader.
    Cancelled(String),
    /// The reader worker failed without an answer.
    ReaderFailed(String),
    /// The reader could not be loaded because the page is offline and the reader has never
    /// been fetched (the service worker keeps it once a document was opened online).
    ReaderOffline(String),
    /// A document read, but without any text: the box keeps its text.
    NoText(String),
    /// The part of the page that starts the reader (the panels' module) could not be had,
    /// online: nothing was read.
    ReaderUnavailable(String),
}

/// Why the document reader's files could not be loaded for file `name`: offline, they were
/// never kept on this device (trying again cannot work until the page is online); online, the
/// reader failed like any other stop.
fn not_loaded(name: String) -> FileMessage {
    if browser::is_online() {
        FileMessage::ReaderFailed(name)
    } else {
        FileMessage::ReaderOffline(name)
    }
}

/// One line under the box about the last file (`file-message`), with a refusal's reason in
/// `data-reason` and a tooltip when given.
fn file_note(
    class: &'static str,
    reason: Option<&'static str>,
    title: Option<String>,
    text: String,
) -> AnyView {
    view! {
        <p class=class role="status" data-testid="file-message" data-reason=reason title=title>
            {text}
        </p>
    }
    .into_any()
}

/// The name of `format` as the page shows it.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::Html => "HTML",
        Format::Docx => "DOCX",
        Format::Pdf => "PDF",
    }
}

/// The line that says what became of the file the user opened: loaded, refused and why,
/// being read (with a stop button that calls `cancel`), read (with what was left out),
/// stopped, or the reader failed.
fn file_message_view(
    lang: Language,
    m: FileMessage,
    cancel: impl Fn(web_sys::MouseEvent) + 'static,
) -> AnyView {
    let l = lang.get();
    let int = |n: usize| format::int(l, n as u128);
    match m {
        FileMessage::Loaded(name) => {
            let text = lang.tf(page_msg::FileLoaded { name: &name });
            file_note("file-msg ok", None, None, text)
        }
        FileMessage::Problem(name, p) => {
            let text = match p {
                FileProblem::TooLarge => {
                    let max = whole_mib(size_limit(&name) as u64);
                    lang.tf(page_msg::FileTooLarge {
                        name: &name,
                        max: &format::int(l, u128::from(max)),
                    })
                }
                FileProblem::NotUtf8 => lang.tf(page_msg::FileNotUtf8 { name: &name }),
                FileProblem::NulBytes => lang.tf(page_msg::FileNulBytes { name: &name }),
                FileProblem::Utf16 => lang.tf(page_msg::FileUtf16 { name: &name }),
                FileProblem::Unreadable => lang.tf(page_msg::FileReadError { name: &name }),
            };
            file_note("file-msg error", Some(p.reason()), None, text)
        }
        FileMessage::Reading(name, progress) => view! {
            <p
                class="file-msg"
                role="status"
                data-testid="file-message"
                data-state="reading"
                data-done=progress.map(|p| p.done)
                data-total=progress.map(|p| p.total)
            >
                {match progress {
                    Some(p) => lang.tf(page_msg::FileReadingPages {
                        name: &name,
                        done: &format::int(l, u128::from(p.done)),
                        total: &format::int(l, u128::from(p.total)),
                    }),
                    None => lang.tf(page_msg::FileReading { name: &name }),
                }}
                " "
                <button
                    type="button"
                    class="button secondary"
                    data-testid="extract-cancel"
                    on:click=cancel
                >
                    {lang.t(Key::ExtractCancel)}
                </button>
            </p>
        }
        .into_any(),
        FileMessage::Extracted(name, x) => {
            let chars = format::int(l, u128::from(x.chars));
            let ms = format::int(l, x.millis.round() as u128);
            let read = if x.format == Format::Pdf {
                lang.tf(page_msg::FileExtractedPdf {
                    name: &name,
                    pages: &int(x.pages),
                    chars: &chars,
                    ms: &ms,
                })
            } else {
                lang.tf(page_msg::FileExtracted {
                    name: &name,
                    format: format_name(x.format),
                    chars: &chars,
                    headings: &int(x.headings),
                    items: &int(x.list_items),
                    tables: &int(x.tables),
                    ms: &ms,
                })
            };
            // What was left out: images, removed elements and page boilerplate (HTML), images,
            // headers and footers and comments, and the notes written after the text (DOCX),
            // images and pages without text or unreadable (PDF).
            let mut left_out = Vec::new();
            if x.format == Format::Pdf {
                if x.images > 0 {
                    left_out.push(lang.tf(page_msg::FileImagesLeftOut {
                        images: &int(x.images),
                    }));
                }
                if x.pages_without_text > 0 {
                    let n = int(x.pages_without_text);
                    left_out.push(lang.tf(page_msg::FilePagesWithoutText { n: &n }));
                }
                if x.pages_unreadable > 0 {
                    let n = int(x.pages_unreadable);
                    left_out.push(lang.tf(page_msg::FilePagesUnreadable { n: &n }));
                }
                if x.pages_repeated > 0 {
                    let n = int(x.pages_repeated);
                    left_out.push(lang.tf(page_msg::FilePagesRepeated { n: &n }));
                }
                if x.glyphs_without_text > 0 {
                    let n = int(x.glyphs_without_text);
                    left_out.push(lang.tf(page_msg::FileGlyphsWithoutText { n: &n }));
                }
            } else if x.format == Format::Docx {
                if x.images > 0 {
                    left_out.push(lang.tf(page_msg::FileImagesLeftOut {
                        images: &int(x.images),
                    }));
                }
                if x.headers_footers > 0 {
                    let n = int(x.headers_footers);
                    left_out.push(lang.tf(page_msg::FileHeadersFootersLeftOut { n: &n }));
                }
                if x.comments > 0 {
                    let n = int(x.comments);
                    left_out.push(lang.tf(page_msg::FileCommentsLeftOut { n: &n }));
                }
                if x.notes > 0 {
                    let n = int(x.notes);
                    left_out.push(lang.tf(page_msg::FileNotesAppended { n: &n }));
                }
                if x.parts_unreadable > 0 {
                    let n = int(x.parts_unreadable);
                    left_out.push(lang.tf(page_msg::FileDocxPartsUnreadable { n: &n }));
                }
            } else {
                if x.images + x.removed > 0 {
                    left_out.push(lang.tf(page_msg::FileLeftOut {
                        images: &int(x.images),
                        removed: &int(x.removed),
                    }));
                }
                if x.boilerplate > 0 {
                    let n = int(x.boilerplate);
                    left_out.push(lang.tf(page_msg::FileBoilerplateLeftOut { n: &n }));
                }
            }
            view! {
                <p
                    class="file-msg ok"
                    role="status"
                    data-testid="extract-summary"
                    data-format=format_name(x.format).to_ascii_lowercase()
                    data-chars=x.chars.to_string()
                    data-headings=x.headings.to_string()
                    data-list-items=x.list_items.to_string()
                    data-tables=x.tables.to_string()
                    data-images=x.images.to_string()
                    data-removed=x.removed.to_string()
                    data-boilerplate=x.boilerplate.to_string()
                    data-pages=x.pages.to_string()
                    data-pages-without-text=x.pages_without_text.to_string()
                    data-pages-unreadable=x.pages_unreadable.to_string()
                    data-pages-repeated=x.pages_repeated.to_string()
                    data-glyphs-without-text=x.glyphs_without_text.to_string()
                    data-notes=x.notes.to_string()
                    data-headers-footers=x.headers_footers.to_string()
                    data-comments=x.comments.to_string()
                    data-parts-unreadable=x.parts_unreadable.to_string()
                    data-millis=format!("{:.1}", x.millis)
                >
                    {read}
                    {left_out.into_iter().map(|t| view! { " " {t} }).collect_view()}
                </p>
            }
            .into_any()
        }
        FileMessage::Refused(name, e) => {
            let name = name.as_str();
            let text = match &e {
                ExtractError::Encrypted => lang.tf(page_msg::FileEncrypted { name }),
                ExtractError::NotZip { .. } => lang.tf(page_msg::FileNotDocx { name }),
                ExtractError::NoDocument => lang.tf(page_msg::FileNoDocument { name }),
                ExtractError::TooLarge => lang.tf(page_msg::FileInflatesTooMuch {
                    name,
                    max: &format::int(l, u128::from(doc_extract::MAX_PART_BYTES >> 20)),
                }),
                ExtractError::NotUtf8 { .. } => lang.tf(page_msg::FileHtmlNotUtf8 { name }),
                ExtractError::Damaged { .. } | ExtractError::Xml { .. } => {
                    lang.tf(page_msg::FileDamaged { name })
                }
                ExtractError::NotPdf { .. } => lang.tf(page_msg::FileNotPdf { name }),
                ExtractError::PasswordRequired => lang.tf(page_msg::FilePdfPassword { name }),
                ExtractError::NoPages => lang.tf(page_msg::FilePdfNoPages { name }),
                ExtractError::NoTextLayer { pages } => lang.tf(page_msg::FilePdfScanned {
                    name,
                    pages: &int(*pages),
                }),
                ExtractError::PagesUnreadable { pages } => {
                    lang.tf(page_msg::FilePdfPagesUnreadable {
                        name,
                        pages: &int(*pages),
                    })
                }
            };
            // The reader's own detail (English) as the tooltip.
            let detail = Some(e.to_string());
            file_note("file-msg error", Some(e.reason()), detail, text)
        }
        FileMessage::Cancelled(name) => view! {
            <p class="file-msg" role="status" data-testid="file-message" data-state="cancelled">
                {lang.tf(page_msg::FileCancelled { name: &name })}
            </p>
        }
        .into_any(),
        FileMessage::ReaderFailed(name) => {
            let text = lang.tf(page_msg::FileReaderFailed { name: &name });
            file_note("file-msg error", Some("reader-failed"), None, text)
        }
        FileMessage::ReaderUnavailable(name) => {
            let text = lang.tf(page_msg::FileReaderUnavailable { name: &name });
            file_note("file-msg error", Some("reader-unavailable"), None, text)
        }
        FileMessage::ReaderOffline(name) => {
            let text = lang.tf(page_msg::FileReaderOffline { name: &name });
            file_note("file-msg error", Some("reader-offline"), None, text)
        }
        FileMessage::NoText(name) => {
            let text = lang.tf(page_msg::FileNoText { name: &name });
            file_note("file-msg error", Some("no-text"), None, text)
        }
    }
}

/// Paste box, file open / drop, status and special-token notice. The only writer of the
/// [`SourceText`] context (it alone takes [`crate::state::SourceWriter`]).
#[component]
pub fn TextSource() -> impl IntoView {
    let lang = expect_context::<Language>();
    let source = expect_context::<SourceText>();
    let writer = expect_context::<crate::state::SourceWriter>();
    let derived = expect_context::<Derived>();
    // A NodeRef, because a loaded file or "clear" must write the box directly: the box is not
    // bound to the `text` signal (rewriting a 1 MB textarea on every keystroke would be slow
    // and would move the caret).
    let textarea = NodeRef::<Textarea>::new();
    let (message, set_message) = signal(None::<FileMessage>);
    let (dragging, set_dragging) = signal(false);

    // Whether the text is too long for the box (see LARGE_TEXT_BYTES). A Memo: the box, the
    // notice and its read-only flag read it, and it changes far less often than the text.
    let large = Memo::new(move |_| source.text.with(|t| t.len() > LARGE_TEXT_BYTES));
    // Counts the edits (typing, pastes, file choices, clear), so that a long paste or a file
    // still being read knows when a newer edit has made it stale: the newer edit wins. A
    // StoredValue: only read in callbacks, never drawn.
    let edits = StoredValue::new(0u64);
    // The document being read, if any: dropping it terminates its worker. Local (a worker
    // handle is not Send); only callbacks touch it.
    let job = StoredValue::new_local(None::<ExtractJob>);
    // Starts a new edit: whatever was still being read is stale (a document's reader stops).
    // Returns the edit's number.
    let new_edit = move || {
        edits.update_value(|n| *n += 1);
        writer.set_reading(false);
        job.set_value(None); // terminates its worker, if any
                             // A document still being read (by its worker, or copied from it into the page) is
                             // stopped: say so.
        if let Some(FileMessage::Reading(name, _)) = message.get_untracked() {
            set_message.set(Some(FileMessage::Cancelled(name)));
        }
        edits.get_value()
    };
    // Stores a text made by an edit of `kind` (whether its count may be debounced), with its
    // pages when it is a PDF's.
    let set_document_text = move |s: String, kind: EditKind, pages: Option<PageMap>| {
        new_edit();
        if let Some(el) = textarea.get_untracked() {
            el.set_value(if s.len() > LARGE_TEXT_BYTES { "" } else { &s });
        }
        writer.set_text(Arc::from(s), kind, pages.map(Arc::new));
    };
    let set_text = move |s: String, kind: EditKind| set_document_text(s, kind, None);
    // A large paste goes to the state, not into the box (see LARGE_TEXT_BYTES).
    let on_paste = move |ev: web_sys::ClipboardEvent| {
        let Some(pasted) = ev
            .clipboard_data()
            .and_then(|d| browser::clipboard_text(&d))
        else {
            return;
        };
        let Some(el) = textarea.get_untracked() else {
            return;
        };
        let value = el.value();
        if pasted.length() <= PASTE_SLICE_UNITS {
            let pasted = String::from(pasted);
            if value.len() + pasted.len() <= LARGE_TEXT_BYTES {
                return; // the browser inserts it; on:input updates the state
            }
            ev.prevent_default();
            set_text(
                splice_selection(&value, selection(&el), pasted),
                EditKind::Whole,
            );
            return;
        }
        // Longer than one slice: read it over several tasks, then store it where the selection
        // was at the paste, unless the text was edited meanwhile (the newer edit wins).
        ev.prevent_default();
        let at = selection(&el);
        let this_edit = new_edit();
        writer.set_reading(true); // until set_text, or a newer edit, clears it
        leptos::task::spawn_local(async move {
            let current = || edits.get_value() == this_edit;
            if let Some(pasted) = browser::read_js_string(&pasted, PASTE_SLICE_UNITS, current).await
            {
                set_text(splice_selection(&value, at, pasted), EditKind::Whole);
            }
        });
    };
    let large_notice = move || {
        large.get().then(|| {
            let kb = source.text.with(|t| whole_kib(t.len()));
            let chars = derived.text_chars.get();
            let l = lang.get();
            let text = lang.tf(page_msg::LargeText {
                kb: &format::int(l, kb as u128),
                chars: &format::int(l, chars as u128),
            });
            view! { <p class="notice" role="status" data-testid="large-text-notice">{text}</p> }
        })
    };
    // A document's text, or a refusal, once the reader answered or could not start (unless a
    // newer edit came).
    // The text is copied from the worker's JS string in slices, one browser task each
    // (`browser::read_js_string`), so that a large document never blocks the page.
    let on_read = move |name: String, format: Format, this_edit: u64, finished: Finished| {
        job.set_value(None);
        if edits.get_value() != this_edit {
            return;
        }
        match finished {
            Finished::Read(Outcome::Read(found), text, millis) => {
                leptos::task::spawn_local(async move {
                    let current = || edits.get_value() == this_edit;
                    let Some(text) =
                        browser::read_js_string(&text, PASTE_SLICE_UNITS, current).await
                    else {
                        return; // a newer edit came meanwhile, and cleared `reading`
                    };
                    writer.set_reading(false);
                    if text.trim().is_empty() {
                        set_message.set(Some(FileMessage::NoText(name)));
                        return;
                    }
                    let found = Extracted { text, ..found };
                    let summary = ExtractSummary::of(format, &found, millis);
                    let pages = PageMap::new(found.page_starts);
                    set_document_text(found.text, EditKind::Whole, pages);
                    set_message.set(Some(FileMessage::Extracted(name, summary)));
                });
            }
            Finished::Read(Outcome::Refused(e), _, _) => {
                writer.set_reading(false);
                set_message.set(Some(FileMessage::Refused(name, e)));
            }
            Finished::Failed(detail) => {
                writer.set_reading(false);
                browser::warn(&detail);
                set_message.set(Some(FileMessage::ReaderFailed(name)));
            }
            Finished::NotLoaded(detail) => {
                writer.set_reading(false);
                browser::warn(&detail);
                set_message.set(Some(not_loaded(name)));
            }
            Finished::Unavailable(detail) => {
                writer.set_reading(false);
                browser::warn(&detail);
                // Offline, the module was never kept on this device: said as for the reader.
                set_message.set(Some(if browser::is_online() {
                    FileMessage::ReaderUnavailable(name)
                } else {
                    FileMessage::ReaderOffline(name)
                }));
            }
        }
    };
    let load = move |file: web_sys::File| {
        let name = file.name();
        // A file chosen is a new edit, even one refused: a document still being read stops.
        let this_edit = new_edit();
        if let Err(p) = precheck_file(&name, file.size()) {
            set_message.set(Some(FileMessage::Problem(name, p)));
            return;
        }
        leptos::task::spawn_local(async move {
            let bytes = read_file_bytes(file).await;
            // Deciding what it is and storing it in a task of its own, too.
            browser::yield_now().await;
            if edits.get_value() != this_edit {
                return; // the text was edited while the file was read: the newer edit wins
            }
            let bytes = match bytes {
                Ok(b) => b,
                Err(p) => return set_message.set(Some(FileMessage::Problem(name, p))),
            };
            let head = bytes.subarray(0, bytes.length().min(64)).to_vec();
            match FileKind::of(&name, &head) {
                FileKind::Document(format) => {
                    let answer = name.clone();
                    let done = move |f| on_read(answer, format, this_edit, f);
                    let reading = name.clone();
                    let progress = move |p: Progress| {
                        set_message.set(Some(FileMessage::Reading(reading.clone(), Some(p))));
                    };
                    // Said at once: the reader's start may wait for the panels' module.
                    writer.set_reading(true);
                    set_message.set(Some(FileMessage::Reading(name.clone(), None)));
                    let started = crate::extract_job::start_reading(
                        format,
                        bytes,
                        Box::new(progress),
                        Box::new(done),
                    )
                    .await;
                    // A newer edit meanwhile (which said so) drops the job: its worker stops.
                    match started {
                        Ok(started) if edits.get_value() == this_edit => {
                            job.set_value(Some(started));
                        }
                        // A failure to start: said unless a newer edit came meanwhile (which
                        // said so, and whose own job must not be touched).
                        Err(ended) if edits.get_value() == this_edit => {
                            on_read(name, format, this_edit, ended)
                        }
                        Ok(_) | Err(_) => {}
                    }
                }
                FileKind::Text => {
                    let result = decode_file(bytes.to_vec());
                    browser::yield_now().await;
                    if edits.get_value() != this_edit {
                        return;
                    }
                    match result {
                        Ok(s) => {
                            set_text(s, EditKind::Whole);
                            set_message.set(Some(FileMessage::Loaded(name)));
                        }
                        Err(p) => set_message.set(Some(FileMessage::Problem(name, p))),
                    }
                }
            }
        });
    };
    // Stops the reader: the box keeps what it had.
    let cancel = move |_| {
        // Drops the job (its worker is terminated), clears `reading` and says so.
        new_edit();
    };
    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            load(file);
        }
        // Allow opening the same file again later.
        input.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            load(file);
        }
    };
    let on_dragover = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };
    // A file dropped anywhere else on the page is opened as one dropped on the box: the browser
    // would otherwise open it in place of the page, and the text would be gone. (Before the
    // app starts, `assets/boot.js` holds such a drop.)
    #[cfg(target_arch = "wasm32")]
    {
        let files = |ev: &web_sys::DragEvent| {
            ev.data_transfer()
                .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        };
        let over = window_event_listener(leptos::ev::dragover, move |ev| {
            if !ev.default_prevented() && files(&ev) {
                ev.prevent_default();
            }
        });
        let dropped = window_event_listener(leptos::ev::drop, move |ev| {
            if !ev.default_prevented() && files(&ev) {
                on_drop(ev);
            }
        });
        on_cleanup(move || {
            over.remove();
            dropped.remove();
        });
    }

    let message_view = move || message.get().map(|m| file_message_view(lang, m, cancel));

    view! {
        <section class="panel text-source" aria-labelledby="text-heading">
            <h2 id="text-heading">{move || lang.t(Key::TextHeading)}</h2>
            <label for="text-input">{move || lang.t(Key::TextLabel)}</label>
            <textarea
                id="text-input"
                data-testid="text-input"
                class:dragging=dragging
                rows="10"
                spellcheck="false"
                placeholder=move || {
                    lang.t(if large.get() { Key::LargeTextPlaceholder } else { Key::TextPlaceholder })
                }
                node_ref=textarea
                data-large-text=LARGE_TEXT_BYTES.to_string()
                prop:readOnly=large
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    let kind = input_kind(&ev);
                    if value.len() > LARGE_TEXT_BYTES {
                        set_text(value, kind); // empties the box (see LARGE_TEXT_BYTES)
                    } else {
                        new_edit();
                        // Typed text is the user's own: a PDF's pages no longer apply.
                        writer.set_text(Arc::from(value), kind, None);
                    }
                }
                on:paste=on_paste
                on:dragover=on_dragover
                on:dragleave=move |_| set_dragging.set(false)
                on:drop=on_drop
            ></textarea>
            {large_notice}
            <div class="text-actions">
                <label class="button file-button">
                    {move || lang.t(Key::OpenFile)}
                    <input
                        type="file"
                        class="visually-hidden"
                        data-testid="file-input"
                        on:change=on_file
                    />
                </label>
                <span class="hint">{move || lang.t(Key::DropHint)}</span>
                <button
                    type="button"
                    class="button secondary"
                    data-testid="clear-text"
                    on:click=move |_| {
                        set_text(String::new(), EditKind::Whole);
                        set_message.set(None);
                    }
                >
                    {move || lang.t(Key::ClearText)}
                </button>
            </div>
            {message_view}
            <Status/>
            <SpecialTokens/>
            <TextNotes/>
        </section>
    }
}

/// The tokenizer status: `data-state` is "tokenizing" while counting (or waiting for the
/// tokenizer module, whose bytes received so far are in `data-loading` meanwhile), "ready" once
/// the figures describe the current text (or there is no text), and "failed" when the text
/// could not be counted (the module could not be loaded); `data-worker` is "true" while the
/// Web Worker does the counting; `data-debounced` is "true" when the newest count waited for
/// typing to pause and "false" when it started at once (a paste, a drop, a file, a short
/// text); `data-bytes` and `data-chars` give the current text's length.
#[component]
fn Status() -> impl IntoView {
    let lang = expect_context::<Language>();
    let source = expect_context::<SourceText>();
    let tokenization = expect_context::<Tokenization>();
    let derived = expect_context::<Derived>();
    let ready = move || derived.ready.get();
    let label = move || {
        let l = lang.get();
        if source.reading.get() {
            return lang.t(Key::StatusReading).into();
        }
        if !ready() {
            let progress = tokenization.progress.get();
            if progress == crate::state::Progress::Failed {
                return lang.t(Key::StatusTokenizerFailed).into();
            }
            if let Some(loading) = tokenization.loading.get() {
                let kb = format::int(l, whole_kib(loading.received) as u128);
                return match loading.total {
                    Some(total) => lang.tf(page_msg::StatusLoadingTokenizerOf {
                        kb: &kb,
                        total: &format::int(l, whole_kib(total) as u128),
                    }),
                    None => lang.tf(page_msg::StatusLoadingTokenizer { kb: &kb }),
                };
            }
            return lang.tf(page_msg::StatusTokenizing {
                percent: &format::percent_whole(l, progress.fraction()),
            });
        }
        if source.text.with(|t| t.is_empty()) {
            return lang.t(Key::StatusNoText).into();
        }
        tokenization.tokenized.with(|t| match t {
            Some(t) => lang.tf(page_msg::StatusReady {
                tokens: &format::int(l, t.tokens() as u128),
                chars: &format::int(l, u128::from(derived.text_chars.get())),
                bytes: &format::int(l, t.text.len() as u128),
                encoding: t.encoding.name(),
            }),
            None => String::new(),
        })
    };
    // The share done; while the tokenizer module arrives, the share of it received, or no
    // value at all (an indeterminate bar) when its size is unknown.
    let progress_value = move || match tokenization.loading.get() {
        Some(loading) => loading.fraction(),
        None => Some(tokenization.progress.get().fraction()),
    };
    let failed = move || tokenization.progress.get() == crate::state::Progress::Failed;
    view! {
        <div
            class="status"
            data-testid="status"
            data-state=move || if ready() { "ready" } else if failed() { "failed" } else { "tokenizing" }
            data-loading=move || tokenization.loading.get().map(|l| l.received.to_string())
            data-worker=move || tokenization.worker.get().to_string()
            data-debounced=move || tokenization.debounced.get().to_string()
            data-bytes=move || source.text.with(|t| t.len()).to_string()
            data-chars=move || derived.text_chars.get().to_string()
            role="status"
            aria-live="polite"
        >
            {move || (!ready() && !failed()).then(|| view! { <progress max="1" value=progress_value></progress> })}
            <span>{label}</span>
        </div>
    }
}

/// Notices about what the browser may have done to the text: Windows line breaks (the box
/// turns them into LF on any edit) and replacement characters (U+FFFD, which is also what
/// unpaired UTF-16 surrogates become when the browser hands text to UTF-8). Both are read from
/// the text itself, so they are never stale.
#[component]
fn TextNotes() -> impl IntoView {
    let lang = expect_context::<Language>();
    let source = expect_context::<SourceText>();
    // Memos: one scan of the text per change, however often the language re-renders them.
    // A char pattern (memchr) rather than "\r\n" (two-way search): it scans 10 MB in a few ms.
    let crlf = Memo::new(move |_| source.text.with(|t| t.contains('\r')));
    let replaced = Memo::new(move |_| source.text.with(|t| replacement_chars(t)));
    view! {
        {move || crlf.get().then(|| view! {
            <p class="notice" data-testid="notice-crlf">{move || lang.t(Key::NoteCrlf)}</p>
        })}
        {move || (replaced.get() > 0).then(|| {
            let n = format::int(lang.get(), replaced.get() as u128);
            view! {
                <p class="notice warn" data-testid="notice-replacement" data-count=replaced.get().to_string()>
                    {lang.tf(page_msg::NoteReplacement { n: &n })}
                </p>
            }
        })}
    }
}

/// Always says that special-token strings count as ordinary text; lists them when present.
#[component]
fn SpecialTokens() -> impl IntoView {
    let lang = expect_context::<Language>();
    let tokenization = expect_context::<Tokenization>();
    let found = move || {
        tokenization.tokenized.with(|t| {
            let t = t.as_ref()?;
            if t.specials.is_empty() {
                return None;
            }
            let l = lang.get();
            let list = special_token_counts(&t.specials)
                .iter()
                .map(|(n, c)| format!("{n} ×{}", format::int(l, *c as u128)))
                .collect::<Vec<_>>()
                .join(", ");
            Some(view! {
                <p
                    class="notice warn"
                    data-testid="notice-special-tokens"
                    data-count=t.specials.len().to_string()
                >
                    {lang.tf(page_msg::SpecialFound { list: &list })}
                </p>
            })
        })
    };
    view! {
        {found}
        <p class="field-note">{move || lang.t(Key::SpecialNote)}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_up_to_10_mb_of_utf8_text_are_accepted_whatever_their_name() {
        assert_eq!(precheck_file("a.txt", 10.0), Ok(()));
        assert_eq!(precheck_file("README", MAX_FILE_BYTES), Ok(()));
        assert_eq!(
            precheck_file("notes.md", MAX_FILE_BYTES + 1.0),
            Err(FileProblem::TooLarge)
        );
        assert_eq!(
            decode_file(b"Plain text \xc3\xa9".to_vec()),
            Ok("Plain text é".into())
        );
        assert_eq!(decode_file(Vec::new()), Ok(String::new()));
        // Invalid UTF-8 (Latin-1 "é"); then valid UTF-8 with NUL bytes, refused for them (a
        // PDF header, UTF-16 text, text with NULs): never called "not UTF-8".
        assert_eq!(decode_file(b"caf\xe9".to_vec()), Err(FileProblem::NotUtf8));
        assert_eq!(
            decode_file(b"%PDF-1.7\n\x00\x01".to_vec()),
            Err(FileProblem::NulBytes)
        );
        assert_eq!(
            decode_file(b"h\x00i\x00".to_vec()),
            Err(FileProblem::NulBytes)
        );
        assert_eq!(
            decode_file(b"abc\x00def\x00".repeat(100)),
            Err(FileProblem::NulBytes)
        );
        assert_eq!(FileProblem::NulBytes.reason(), "nul-bytes");
        // UTF-16 with its byte order mark, little- and big-endian, is named as UTF-16.
        assert_eq!(
            decode_file(b"\xff\xfeh\x00i\x00".to_vec()),
            Err(FileProblem::Utf16)
        );
        assert_eq!(
            decode_file(b"\xfe\xff\x00h\x00i".to_vec()),
            Err(FileProblem::Utf16)
        );
        assert_eq!(FileProblem::Utf16.reason(), "utf-16");
    }

    #[test]
    fn a_paste_replaces_the_selection_counted_in_utf16_units() {
        assert_eq!(splice_utf16("abcd", 1, 3, "XY"), "aXYd");
        assert_eq!(splice_utf16("abcd", 4, 4, "!"), "abcd!");
        // '🐈' is two UTF-16 units; a position inside it is moved before it.
        assert_eq!(splice_utf16("a🐈b", 3, 3, "-"), "a🐈-b");
        assert_eq!(splice_utf16("a🐈b", 2, 2, "-"), "a-🐈b");
        assert_eq!(splice_utf16("猫猫", 99, 1, "x"), "猫x");
        assert_eq!(splice_utf16("", 5, 9, "new"), "new");
    }

    #[test]
    fn invalid_utf8_is_refused_not_replaced() {
        assert_eq!(
            decode_file("Mèo 猫".as_bytes().to_vec()),
            Ok("Mèo 猫".into())
        );
        assert_eq!(
            decode_file(vec![b'a', 0xE7, 0x8C]),
            Err(FileProblem::NotUtf8)
        );
    }

    #[test]
    fn documents_are_told_from_text_by_name_and_first_bytes() {
        assert_eq!(
            FileKind::of("a.PDF", b"anything"),
            FileKind::Document(Format::Pdf)
        );
        assert_eq!(
            FileKind::of("scan", b"%PDF-1.7\n"),
            FileKind::Document(Format::Pdf)
        );
        assert_eq!(
            FileKind::of("Report.DOCX", b"PK\x03\x04rest"),
            FileKind::Document(Format::Docx)
        );
        // A .docx name without the zip signature goes to the reader, which says why it is
        // not a Word document (encrypted, say); a zip without the name is not taken for one.
        assert_eq!(
            FileKind::of("locked.docx", b"\xD0\xCF\x11\xE0"),
            FileKind::Document(Format::Docx)
        );
        assert_eq!(FileKind::of("notes.zip", b"PK\x03\x04"), FileKind::Text);
        assert_eq!(
            FileKind::of("saved", b"\xEF\xBB\xBF  <!DOCTYPE html><p>"),
            FileKind::Document(Format::Html)
        );
        assert_eq!(
            FileKind::of("page.htm", b"hello"),
            FileKind::Document(Format::Html)
        );
        assert_eq!(FileKind::of("notes.md", b"# Title"), FileKind::Text);
    }

    #[test]
    fn documents_may_be_larger_than_text_files() {
        assert_eq!(size_limit("book.docx"), MAX_DOCUMENT_BYTES);
        assert_eq!(size_limit("PAGE.HTML"), MAX_DOCUMENT_BYTES);
        assert_eq!(size_limit("scan.pdf"), MAX_DOCUMENT_BYTES);
        assert_eq!(size_limit("book.txt"), MAX_FILE_BYTES);
        assert_eq!(precheck_file("book.docx", MAX_FILE_BYTES * 2.0), Ok(()));
        assert_eq!(
            precheck_file("book.docx", MAX_DOCUMENT_BYTES + 1.0),
            Err(FileProblem::TooLarge)
        );
    }
}
