//! The retrieval check of one strategy's chunks (SPEC §8): for each question and its answer
//! span, does one chunk hold the whole answer, where does BM25 rank it, and how well do the
//! top-k chunks cover the answer.

use super::bm25::{Bm25Index, Bm25Params, Ranking};
use super::dense::{cosine_ranking, reciprocal_rank_fusion, Retriever, RRF_K};
use super::document_terms::DocumentTerms;
use super::span::{span_metrics, SpanMetrics};
use super::terms::terms;
use crate::strategy::{Chunks, StrategyId};
use crate::Lang;
use std::ops::Range;

/// A question and the byte span of its answer in the document.
///
/// Build the span with [`super::locate_answer`] or [`super::check_span`] (or
/// [`super::QaLine::resolve`]): [`evaluate`] takes any range without panicking (it is
/// clamped to the document), but only a checked one means what the user marked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QaPair {
    /// The question, as typed: its terms are the BM25 query.
    pub question: String,
    /// The answer's byte range `[start, end)` in the document (UTF-8 bytes).
    pub answer: Range<usize>,
}

/// How [`evaluate`] ranks and how many chunks it retrieves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalOptions {
    /// The page's language: its stop words are removed from questions and chunks
    /// ([`super::terms`](mod@super::terms)).
    pub lang: Lang,
    /// `k1` and `b`.
    pub bm25: Bm25Params,
    /// How many top-ranked chunks are retrieved for [`PairEvaluation::at_k`] and
    /// [`Aggregate::hits_at_k`] (Chroma's `retrieve`, default 5).
    pub k: usize,
}

impl Default for EvalOptions {
    /// English, `k1 = 1.2`, `b = 0.75`, `k = 5`.
    fn default() -> Self {
        EvalOptions {
            lang: Lang::En,
            bm25: Bm25Params::default(),
            k: 5,
        }
    }
}

/// The check of one question/answer pair against one strategy's chunks.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PairEvaluation {
    /// The question's terms (the BM25 query; repeats kept here, counted once in the score).
    pub query: Vec<String>,
    /// Every chunk whose byte range holds the whole answer span, in chunk order.
    pub holding: Vec<usize>,
    /// The best-ranked of [`PairEvaluation::holding`]; `None` when no chunk holds the whole
    /// answer (the cut split it).
    pub whole: Option<usize>,
    /// The 1-based rank of [`PairEvaluation::whole`] among all chunks, by the evaluation's
    /// retriever.
    pub rank: Option<usize>,
    /// The retriever's score of [`PairEvaluation::whole`]: BM25's (0 when the chunk holds no
    /// query term: it is then ranked only by its position among the chunks that score 0), the
    /// cosine for dense retrieval, the fused `Σ 1 / (60 + rank)` for hybrid.
    pub score: Option<f64>,
    /// `rank ≤ 1`.
    pub hit_at_1: bool,
    /// `rank ≤ 3`.
    pub hit_at_3: bool,
    /// `rank ≤ 5`.
    pub hit_at_5: bool,
    /// `rank ≤ k` ([`EvalOptions::k`]).
    pub hit_at_k: bool,
    /// The top-k chunk indices, best first.
    pub top: Vec<usize>,
    /// Span metrics of the top 1.
    pub at_1: SpanMetrics,
    /// Span metrics of the top 3.
    pub at_3: SpanMetrics,
    /// Span metrics of the top 5.
    pub at_5: SpanMetrics,
    /// Span metrics of the top k.
    pub at_k: SpanMetrics,
    /// The reciprocal rank within the top k ([`reciprocal_rank`]): `1 / rank` when the chunk
    /// holding the whole answer ranks in the top k, else 0.
    pub reciprocal_rank: f64,
    /// nDCG@k ([`ndcg_at_k`]) of the top k, the chunks holding the whole answer relevant.
    pub ndcg: f64,
}

