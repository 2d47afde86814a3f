//! Okapi BM25 over the chunks of one strategy: an index of the chunks' terms
//! ([`super::terms`](mod@super::terms)), a score for every chunk and a ranking.
//!
//! **Score** of chunk `D` for query `Q` (Robertson & Zaragoza, "The Probabilistic Relevance
//! Framework: BM25 and Beyond", 2009, eq. 3.15; the form Lucene's `BM25Similarity` computes):
//!
//! ```text
//! score(D, Q) = Σ_{t ∈ distinct(Q)}  IDF(t) · f(t, D) · (k1 + 1) / (f(t, D) + k1 · (1 − b + b · |D| / avgdl))
//! IDF(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
//! ```
//!
//! - `f(t, D)`: how many times term `t` occurs among the chunk's terms;
//! - `|D|`: the chunk's number of terms (stop words removed, repeats counted), and `avgdl` the
//!   mean of `|D|` over the `N` chunks;
//! - `n(t)`: the number of chunks that hold `t` at least once;
//! - `IDF` is the Robertson–Spärck Jones weight with Lucene's `1 +` inside the logarithm
//!   (Lucene `BM25Similarity.idf`), which keeps it positive even for a term in every chunk
//!   (the classic `ln((N − n + 0.5) / (n + 0.5))` goes negative past `n = N / 2`);
//! - `k1 = 1.2` and `b = 0.75` unless set ([`Bm25Params`]).
//!
//! **Query terms are taken once each** (`distinct(Q)`, in query order): a question that
//! repeats a word ("the range, the full range") weighs it as if said once, as the simulator's
//! keyword rule keeps repeats once (SPEC §4). This differs from `rank_bm25`
//! (`BM25Okapi.get_scores` loops over the query's tokens, so a repeated word adds its weight
//! once per occurrence).
//!
//! A term that no chunk holds adds 0 to every chunk; a query with no term (only stop words,
//! say) scores every chunk 0. Chunks with no term (`|D| = 0`) score 0. Scores are `f64`,
//! summed over the query's distinct terms in query order.
//!
//! **Ranking** ([`Ranking`]): score descending, ties by chunk index ascending (earlier in the
//! document first); every chunk is ranked, those that score 0 after the others.

use super::terms::for_each_term;
use crate::Lang;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use thiserror::Error;

/// The two BM25 parameters, validated: `k1` finite and ≥ 0 (term-frequency saturation; 0
/// makes a chunk's score ignore how often it repeats a term), `b` in `[0, 1]` (length
/// normalisation; 0 ignores chunk length, 1 normalises fully).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bm25Params {
    k1: f64,
    b: f64,
}

impl Default for Bm25Params {
    /// `k1 = 1.2`, `b = 0.75` (Lucene's and rank_bm25's defaults).
    fn default() -> Self {
        Bm25Params { k1: 1.2, b: 0.75 }
    }
}

/// A BM25 parameter out of its range.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub enum Bm25ParamsError {
    /// `k1` is negative, above [`MAX_K1`] or NaN.
    #[error("k1 must be a number from 0 to 1000, not {0}")]
    K1(f64),
    /// `b` is outside `[0, 1]` or NaN.
    #[error("b must be between 0 and 1, not {0}")]
    B(f64),
}

/// The largest `k1` taken. Past a few units the term-frequency saturation is already gone (the
/// literature's values lie between 0.5 and 3); far larger values only lose precision, and near
/// `f64::MAX` the score's `k1 + 1` and `k1 · (…)` overflow and reorder the chunks.
pub const MAX_K1: f64 = 1_000.0;

impl Bm25Params {
    /// `k1` and `b`, checked.
    ///
    /// # Errors
    /// [`Bm25ParamsError::K1`] unless `0 ≤ k1 ≤` [`MAX_K1`]; [`Bm25ParamsError::B`] unless
    /// `0 ≤ b ≤ 1`.
    pub fn new(k1: f64, b: f64) -> Result<Self, Bm25ParamsError> {
        if !(0.0..=MAX_K1).contains(&k1) {
            return Err(Bm25ParamsError::K1(k1));
        }
        if !(0.0..=1.0).contains(&b) {
            return Err(Bm25ParamsError::B(b));
        }
        Ok(Bm25Params { k1, b })
    }

    /// `k1`.
    pub fn k1(&self) -> f64 {
        self.k1
    }

    /// `b`.
    pub fn b(&self) -> f64 {
        self.b
    }
}

