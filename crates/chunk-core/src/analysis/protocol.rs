//! The messages between the page and the comparison worker (`crates/compare-engine`), as serde
//! types both sides share: the page never runs a strategy (the text-splitter crate and its
//! Unicode data stay out of the page's own wasm), it sends requests and shows the replies.
//!
//! The document itself travels apart, once per text: `{kind: "text", text_id, bytes}` with the
//! UTF-8 bytes in a transferred `Uint8Array`. Every request names the `text_id` it is about;
//! the worker answers a request for a text it does not hold with [`Reply::NeedText`].

use crate::analysis::export::Row;
use crate::analysis::histogram::Histogram;
use crate::analysis::refusal::Refusal;
use crate::analysis::snippet::Snippet;
use crate::analysis::Summary;
use crate::models::ModelRef;
use crate::retrieval::{
    Aggregate, Bm25Params, Bm25ParamsError, DenseModel, PairEvaluation, QaPair, Retriever, Sweep,
    SweepGrid,
};
use crate::strategy::{Breakpoints, Settings, StrategyId, Structure};
use crate::tokenizer::open::OpenVocab;
use crate::Lang;
use serde::{Deserialize, Serialize};

/// Texts longer than this many bytes leave the text-splitter rows for the user to start:
/// text-splitter 0.33.1 takes time that grows faster than the text (natively, cl100k_base,
/// 512 / 64 tokens: 0.19 s at 1 MB, 0.96 s at 2 MB, 34.7 s at 10 MB), while every other
/// strategy takes under 0.3 s per MB.
pub const DEFER_SUPERLINEAR_ABOVE_BYTES: usize = 2_000_000;

/// True when `strategy`'s row waits for the user on a text of `text_bytes` bytes (see
/// [`DEFER_SUPERLINEAR_ABOVE_BYTES`]).
pub fn deferred(strategy: StrategyId, text_bytes: usize) -> bool {
    superlinear(strategy) && text_bytes > DEFER_SUPERLINEAR_ABOVE_BYTES
}

/// True for the strategies whose time grows faster than the text (the text-splitter crate's):
/// the comparison runs them last.
pub fn superlinear(strategy: StrategyId) -> bool {
    matches!(
        strategy,
        StrategyId::TextSplitter | StrategyId::TextSplitterMarkdown
    )
}

/// What every figure of a request depends on besides the text: with the text, the page's one
/// configuration (SPEC §10).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// chunk_size, chunk_overlap, unit, encoding (the tokenizer that sizes the chunks).
    pub settings: Settings,
    /// The embedding model (its id): every chunk is checked against its input limit with its
    /// own tokenizer, special tokens and required prefix
    /// ([`crate::analysis::compare::LimitCheck`]); `None`: no model, no limit.
    pub model: Option<ModelRef>,
    /// Price per 1,000,000 tokens, in the page's currency.
    pub price_per_million: f64,
    /// The product's structure options (heading prefix, fence repair), which only its
    /// markdown strategy reads ([`crate::strategy::chunker_with`]).
    #[serde(default)]
    pub structure: Structure,
    /// The model the semantic strategies embed their sentences with
    /// ([`crate::strategy::semantic`]); `None`: they are refused
    /// ([`crate::strategy::StrategyError::EmbeddingsNeeded`]), and the page lists them only
    /// with a model chosen. No other strategy reads it.
    #[serde(default)]
    pub embedder: Option<DenseModel>,
    /// The semantic strategies' thresholds ([`crate::strategy::Breakpoints`]; the libraries'
    /// defaults unless the user tries others). No other strategy reads them.
    #[serde(default)]
    pub breakpoints: Breakpoints,
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// JSON Lines ([`crate::analysis::export::to_jsonl`]).
    Jsonl,
    /// CSV ([`crate::analysis::export::to_csv`]).
    Csv,
}

/// How often a [`Request::Sweep`] reports progress: after every this many settings
/// ([`Reply::SweepProgress`]; the last setting is answered by [`Reply::Swept`] instead).
pub const SWEEP_PROGRESS_EVERY: usize = 4;

