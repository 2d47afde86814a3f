//! The retrieval check (SPEC §8): does the chunk that answers a question hold all of the
//! answer, and would a lexical retriever find it?
//!
//! - [`terms`](mod@terms): the words BM25 sees (lower-cased Unicode words, stop words of the page's
//!   language removed; the rule is stated there, word for word as the page states it);
//! - [`bm25`]: Okapi BM25 (k1 = 1.2, b = 0.75 unless set) over a strategy's chunks, a score
//!   per chunk and the ranking;
//! - [`dense`]: the ranking by the cosine of embeddings, and hybrid (reciprocal rank fusion of
//!   BM25 and dense, k = 60);
//! - [`document_terms`]: a document's terms found once, so that indexing any chunking of it is
//!   fast (and equal to splitting every chunk);
//! - [`answer`]: the answer's byte span, located from its text or checked when given;
//! - [`span`]: character-span recall, precision and IoU of the top-k chunks, with the
//!   definitions of Chroma's chunking evaluation (overlap counted twice);
//! - [`evaluate`](mod@evaluate): all of it for one strategy's chunks and a list of
//!   question/answer pairs;
//! - [`sweep`](mod@sweep): one strategy over a grid of sizes × overlaps, the cheapest setting
//!   (in tokens or in vectors) that keeps every answer whole in the top k and that the model
//!   reads whole;
//! - [`qa_jsonl`]: question/answer pairs as JSON Lines; [`qa_csv`]: as CSV (also Chroma's
//!   `references` column), and [`parse_qa`], which reads either.
//!
//! Units: spans are UTF-8 byte offsets `[start, end)` into the document; the span metrics
//! count characters (Unicode scalar values); costs are tokens of the document's encoding.
//!
//! Lexical on purpose: a vector retriever blurs a keyword match, but neither can return a fact
//! that the cut left out of the chunk, which is what "whole" checks.

pub mod answer;
pub mod bm25;
pub mod dense;
pub mod document_terms;
pub mod evaluate;
pub mod qa_csv;
pub mod qa_jsonl;
pub mod span;
pub mod sweep;
pub mod terms;

pub use answer::{check_span, locate_answer, AnswerError};
pub use bm25::{Bm25Index, Bm25Params, Bm25ParamsError, Ranking};
pub use dense::{cosine_ranking, reciprocal_rank_fusion, DenseModel, Retriever, RRF_K};
pub use document_terms::DocumentTerms;
pub use evaluate::{
    evaluate, evaluate_dense, evaluate_prepared, ndcg_at_k, reciprocal_rank, Aggregate,
    EvalOptions, Evaluation, PairEvaluation, QaPair, Vectors, VectorsError,
};
pub use qa_csv::{parse_qa, parse_qa_csv};
pub use qa_jsonl::{
    parse_qa_jsonl, question_too_long, write_qa_jsonl, QaAnswer, QaJsonlError, QaLine,
    MAX_QUESTION_CHARS,
};
pub use span::{char_len, span_metrics, SpanMetrics};
pub use sweep::{
    best_setting, overlap_for, CellFigures, CellOutcome, Sweep, SweepCell, SweepCheck, SweepGrid,
    SweepObjective,
};
#[cfg(feature = "strategies")]
pub use sweep::{
    sweep, sweep_cell, sweep_cell_chunks, sweep_cell_dense, sweep_with_progress, SweepVectors,
};
pub use terms::{term_spans, terms, TermSpan};
