//! Any file a user points at, read as the page reads it: HTML, DOCX and PDF through their
//! readers ([`crate::extract`]), anything else (plain text, markdown, source code) as UTF-8
//! text ([`decode_text`]). The page's file box and the corpus tools (`crates/cli`,
//! `crates/python`) share these rules, so a file gives the same text everywhere.

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[cfg(feature = "readers")]
use crate::ExtractError;
#[cfg(any(feature = "readers", test))]
use crate::Format;

/// File extensions (lower case, without the dot) that name a document the corpus tools read
/// from a folder: plain text and markup read as text ([`decode_text`]) and the formats
/// [`crate::Format::detect`] names by extension (HTML, DOCX and its macro and template forms,
/// PDF).
/// A folder's other files (images, style sheets, data) are not documents; a file named
/// explicitly is read whatever its name.
pub const DOCUMENT_EXTENSIONS: [&str; 13] = [
    "txt", "text", "md", "markdown", "mdx", "rst", "html", "htm", "xhtml", "docx", "docm", "dotx",
    "pdf",
];

/// True when `name` ends with one of [`DOCUMENT_EXTENSIONS`], in any case (`NOTES.MD`).
pub fn is_document_name(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, ext)| {
        DOCUMENT_EXTENSIONS
            .iter()
            .any(|e| e.eq_ignore_ascii_case(ext))
    })
}

/// Why a file's bytes are not a text ([`decode_text`]).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum TextProblem {
    /// The bytes start with a UTF-16 byte order mark.
    #[error("UTF-16 text (save it as UTF-8)")]
    Utf16,
    /// The bytes are not valid UTF-8 from byte `offset` on.
    #[error("not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Bytes of valid UTF-8 before the first invalid one.
        offset: u64,
    },
    /// Valid UTF-8 with a NUL byte at `offset`: no text document holds one, binary files do.
    #[error("a binary file (NUL byte at offset {offset})")]
    NulBytes {
        /// Byte offset of the first NUL.
        offset: u64,
    },
}

/// Decodes a file's bytes as UTF-8 text, refusing invalid bytes rather than replacing them
/// (no invented U+FFFD characters), a NUL byte (binary files, UTF-16 without a byte order
/// mark) and UTF-16 that starts with its byte order mark. A UTF-8 byte order mark is kept, as
/// the page keeps it (it is a character of the text, and tokenizers count it).
///
/// # Errors
/// [`TextProblem`] says which rule refused the bytes.
pub fn decode_text(bytes: Vec<u8>) -> Result<String, TextProblem> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(TextProblem::Utf16);
    }
    let text = String::from_utf8(bytes).map_err(|e| TextProblem::NotUtf8 {
        offset: e.utf8_error().valid_up_to() as u64,
    })?;
    if let Some(at) = memchr_nul(text.as_bytes()) {
        return Err(TextProblem::NulBytes { offset: at as u64 });
    }
    Ok(text)
}

/// The offset of the first NUL byte.
fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == 0)
}

/// A file read as a document ([`read_file`]).
#[cfg(feature = "readers")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileText {
    /// The text the strategies cut.
    pub text: String,
    /// The format it was read as; `None` for plain text.
    pub format: Option<Format>,
    /// For a PDF, the byte offset in `text` where each page starts
    /// ([`crate::Extracted::page_starts`]); empty otherwise.
    pub page_starts: Vec<usize>,
}

#[cfg(feature = "readers")]
impl FileText {
    /// The format's name as the corpus tools report it: `text`, `html`, `docx` or `pdf`.
    pub fn format_name(&self) -> &'static str {
        match self.format {
            None => "text",
            Some(Format::Html) => "html",
            Some(Format::Docx) => "docx",
            Some(Format::Pdf) => "pdf",
        }
    }
}

/// Why a file could not be read ([`read_file`]).
#[cfg(feature = "readers")]
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FileError {
    /// A plain-text file that is not UTF-8 text.
    #[error("{0}")]
    Text(TextProblem),
    /// An HTML, DOCX or PDF file its reader refused.
    #[error("{}: {error}", format.label())]
    Document {
        /// The format detected.
        format: Format,
        /// The reader's reason.
        error: ExtractError,
    },
}

