//! Tokenizes the text in slices, yielding to the browser between slices, so that a 1 MB paste
//! keeps the page responsive and shows progress. A newer edit cancels older work: every job
//! carries a generation number and stops at its next slice once a newer job exists.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use chunk_core::tokenizer::{find_special_tokens, Bpe, Encoded, Encoding};
use leptos::prelude::*;

use crate::state::{AppState, Progress, Tokenized};

/// Bytes handed to `encode_from` per call; calls repeat until [`SLICE_MS`] has passed.
const SLICE_BYTES: usize = 16 * 1024;
/// Work per slice before yielding to the browser, in milliseconds (under one 60 Hz frame).
const SLICE_MS: f64 = 12.0;
/// Texts up to this many bytes start at once; longer ones wait [`DEBOUNCE`] for typing to
/// pause, so each keystroke in a large document does not restart a long count.
const IMMEDIATE_BYTES: usize = 64 * 1024;
/// Wait before counting a long text.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// Starts the effect that re-tokenizes whenever the text or the encoding changes.
///
/// An `Effect` (not a `Memo`) because the work is a side effect spread over many timer
/// callbacks, and its result is written into `state.tokenized` when complete.
pub fn spawn_tokenizer(state: AppState) {
    // Shared, non-reactive generation counter: only compared inside timer callbacks, so it
    // must not trigger re-renders; `Rc<Cell>` is enough on the single browser thread.
    let generation = Rc::new(Cell::new(0u64));
    Effect::new(move |_| {
        let text = state.text.get();
        let encoding = state.encoding.get();
        let my_gen = generation.get() + 1;
        generation.set(my_gen);
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
            state,
            generation: generation.clone(),
            my_gen,
            text,
            encoding,
            encoded: Encoded {
                ids: Vec::new(),
                offsets: vec![0],
            },
            pos: 0,
        };
        set_timeout(move || job.step(), delay);
    });
}

struct Job {
    state: AppState,
    generation: Rc<Cell<u64>>,
    my_gen: u64,
    text: Arc<str>,
    encoding: Encoding,
    encoded: Encoded,
    pos: usize,
}

impl Job {
    fn step(mut self) {
        if self.generation.get() != self.my_gen {
            return; // a newer edit owns the work now
        }
        // Building the tables happens on the first call for an encoding only.
        let bpe: &'static Bpe = self.encoding.tokenizer();
        let started = now_ms();
        while self.pos < self.text.len() {
            self.pos = bpe.encode_from(&self.text, self.pos, SLICE_BYTES, &mut self.encoded);
            if now_ms() - started > SLICE_MS {
                break;
            }
        }
        if self.pos < self.text.len() {
            self.state.progress.set(Progress::Running {
                done: self.pos,
                total: self.text.len(),
            });
            set_timeout(move || self.step(), Duration::ZERO);
            return;
        }
        let result = Tokenized {
            chars: self.text.chars().count() as u64,
            specials: find_special_tokens(&self.text),
            text: self.text,
            encoding: self.encoding,
            encoded: self.encoded,
        };
        self.state.tokenized.set(Some(Arc::new(result)));
        self.state.progress.set(Progress::Idle);
    }
}

/// Milliseconds from a monotonic-enough clock (`Date.now()` in the browser).
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