/// The figures across every pair of one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Aggregate {
    /// Number of pairs.
    pub pairs: usize,
    /// Pairs whose whole answer is inside some chunk.
    pub whole: usize,
    /// Pairs whose chunk holding the whole answer ranks first.
    pub hits_at_1: usize,
    /// … ranks in the top 3.
    pub hits_at_3: usize,
    /// … ranks in the top 5.
    pub hits_at_5: usize,
    /// … ranks in the top k.
    pub hits_at_k: usize,
    /// True when there is at least one pair and every pair's whole answer is in a chunk of
    /// the top 1.
    pub all_whole_in_top_1: bool,
    /// … of the top 3 (the sweep's criterion, [`super::sweep`](mod@super::sweep)).
    pub all_whole_in_top_3: bool,
    /// … of the top 5.
    pub all_whole_in_top_5: bool,
    /// … of the top k.
    pub all_whole_in_top_k: bool,
    /// Mean recall of the top k over the pairs (0 without pairs).
    pub mean_recall: f64,
    /// Mean precision of the top k over the pairs (0 without pairs).
    pub mean_precision: f64,
    /// Mean IoU of the top k over the pairs (0 without pairs).
    pub mean_iou: f64,
    /// MRR@k: the mean of [`PairEvaluation::reciprocal_rank`] over the pairs (0 without pairs).
    pub mrr: f64,
    /// The mean of [`PairEvaluation::ndcg`] (nDCG@k) over the pairs (0 without pairs).
    pub mean_ndcg: f64,
}

/// One strategy's retrieval check.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Evaluation {
    /// The strategy.
    pub strategy: StrategyId,
    /// The retriever that ranked the chunks.
    pub retriever: Retriever,
    /// [`EvalOptions::k`].
    pub k: usize,
    /// Number of chunks.
    pub chunks: usize,
    /// Tokens embedded ([`Chunks::total_tokens`]).
    pub tokens_embedded: usize,
    /// One entry per pair, in the pairs' order.
    pub pairs: Vec<PairEvaluation>,
    /// Across the pairs.
    pub aggregate: Aggregate,
}

/// The retrieval check of `chunks`, cut from `document`, for every pair.
///
/// - The BM25 index ([`super::bm25`]) holds each chunk's own text ([`crate::strategy::Chunk::text`]:
///   what would be embedded, a heading-path prefix or a library's rewrite included), as terms
///   of [`EvalOptions::lang`]; each question is ranked against it.
/// - A chunk *holds the whole answer* when its byte range in the document contains the
///   answer's byte range (`start ≤ answer.start` and `answer.end ≤ end`); when several do, the
///   best-ranked one is [`PairEvaluation::whole`]. Positions, not texts, decide, as in
///   Chroma's evaluation; for a strategy whose text is not its slice
///   ([`crate::strategy::Keeps`]: stripped markdown lines, a U+FFFD for a cut character), the
///   chunk stands for its byte range.
/// - The span metrics ([`super::span`]) of the top 1, 3, 5 and k use the chunks' byte
///   ranges, counted in characters.
pub fn evaluate(
    document: &str,
    chunks: &Chunks,
    pairs: &[QaPair],
    options: &EvalOptions,
) -> Evaluation {
    evaluate_with(
        document,
        chunks,
        &text_index(document, chunks, options),
        pairs,
        options,
        None,
    )
}

/// The BM25 index of the chunks' own texts, each cut into words ([`evaluate`]'s).
fn text_index(document: &str, chunks: &Chunks, options: &EvalOptions) -> Bm25Index {
    let texts: Vec<_> = chunks.chunks.iter().map(|c| c.text(document)).collect();
    Bm25Index::from_texts(&texts, options.lang, options.bm25)
}

/// The BM25 index from the document's terms when they [fit](DocumentTerms::fits), else
/// [`text_index`]: the same index either way ([`evaluate_prepared`]'s).
fn prepared_index(
    document: &str,
    terms: &DocumentTerms,
    chunks: &Chunks,
    options: &EvalOptions,
) -> Bm25Index {
    if terms.fits(document, options.lang) {
        terms.index(document, &chunks.chunks, options.bm25)
    } else {
        text_index(document, chunks, options)
    }
}

/// [`evaluate`] with the document's terms found once ([`DocumentTerms`]): the same
/// [`Evaluation`], value for value (the index is built from the document's terms, module docs
/// of [`super::document_terms`]), without cutting every chunk into words again. Terms that do
/// not [fit](DocumentTerms::fits) `document` and [`EvalOptions::lang`] are not used: the result
/// is then [`evaluate`]'s, at its speed.
pub fn evaluate_prepared(
    document: &str,
    terms: &DocumentTerms,
    chunks: &Chunks,
    pairs: &[QaPair],
    options: &EvalOptions,
) -> Evaluation {
    let index = prepared_index(document, terms, chunks, options);
    evaluate_with(document, chunks, &index, pairs, options, None)
}

