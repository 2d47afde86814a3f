//! The comparison's scheduling as pure state transitions (sans-io, like
//! `crate::tokenize::schedule`): which worker a request goes to, job and text numbers, when
//! the workers count as ready, which strategies wait for the user on a long text, and which
//! lane a table's rows run in. [`Schedule`] performs no effect: each transition returns the
//! state the page should show and a [`Dispatch`] (the text to make current, the requests to
//! post), which `crate::jobs` carries out with the workers and signals. Every rule
//! here has a native test below.
//!
//! Two workers run the comparison engine. The main one takes every request; the side one takes
//! the strategies whose time grows faster than the text ([`superlinear`]: the text-splitter
//! crate's), the rows the user starts on a long text, and the sweeps, so that on two cores they
//! run beside the others instead of after them. Until the side worker runs (or when it failed
//! for good), its requests go to the main one.

use std::sync::Arc;

use chunk_core::analysis::protocol::{
    deferred, superlinear, Bm25Setting, ExportFormat, Figures, Lane, Request,
};
use chunk_core::retrieval::{DenseModel, QaPair, Retriever, SweepGrid};
use chunk_core::strategy::StrategyId;
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::Lang;

use crate::compare::state::{ChunkPage, EngineStatus, RowState, Table, HISTOGRAM_BINS, ROWS_PAGE};
use crate::retrieval::state::{RetrievalRowState, RetrievalTable, SweepState};
use crate::state::model::{OpenCount, OpenStatus};

/// One of the two comparison workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worker {
    /// The first worker: every request, and all of them while the side worker is not running.
    Main,
    /// The second worker: superlinear rows, deferred rows and sweeps.
    Side,
}

/// A request for one worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    /// The worker.
    pub to: Worker,
    /// The request.
    pub request: Request,
}

/// The text a job is about, with its number (every worker is to hold it before the job's
/// requests: the engine handle sends it once per worker).
#[derive(Clone, Debug)]
pub struct HeldText {
    /// The text's number, new whenever the text (an `Arc`) is another one.
    pub id: u32,
    /// The text.
    pub text: Arc<str>,
}

impl PartialEq for HeldText {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && Arc::ptr_eq(&self.text, &other.text)
    }
}

/// What a transition asks the wiring to do, in order: make `text` current in both workers,
/// then post `posts`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dispatch {
    /// The text to make current first, when the job is about one.
    pub text: Option<HeldText>,
    /// The requests, in the order they are to be posted.
    pub posts: Vec<Post>,
}

/// What a worker reported about itself.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerEvent {
    /// It started, or restarted after a trap, and takes requests.
    Ready,
    /// It could not start, or failed (it is restarted where possible). English, for the
    /// console.
    Failed(String),
}

/// What the wiring does after a [`WorkerEvent`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settled {
    /// The status to show, when it changed.
    pub status: Option<EngineStatus>,
    /// Start the side worker now (once, after the main one first runs, with its compiled
    /// module: the engine is fetched once, not by both at the same time).
    pub start_side: bool,
    /// A worker failed: an incomplete retrieval table runs again, a running sweep is marked
    /// failed (`RetrievalResults::worker_failed`).
    pub worker_failed: bool,
}

/// Where the side worker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Not asked to start yet.
    NotStarted,
    /// Starting (fetching nothing: it gets the main worker's module).
    Starting,
    /// Running.
    Running,
    /// It could not start, or failed: the main worker takes its requests.
    Gone,
}

/// The comparison's scheduler. See the module's doc.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The last job number given (job numbers are ≥ 1; 0 means "none").
    jobs: u32,
    /// The text the workers hold and its number.
    text: Option<(Arc<str>, u32)>,
    main_ready: bool,
    side: Side,
    status: EngineStatus,
    /// The A/B view's current job (0: none).
    ab_job: u32,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            jobs: 0,
            text: None,
            main_ready: false,
            side: Side::NotStarted,
            status: EngineStatus::Loading,
            ab_job: 0,
        }
    }
}

impl Schedule {
    /// A scheduler before any worker started.
    pub fn new() -> Self {
        Self::default()
    }

