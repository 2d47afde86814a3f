//! The retrieval check's data: the pairs as the user gave them, the section's fields checked,
//! the contexts ([`RetrievalSettings`], written by the section's inputs; [`RetrievalResults`],
//! written by the comparison's wiring, `crate::jobs`) and the pure state of the
//! table and the sweep, with the rules that file a worker's reply into them.

use std::rc::Rc;

use chunk_core::analysis::protocol::{Bm25Setting, RetrievalOutcome};
use chunk_core::retrieval::{
    AnswerError, Bm25Params, Bm25ParamsError, DenseModel, QaAnswer, QaLine, QaPair, Retriever,
    Sweep, SweepObjective,
};
use chunk_core::strategy::StrategyId;
use leptos::prelude::*;

use crate::parse::{parse_count, parse_decimal};
use crate::state::PageState;

/// How many top-ranked chunks count as retrieved, until the user changes it (Chroma's
/// evaluation retrieves 5 by default).
pub const DEFAULT_K: usize = 5;
/// Largest k accepted: more chunks than any prompt takes.
pub const MAX_K: u64 = 100;
/// Most pairs an import takes: the list, the "show" select and every row hold one entry per
/// pair, and 1,000 pairs already take over a second per check in the worker; a larger file is
/// refused whole (the list is kept).
pub const MAX_PAIRS: usize = 500;

/// One question/answer pair as the user gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairInput {
    /// The question.
    pub question: String,
    /// The answer: its text (located in the document) or its byte span.
    pub answer: QaAnswer,
    /// For a span marked by selecting it in the text box: the text selected, so that an edit
    /// of the document that moves it is reported instead of pointing elsewhere.
    pub marked: Option<String>,
}

/// Why a pair cannot be evaluated on the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairProblem {
    /// The question is empty (or only spaces): no word to rank the chunks by.
    NoQuestion,
    /// The answer could not be placed ([`AnswerError`]).
    Answer(AnswerError),
    /// The text was edited since the answer was marked: its span holds other text now.
    Moved,
}

impl PairProblem {
    /// The `data-problem` name: `no-question`, `moved`, or the answer error's (`empty`,
    /// `not-found`, `ambiguous`, `empty-span`, `reversed`, `out-of-range`, `not-char-boundary`).
    pub fn code(&self) -> &'static str {
        match self {
            PairProblem::NoQuestion => "no-question",
            PairProblem::Moved => "moved",
            PairProblem::Answer(e) => match e {
                AnswerError::EmptyAnswer => "empty",
                AnswerError::NotFound => "not-found",
                AnswerError::Ambiguous { .. } => "ambiguous",
                AnswerError::EmptySpan { .. } => "empty-span",
                AnswerError::Reversed { .. } => "reversed",
                AnswerError::OutOfRange { .. } => "out-of-range",
                AnswerError::NotCharBoundary { .. } => "not-char-boundary",
            },
        }
    }

    /// How many times an ambiguous answer occurs (`data-count`).
    pub fn count(&self) -> Option<usize> {
        match self {
            PairProblem::Answer(AnswerError::Ambiguous { count, .. }) => Some(*count),
            _ => None,
        }
    }
}

impl PairInput {
    /// The pair with its answer placed in `document`.
    ///
    /// # Errors
    /// [`PairProblem::NoQuestion`] for an empty question; [`PairProblem::Answer`] when the
    /// answer is missing, ambiguous or its span is bad;
    /// [`PairProblem::Moved`] when a marked span no longer holds the text marked.
    pub fn resolve(&self, document: &str) -> Result<QaPair, PairProblem> {
        if self.question.trim().is_empty() {
            return Err(PairProblem::NoQuestion);
        }
        // Whitespace alone is no answer, even where it occurs once.
        if matches!(&self.answer, QaAnswer::Text(t) if t.trim().is_empty()) {
            return Err(PairProblem::Answer(AnswerError::EmptyAnswer));
        }
        let pair = self.line().resolve(document).map_err(PairProblem::Answer)?;
        match &self.marked {
            Some(m) if document.get(pair.answer.clone()) != Some(m.as_str()) => {
                Err(PairProblem::Moved)
            }
            _ => Ok(pair),
        }
    }

    /// The pair as a JSONL line (a marked answer as its span).
    pub fn line(&self) -> QaLine {
        QaLine {
            question: self.question.clone(),
            answer: self.answer.clone(),
        }
    }
}

/// k, k1 and b, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetrievalParams {
    /// Top-k retrieved, 1 ..= [`MAX_K`].
    pub k: usize,
    /// BM25's parameters.
    pub bm25: Bm25Setting,
}

