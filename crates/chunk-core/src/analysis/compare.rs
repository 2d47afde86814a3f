//! One comparison-table row per strategy (SPEC §5: "chunks, tokens embedded, repeats, mean /
//! p95 / max chunk tokens, chunks over the model limit, split sentences, cost"), computed the
//! same way for every strategy from its measured chunks.

use crate::analysis::structure::{structure_faults, StructureFaults};
// The model-limit check moved to `crate::limit`; its old paths here stay valid.
pub use crate::limit::{chunks_over_limit, dropped_tokens, model_tokens, LimitBasis, LimitCheck};
use crate::segment::markdown::Outline;
use crate::segment::sentences::trimmed_sentences;
use crate::strategy::Chunks;
#[cfg(feature = "strategies")]
use crate::strategy::Document;

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
    /// Tokens of the last chunk (fixed windows: the remainder); 0 without chunks.
    pub last_tokens: usize,
    /// Chunks the embedding model reads as more than `max_input_tokens` tokens (its own
    /// tokenizer with what it adds, [`model_tokens`]): it truncates them, silently for most
    /// models.
    pub over_limit: usize,
    /// The limit used for [`Summary::over_limit`], in the model's tokens with what it adds.
    pub max_input_tokens: usize,
    /// What the model-token figures are counted with.
    pub limit_basis: LimitBasis,
    /// The largest chunk as the model reads it ([`model_tokens`]); 0 without chunks.
    pub model_max_tokens: usize,
    /// The 95th percentile (nearest rank) of the chunks as the model reads them.
    pub model_p95_tokens: usize,
    /// Tokens the model drops over all chunks: the sum of each chunk's excess over the limit.
    pub truncated_tokens: usize,
    /// Sentences in the document ([`SentenceRule::Contextual`](crate::segment::sentences::SentenceRule::Contextual)).
    pub sentences: usize,
    /// Sentences that no single chunk holds wholly (whitespace around a sentence does not
    /// count: a chunk that lost only the trailing space still holds it).
    pub split_sentences: usize,
    /// Cost of embedding `total_tokens` at the price, in the price's currency.
    pub cost: f64,
    /// The chunks with each structure fault ([`crate::analysis::structure`]).
    #[serde(default)]
    pub structure: StructureFaults,
}

impl Summary {
    /// The model's input limit the chunks were checked against, in its tokens; `None` without
    /// a model (the core checks against `usize::MAX`, which no chunk reaches).
    pub fn input_limit(&self) -> Option<usize> {
        (self.max_input_tokens != usize::MAX).then_some(self.max_input_tokens)
    }

    /// Repeated tokens as a share of the tokens embedded (SPEC §2's "repeated share", for the
    /// real chunks); 0 without tokens.
    pub fn repeated_share(&self) -> f64 {
        ratio(self.repeated_tokens, self.total_tokens)
    }

    /// Tokens embedded beyond the document's own, as a share of the document (bloat factor − 1):
    /// `(total_tokens − document_tokens) ÷ document_tokens`, negative when the chunks leave
    /// text out or trim it; 0 for an empty document.
    pub fn extra_over_document(&self) -> f64 {
        if self.document_tokens == 0 {
            return 0.0;
        }
        (self.total_tokens as f64 - self.document_tokens as f64) / self.document_tokens as f64
    }
}

/// `a ÷ b`, 0 when `b` is 0.
fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

#[cfg(feature = "strategies")]
/// The summary of `chunks` of `text` (the document they were cut from), checked against the
/// embedding model's input limit `limit`, at a price of `price_per_million` per 1,000,000
/// tokens.
pub fn summary(
    text: &str,
    chunks: &Chunks,
    limit: &LimitCheck<'_>,
    price_per_million: f64,
) -> Summary {
    let sentences = trimmed_sentences(text);
    let outline = Outline::new(text);
    summarize(text, &sentences, &outline, chunks, limit, price_per_million).0
}