/// BM25's two parameters as the page sends them, unchecked (the worker checks them with
/// [`Bm25Params::new`] and answers [`Reply::Failed`] when out of range).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bm25Setting {
    /// Term-frequency saturation, finite and ≥ 0 (default 1.2).
    pub k1: f64,
    /// Length normalisation, in `[0, 1]` (default 0.75).
    pub b: f64,
}

impl Default for Bm25Setting {
    /// `k1 = 1.2`, `b = 0.75`.
    fn default() -> Self {
        Bm25Setting { k1: 1.2, b: 0.75 }
    }
}

impl Bm25Setting {
    /// The checked parameters.
    ///
    /// # Errors
    /// [`Bm25ParamsError`] when `k1` or `b` is out of range.
    pub fn params(self) -> Result<Bm25Params, Bm25ParamsError> {
        Bm25Params::new(self.k1, self.b)
    }
}

/// Which of the page's tables a [`Request::Compare`] fills. The comparison worker keeps the
/// newest job of each lane and stops an older one between two rows
/// ([`Lane::stops`]). On the wire: `"table"`, `"ab"`, `"rest"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lane {
    /// The comparison table.
    Table,
    /// The A/B view (one strategy at another setting).
    Ab,
    /// The table's rows left for the user to start on a long text
    /// ([`DEFER_SUPERLINEAR_ABOVE_BYTES`]).
    Rest,
}

impl Lane {
    /// Every lane, in the order of [`Lane::number`].
    pub const ALL: [Lane; 3] = [Lane::Table, Lane::Ab, Lane::Rest];

    /// The lane's number: 0 (table), 1 (A/B), 2 (rest); distinct, for keys.
    pub fn number(self) -> u32 {
        match self {
            Lane::Table => 0,
            Lane::Ab => 1,
            Lane::Rest => 2,
        }
    }

