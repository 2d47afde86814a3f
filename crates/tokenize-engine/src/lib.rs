//! The page's tokenizer module: chunk-core's BPE tokenizer (cl100k_base, o200k_base) behind two
//! `wasm-bindgen` classes, [`Worker`] and [`SlicedJob`]. The module holds no table: each
//! encoding's table is a file of its own (`tables/<encoding>.bin`, written into the build by
//! `examples/tables.rs`), fetched only when that encoding is wanted and checked against the
//! size and checksum this build wrote ([`Encoding::load`]).
//!
//! It is its own wasm module so that the page's module (the UI) carries no table and paints
//! without waiting for them. `assets/tokenize-worker.js` runs it in the tokenizer's Web Worker
//! through [`Worker`] ([`Schedule`]: the default encoding's table asked for at once, a job's
//! table asked for when it is missing, only the newest job runs, one slice per step, progress
//! after each slice, the offsets when done; the script fetches what a step asks for, posts
//! what it answers and returns to its event loop between two steps); where no worker runs, the
//! page instantiates the same compiled module on its own thread (`src/tokenize/local.rs`),
//! hands it the table it fetched ([`load_table`]) and runs the same slices between two frames.
//! Trunk builds it as a worker module (`index.html`, `data-type="worker"`), as
//! `tokenize-engine.js` + `tokenize-engine_bg.wasm`.

#[cfg(feature = "bench")]
mod bench;

use std::collections::VecDeque;
use std::sync::Arc;

use chunk_core::tokenizer::sliced::Slicer;
use chunk_core::tokenizer::{Bpe, Encoding};
use js_sys::{Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

/// What one step of the tokenizer's worker did or asks for ([`Schedule::step`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do until a message or a table arrives (the script waits).
    Idle,
    /// Fetch this table file (an URL relative to the page's folder, [`Encoding::table_file`])
    /// and hand its bytes, or the failure, to [`Schedule::table_arrived`].
    Fetch {
        /// The file to fetch.
        file: String,
    },
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
    /// No job, and a slice of the warm-up ran ([`warm_up_text`]): nothing to post; the next
    /// step goes on (a job handed over meanwhile comes first).
    Warming,
    /// A table has arrived and been checked: the worker can count with `encoding` (the page
    /// takes the first such step as the worker being able to count).
    Loaded {
        /// The encoding whose table is now loaded.
        encoding: Encoding,
    },
    /// A table could not be fetched or was refused (English, for the console; the page then
    /// counts on its own thread): job `id`, which waited for it, is dropped; `id` is `None`
    /// when no job waited and the worker has no table at all (the default encoding's failed).
    Failed {
        /// The job's number, when a job waited for the table.
        id: Option<u32>,
        /// Why.
        message: String,
    },
}

/// A submitted job: its number, encoding and text, and its slicer once its table is there.
struct Job {
    id: u32,
    encoding: Encoding,
    text: Arc<str>,
    slicer: Option<Slicer>,
}

/// The tokenizer worker's schedule, with no web type in it: at most one job, the newest
/// submitted; each [`Schedule::step`] asks for a missing table or runs one slice of the job.
pub struct Schedule {
    /// The newest job.
    job: Option<Job>,
    /// Tables to ask for, in order.
    wanted: VecDeque<Encoding>,
    /// Tables asked for ([`Step::Fetch`]) and not handed back yet.
    fetching: Vec<Encoding>,
    /// A table that failed, and why, until a step reports it.
    failed: Option<(Encoding, String)>,
    /// Tables loaded and not reported yet ([`Step::Loaded`]).
    loaded: VecDeque<Encoding>,
    /// The warm-up run of the first table loaded ([`warm_up_text`]), while no job runs.
    warm: Option<Slicer>,
    /// Whether a warm-up has been set up (once per schedule).
    warmed: bool,
    /// The tokenizers of the tables this schedule was handed ([`Schedule::table_arrived`]),
    /// by position in [`Encoding::ALL`].
    tables: [Option<&'static Bpe>; 2],
}

impl Default for Schedule {
    /// A schedule that asks first for the default encoding's table
    /// ([`Encoding::default`], the one the page counts with unless a model says otherwise), so
    /// that it arrives while the page waits for a text; any other is asked for when a job
    /// needs it.
    fn default() -> Self {
        let mut schedule = Schedule {
            job: None,
            wanted: VecDeque::new(),
            fetching: Vec::new(),
            failed: None,
            loaded: VecDeque::new(),
            warm: None,
            warmed: false,
            tables: [None; 2],
        };
        schedule.want(Encoding::default());
        schedule
    }
}

impl Schedule {
    /// The tokenizer of `encoding` once its table has arrived.
    fn table(&self, encoding: Encoding) -> Option<&'static Bpe> {
        let at = Encoding::ALL.iter().position(|&e| e == encoding)?;
        self.tables[at]
    }

