//! The page's tokenizer module: chunk-core's BPE tokenizer (cl100k_base, o200k_base: the rank
//! tables, 2.3 MB of the module) behind two `wasm-bindgen` classes, [`Worker`] and
//! [`SlicedJob`].
//!
//! It is its own wasm module so that the page's module (the UI) carries no table and paints
//! without waiting for them. `assets/tokenize-worker.js` runs it in the tokenizer's Web Worker
//! through [`Worker`] ([`Schedule`]: only the newest job runs, one slice per step, progress
//! after each slice, the offsets when done; the script posts what a step answers and returns
//! to its event loop between two); where no worker runs, the page instantiates the same compiled module on
//! its own thread (`src/tokenize/local.rs`) and runs the same slices between two frames. Trunk
//! builds it as a worker module (`index.html`, `data-type="worker"`), as `tokenize-engine.js` +
//! `tokenize-engine_bg.wasm`.

#[cfg(feature = "bench")]
mod bench;

use std::sync::Arc;

use chunk_core::tokenizer::sliced::Slicer;
use chunk_core::tokenizer::Encoding;
use js_sys::{Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

/// What one step of the tokenizer's worker did ([`Schedule::step`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// No job: nothing was done (the script waits for the next message).
    Idle,
    /// One slice of job `id` ran; `done` bytes of its text are tokenized so far, and more is
    /// left for the next step.
    Progress {
        /// The job's number (the page's).
        id: u32,
        /// Bytes of the text tokenized so far.
        done: usize,
    },
    /// Job `id` is done (and dropped): the byte offsets of its token boundaries (one more than
    /// the tokens: `0`, then the end of each token, as
    /// `chunk_core::tokenizer::Encoded::offsets`).
    Done {
        /// The job's number.
        id: u32,
        /// The offsets, strictly increasing from 0, the last the text's length in bytes.
        offsets: Vec<usize>,
    },
}

/// The tokenizer worker's schedule, with no web type in it: at most one job, the newest
/// submitted; each [`Schedule::step`] runs one slice of it.
#[derive(Default)]
pub struct Schedule {
    /// The newest job: its number and its slicer.
    job: Option<(u32, Slicer)>,
}

impl Schedule {
    /// Makes job `id` (the text `bytes`, as UTF-8, tokenized with the encoding named
    /// `encoding`: `"cl100k_base"`, `"o200k_base"`) the one that runs; the job that ran before
    /// is dropped, whatever its number (the page numbers its jobs in order), even when this one
    /// is refused.
    ///
    /// # Errors
    /// An unknown encoding name, or bytes that are not UTF-8; in English.
    pub fn submit(&mut self, id: u32, encoding: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.job = None;
        let encoding = Encoding::from_name(encoding)
            .ok_or_else(|| format!("unknown encoding {encoding:?}"))?;
        let text = String::from_utf8(bytes).map_err(|e| format!("the text is not UTF-8: {e}"))?;
        self.job = Some((id, Slicer::new(Arc::from(text), encoding)));
        Ok(())
    }

    /// Runs one slice of the job: whole pieces until more than `ms` milliseconds of `clock`
    /// have passed ([`Slicer::run_for`]). [`Step::Done`] when the text is done (the job is
    /// dropped), [`Step::Progress`] otherwise; [`Step::Idle`] without a job.
    pub fn step(&mut self, ms: f64, clock: impl Fn() -> f64) -> Step {
        let Some((id, slicer)) = &mut self.job else {
            return Step::Idle;
        };
        let id = *id;
        if !slicer.run_for(ms, clock) {
            return Step::Progress {
                id,
                done: slicer.done_bytes(),
            };
        }
        match self.job.take() {
            Some((_, slicer)) => Step::Done {
                id,
                offsets: slicer.into_encoded().offsets,
            },
            None => Step::Idle,
        }
    }
}

/// The tokenizer's worker ([`Schedule`]) for `assets/tokenize-worker.js`: `new Worker()`,
/// `submit(id, encoding, bytes)` for each job message, and `step(slice_ms)` until it answers
/// `null`, posting each answer.
#[wasm_bindgen]
#[derive(Default)]
pub struct Worker {
    schedule: Schedule,
}

#[wasm_bindgen]
impl Worker {
    /// A worker with no job.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Worker {
        Worker::default()
    }

    /// [`Schedule::submit`]: job `id` replaces the one running.
    ///
    /// # Errors
    /// An unknown encoding name, or bytes that are not UTF-8 (thrown as a JS `Error`; the job
    /// that ran before is dropped all the same).
    pub fn submit(&mut self, id: u32, encoding: &str, bytes: Vec<u8>) -> Result<(), JsError> {
        self.schedule
            .submit(id, encoding, bytes)
            .map_err(|e| JsError::new(&e))
    }

    /// One slice of at most about `ms` milliseconds (`Date.now()`), as the message the page
    /// receives: `{kind: "progress", id, done}` (bytes done), `{kind: "done", id, offsets}`
    /// (a `Uint32Array` of the token boundaries' byte offsets, to transfer), or `null` when
    /// there is no job.
    ///
    /// # Errors
    /// Only when the message object cannot be built.
    pub fn step(&mut self, ms: f64) -> Result<JsValue, JsValue> {
        let message = Object::new();
        match self.schedule.step(ms, js_sys::Date::now) {
            Step::Idle => return Ok(JsValue::NULL),
            Step::Progress { id, done } => {
                Reflect::set(&message, &"kind".into(), &"progress".into())?;
                Reflect::set(&message, &"id".into(), &id.into())?;
                Reflect::set(&message, &"done".into(), &byte_count(done).into())?;
            }
            Step::Done { id, offsets } => {
                let offsets: Vec<u32> = offsets.into_iter().map(byte_count).collect();
                Reflect::set(&message, &"kind".into(), &"done".into())?;
                Reflect::set(&message, &"id".into(), &id.into())?;
                Reflect::set(
                    &message,
                    &"offsets".into(),
                    &Uint32Array::from(offsets.as_slice()),
                )?;
            }
        }
        Ok(message.into())
    }
}

