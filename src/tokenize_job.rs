//! Tokenizes the text whenever it or the encoding changes, without blocking the page: in the
//! tokenizer's Web Worker ([`crate::tokenize_worker`]) where it runs, else on the page's own
//! thread in slices that yield to the browser between them. Either way the progress bar
//! follows the work, and a newer edit cancels older work: every job carries a generation
//! number, and a result or progress report of an older generation is ignored.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use chunk_core::tokenizer::{find_special_tokens, Bpe, Encoded, Encoding};
use leptos::prelude::*;

use crate::state::{AppState, Progress, Tokenized};
use crate::tokenize_worker::{Reply, TokenizerWorker};

/// Bytes handed to `encode_from` per call; calls repeat until a slice's time has passed.
const SLICE_BYTES: usize = 16 * 1024;
/// Work per slice on the page's thread before yielding to the browser, in milliseconds
/// (under one 60 Hz frame).
const SLICE_MS: f64 = 12.0;
/// Texts up to this many bytes start at once; longer ones wait [`DEBOUNCE`] for typing to
/// pause, so each keystroke in a large document does not restart a long count.
const IMMEDIATE_BYTES: usize = 64 * 1024;
/// Wait before counting a long text.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// One text being tokenized in slices, each of whole pieces: the state that both the worker
/// and the page's own slices advance.
pub struct Slicer {
    text: Arc<str>,
    bpe: &'static Bpe,
    encoded: Encoded,
    /// Bytes of `text` tokenized so far; always a point where `Bpe::encode_from` can resume.
    pos: usize,
}

impl Slicer {
    /// A job for `text` with `encoding`. Builds the encoding's table on its first use in this
    /// thread (tens of milliseconds).
    pub fn new(text: Arc<str>, encoding: Encoding) -> Self {
        Slicer {
            text,
            bpe: encoding.tokenizer(),
            encoded: Encoded {
                ids: Vec::new(),
                offsets: vec![0],
            },
            pos: 0,
        }
    }

    /// Tokenizes whole pieces for about `ms` milliseconds (at least one piece); returns true
    /// once the whole text is done. A single piece (e.g. a megabyte of one repeated character)
    /// is never cut, so a slice can run longer than `ms`.
    pub fn run_for(&mut self, ms: f64) -> bool {
        let started = now_ms();
        while self.pos < self.text.len() {
            self.pos = self
                .bpe
                .encode_from(&self.text, self.pos, SLICE_BYTES, &mut self.encoded);
            if now_ms() - started > ms {
                break;
            }
        }
        self.pos == self.text.len()
    }

    /// Bytes of the text tokenized so far.
    pub fn done_bytes(&self) -> usize {
        self.pos
    }

    /// The tokens, once [`Slicer::run_for`] has returned true.
    pub fn into_encoded(self) -> Encoded {
        self.encoded
    }
}

/// The job in flight: what its result will describe.
struct Job {
    generation: u32,
    text: Arc<str>,
    encoding: Encoding,
}

/// The page's tokenizer: the worker if it runs, the state to report into, and the newest job.
/// Every field is non-reactive (only read in callbacks), so plain cells rather than signals.
struct Runner {
    state: AppState,
    /// Newest generation; a job or reply of an older one is stale.
    generation: Cell<u32>,
    /// The job last posted to the worker and not finished yet; its result is built from it.
    in_worker: RefCell<Option<Job>>,
    /// `None` where no worker started, or after one failed: the page then does the work.
    worker: RefCell<Option<TokenizerWorker>>,
    /// Number of the current worker (each restart starts a new one); replies of older ones
    /// are ignored.
    worker_serial: Cell<u32>,
    /// When the current worker last sent anything, in `now_ms` milliseconds.
    last_heard: Cell<f64>,
}

/// A worker silent this long (in ms) while it has a stale job is inside one long piece (its
/// progress comes every `WORKER_SLICE_MS` otherwise): a new job goes to a fresh worker instead
/// of waiting for that piece (about 0.1 s per MB of one repeated character).
const STUCK_MS: f64 = 250.0;
/// How long (in ms) the worker may stay silent on a job of `bytes` before it is given up:
/// 10 s plus 1 s per MB, several times what one piece of that size takes to merge (about
/// 0.1–0.2 s per MB of one repeated character).
fn silence_limit_ms(bytes: usize) -> f64 {
    10_000.0 + bytes as f64 / 1_000.0
}

