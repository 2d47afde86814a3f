//! The document reader worker's module (run by `assets/extract-worker.js`): [`doc_extract`]'s
//! readers behind wasm-bindgen exports — [`extract`] for HTML and DOCX, [`PdfFile`] and
//! [`pdf_document`] for a PDF read page by page (so that the worker reports progress, and
//! goes on after a page that traps). Built by Trunk as a worker of its own, fetched only when
//! the user opens a document, so the parsers are never in the first paint.

use doc_extract::pdf::{self, Page, PdfReader};
use doc_extract::{Format, Outcome};
use wasm_bindgen::prelude::*;

/// Reads `bytes` (the file's whole content) as `format` (`"html"`, `"docx"` or `"pdf"`, as
/// [`Format`] serializes; the worker reads a PDF with [`PdfFile`] instead, page by page) and answers the [`Outcome`] as a plain object:
/// `{outcome: "read", text, title, headings, list_items, tables, images, removed, boilerplate,
/// code_blocks, page_starts, pages_without_text, pages_unreadable, pages_repeated,
/// glyphs_without_text, notes, headers_footers, comments, parts_unreadable}` (the fields of
/// [`doc_extract::Extracted`]) or `{outcome: "refused", reason, …}`.
///
/// # Errors
/// A string naming the format when `format` is neither, or when the outcome cannot be turned
/// into a JS value (neither happens from the page, which sends a detected format).
#[wasm_bindgen]
pub fn extract(format: &str, bytes: &[u8]) -> Result<JsValue, JsValue> {
    let format = parse_format(format).map_err(|e| JsValue::from_str(&e))?;
    let outcome: Outcome = doc_extract::extract(format, bytes);
    serde_wasm_bindgen::to_value(&outcome).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The [`Format`] named `name` as it serializes (`"html"`, `"docx"`, `"pdf"`).
fn parse_format(name: &str) -> Result<Format, String> {
    match name {
        "html" => Ok(Format::Html),
        "docx" => Ok(Format::Docx),
        "pdf" => Ok(Format::Pdf),
        other => Err(format!(
            "unknown document format {other:?} (expected \"html\", \"docx\" or \"pdf\")"
        )),
    }
}

/// `value` as a plain JS object.
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A PDF opened in the worker, read one page at a time ([`PdfReader`]).
#[wasm_bindgen]
pub struct PdfFile {
    reader: PdfReader,
}

#[wasm_bindgen]
impl PdfFile {
    /// Parses `bytes` (the whole file) as a PDF.
    ///
    /// # Errors
    /// The refusal as the page reads it: `{outcome: "refused", reason, …}`
    /// ([`PdfReader::open`]'s reasons: `not-pdf`, `password`, `no-pages`).
    pub fn open(bytes: &[u8]) -> Result<PdfFile, JsValue> {
        PdfReader::open(bytes)
            .map(|reader| PdfFile { reader })
            .map_err(|e| to_js(&Outcome::Refused(e)).unwrap_or_else(|e| e))
    }

    /// Number of pages.
    #[wasm_bindgen(getter)]
    pub fn pages(&self) -> usize {
        self.reader.page_count()
    }

    /// Page-tree entries left out as repeats of a page already listed (a tree with a cycle).
    #[wasm_bindgen(getter)]
    pub fn pages_repeated(&self) -> usize {
        self.reader.pages_repeated()
    }

    /// The document's title, if its information names one.
    pub fn title(&self) -> Option<String> {
        self.reader.title()
    }

    /// Page `index` (0-based) as `{text, images, readable}` ([`Page`]). A panic of the PDF
    /// parser traps here (a `WebAssembly.RuntimeError`); the worker then reads on in a fresh
    /// instance.
    ///
    /// # Errors
    /// Only when the page cannot be turned into a JS value.
    pub fn read_page(&self, index: usize) -> Result<JsValue, JsValue> {
        to_js(&self.reader.read_page(index))
    }
}

/// Fresh instances a PDF's reading may take after a page traps, at most: each instance keeps
/// its memory (a copy of the file and its parsed objects) for as long as the worker lives.
pub const MAX_TRAPS: usize = 50;

/// Memory the instances of one PDF's reading may hold together, in bytes (512 MiB): an
/// instance holds about four times the file.
pub const TRAP_MEMORY: u64 = 512 * 1024 * 1024;

/// How many pages that trap a PDF of `file_len` bytes may take before the pages not yet read
/// are counted unreadable (the pages read are kept): `TRAP_MEMORY / (4 × file_len + 1)`,
/// rounded down, at least 1 and at most [`MAX_TRAPS`]. Each trap costs a fresh instance
/// (`assets/extract-worker.js` starts it: a trapped instance is dead).
#[wasm_bindgen]
pub fn trap_budget(file_len: usize) -> usize {
    let per_instance = (file_len as u64).saturating_mul(4).saturating_add(1);
    let fits = TRAP_MEMORY / per_instance;
    usize::try_from(fits)
        .unwrap_or(MAX_TRAPS)
        .clamp(1, MAX_TRAPS)
}

/// Whether the reader goes on after its `traps`-th trap on a file of `file_bytes` bytes, in a
/// fresh instance from the next page: while `traps` is within [`trap_budget`]. Past it, every
/// page not yet read is counted unreadable (the pages read are kept).
#[wasm_bindgen]
pub fn reads_on_after(traps: usize, file_bytes: usize) -> bool {
    traps <= trap_budget(file_bytes)
}

/// A page whose content could not be read (it trapped, or the budget ran out before it):
/// `{text: "", images: 0, readable: false}`, as [`PdfFile::read_page`] writes pages.
///
/// # Errors
/// A string if the page cannot be written as a JS value.
#[wasm_bindgen]
pub fn unreadable_page() -> Result<JsValue, JsValue> {
    to_js(&unreadable())
}

/// See [`unreadable_page`].
fn unreadable() -> Page {
    Page {
        text: String::new(),
        images: 0,
        readable: false,
        glyphs_without_text: 0,
    }
}

/// The document made of `pages` (an array of `{text, images, readable}`, in page order, as
/// [`PdfFile::read_page`] gave them), `title` and the page-tree repeats left out
/// ([`PdfFile::pages_repeated`]), as the [`Outcome`] `extract` answers ([`pdf::assemble`]:
/// refused as `no-text-layer` when no page has text).
///
/// # Errors
/// A string when `pages` is not such an array.
#[wasm_bindgen]
pub fn pdf_document(
    pages: JsValue,
    title: Option<String>,
    pages_repeated: usize,
) -> Result<JsValue, JsValue> {
    let pages: Vec<Page> = serde_wasm_bindgen::from_value(pages)
        .map_err(|e| JsValue::from_str(&format!("pdf_document: {e}")))?;
    let outcome = match pdf::assemble(&pages, title, pages_repeated) {
        Ok(found) => Outcome::Read(found),
        Err(e) => Outcome::Refused(e),
    };
    to_js(&outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_named_as_they_serialize() {
        for format in [Format::Html, Format::Docx, Format::Pdf] {
            let name = serde_json::to_value(format).unwrap();
            assert_eq!(parse_format(name.as_str().unwrap()), Ok(format));
        }
        assert!(parse_format("doc").unwrap_err().contains("\"doc\""));
    }

    #[test]
    fn reading_goes_on_after_a_trap_while_within_the_budget() {
        assert!(reads_on_after(1, 1_000));
        assert!(reads_on_after(50, 1_000));
        assert!(!reads_on_after(51, 1_000));
        assert!(reads_on_after(13, 10_000_000));
        assert!(!reads_on_after(14, 10_000_000));
        assert!(reads_on_after(1, usize::MAX));
        assert!(!reads_on_after(2, usize::MAX));
        let page = unreadable();
        assert_eq!(
            (page.text.as_str(), page.images, page.readable),
            ("", 0, false)
        );
    }

    #[test]
    fn the_trap_budget_shrinks_with_the_file_between_one_and_fifty() {
        assert_eq!(trap_budget(0), 50);
        assert_eq!(trap_budget(1_000_000), 50);
        // 512 MiB / (4 × 4 MiB + 1) = 31.99…
        assert_eq!(trap_budget(4 * 1024 * 1024), 31);
        // 536_870_912 / 40_000_001 = 13.4…
        assert_eq!(trap_budget(10_000_000), 13);
        assert_eq!(trap_budget(128 * 1024 * 1024), 1);
        assert_eq!(trap_budget(usize::MAX), 1);
    }
}