/// One text being tokenized in slices (`chunk_core::tokenizer::sliced::Slicer`), for the
/// page's own thread (`src/tokenize/local.rs`; the worker uses [`Worker`]). JS:
/// `new SlicedJob("cl100k_base", bytes)`, then `run_for(ms)` until it returns true, then
/// `into_offsets()`.
#[wasm_bindgen]
pub struct SlicedJob {
    slicer: Slicer,
}

#[wasm_bindgen]
impl SlicedJob {
    /// A job for `bytes` (the text as UTF-8, copied into this module's memory) with the encoding
    /// named `encoding` (`"cl100k_base"`, `"o200k_base"`). Builds the encoding's table on its
    /// first use in this instance (tens of milliseconds).
    ///
    /// # Errors
    /// An unknown encoding name, or bytes that are not UTF-8 (thrown as a JS `Error`).
    #[wasm_bindgen(constructor)]
    pub fn new(encoding: &str, bytes: Vec<u8>) -> Result<SlicedJob, JsError> {
        let encoding = Encoding::from_name(encoding)
            .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| JsError::new(&format!("the text is not UTF-8: {e}")))?;
        Ok(SlicedJob {
            slicer: Slicer::new(Arc::from(text), encoding),
        })
    }

    /// Tokenizes whole pieces until more than `ms` milliseconds have passed (`Date.now()`);
    /// true once the whole text is done. One piece is never cut, so a slice of a text that is
    /// one long piece can take longer.
    pub fn run_for(&mut self, ms: f64) -> bool {
        self.slicer.run_for(ms, js_sys::Date::now)
    }

    /// Bytes of the text tokenized so far.
    pub fn done_bytes(&self) -> u32 {
        byte_count(self.slicer.done_bytes())
    }

    /// Bytes in the whole text.
    pub fn total_bytes(&self) -> u32 {
        byte_count(self.slicer.total_bytes())
    }

    /// The byte offsets of the token boundaries (one more than the tokens: `0`, then the end of
    /// each token), as `chunk_core::tokenizer::Encoded::offsets`; consumes the job. Call it once
    /// [`SlicedJob::run_for`] returned true.
    pub fn into_offsets(self) -> Uint32Array {
        let offsets: Vec<u32> = self
            .slicer
            .into_encoded()
            .offsets
            .into_iter()
            .map(byte_count)
            .collect();
        Uint32Array::from(offsets.as_slice())
    }
}

/// A byte count as JS receives it. wasm32 addresses at most 4 GiB, so a `usize` always fits.
fn byte_count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    const TEXT: &str =
        "One sentence here. Another sentence there, with more words to tokenize.\n\n";

    /// A clock that advances 1 ms each time it is read.
    fn ticking() -> impl Fn() -> f64 {
        let now = Cell::new(0.0);
        move || {
            now.set(now.get() + 1.0);
            now.get()
        }
    }

    fn offsets_of(text: &str) -> Vec<usize> {
        Encoding::Cl100kBase.tokenizer().encode(text).offsets
    }

    #[test]
    fn a_job_runs_in_slices_with_progress_then_its_offsets() {
        let text = TEXT.repeat(2000);
        let mut s = Schedule::default();
        assert_eq!(s.step(1.0, ticking()), Step::Idle);
        s.submit(4, "cl100k_base", text.clone().into_bytes())
            .unwrap();
        let clock = ticking();
        let mut done = Vec::new();
        let offsets = loop {
            match s.step(1.0, &clock) {
                Step::Progress { id: 4, done: d } => done.push(d),
                Step::Done { id: 4, offsets } => break offsets,
                other => panic!("{other:?}"),
            }
        };
        assert!(done.len() > 1, "{done:?}");
        assert!(done.windows(2).all(|w| w[0] < w[1]), "{done:?}");
        assert!(done.iter().all(|&d| d > 0 && d < text.len()));
        assert_eq!(offsets, offsets_of(&text));
        assert_eq!(offsets.last(), Some(&text.len()));
        // Done jobs are dropped.
        assert_eq!(s.step(1.0, &clock), Step::Idle);
    }

    #[test]
    fn a_newer_job_drops_the_older_between_two_slices() {
        let mut s = Schedule::default();
        let clock = ticking();
        s.submit(1, "cl100k_base", TEXT.repeat(2000).into_bytes())
            .unwrap();
        assert!(matches!(s.step(1.0, &clock), Step::Progress { id: 1, .. }));
        s.submit(2, "o200k_base", b"Short.".to_vec()).unwrap();
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Done {
                id: 2,
                offsets: Encoding::O200kBase.tokenizer().encode("Short.").offsets
            }
        );
        assert_eq!(s.step(1000.0, &clock), Step::Idle);
    }

    #[test]
    fn a_refused_job_drops_the_older_and_says_why() {
        let mut s = Schedule::default();
        s.submit(1, "cl100k_base", TEXT.as_bytes().to_vec())
            .unwrap();
        let refused = s
            .submit(2, "p50k_base", TEXT.as_bytes().to_vec())
            .unwrap_err();
        assert_eq!(refused, "unknown encoding \"p50k_base\"");
        assert_eq!(s.step(1000.0, ticking()), Step::Idle);
        let refused = s.submit(3, "cl100k_base", vec![0xff]).unwrap_err();
        assert!(refused.starts_with("the text is not UTF-8"), "{refused}");
    }
}
