//! Character-span recall, precision and IoU of retrieved chunks against an answer span, with
//! the definitions of Chroma's chunking evaluation ("Evaluating Chunking Strategies for
//! Retrieval", Smith & Troynikov, Chroma, 2024).
//!
//! With `A` the answer's characters, `R_1 … R_k` the retrieved chunks' characters (the top k,
//! in rank order, a chunk counted each time it is retrieved) and `|·|` a number of
//! characters:
//!
//! ```text
//! I         = |A ∩ (R_1 ∪ … ∪ R_k)|           the answer's characters retrieved at least once
//! recall    = I / |A|
//! precision = I / (|R_1| + … + |R_k|)
//! IoU       = I / (|R_1| + … + |R_k| + |A| − I)
//! ```
//!
//! Text that two retrieved chunks share (overlap) is counted once in `I` but in each chunk's
//! `|R_i|`, so overlap lowers precision and IoU: it is paid for every time it is embedded and
//! retrieved. A fraction whose denominator is 0 is 0 (no answer, or nothing retrieved).
//!
//! **How this maps to Chroma's source** (`chunking_evaluation`, file
//! `evaluation_framework/base_evaluation.py`, `BaseEvaluation._scores_from_dataset_and_retrievals`,
//! with the range helpers of `evaluation_utils.py`; repository brandonstarxel/chunking_evaluation,
//! published as chroma-core/chunking_evaluation):
//! - their `numerator_value` is `sum_of_ranges(numerator_sets)`, the union of every
//!   (retrieved chunk ∩ reference) range: our `I`;
//! - `recall_denominator = sum_of_ranges(references)`: our `|A|` (they allow several
//!   references per question; we have one answer span);
//! - `precision_denominator = sum_of_ranges(retrieved chunks)`, a plain sum of `end − start`
//!   over the retrieved chunks with no union: our `Σ|R_i|`, overlap counted twice;
//! - `iou_denominator = precision_denominator + sum_of_ranges(unused_highlights)`, where the
//!   unused highlights are the references minus every intersection: `Σ|R_i| + |A| − I`;
//! - a 0 denominator gives 0, as their current code does;
//! - their offsets are Python `str` indices into the corpus (code points), found by searching
//!   each chunk's text in the corpus; ours are the chunks' own byte ranges, and we count
//!   **characters** (Unicode scalar values, Python's `len`), so the figures are theirs on the
//!   same spans. A chunk's characters are those whose first byte lies in its byte range
//!   ([`char_len`]): a token window that starts inside a character does not hold it, one that
//!   ends inside it does (each character belongs to exactly one of two adjacent windows);
//! - they retrieve `retrieve` chunks (default 5) by embedding similarity; we take the top k
//!   of the BM25 ranking ([`super::bm25`]).

use std::ops::Range;

/// The counts and the three ratios of one answer against one retrieval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SpanMetrics {
    /// `|A|`: characters of the answer.
    pub answer_chars: usize,
    /// `Σ|R_i|`: characters of the retrieved chunks, each chunk counted each time retrieved.
    pub retrieved_chars: usize,
    /// `I = |A ∩ ⋃R_i|`: characters of the answer inside at least one retrieved chunk.
    pub intersection_chars: usize,
    /// `I / |A|`, in `[0, 1]`.
    pub recall: f64,
    /// `I / Σ|R_i|`, in `[0, 1]`.
    pub precision: f64,
    /// `I / (Σ|R_i| + |A| − I)`, in `[0, 1]`; 1 exactly when the retrieved chunks are disjoint
    /// and together are exactly the answer.
    pub iou: f64,
}

/// Number of characters of `document` whose first byte lies in the byte range `bytes`
/// (clamped to the document): a count in characters (Unicode scalar values) of any byte
/// range, on char boundaries or not.
pub fn char_len(document: &str, bytes: &Range<usize>) -> usize {
    crate::text_view::chars_starting_in(document, bytes.start, bytes.end)
}

fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 {
        0.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// The span metrics (module docs) of the chunks with byte ranges `retrieved` (in any order,
/// repeats allowed) against the answer's byte range `answer`, both into `document`, counted in
/// characters. Ranges are clamped to the document; an empty or reversed range holds nothing.
pub fn span_metrics(
    document: &str,
    answer: &Range<usize>,
    retrieved: &[Range<usize>],
) -> SpanMetrics {
    let answer_chars = char_len(document, answer);
    let retrieved_chars: usize = retrieved.iter().map(|r| char_len(document, r)).sum();
    // I: the union of the retrieved ranges, cut to the answer, counted once.
    let mut cut: Vec<Range<usize>> = retrieved
        .iter()
        .map(|r| r.start.max(answer.start)..r.end.min(answer.end))
        .filter(|r| r.start < r.end)
        .collect();
    cut.sort_by_key(|r| r.start);
    let mut intersection_chars = 0;
    let mut covered_to = 0usize;
    for r in cut {
        let start = r.start.max(covered_to);
        if start < r.end {
            intersection_chars += char_len(document, &(start..r.end));
            covered_to = r.end;
        }
    }
    SpanMetrics {
        answer_chars,
        retrieved_chars,
        intersection_chars,
        recall: ratio(intersection_chars, answer_chars),
        precision: ratio(intersection_chars, retrieved_chars),
        iou: ratio(
            intersection_chars,
            retrieved_chars + answer_chars - intersection_chars,
        ),
    }
}

#[cfg(test)]
// One retrieved chunk is a list of one range, not a mistaken range-to-Vec.
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    const DOC: &str = "abcdefghij"; // one byte per character
    const ANSWER: Range<usize> = 2..6; // "cdef", 4 characters

    fn m(retrieved: &[Range<usize>]) -> SpanMetrics {
        span_metrics(DOC, &ANSWER, retrieved)
    }

    fn counts(s: &SpanMetrics) -> (usize, usize, usize) {
        (s.answer_chars, s.retrieved_chars, s.intersection_chars)
    }

    #[test]
    fn exactly_the_answer_once_is_perfect() {
        let s = m(&[2..6]);
        assert_eq!(counts(&s), (4, 4, 4));
        assert_eq!((s.recall, s.precision, s.iou), (1.0, 1.0, 1.0));
        // Two disjoint chunks that tile the answer are perfect too.
        let s = m(&[4..6, 2..4]);
        assert_eq!((s.recall, s.precision, s.iou), (1.0, 1.0, 1.0));
    }

    #[test]
    fn overlapping_chunks_count_their_overlap_twice() {
        // "abcd" and "defgh" share "d": I = |cdef| = 4, Σ = 4 + 5 = 9.
        let s = m(&[0..4, 3..8]);
        assert_eq!(counts(&s), (4, 9, 4));
        assert_eq!(s.recall, 1.0);
        assert_eq!(s.precision, 4.0 / 9.0);
        assert_eq!(s.iou, 4.0 / (9.0 + 4.0 - 4.0));
        // The answer's own chunk retrieved twice: I = 4, Σ = 8.
        let s = m(&[2..6, 2..6]);
        assert_eq!(counts(&s), (4, 8, 4));
        assert_eq!((s.recall, s.precision, s.iou), (1.0, 0.5, 0.5));
    }

    #[test]
    fn partial_and_missed_answers() {
        // "abc" holds only "c": I = 1, Σ = 3, IoU = 1 / (3 + 4 − 1).
        let s = m(&[0..3]);
        assert_eq!(counts(&s), (4, 3, 1));
        assert_eq!((s.recall, s.precision, s.iou), (0.25, 1.0 / 3.0, 1.0 / 6.0));
        // A chunk beside the answer touches it but holds none of it.
        let s = m(&[6..10]);
        assert_eq!(counts(&s), (4, 4, 0));
        assert_eq!((s.recall, s.precision, s.iou), (0.0, 0.0, 0.0));
        // Nothing retrieved: every ratio 0 (no division by 0).
        let s = m(&[]);
        assert_eq!(counts(&s), (4, 0, 0));
        assert_eq!((s.recall, s.precision, s.iou), (0.0, 0.0, 0.0));
        // Out-of-range and reversed ranges hold nothing, never panic.
        #[allow(clippy::reversed_empty_ranges)]
        let s = m(&[8..3, 20..30]);
        assert_eq!(counts(&s), (4, 0, 0));
    }

    #[test]
    fn characters_not_bytes_are_counted() {
        // a ñ b € c: bytes a 0, ñ 1..3, b 3, € 4..7, c 7; 8 bytes, 5 characters.
        let doc = "añb€c";
        let answer = 1..4; // "ñb": 2 characters, 3 bytes
                           // "ñb€" (3 characters, 6 bytes): in characters precision is 2/3 (in bytes it would
                           // be 3/6).
        let s = span_metrics(doc, &answer, &[1..7]);
        assert_eq!(counts(&s), (2, 3, 2));
        assert_eq!((s.recall, s.precision), (1.0, 2.0 / 3.0));
        assert_eq!(s.iou, 2.0 / (3.0 + 2.0 - 2.0));
        // A window starting inside ñ (byte 2) does not hold ñ; one ending inside € (byte 5)
        // holds it.
        let s = span_metrics(doc, &answer, &[2..5]);
        assert_eq!(counts(&s), (2, 2, 1));
        assert_eq!(char_len(doc, &(2..5)), 2);
        assert_eq!(char_len(doc, &(0..8)), 5);
    }
}
