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
use crate::strategy::{Settings, StrategyId};
use serde::{Deserialize, Serialize};

/// The embedding model's maximum input used until a model is chosen: 8,191 tokens, OpenAI's
/// text-embedding-3-small / -large and text-embedding-ada-002 (OpenAI's embeddings guide).
pub const DEFAULT_MAX_INPUT_TOKENS: usize = 8191;

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

/// What every figure of a request depends on besides the text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// chunk_size, chunk_overlap, unit, encoding.
    pub settings: Settings,
    /// The embedding model's maximum input, in tokens (chunks over it are counted).
    pub max_input_tokens: usize,
    /// Price per 1,000,000 tokens, in the page's currency.
    pub price_per_million: f64,
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
        /// Which of the page's tables asks (0: the comparison table, 1: the A/B view, 2: the
        /// table's rows left for the user on a long text): a newer `compare` stops an older
        /// one of the same lane, and a new lane-0 table also stops lane 2.
        lane: u32,
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
}

impl Request {
    /// The job number.
    pub fn job(&self) -> u32 {
        match self {
            Request::Compare { job, .. }
            | Request::Select { job, .. }
            | Request::Rows { job, .. }
            | Request::Export { job, .. } => *job,
        }
    }
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
    },
    /// The strategy (or its library) refused.
    Refused {
        /// Why.
        refusal: Refusal,
    },
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
    /// A request could not be read, or no strategy is selected for `rows` / `export`.
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
    use crate::strategy::SizeUnit;
    use crate::tokenizer::Encoding;

    #[test]
    fn only_text_splitter_waits_and_only_on_long_texts() {
        assert!(deferred(StrategyId::TextSplitter, 2_000_001));
        assert!(!deferred(StrategyId::TextSplitter, 2_000_000));
        assert!(!deferred(StrategyId::LangchainRecursive, 10_000_000));
        assert_eq!(StrategyId::all().filter(|&s| superlinear(s)).count(), 2);
    }

    #[test]
    fn requests_read_back_as_written_with_the_pages_names() {
        let r = Request::Compare {
            job: 3,
            lane: 0,
            text_id: 1,
            strategies: vec![StrategyId::LangchainRecursive, StrategyId::TextSplitter],
            figures: Figures {
                settings: Settings {
                    chunk_size: 512,
                    chunk_overlap: 64,
                    unit: SizeUnit::Characters,
                    encoding: Encoding::O200kBase,
                },
                max_input_tokens: 8191,
                price_per_million: 0.02,
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.starts_with("{\"kind\":\"compare\",\"job\":3,\"lane\":0"),
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
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), r);
        assert_eq!(r.job(), 3);
    }
}