#[cfg(feature = "strategies")]
/// [`summary`] on a prepared document: the same figures, with the document's sentences found
/// once for every strategy and each repeat counted from the document's tokens
/// ([`Document::count`]) rather than re-encoded. `chunks` must have been cut from
/// `document.text()` (as [`crate::strategy::run_prepared`] on it gives them); repeats are
/// counted in `chunks.encoding`, from the shared tokens when it is the document's.
pub fn summary_prepared(
    document: &Document,
    chunks: &Chunks,
    limit: &LimitCheck<'_>,
    price_per_million: f64,
) -> Summary {
    summary_prepared_reading(document, chunks, limit, price_per_million).0
}

#[cfg(feature = "strategies")]
/// [`summary_prepared`] and each chunk as the model reads it ([`model_tokens`], which the
/// summary's model figures are made of), for a caller that shows both without counting the
/// chunks with the model's tokenizer twice.
pub fn summary_prepared_reading(
    document: &Document,
    chunks: &Chunks,
    limit: &LimitCheck<'_>,
    price_per_million: f64,
) -> (Summary, Vec<usize>) {
    let _active = document.activate();
    summarize(
        document.text(),
        document.trimmed_sentences(),
        document.outline(),
        chunks,
        limit,
        price_per_million,
    )
}

#[cfg(feature = "strategies")]
/// [`summary`] with the document's trimmed sentences given, and each chunk as the model reads
/// it.
fn summarize(
    text: &str,
    sentences: &[(usize, usize)],
    outline: &Outline,
    chunks: &Chunks,
    limit: &LimitCheck<'_>,
    price_per_million: f64,
) -> (Summary, Vec<usize>) {
    let read = model_tokens(text, chunks, limit);
    let mut read_sorted = read.clone();
    read_sorted.sort_unstable();
    let max_input_tokens = limit.max_input_tokens;
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
    let summary = Summary {
        chunks: n,
        document_tokens: chunks.document_tokens,
        total_tokens,
        repeated_tokens,
        mean_tokens: (n > 0).then(|| total_tokens as f64 / n as f64),
        p95_tokens,
        max_tokens: sorted.last().copied().unwrap_or(0),
        min_chunk,
        last_tokens: sizes.last().copied().unwrap_or(0),
        over_limit: chunks_over_limit(&read, max_input_tokens),
        max_input_tokens,
        limit_basis: limit.basis,
        model_max_tokens: read_sorted.last().copied().unwrap_or(0),
        model_p95_tokens: p95(&read_sorted),
        truncated_tokens: read
            .iter()
            .map(|&t| dropped_tokens(t, max_input_tokens))
            .sum(),
        sentences: sentences.len(),
        split_sentences,
        cost: cost(total_tokens, price_per_million),
        structure: structure_faults(text, outline, chunks),
    };
    (summary, read)
}

#[cfg(feature = "strategies")]
/// The 95th percentile of ascending `sorted` by nearest rank: the element at rank
/// ⌈0.95 · n⌉ (1-based); 0 for an empty slice.
fn p95(sorted: &[usize]) -> usize {
    p95_rank(sorted.len()).map_or(0, |rank| sorted[rank - 1])
}

/// The nearest rank of the 95th percentile among `n` values: the 1-based position, in
/// ascending order, of the smallest value that at least 95 % of them do not exceed
/// (⌈0.95 n⌉); `None` when `n` is 0. Every p95 of the figures ([`Summary::p95_tokens`],
/// [`crate::analysis::corpus::CorpusRow::p95_tokens`]) takes this rank.
pub fn p95_rank(n: usize) -> Option<usize> {
    (n > 0).then(|| (95 * n).div_ceil(100))
}

/// The cost of embedding `tokens` tokens at `price_per_million` per 1,000,000 tokens, in the
/// price's currency: `tokens × price ÷ 1,000,000` ([`Summary::cost`], a semantic row's
/// [`crate::analysis::protocol::EmbeddingCost`], a corpus's row).
pub fn cost(tokens: usize, price_per_million: f64) -> f64 {
    tokens as f64 * price_per_million / 1_000_000.0
}