/// A worker that has not said "ready" this long after it was started is given up.
const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// Starts the effect that re-tokenizes whenever the text or the encoding changes, and the
/// worker that does the work where the browser allows it.
///
/// An `Effect` (not a `Memo`) because the work is a side effect spread over callbacks, and its
/// result is written into `state.tokenized` when complete.
pub fn spawn_tokenizer(state: AppState) {
    let runner = Rc::new(Runner {
        state,
        generation: Cell::new(0),
        in_worker: RefCell::new(None),
        worker: RefCell::new(None),
        worker_serial: Cell::new(0),
        last_heard: Cell::new(0.0),
    });
    runner.start_worker();
    Effect::new(move |_| {
        let text = state.text.get();
        let encoding = state.encoding.get();
        let generation = runner.generation.get() + 1;
        runner.generation.set(generation);
        if text.is_empty() {
            state.tokenized.set(None);
            state.progress.set(Progress::Idle);
            return;
        }
        state.progress.set(Progress::Running {
            done: 0,
            total: text.len(),
        });
        let delay = if text.len() <= IMMEDIATE_BYTES {
            Duration::ZERO
        } else {
            DEBOUNCE
        };
        let job = Job {
            generation,
            text,
            encoding,
        };
        let runner = runner.clone();
        set_timeout(move || runner.start(job), delay);
    });
}

impl Runner {
    fn is_current(&self, generation: u32) -> bool {
        self.generation.get() == generation
    }

    /// Starts a (new) worker in place of the current one, if any (none where the browser
    /// refuses it: the page then counts on its own thread).
    fn start_worker(self: &Rc<Self>) {
        let serial = self.worker_serial.get() + 1;
        self.worker_serial.set(serial);
        let weak = Rc::downgrade(self);
        let worker = TokenizerWorker::start(move |reply| {
            if let Some(runner) = weak.upgrade() {
                runner.on_reply(serial, reply);
            }
        });
        let started = worker.is_some();
        self.retire_worker(worker);
        self.last_heard.set(now_ms());
        self.state.worker.set(false); // until it says "ready"
        if started {
            let weak = Rc::downgrade(self);
            set_timeout(
                move || {
                    let Some(runner) = weak.upgrade() else { return };
                    if runner.worker_serial.get() == serial && !runner.state.worker.get_untracked()
                    {
                        runner.give_up_worker("the tokenizer worker did not start in time");
                    }
                },
                READY_TIMEOUT,
            );
        }
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
        let ready = self.state.worker.get_untracked();
        let stuck =
            self.in_worker.borrow().is_some() && now_ms() - self.last_heard.get() > STUCK_MS;
        if stuck && ready {
            self.start_worker();
        }
        // While the worker starts, a short text is counted here at once (a few ms) rather
        // than queued behind the worker's start.
        if !ready && job.text.len() <= IMMEDIATE_BYTES {
            self.run_here(job);
            return;
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
                let in_worker = runner
                    .in_worker
                    .borrow()
                    .as_ref()
                    .is_some_and(|j| j.generation == generation);
                if !in_worker || !runner.is_current(generation) {
                    return;
                }
                let silent = now_ms() - runner.last_heard.get();
                if silent >= limit_ms {
                    runner.give_up_worker("the tokenizer worker stopped answering");
                } else {
                    runner.watch(generation, limit_ms, limit_ms - silent);
                }
            },
            wait,
        );
    }

    /// Tokenizes `job` on the page's thread, one slice per timer callback.
    fn run_here(self: Rc<Self>, job: Job) {
        let slicer = Slicer::new(job.text.clone(), job.encoding);
        self.step_here(job, slicer);
    }

    fn step_here(self: Rc<Self>, job: Job, mut slicer: Slicer) {
        if !self.is_current(job.generation) {
            return; // a newer edit owns the work now
        }
        if slicer.run_for(SLICE_MS) {
            self.finish(job, slicer.into_encoded().offsets);
            return;
        }
        self.report(slicer.done_bytes(), job.text.len());
        set_timeout(move || self.step_here(job, slicer), Duration::ZERO);
    }

    fn report(&self, done: usize, total: usize) {
        self.state.progress.set(Progress::Running { done, total });
    }

    /// Publishes a complete tokenization of `job`.
    fn finish(&self, job: Job, offsets: Vec<usize>) {
        let result = Tokenized {
            specials: find_special_tokens(&job.text),
            text: job.text,
            encoding: job.encoding,
            offsets,
        };
        self.state.tokenized.set(Some(Arc::new(result)));
        self.state.progress.set(Progress::Idle);
    }

    /// Handles a message from worker number `serial`.
    fn on_reply(self: Rc<Self>, serial: u32, reply: Reply) {
        if serial != self.worker_serial.get() {
            return; // from a worker that was replaced
        }
        self.last_heard.set(now_ms());
        match reply {
            Reply::Ready => self.state.worker.set(true),
            Reply::Progress { id, done } if self.is_current(id) => {
                let total = self.in_worker.borrow().as_ref().map(|j| j.text.len());
                if let Some(total) = total {
                    self.report(done, total);
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
        self.worker_serial.set(self.worker_serial.get() + 1);
        self.retire_worker(None);
        self.state.worker.set(false);
        let job = self.in_worker.borrow_mut().take();
        if let Some(job) = job.filter(|j| self.is_current(j.generation)) {
            self.run_here(job);
        }
    }
}

/// Milliseconds from a monotonic-enough clock (`Date.now()` in the browser and the worker).
fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
