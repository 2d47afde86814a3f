//! The text a RAG pipeline gets out of a document people actually index — an HTML page, a
//! DOCX file or a PDF — written as markdown-like text so that structure-aware chunkers see it: headings
//! as `#` lines, list items as `- ` lines, table rows as cells joined by ` | `, blocks separated
//! by a blank line. With it, [`Extracted`] says what was found (headings, list items, tables)
//! and what was left out (images, scripts and styles, hidden elements, page boilerplate; a
//! DOCX's headers, footers and comments).
//!
//! The rules, stated once and checked against reference extractions (BeautifulSoup with
//! html5lib, python-docx) by `tests/reference.rs`:
//! - **HTML** ([`html`]): the document as browsers parse it (html5ever); out go `head`,
//!   `script`, `style`, `noscript`, `template`, `iframe`, `object`, `svg`, `canvas`, `select`
//!   wherever they are (each counted), hidden elements (the `hidden` attribute,
//!   `aria-hidden="true"`, an inline `display:none` / `visibility:hidden` style, or a simple
//!   selector such as `nav.menu` or `.sidebar a` that the page's own style sheets hide outside
//!   at-rules) and page boilerplate (`nav`, and a `header`, `footer` or `aside` that is not an
//!   article's or a section's), with everything inside them; whitespace collapses outside
//!   `pre`; every `pre` is a fenced code block (` ``` `, with the language its classes or
//!   `data-lang` name) and an inline `code` a code span between backticks, so markdown-aware
//!   strategies see code as code.
//! - **DOCX** ([`docx`]): the body of `word/document.xml` in order, as Word shows it;
//!   paragraphs, their text runs (`w:t`, a tab as a tab, `w:br`/`w:cr` as a line break),
//!   headings by their style's name ("heading N", "Title"), list items by numbering (`w:numPr`,
//!   on the paragraph or its style, with `word/numbering.xml`: `N. ` or `- `, 2 spaces a level,
//!   Word's counters), code paragraphs (a code style or monospace runs) as one fenced block with
//!   their indentation, tables row by row, footnotes and endnotes after the body as `[^N]: `
//!   lines; headers, footers and comments are left out and counted; deleted text and field
//!   codes are not text.
//! - **PDF** ([`pdf`]): the text layer of each page (pypdf is the reference), with the byte
//!   offset where each page starts ([`Extracted::page_starts`]), so that chunks can name their
//!   pages; a PDF has no reliable structure to mark, so it has no `#` or `- ` lines.
//!
//! No web dependency: the page runs it in a worker (`crates/extract-engine`), loaded only when
//! such a file is opened. The readers are behind the default feature `readers`; without it the
//! crate is only its data types ([`Format`], [`Extracted`], [`ExtractError`], [`Outcome`]), which
//! the page uses to detect a format and to read the worker's answer without carrying the parsers
//! in its own wasm.

#![warn(missing_docs)]

#[cfg(feature = "readers")]
pub mod docx;
pub mod file;

pub use file::{decode_text, is_document_name, TextProblem, DOCUMENT_EXTENSIONS};
#[cfg(feature = "readers")]
pub use file::{read_file, FileError, FileText};
#[cfg(feature = "readers")]
pub mod html;
#[cfg(feature = "readers")]
pub mod pdf;
#[cfg(feature = "readers")]
mod writer;

use serde::{Deserialize, Serialize};

/// Largest document part read, in bytes, decompressed (200 MiB): a DOCX whose `document.xml`
/// inflates beyond it is refused as [`ExtractError::TooLarge`] (a zip bomb never fills memory).
pub const MAX_PART_BYTES: u64 = 200 * 1024 * 1024;

/// A document format this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// An HTML page.
    Html,
    /// A Word document (Office Open XML, `.docx`).
    Docx,
    /// A PDF (its text layer, page by page).
    Pdf,
}

