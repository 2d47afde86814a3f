//! The text a RAG pipeline gets out of a document people actually index — an HTML page or a
//! DOCX file — written as markdown-like text so that structure-aware chunkers see it: headings
//! as `#` lines, list items as `- ` lines, table rows as cells joined by ` | `, blocks separated
//! by a blank line. With it, [`Extracted`] says what was found (headings, list items, tables)
//! and what was left out (images, scripts and styles, hidden elements).
//!
//! The rules, stated once and checked against reference extractions (BeautifulSoup with
//! html5lib, python-docx) by `tests/reference.rs`:
//! - **HTML** ([`html`]): the document as browsers parse it (html5ever); out go `head`,
//!   `script`, `style`, `noscript`, `template`, `iframe`, `object`, `svg`, `canvas`, `select`
//!   and every element with the `hidden` attribute or an inline `display:none` /
//!   `visibility:hidden` style, with everything inside them; whitespace collapses outside `pre`.
//! - **DOCX** ([`docx`]): the body of `word/document.xml` in order; paragraphs, their text runs
//!   (`w:t`, a tab as a tab, `w:br`/`w:cr` as a line break), headings by their style's name
//!   ("heading N", "Title"), list items by numbering (`w:numPr`, on the paragraph or its style),
//!   tables row by row; deleted text and field codes are not text.
//!
//! No web dependency: the page runs it in a worker, loaded only when such a file is opened.

#![warn(missing_docs)]

pub mod docx;
pub mod html;
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
}

impl Format {
    /// The format a file is in, from its first bytes and then its name (case-insensitive
    /// extension): a zip (`PK\x03\x04`) named `.docx` is DOCX; a name ending `.html`, `.htm` or
    /// `.xhtml`, or a text starting (after whitespace and a byte order mark) with `<!doctype
    /// html` or `<html`, is HTML. `None` for anything else (plain text among it).
    pub fn detect(name: &str, first_bytes: &[u8]) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if first_bytes.starts_with(b"PK\x03\x04") && lower.ends_with(".docx") {
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
    /// List items found, written as `- ` lines.
    pub list_items: usize,
    /// Tables found, flattened to one line per row.
    pub tables: usize,
    /// Images left out (`<img>`, a DOCX drawing or picture): their pixels are not text.
    pub images: usize,
    /// Elements left out with everything inside them: HTML scripts, styles, hidden elements
    /// and the other non-content elements the crate's rules name.
    pub removed: usize,
}

/// Why a document could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExtractError {
    /// The bytes are not a zip archive, so not a DOCX.
    #[error("the file is not a DOCX (not a zip archive): {0}")]
    NotZip(String),
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
    TooLarge,
    /// A part is not well-formed XML or not UTF-8; the position is a byte offset in the part.
    #[error("word/document.xml is not well-formed at byte {offset}: {message}")]
    Xml {
        /// Byte offset in the part where reading stopped.
        offset: u64,
        /// The XML reader's message.
        message: String,
    },
}