/// Which of the section's fields is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// k is not a whole number from 1 to [`MAX_K`].
    K,
    /// k1 is not a number at least 0.
    K1,
    /// b is not a number from 0 to 1.
    B,
}

/// Checks the section's three fields as typed (either decimal mark for k1 and b).
///
/// # Errors
/// The first wrong field, in the order k, k1, b.
pub fn parse_params(k: &str, k1: &str, b: &str) -> Result<RetrievalParams, ParamError> {
    let k = parse_count(k, MAX_K)
        .ok()
        .filter(|&k| k >= 1)
        .ok_or(ParamError::K)?;
    let k1 = parse_decimal(k1).map_err(|_| ParamError::K1)?;
    let b = parse_decimal(b).map_err(|_| ParamError::B)?;
    let checked = Bm25Params::new(k1, b).map_err(|e| match e {
        Bm25ParamsError::K1(_) => ParamError::K1,
        Bm25ParamsError::B(_) => ParamError::B,
    })?;
    Ok(RetrievalParams {
        k: k as usize,
        bm25: Bm25Setting {
            k1: checked.k1(),
            b: checked.b(),
        },
    })
}

/// What the table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Every pair's figures summed up, per strategy.
    All,
    /// One pair (0-based index).
    Pair(usize),
}

/// The section's inputs, written only by its own fields.
#[derive(Clone, Copy)]
pub struct RetrievalSettings {
    /// The pairs, in the order added or imported.
    pub pairs: RwSignal<Vec<PairInput>>,
    /// k, as typed.
    pub k: RwSignal<String>,
    /// BM25 k1, as typed.
    pub k1: RwSignal<String>,
    /// BM25 b, as typed.
    pub b: RwSignal<String>,
    /// What the table shows.
    pub shown: RwSignal<Shown>,
    /// The strategy swept.
    pub sweep_strategy: RwSignal<StrategyId>,
    /// What the sweep's best setting minimises.
    pub sweep_objective: RwSignal<SweepObjective>,
    /// The retriever picked (`retriever`): BM25 alone, or dense / hybrid, which also fetch and
    /// run the embedding model (`crate::embed`).
    pub retriever: RwSignal<Retriever>,
    /// The model dense and hybrid retrieval embed with (`dense-model`).
    pub dense_model: RwSignal<DenseModel>,
}

/// One row of the retrieval table.
#[derive(Clone, Debug, PartialEq)]
pub struct RetrievalRowState {
    /// The strategy.
    pub strategy: StrategyId,
    /// The retriever that ranks its chunks.
    pub retriever: Retriever,
    /// Its figures or refusal; `None` while pending.
    pub outcome: Option<RetrievalOutcome>,
    /// Worker time for the row, in milliseconds.
    pub millis: f64,
}

/// The retrieval table of one job.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RetrievalTable {
    /// The job (0: none).
    pub job: u32,
    /// One row per strategy run, in [`StrategyId::all`] order.
    pub rows: Vec<RetrievalRowState>,
    /// Strategies left out on a long text (the comparison table's deferred ones).
    pub left_out: Vec<StrategyId>,
    /// The k the rows are for.
    pub k: usize,
    /// The worker reported an error for this job (it is not retried until an input changes).
    pub failed: bool,
}

impl RetrievalTable {
    /// True once every row has arrived.
    pub fn complete(&self) -> bool {
        !self.rows.is_empty() && self.done() == self.rows.len()
    }

    /// How many rows have arrived.
    pub fn done(&self) -> usize {
        self.rows.iter().filter(|r| r.outcome.is_some()).count()
    }

    /// Strategies whose every row (one per retriever) has arrived, and strategies in all: what
    /// the status line counts (a strategy checked with three retrievers is one strategy).
    pub fn strategies_done(&self) -> (usize, usize) {
        let mut seen: Vec<(StrategyId, bool)> = Vec::new();
        for r in &self.rows {
            match seen.iter_mut().find(|(s, _)| *s == r.strategy) {
                Some((_, all)) => *all &= r.outcome.is_some(),
                None => seen.push((r.strategy, r.outcome.is_some())),
            }
        }
        (seen.iter().filter(|(_, all)| *all).count(), seen.len())
    }