    /// Asks for `encoding`'s table unless it has arrived, is asked for or is being fetched.
    fn want(&mut self, encoding: Encoding) {
        if self.table(encoding).is_none()
            && !self.wanted.contains(&encoding)
            && !self.fetching.contains(&encoding)
        {
            self.wanted.push_back(encoding);
        }
    }

    /// Makes job `id` (the text `bytes`, as UTF-8, tokenized with the encoding named
    /// `encoding`: `"cl100k_base"`, `"o200k_base"`) the one that runs, asking for its table if
    /// it is missing; the job that ran before is dropped, whatever its number (the page numbers
    /// its jobs in order), even when this one is refused.
    ///
    /// # Errors
    /// An unknown encoding name, or bytes that are not UTF-8; in English.
    pub fn submit(&mut self, id: u32, encoding: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.job = None;
        let encoding = Encoding::from_name(encoding)
            .ok_or_else(|| format!("unknown encoding {encoding:?}"))?;
        let text = String::from_utf8(bytes).map_err(|e| format!("the text is not UTF-8: {e}"))?;
        self.want(encoding);
        self.job = Some(Job {
            id,
            encoding,
            text: Arc::from(text),
            slicer: None,
        });
        Ok(())
    }

    /// Hands back the table file asked for by [`Step::Fetch`]: its bytes, or why the fetch
    /// failed. The bytes are checked and the tokenizer built ([`Encoding::load`]), which the
    /// next step reports ([`Step::Loaded`]); a refused or failed table fails the job that
    /// waits for it at the next step, or the worker when it has no table at all (a later job
    /// asks for the file again). A file not asked for is ignored.
    pub fn table_arrived(&mut self, file: &str, bytes: Result<Vec<u8>, String>) {
        let Some(at) = self.fetching.iter().position(|e| e.table_file() == file) else {
            return;
        };
        let encoding = self.fetching.swap_remove(at);
        let loaded = match bytes {
            Ok(bytes) => encoding
                .load(bytes)
                .map_err(|why| format!("table refused: {why}")),
            Err(why) => Err(format!(
                "table {} not fetched: {why}",
                encoding.table_path()
            )),
        };
        match loaded {
            Ok(bpe) => {
                if let Some(at) = Encoding::ALL.iter().position(|&e| e == encoding) {
                    self.tables[at] = Some(bpe);
                }
                self.loaded.push_back(encoding);
                if !self.warmed {
                    self.warmed = true;
                    self.warm = Some(Slicer::with(Arc::from(warm_up_text(bpe)), bpe));
                }
            }
            Err(why) => self.failed = Some((encoding, why)),
        }
    }