/// The embeddings a dense or hybrid check ranks by.
#[derive(Clone, Copy, Debug)]
pub struct Vectors<'a> {
    /// Dense or hybrid.
    pub retriever: Retriever,
    /// One vector per chunk, in chunk order: the embedding of the chunk's own text.
    pub chunks: &'a [Vec<f32>],
    /// One vector per pair, in the pairs' order: the question's embedding (with the model's
    /// query prefix where it has one).
    pub questions: &'a [Vec<f32>],
}

/// Why [`evaluate_dense`] cannot rank.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VectorsError {
    /// [`Vectors::retriever`] is BM25, which ranks without vectors.
    #[error("BM25 ranks without vectors")]
    NotDense,
    /// Not one vector per chunk.
    #[error("{found} chunk vectors for {expected} chunks")]
    Chunks {
        /// Chunks.
        expected: usize,
        /// Vectors given.
        found: usize,
    },
    /// Not one vector per question.
    #[error("{found} question vectors for {expected} questions")]
    Questions {
        /// Pairs.
        expected: usize,
        /// Vectors given.
        found: usize,
    },
}

/// [`evaluate_prepared`] ranked by dense or hybrid retrieval ([`super::dense`]): every figure is
/// computed as for BM25, from the ranking the vectors give (the BM25 index is still built for
/// hybrid, and for [`PairEvaluation::query`]).
///
/// Errors: [`VectorsError`] when the retriever is BM25 or the vectors are not one per chunk and
/// one per pair.
pub fn evaluate_dense(
    document: &str,
    terms: &DocumentTerms,
    chunks: &Chunks,
    pairs: &[QaPair],
    options: &EvalOptions,
    vectors: Vectors,
) -> Result<Evaluation, VectorsError> {
    if vectors.retriever == Retriever::Bm25 {
        return Err(VectorsError::NotDense);
    }
    if vectors.chunks.len() != chunks.chunks.len() {
        return Err(VectorsError::Chunks {
            expected: chunks.chunks.len(),
            found: vectors.chunks.len(),
        });
    }
    if vectors.questions.len() != pairs.len() {
        return Err(VectorsError::Questions {
            expected: pairs.len(),
            found: vectors.questions.len(),
        });
    }
    let index = prepared_index(document, terms, chunks, options);
    Ok(evaluate_with(
        document,
        chunks,
        &index,
        pairs,
        options,
        Some(vectors),
    ))
}

fn evaluate_with(
    document: &str,
    chunks: &Chunks,
    index: &Bm25Index,
    pairs: &[QaPair],
    options: &EvalOptions,
    vectors: Option<Vectors>,
) -> Evaluation {
    let ranges: Vec<Range<usize>> = chunks.chunks.iter().map(|c| c.bytes.clone()).collect();
    let retriever = vectors.map_or(Retriever::Bm25, |v| v.retriever);
    let results: Vec<PairEvaluation> = pairs
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let query = terms(&pair.question, options.lang);
            let bm25 = || index.rank(&query);
            let ranking = match vectors {
                None => bm25(),
                Some(v) => {
                    let dense = cosine_ranking(&v.questions[i], v.chunks);
                    match v.retriever {
                        Retriever::Hybrid => reciprocal_rank_fusion(&[&bm25(), &dense], RRF_K),
                        _ => dense,
                    }
                }
            };
            evaluate_pair(document, &ranges, query, &ranking, pair, options)
        })
        .collect();
    let aggregate = aggregate(&results);
    Evaluation {
        strategy: chunks.strategy,
        retriever,
        k: options.k,
        chunks: chunks.chunks.len(),
        tokens_embedded: chunks.total_tokens(),
        pairs: results,
        aggregate,
    }
}

fn evaluate_pair(
    document: &str,
    ranges: &[Range<usize>],
    query: Vec<String>,
    ranking: &Ranking,
    pair: &QaPair,
    options: &EvalOptions,
) -> PairEvaluation {
    let answer = &pair.answer;
    let holding: Vec<usize> = ranges
        .iter()
        .enumerate()
        .filter(|(_, r)| r.start <= answer.start && answer.end <= r.end)
        .map(|(i, _)| i)
        .collect();
    let whole = holding.iter().copied().min_by_key(|&c| ranking.rank[c]);
    let rank = whole.map(|c| ranking.rank[c]);
    let score = whole.map(|c| ranking.scores[c]);
    let hit = |n: usize| rank.is_some_and(|r| r <= n);
    let metrics = |n: usize| {
        let top: Vec<Range<usize>> = ranking.top(n).iter().map(|&c| ranges[c].clone()).collect();
        span_metrics(document, answer, &top)
    };
    let top = ranking.top(options.k);
    PairEvaluation {
        reciprocal_rank: reciprocal_rank(rank, options.k),
        ndcg: ndcg_at_k(top, &holding, options.k),
        hit_at_1: hit(1),
        hit_at_3: hit(3),
        hit_at_5: hit(5),
        hit_at_k: hit(options.k),
        top: top.to_vec(),
        at_1: metrics(1),
        at_3: metrics(3),
        at_5: metrics(5),
        at_k: metrics(options.k),
        query,
        holding,
        whole,
        rank,
        score,
    }
}