impl Format {
    /// The format's usual name: `HTML`, `DOCX`, `PDF`.
    pub const fn label(self) -> &'static str {
        match self {
            Format::Html => "HTML",
            Format::Docx => "DOCX",
            Format::Pdf => "PDF",
        }
    }

    /// The format a file is in, from its name (case-insensitive extension) and then its first
    /// bytes: a name ending `.pdf`, or content starting with `%PDF-`, is PDF; a name ending
    /// `.docx` is DOCX, whatever it holds (the reader then says why an
    /// encrypted file or a non-zip is not one), and so is a zip (`PK\x03\x04`) named `.docm`
    /// or `.dotx`; a name ending `.html`, `.htm` or `.xhtml`, or a text starting (after
    /// whitespace and a byte order mark) with `<!doctype html` or `<html`, is HTML. `None` for
    /// anything else (plain text among it).
    pub fn detect(name: &str, first_bytes: &[u8]) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".pdf") || first_bytes.starts_with(b"%PDF-") {
            return Some(Format::Pdf);
        }
        let zip = first_bytes.starts_with(b"PK\x03\x04");
        if lower.ends_with(".docx")
            || (zip && (lower.ends_with(".docm") || lower.ends_with(".dotx")))
        {
            return Some(Format::Docx);
        }
        if [".html", ".htm", ".xhtml"]
            .iter()
            .any(|e| lower.ends_with(e))
        {
            return Some(Format::Html);
        }
        let head = first_bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(first_bytes);
        let start = head
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(head.len());
        let head = &head[start..head.len().min(start + 15)];
        let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
        (lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html"))
            .then_some(Format::Html)
    }
}

/// What was extracted from one document.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extracted {
    /// The text, markdown-like (see the crate's documentation), with no trailing whitespace.
    pub text: String,
    /// The document's title, if it names one (HTML `<title>`), not part of `text`.
    pub title: Option<String>,
    /// Headings found, written as `#` lines.
    pub headings: usize,
    /// List items found, written as `- ` lines (a numbered DOCX item as `N. `, indented 2 spaces
    /// a level).
    pub list_items: usize,
    /// Tables found, flattened to one line per row.
    pub tables: usize,
    /// Images left out (`<img>`, a DOCX drawing or picture): their pixels are not text.
    pub images: usize,
    /// Elements left out with everything inside them: HTML scripts, styles, hidden elements
    /// and the other non-content elements the crate's rules name ([`html`]'s documentation
    /// says which are counted).
    pub removed: usize,
    /// HTML page boilerplate left out with everything inside it: navigation, and the page's
    /// own header, footer and sidebar (not an article's; [`html`]'s documentation states the
    /// rule). 0 for DOCX and PDF.
    #[serde(default)]
    pub boilerplate: usize,
    /// Code blocks found (an HTML `pre`; a DOCX's run of code paragraphs), written as fenced
    /// blocks. 0 for PDF.
    #[serde(default)]
    pub code_blocks: usize,
    /// A PDF's pages: for page `i` (0-based), the byte offset in `text` where its text starts,
    /// non-decreasing, one per page (a page without text starts where the next text starts).
    /// The page of a byte is the last page starting at or before it. Empty for HTML and DOCX.
    #[serde(default)]
    pub page_starts: Vec<usize>,
    /// A PDF's pages that were read and have no text (scanned pages: their pixels are not
    /// read).
    #[serde(default)]
    pub pages_without_text: usize,
    /// A PDF's pages whose content could not be read (damaged): they add no text either, and
    /// are not counted in `pages_without_text`.
    #[serde(default)]
    pub pages_unreadable: usize,
    /// A PDF's page-tree entries that named a page already listed (a tree whose `/Kids` loop
    /// back to an ancestor): each page is read once, and these repeats are left out.
    #[serde(default)]
    pub pages_repeated: usize,
    /// A PDF's glyphs that have no text (their font maps them to no character, as some symbol
    /// and private-use glyphs): shown on the page, but nothing in `text`.
    #[serde(default)]
    pub glyphs_without_text: usize,
    /// A DOCX's footnotes and endnotes written after its body as `[^N]: ` lines (each marked
    /// `[^N]` where the body refers to it). 0 for HTML and PDF.
    #[serde(default)]
    pub notes: usize,
    /// A DOCX's headers and footers that hold text, left out (they repeat on every page): the
    /// distinct header and footer parts its sections use. 0 for HTML and PDF.
    #[serde(default)]
    pub headers_footers: usize,
    /// A DOCX's comments (`w:comment` of `word/comments.xml`), left out: reviewers' notes, not
    /// the document's text. 0 for HTML and PDF.
    #[serde(default)]
    pub comments: usize,
    /// A DOCX's parts that only add to its body (relationships, numbering, footnotes, endnotes)
    /// and could not be read (too large, not inflating, not well-formed): the body is read
    /// without them (conventional part names, bullets for numbers, no notes). 0 for HTML and
    /// PDF.
    #[serde(default)]
    pub parts_unreadable: usize,
}