    /// True when a newer compare of lane `self` stops a running one of lane `running`: the
    /// same lane, and a new table also stops the rows the user started on the old one
    /// (`Table` stops `Rest`). Nothing else stops another lane (the A/B view runs beside the
    /// table).
    pub fn stops(self, running: Lane) -> bool {
        self == running || (self == Lane::Table && running == Lane::Rest)
    }
}

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Request {
    /// One comparison row per strategy of `strategies`, in that order, each posted as soon as
    /// it is done ([`Reply::Row`]), then [`Reply::Compared`]. A newer `compare` stops an older
    /// one between two rows.
    Compare {
        /// Job number (the page ignores replies to older jobs).
        job: u32,
        /// Which of the page's tables asks: a newer `compare` stops an older one of the same
        /// lane, and a new table also stops the rest ([`Lane::stops`]).
        lane: Lane,
        /// The text the job is about.
        text_id: u32,
        /// The strategies, in the order rows should arrive.
        strategies: Vec<StrategyId>,
        /// Settings, limit and price.
        figures: Figures,
    },
    /// Cut the text with one strategy and keep its chunks for [`Request::Rows`] and
    /// [`Request::Export`]; answered by [`Reply::Selected`].
    Select {
        /// Job number.
        job: u32,
        /// The text the job is about.
        text_id: u32,
        /// The strategy.
        strategy: StrategyId,
        /// Settings, limit and price.
        figures: Figures,
        /// Number of histogram bins wanted.
        bins: usize,
    },
    /// Rows `from..from + count` of the selected strategy's chunks ([`Reply::Rows`]).
    Rows {
        /// The job of the [`Request::Select`] whose chunks are meant.
        job: u32,
        /// First row index.
        from: usize,
        /// Number of rows wanted (fewer at the end).
        count: usize,
    },
    /// Every chunk of the selected strategy as an export file ([`Reply::Exported`]).
    Export {
        /// The job of the [`Request::Select`] whose chunks are meant.
        job: u32,
        /// The format.
        format: ExportFormat,
    },
    /// The retrieval check of each strategy of `strategies` (SPEC §8), in that order: one
    /// [`Reply::RetrievalRow`] per strategy as soon as it is done, then
    /// [`Reply::RetrievalDone`]. A newer `retrieval` stops an older one between two strategies.
    ///
    /// Answers are byte spans: the page locates a typed or pasted answer itself
    /// ([`crate::retrieval::locate_answer`], [`crate::retrieval::QaLine::resolve`]) and reports
    /// a missing or ambiguous one before sending; the worker checks every span
    /// ([`crate::retrieval::check_span`]) and answers [`Reply::Failed`] naming the first bad
    /// pair.
    Retrieval {
        /// Job number.
        job: u32,
        /// The text the job is about.
        text_id: u32,
        /// Questions and their answers' byte spans `[start, end)` in the text (UTF-8 bytes).
        pairs: Vec<QaPair>,
        /// The strategies, in the order rows should arrive.
        strategies: Vec<StrategyId>,
        /// Settings (chunk_size, chunk_overlap, unit, encoding) of every strategy; the limit
        /// and price are not used.
        figures: Figures,
        /// BM25's `k1` and `b`.
        bm25: Bm25Setting,
        /// The page's language: its stop words are removed from questions and chunks.
        lang: Lang,
        /// How many top-ranked chunks are retrieved for hit@k and the span metrics (≥ 1).
        k: usize,
        /// The retrievers each strategy is checked with, a row each, in this order (rows go
        /// strategy by strategy); BM25 alone when absent. Dense and hybrid need the chunks'
        /// and questions' embeddings: the worker asks for them (`Effect::Embed` of the
        /// comparison engine) and waits.
        #[serde(default = "bm25_only")]
        retrievers: Vec<Retriever>,
        /// The model dense and hybrid rows embed with.
        #[serde(default)]
        dense_model: DenseModel,
    },
    /// One strategy over a grid of chunk sizes × overlap percents (SPEC §8), evaluated as
    /// [`Request::Retrieval`] evaluates: [`Reply::SweepProgress`] every
    /// [`SWEEP_PROGRESS_EVERY`] settings, then [`Reply::Swept`] with the whole sweep. A newer
    /// `sweep` stops an older one between two settings.
    Sweep {
        /// Job number.
        job: u32,
        /// The text the job is about.
        text_id: u32,
        /// Questions and their answers' byte spans (as in [`Request::Retrieval`]).
        pairs: Vec<QaPair>,
        /// The strategy swept.
        strategy: StrategyId,
        /// Sizes (in the grid's unit) × overlaps in whole percents of the size; at least one
        /// setting.
        grid: SweepGrid,
        /// Its encoding measures the chunks and their cost (tokens embedded); its model's
        /// limit is what every setting's chunks are checked against (a setting the model
        /// truncates is never best); its chunk_size, chunk_overlap and unit are the grid's, not
        /// these.
        figures: Figures,
        /// BM25's `k1` and `b`.
        bm25: Bm25Setting,
        /// The page's language.
        lang: Lang,
        /// Top-k of the evaluations: the heat map's hits, mean IoU, MRR and nDCG, and the best
        /// setting's "every answer whole in the top k".
        k: usize,
        /// The retriever every setting is ranked by (BM25 when absent); dense and hybrid ask
        /// for the embeddings a setting lacks, as [`Request::Retrieval`] does.
        #[serde(default)]
        retriever: Retriever,
        /// The model dense and hybrid settings embed with.
        #[serde(default)]
        dense_model: DenseModel,
    },
    /// Stops the running sweep between two settings (the page's sweep went stale: its text,
    /// pairs or fields changed); answered by [`Reply::SweepCancelled`].
    CancelSweep {
        /// A new job number: the sweep it supersedes is dropped.
        job: u32,
    },
    /// Count text `text_id` with an open model's own tokenizer ([`OpenVocab`]), answered by
    /// [`Reply::OpenCounted`]. The worker fetches the vocabulary file first when it does
    /// not hold it yet, posting [`Reply::VocabLoading`] before; a newer `open-count` makes an
    /// older one's answer pointless (the page keeps only the newest job's).
    OpenCount {
        /// Job number.
        job: u32,
        /// The text the job is about.
        text_id: u32,
        /// The vocabulary.
        vocab: OpenVocab,
    },
}