#[cfg(feature = "strategies")]
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
    use crate::tokenizer::{Encoding, TokenCounter};

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
        let s = summary(text, &c, &LimitCheck::within(8191), 0.02);
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
        assert_eq!(summary(text, &c, &LimitCheck::within(7), 0.0).over_limit, 1);
        assert_eq!(
            summary(text, &c, &LimitCheck::within(7), 0.0).max_input_tokens,
            7
        );
    }

    #[test]
    fn sentence_packing_splits_no_sentence_and_empty_text_has_no_figures() {
        let text = "Cats sleep a lot. Dogs bark at night. Birds sing.";
        let c = chunks_of(StrategyId::Sentence, text, 10, 0);
        let s = summary(text, &c, &LimitCheck::within(8191), 0.0);
        assert_eq!(
            (s.sentences, s.split_sentences, s.repeated_tokens),
            (3, 0, 0)
        );
        let e = summary(
            "",
            &chunks_of(StrategyId::Fixed, "", 8, 0),
            &LimitCheck::within(8191),
            1.0,
        );
        assert_eq!(
            (e.chunks, e.total_tokens, e.p95_tokens, e.max_tokens),
            (0, 0, 0, 0)
        );
        assert_eq!((e.mean_tokens, e.min_chunk, e.sentences), (None, None, 0));
    }

    /// Counts characters: a tokenizer unlike the chunks' own, so that a test sees which one
    /// measured.
    struct CharCounter;
    impl TokenCounter for CharCounter {
        fn count(&self, text: &str) -> usize {
            text.chars().count()
        }
    }

    #[test]
    fn the_limit_is_checked_with_the_models_tokenizer_prefix_and_special_tokens() {
        // Fixed windows of 4 tokens: "one two three four" | " five six seven eight" | " nine ten".
        let text = "one two three four five six seven eight nine ten";
        let c = chunks_of(StrategyId::Fixed, text, 4, 0);
        let lens: Vec<usize> = c
            .chunks
            .iter()
            .map(|k| k.text(text).chars().count())
            .collect();
        assert_eq!(lens, [18, 21, 9]);
        let limit = LimitCheck {
            max_input_tokens: 22,
            added_tokens: 2,
            prefix: None,
            counter: Some(&CharCounter),
            basis: LimitBasis::Own,
        };
        assert_eq!(model_tokens(text, &c, &limit), [20, 23, 11]);
        let s = summary(text, &c, &limit, 0.0);
        assert_eq!((s.over_limit, s.max_input_tokens), (1, 22));
        assert_eq!((s.model_max_tokens, s.model_p95_tokens), (23, 23));
        assert_eq!((s.truncated_tokens, s.limit_basis), (1, LimitBasis::Own));
        // In the chunks' own tokens (4, 4, 2) nothing is over 22: the tokenizer decides.
        assert_eq!(
            summary(text, &c, &LimitCheck::within(22), 0.0).over_limit,
            0
        );
        // A prefix is counted in front of each chunk, as the model reads it.
        let prefixed = LimitCheck {
            prefix: Some("passage: "),
            ..limit
        };
        assert_eq!(model_tokens(text, &c, &prefixed), [29, 32, 20]);
        let s = summary(text, &c, &prefixed, 0.0);
        assert_eq!((s.over_limit, s.truncated_tokens), (2, 7 + 10));
        // The last chunk and the shares of the real chunks.
        assert_eq!(s.last_tokens, 2);
        assert_eq!(s.repeated_share(), 0.0);
        assert_eq!(s.extra_over_document(), 0.0);
    }

    #[test]
    fn shares_of_real_chunks_follow_their_tokens() {
        let text = "one two three four five six seven eight nine ten";
        let c = chunks_of(StrategyId::Fixed, text, 8, 4);
        let s = summary(text, &c, &LimitCheck::within(usize::MAX), 0.0);
        // 14 embedded, 4 repeated, 10 in the document.
        assert_eq!(s.repeated_share(), 4.0 / 14.0);
        assert_eq!(s.extra_over_document(), 0.4);
        let empty = summary(
            "",
            &chunks_of(StrategyId::Fixed, "", 8, 0),
            &LimitCheck::within(8),
            0.0,
        );
        assert_eq!(
            (empty.repeated_share(), empty.extra_over_document()),
            (0.0, 0.0)
        );
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