    /// The next thing to do: a table to fetch ([`Step::Fetch`], each once), a table loaded
    /// ([`Step::Loaded`]) or failed ([`Step::Failed`]), else one slice of the job — whole
    /// pieces until more than `ms` milliseconds of `clock` have passed ([`Slicer::run_for`]):
    /// [`Step::Done`] when the text is done (the job is dropped), [`Step::Progress`]
    /// otherwise; [`Step::Idle`] without a job or while its table is on its way.
    pub fn step(&mut self, ms: f64, clock: impl Fn() -> f64) -> Step {
        if let Some(encoding) = self.wanted.pop_front() {
            self.fetching.push(encoding);
            return Step::Fetch {
                file: encoding.table_file(),
            };
        }
        if let Some(encoding) = self.loaded.pop_front() {
            return Step::Loaded { encoding };
        }
        let job = self.job.as_ref().map(|j| (j.id, j.encoding));
        if let Some((failed, message)) = self.failed.take() {
            match job {
                Some((id, encoding)) if encoding == failed && self.table(encoding).is_none() => {
                    self.job = None;
                    return Step::Failed {
                        id: Some(id),
                        message,
                    };
                }
                None if self.tables.iter().all(Option::is_none) => {
                    return Step::Failed { id: None, message };
                }
                _ => {} // a later job of that encoding asks for it again
            }
        }
        let Some((id, encoding)) = job else {
            return match &mut self.warm {
                Some(warm) => {
                    if warm.run_for(ms.min(WARM_UP_SLICE_MS), clock) {
                        self.warm = None;
                    }
                    Step::Warming
                }
                None => Step::Idle,
            };
        };
        let table = self.table(encoding);
        let Some(job) = &mut self.job else {
            return Step::Idle;
        };
        let slicer = match &mut job.slicer {
            Some(slicer) => slicer,
            None => match table {
                Some(bpe) => job.slicer.insert(Slicer::with(job.text.clone(), bpe)),
                None => return Step::Idle,
            },
        };
        if !slicer.run_for(ms, clock) {
            return Step::Progress {
                id,
                done: slicer.done_bytes(),
            };
        }
        match self.job.take().and_then(|j| j.slicer) {
            Some(slicer) => Step::Done {
                id,
                offsets: slicer.into_encoded().offsets,
            },
            None => Step::Idle,
        }
    }
}

/// The longest slice of the warm-up, in milliseconds: a job handed over meanwhile waits at most
/// about this long.
pub const WARM_UP_SLICE_MS: f64 = 4.0;

/// Bytes of the warm-up text ([`warm_up_text`]).
pub const WARM_UP_BYTES: usize = 256 * 1024;

