//! Where the answer to a question is in the document: a byte span, found from the answer's
//! text ([`locate_answer`]) or given and checked ([`check_span`]).
//!
//! Offsets here are **UTF-8 byte offsets** into the document, `[start, end)`, always on char
//! boundaries once checked. (The span metrics count characters, [`super::span`].)

use std::ops::Range;
use thiserror::Error;

/// Why an answer could not be placed in the document.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// The answer text is empty.
    #[error("the answer is empty")]
    EmptyAnswer,
    /// The answer text does not occur in the document (matching is exact: case, whitespace
    /// and every character as written).
    #[error("the answer does not occur in the document")]
    NotFound,
    /// The answer text occurs more than once, so its place is not known; mark it by its span
    /// instead. Occurrences are counted overlapping ones included (`"aa"` occurs twice in
    /// `"aaa"`).
    #[error("the answer occurs {count} times (first at bytes {first} and {second})")]
    Ambiguous {
        /// How many times it occurs (≥ 2).
        count: usize,
        /// Byte offset of the first occurrence.
        first: usize,
        /// Byte offset of the second occurrence.
        second: usize,
    },
    /// A given span is empty (`start == end`).
    #[error("the answer span {start}..{end} is empty")]
    EmptySpan {
        /// Its start (byte offset).
        start: usize,
        /// Its end (byte offset).
        end: usize,
    },
    /// A given span ends before it starts.
    #[error("the answer span {start}..{end} ends before it starts")]
    Reversed {
        /// Its start (byte offset).
        start: usize,
        /// Its end (byte offset).
        end: usize,
    },
    /// A given span reaches past the end of the document.
    #[error("the answer span {start}..{end} is outside the document ({len} bytes)")]
    OutOfRange {
        /// Its start (byte offset).
        start: usize,
        /// Its end (byte offset).
        end: usize,
        /// The document's length in bytes.
        len: usize,
    },
    /// An end of a given span falls inside a character's UTF-8 encoding.
    #[error("byte {offset} of the answer span is inside a character")]
    NotCharBoundary {
        /// The offending offset (the start when both are off).
        offset: usize,
    },
}

/// The byte span of the one occurrence of `answer` in `document` (exact, case-sensitive
/// substring match).
///
/// ```
/// use chunk_core::retrieval::{locate_answer, AnswerError};
/// assert_eq!(locate_answer("Range: −10 to 50 °C.", "−10 to 50 °C"), Ok(7..22));
/// assert_eq!(
///     locate_answer("ab ab", "ab"),
///     Err(AnswerError::Ambiguous { count: 2, first: 0, second: 3 })
/// );
/// ```
///
/// # Errors
/// [`AnswerError::EmptyAnswer`], [`AnswerError::NotFound`], or [`AnswerError::Ambiguous`]
/// with the number of occurrences and the first two offsets.
pub fn locate_answer(document: &str, answer: &str) -> Result<Range<usize>, AnswerError> {
    if answer.is_empty() {
        return Err(AnswerError::EmptyAnswer);
    }
    let finder = memchr::memmem::Finder::new(answer.as_bytes());
    let haystack = document.as_bytes();
    let mut found: Vec<usize> = Vec::with_capacity(2);
    let mut count = 0usize;
    let mut from = 0usize;
    while let Some(at) = finder.find(&haystack[from..]) {
        let at = from + at;
        count += 1;
        if found.len() < 2 {
            found.push(at);
        }
        // Overlapping occurrences count too; a match of valid UTF-8 in valid UTF-8 starts on a
        // char boundary, so stepping one byte finds every one.
        from = at + 1;
    }
    match (count, found.as_slice()) {
        (0, _) => Err(AnswerError::NotFound),
        (1, &[at]) => Ok(at..at + answer.len()),
        (_, &[first, second, ..]) => Err(AnswerError::Ambiguous {
            count,
            first,
            second,
        }),
        _ => Err(AnswerError::NotFound), // unreachable: count ≥ 1 pushes an offset
    }
}

/// Checks a span given as byte offsets (a selection in the text): it must be non-empty, in
/// range and on char boundaries. Returns it as a range.
///
/// # Errors
/// [`AnswerError::Reversed`], [`AnswerError::EmptySpan`], [`AnswerError::OutOfRange`] or
/// [`AnswerError::NotCharBoundary`], in that order of checking.
pub fn check_span(document: &str, start: usize, end: usize) -> Result<Range<usize>, AnswerError> {
    if start > end {
        return Err(AnswerError::Reversed { start, end });
    }
    if start == end {
        return Err(AnswerError::EmptySpan { start, end });
    }
    if end > document.len() {
        return Err(AnswerError::OutOfRange {
            start,
            end,
            len: document.len(),
        });
    }
    for offset in [start, end] {
        if !document.is_char_boundary(offset) {
            return Err(AnswerError::NotCharBoundary { offset });
        }
    }
    Ok(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_occurrence_is_found_in_bytes() {
        let doc = "Le café coûte 3 €. Fin.";
        let span = locate_answer(doc, "3 €").expect("once");
        assert_eq!(span, 16..21);
        assert_eq!(&doc[span], "3 €");
    }

    #[test]
    fn missing_empty_and_ambiguous_answers_are_errors() {
        let doc = "one two one two one";
        assert_eq!(locate_answer(doc, ""), Err(AnswerError::EmptyAnswer));
        assert_eq!(locate_answer(doc, "three"), Err(AnswerError::NotFound));
        // Case matters.
        assert_eq!(locate_answer(doc, "One"), Err(AnswerError::NotFound));
        assert_eq!(
            locate_answer(doc, "one"),
            Err(AnswerError::Ambiguous {
                count: 3,
                first: 0,
                second: 8
            })
        );
        // Overlapping occurrences count.
        assert_eq!(
            locate_answer("aaa", "aa"),
            Err(AnswerError::Ambiguous {
                count: 2,
                first: 0,
                second: 1
            })
        );
        assert_eq!(
            locate_answer(doc, "one").unwrap_err().to_string(),
            "the answer occurs 3 times (first at bytes 0 and 8)"
        );
    }

    #[test]
    fn spans_are_checked_never_panicking() {
        let doc = "añb"; // ñ is bytes 1..3
        assert_eq!(check_span(doc, 0, 4), Ok(0..4));
        assert_eq!(check_span(doc, 1, 3), Ok(1..3));
        assert_eq!(
            check_span(doc, 2, 1),
            Err(AnswerError::Reversed { start: 2, end: 1 })
        );
        assert_eq!(
            check_span(doc, 3, 3),
            Err(AnswerError::EmptySpan { start: 3, end: 3 })
        );
        assert_eq!(
            check_span(doc, 1, 5),
            Err(AnswerError::OutOfRange {
                start: 1,
                end: 5,
                len: 4
            })
        );
        assert_eq!(
            check_span(doc, 2, 4),
            Err(AnswerError::NotCharBoundary { offset: 2 })
        );
        assert_eq!(
            check_span(doc, 0, 2),
            Err(AnswerError::NotCharBoundary { offset: 2 })
        );
        assert_eq!(
            check_span(doc, usize::MAX - 1, usize::MAX),
            Err(AnswerError::OutOfRange {
                start: usize::MAX - 1,
                end: usize::MAX,
                len: 4
            })
        );
    }
}
