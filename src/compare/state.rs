//! The comparison's pure state: the rows of a job, the chosen strategy's chunks, the A/B view's
//! B side, where the workers are, and what the results card shows. Each type files the worker's
//! replies to its own job with methods of its own, natively tested; the wiring
//! (`crate::jobs`) only moves them into signals.

use chunk_core::analysis::export::Row;
use chunk_core::analysis::protocol::{Figures, Outcome};
use chunk_core::analysis::refusal::Refusal;
use chunk_core::analysis::Summary;
use chunk_core::strategy::{Settings, StrategyId};

/// Chunks asked for at first and per "show more".
pub const ROWS_PAGE: usize = 20;
/// Histogram bins asked for.
pub const HISTOGRAM_BINS: usize = 24;

/// The B side of the A/B view.
#[derive(Clone, Debug, PartialEq)]
pub struct AbSide {
    /// B's strategy.
    pub strategy: StrategyId,
    /// B's chunk_size, as typed.
    pub chunk_size: String,
    /// B's chunk_overlap, as typed.
    pub chunk_overlap: String,
}

/// Where the worker is.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineStatus {
    /// Not started yet, or fetching and compiling its module.
    Loading,
    /// Running.
    Ready,
    /// No worker in this browser, or it failed (English detail for the console and notice).
    Failed(String),
}

/// One row of the table: filled when the worker's reply arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct RowState {
    /// The strategy.
    pub strategy: StrategyId,
    /// Its figures or refusal; `None` while pending.
    pub outcome: Option<Outcome>,
    /// Worker time for the row, in milliseconds.
    pub millis: f64,
    /// The row waits for the user (a strategy whose time grows faster than the text, on a
    /// long text: [`chunk_core::analysis::protocol::deferred`]).
    pub deferred: bool,
    /// How many replies have filled the row in its job ([`Table::file_row`]): with the job and
    /// the strategy, what the table's view keys the row by.
    pub filed: u32,
}

/// The comparison table of one job.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Table {
    /// The job the rows belong to (0: none yet).
    pub job: u32,
    /// One row per strategy, in [`StrategyId::all`] order.
    pub rows: Vec<RowState>,
    /// The settings the rows are for.
    pub figures: Option<Figures>,
    /// Whether the price field gave a price (else cost is not shown).
    pub priced: bool,
    /// The text the rows are of (for the deferred rows' job).
    pub text_id: u32,
    /// The job running the deferred rows, once the user started them (0: not started).
    pub deferred_job: u32,
}

impl Table {
    /// True once every row asked for has arrived (deferred ones are not asked for); rows come
    /// from two workers, so this follows the rows themselves.
    pub fn complete(&self) -> bool {
        !self.rows.is_empty() && self.rows.iter().all(|r| r.outcome.is_some() || r.deferred)
    }

    /// Files the row of `strategy` from job `job` (the table's own job, or its deferred rows'
    /// job once started); a reply to any other job changes nothing. True when a row changed.
    pub fn file_row(
        &mut self,
        job: u32,
        strategy: StrategyId,
        outcome: Outcome,
        millis: f64,
    ) -> bool {
        if job == 0 || (self.job != job && self.deferred_job != job) {
            return false;
        }
        let Some(row) = self.rows.iter_mut().find(|r| r.strategy == strategy) else {
            return false;
        };
        row.outcome = Some(outcome);
        row.millis = millis;
        row.filed += 1;
        true
    }

    /// The strategies of a new job on a text of `text_bytes` bytes, in the order they run:
    /// strategies whose time grows faster than the text last, deferred ones left out, and the
    /// semantic ones at the end when they run (`semantic`: a model is chosen for them).
    pub fn run_order(text_bytes: usize, semantic: bool) -> Vec<StrategyId> {
        use chunk_core::analysis::protocol::{deferred, superlinear};
        let mut order: Vec<StrategyId> = StrategyId::all()
            .filter(|&s| !deferred(s, text_bytes))
            .collect();
        order.sort_by_key(|&s| superlinear(s));
        if semantic {
            order.extend(StrategyId::semantic());
        }
        order
    }

    /// Every strategy a table lists: [`StrategyId::all`], then the semantic ones when a model
    /// is chosen for them.
    pub fn listed(semantic: bool) -> Vec<StrategyId> {
        StrategyId::all()
            .chain(StrategyId::semantic().filter(|_| semantic))
            .collect()
    }
}

/// The chosen strategy's chunks received so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ChunkPage {
    /// The selection job they belong to.
    pub job: u32,
    /// Total number of chunks.
    pub total: usize,
    /// Rows `0..rows.len()`.
    pub rows: Vec<Row>,
    /// Each row's chunk as the embedding model reads it, in tokens (its own tokenizer, special
    /// tokens and prefix: `chunk_core::analysis::compare::model_tokens`); empty without a
    /// model. Over the selection's `Summary::max_input_tokens`, the model drops the excess.
    pub model_tokens: Vec<usize>,
    /// Bytes at each row's start that the chunk before it covers too, measured
    /// (`chunk_core::analysis::layout::shared_prefix_bytes`).
    pub shared: Vec<usize>,
}