impl Request {
    /// The job number.
    pub fn job(&self) -> u32 {
        match self {
            Request::Compare { job, .. }
            | Request::Select { job, .. }
            | Request::Rows { job, .. }
            | Request::Export { job, .. }
            | Request::Retrieval { job, .. }
            | Request::Sweep { job, .. }
            | Request::CancelSweep { job }
            | Request::OpenCount { job, .. } => *job,
        }
    }
}

/// The retrievers of a [`Request::Retrieval`] that names none: BM25 alone.
fn bm25_only() -> Vec<Retriever> {
    vec![Retriever::Bm25]
}

/// A strategy's figures, or why it refused the setting or the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// The strategy cut the text.
    Figures {
        /// The comparison row's figures.
        summary: Summary,
        /// The requested overlap was lowered below the size (the product's strategies).
        overlap_clamped: bool,
        /// The requested overlap was ignored: the library has no overlap parameter (chonkie's
        /// `RecursiveChunker`), so these chunks do not overlap.
        #[serde(default)]
        overlap_ignored: bool,
        /// What a semantic strategy embeds before it can cut ([`EmbeddingCost`]); `None` for
        /// every other strategy.
        #[serde(default)]
        embedding: Option<EmbeddingCost>,
    },
    /// The strategy (or its library) refused.
    Refused {
        /// Why.
        refusal: Refusal,
    },
}

/// What a semantic strategy's pipeline embeds to find its cuts, before it embeds the chunks:
/// every sentence window it compares, as its library calls the model
/// ([`crate::strategy::SemanticChunker::embedding_calls`], repeats included).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmbeddingCost {
    /// Texts embedded, one per call of the library (a repeated text counts each time).
    pub texts: usize,
    /// Their tokens in [`Figures::settings`]' encoding.
    pub tokens: usize,
    /// Those tokens at [`Figures::price_per_million`], in the page's currency.
    pub cost: f64,
}

/// A semantic strategy's similarity curve for the chunk view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SemanticView {
    /// The curve along the text, its threshold and its topic-shift cuts.
    pub curve: crate::strategy::curve::Curve,
    /// Byte offsets where a chunk ends at a topic shift (the curve's cut points).
    pub topic_cuts: Vec<usize>,
    /// Byte offsets where a chunk ends because of the size, not a topic shift.
    pub size_cuts: Vec<usize>,
    /// The text's length in bytes (the curve's x axis).
    pub text_bytes: usize,
}

/// The answer to a [`Request::Select`], as the page keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    /// Job number.
    pub job: u32,
    /// The strategy.
    pub strategy: StrategyId,
    /// Its figures or refusal.
    pub outcome: Outcome,
    /// The chunk-size histogram (`None` when refused).
    pub histogram: Option<Histogram>,
    /// The code that reproduces the chunks with the library (`None` for the product's own
    /// strategies and refused settings).
    pub snippet: Option<Snippet>,
    /// The library's own parameters as the strategy ran (`Chunker::parameters`): name and
    /// literal value.
    pub parameters: Vec<(String, String)>,
    /// The first [`crate::analysis::layout::LAYOUT_BYTES`] of the document cut into spans by
    /// the chunks covering them ([`crate::analysis::layout::document_spans`]); empty when
    /// refused.
    #[serde(default)]
    pub layout: Vec<crate::analysis::layout::DocSpan>,
    /// The similarity curve, for a semantic strategy that cut.
    #[serde(default)]
    pub semantic: Option<SemanticView>,
}

