//! One comparison-table row per strategy (SPEC §5: "chunks, tokens embedded, repeats, mean /
//! p95 / max chunk tokens, chunks over the model limit, split sentences, cost"), computed the
//! same way for every strategy from its measured chunks.

use crate::sim::sentences::{sentence_bytes, SentenceRule};
use crate::strategy::{Chunks, Document};

/// The figures of one strategy on one document. Token figures are in tokens of
/// [`Chunks::encoding`], each chunk counted by encoding exactly its own text.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Number of chunks.
    pub chunks: usize,
    /// Tokens of the whole document (encoded once; never a sum of chunk counts).
    pub document_tokens: usize,
    /// Tokens embedded: the sum of every chunk's own token count.
    pub total_tokens: usize,
    /// Tokens of the text each chunk repeats from the chunks before it (its byte range
    /// overlapping what earlier chunks covered), re-encoded; 0 without overlap.
    pub repeated_tokens: usize,
    /// Mean chunk size in tokens; `None` without chunks.
    pub mean_tokens: Option<f64>,
    /// 95th percentile of the chunk sizes in tokens (nearest rank: the smallest size that at
    /// least 95 % of the chunks do not exceed); 0 without chunks.
    pub p95_tokens: usize,
    /// The largest chunk in tokens; 0 without chunks.
    pub max_tokens: usize,
    /// The smallest chunk in tokens and its index; `None` without chunks (tiny chunks
    /// retrieve badly, so the page calls it out).
    pub min_chunk: Option<(usize, usize)>,
    /// Chunks over `max_input_tokens` (the embedding model would truncate them silently).
    pub over_limit: usize,
    /// The limit used for [`Summary::over_limit`], in tokens.
    pub max_input_tokens: usize,
    /// Sentences in the document ([`SentenceRule::Contextual`]).
    pub sentences: usize,
    /// Sentences that no single chunk holds wholly (whitespace around a sentence does not
    /// count: a chunk that lost only the trailing space still holds it).
    pub split_sentences: usize,
    /// Cost of embedding `total_tokens` at the price, in the price's currency.
    pub cost: f64,
}

/// The summary of `chunks` of `text` (the document they were cut from), with an embedding
/// model limit of `max_input_tokens` tokens and a price of `price_per_million` per 1,000,000
/// tokens.
pub fn summary(
    text: &str,
    chunks: &Chunks,
    max_input_tokens: usize,
    price_per_million: f64,
) -> Summary {
    let sentences = trimmed_sentences(text);
    summarize(
        text,
        &sentences,
        chunks,
        max_input_tokens,
        price_per_million,
    )
}

/// [`summary`] on a prepared document: the same figures, with the document's sentences found
/// once for every strategy and each repeat counted from the document's tokens
/// ([`Document::count`]) rather than re-encoded. `chunks` must have been cut from
/// `document.text()` (as [`crate::strategy::run_prepared`] on it gives them); repeats are
/// counted in `chunks.encoding`, from the shared tokens when it is the document's.
pub fn summary_prepared(
    document: &Document,
    chunks: &Chunks,
    max_input_tokens: usize,
    price_per_million: f64,
) -> Summary {
    let _active = document.activate();
    summarize(
        document.text(),
        document.trimmed_sentences(),
        chunks,
        max_input_tokens,
        price_per_million,
    )
}

/// [`summary`] with the document's trimmed sentences given.
fn summarize(
    text: &str,
    sentences: &[(usize, usize)],
    chunks: &Chunks,
    max_input_tokens: usize,
    price_per_million: f64,
) -> Summary {
    let bpe = chunks.encoding.tokenizer();
    let sizes: Vec<usize> = chunks.chunks.iter().map(|c| c.tokens).collect();
    let total_tokens: usize = sizes.iter().sum();
    let n = sizes.len();
    let mut sorted = sizes.clone();
    sorted.sort_unstable();
    let p95_tokens = p95(&sorted);
    let min_chunk = sizes
        .iter()
        .enumerate()
        .min_by_key(|&(i, &t)| (t, i))
        .map(|(i, &t)| (t, i));
    // Repeats: the part of each chunk's byte range that earlier chunks already covered.
    let mut covered_to = 0usize;
    let mut repeated_tokens = 0;
    for c in &chunks.chunks {
        let overlap_end = c.bytes.end.min(covered_to);
        if c.bytes.start < overlap_end {
            let bytes = text
                .as_bytes()
                .get(c.bytes.start..overlap_end)
                .unwrap_or(&[]);
            // Borrowed (a slice of the document) when on char boundaries.
            repeated_tokens += bpe.count(&String::from_utf8_lossy(bytes));
        }
        covered_to = covered_to.max(c.bytes.end);
    }
    let split_sentences = count_split(sentences, chunks);
    Summary {
        chunks: n,
        document_tokens: chunks.document_tokens,
        total_tokens,
        repeated_tokens,
        mean_tokens: (n > 0).then(|| total_tokens as f64 / n as f64),
        p95_tokens,
        max_tokens: sorted.last().copied().unwrap_or(0),
        min_chunk,
        over_limit: sizes.iter().filter(|&&t| t > max_input_tokens).count(),
        max_input_tokens,
        sentences: sentences.len(),
        split_sentences,
        cost: total_tokens as f64 * price_per_million / 1_000_000.0,
    }
}

