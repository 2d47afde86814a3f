//! The simulator's metrics (SPEC §4), computed for any strategy from the chunks' token ranges,
//! the sentences' token ranges and the token byte spans.

use super::chunking::Chunking;
use super::tokens::TokenSpans;
use crate::windows::{measured_overlaps, multiplicity, Window};

/// Every metric the simulator shows for one chunking of one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Tokens in the document.
    pub document_tokens: usize,
    /// Number of kept chunks.
    pub chunk_count: usize,
    /// Tokens in all chunks together (document + repeats), in tokens.
    pub total_tokens: usize,
    /// total ÷ document tokens (1.0 = no repeat); `None` for a document with no token.
    pub bloat_factor: Option<f64>,
    /// Number of sentences (token ranges) in the document.
    pub sentence_count: usize,
    /// Indices of the sentences that no single chunk holds wholly ("split sentences").
    pub split_sentences: Vec<usize>,
    /// Number of chunks longer than `chunk_size` tokens.
    pub oversize_chunks: usize,
    /// Number of chunks dropped because they lay wholly inside the previous one.
    pub dropped_chunks: usize,
    /// Indices of chunks whose bytes are all whitespace (edge case E11: shown with a flag,
    /// never as content).
    pub blank_chunks: Vec<usize>,
    /// Length of each chunk, in tokens.
    pub chunk_lengths: Vec<usize>,
    /// For each token, how many chunks hold it ([`crate::windows::multiplicity`]).
    pub multiplicity: Vec<u32>,
    /// Overlap of each chunk with the one before it, measured from the chunks, in tokens
    /// (element 0 is 0; [`crate::windows::measured_overlaps`]).
    pub measured_overlaps: Vec<usize>,
}

impl Metrics {
    /// Repeated tokens as a share of the document, (total − document) ÷ document tokens: the
    /// bloat factor − 1, the quantity the calculator names `extra_over_document`
    /// ([`crate::formula::FormulaOutput`]); `None` for a document with no token.
    pub fn extra_over_document(&self) -> Option<f64> {
        (self.document_tokens > 0).then(|| {
            (self.total_tokens as f64 - self.document_tokens as f64) / self.document_tokens as f64
        })
    }
}

/// Computes [`Metrics`] for `chunking` of `text`, tokenized as `tokens`, whose sentences are
/// the token ranges `sentences`.
pub fn metrics(
    text: &str,
    tokens: &TokenSpans,
    sentences: &[Window],
    chunking: &Chunking,
) -> Metrics {
    let chunks = &chunking.chunks;
    let n = tokens.len();
    let chunk_lengths: Vec<usize> = chunks.iter().map(|w| w.len()).collect();
    let total_tokens = chunk_lengths.iter().sum();
    let blank_chunks = chunks
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            tokens.chunk_bytes(w.start, w.end).is_some_and(|(s, e)| {
                // `get` is `None` for a range cutting a character: not blank.
                text.get(s..e)
                    .is_some_and(|t| t.chars().all(char::is_whitespace))
            })
        })
        .map(|(i, _)| i)
        .collect();
    Metrics {
        document_tokens: n,
        chunk_count: chunks.len(),
        total_tokens,
        bloat_factor: (n > 0).then(|| total_tokens as f64 / n as f64),
        sentence_count: sentences.len(),
        split_sentences: split_sentences(sentences, chunks),
        oversize_chunks: chunking.oversize.len(),
        dropped_chunks: chunking.dropped.len(),
        blank_chunks,
        chunk_lengths,
        multiplicity: multiplicity(n, chunks),
        measured_overlaps: measured_overlaps(chunks),
    }
}

/// Indices of the `sentences` that no single chunk holds wholly. `chunks` must have
/// increasing starts and ends (as every strategy here gives), so the chunk that starts last at
/// or before a sentence is the one that reaches furthest: O(sentences · log chunks).
pub fn split_sentences(sentences: &[Window], chunks: &[Window]) -> Vec<usize> {
    sentences
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            let i = chunks.partition_point(|c| c.start <= s.start);
            i == 0 || chunks[i - 1].end < s.end
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(start: usize, end: usize) -> Window {
        Window { start, end }
    }

    /// The simulator's fixed windows and the calculator's formula name the same quantities:
    /// tokens embedded and extra over the document (bloat factor − 1) are equal, on five
    /// settings (no overlap, overlap, overlap one below the size, a size over the document, a
    /// tiny size) of the simulator's own manual.
    #[test]
    fn fixed_windows_give_the_calculators_tokens_embedded_and_extra() {
        use crate::formula::{compute, DocLength, FormulaInput};
        use crate::segment::sentences::SentenceRule;
        use crate::sim::documents::Preset;
        use crate::sim::{Prepared, Strategy, TokenizerChoice};
        use crate::Lang;
        let text = Preset::Manual.text(Lang::En);
        let p = Prepared::new(text, TokenizerChoice::Simple, SentenceRule::Terminators);
        for (size, overlap) in [(60, 0), (60, 20), (25, 24), (500, 0), (7, 3)] {
            let chunking = p.chunk(Strategy::Fixed, size, overlap).unwrap();
            let m = p.metrics(text, &chunking);
            let f = compute(FormulaInput {
                document: DocLength::Tokens(m.document_tokens as u64),
                chunk_size: size as u64,
                chunk_overlap: overlap as u64,
                price_per_million: None,
            })
            .unwrap();
            assert_eq!(m.total_tokens as u128, f.total_tokens, "{size}/{overlap}");
            let extra = m.extra_over_document().unwrap();
            assert!(
                (extra - f.extra_over_document).abs() < 1e-12,
                "{size}/{overlap}"
            );
            assert!((m.bloat_factor.unwrap() - 1.0 - extra).abs() < 1e-12);
        }
    }

    #[test]
    fn split_sentences_need_one_chunk_holding_all_of_it() {
        let sentences = [w(0, 4), w(4, 9), w(9, 12)];
        assert_eq!(split_sentences(&sentences, &[w(0, 6), w(6, 12)]), vec![1]);
        // With overlap the second chunk holds sentence 1 whole.
        assert_eq!(
            split_sentences(&sentences, &[w(0, 6), w(3, 9), w(6, 12)]),
            Vec::<usize>::new()
        );
        assert_eq!(split_sentences(&sentences, &[w(0, 3), w(3, 12)]), vec![0]);
    }
}