/// A text to tokenize once, while no job runs, after the first table has arrived: the first
/// paste then finds the split and the merge already compiled by the browser's optimizing tier
/// (a wasm function starts in a baseline tier and is optimized once it has run for a while),
/// so that it costs what a later paste costs. About [`WARM_UP_BYTES`]: the table's own tokens
/// (every 13th rank, so words, numbers, punctuation and other scripts, rare ones too), each
/// followed by a space or a newline, as UTF-8 (bytes that are not are replaced).
pub fn warm_up_text(bpe: &Bpe) -> String {
    let mut bytes = Vec::with_capacity(WARM_UP_BYTES + 256);
    let vocab = bpe.vocab_size().max(1) as u32;
    let mut rank: u32 = 0;
    while bytes.len() < WARM_UP_BYTES {
        bytes.extend_from_slice(bpe.token_bytes(rank % vocab).unwrap_or(b"x"));
        bytes.push(if rank.is_multiple_of(11) { b'\n' } else { b' ' });
        rank = rank.wrapping_add(13);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The tokenizer's worker ([`Schedule`]) for `assets/tokenize-worker.js`: `new Worker()`,
/// `submit(id, encoding, bytes)` for each job message, `step(slice_ms)` until it answers
/// `null`, fetching each file a step asks for and posting every other answer, and
/// `table_fetched(file, bytes)` / `table_failed(file, message)` when a fetch ends.
#[wasm_bindgen]
#[derive(Default)]
pub struct Worker {
    schedule: Schedule,
}

#[wasm_bindgen]
impl Worker {
    /// A worker with no job, which asks first for the default encoding's table.
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

    /// [`Schedule::table_arrived`] with the bytes of `file` (a `Uint8Array`, copied).
    pub fn table_fetched(&mut self, file: &str, bytes: Vec<u8>) {
        self.schedule.table_arrived(file, Ok(bytes));
    }

    /// [`Schedule::table_arrived`] with why the fetch of `file` failed.
    pub fn table_failed(&mut self, file: &str, message: String) {
        self.schedule.table_arrived(file, Err(message));
    }

    /// The next step, run for at most about `ms` milliseconds (`Date.now()`): `{kind: "fetch",
    /// file}` (for the script: fetch that file, relative to the page's folder), or the message
    /// the page receives: `{kind: "table", encoding}` (a table loaded: the worker can count),
    /// `{kind: "warming"}` (for the script: nothing to post, step again),
    /// `{kind: "progress", id, done}` (bytes done), `{kind: "done", id, offsets}` (a
    /// `Uint32Array` of the token boundaries' byte offsets, to transfer), `{kind: "failed",
    /// id, message}` (`id` null when no job waited); `null` when there is nothing to do now.
    ///
    /// # Errors
    /// Only when the message object cannot be built.
    pub fn step(&mut self, ms: f64) -> Result<JsValue, JsValue> {
        let message = Object::new();
        match self.schedule.step(ms, js_sys::Date::now) {
            Step::Idle => return Ok(JsValue::NULL),
            Step::Warming => {
                Reflect::set(&message, &"kind".into(), &"warming".into())?;
            }
            Step::Fetch { file } => {
                Reflect::set(&message, &"kind".into(), &"fetch".into())?;
                Reflect::set(&message, &"file".into(), &file.into())?;
            }
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
            Step::Loaded { encoding } => {
                Reflect::set(&message, &"kind".into(), &"table".into())?;
                Reflect::set(&message, &"encoding".into(), &encoding.name().into())?;
            }
            Step::Failed { id, message: why } => {
                Reflect::set(&message, &"kind".into(), &"failed".into())?;
                Reflect::set(
                    &message,
                    &"id".into(),
                    &id.map_or(JsValue::NULL, JsValue::from),
                )?;
                Reflect::set(
                    &message,
                    &"message".into(),
                    &format!("tokenizer worker: {why}").into(),
                )?;
            }
        }
        Ok(message.into())
    }
}

/// The table file of the encoding named `encoding` ([`Encoding::table_file`], relative to the
/// page's folder) when this instance has not loaded it yet; `undefined` when it has. For the
/// page's own thread, which fetches it and hands it to [`load_table`].
///
/// # Errors
/// An unknown encoding name (a JS `Error`).
#[wasm_bindgen]
pub fn table_needed(encoding: &str) -> Result<Option<String>, JsError> {
    let encoding = Encoding::from_name(encoding)
        .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
    Ok(encoding.loaded().is_none().then(|| encoding.table_file()))
}

/// Checks `bytes` as the table of the encoding named `encoding` and builds its tokenizer in
/// this instance ([`Encoding::load`]).
///
/// # Errors
/// An unknown encoding name, or bytes that are not this build's table (a JS `Error` saying
/// what differs).
#[wasm_bindgen]
pub fn load_table(encoding: &str, bytes: Vec<u8>) -> Result<(), JsError> {
    let encoding = Encoding::from_name(encoding)
        .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
    encoding
        .load(bytes)
        .map(|_| ())
        .map_err(|why| JsError::new(&format!("table refused: {why}")))
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
    /// named `encoding` (`"cl100k_base"`, `"o200k_base"`), whose table must have been loaded
    /// in this instance ([`load_table`]).
    ///
    /// # Errors
    /// An unknown encoding name, a table not loaded, or bytes that are not UTF-8 (thrown as a
    /// JS `Error`).
    #[wasm_bindgen(constructor)]
    pub fn new(encoding: &str, bytes: Vec<u8>) -> Result<SlicedJob, JsError> {
        let encoding = Encoding::from_name(encoding)
            .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
        let bpe = encoding
            .loaded()
            .ok_or_else(|| JsError::new(&format!("the {encoding} table is not loaded")))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| JsError::new(&format!("the text is not UTF-8: {e}")))?;
        Ok(SlicedJob {
            slicer: Slicer::with(Arc::from(text), bpe),
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

    /// The first step that is not [`Step::Warming`].
    fn after_warm_up(s: &mut Schedule) -> Step {
        let clock = ticking();
        loop {
            match s.step(1.0, &clock) {
                Step::Warming => {}
                other => return other,
            }
        }
    }

    /// A schedule that has fetched the default encoding's table (as the script does first).
    fn with_default_table() -> Schedule {
        let mut s = Schedule::default();
        let e = Encoding::default();
        assert_eq!(
            s.step(1.0, ticking()),
            Step::Fetch {
                file: e.table_file()
            }
        );
        s.table_arrived(&e.table_file(), Ok(e.embedded_table().to_vec()));
        assert_eq!(s.step(1.0, ticking()), Step::Loaded { encoding: e });
        let clock = ticking();
        let mut warming = 0;
        while s.step(1.0, &clock) == Step::Warming {
            warming += 1;
        }
        assert!(warming > 1, "{warming}");
        s
    }

    #[test]
    fn the_default_table_is_asked_for_first_and_only_once() {
        let mut s = Schedule::default();
        let clock = ticking();
        let file = Encoding::Cl100kBase.table_file();
        assert!(file.starts_with("tables/cl100k_base.bin?v="), "{file}");
        assert_eq!(s.step(1.0, &clock), Step::Fetch { file: file.clone() });
        // A job for it waits for the table, and asks for nothing more.
        s.submit(1, "cl100k_base", TEXT.as_bytes().to_vec())
            .unwrap();
        assert_eq!(s.step(1.0, &clock), Step::Idle);
        s.table_arrived(&file, Ok(Encoding::Cl100kBase.embedded_table().to_vec()));
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Loaded {
                encoding: Encoding::Cl100kBase
            }
        );
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Done {
                id: 1,
                offsets: offsets_of(TEXT)
            }
        );
        assert_eq!(after_warm_up(&mut s), Step::Idle);
    }

    #[test]
    fn a_job_runs_in_slices_with_progress_then_its_offsets() {
        let text = TEXT.repeat(2000);
        let mut s = with_default_table();
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
    fn a_newer_job_drops_the_older_between_two_slices_and_fetches_its_own_table() {
        let mut s = with_default_table();
        let clock = ticking();
        s.submit(1, "cl100k_base", TEXT.repeat(2000).into_bytes())
            .unwrap();
        assert!(matches!(s.step(1.0, &clock), Step::Progress { id: 1, .. }));
        s.submit(2, "o200k_base", b"Short.".to_vec()).unwrap();
        let o200k = Encoding::O200kBase;
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Fetch {
                file: o200k.table_file()
            }
        );
        assert_eq!(s.step(1000.0, &clock), Step::Idle);
        s.table_arrived(&o200k.table_file(), Ok(o200k.embedded_table().to_vec()));
        assert_eq!(s.step(1000.0, &clock), Step::Loaded { encoding: o200k });
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Done {
                id: 2,
                offsets: o200k.tokenizer().encode("Short.").offsets
            }
        );
        assert_eq!(s.step(1000.0, &clock), Step::Idle);
    }

    #[test]
    fn a_failed_or_refused_table_fails_the_job_that_waits_and_is_asked_for_again() {
        let mut s = with_default_table();
        let clock = ticking();
        let o200k = Encoding::O200kBase;
        let file = o200k.table_file();
        s.submit(7, "o200k_base", TEXT.as_bytes().to_vec()).unwrap();
        assert_eq!(s.step(1.0, &clock), Step::Fetch { file: file.clone() });
        s.table_arrived(&file, Err("Error: tables/o200k_base.bin: HTTP 404".into()));
        assert_eq!(
            s.step(1.0, &clock),
            Step::Failed {
                id: Some(7),
                message: "table tables/o200k_base.bin not fetched: Error: \
                          tables/o200k_base.bin: HTTP 404"
                    .into()
            }
        );
        assert_eq!(s.step(1.0, &clock), Step::Idle);
        // A stale file (cl100k_base's bytes under o200k_base's name) is refused with why.
        s.submit(8, "o200k_base", TEXT.as_bytes().to_vec()).unwrap();
        assert_eq!(s.step(1.0, &clock), Step::Fetch { file: file.clone() });
        let stale = Encoding::Cl100kBase.embedded_table();
        s.table_arrived(&file, Ok(stale.to_vec()));
        assert_eq!(
            s.step(1.0, &clock),
            Step::Failed {
                id: Some(8),
                message: format!(
                    "table refused: tables/o200k_base.bin: {} bytes, \
                     this build's table has {}",
                    stale.len(),
                    o200k.table_facts().bytes
                )
            }
        );
        // A file nobody asked for changes nothing.
        s.table_arrived("tables/other.bin", Ok(vec![1, 2, 3]));
        assert_eq!(s.step(1.0, &clock), Step::Idle);
    }

    #[test]
    fn the_warm_up_yields_to_a_job_and_is_never_posted() {
        let mut s = Schedule::default();
        let e = Encoding::default();
        let clock = ticking();
        assert!(matches!(s.step(1.0, &clock), Step::Fetch { .. }));
        s.table_arrived(&e.table_file(), Ok(e.embedded_table().to_vec()));
        assert_eq!(s.step(1.0, &clock), Step::Loaded { encoding: e });
        assert_eq!(s.step(1.0, &clock), Step::Warming);
        s.submit(3, "cl100k_base", TEXT.as_bytes().to_vec())
            .unwrap();
        assert_eq!(
            s.step(1000.0, &clock),
            Step::Done {
                id: 3,
                offsets: offsets_of(TEXT)
            }
        );
        // The warm-up goes on, then ends.
        let mut warming = 0;
        while s.step(1.0, &clock) == Step::Warming {
            warming += 1;
        }
        assert!(warming > 0);
        assert_eq!(s.step(1.0, &clock), Step::Idle);
        let text = warm_up_text(e.tokenizer());
        assert!(
            (WARM_UP_BYTES..2 * WARM_UP_BYTES).contains(&text.len()),
            "{}",
            text.len()
        );
    }

    #[test]
    fn a_failed_default_table_fails_the_worker_only_while_it_has_no_table() {
        let mut s = Schedule::default();
        let clock = ticking();
        let file = Encoding::Cl100kBase.table_file();
        assert_eq!(s.step(1.0, &clock), Step::Fetch { file: file.clone() });
        s.table_arrived(&file, Err("Error: network error".into()));
        assert_eq!(
            s.step(1.0, &clock),
            Step::Failed {
                id: None,
                message: "table tables/cl100k_base.bin not fetched: Error: network error"
                    .to_owned()
            }
        );
        assert_eq!(s.step(1.0, &clock), Step::Idle);
        // With o200k_base loaded, a failed cl100k_base table fails only a job that needs it.
        let mut s = Schedule::default();
        let o200k = Encoding::O200kBase;
        s.submit(1, "o200k_base", TEXT.as_bytes().to_vec()).unwrap();
        assert_eq!(s.step(1.0, &clock), Step::Fetch { file: file.clone() });
        assert_eq!(
            s.step(1.0, &clock),
            Step::Fetch {
                file: o200k.table_file()
            }
        );
        s.table_arrived(&o200k.table_file(), Ok(o200k.embedded_table().to_vec()));
        s.table_arrived(&file, Err("Error: network error".into()));
        assert_eq!(s.step(1.0, &clock), Step::Loaded { encoding: o200k });
        assert!(matches!(s.step(1000.0, &clock), Step::Done { id: 1, .. }));
        assert_eq!(after_warm_up(&mut s), Step::Idle);
    }

    #[test]
    fn a_refused_job_drops_the_older_and_says_why() {
        let mut s = with_default_table();
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