impl Extracted {
    /// Number of pages (a PDF's; 0 for HTML and DOCX).
    pub fn pages(&self) -> usize {
        self.page_starts.len()
    }
}

/// Why a document could not be read. Serialized with its [`reason`](ExtractError::reason) as
/// the `reason` field (the page's `data-reason`), e.g. `{"reason": "not-zip", "detail": "…"}`.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum ExtractError {
    /// The bytes are not a zip archive, so not a DOCX.
    #[error("the file is not a DOCX (not a zip archive): {detail}")]
    NotZip {
        /// The zip reader's message.
        detail: String,
    },
    /// A part of the archive could not be inflated (a damaged or truncated file).
    #[error("{part} could not be decompressed: {detail}")]
    Damaged {
        /// The part's name in the archive.
        part: String,
        /// The decompressor's message.
        detail: String,
    },
    /// An HTML file that is not UTF-8 (another charset, or binary bytes): read as UTF-8 it
    /// would hold invented replacement characters, so it is refused.
    #[error("the HTML file is not UTF-8 (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first byte that is not UTF-8.
        offset: u64,
    },
    /// An OLE compound file: a password-protected (encrypted) DOCX, or an old binary `.doc`.
    #[error(
        "the file is encrypted (password-protected) or an old binary .doc, which cannot be read"
    )]
    Encrypted,
    /// The archive has no `word/document.xml`.
    #[error("the archive has no word/document.xml, so it is not a Word document")]
    NoDocument,
    /// A part inflates beyond [`MAX_PART_BYTES`].
    #[error("word/document.xml inflates beyond {} MiB", MAX_PART_BYTES / 1024 / 1024)]
    #[serde(rename = "inflates-too-much")]
    TooLarge,
    /// Not a PDF that can be parsed: another kind of file, or one truncated or damaged beyond
    /// repair.
    #[error("the file is not a readable PDF: {detail}")]
    NotPdf {
        /// The PDF parser's message.
        detail: String,
    },
    /// A PDF that opens only with a password (a user password).
    #[error("the PDF needs a password to open")]
    #[serde(rename = "password")]
    PasswordRequired,
    /// A PDF without pages.
    #[error("the PDF has no pages")]
    NoPages,
    /// A PDF none of whose pages has text: a scan (its pixels would need OCR, which this reader
    /// does not do).
    #[error("none of the PDF's {pages} pages has a text layer (a scan needs OCR)")]
    NoTextLayer {
        /// The document's pages.
        pages: usize,
    },
    /// A PDF none of whose pages could be read (their content is damaged).
    #[error("none of the PDF's {pages} pages could be read (damaged content)")]
    PagesUnreadable {
        /// The document's pages.
        pages: usize,
    },
    /// A part is not well-formed XML or not UTF-8; the position is a byte offset in the part.
    #[error("word/document.xml is not well-formed at byte {offset}: {message}")]
    Xml {
        /// Byte offset in the part where reading stopped.
        offset: u64,
        /// The XML reader's message.
        message: String,
    },
}

impl ExtractError {
    /// A stable name for the reason, for tests and automation (the page's `data-reason`):
    /// `not-zip`, `damaged`, `not-utf8`, `encrypted`, `no-document`, `inflates-too-much`, `xml`,
    /// `not-pdf`, `password`, `no-pages`, `no-text-layer`, `pages-unreadable`.
    pub fn reason(&self) -> &'static str {
        match self {
            ExtractError::NotZip { .. } => "not-zip",
            ExtractError::Damaged { .. } => "damaged",
            ExtractError::NotUtf8 { .. } => "not-utf8",
            ExtractError::Encrypted => "encrypted",
            ExtractError::NoDocument => "no-document",
            ExtractError::TooLarge => "inflates-too-much",
            ExtractError::Xml { .. } => "xml",
            ExtractError::NotPdf { .. } => "not-pdf",
            ExtractError::PasswordRequired => "password",
            ExtractError::NoPages => "no-pages",
            ExtractError::NoTextLayer { .. } => "no-text-layer",
            ExtractError::PagesUnreadable { .. } => "pages-unreadable",
        }
    }
}