    /// The status the page shows.
    pub fn status(&self) -> &EngineStatus {
        &self.status
    }

    /// Whether the engine takes jobs (both workers have settled, and the main one runs).
    pub fn ready(&self) -> bool {
        self.status == EngineStatus::Ready
    }

    /// A new job number (≥ 1, wrapping past `u32::MAX` to 1).
    fn next_job(&mut self) -> u32 {
        self.jobs = self.jobs.wrapping_add(1).max(1);
        self.jobs
    }

    /// The posts of a job over `order`: the strategies whose time grows faster than the text
    /// ([`superlinear`]) to the side worker, the others to the main one (always posted, even
    /// empty: the main worker answers every job). `request` makes a job's request for a list
    /// of strategies.
    fn split(
        &self,
        order: Vec<StrategyId>,
        request: impl Fn(Vec<StrategyId>) -> Request,
    ) -> Vec<Post> {
        let (slow, fast): (Vec<StrategyId>, Vec<StrategyId>) =
            order.into_iter().partition(|&s| superlinear(s));
        let mut posts = vec![Post {
            to: Worker::Main,
            request: request(fast),
        }];
        if !slow.is_empty() {
            posts.push(Post {
                to: self.side_or_main(),
                request: request(slow),
            });
        }
        posts
    }

    /// The worker for the side's requests: the side one while it runs, else the main one.
    fn side_or_main(&self) -> Worker {
        if self.side == Side::Running {
            Worker::Side
        } else {
            Worker::Main
        }
    }

    /// Makes `text` the workers' text: its number is kept while it is the same `Arc`.
    fn hold(&mut self, text: &Arc<str>) -> HeldText {
        let id = match &self.text {
            Some((t, id)) if Arc::ptr_eq(t, text) => *id,
            Some((_, id)) => id.wrapping_add(1),
            None => 1,
        };
        self.text = Some((text.clone(), id));
        HeldText {
            id,
            text: text.clone(),
        }
    }

    /// The status after a change of the workers: ready once the main worker runs and the side
    /// one has settled (running or gone), so that every fetch happens before; a failure of
    /// the main worker stays shown (the user reloads).
    fn settle(&mut self) -> Option<EngineStatus> {
        let settled = self.main_ready && matches!(self.side, Side::Running | Side::Gone);
        if settled && !matches!(self.status, EngineStatus::Failed(_) | EngineStatus::Ready) {
            self.status = EngineStatus::Ready;
            return Some(EngineStatus::Ready);
        }
        None
    }

    /// A worker reported `event`.
    pub fn on_worker(&mut self, worker: Worker, event: WorkerEvent) -> Settled {
        match (worker, event) {
            (Worker::Main, WorkerEvent::Ready) => {
                self.main_ready = true;
                let start_side = self.side == Side::NotStarted;
                if start_side {
                    self.side = Side::Starting;
                }
                Settled {
                    status: self.settle(),
                    start_side,
                    worker_failed: false,
                }
            }
            (Worker::Main, WorkerEvent::Failed(message)) => {
                let status = EngineStatus::Failed(message);
                self.status = status.clone();
                Settled {
                    status: Some(status),
                    start_side: false,
                    worker_failed: true,
                }
            }
            (Worker::Side, WorkerEvent::Ready) => {
                self.side = Side::Running;
                Settled {
                    status: self.settle(),
                    ..Settled::default()
                }
            }
            (Worker::Side, WorkerEvent::Failed(_)) => {
                // The main worker takes its requests from now on.
                self.side = Side::Gone;
                Settled {
                    status: self.settle(),
                    start_side: false,
                    worker_failed: true,
                }
            }
        }
    }