#[cfg(feature = "readers")]
impl FileError {
    /// A stable name for the reason (`not-utf8`, `encrypted`, `no-text-layer`…), for reports
    /// and automation: [`ExtractError::reason`] for a document, else the text rule's.
    pub fn reason(&self) -> &'static str {
        match self {
            FileError::Text(TextProblem::Utf16) => "utf16",
            FileError::Text(TextProblem::NotUtf8 { .. }) => "not-utf8",
            FileError::Text(TextProblem::NulBytes { .. }) => "binary",
            FileError::Document { error, .. } => error.reason(),
        }
    }
}

/// Reads the file named `name` (its extension, then its first bytes, decide the format:
/// [`Format::detect`]) from `bytes`.
///
/// # Errors
/// [`FileError`]: the reader's or the text rule's refusal.
#[cfg(feature = "readers")]
pub fn read_file(name: &str, bytes: Vec<u8>) -> Result<FileText, FileError> {
    let head = &bytes[..bytes.len().min(1024)];
    match Format::detect(name, head) {
        None => decode_text(bytes)
            .map(|text| FileText {
                text,
                format: None,
                page_starts: Vec::new(),
            })
            .map_err(FileError::Text),
        Some(format) => match crate::extract(format, &bytes) {
            crate::Outcome::Read(found) => Ok(FileText {
                text: found.text,
                format: Some(format),
                page_starts: found.page_starts,
            }),
            crate::Outcome::Refused(error) => Err(FileError::Document { format, error }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_refused_by_rule_with_where() {
        assert_eq!(decode_text(b"caf\xc3\xa9".to_vec()).unwrap(), "café");
        assert_eq!(
            decode_text(b"caf\xe9!".to_vec()),
            Err(TextProblem::NotUtf8 { offset: 3 })
        );
        assert_eq!(
            decode_text(b"ab\0c".to_vec()),
            Err(TextProblem::NulBytes { offset: 2 })
        );
        assert_eq!(
            decode_text(b"\xFF\xFEa\0".to_vec()),
            Err(TextProblem::Utf16)
        );
        assert_eq!(decode_text(b"\xEF\xBB\xBFx".to_vec()).unwrap(), "\u{feff}x");
    }

    #[test]
    fn document_names_are_matched_in_any_case() {
        for yes in ["a.txt", "NOTES.MD", "x.y.Html", "r.docm", "p.PDF", ".md"] {
            assert!(is_document_name(yes), "{yes}");
        }
        for no in ["a.png", "md", "a.md.bak", "a.", "style.css", "data.json"] {
            assert!(!is_document_name(no), "{no}");
        }
        // Every extension Format::detect reads by name is a document extension.
        for (name, format) in [
            ("a.htm", Format::Html),
            ("a.dotx", Format::Docx),
            ("a.pdf", Format::Pdf),
        ] {
            assert!(is_document_name(name));
            assert_eq!(Format::detect(name, b"PK\x03\x04"), Some(format));
        }
    }

    #[cfg(feature = "readers")]
    #[test]
    fn files_are_read_by_their_format() {
        let html = read_file("a.html", b"<p>Hi <code>x</code></p>".to_vec()).unwrap();
        assert_eq!(
            (html.text.as_str(), html.format),
            ("Hi `x`", Some(Format::Html))
        );
        let md = read_file("a.md", b"# T\n\nbody".to_vec()).unwrap();
        assert_eq!((md.text.as_str(), md.format), ("# T\n\nbody", None));
        assert_eq!((html.format_name(), md.format_name()), ("html", "text"));
        let bad = read_file("a.pdf", b"not a pdf".to_vec()).unwrap_err();
        assert!(matches!(
            bad,
            FileError::Document {
                format: Format::Pdf,
                ..
            }
        ));
        assert_eq!(
            read_file("a.txt", vec![0xC3]).unwrap_err().reason(),
            "not-utf8"
        );
    }
}
