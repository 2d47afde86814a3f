//! Tokenizes the text whenever it or the encoding changes, without blocking the page: in the
//! tokenizer's Web Worker ([`crate::tokenize::worker`]) where it runs, else on the page's own
//! thread in slices that yield to the browser between them ([`crate::tokenize::local`]). The
//! worker loads the tokenizer's module (the BPE tables) after the page has started; a job
//! posted meanwhile waits there, and the status shows the bytes received
//! ([`Tokenization::loading`]). Either way the progress bar
//! follows the work, and a newer edit cancels older work: every job carries a generation
//! number, and a result or progress report of an older generation is ignored.
//!
//! Only typing in a long text waits for a pause before its count starts; a paste, a drop, a
//! file or a new encoding starts at once (`tokenize::schedule::start_delay`, by the
//! [`crate::state::SourceText::last_edit`] the text box records). Which one the newest job took
//! is the status's `data-debounced` hook ("true" / "false", `Tokenization::debounced`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use chunk_core::tokenizer::{find_special_tokens, Encoding};
use leptos::prelude::*;

use crate::browser::now_ms;
use crate::state::{
    CalculatorFields, EditKind, Loading, Progress, SourceText, TokenizationWriter, Tokenized,
};
use crate::tokenize::schedule::{
    restart_first, silence_limit_ms, start_delay, watch_decision, Generations, Watch, READY_TIMEOUT,
};
use crate::tokenize::worker::{Reply, TokenizerWorker};
use crate::tokenize::{local as tokenize_local, module as tokenize_module};

/// The job in flight: what its result will describe.
struct Job {
    generation: u32,
    text: Arc<str>,
    encoding: Encoding,
}

/// The page's tokenizer: the worker if it runs, the context to report into, and the newest
/// job. Every field is non-reactive (only read in callbacks), so plain cells rather than
/// signals.
struct Runner {
    /// Where results, progress and the worker flag go (the only writer of this context).
    out: TokenizationWriter,
    /// Job numbers; a job or reply of an older one is stale.
    generations: Generations,
    /// The job last posted to the worker and not finished yet; its result is built from it.
    in_worker: RefCell<Option<Job>>,
    /// `None` where no worker started, or after one failed: the page then does the work.
    worker: RefCell<Option<TokenizerWorker>>,
    /// Worker numbers (each restart starts a new one); replies of older ones are ignored.
    workers: Generations,
    /// When the current worker last sent anything, in `now_ms` milliseconds.
    last_heard: Cell<f64>,
}

/// Starts the effect that re-tokenizes whenever the text (of `source`) or the encoding (of
/// `fields`) changes, and the worker that does the work where the browser allows it; results
/// go to `out`.
///
/// An `Effect` (not a `Memo`) because the work is a side effect spread over callbacks, and its
/// result is written into `out.tokenized` when complete.
pub fn spawn_tokenizer(out: TokenizationWriter, source: SourceText, fields: CalculatorFields) {
    let runner = Rc::new(Runner {
        out,
        generations: Generations::default(),
        in_worker: RefCell::new(None),
        worker: RefCell::new(None),
        workers: Generations::default(),
        last_heard: Cell::new(0.0),
    });
    runner.start_worker();
    // The effect returns the text it saw, so that the next run knows whether the text changed
    // (an edit of the kind the text box recorded) or only the encoding (a whole edit).
    Effect::new(move |previous: Option<Arc<str>>| {
        let text = source.text.get();
        let encoding = fields.encoding.get();
        let generation = runner.generations.advance();
        if text.is_empty() {
            out.tokenized.set(None);
            out.progress.set(Progress::Idle);
            out.debounced.set(false);
            return text;
        }
        out.progress.set(Progress::Running {
            done: 0,
            total: text.len(),
        });
        let kind = match previous {
            Some(p) if Arc::ptr_eq(&p, &text) => EditKind::Whole,
            _ => source.last_edit.get_value(),
        };
        let delay = start_delay(text.len(), kind);
        out.debounced.set(!delay.is_zero());
        let job = Job {
            generation,
            text: text.clone(),
            encoding,
        };
        let runner = runner.clone();
        set_timeout(move || runner.start(job), delay);
        text
    });
}

impl Runner {
    fn is_current(&self, generation: u32) -> bool {
        self.generations.is_current(generation)
    }

