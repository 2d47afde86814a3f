//! A strategy's comparison row over a whole corpus: the sum of its files' rows
//! ([`Summary`], one per file), with the chunk-size percentile taken over every chunk of every
//! file, exactly (a histogram of chunk sizes, not an average of the files' percentiles). The
//! command-line tool (`crates/cli`) and the Python package (`crates/python`) build one per
//! strategy; files can be added in any order and partial rows merged ([`CorpusRow::merge`]),
//! so rows made on several threads or machines give the same figures.
//!
//! Memory: one map entry per distinct chunk size, whatever the corpus's size (a chunk size is
//! bounded by the chunker's budget for every size-bounded strategy).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::compare::{cost, p95_rank, LimitBasis, Summary};

/// One strategy's figures over the files added so far. Token figures are in the sizing
/// encoding's tokens (as [`Summary`]'s); the model figures in the model's own tokens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CorpusRow {
    /// Files the strategy cut.
    pub files: u64,
    /// Files the strategy refused (its library raises on them at these settings).
    pub refused_files: u64,
    /// Chunks, which is also the vectors stored (one per chunk).
    pub chunks: u64,
    /// Tokens of the files, each file encoded whole.
    pub document_tokens: u64,
    /// Tokens embedded: the sum of every chunk's own count.
    pub total_tokens: u64,
    /// Tokens each chunk repeats from the chunks before it in its file.
    pub repeated_tokens: u64,
    /// Chunks the embedding model reads as more than its input limit.
    pub over_limit: u64,
    /// Tokens the model drops over all chunks.
    pub truncated_tokens: u64,
    /// Sentences in the files.
    pub sentences: u64,
    /// Sentences no single chunk holds wholly.
    pub split_sentences: u64,
    /// Chunks with a structure fault ([`crate::analysis::structure`]), all kinds summed.
    pub structure_faults: u64,
    /// The largest chunk in tokens; 0 without chunks.
    pub max_tokens: usize,
    /// The largest chunk as the model reads it; 0 without chunks.
    pub model_max_tokens: usize,
    /// The model's input limit the rows were checked against (the last file's; every file of
    /// one run has the same).
    pub max_input_tokens: usize,
    /// What the model figures were counted with (the last file's).
    pub limit_basis: Option<LimitBasis>,
    /// Chunk sizes in tokens → chunks of that size, over every file.
    pub sizes: BTreeMap<usize, u64>,
    /// Files whose requested overlap the strategy lowered below the size (the product's
    /// strategies, [`crate::strategy::Chunks::overlap_clamped`]).
    #[serde(default)]
    pub overlap_clamped_files: u64,
    /// Files cut without the requested overlap, the library having none
    /// ([`crate::strategy::Chunks::overlap_ignored`]).
    #[serde(default)]
    pub overlap_ignored_files: u64,
}

impl CorpusRow {
    /// Adds one file's row: its `summary` and its chunks' token counts `chunk_tokens` (the
    /// `tokens` of each chunk the summary was made of).
    pub fn add(&mut self, summary: &Summary, chunk_tokens: impl IntoIterator<Item = usize>) {
        self.files += 1;
        self.chunks += summary.chunks as u64;
        self.document_tokens += summary.document_tokens as u64;
        self.total_tokens += summary.total_tokens as u64;
        self.repeated_tokens += summary.repeated_tokens as u64;
        self.over_limit += summary.over_limit as u64;
        self.truncated_tokens += summary.truncated_tokens as u64;
        self.sentences += summary.sentences as u64;
        self.split_sentences += summary.split_sentences as u64;
        self.structure_faults += summary.structure.total() as u64;
        self.max_tokens = self.max_tokens.max(summary.max_tokens);
        self.model_max_tokens = self.model_max_tokens.max(summary.model_max_tokens);
        self.max_input_tokens = summary.max_input_tokens;
        self.limit_basis = Some(summary.limit_basis);
        for t in chunk_tokens {
            *self.sizes.entry(t).or_default() += 1;
        }
    }

    /// Counts what the strategy did with the requested overlap on one file it cut: lowered it
    /// below the size (`clamped`), or cut without it (`ignored`).
    pub fn add_overlap(&mut self, clamped: bool, ignored: bool) {
        self.overlap_clamped_files += u64::from(clamped);
        self.overlap_ignored_files += u64::from(ignored);
    }

    /// Counts one file the strategy refused.
    pub fn add_refused(&mut self) {
        self.refused_files += 1;
    }

    /// Adds every file of `other` (rows of the same strategy and settings made apart).
    pub fn merge(&mut self, other: &CorpusRow) {
        self.files += other.files;
        self.refused_files += other.refused_files;
        self.chunks += other.chunks;
        self.document_tokens += other.document_tokens;
        self.total_tokens += other.total_tokens;
        self.repeated_tokens += other.repeated_tokens;
        self.over_limit += other.over_limit;
        self.truncated_tokens += other.truncated_tokens;
        self.sentences += other.sentences;
        self.split_sentences += other.split_sentences;
        self.structure_faults += other.structure_faults;
        self.overlap_clamped_files += other.overlap_clamped_files;
        self.overlap_ignored_files += other.overlap_ignored_files;
        self.max_tokens = self.max_tokens.max(other.max_tokens);
        self.model_max_tokens = self.model_max_tokens.max(other.model_max_tokens);
        if other.limit_basis.is_some() {
            self.max_input_tokens = other.max_input_tokens;
            self.limit_basis = other.limit_basis;
        }
        for (&size, &n) in &other.sizes {
            *self.sizes.entry(size).or_default() += n;
        }
    }

    /// Mean chunk size in tokens; `None` without chunks.
    pub fn mean_tokens(&self) -> Option<f64> {
        (self.chunks > 0).then(|| self.total_tokens as f64 / self.chunks as f64)
    }