    /// Files the row of `strategy` by `retriever` from job `job`; a reply to another job
    /// changes nothing. True when a row changed.
    pub fn file_row(
        &mut self,
        job: u32,
        strategy: StrategyId,
        retriever: Retriever,
        outcome: RetrievalOutcome,
        millis: f64,
    ) -> bool {
        let row = (self.job == job)
            .then(|| {
                self.rows
                    .iter_mut()
                    .find(|r| r.strategy == strategy && r.retriever == retriever)
            })
            .flatten();
        row.map(|r| {
            r.outcome = Some(outcome);
            r.millis = millis;
        })
        .is_some()
    }
}

/// The sweep of one job.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SweepState {
    /// The job (0: none asked).
    pub job: u32,
    /// Settings evaluated so far.
    pub done: usize,
    /// Settings in the grid.
    pub total: usize,
    /// The whole sweep, once it has arrived.
    pub sweep: Option<Sweep>,
    /// The worker reported an error, or failed, before the sweep was complete.
    pub failed: bool,
}

impl SweepState {
    /// True while the sweep runs: asked for, not arrived, not failed.
    pub fn running(&self) -> bool {
        self.job != 0 && self.sweep.is_none() && !self.failed
    }

    /// Files a progress report of job `job` (`done` settings of `total`) while it runs.
    /// True when it changed the state.
    pub fn file_progress(&mut self, job: u32, done: usize, total: usize) -> bool {
        let current = self.job == job && self.running();
        if current {
            self.done = done;
            self.total = total;
        }
        current
    }

    /// Files the finished sweep of job `job` while it runs. True when it changed the state.
    pub fn file_sweep(&mut self, job: u32, sweep: Sweep) -> bool {
        let current = self.job == job && self.running();
        if current {
            self.done = sweep.cells.len();
            self.sweep = Some(sweep);
        }
        current
    }
}

type Stored<F> = StoredValue<Option<Rc<F>>, LocalStorage>;

/// The worker's replies (written only by `crate::jobs`) and the memos every part
/// of the section reads.
#[derive(Clone, Copy)]
pub struct RetrievalResults {
    /// Each pair placed in the current text, or why not. A `Memo`: the list, the status and
    /// the driver read it, and it must not restart a job when an unrelated signal changes.
    pub resolved: Memo<Vec<Result<QaPair, PairProblem>>>,
    /// The section's fields, checked. A `Memo` for the same reason.
    pub params: Memo<Result<RetrievalParams, ParamError>>,
    /// The retrieval table.
    pub table: RwSignal<RetrievalTable>,
    /// The sweep.
    pub sweep: RwSignal<SweepState>,
    /// Bumped when a worker failed (trapped) while the table was incomplete: the driver tracks
    /// it and runs the table again (on the main worker when the second one is gone; the
    /// engine restarts a worker only a few times, so this cannot loop).
    pub(crate) retries: RwSignal<u32>,
    pub(crate) run_sweep: Stored<dyn Fn()>,
}

impl RetrievalResults {
    /// A worker failed (trapped and was restarted, or gave up): an incomplete table runs again,
    /// a running sweep is marked failed (the user runs it again).
    pub fn worker_failed(&self) {
        if self
            .table
            .with_untracked(|t| t.job != 0 && !t.complete() && !t.failed)
        {
            self.retries.update(|n| *n += 1);
        }
        self.sweep.maybe_update(|s| {
            let was = s.running();
            s.failed |= was;
            was
        });
    }

    /// The worker refused job `job` ([`Reply::Failed`]): the table or sweep of that job is
    /// marked failed (a refusal would repeat, so it is not retried).
    pub fn job_failed(&self, job: u32) {
        self.table.maybe_update(|t| {
            let hit = t.job == job && job != 0 && !t.complete();
            t.failed |= hit;
            hit
        });
        self.sweep.maybe_update(|s| {
            let hit = s.job == job && s.running();
            s.failed |= hit;
            hit
        });
    }

    /// Starts the sweep of the chosen strategy (a no-op while something it needs is wrong).
    pub fn run_sweep(&self) {
        if let Some(f) = self.run_sweep.get_value() {
            f();
        }
    }
}

/// Creates and provides both contexts.
pub fn provide(app: PageState) -> (RetrievalSettings, RetrievalResults) {
    let settings = RetrievalSettings {
        pairs: RwSignal::new(Vec::new()),
        k: RwSignal::new(DEFAULT_K.to_string()),
        k1: RwSignal::new("1.2".into()),
        b: RwSignal::new("0.75".into()),
        shown: RwSignal::new(Shown::All),
        sweep_strategy: RwSignal::new(StrategyId::Fixed),
        sweep_objective: RwSignal::new(SweepObjective::default()),
        retriever: RwSignal::new(Retriever::Bm25),
        dense_model: RwSignal::new(DenseModel::default()),
    };
    let results = RetrievalResults {
        resolved: Memo::new(move |_| {
            let text = app.source.text.get();
            settings
                .pairs
                .with(|ps| ps.iter().map(|p| p.resolve(&text)).collect())
        }),
        params: Memo::new(move |_| {
            parse_params(&settings.k.get(), &settings.k1.get(), &settings.b.get())
        }),
        table: RwSignal::new(RetrievalTable::default()),
        sweep: RwSignal::new(SweepState::default()),
        retries: RwSignal::new(0),
        run_sweep: StoredValue::new_local(None),
    };
    provide_context(settings);
    provide_context(results);
    (settings, results)
}