    /// The comparison table's job for `text` under `figures`: the table to show (every
    /// strategy, the ones that wait for the user on a long text marked deferred) and the
    /// requests. The superlinear rows go to the side worker.
    pub fn table(&mut self, text: &Arc<str>, figures: Figures, priced: bool) -> (Table, Dispatch) {
        let held = self.hold(text);
        let job = self.next_job();
        let semantic = figures.embedder.is_some();
        let order = Table::run_order(text.len(), semantic);
        let table = Table {
            job,
            rows: Table::listed(semantic)
                .into_iter()
                .map(|s| RowState {
                    strategy: s,
                    outcome: None,
                    millis: 0.0,
                    deferred: !order.contains(&s),
                    filed: 0,
                })
                .collect(),
            figures: Some(figures),
            priced,
            text_id: held.id,
            deferred_job: 0,
        };
        let posts = self.split(order, |strategies| Request::Compare {
            job,
            lane: Lane::Table,
            text_id: held.id,
            strategies,
            figures,
        });
        (
            table,
            Dispatch {
                text: Some(held),
                posts,
            },
        )
    }

    /// The rows `table` left for the user, started: the deferred job's number and its
    /// request (`None` when none waits, they were started already, or there is no table).
    pub fn run_deferred(&mut self, table: &Table) -> Option<(u32, Dispatch)> {
        let waiting: Vec<StrategyId> = table
            .rows
            .iter()
            .filter(|r| r.deferred && r.outcome.is_none())
            .map(|r| r.strategy)
            .collect();
        let figures = table.figures?;
        if waiting.is_empty() || table.deferred_job != 0 {
            return None;
        }
        let job = self.next_job();
        let request = Request::Compare {
            job,
            lane: Lane::Rest,
            text_id: table.text_id,
            strategies: waiting,
            figures,
        };
        let posts = vec![Post {
            to: self.side_or_main(),
            request,
        }];
        Some((job, Dispatch { text: None, posts }))
    }

    /// The chosen strategy's selection: its (empty) chunk page and the requests for its
    /// figures and first [`ROWS_PAGE`] rows.
    pub fn selection(
        &mut self,
        text: &Arc<str>,
        figures: Figures,
        strategy: StrategyId,
    ) -> (ChunkPage, Dispatch) {
        let held = self.hold(text);
        let job = self.next_job();
        let page = ChunkPage {
            job,
            ..ChunkPage::default()
        };
        let posts = vec![
            Post {
                to: Worker::Main,
                request: Request::Select {
                    job,
                    text_id: held.id,
                    strategy,
                    figures,
                    bins: HISTOGRAM_BINS,
                },
            },
            Post {
                to: Worker::Main,
                request: Request::Rows {
                    job,
                    from: 0,
                    count: ROWS_PAGE,
                },
            },
        ];
        (
            page,
            Dispatch {
                text: Some(held),
                posts,
            },
        )
    }

    /// The next rows of `page` (`None` when every row is here).
    pub fn more_rows(&self, page: &ChunkPage) -> Option<Dispatch> {
        let (from, count) = page.next_rows()?;
        Some(Dispatch {
            text: None,
            posts: vec![Post {
                to: Worker::Main,
                request: Request::Rows {
                    job: page.job,
                    from,
                    count,
                },
            }],
        })
    }

    /// An export of selection job `job` in `format`.
    pub fn export(&self, job: u32, format: ExportFormat) -> Dispatch {
        Dispatch {
            text: None,
            posts: vec![Post {
                to: Worker::Main,
                request: Request::Export { job, format },
            }],
        }
    }

    /// The A/B view's B row: `strategy` under B's figures. Its job becomes the A/B job.
    pub fn ab(&mut self, text: &Arc<str>, strategy: StrategyId, b: Figures) -> Dispatch {
        let held = self.hold(text);
        let job = self.next_job();
        self.ab_job = job;
        let request = Request::Compare {
            job,
            lane: Lane::Ab,
            text_id: held.id,
            strategies: vec![strategy],
            figures: b,
        };
        Dispatch {
            text: Some(held),
            posts: vec![Post {
                to: Worker::Main,
                request,
            }],
        }
    }

    /// The A/B row is stale (an input changed): its late replies are dropped.
    pub fn clear_ab(&mut self) {
        self.ab_job = 0;
    }

    /// Whether a row of job `job` is the A/B view's (else it is the table's).
    pub fn is_ab(&self, job: u32) -> bool {
        job != 0 && job == self.ab_job
    }