    /// The 95th percentile of every chunk's size in tokens, by nearest rank (the smallest size
    /// that at least 95 % of the chunks do not exceed, as [`Summary::p95_tokens`]); 0 without
    /// chunks.
    pub fn p95_tokens(&self) -> usize {
        let n: u64 = self.sizes.values().sum();
        let Some(rank) = p95_rank(n as usize) else {
            return 0;
        };
        let mut seen = 0;
        for (&size, &count) in &self.sizes {
            seen += count as usize;
            if seen >= rank {
                return size;
            }
        }
        0
    }

    /// The cost of embedding [`CorpusRow::total_tokens`] at `price_per_million` per 1,000,000
    /// tokens (the page's rule, [`Summary::cost`], on the corpus's total).
    pub fn cost(&self, price_per_million: f64) -> f64 {
        cost(self.total_tokens as usize, price_per_million)
    }

    /// The model's input limit the rows were checked against; `None` without a model (or
    /// before any file was cut), as [`Summary::input_limit`].
    pub fn input_limit(&self) -> Option<usize> {
        self.limit_basis?;
        (self.max_input_tokens != usize::MAX).then_some(self.max_input_tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(sizes: &[usize]) -> Summary {
        let mut sorted = sizes.to_vec();
        sorted.sort_unstable();
        Summary {
            chunks: sizes.len(),
            document_tokens: sizes.iter().sum::<usize>().saturating_sub(1),
            total_tokens: sizes.iter().sum(),
            repeated_tokens: 1,
            mean_tokens: None,
            p95_tokens: 0,
            max_tokens: sorted.last().copied().unwrap_or(0),
            min_chunk: None,
            last_tokens: 0,
            over_limit: sizes.iter().filter(|&&s| s > 10).count(),
            max_input_tokens: 10,
            limit_basis: LimitBasis::ChunkTokens,
            model_max_tokens: sorted.last().copied().unwrap_or(0) + 2,
            model_p95_tokens: 0,
            truncated_tokens: sizes.iter().map(|s| s.saturating_sub(10)).sum(),
            sentences: 3,
            split_sentences: 1,
            cost: 0.0,
            structure: Default::default(),
        }
    }

    #[test]
    fn a_corpus_row_is_its_files_summed_with_the_percentile_over_every_chunk() {
        let files: [&[usize]; 3] = [&[4, 12, 9], &[], &[1; 19]];
        let mut row = CorpusRow::default();
        for f in files {
            row.add(&summary(f), f.iter().copied());
        }
        row.add_refused();
        assert_eq!((row.files, row.refused_files, row.chunks), (3, 1, 22));
        assert_eq!(row.total_tokens, 25 + 19);
        assert_eq!(row.document_tokens, 24 + 18);
        assert_eq!((row.over_limit, row.truncated_tokens), (1, 2));
        assert_eq!((row.max_tokens, row.model_max_tokens), (12, 14));
        assert_eq!(row.repeated_tokens, 3);
        // 22 chunks: rank ⌈0.95 × 22⌉ = 21 → the 21st smallest: 19 ones, then 4, then 9.
        assert_eq!(row.p95_tokens(), 9);
        assert_eq!(row.mean_tokens(), Some(44.0 / 22.0));
        assert_eq!(row.cost(0.02), 44.0 * 0.02 / 1e6);
    }

    #[test]
    fn merging_partial_rows_equals_adding_every_file_to_one() {
        let files: [&[usize]; 4] = [&[4, 12, 9], &[7, 7], &[1; 19], &[30]];
        let mut whole = CorpusRow::default();
        for f in files {
            whole.add(&summary(f), f.iter().copied());
        }
        let (mut a, mut b) = (CorpusRow::default(), CorpusRow::default());
        for f in &files[..2] {
            a.add(&summary(f), f.iter().copied());
        }
        for f in &files[2..] {
            b.add(&summary(f), f.iter().copied());
        }
        b.add_overlap(true, false);
        whole.add_overlap(true, false);
        b.add_refused();
        a.merge(&b);
        whole.add_refused();
        assert_eq!(a, whole);
        assert_eq!(whole.p95_tokens(), 12);
    }

    #[cfg(feature = "strategies")]
    #[test]
    fn one_files_row_has_its_summarys_percentile_and_cost() {
        use crate::analysis::compare::{summary, LimitCheck};
        use crate::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
        use crate::tokenizer::Encoding;
        let text =
            "A sentence of some words. Another, longer sentence follows it here.\n\n".repeat(40);
        for (size, id) in [
            (9, StrategyId::Recursive),
            (16, StrategyId::Semchunk),
            (7, StrategyId::Fixed),
        ] {
            let settings = Settings {
                chunk_size: size,
                chunk_overlap: 2,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            };
            let chunks = run(
                chunker(id, &settings).unwrap().as_ref(),
                &text,
                settings.encoding,
            )
            .unwrap();
            let s = summary(&text, &chunks, &LimitCheck::within(usize::MAX), 0.13);
            let mut row = CorpusRow::default();
            row.add(&s, chunks.chunks.iter().map(|c| c.tokens));
            assert_eq!(row.p95_tokens(), s.p95_tokens, "{id}");
            assert_eq!(row.mean_tokens(), s.mean_tokens, "{id}");
            assert_eq!(row.cost(0.13), s.cost, "{id}");
            assert_eq!((s.input_limit(), row.input_limit()), (None, None));
        }
    }

    #[test]
    fn an_empty_row_has_no_mean_and_a_zero_percentile() {
        let row = CorpusRow::default();
        assert_eq!((row.mean_tokens(), row.p95_tokens()), (None, 0));
    }
}