/// The BM25 index of a list of chunks (each given as its terms), in chunk order.
///
/// Terms are interned as integer ids: `vocabulary` (shared, e.g. a whole document's terms,
/// [`super::DocumentTerms`]) then `extra` (terms only this index holds); the postings are one
/// flat list, term by term (compressed sparse rows).
#[derive(Clone, Debug)]
pub struct Bm25Index {
    params: Bm25Params,
    /// Term → its id, shared between indexes of the same document.
    vocabulary: Arc<FxHashMap<String, u32>>,
    /// Terms of this index missing from `vocabulary` → their ids (from `vocabulary.len()` on).
    extra: FxHashMap<String, u32>,
    /// Term id `t`'s postings are `postings[offsets[t]..offsets[t + 1]]`.
    offsets: Vec<usize>,
    /// `(chunk, f(t, D))` for every chunk holding a term, chunk ascending within a term; the
    /// length of a term's run is `n(t)`.
    postings: Vec<(u32, u32)>,
    /// `|D|` per chunk.
    lengths: Vec<usize>,
    /// `avgdl`; 0 when there is no chunk or no chunk holds a term.
    avgdl: f64,
}

/// Interns terms into ids: first a shared vocabulary, then terms of this index alone.
pub(crate) struct Interner<'v> {
    pub(crate) vocabulary: &'v FxHashMap<String, u32>,
    pub(crate) extra: FxHashMap<String, u32>,
}

impl Interner<'_> {
    /// The id of `term`, adding it to `extra` when new.
    pub(crate) fn id(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.vocabulary.get(term) {
            return id;
        }
        if let Some(&id) = self.extra.get(term) {
            return id;
        }
        let id = u32::try_from(self.vocabulary.len() + self.extra.len())
            .expect("fewer than 2^32 distinct terms");
        self.extra.insert(term.to_owned(), id);
        id
    }

    /// The number of ids handed out (shared ones included).
    pub(crate) fn len(&self) -> usize {
        self.vocabulary.len() + self.extra.len()
    }
}

/// Every chunk's term ids, flat: chunk `i`'s are `ids[bounds[i]..bounds[i + 1]]`.
#[derive(Default)]
pub(crate) struct ChunkIds {
    pub(crate) ids: Vec<u32>,
    pub(crate) bounds: Vec<usize>,
}

impl ChunkIds {
    /// Closes the current chunk (call once per chunk, after pushing its ids).
    pub(crate) fn end_chunk(&mut self) {
        if self.bounds.is_empty() {
            self.bounds.push(0);
        }
        self.bounds.push(self.ids.len());
    }

    fn chunks(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    fn of(&self, chunk: usize) -> &[u32] {
        &self.ids[self.bounds[chunk]..self.bounds[chunk + 1]]
    }
}

impl Bm25Index {
    /// Indexes chunks given as their terms (from [`super::terms`](mod@super::terms), or any
    /// other rule), in chunk order: chunk `i` of the index is `chunks[i]`.
    pub fn new<T: AsRef<str>>(chunks: &[Vec<T>], params: Bm25Params) -> Self {
        let vocabulary = Arc::new(FxHashMap::default());
        let mut interner = Interner {
            vocabulary: &vocabulary,
            extra: FxHashMap::default(),
        };
        let mut ids = ChunkIds::default();
        for terms in chunks {
            for term in terms {
                ids.ids.push(interner.id(term.as_ref()));
            }
            ids.end_chunk();
        }
        let extra = interner.extra;
        Bm25Index::build(params, vocabulary, extra, &ids, chunks.len())
    }

    /// Indexes chunks given as their texts, each cut into terms of `lang`
    /// ([`super::terms`](mod@super::terms)), in chunk order. The same index as
    /// [`Bm25Index::new`] on `terms(text, lang)` of every text, without a string per word.
    pub fn from_texts<T: AsRef<str>>(texts: &[T], lang: Lang, params: Bm25Params) -> Self {
        let vocabulary = Arc::new(FxHashMap::default());
        let mut interner = Interner {
            vocabulary: &vocabulary,
            extra: FxHashMap::default(),
        };
        let mut ids = ChunkIds::default();
        for text in texts {
            for_each_term(text.as_ref(), lang, |_, _, term| {
                ids.ids.push(interner.id(term));
            });
            ids.end_chunk();
        }
        let extra = interner.extra;
        Bm25Index::build(params, vocabulary, extra, &ids, texts.len())
    }