    /// The chosen open model's count of `text` with `vocab`: the count's pending state and
    /// its request.
    pub fn open_count(&mut self, text: &Arc<str>, vocab: OpenVocab) -> (OpenCount, Dispatch) {
        let held = self.hold(text);
        let job = self.next_job();
        let count = OpenCount {
            job,
            vocab,
            status: OpenStatus::Pending,
        };
        let request = Request::OpenCount {
            job,
            text_id: held.id,
            vocab,
        };
        let posts = vec![Post {
            to: Worker::Main,
            request,
        }];
        (
            count,
            Dispatch {
                text: Some(held),
                posts,
            },
        )
    }

    /// The retrieval table's job: one row per strategy the comparison table runs (the ones
    /// it defers on a long text are left out) and retriever ([`retrievers_for`] `retriever`),
    /// the superlinear strategies on the side worker.
    #[allow(clippy::too_many_arguments)]
    pub fn retrieval(
        &mut self,
        text: &Arc<str>,
        figures: Figures,
        pairs: Vec<QaPair>,
        k: usize,
        bm25: Bm25Setting,
        lang: Lang,
        retriever: Retriever,
        dense_model: DenseModel,
    ) -> (RetrievalTable, Dispatch) {
        let retrievers = retrievers_for(retriever);
        let semantic = figures.embedder.is_some();
        let order = Table::run_order(text.len(), semantic);
        let held = self.hold(text);
        let job = self.next_job();
        let table = RetrievalTable {
            job,
            rows: Table::listed(semantic)
                .into_iter()
                .filter(|s| order.contains(s))
                .flat_map(|strategy| {
                    retrievers.iter().map(move |&retriever| RetrievalRowState {
                        strategy,
                        retriever,
                        outcome: None,
                        millis: 0.0,
                    })
                })
                .collect(),
            left_out: Table::listed(semantic)
                .into_iter()
                .filter(|s| !order.contains(s))
                .collect(),
            k,
            failed: false,
        };
        let posts = self.split(order, |strategies| Request::Retrieval {
            job,
            text_id: held.id,
            pairs: pairs.clone(),
            strategies,
            figures,
            bm25,
            lang,
            k,
            retrievers: retrievers.clone(),
            dense_model,
        });
        (
            table,
            Dispatch {
                text: Some(held),
                posts,
            },
        )
    }

    /// A sweep of `strategy` over `grid`: its running state and its request, for the side
    /// worker (it holds only the superlinear rows, so the sweep does not wait behind the
    /// comparison table). `None` for a strategy the table leaves for the user on this text
    /// ([`deferred`]: a sweep runs it once per setting), or before the engine is ready.
    #[allow(clippy::too_many_arguments)]
    pub fn sweep(
        &mut self,
        text: &Arc<str>,
        pairs: Vec<QaPair>,
        strategy: StrategyId,
        grid: SweepGrid,
        figures: Figures,
        k: usize,
        bm25: Bm25Setting,
        lang: Lang,
        retriever: Retriever,
        dense_model: DenseModel,
    ) -> Option<(SweepState, Dispatch)> {
        if !self.ready() || deferred(strategy, text.len()) {
            return None;
        }
        let held = self.hold(text);
        let job = self.next_job();
        let state = SweepState {
            job,
            done: 0,
            total: grid.len(),
            sweep: None,
            failed: false,
        };
        let request = Request::Sweep {
            job,
            text_id: held.id,
            pairs,
            strategy,
            grid,
            figures,
            bm25,
            lang,
            k,
            retriever,
            dense_model,
        };
        let posts = vec![Post {
            to: self.side_or_main(),
            request,
        }];
        Some((
            state,
            Dispatch {
                text: Some(held),
                posts,
            },
        ))
    }

    /// A sweep became stale: stop `sweep` while it runs (it keeps its worker busy to its end,
    /// a minute on 10 MB, so it is stopped, not only forgotten); `None` when it is not running.
    pub fn cancel_sweep(&mut self, sweep: &SweepState) -> Option<Dispatch> {
        if !sweep.running() {
            return None;
        }
        let job = self.next_job();
        Some(Dispatch {
            text: None,
            posts: vec![Post {
                to: self.side_or_main(),
                request: Request::CancelSweep { job },
            }],
        })
    }
}