/// Every pair placed, when there is at least one and none has a problem.
pub fn ready_pairs(resolved: &[Result<QaPair, PairProblem>]) -> Option<Vec<QaPair>> {
    let pairs: Vec<QaPair> = resolved.iter().cloned().collect::<Result<_, _>>().ok()?;
    (!pairs.is_empty()).then_some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::analysis::protocol::RetrievalOutcome;
    use chunk_core::analysis::refusal::Refusal;
    use chunk_core::limit::LimitBasis;
    use chunk_core::retrieval::SweepGrid;
    use chunk_core::strategy::{SizeUnit, StrategyError};

    fn refused() -> RetrievalOutcome {
        RetrievalOutcome::Refused {
            refusal: Refusal::from(&StrategyError::Params(
                chunk_core::params::ParamsError::ZeroChunkSize,
            )),
        }
    }

    #[test]
    fn a_retrieval_row_is_filed_only_into_its_own_job() {
        let mut table = RetrievalTable {
            job: 4,
            rows: [StrategyId::Fixed, StrategyId::Semchunk]
                .into_iter()
                .flat_map(|strategy| {
                    [Retriever::Bm25, Retriever::Dense].map(|retriever| RetrievalRowState {
                        strategy,
                        retriever,
                        outcome: None,
                        millis: 0.0,
                    })
                })
                .collect(),
            left_out: Vec::new(),
            k: 5,
            failed: false,
        };
        let bm25 = Retriever::Bm25;
        assert!(!table.file_row(3, StrategyId::Fixed, bm25, refused(), 1.0));
        assert!(!table.file_row(4, StrategyId::Recursive, bm25, refused(), 1.0));
        assert!(!table.file_row(4, StrategyId::Fixed, Retriever::Hybrid, refused(), 1.0));
        assert_eq!(table.done(), 0);
        assert!(table.file_row(4, StrategyId::Fixed, Retriever::Dense, refused(), 2.5));
        assert_eq!((table.done(), table.rows[1].millis), (1, 2.5));
        assert_eq!(
            table.strategies_done(),
            (0, 2),
            "fixed still lacks its BM25 row"
        );
        assert_eq!(table.rows[0].outcome, None, "the BM25 row is another row");
        assert!(!table.complete());
        for (strategy, retriever) in [
            (StrategyId::Fixed, bm25),
            (StrategyId::Semchunk, bm25),
            (StrategyId::Semchunk, Retriever::Dense),
        ] {
            assert!(table.file_row(4, strategy, retriever, refused(), 1.0));
        }
        assert!(table.complete());
        assert_eq!(table.strategies_done(), (2, 2));
    }

    #[test]
    fn a_sweep_takes_its_own_progress_and_result_only_while_it_runs() {
        let grid = SweepGrid::standard(SizeUnit::Tokens);
        let mut state = SweepState {
            job: 9,
            done: 0,
            total: grid.len(),
            sweep: None,
            failed: false,
        };
        assert!(!state.file_progress(8, 3, grid.len()));
        assert!(state.file_progress(9, 3, grid.len()));
        assert_eq!(state.done, 3);
        let sweep = Sweep {
            strategy: StrategyId::Fixed,
            grid: grid.clone(),
            k: 5,
            cells: Vec::new(),
            max_input_tokens: usize::MAX,
            limit_basis: LimitBasis::ChunkTokens,
        };
        assert!(!state.file_sweep(8, sweep.clone()));
        assert!(state.file_sweep(9, sweep.clone()));
        assert_eq!((state.done, state.running()), (0, false));
        // Done: a late progress report or a repeated result changes nothing.
        assert!(!state.file_progress(9, 5, grid.len()));
        assert!(!state.file_sweep(9, sweep));
        let mut failed = SweepState {
            job: 2,
            failed: true,
            ..SweepState::default()
        };
        assert!(!failed.file_progress(2, 1, 4));
    }
}