    /// The index of chunks given as term ids of `vocabulary` then `extra`: `n(t)` per id
    /// counted first, then the postings filled in one flat list.
    pub(crate) fn build(
        params: Bm25Params,
        vocabulary: Arc<FxHashMap<String, u32>>,
        extra: FxHashMap<String, u32>,
        ids: &ChunkIds,
        chunks: usize,
    ) -> Self {
        debug_assert_eq!(ids.chunks(), chunks);
        let terms = vocabulary.len() + extra.len();
        let mut last = vec![u32::MAX; terms];
        let mut df = vec![0usize; terms];
        let mut lengths = Vec::with_capacity(chunks);
        for chunk in 0..chunks {
            let c = chunk as u32;
            let of = ids.of(chunk);
            lengths.push(of.len());
            for &id in of {
                let id = id as usize;
                if last[id] != c {
                    last[id] = c;
                    df[id] += 1;
                }
            }
        }
        let mut offsets = Vec::with_capacity(terms + 1);
        let mut at = 0;
        offsets.push(0);
        for &n in &df {
            at += n;
            offsets.push(at);
        }
        let mut postings = vec![(0u32, 0u32); at];
        // `fill[t]`: where term t's next posting goes.
        let mut fill = offsets[..terms].to_vec();
        last.fill(u32::MAX);
        for chunk in 0..chunks {
            let c = chunk as u32;
            for &id in ids.of(chunk) {
                let id = id as usize;
                if last[id] != c {
                    last[id] = c;
                    postings[fill[id]] = (c, 1);
                    fill[id] += 1;
                } else {
                    postings[fill[id] - 1].1 += 1;
                }
            }
        }
        let total: usize = lengths.iter().sum();
        let avgdl = if lengths.is_empty() {
            0.0
        } else {
            total as f64 / lengths.len() as f64
        };
        Bm25Index {
            params,
            vocabulary,
            extra,
            offsets,
            postings,
            lengths,
            avgdl,
        }
    }

    /// The id of `term`, if some chunk holds it.
    fn id(&self, term: &str) -> Option<usize> {
        self.vocabulary
            .get(term)
            .or_else(|| self.extra.get(term))
            .map(|&id| id as usize)
    }

    /// The postings of term id `id`.
    fn postings_of(&self, id: usize) -> &[(u32, u32)] {
        &self.postings[self.offsets[id]..self.offsets[id + 1]]
    }

    /// The parameters.
    pub fn params(&self) -> Bm25Params {
        self.params
    }

    /// `N`, the number of chunks.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// True when the index has no chunk.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// `avgdl`, the mean number of terms per chunk (0 without chunks).
    pub fn avgdl(&self) -> f64 {
        self.avgdl
    }

    /// `n(t)`: the number of chunks holding `term`.
    pub fn chunks_holding(&self, term: &str) -> usize {
        self.id(term).map_or(0, |id| self.postings_of(id).len())
    }

    /// `IDF(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))` (module docs).
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.chunks_holding(term) as f64;
        let big_n = self.len() as f64;
        (1.0 + (big_n - n + 0.5) / (n + 0.5)).ln()
    }

    /// The score of every chunk for a query given as its terms (module docs: each distinct
    /// term once), in chunk order; all 0 for a query without terms.
    pub fn scores<T: AsRef<str>>(&self, query: &[T]) -> Vec<f64> {
        let Bm25Params { k1, b } = self.params;
        let mut scores = vec![0.0; self.len()];
        let mut seen: Vec<&str> = Vec::new();
        for term in query {
            let term = term.as_ref();
            if seen.contains(&term) {
                continue;
            }
            seen.push(term);
            let Some(id) = self.id(term) else {
                continue;
            };
            let idf = self.idf(term);
            for &(chunk, f) in self.postings_of(id) {
                let chunk = chunk as usize;
                // A chunk in a posting list holds a term, so avgdl > 0 here.
                let f = f64::from(f);
                let norm = 1.0 - b + b * self.lengths[chunk] as f64 / self.avgdl;
                scores[chunk] += idf * f * (k1 + 1.0) / (f + k1 * norm);
            }
        }
        scores
    }

    /// The chunks ranked for a query given as its terms ([`Bm25Index::scores`], then
    /// [`Ranking::from_scores`]).
    pub fn rank<T: AsRef<str>>(&self, query: &[T]) -> Ranking {
        Ranking::from_scores(self.scores(query))
    }
}