fn aggregate(results: &[PairEvaluation]) -> Aggregate {
    let pairs = results.len();
    let count = |f: fn(&PairEvaluation) -> bool| results.iter().filter(|p| f(p)).count();
    let mean = |f: fn(&PairEvaluation) -> f64| {
        if pairs == 0 {
            0.0
        } else {
            results.iter().map(f).sum::<f64>() / pairs as f64
        }
    };
    let hits_at_1 = count(|p| p.hit_at_1);
    let hits_at_3 = count(|p| p.hit_at_3);
    let hits_at_5 = count(|p| p.hit_at_5);
    let hits_at_k = count(|p| p.hit_at_k);
    let all = |hits: usize| pairs > 0 && hits == pairs;
    Aggregate {
        pairs,
        whole: count(|p| p.whole.is_some()),
        hits_at_1,
        hits_at_3,
        hits_at_5,
        hits_at_k,
        all_whole_in_top_1: all(hits_at_1),
        all_whole_in_top_3: all(hits_at_3),
        all_whole_in_top_5: all(hits_at_5),
        all_whole_in_top_k: all(hits_at_k),
        mean_recall: mean(|p| p.at_k.recall),
        mean_precision: mean(|p| p.at_k.precision),
        mean_iou: mean(|p| p.at_k.iou),
        mrr: mean(|p| p.reciprocal_rank),
        mean_ndcg: mean(|p| p.ndcg),
    }
}

/// The reciprocal rank at cutoff `k`: `1 / rank` when the relevant item's 1-based `rank` is at
/// most `k`, else 0 (also without a rank). The mean over the questions is MRR@k, as LlamaIndex's
/// `MRR` metric computes it on the top-k list (`llama_index.core.evaluation`, llama-index-core
/// 0.14.25; the differential test `metrics_equal_llamaindex` compares them).
pub fn reciprocal_rank(rank: Option<usize>, k: usize) -> f64 {
    match rank {
        Some(r) if r >= 1 && r <= k => 1.0 / r as f64,
        _ => 0.0,
    }
}