    /// Starts a (new) worker in place of the current one, if any (none where the browser
    /// refuses it: the page then counts on its own thread). A worker that can not count yet
    /// (no table has arrived) and has not reported its downloads for [`READY_TIMEOUT`] is given
    /// up.
    fn start_worker(self: &Rc<Self>) {
        let serial = self.workers.advance();
        let weak = Rc::downgrade(self);
        // The module an earlier worker compiled, if any: the new one then fetches nothing.
        let module = tokenize_module::offered_module();
        let worker = TokenizerWorker::start(
            move |reply| {
                if let Some(runner) = weak.upgrade() {
                    runner.on_reply(serial, reply);
                }
            },
            module.as_ref(),
        );
        let started = worker.is_some();
        self.retire_worker(worker);
        self.last_heard.set(now_ms());
        self.out.worker.set(false); // until its first table has arrived
        if started {
            if module.is_none() {
                self.out.loading.set(Some(Loading::default()));
            }
            self.watch_start(serial, READY_TIMEOUT);
        }
    }

    /// Gives up worker `serial` if it is still starting and has been silent for
    /// [`READY_TIMEOUT`] when `wait` has passed; looks again otherwise.
    fn watch_start(self: &Rc<Self>, serial: u32, wait: Duration) {
        let weak = Rc::downgrade(self);
        set_timeout(
            move || {
                let Some(runner) = weak.upgrade() else { return };
                if !runner.workers.is_current(serial) || runner.out.worker.get_untracked() {
                    return;
                }
                let silent = now_ms() - runner.last_heard.get();
                let limit = READY_TIMEOUT.as_secs_f64() * 1_000.0;
                if silent >= limit {
                    runner.give_up_worker("the tokenizer worker did not start in time");
                } else {
                    let left = Duration::from_millis((limit - silent).max(1.0) as u64);
                    runner.watch_start(serial, left);
                }
            },
            wait,
        );
    }

    /// Puts `next` in place of the current worker. The old one is dropped (and terminated) on a
    /// later turn: this may run inside one of its own callbacks, which must outlive the call.
    fn retire_worker(&self, next: Option<TokenizerWorker>) {
        let old = self.worker.replace(next);
        if old.is_some() {
            set_timeout(move || drop(old), Duration::ZERO);
        }
    }

    /// Starts `job` (unless a newer edit came during the debounce): in the worker if there is
    /// one and it takes the job, else in slices on this thread.
    fn start(self: Rc<Self>, job: Job) {
        if !self.is_current(job.generation) {
            return;
        }
        let ready = self.out.worker.get_untracked();
        let stale_silent_ms = self
            .in_worker
            .borrow()
            .is_some()
            .then(|| now_ms() - self.last_heard.get());
        if self.worker.borrow().is_some() && restart_first(ready, stale_silent_ms) {
            self.start_worker();
        }
        if let Some(worker) = self.worker.borrow().as_ref() {
            if worker
                .tokenize(job.generation, &job.text, job.encoding)
                .is_ok()
            {
                let (generation, limit) = (job.generation, silence_limit_ms(job.text.len()));
                *self.in_worker.borrow_mut() = Some(job);
                self.last_heard.set(now_ms()); // this job's silence starts now
                self.watch(generation, limit, limit);
                return;
            }
        }
        self.run_here(job);
    }

    /// Gives up the worker if it stays silent for `limit_ms` while job `generation` is in it
    /// (a worker that hangs would otherwise leave the count unfinished until the next edit);
    /// looks again in `wait_ms`. Progress comes every `WORKER_SLICE_MS`; only one long piece
    /// keeps a working worker silent, and `limit_ms` leaves it several times what it needs.
    fn watch(self: &Rc<Self>, generation: u32, limit_ms: f64, wait_ms: f64) {
        let weak = Rc::downgrade(self);
        let wait = Duration::from_millis(wait_ms.max(1.0) as u64);
        set_timeout(
            move || {
                let Some(runner) = weak.upgrade() else { return };
                let watched = runner
                    .in_worker
                    .borrow()
                    .as_ref()
                    .is_some_and(|j| j.generation == generation)
                    && runner.is_current(generation);
                // A worker still loading the module or its first table is watched by
                // `watch_start` (a download may stall for a while and resume); only one that
                // can count is held to the job's limit.
                let silent = if runner.out.worker.get_untracked() {
                    now_ms() - runner.last_heard.get()
                } else {
                    0.0
                };
                match watch_decision(watched, silent, limit_ms) {
                    Watch::Stop => {}
                    Watch::GiveUp => {
                        runner.give_up_worker("the tokenizer worker stopped answering")
                    }
                    Watch::LookAgainIn(ms) => runner.watch(generation, limit_ms, ms),
                }
            },
            wait,
        );
    }