/// The 95th percentile of ascending `sorted` by nearest rank: the element at rank
/// ⌈0.95 · n⌉ (1-based); 0 for an empty slice.
fn p95(sorted: &[usize]) -> usize {
    let rank = (95 * sorted.len()).div_ceil(100);
    rank.checked_sub(1).map_or(0, |i| sorted[i])
}

/// Sentence byte ranges without their leading and trailing whitespace; whitespace-only
/// segments are left out (cached per text by [`Document`]).
pub(crate) fn trimmed_sentences(text: &str) -> Vec<(usize, usize)> {
    sentence_bytes(text, SentenceRule::Contextual)
        .into_iter()
        .filter_map(|(s, e)| {
            let seg = &text[s..e];
            let start = s + (seg.len() - seg.trim_start().len());
            let end = s + seg.trim_end().len();
            (start < end).then_some((start, end))
        })
        .collect()
}

/// Sentences not wholly inside one chunk's byte range. Chunks are in document order with
/// non-decreasing starts, so a sweep finds, for each sentence, the chunks that start at or
/// before it; the furthest end among them decides.
fn count_split(sentences: &[(usize, usize)], chunks: &Chunks) -> usize {
    let c = &chunks.chunks;
    let mut next = 0; // chunks [0, next) start at or before the current sentence's start
    let mut best_end = 0; // the furthest end among them
    let mut split = 0;
    for &(s, e) in sentences {
        while next < c.len() && c[next].bytes.start <= s {
            best_end = best_end.max(c[next].bytes.end);
            next += 1;
        }
        if next == 0 || best_end < e {
            split += 1;
        }
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
    use crate::tokenizer::Encoding;

    fn chunks_of(id: StrategyId, text: &str, size: usize, overlap: usize) -> Chunks {
        let s = Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        };
        run(chunker(id, &s).expect("valid").as_ref(), text, s.encoding).expect("ok")
    }

    #[test]
    fn e02_windows_give_real_repeats_percentiles_and_split_sentences() {
        // 10 tokens, S=8 O=4: windows [0,8) and [4,10), 4 tokens repeated.
        let text = "one two three four five six seven eight nine ten";
        let c = chunks_of(StrategyId::Fixed, text, 8, 4);
        let s = summary(text, &c, 8191, 0.02);
        assert_eq!((s.chunks, s.document_tokens, s.total_tokens), (2, 10, 14));
        assert_eq!(s.repeated_tokens, 4);
        assert_eq!(
            (s.p95_tokens, s.max_tokens, s.min_chunk),
            (8, 8, Some((6, 1)))
        );
        assert_eq!(s.mean_tokens, Some(7.0));
        // One sentence, cut by the first window and held whole by none.
        assert_eq!((s.sentences, s.split_sentences), (1, 1));
        assert!((s.cost - 14.0 * 0.02 / 1e6).abs() < 1e-15);
        assert_eq!(summary(text, &c, 7, 0.0).over_limit, 1);
        assert_eq!(summary(text, &c, 7, 0.0).max_input_tokens, 7);
    }

    #[test]
    fn sentence_packing_splits_no_sentence_and_empty_text_has_no_figures() {
        let text = "Cats sleep a lot. Dogs bark at night. Birds sing.";
        let c = chunks_of(StrategyId::Sentence, text, 10, 0);
        let s = summary(text, &c, 8191, 0.0);
        assert_eq!(
            (s.sentences, s.split_sentences, s.repeated_tokens),
            (3, 0, 0)
        );
        let e = summary("", &chunks_of(StrategyId::Fixed, "", 8, 0), 8191, 1.0);
        assert_eq!(
            (e.chunks, e.total_tokens, e.p95_tokens, e.max_tokens),
            (0, 0, 0, 0)
        );
        assert_eq!((e.mean_tokens, e.min_chunk, e.sentences), (None, None, 0));
    }

    #[test]
    fn p95_is_the_nearest_rank() {
        let upto = |n: usize| (1..=n).collect::<Vec<_>>();
        assert_eq!(p95(&upto(20)), 19);
        assert_eq!(p95(&upto(100)), 95);
        assert_eq!(p95(&upto(101)), 96);
        assert_eq!(p95(&[7]), 7);
        assert_eq!(p95(&[]), 0);
    }
}