impl ChunkPage {
    /// Appends rows `from..from + rows.len()` of job `job`, with their model tokens and shared
    /// prefixes, when they are of this page's job and continue it (a late or repeated reply
    /// changes nothing). True when rows were added.
    pub fn file_rows(
        &mut self,
        job: u32,
        from: usize,
        total: usize,
        rows: Vec<Row>,
        model_tokens: Vec<usize>,
        shared: Vec<usize>,
    ) -> bool {
        if self.job != job || from != self.rows.len() {
            return false;
        }
        self.total = total;
        self.rows.extend(rows);
        self.model_tokens.extend(model_tokens);
        self.shared.extend(shared);
        true
    }

    /// The next page of rows to ask for, `(from, count)`: `None` before a selection or once
    /// every row is here.
    pub fn next_rows(&self) -> Option<(usize, usize)> {
        (self.job != 0 && self.rows.len() < self.total).then_some((self.rows.len(), ROWS_PAGE))
    }
}

/// What the results card and the model panel show for the page's one configuration (SPEC §10),
/// from what the driver received.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// No text: the formula for fixed token windows (SPEC §2).
    Formula,
    /// The chosen strategy's real chunks of the text (fixed token windows too: their tokens
    /// embedded are each window's text counted again, as the embedding API counts what it is
    /// sent, which differs from the formula's window sizes where a window cuts a character).
    Strategy {
        /// The strategy.
        strategy: StrategyId,
        /// Its figures, `None` until they arrive.
        summary: Option<Summary>,
    },
    /// The chosen strategy refused the settings or the text.
    Refused {
        /// The strategy.
        strategy: StrategyId,
        /// Why.
        refusal: Refusal,
    },
}

impl Shown {
    /// The worker's figures of the chosen strategy, when they have arrived.
    pub fn summary(&self) -> Option<&Summary> {
        match self {
            Shown::Strategy { summary, .. } => summary.as_ref(),
            Shown::Formula | Shown::Refused { .. } => None,
        }
    }
}

/// B's figures: A's with B's size and overlap, when both parse as whole numbers ≥ 0 (size ≥ 1).
pub fn b_figures(a: &Figures, side: &AbSide) -> Option<Figures> {
    let size: usize = side.chunk_size.trim().parse().ok().filter(|&s| s >= 1)?;
    let overlap: usize = side.chunk_overlap.trim().parse().ok()?;
    Some(Figures {
        settings: Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            ..a.settings
        },
        ..*a
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::strategy::{SizeUnit, StrategyError};
    use chunk_core::tokenizer::Encoding;

    #[test]
    fn b_takes_as_settings_and_its_own_whole_sizes() {
        let a = Figures {
            embedder: None,
            settings: Settings {
                chunk_size: 512,
                chunk_overlap: 64,
                unit: SizeUnit::Characters,
                encoding: Encoding::O200kBase,
            },
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
            breakpoints: Default::default(),
        };
        let side = |s: &str, o: &str| AbSide {
            strategy: StrategyId::Fixed,
            chunk_size: s.into(),
            chunk_overlap: o.into(),
        };
        let b = b_figures(&a, &side(" 1024 ", "128")).expect("whole numbers");
        assert_eq!(
            (b.settings.chunk_size, b.settings.chunk_overlap),
            (1024, 128)
        );
        assert_eq!(b.settings.unit, SizeUnit::Characters);
        assert_eq!(b.settings.encoding, Encoding::O200kBase);
        assert_eq!(b_figures(&a, &side("0", "0")), None);
        assert_eq!(b_figures(&a, &side("12.5", "0")), None);
        assert_eq!(b_figures(&a, &side("100", "-1")), None);
    }

    #[test]
    fn a_table_is_complete_when_every_row_asked_for_has_arrived() {
        let row = |strategy, outcome: Option<Outcome>, deferred| RowState {
            strategy,
            outcome,
            millis: 0.0,
            deferred,
            filed: 0,
        };
        let refused = Some(Outcome::Refused {
            refusal: Refusal::from(&StrategyError::Params(
                chunk_core::params::ParamsError::ZeroChunkSize,
            )),
        });
        let mut t = Table {
            rows: vec![
                row(StrategyId::Fixed, refused.clone(), false),
                row(StrategyId::TextSplitter, None, true),
                row(StrategyId::Semchunk, None, false),
            ],
            ..Table::default()
        };
        assert!(!t.complete());
        t.rows[2].outcome = refused;
        assert!(t.complete());
        assert!(!Table::default().complete());
    }

    #[test]
    fn text_splitter_runs_last_and_waits_on_long_texts() {
        let short = Table::run_order(1_000_000, false);
        assert_eq!(short.len(), 17);
        assert_eq!(
            &short[15..],
            [StrategyId::TextSplitter, StrategyId::TextSplitterMarkdown]
        );
        let long = Table::run_order(10_000_000, false);
        assert_eq!(long.len(), 15);
        assert!(!long.contains(&StrategyId::TextSplitter));
    }
}