/// The retrievers the table checks when the user picks `retriever`: BM25 alone (nothing to
/// embed), or all three once the embeddings are there (BM25 costs nothing more, and hybrid
/// fuses the two rankings already made), so that the rows compare them.
pub fn retrievers_for(retriever: Retriever) -> Vec<Retriever> {
    match retriever {
        Retriever::Bm25 => vec![Retriever::Bm25],
        Retriever::Dense | Retriever::Hybrid => {
            vec![Retriever::Bm25, Retriever::Dense, Retriever::Hybrid]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::analysis::protocol::{deferred, Outcome};
    use chunk_core::strategy::{Settings, SizeUnit};
    use chunk_core::tokenizer::Encoding;

    fn figures() -> Figures {
        Figures {
            embedder: None,
            settings: Settings {
                chunk_size: 512,
                chunk_overlap: 64,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            },
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
            breakpoints: Default::default(),
        }
    }

    /// A scheduler whose two workers both run.
    fn running() -> Schedule {
        let mut s = Schedule::new();
        let first = s.on_worker(Worker::Main, WorkerEvent::Ready);
        assert!(first.start_side);
        assert_eq!(
            first.status, None,
            "not ready before the side worker settles"
        );
        let second = s.on_worker(Worker::Side, WorkerEvent::Ready);
        assert_eq!(second.status, Some(EngineStatus::Ready));
        s
    }

    fn compare_parts(post: &Post) -> (Worker, u32, Lane, Vec<StrategyId>) {
        match &post.request {
            Request::Compare {
                job,
                lane,
                strategies,
                ..
            } => (post.to, *job, *lane, strategies.clone()),
            other => panic!("not a compare: {other:?}"),
        }
    }

    #[test]
    fn ready_only_once_both_workers_settled_and_the_side_starts_once() {
        let mut s = Schedule::new();
        assert_eq!(s.status(), &EngineStatus::Loading);
        let main = s.on_worker(Worker::Main, WorkerEvent::Ready);
        assert_eq!((main.status, main.start_side), (None, true));
        // A main worker restarted after a trap is ready again: the side is not started twice.
        let again = s.on_worker(Worker::Main, WorkerEvent::Ready);
        assert!(!again.start_side);
        // The side worker could not start: the engine is ready with the main one alone.
        let side = s.on_worker(Worker::Side, WorkerEvent::Failed("no worker".into()));
        assert_eq!(side.status, Some(EngineStatus::Ready));
        assert!(side.worker_failed);
        assert!(s.ready());
    }

    #[test]
    fn a_failed_main_worker_stays_failed_after_its_restart() {
        let mut s = running();
        let failed = s.on_worker(Worker::Main, WorkerEvent::Failed("trap".into()));
        assert_eq!(failed.status, Some(EngineStatus::Failed("trap".into())));
        assert!(failed.worker_failed);
        let restarted = s.on_worker(Worker::Main, WorkerEvent::Ready);
        assert_eq!(restarted.status, None);
        assert_eq!(s.status(), &EngineStatus::Failed("trap".into()));
        assert!(!s.ready());
    }

    #[test]
    fn the_table_sends_superlinear_rows_to_the_side_worker_and_the_rest_to_the_main_one() {
        let mut s = running();
        let text: Arc<str> = "One sentence. Another one.".into();
        let (table, dispatch) = s.table(&text, figures(), true);
        assert_eq!(table.job, 1);
        assert_eq!(table.text_id, 1);
        assert_eq!(table.rows.len(), StrategyId::all().count());
        assert!(table
            .rows
            .iter()
            .all(|r| !r.deferred && r.outcome.is_none()));
        assert_eq!(dispatch.text.as_ref().map(|t| t.id), Some(1));
        assert_eq!(dispatch.posts.len(), 2);
        let (to, job, lane, fast) = compare_parts(&dispatch.posts[0]);
        assert_eq!((to, job, lane), (Worker::Main, 1, Lane::Table));
        assert!(fast.iter().all(|&s| !superlinear(s)));
        let (to, job, lane, slow) = compare_parts(&dispatch.posts[1]);
        assert_eq!((to, job, lane), (Worker::Side, 1, Lane::Table));
        assert!(!slow.is_empty() && slow.iter().all(|&s| superlinear(s)));
        assert_eq!(fast.len() + slow.len(), StrategyId::all().count());
    }

    #[test]
    fn without_a_side_worker_every_request_goes_to_the_main_one() {
        let mut s = Schedule::new();
        s.on_worker(Worker::Main, WorkerEvent::Ready);
        s.on_worker(Worker::Side, WorkerEvent::Failed("gone".into()));
        let text: Arc<str> = "Text.".into();
        let (_, dispatch) = s.table(&text, figures(), false);
        assert!(dispatch.posts.iter().all(|p| p.to == Worker::Main));
        let (state, sweep) = s
            .sweep(
                &text,
                Vec::new(),
                StrategyId::Fixed,
                SweepGrid::standard(SizeUnit::Tokens),
                figures(),
                5,
                Bm25Setting { k1: 1.2, b: 0.75 },
                Lang::En,
                Retriever::Bm25,
                DenseModel::default(),
            )
            .expect("ready, and fixed windows are never deferred");
        assert_eq!(sweep.posts[0].to, Worker::Main);
        let cancel = s.cancel_sweep(&state).expect("the sweep runs");
        assert_eq!(cancel.posts[0].to, Worker::Main);
    }

    #[test]
    fn a_text_keeps_its_number_while_it_is_the_same_and_jobs_count_up() {
        let mut s = running();
        let a: Arc<str> = "same".into();
        let (t1, _) = s.table(&a, figures(), false);
        let (page, d) = s.selection(&a, figures(), StrategyId::Fixed);
        assert_eq!(d.text.map(|t| t.id), Some(t1.text_id));
        assert_eq!(page.job, t1.job + 1);
        // The same characters in another `Arc` are another text (a new paste).
        let b: Arc<str> = "same".into();
        let (t2, _) = s.table(&b, figures(), false);
        assert_eq!(t2.text_id, t1.text_id + 1);
        assert_eq!(t2.job, page.job + 1);
    }

    #[test]
    fn job_numbers_skip_zero_when_they_wrap() {
        let mut s = running();
        s.jobs = u32::MAX;
        assert_eq!(s.next_job(), 1);
    }

    fn sweep_of(s: &mut Schedule, text: &Arc<str>, strategy: StrategyId) -> Option<SweepState> {
        s.sweep(
            text,
            Vec::new(),
            strategy,
            SweepGrid::standard(SizeUnit::Tokens),
            figures(),
            5,
            Bm25Setting { k1: 1.2, b: 0.75 },
            Lang::En,
            Retriever::Bm25,
            DenseModel::default(),
        )
        .map(|(state, _)| state)
    }

    #[test]
    fn a_sweep_waits_for_the_engine_and_skips_a_strategy_left_for_the_user() {
        let short: Arc<str> = "Text.".into();
        let mut loading = Schedule::new();
        assert_eq!(sweep_of(&mut loading, &short, StrategyId::Fixed), None);
        let mut s = running();
        let long: Arc<str> = "word ".repeat(1_200_000).into();
        let waiting = StrategyId::all()
            .find(|&st| deferred(st, long.len()))
            .expect("some strategy waits on 6 MB");
        assert_eq!(sweep_of(&mut s, &long, waiting), None);
        let state = sweep_of(&mut s, &long, StrategyId::Fixed).expect("fixed windows sweep");
        assert_eq!(state.total, SweepGrid::standard(SizeUnit::Tokens).len());
        assert!(state.running());
    }

    #[test]
    fn only_a_running_sweep_is_cancelled() {
        let mut s = running();
        let text: Arc<str> = "Text.".into();
        let mut state = sweep_of(&mut s, &text, StrategyId::Fixed).expect("sweeps");
        let cancel = s.cancel_sweep(&state).expect("running");
        assert!(matches!(
            cancel.posts[0].request,
            Request::CancelSweep { job } if job == state.job + 1
        ));
        state.failed = true;
        assert_eq!(s.cancel_sweep(&state), None);
        assert_eq!(s.cancel_sweep(&SweepState::default()), None);
    }

    #[test]
    fn a_browser_without_module_workers_shows_the_failure_for_good() {
        let mut s = Schedule::new();
        let settled = s.on_worker(
            Worker::Main,
            WorkerEvent::Failed("no module worker in this browser".into()),
        );
        assert_eq!(
            settled.status,
            Some(EngineStatus::Failed(
                "no module worker in this browser".into()
            ))
        );
        assert!(!s.ready());
    }

    #[test]
    fn a_long_text_defers_superlinear_strategies_until_the_user_starts_them() {
        let mut s = running();
        let long: Arc<str> = "word ".repeat(1_200_000).into();
        let waiting: Vec<StrategyId> = StrategyId::all()
            .filter(|&st| deferred(st, long.len()))
            .collect();
        assert!(!waiting.is_empty(), "some strategy waits on 6 MB");
        let (mut table, dispatch) = s.table(&long, figures(), false);
        let sent: Vec<StrategyId> = dispatch
            .posts
            .iter()
            .flat_map(|p| compare_parts(p).3)
            .collect();
        assert!(waiting.iter().all(|w| !sent.contains(w)));
        assert!(table
            .rows
            .iter()
            .all(|r| r.deferred == waiting.contains(&r.strategy)));
        let (job, started) = s.run_deferred(&table).expect("rows wait");
        let (to, posted_job, lane, strategies) = compare_parts(&started.posts[0]);
        assert_eq!((to, posted_job, lane), (Worker::Side, job, Lane::Rest));
        assert_eq!(strategies, waiting);
        assert_eq!(started.text, None, "the workers hold the text already");
        // Started once: a second click asks for nothing.
        table.deferred_job = job;
        assert_eq!(s.run_deferred(&table), None);
        // Their rows are filed into the table under the deferred job.
        let refused = Outcome::Refused {
            refusal: chunk_core::analysis::refusal::Refusal::from(
                &chunk_core::strategy::StrategyError::Params(
                    chunk_core::params::ParamsError::ZeroChunkSize,
                ),
            ),
        };
        assert!(table.file_row(job, waiting[0], refused.clone(), 3.0));
        assert!(!table.file_row(job + 7, waiting[0], refused, 3.0));
    }

    #[test]
    fn ab_rows_are_told_from_the_table_rows_by_their_job() {
        let mut s = running();
        let text: Arc<str> = "Text.".into();
        let (table, _) = s.table(&text, figures(), false);
        let d = s.ab(&text, StrategyId::LangchainRecursive, figures());
        let (to, job, lane, strategies) = compare_parts(&d.posts[0]);
        assert_eq!((to, lane), (Worker::Main, Lane::Ab));
        assert_eq!(strategies, vec![StrategyId::LangchainRecursive]);
        assert!(s.is_ab(job));
        assert!(!s.is_ab(table.job));
        s.clear_ab();
        assert!(!s.is_ab(job));
        assert!(!s.is_ab(0));
    }

    #[test]
    fn the_selection_asks_for_its_figures_then_its_first_rows_and_more_on_demand() {
        let mut s = running();
        let text: Arc<str> = "Text.".into();
        let (mut page, d) = s.selection(&text, figures(), StrategyId::Fixed);
        let kinds: Vec<&str> = d
            .posts
            .iter()
            .map(|p| match p.request {
                Request::Select { bins, .. } => {
                    assert_eq!(bins, HISTOGRAM_BINS);
                    "select"
                }
                Request::Rows { from, count, .. } => {
                    assert_eq!((from, count), (0, ROWS_PAGE));
                    "rows"
                }
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["select", "rows"]);
        // Before any row arrives there is nothing more to ask for (the total is unknown).
        assert_eq!(s.more_rows(&page), None);
        let row = chunk_core::analysis::export::Row {
            index: 0,
            text: "Text.".into(),
            byte_start: 0,
            byte_end: 5,
            char_start: 0,
            char_end: 5,
            line_start: 1,
            line_end: 1,
            tokens: 2,
            heading_path: String::new(),
            reason: chunk_core::strategy::Boundary::Paragraph,
            text_changed: false,
            code_info: None,
            prefix_over_budget: false,
            page_start: None,
            page_end: None,
        };
        assert!(page.file_rows(page.job, 0, 45, vec![row.clone(); 20], vec![], vec![0; 20]));
        // A repeated page is not appended twice.
        assert!(!page.file_rows(page.job, 0, 45, vec![row; 20], vec![], vec![0; 20]));
        let more = s.more_rows(&page).expect("25 rows left");
        assert_eq!(
            more.posts[0].request,
            Request::Rows {
                job: page.job,
                from: 20,
                count: ROWS_PAGE
            }
        );
    }

    #[test]
    fn the_open_count_starts_pending_with_its_own_job() {
        let mut s = running();
        let text: Arc<str> = "Text.".into();
        let (count, d) = s.open_count(&text, OpenVocab::BertUncased);
        assert_eq!(count.status, OpenStatus::Pending);
        assert_eq!(
            d.posts[0].request,
            Request::OpenCount {
                job: count.job,
                text_id: 1,
                vocab: OpenVocab::BertUncased
            }
        );
    }

    #[test]
    fn retrieval_leaves_out_the_deferred_strategies_on_a_long_text() {
        let mut s = running();
        let long: Arc<str> = "word ".repeat(1_200_000).into();
        let (table, d) = s.retrieval(
            &long,
            figures(),
            Vec::new(),
            3,
            Bm25Setting { k1: 1.2, b: 0.75 },
            Lang::En,
            Retriever::Bm25,
            DenseModel::default(),
        );
        let waiting: Vec<StrategyId> = StrategyId::all()
            .filter(|&st| deferred(st, long.len()))
            .collect();
        assert!(!waiting.is_empty());
        assert_eq!(table.left_out, waiting);
        assert_eq!(table.rows.len() + waiting.len(), StrategyId::all().count());
        let sent: Vec<StrategyId> = d
            .posts
            .iter()
            .flat_map(|p| match &p.request {
                Request::Retrieval { strategies, .. } => strategies.clone(),
                _ => Vec::new(),
            })
            .collect();
        assert!(waiting.iter().all(|w| !sent.contains(w)));
        assert_eq!(sent.len(), table.rows.len());
    }

    #[test]
    fn retrieval_on_a_short_text_runs_every_strategy_and_splits_like_the_table() {
        let mut s = running();
        let text: Arc<str> = "A question's answer.".into();
        let (table, d) = s.retrieval(
            &text,
            figures(),
            Vec::new(),
            5,
            Bm25Setting { k1: 1.2, b: 0.75 },
            Lang::En,
            Retriever::Bm25,
            DenseModel::default(),
        );
        assert_eq!(table.rows.len(), StrategyId::all().count());
        assert!(table.left_out.is_empty());
        assert_eq!(table.k, 5);
        assert_eq!(d.posts.len(), 2);
        assert_eq!(d.posts[1].to, Worker::Side);
        // Dense: three rows a strategy (BM25, dense, hybrid), and the request names them.
        let (table, d) = s.retrieval(
            &text,
            figures(),
            Vec::new(),
            5,
            Bm25Setting { k1: 1.2, b: 0.75 },
            Lang::En,
            Retriever::Dense,
            DenseModel::AllMiniLmL6V2,
        );
        assert_eq!(table.rows.len(), 3 * StrategyId::all().count());
        let first: Vec<(StrategyId, Retriever)> = table.rows[..3]
            .iter()
            .map(|r| (r.strategy, r.retriever))
            .collect();
        let s0 = table.rows[0].strategy;
        assert_eq!(
            first,
            [
                (s0, Retriever::Bm25),
                (s0, Retriever::Dense),
                (s0, Retriever::Hybrid)
            ]
        );
        for post in &d.posts {
            let Request::Retrieval { retrievers, .. } = &post.request else {
                panic!("{:?}", post.request)
            };
            assert_eq!(retrievers, &retrievers_for(Retriever::Hybrid));
        }
    }
}