/// nDCG@k with binary relevance: `top` holds the retrieved items best first (only the first `k`
/// count), `relevant` the items that count as relevant (here: every chunk holding the whole
/// answer). DCG = Σ 1 / log2(i + 1) over the positions `i` (1-based) of relevant items in the top
/// k; it is divided by the ideal DCG, that of `min(|relevant|, k)` relevant items in the first
/// places (Järvelin & Kekäläinen 2002; trec_eval's `ndcg_cut`). 0 without a relevant item.
/// With overlap, several chunks can hold the whole answer: each is relevant, so a ranking that
/// puts only one of them in the top k scores below 1.
/// Equal to LlamaIndex's `NDCG` (linear mode) whenever `|relevant| ≤ k`; LlamaIndex takes the
/// ideal over every relevant item even past k, which would keep a perfect ranking below 1.
pub fn ndcg_at_k(top: &[usize], relevant: &[usize], k: usize) -> f64 {
    let gain = |i: usize| 1.0 / ((i + 1) as f64).log2();
    let dcg: f64 = top
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, c)| relevant.contains(c))
        .map(|(i, _)| gain(i + 1))
        .sum();
    let ideal: f64 = (1..=relevant.len().min(k)).map(gain).sum();
    if ideal > 0.0 {
        dcg / ideal
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::length::Length;
    use crate::strategy::{Boundary, Chunk, ChunkFlags, Keeps};
    use crate::tokenizer::Encoding;

    const DOC: &str = "cats purr. the xv40 range is wide. dogs bark. xv40 range again.";

    /// Three chunks tiling `DOC` (11, 24 and 28 characters).
    fn chunks() -> Chunks {
        let chunk = |bytes: Range<usize>| Chunk {
            tokens: bytes.len(),
            length: bytes.len(),
            bytes,
            text: None,
            token_range: None,
            heading_path: Vec::new(),
            code_info: None,
            reason: Boundary::Sentence,
            flags: ChunkFlags::default(),
        };
        Chunks {
            strategy: StrategyId::Sentence,
            chunks: vec![chunk(0..11), chunk(11..35), chunk(35..63)],
            encoding: Encoding::Cl100kBase,
            document_tokens: 63,
            budget: (30, Length::Characters),
            keeps: Keeps::Everything,
            overlap_clamped: false,
            overlap_ignored: false,
        }
    }

    #[test]
    fn a_held_answer_and_a_split_one_by_hand() {
        let pairs = [
            // "range is wide", in chunk 1.
            QaPair {
                question: "What is the range of the XV40?".into(),
                answer: 20..33,
            },
            // "wide. dogs", across chunks 1 and 2.
            QaPair {
                question: "Do dogs bark?".into(),
                answer: 29..39,
            },
        ];
        let options = EvalOptions {
            k: 2,
            ..EvalOptions::default()
        };
        let e = evaluate(DOC, &chunks(), &pairs, &options);
        assert_eq!((e.chunks, e.tokens_embedded, e.k), (3, 63, 2));

        // Pair 1. Terms of the chunks: [cats purr] [xv40 range wide] [dogs bark xv40 range
        // again]; avgdl = 10/3; n(range) = n(xv40) = 2, IDF = ln 1.6 each.
        // c1 = 2 · ln1.6 · 2.2 / (1 + 1.2·(0.25 + 0.75·3/(10/3))) = 2 · ln1.6 · 2.2 / 2.11
        // c2 = 2 · ln1.6 · 2.2 / (1 + 1.2·(0.25 + 0.75·5/(10/3))) = 2 · ln1.6 · 2.2 / 2.65
        let p = &e.pairs[0];
        assert_eq!(p.query, ["range", "xv40"]);
        assert_eq!(
            (p.holding.as_slice(), p.whole, p.rank),
            (&[1][..], Some(1), Some(1))
        );
        let ln16 = 1.6f64.ln();
        let score = p.score.expect("held");
        assert!((score - 2.0 * ln16 * 2.2 / 2.11).abs() < 1e-12);
        assert_eq!(p.top, [1, 2]);
        assert_eq!(
            (p.hit_at_1, p.hit_at_3, p.hit_at_5, p.hit_at_k),
            (true, true, true, true)
        );
        // Top 1 = chunk 1 (24 characters) holds all 13 answer characters.
        assert_eq!(
            (p.at_1.recall, p.at_1.precision, p.at_1.iou),
            (1.0, 13.0 / 24.0, 13.0 / 24.0)
        );
        // Top 2 adds chunk 2 (28 characters): Σ = 52.
        assert_eq!(
            (p.at_k.recall, p.at_k.precision, p.at_k.iou),
            (1.0, 0.25, 0.25)
        );
        assert_eq!(p.at_3.precision, 13.0 / 63.0);
        assert_eq!(p.at_5, p.at_3, "only 3 chunks");

        // Pair 2: no chunk holds "wide. dogs"; "dogs bark" is only in chunk 2, ranked first,
        // then 0 and 1 (score 0, by index).
        let p = &e.pairs[1];
        assert_eq!(p.query, ["dogs", "bark"]);
        assert!(p.holding.is_empty());
        assert_eq!((p.whole, p.rank, p.score), (None, None, None));
        assert_eq!((p.hit_at_1, p.hit_at_3, p.hit_at_5), (false, false, false));
        assert_eq!(p.top, [2, 0]);
        // Chunk 2 holds "dogs" (4 of 10): IoU = 4 / (28 + 10 − 4).
        assert_eq!(
            (p.at_1.recall, p.at_1.precision, p.at_1.iou),
            (0.4, 4.0 / 28.0, 4.0 / 34.0)
        );
        // Chunks 2 and 0: Σ = 39, IoU = 4 / (39 + 10 − 4).
        assert_eq!(p.at_k.iou, 4.0 / 45.0);
        // All three: the whole answer is retrieved, across two chunks.
        assert_eq!((p.at_3.recall, p.at_3.iou), (1.0, 10.0 / 63.0));

        let a = e.aggregate;
        assert_eq!(
            (
                a.pairs,
                a.whole,
                a.hits_at_1,
                a.hits_at_3,
                a.hits_at_5,
                a.hits_at_k
            ),
            (2, 1, 1, 1, 1, 1)
        );
        assert!(!a.all_whole_in_top_1 && !a.all_whole_in_top_3 && !a.all_whole_in_top_k);
        assert_eq!(a.mean_iou, (0.25 + 4.0 / 45.0) / 2.0);
        assert_eq!(a.mean_recall, (1.0 + 0.4) / 2.0);
        assert_eq!(a.mean_precision, (0.25 + 4.0 / 39.0) / 2.0);

        // One pair only, held at rank 1: every "all" is true.
        let one = evaluate(DOC, &chunks(), &pairs[..1], &options).aggregate;
        assert!(one.all_whole_in_top_1 && one.all_whole_in_top_3 && one.all_whole_in_top_5);
        // No pair: nothing is "all", means are 0.
        let none = evaluate(DOC, &chunks(), &[], &options).aggregate;
        assert!(!none.all_whole_in_top_3);
        assert_eq!((none.pairs, none.mean_iou), (0, 0.0));
    }

    #[test]
    fn of_several_holding_chunks_the_best_ranked_is_whole() {
        // Overlapping chunks 1 and 2 both hold "xv40 range"; the question's terms make chunk
        // 2 the better one.
        let mut c = chunks();
        c.chunks[2].bytes = 15..63;
        let pair = QaPair {
            question: "again xv40".into(),
            answer: 15..25,
        };
        let e = evaluate(DOC, &c, &[pair], &EvalOptions::default());
        let p = &e.pairs[0];
        assert_eq!(p.holding, [1, 2]);
        assert_eq!((p.whole, p.rank), (Some(2), Some(1)));
        // Top 5 = all three chunks; the answer is in two of them, counted once in I.
        assert_eq!(p.at_5.intersection_chars, 10);
        assert_eq!(p.at_5.retrieved_chars, 11 + 24 + 48);
    }

    #[test]
    fn dense_and_hybrid_rank_by_the_vectors() {
        let pairs = [QaPair {
            question: "What is the range of the XV40?".into(),
            answer: 20..33,
        }];
        let doc_terms = DocumentTerms::new(DOC, Lang::En);
        let options = EvalOptions {
            k: 2,
            ..EvalOptions::default()
        };
        // BM25 ranks 1, 2, 0 (a_held_answer_and_a_split_one_by_hand); these vectors rank
        // 0 (cosine 1), 2 (0.6), 1 (0).
        let chunk_vectors = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.6, 0.8]];
        let questions = vec![vec![2.0, 0.0]];
        let run = |retriever| {
            evaluate_dense(
                DOC,
                &doc_terms,
                &chunks(),
                &pairs,
                &options,
                Vectors {
                    retriever,
                    chunks: &chunk_vectors,
                    questions: &questions,
                },
            )
        };
        let dense = run(Retriever::Dense).unwrap();
        let p = &dense.pairs[0];
        assert_eq!(dense.retriever, Retriever::Dense);
        assert_eq!(
            (p.top.as_slice(), p.whole, p.rank),
            (&[0, 2][..], Some(1), Some(3))
        );
        assert_eq!((p.score, p.hit_at_1, p.hit_at_k), (Some(0.0), false, false));
        assert_eq!(
            p.query,
            ["range", "xv40"],
            "the BM25 terms are still reported"
        );
        // Hybrid: chunk 0 = 1/61 + 1/63, chunk 1 = 1/61 + 1/63, chunk 2 = 1/62 + 1/62: the tie
        // of 0 and 1 goes by index.
        let hybrid = run(Retriever::Hybrid).unwrap();
        let p = &hybrid.pairs[0];
        assert_eq!((p.top.as_slice(), p.rank), (&[0, 1][..], Some(2)));
        assert_eq!(p.score, Some(1.0 / 61.0 + 1.0 / 63.0));
        assert_eq!(hybrid.aggregate.mrr, 0.5);

        assert_eq!(run(Retriever::Bm25).unwrap_err(), VectorsError::NotDense);
        let short = evaluate_dense(
            DOC,
            &doc_terms,
            &chunks(),
            &pairs,
            &options,
            Vectors {
                retriever: Retriever::Dense,
                chunks: &chunk_vectors[..2],
                questions: &questions,
            },
        );
        assert_eq!(
            short.unwrap_err(),
            VectorsError::Chunks {
                expected: 3,
                found: 2
            }
        );
        let bm25 = evaluate(DOC, &chunks(), &pairs, &options);
        assert_eq!(bm25.retriever, Retriever::Bm25);
    }
}
