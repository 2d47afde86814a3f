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
struct Runner {
    state: AppState,
    /// Newest generation; a job or reply of an older one is stale. Non-reactive (only compared
    /// in callbacks), so a `Cell` rather than a signal.
    generation: Cell<u32>,
    /// The job the worker was last given, to build its result when the worker replies.
    in_worker: RefCell<Option<Job>>,
    /// `None` where the worker did not start, or after it failed: the page then does the work.
    worker: RefCell<Option<TokenizerWorker>>,
}

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
    });
    let weak = Rc::downgrade(&runner);
    let worker = TokenizerWorker::start(move |reply| {
        if let Some(runner) = weak.upgrade() {
            runner.on_reply(reply);
        }
    });
    *runner.worker.borrow_mut() = worker;
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

    /// Starts `job` (unless a newer edit came during the debounce): in the worker if there is
    /// one and it takes the job, else in slices on this thread.
    fn start(self: Rc<Self>, job: Job) {
        if !self.is_current(job.generation) {
            return;
        }
        if let Some(worker) = self.worker.borrow().as_ref() {
            if worker
                .tokenize(job.generation, &job.text, job.encoding)
                .is_ok()
            {
                *self.in_worker.borrow_mut() = Some(job);
                return;
            }
        }
        self.run_here(job);
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
            self.finish(job, slicer.into_encoded());
            return;
        }
        self.report(slicer.done_bytes(), job.text.len());
        set_timeout(move || self.step_here(job, slicer), Duration::ZERO);
    }

    fn report(&self, done: usize, total: usize) {
        self.state.progress.set(Progress::Running { done, total });
    }

    /// Publishes a complete tokenization of `job`.
    fn finish(&self, job: Job, encoded: Encoded) {
        let result = Tokenized {
            specials: find_special_tokens(&job.text),
            text: job.text,
            encoding: job.encoding,
            encoded,
        };
        self.state.tokenized.set(Some(Arc::new(result)));
        self.state.progress.set(Progress::Idle);
    }

    /// Handles a message from the worker.
    fn on_reply(self: Rc<Self>, reply: Reply) {
        match reply {
            Reply::Ready => self.state.worker.set(true),
            Reply::Progress { id, done } if self.is_current(id) => {
                let total = self.in_worker.borrow().as_ref().map(|j| j.text.len());
                if let Some(total) = total {
                    self.report(done, total);
                }
            }
            Reply::Done { id, encoded } if self.is_current(id) => {
                let job = self.in_worker.borrow_mut().take();
                if let Some(job) = job.filter(|j| j.generation == id) {
                    self.finish(job, encoded);
                }
            }
            Reply::Progress { .. } | Reply::Done { .. } => {} // a stale job's
            Reply::Failed(message) => self.give_up_worker(&message),
        }
    }

    /// The worker cannot do the work: stop using it, and redo its current job here.
    fn give_up_worker(self: Rc<Self>, message: &str) {
        leptos::logging::warn!("{message}; tokenizing on the page instead");
        // Dropped on a later turn: this runs inside one of the worker's own callbacks, which
        // must outlive the call.
        let worker = self.worker.borrow_mut().take();
        set_timeout(move || drop(worker), Duration::ZERO);
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