/// One question/answer pair's figures in a [`Reply::RetrievalRow`] (the page's
/// `retrieval-row` attributes).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RetrievalPair {
    /// Index of the best-ranked chunk holding the whole answer, or -1 when no chunk does
    /// (`data-whole`).
    pub whole: i64,
    /// Its 1-based BM25 rank among all chunks (`None` when no chunk holds the whole answer).
    pub rank: Option<usize>,
    /// `rank ≤ 1`.
    pub hit_at_1: bool,
    /// `rank ≤ 3`.
    pub hit_at_3: bool,
    /// `rank ≤ 5`.
    pub hit_at_5: bool,
    /// `rank ≤ k`.
    pub hit_at_k: bool,
    /// Character-span IoU of the top-k chunks against the answer, in `[0, 1]`.
    pub iou: f64,
    /// Character-span recall of the top k, in `[0, 1]`.
    pub recall: f64,
    /// Character-span precision of the top k, in `[0, 1]`.
    pub precision: f64,
    /// `1 / rank` when the whole answer's chunk ranks in the top k, else 0 (its MRR@k).
    pub reciprocal_rank: f64,
    /// nDCG@k, the chunks holding the whole answer relevant, in `[0, 1]`.
    pub ndcg: f64,
}

impl From<&PairEvaluation> for RetrievalPair {
    fn from(p: &PairEvaluation) -> Self {
        RetrievalPair {
            whole: p.whole.map_or(-1, |c| c as i64),
            rank: p.rank,
            hit_at_1: p.hit_at_1,
            hit_at_3: p.hit_at_3,
            hit_at_5: p.hit_at_5,
            hit_at_k: p.hit_at_k,
            iou: p.at_k.iou,
            recall: p.at_k.recall,
            precision: p.at_k.precision,
            reciprocal_rank: p.reciprocal_rank,
            ndcg: p.ndcg,
        }
    }
}