/// A reader's answer for one file: what the worker sends the page, as JSON-like data tagged by
/// `outcome` (`{"outcome": "read", …Extracted}` or `{"outcome": "refused", "reason": …}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum Outcome {
    /// The document was read.
    Read(Extracted),
    /// The document was refused, with why.
    Refused(ExtractError),
}

/// Reads `bytes` as a document in `format`: HTML must be UTF-8 (a byte order mark is
/// dropped); DOCX as [`docx::extract`]; PDF as [`pdf::extract`]. The HTML and DOCX readers
/// never panic on any input; the PDF parser (pdf-extract) panics on some damaged pages, which
/// [`pdf::PdfReader::read_page`] catches where panics unwind (the page's worker reads a PDF
/// page by page instead, and recovers from the trap).
#[cfg(feature = "readers")]
pub fn extract(format: Format, bytes: &[u8]) -> Outcome {
    let result = match format {
        Format::Html => {
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            std::str::from_utf8(bytes)
                .map(html::extract)
                .map_err(|e| ExtractError::NotUtf8 {
                    offset: e.valid_up_to() as u64,
                })
        }
        Format::Docx => docx::extract(bytes),
        Format::Pdf => pdf::extract(bytes),
    };
    match result {
        Ok(found) => Outcome::Read(found),
        Err(e) => Outcome::Refused(e),
    }
}

#[cfg(test)]
mod format_tests {
    use super::*;

    #[test]
    fn formats_are_detected_by_name_then_first_bytes() {
        assert_eq!(
            Format::detect("A.DOCX", b"\xD0\xCF\x11\xE0"),
            Some(Format::Docx)
        );
        assert_eq!(Format::detect("a.docm", b"PK\x03\x04"), Some(Format::Docx));
        assert_eq!(Format::detect("a.docm", b"text"), None);
        assert_eq!(Format::detect("a.zip", b"PK\x03\x04"), None);
        assert_eq!(Format::detect("x.xhtml", b""), Some(Format::Html));
        assert_eq!(
            Format::detect("saved", b"\xEF\xBB\xBF\n <HTML lang=en>"),
            Some(Format::Html)
        );
        assert_eq!(Format::detect("notes.md", b"<h1>not a page</h1>"), None);
        assert_eq!(Format::detect("A.PDF", b""), Some(Format::Pdf));
        assert_eq!(Format::detect("scan", b"%PDF-1.7\n"), Some(Format::Pdf));
    }
}

#[cfg(all(test, feature = "readers"))]
mod tests {
    use super::*;

    #[test]
    fn html_must_be_utf8_and_loses_its_byte_order_mark() {
        let Outcome::Read(page) = extract(Format::Html, b"\xEF\xBB\xBF<h1>Moonstone</h1>") else {
            panic!("a UTF-8 page is read");
        };
        assert_eq!(page.text, "# Moonstone");
        assert_eq!(
            extract(Format::Html, b"<p>caf\xe9</p>"),
            Outcome::Refused(ExtractError::NotUtf8 { offset: 6 })
        );
    }

    #[test]
    fn a_refusal_serializes_with_its_reason() {
        for (e, reason) in [
            (ExtractError::NotZip { detail: "x".into() }, "not-zip"),
            (ExtractError::TooLarge, "inflates-too-much"),
            (ExtractError::Encrypted, "encrypted"),
            (ExtractError::NotUtf8 { offset: 3 }, "not-utf8"),
            (
                ExtractError::Damaged {
                    part: "word/document.xml".into(),
                    detail: "x".into(),
                },
                "damaged",
            ),
            (ExtractError::NoDocument, "no-document"),
            (ExtractError::NotPdf { detail: "x".into() }, "not-pdf"),
            (ExtractError::PasswordRequired, "password"),
            (ExtractError::NoPages, "no-pages"),
            (ExtractError::NoTextLayer { pages: 2 }, "no-text-layer"),
            (
                ExtractError::PagesUnreadable { pages: 2 },
                "pages-unreadable",
            ),
            (
                ExtractError::Xml {
                    offset: 1,
                    message: "x".into(),
                },
                "xml",
            ),
        ] {
            assert_eq!(e.reason(), reason);
            let json = serde_json::to_value(Outcome::Refused(e.clone())).unwrap();
            assert_eq!(json["outcome"], "refused");
            assert_eq!(json["reason"], reason);
            assert_eq!(
                serde_json::from_value::<Outcome>(json).unwrap(),
                Outcome::Refused(e)
            );
        }
    }
}