    /// Tokenizes `job` on the page's thread, one slice per browser task
    /// ([`tokenize_local::tokenize`]), reporting progress, until done or a newer edit.
    fn run_here(self: Rc<Self>, job: Job) {
        leptos::task::spawn_local(async move {
            let generation = job.generation;
            let total = job.text.len();
            let runner = self.clone();
            let result = tokenize_local::tokenize(
                job.encoding,
                job.text.clone(),
                || runner.is_current(generation),
                |done| runner.out.progress.set(Progress::Running { done, total }),
            )
            .await;
            match result {
                Ok(Some(offsets)) if self.is_current(generation) => self.finish(job, offsets),
                Ok(_) => {} // a newer edit owns the work now
                Err(message) => {
                    leptos::logging::warn!("{message}");
                    if self.is_current(generation) {
                        self.out.progress.set(Progress::Failed);
                    }
                }
            }
        });
    }

    /// Publishes a complete tokenization of `job`.
    fn finish(&self, job: Job, offsets: Vec<usize>) {
        let result = Tokenized {
            specials: find_special_tokens(&job.text),
            text: job.text,
            encoding: job.encoding,
            offsets,
        };
        self.out.tokenized.set(Some(Arc::new(result)));
        self.out.progress.set(Progress::Idle);
    }

    /// Handles a message from worker number `serial`.
    fn on_reply(self: Rc<Self>, serial: u32, reply: Reply) {
        if !self.workers.is_current(serial) {
            return; // from a worker that was replaced
        }
        self.last_heard.set(now_ms());
        match reply {
            Reply::Loading { received, total } => {
                self.out.loading.set(Some(Loading { received, total }))
            }
            // The module runs; the default encoding's table arrives next (its bytes reported
            // as `Loading` too): the worker counts once a table is there.
            Reply::Ready(module) => {
                if let Some(module) = module {
                    tokenize_module::offer_module(&module);
                }
            }
            Reply::TableLoaded(_) => {
                if self.out.loading.get_untracked().is_some() {
                    self.out.loading.set(None);
                }
                if !self.out.worker.get_untracked() {
                    self.out.worker.set(true);
                }
            }
            Reply::Progress { id, done } if self.is_current(id) => {
                let total = self.in_worker.borrow().as_ref().map(|j| j.text.len());
                if let Some(total) = total {
                    self.out.progress.set(Progress::Running { done, total });
                }
            }
            Reply::Progress { .. } => {} // a stale job's
            Reply::Done { id, result } => {
                let mut slot = self.in_worker.borrow_mut();
                if slot.as_ref().is_some_and(|j| j.generation == id) {
                    let job = slot.take();
                    drop(slot);
                    if let Some(job) = job.filter(|j| self.is_current(j.generation)) {
                        // The copy, the check and the publishing each in a task of their own.
                        leptos::task::spawn_local(async move {
                            let checked = result.into_offsets(job.text.len()).await;
                            crate::browser::yield_now().await;
                            if !self.is_current(job.generation) {
                                return; // edited meanwhile
                            }
                            match checked {
                                Ok(offsets) => self.finish(job, offsets),
                                Err(why) => {
                                    *self.in_worker.borrow_mut() = Some(job);
                                    self.give_up_worker(&format!(
                                        "tokenizer worker result refused: {why}"
                                    ));
                                }
                            }
                        });
                    }
                }
            }
            Reply::Failed(message) => self.give_up_worker(&message),
        }
    }

    /// The worker cannot do the work: stop using it, and redo its current job here.
    fn give_up_worker(self: Rc<Self>, message: &str) {
        leptos::logging::warn!("{message}; tokenizing on the page instead");
        // Replies of the given-up worker are ignored from now on.
        self.workers.advance();
        self.retire_worker(None);
        self.out.worker.set(false);
        self.out.loading.set(None);
        let job = self.in_worker.borrow_mut().take();
        if let Some(job) = job.filter(|j| self.is_current(j.generation)) {
            self.run_here(job);
        }
    }
}