/// Every chunk in rank order, with its score.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ranking {
    /// Chunk indices, best first: score descending, ties by chunk index ascending. A
    /// permutation of `0..scores.len()`.
    pub order: Vec<usize>,
    /// The score of each chunk, in chunk order (not rank order).
    pub scores: Vec<f64>,
    /// The 1-based rank of each chunk, in chunk order: `rank[order[r]] == r + 1`.
    pub rank: Vec<usize>,
}

impl Ranking {
    /// Ranks chunks by their scores (score descending, ties by index ascending; scores are
    /// compared with `f64::total_cmp`, so a NaN, which BM25 never gives, would rank first).
    pub fn from_scores(scores: Vec<f64>) -> Self {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&x, &y| scores[y].total_cmp(&scores[x]).then(x.cmp(&y)));
        let mut rank = vec![0; scores.len()];
        for (r, &chunk) in order.iter().enumerate() {
            rank[chunk] = r + 1;
        }
        Ranking {
            order,
            scores,
            rank,
        }
    }

    /// The first `k` chunks in rank order (fewer when there are fewer chunks).
    pub fn top(&self, k: usize) -> &[usize] {
        &self.order[..k.min(self.order.len())]
    }

    /// The 1-based rank of `chunk`; `None` for an index out of range.
    pub fn rank_of(&self, chunk: usize) -> Option<usize> {
        self.rank.get(chunk).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::terms;
    use crate::Lang;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    // Three chunks, query "cat dog", k1 = 1.2, b = 0.75, worked by hand:
    //
    // c0 "The cat sat on the mat."  terms cat sat mat          |D| = 3
    // c1 "Cat, cat and dog."        terms cat cat dog          |D| = 3
    // c2 "A dog runs far away"      terms dog runs far away    |D| = 4   ("a" is a stop word)
    // N = 3, avgdl = (3 + 3 + 4) / 3 = 10/3.
    // n(cat) = 2, n(dog) = 2: IDF = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.470003629
    // n(sat) = 1:             IDF = ln(1 + 2.5 / 1.5) = ln(8/3) = 0.980829253
    // k1 * (1 - b + b * |D| / avgdl):
    //   |D| = 3: 1.2 * (0.25 + 0.75 * 3 / (10/3)) = 1.2 * 0.925 = 1.11
    //   |D| = 4: 1.2 * (0.25 + 0.75 * 4 / (10/3)) = 1.2 * 1.15  = 1.38
    // c0 = ln1.6 * 1 * 2.2 / (1 + 1.11)                     = 0.470003629 * 1.042654028 = 0.490051177
    // c1 = ln1.6 * 2 * 2.2 / (2 + 1.11) + ln1.6 * 2.2/2.11  = 0.664956903 + 0.490051177 = 1.155008081
    // c2 = ln1.6 * 1 * 2.2 / (1 + 1.38)                     = 0.470003629 * 0.924369748 = 0.434457136
    // ranking: c1, c0, c2.
    fn toy() -> Bm25Index {
        let chunks: Vec<Vec<String>> = [
            "The cat sat on the mat.",
            "Cat, cat and dog.",
            "A dog runs far away",
        ]
        .iter()
        .map(|t| terms(t, Lang::En))
        .collect();
        assert_eq!(chunks[2], ["dog", "runs", "far", "away"]);
        Bm25Index::new(&chunks, Bm25Params::default())
    }

    #[test]
    fn hand_computed_scores_on_three_chunks() {
        let index = toy();
        assert_eq!(index.len(), 3);
        assert!(close(index.avgdl(), 10.0 / 3.0));
        assert!(close(index.idf("cat"), 1.6f64.ln()));
        assert!(close(index.idf("sat"), (8.0f64 / 3.0).ln()));
        let s = index.scores(&["cat", "dog"]);
        assert!(close(s[0], 0.490_051_177_412_615_4), "{s:?}");
        assert!(close(s[1], 1.155_008_080_525_553_4), "{s:?}");
        assert!(close(s[2], 0.434_457_136_277_570_8), "{s:?}");
        let r = index.rank(&["cat", "dog"]);
        assert_eq!(r.order, [1, 0, 2]);
        assert_eq!(r.rank, [2, 1, 3]);
        // "sat": only c0, 0.980829253 · 1.042654028 = 1.022665…; the others 0, ranked after
        // by index.
        let s = index.scores(&["sat"]);
        assert!(close(s[0], (8.0f64 / 3.0).ln() * 2.2 / 2.11));
        assert_eq!(&s[1..], [0.0, 0.0]);
        assert_eq!(index.rank(&["sat"]).order, [0, 1, 2]);
    }

    #[test]
    fn from_texts_is_new_on_the_terms() {
        let texts = [
            "The cat sat on the mat.",
            "Cat, cat and dog.",
            "A dog runs far away",
            "",
        ];
        let a = Bm25Index::from_texts(&texts, Lang::En, Bm25Params::default());
        let terms: Vec<Vec<String>> = texts.iter().map(|t| terms(t, Lang::En)).collect();
        let b = Bm25Index::new(&terms, Bm25Params::default());
        assert_eq!(
            (&a.lengths, &a.offsets, &a.postings, a.avgdl),
            (&b.lengths, &b.offsets, &b.postings, b.avgdl)
        );
        assert_eq!(a.extra, b.extra);
        assert_eq!(a.lengths, [3, 3, 4, 0]);
    }

    #[test]
    fn repeated_query_terms_count_once_and_unknown_terms_add_nothing() {
        let index = toy();
        let once = index.scores(&["cat", "dog"]);
        assert_eq!(index.scores(&["cat", "dog", "cat", "cat"]), once);
        assert_eq!(index.scores(&["bird", "cat", "dog"]), once);
        assert_eq!(index.scores::<&str>(&[]), [0.0, 0.0, 0.0]);
        assert_eq!(index.rank::<&str>(&[]).order, [0, 1, 2]);
    }

    #[test]
    fn ties_rank_by_index_and_a_term_in_every_chunk_weighs_positively() {
        let chunks = vec![vec!["x", "y"], vec!["y", "x"], vec!["x"]];
        let index = Bm25Index::new(&chunks, Bm25Params::default());
        // n = N = 3: IDF = ln(1 + 0.5 / 3.5) = ln(8/7) > 0.
        assert!(close(index.idf("x"), (8.0f64 / 7.0).ln()));
        let r = index.rank(&["y"]);
        assert_eq!(r.scores[0], r.scores[1]);
        assert_eq!(r.order, [0, 1, 2]);
        assert_eq!(r.top(2), [0, 1]);
        assert_eq!(r.top(9), [0, 1, 2]);
        assert_eq!(r.rank_of(2), Some(3));
        assert_eq!(r.rank_of(3), None);
    }

    #[test]
    fn empty_index_and_empty_chunks() {
        let none: Vec<Vec<&str>> = Vec::new();
        let index = Bm25Index::new(&none, Bm25Params::default());
        assert!(index.is_empty());
        assert!(index.rank(&["x"]).order.is_empty());
        let blank = vec![Vec::<&str>::new(), Vec::new()];
        let index = Bm25Index::new(&blank, Bm25Params::default());
        assert_eq!(index.avgdl(), 0.0);
        assert_eq!(index.scores(&["x"]), [0.0, 0.0]);
    }

    #[test]
    fn params_are_checked_and_change_the_score() {
        assert!(Bm25Params::new(-0.1, 0.5).is_err());
        assert!(Bm25Params::new(f64::NAN, 0.5).is_err());
        // Huge values overflowed the score and reordered the chunks.
        assert!(Bm25Params::new(1e300, 0.5).is_err());
        assert!(Bm25Params::new(MAX_K1, 0.5).is_ok());
        assert!(Bm25Params::new(MAX_K1 + 1.0, 0.5).is_err());
        assert!(Bm25Params::new(1.0, 1.5).is_err());
        assert!(Bm25Params::new(1.0, f64::NAN).is_err());
        let p = Bm25Params::new(2.0, 0.0).expect("valid");
        assert_eq!((p.k1(), p.b()), (2.0, 0.0));
        // b = 0: no length normalisation; c1 "cat cat": ln1.6 · 2·3/(2 + 2).
        let chunks = vec![vec!["cat", "sat"], vec!["cat", "cat", "dog", "far"]];
        let index = Bm25Index::new(&chunks, p);
        let idf = (1.0f64 + 0.5 / 2.5).ln();
        let s = index.scores(&["cat"]);
        assert!(close(s[0], idf * 3.0 / 3.0));
        assert!(close(s[1], idf * 6.0 / 4.0));
        // k1 = 0: the score is the IDF of each held term, however often held.
        let flat = Bm25Index::new(&chunks, Bm25Params::new(0.0, 0.75).expect("valid"));
        let s = flat.scores(&["cat"]);
        assert!(close(s[0], idf) && close(s[1], idf));
    }
}