/// A strategy's retrieval check, or why it refused the setting or the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RetrievalOutcome {
    /// The strategy cut the text and every pair was evaluated
    /// ([`crate::retrieval::evaluate`]).
    Evaluated {
        /// Number of chunks.
        chunks: usize,
        /// Tokens embedded (the setting's cost).
        tokens_embedded: usize,
        /// One entry per pair, in the request's order.
        pairs: Vec<RetrievalPair>,
        /// Across the pairs.
        aggregate: Aggregate,
    },
    /// The strategy (or its library) refused.
    Refused {
        /// Why.
        refusal: Refusal,
    },
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reply {
    /// The worker runs and takes requests.
    Ready,
    /// The worker does not hold text `text_id` (it was restarted, or the text message was
    /// lost): the page sends the text again and repeats the request.
    NeedText {
        /// The job that could not run.
        job: u32,
    },
    /// One comparison row.
    Row {
        /// Job number.
        job: u32,
        /// The strategy.
        strategy: StrategyId,
        /// Its figures or refusal.
        outcome: Outcome,
        /// Wall time of this row in the worker, in milliseconds (shown, never asserted).
        millis: f64,
    },
    /// Every row of job `job` has been posted.
    Compared {
        /// Job number.
        job: u32,
    },
    /// The selected strategy's figures, histogram, snippet and parameters (boxed: the largest
    /// reply by far).
    Selected(Box<Selection>),
    /// Rows of the selected strategy's chunks.
    Rows {
        /// Job number of the selection.
        job: u32,
        /// Index of the first row.
        from: usize,
        /// Total number of chunks.
        total: usize,
        /// The rows.
        rows: Vec<Row>,
        /// Each row's chunk as the embedding model reads it (its tokenizer, special tokens and
        /// prefix: [`crate::analysis::compare::model_tokens`]), in the same order; empty
        /// without a model. Over [`Summary::max_input_tokens`] the model drops the excess.
        model_tokens: Vec<usize>,
        /// Bytes at each row's start that the chunk before it covers too, measured
        /// ([`crate::analysis::layout::shared_prefix_bytes`]), in the same order.
        shared: Vec<usize>,
    },
    /// An export file.
    Exported {
        /// Job number of the selection.
        job: u32,
        /// The format.
        format: ExportFormat,
        /// The file's text.
        text: String,
    },
    /// One strategy's retrieval check ([`Request::Retrieval`]).
    RetrievalRow {
        /// Job number.
        job: u32,
        /// The strategy.
        strategy: StrategyId,
        /// The retriever that ranked the chunks (BM25 when absent).
        #[serde(default)]
        retriever: Retriever,
        /// Its figures or refusal.
        outcome: RetrievalOutcome,
        /// Wall time of this row in the worker, in milliseconds (shown, never asserted).
        millis: f64,
    },
    /// Every row of retrieval job `job` has been posted.
    RetrievalDone {
        /// Job number.
        job: u32,
    },
    /// `done` of the `total` settings of sweep job `job` are evaluated.
    SweepProgress {
        /// Job number.
        job: u32,
        /// Settings evaluated.
        done: usize,
        /// Settings in the grid.
        total: usize,
    },
    /// The whole sweep of job `job` (boxed: every setting's figures).
    Swept {
        /// Job number.
        job: u32,
        /// Every setting and the best ([`Sweep::best`]).
        sweep: Box<Sweep>,
    },
    /// The sweep running when [`Request::CancelSweep`] `job` arrived (if any) was dropped.
    SweepCancelled {
        /// The cancel request's job number.
        job: u32,
    },
    /// The worker is fetching `vocab` for [`Request::OpenCount`] `job` (posted before the
    /// count when the worker does not hold the vocabulary yet).
    VocabLoading {
        /// Job number.
        job: u32,
        /// The vocabulary being fetched.
        vocab: OpenVocab,
    },
    /// Text `text_id` holds `tokens` tokens of `vocab`'s tokenizer, without the special
    /// tokens the model adds (the model table counts those).
    OpenCounted {
        /// Job number.
        job: u32,
        /// The vocabulary counted with.
        vocab: OpenVocab,
        /// The text counted.
        text_id: u32,
        /// Tokens.
        tokens: u64,
        /// Time the count took in the worker, in milliseconds.
        millis: f64,
    },
    /// A request could not be read or checked (BM25 parameters, an answer span, an empty
    /// grid, `k` = 0), no strategy is selected for `rows` / `export`, a sweep's setting is out
    /// of order, or a vocabulary could not be fetched or read.
    Failed {
        /// The job, when the request had one.
        job: Option<u32>,
        /// English, for the console.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{test_settings, SizeUnit};
    use crate::tokenizer::Encoding;

    #[test]
    fn only_text_splitter_waits_and_only_on_long_texts() {
        assert!(deferred(StrategyId::TextSplitter, 2_000_001));
        assert!(!deferred(StrategyId::TextSplitter, 2_000_000));
        assert!(!deferred(StrategyId::LangchainRecursive, 10_000_000));
        assert_eq!(StrategyId::all().filter(|&s| superlinear(s)).count(), 2);
    }

    #[test]
    fn a_lane_stops_itself_and_a_table_stops_the_rest() {
        use Lane::*;
        let stopped: Vec<(Lane, Lane)> = Lane::ALL
            .into_iter()
            .flat_map(|new| Lane::ALL.map(|old| (new, old)))
            .filter(|&(new, old)| new.stops(old))
            .collect();
        assert_eq!(
            stopped,
            [(Table, Table), (Table, Rest), (Ab, Ab), (Rest, Rest)]
        );
        assert_eq!(Lane::ALL.map(Lane::number), [0, 1, 2]);
        assert_eq!(serde_json::to_string(&Lane::Rest).unwrap(), "\"rest\"");
        assert_eq!(serde_json::from_str::<Lane>("\"ab\"").unwrap(), Ab);
    }

    #[test]
    fn requests_read_back_as_written_with_the_pages_names() {
        let r = Request::Compare {
            job: 3,
            lane: Lane::Table,
            text_id: 1,
            strategies: vec![StrategyId::LangchainRecursive, StrategyId::TextSplitter],
            figures: Figures {
                embedder: None,
                settings: Settings {
                    chunk_size: 512,
                    chunk_overlap: 64,
                    unit: SizeUnit::Characters,
                    encoding: Encoding::O200kBase,
                },
                model: crate::models::model("bge-small-en-v1-5").map(ModelRef),
                price_per_million: 0.02,
                structure: Default::default(),
                breakpoints: Default::default(),
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.starts_with("{\"kind\":\"compare\",\"job\":3,\"lane\":\"table\""),
            "{json}"
        );
        assert!(
            json.contains("[\"langchain-recursive\",\"text-splitter\"]"),
            "{json}"
        );
        assert!(
            json.contains("\"unit\":\"characters\",\"encoding\":\"o200k_base\""),
            "{json}"
        );
        // The model travels as its id, and an id the table does not know is refused in words.
        assert!(json.contains("\"model\":\"bge-small-en-v1-5\""), "{json}");
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), r);
        assert_eq!(r.job(), 3);
        let unknown = json.replace("bge-small-en-v1-5", "no-such-model");
        let err = serde_json::from_str::<Request>(&unknown).unwrap_err();
        assert!(err.to_string().contains("unknown embedding model"), "{err}");
    }

    fn figures() -> Figures {
        Figures {
            embedder: None,
            settings: test_settings(256, 0, SizeUnit::Tokens),
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
            breakpoints: Default::default(),
        }
    }

    #[test]
    fn retrieval_and_sweep_requests_round_trip() {
        let pairs = vec![QaPair {
            question: "What range?".into(),
            answer: 4..17,
        }];
        let r = Request::Retrieval {
            job: 9,
            text_id: 2,
            pairs: pairs.clone(),
            strategies: vec![StrategyId::Fixed, StrategyId::Sentence],
            figures: figures(),
            bm25: Bm25Setting::default(),
            lang: Lang::Vi,
            k: 5,
            retrievers: vec![Retriever::Bm25, Retriever::Dense, Retriever::Hybrid],
            dense_model: DenseModel::AllMiniLmL6V2,
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains(
                "\"retrievers\":[\"bm25\",\"dense\",\"hybrid\"],\"dense_model\":\"all-minilm-l6-v2\""
            ),
            "{json}"
        );
        // A request from before the retrievers (BM25 alone).
        let old = json.replace(
            ",\"retrievers\":[\"bm25\",\"dense\",\"hybrid\"],\"dense_model\":\"all-minilm-l6-v2\"",
            "",
        );
        match serde_json::from_str::<Request>(&old).unwrap() {
            Request::Retrieval { retrievers, .. } => assert_eq!(retrievers, [Retriever::Bm25]),
            other => panic!("{other:?}"),
        }
        assert!(
            json.starts_with("{\"kind\":\"retrieval\",\"job\":9"),
            "{json}"
        );
        assert!(
            json.contains("\"answer\":{\"start\":4,\"end\":17}"),
            "{json}"
        );
        assert!(
            json.contains("\"bm25\":{\"k1\":1.2,\"b\":0.75},\"lang\":\"vi\""),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), r);
        let s = Request::Sweep {
            job: 10,
            text_id: 2,
            pairs,
            strategy: StrategyId::LangchainRecursive,
            grid: SweepGrid::default(),
            figures: figures(),
            bm25: Bm25Setting { k1: 2.0, b: 0.0 },
            lang: Lang::En,
            k: 3,
            retriever: Retriever::Hybrid,
            dense_model: DenseModel::AllMiniLmL6V2,
        };
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.starts_with("{\"kind\":\"sweep\",\"job\":10"), "{json}");
        assert!(
            json.contains("\"overlap_percents\":[0,10,15,20,25]"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), s);
        assert_eq!((r.job(), s.job()), (9, 10));
        let c = Request::CancelSweep { job: 11 };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, "{\"kind\":\"cancel-sweep\",\"job\":11}");
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), c);
        assert_eq!(c.job(), 11);
        assert!(Bm25Setting { k1: -1.0, b: 0.5 }.params().is_err());
    }

    /// The shapes `assets/compare-worker.js` reads and writes for an open model's count.
    #[test]
    fn open_count_messages_have_the_worker_scripts_shape() {
        let r = Request::OpenCount {
            job: 4,
            text_id: 2,
            vocab: OpenVocab::BertUncased,
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            "{\"kind\":\"open-count\",\"job\":4,\"text_id\":2,\"vocab\":\"bert-uncased\"}"
        );
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), r);
        assert_eq!(r.job(), 4);
        // Posted by the script itself.
        let loading: Reply = serde_json::from_str(
            "{\"kind\":\"vocab-loading\",\"job\":4,\"vocab\":\"bert-uncased\"}",
        )
        .unwrap();
        assert_eq!(
            loading,
            Reply::VocabLoading {
                job: 4,
                vocab: OpenVocab::BertUncased
            }
        );
        let counted = Reply::OpenCounted {
            job: 4,
            vocab: OpenVocab::BertUncased,
            text_id: 2,
            tokens: 123,
            millis: 1.5,
        };
        let json = serde_json::to_string(&counted).unwrap();
        assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), counted);
    }

    #[test]
    fn retrieval_and_sweep_replies_round_trip() {
        use crate::analysis::compare::LimitCheck;
        use crate::retrieval::{evaluate, sweep, EvalOptions, SweepCheck};
        use crate::strategy::{chunker, run, Document};
        let text = "cats purr. the xv40 range is wide. dogs bark. xv40 range again.";
        let pairs = vec![QaPair {
            question: "What is the range of the XV40?".into(),
            answer: 20..33,
        }];
        let settings = test_settings(8, 2, SizeUnit::Tokens);
        let chunks = run(
            &*chunker(StrategyId::Fixed, &settings).unwrap(),
            text,
            settings.encoding,
        )
        .unwrap();
        let e = evaluate(text, &chunks, &pairs, &EvalOptions::default());
        let row = Reply::RetrievalRow {
            job: 1,
            strategy: StrategyId::Fixed,
            retriever: Retriever::Hybrid,
            outcome: RetrievalOutcome::Evaluated {
                chunks: e.chunks,
                tokens_embedded: e.tokens_embedded,
                pairs: e.pairs.iter().map(RetrievalPair::from).collect(),
                aggregate: e.aggregate,
            },
            millis: 1.5,
        };
        let json = serde_json::to_string(&row).unwrap();
        assert!(json.starts_with("{\"kind\":\"retrieval-row\""), "{json}");
        assert!(json.contains("\"retriever\":\"hybrid\""), "{json}");
        assert!(json.contains("\"outcome\":\"evaluated\""), "{json}");
        assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), row);
        let none = RetrievalPair::from(&PairEvaluation {
            whole: None,
            ..e.pairs[0].clone()
        });
        assert_eq!(none.whole, -1);
        let document = Document::new(text, Encoding::Cl100kBase);
        let grid = SweepGrid {
            sizes: vec![8, 16],
            overlap_percents: vec![0, 25],
            unit: SizeUnit::Tokens,
        };
        let swept = Reply::Swept {
            job: 2,
            sweep: Box::new(sweep(
                &document,
                StrategyId::Fixed,
                &grid,
                &SweepCheck {
                    pairs: &pairs,
                    options: &EvalOptions::default(),
                    limit: &LimitCheck::within(40),
                },
            )),
        };
        let json = serde_json::to_string(&swept).unwrap();
        assert!(json.starts_with("{\"kind\":\"swept\",\"job\":2"), "{json}");
        assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), swept);
        for r in [
            Reply::RetrievalDone { job: 3 },
            Reply::SweepCancelled { job: 4 },
            Reply::SweepProgress {
                job: 3,
                done: 4,
                total: 60,
            },
        ] {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), r);
        }
    }
}
