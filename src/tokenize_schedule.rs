//! The tokenizer's schedule, with no web type in it: job generations, the sliced job, its
//! progress, and every decision about when a job starts (typing may be debounced; a paste, a
//! drop or a file never is: [`EditKind`], [`start_delay`]), where it runs and when the worker
//! is given up. Both the page side ([`crate::tokenize_job`]) and the worker side
//! ([`crate::tokenize_worker`]) use it, and neither imports the other for it; it is tested
//! natively.
//!
//! Times are milliseconds as `f64` from a caller's clock (`Date.now()` in the browser, see
//! [`crate::browser::now_ms`]); sizes are UTF-8 bytes of the text.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use chunk_core::tokenizer::{Bpe, Encoded, Encoding};

/// Bytes handed to `Bpe::encode_from` per call; calls repeat until a slice's time has passed.
pub const SLICE_BYTES: usize = 16 * 1024;
/// Work per slice on the page's thread before yielding to the browser, in milliseconds
/// (under one 60 Hz frame).
pub const PAGE_SLICE_MS: f64 = 12.0;
/// Work per slice in the worker before it looks for newer jobs and reports progress, in
/// milliseconds. Longer than the page's own slices (nothing is drawn in the worker); short
/// enough that a newer edit replaces a stale job within a frame or two.
pub const WORKER_SLICE_MS: f64 = 25.0;
/// Texts up to this many bytes start at once; when typed, longer ones wait [`DEBOUNCE`] for
/// typing to pause, so each keystroke in a large document does not restart a long count (a
/// paste, drop or file never waits: [`start_delay`]). Also the
/// largest text counted on the page's thread while the worker is still starting.
pub const IMMEDIATE_BYTES: usize = 64 * 1024;
/// Wait before counting a long text after a keystroke.
pub const DEBOUNCE: Duration = Duration::from_millis(150);
/// A worker silent this long (in ms) while it has a stale job is inside one long piece (its
/// progress comes every [`WORKER_SLICE_MS`] otherwise): a new job goes to a fresh worker
/// instead of waiting for that piece (about 0.1 s per MB of one repeated character).
pub const STUCK_MS: f64 = 250.0;
/// A worker that has not said "ready" this long after it was started is given up.
pub const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// Numbers that order work: each new job (or worker) takes the next number, and only work of
/// the newest number is current; anything older is stale and is dropped when it next reports.
/// The page numbers its jobs and its workers with one each; the worker keeps the newest job
/// number it has received. Interior mutability (`Cell`), so an `Rc`-shared owner can advance
/// it from any callback.
#[derive(Debug, Default)]
pub struct Generations {
    newest: Cell<u32>,
}

impl Generations {
    /// Starts a new generation and returns its number (1 for the first).
    pub fn advance(&self) -> u32 {
        let next = self.newest.get().wrapping_add(1);
        self.newest.set(next);
        next
    }

    /// Records that generation `id` is the newest (the worker side, when a job arrives).
    pub fn observe(&self, id: u32) {
        self.newest.set(id);
    }

    /// The newest generation number (0 before any).
    pub fn newest(&self) -> u32 {
        self.newest.get()
    }

    /// True when `id` is the newest generation: its work may go on and be published.
    pub fn is_current(&self, id: u32) -> bool {
        self.newest.get() == id
    }
}

/// Progress of the background tokenization.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Progress {
    /// Nothing running.
    #[default]
    Idle,
    /// Tokenizing: `done` of `total` bytes processed.
    Running {
        /// Bytes tokenized so far.
        done: usize,
        /// Bytes in the text.
        total: usize,
    },
}

impl Progress {
    /// The share of the text tokenized, from 0 to 1 (0 when idle or for an empty text): what
    /// the progress bar and the "tokenizing … %" status show.
    pub fn fraction(self) -> f64 {
        match self {
            Progress::Running { done, total } if total > 0 => done.min(total) as f64 / total as f64,
            _ => 0.0,
        }
    }
}

/// What kind of edit produced the text to count: the one thing besides its length that
/// decides whether its count waits for [`DEBOUNCE`] ([`start_delay`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EditKind {
    /// Keystrokes: typing, deleting a character or a word, composing, a line break. More are
    /// likely to follow at once, so a long text's count may wait for a pause.
    Typing,
    /// A whole edit the user makes once: a paste, a drop, a file chosen or dropped, a cut,
    /// undo / redo, "clear", a new encoding for the same text. Its count starts at once.
    #[default]
    Whole,
}

impl EditKind {
    /// The kind of an `input` event by its `InputEvent.inputType` (Input Events Level 2):
    /// pastes (`insertFromPaste`, `insertFromPasteAsQuotation`), drops (`insertFromDrop`,
    /// `deleteByDrag`), `insertFromYank`, `insertReplacementText` (a spelling fix or an
    /// autofill), `deleteByCut`, `historyUndo` and `historyRedo` are whole edits; everything
    /// else (`insertText`, `deleteContentBackward`, `insertCompositionText` …, and an event
    /// with no type, e.g. a script's plain `Event`) is typing.
    pub fn of_input_type(input_type: &str) -> Self {
        match input_type {
            "insertFromPaste"
            | "insertFromPasteAsQuotation"
            | "insertFromDrop"
            | "insertFromYank"
            | "insertReplacementText"
            | "deleteByCut"
            | "deleteByDrag"
            | "historyUndo"
            | "historyRedo" => EditKind::Whole,
            _ => EditKind::Typing,
        }
    }
}

/// How long to wait before starting the job for a text of `text_bytes` bytes made by an edit
/// of `kind`: at once for a whole edit (a paste, a drop, a file: issue 11) and for typing up
/// to [`IMMEDIATE_BYTES`]; [`DEBOUNCE`] for typing in a longer text.
pub fn start_delay(text_bytes: usize, kind: EditKind) -> Duration {
    if kind == EditKind::Whole || text_bytes <= IMMEDIATE_BYTES {
        Duration::ZERO
    } else {
        DEBOUNCE
    }
}

/// Where a job starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// In slices on the page's thread, now.
    Here,
    /// Posted to the worker (on the page's thread after all if there is no worker or the post
    /// fails). `restart_first`: start a fresh worker first, because the current one is stuck
    /// inside a stale job's long piece.
    Worker {
        /// Replace the current worker before posting.
        restart_first: bool,
    },
}

/// Where a job of `text_bytes` bytes starts. `worker_ready`: the worker has said "ready".
/// `stale_silent_ms`: `Some(ms since the worker last spoke)` while it still holds an older job,
/// `None` when it holds none. While the worker starts, a short text is counted here at once (a
/// few ms) rather than queued behind the worker's start; a ready worker silent for more than
/// [`STUCK_MS`] on a stale job is replaced.
pub fn start_decision(
    text_bytes: usize,
    worker_ready: bool,
    stale_silent_ms: Option<f64>,
) -> Start {
    if !worker_ready && text_bytes <= IMMEDIATE_BYTES {
        return Start::Here;
    }
    let stuck = stale_silent_ms.is_some_and(|ms| ms > STUCK_MS);
    Start::Worker {
        restart_first: stuck && worker_ready,
    }
}

/// How long (in ms) the worker may stay silent on a job of `bytes` before it is given up:
/// 10 s plus 1 s per MB, several times what one piece of that size takes to merge (about
/// 0.1–0.2 s per MB of one repeated character).
pub fn silence_limit_ms(bytes: usize) -> f64 {
    10_000.0 + bytes as f64 / 1_000.0
}

/// What the watch over a job in the worker does next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Watch {
    /// The job is no longer in the worker, or no longer current: stop watching.
    Stop,
    /// The worker has been silent for the whole limit: give it up and redo the job here.
    GiveUp,
    /// Look again in this many milliseconds (when the limit would be reached if it stays
    /// silent).
    LookAgainIn(f64),
}

/// The watch's decision for a job that is `watched` (still in the worker and current) after
/// the worker has been silent `silent_ms` of the allowed `limit_ms`.
pub fn watch_decision(watched: bool, silent_ms: f64, limit_ms: f64) -> Watch {
    if !watched {
        Watch::Stop
    } else if silent_ms >= limit_ms {
        Watch::GiveUp
    } else {
        Watch::LookAgainIn(limit_ms - silent_ms)
    }
}

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

    /// Tokenizes whole pieces, [`SLICE_BYTES`] at a time, until more than `ms` milliseconds of
    /// `clock` have passed (at least one call); returns true once the whole text is done. A
    /// single piece (e.g. a megabyte of one repeated character) is never cut, so a slice can
    /// run longer than `ms`.
    pub fn run_for(&mut self, ms: f64, clock: impl Fn() -> f64) -> bool {
        let started = clock();
        while self.pos < self.text.len() {
            self.pos = self
                .bpe
                .encode_from(&self.text, self.pos, SLICE_BYTES, &mut self.encoded);
            if clock() - started > ms {
                break;
            }
        }
        self.pos == self.text.len()
    }

    /// Bytes of the text tokenized so far.
    pub fn done_bytes(&self) -> usize {
        self.pos
    }

    /// The progress of this job.
    pub fn progress(&self) -> Progress {
        Progress::Running {
            done: self.pos,
            total: self.text.len(),
        }
    }

    /// The tokens, once [`Slicer::run_for`] has returned true.
    pub fn into_encoded(self) -> Encoded {
        self.encoded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock that moves `step` ms each time it is read.
    fn ticking(step: f64) -> impl Fn() -> f64 {
        let now = Cell::new(0.0);
        move || {
            now.set(now.get() + step);
            now.get()
        }
    }

    #[test]
    fn only_the_newest_generation_is_current() {
        let g = Generations::default();
        assert_eq!(g.newest(), 0);
        let first = g.advance();
        let second = g.advance();
        assert_eq!((first, second), (1, 2));
        assert!(!g.is_current(first) && g.is_current(second));
        // The worker side takes the page's numbers as they come.
        let w = Generations::default();
        w.observe(7);
        assert!(w.is_current(7) && !w.is_current(6));
        w.observe(9);
        assert!(!w.is_current(7));
    }

    #[test]
    fn progress_is_the_share_of_bytes_done() {
        assert_eq!(Progress::Idle.fraction(), 0.0);
        assert_eq!(Progress::Running { done: 0, total: 0 }.fraction(), 0.0);
        assert_eq!(
            Progress::Running {
                done: 256,
                total: 1024
            }
            .fraction(),
            0.25
        );
        assert_eq!(Progress::Running { done: 9, total: 9 }.fraction(), 1.0);
        assert_eq!(Progress::Running { done: 99, total: 9 }.fraction(), 1.0);
    }

    #[test]
    fn typing_in_a_long_text_waits_for_the_debounce_and_nothing_else_does() {
        use EditKind::{Typing, Whole};
        assert_eq!(start_delay(0, Typing), Duration::ZERO);
        assert_eq!(start_delay(IMMEDIATE_BYTES, Typing), Duration::ZERO);
        assert_eq!(start_delay(IMMEDIATE_BYTES + 1, Typing), DEBOUNCE);
        // A paste, drop or file of any size starts at once.
        assert_eq!(start_delay(0, Whole), Duration::ZERO);
        assert_eq!(start_delay(IMMEDIATE_BYTES + 1, Whole), Duration::ZERO);
        assert_eq!(start_delay(10 << 20, Whole), Duration::ZERO);
    }

    #[test]
    fn pastes_drops_and_cuts_are_whole_edits_keystrokes_are_typing() {
        for whole in [
            "insertFromPaste",
            "insertFromPasteAsQuotation",
            "insertFromDrop",
            "insertFromYank",
            "insertReplacementText",
            "deleteByCut",
            "deleteByDrag",
            "historyUndo",
            "historyRedo",
        ] {
            assert_eq!(EditKind::of_input_type(whole), EditKind::Whole, "{whole}");
        }
        for typing in [
            "insertText",
            "insertLineBreak",
            "insertParagraph",
            "insertCompositionText",
            "insertTranspose",
            "deleteContentBackward",
            "deleteContentForward",
            "deleteWordBackward",
            "deleteSoftLineBackward",
            "deleteHardLineForward",
            "",
            "somethingNew",
        ] {
            assert_eq!(
                EditKind::of_input_type(typing),
                EditKind::Typing,
                "{typing:?}"
            );
        }
        // The case matters, as in the DOM.
        assert_eq!(EditKind::of_input_type("insertfrompaste"), EditKind::Typing);
    }

    #[test]
    fn where_a_job_starts() {
        // The worker is still starting: a short text is counted here, a long one waits for it.
        assert_eq!(start_decision(1_000, false, None), Start::Here);
        assert_eq!(
            start_decision(IMMEDIATE_BYTES + 1, false, None),
            Start::Worker {
                restart_first: false
            }
        );
        // A ready worker takes every job.
        assert_eq!(
            start_decision(10, true, None),
            Start::Worker {
                restart_first: false
            }
        );
        // … and is replaced when it has been silent past STUCK_MS on a stale job.
        assert_eq!(
            start_decision(10, true, Some(STUCK_MS)),
            Start::Worker {
                restart_first: false
            }
        );
        assert_eq!(
            start_decision(10, true, Some(STUCK_MS + 1.0)),
            Start::Worker {
                restart_first: true
            }
        );
        // A worker that is not ready yet is never restarted for being silent.
        assert_eq!(
            start_decision(10_000_000, false, Some(60_000.0)),
            Start::Worker {
                restart_first: false
            }
        );
    }

    #[test]
    fn the_worker_is_given_up_after_its_silence_limit() {
        assert_eq!(silence_limit_ms(0), 10_000.0);
        assert_eq!(silence_limit_ms(10_000_000), 20_000.0);
        let limit = silence_limit_ms(2_000_000);
        assert_eq!(
            watch_decision(true, 0.0, limit),
            Watch::LookAgainIn(12_000.0)
        );
        assert_eq!(
            watch_decision(true, 5_000.0, limit),
            Watch::LookAgainIn(7_000.0)
        );
        assert_eq!(watch_decision(true, 12_000.0, limit), Watch::GiveUp);
        assert_eq!(watch_decision(false, 99_000.0, limit), Watch::Stop);
    }

    #[test]
    fn slices_resume_where_they_stopped_and_give_the_whole_texts_tokens() {
        // Over SLICE_BYTES so that one call cannot do it all.
        let text: Arc<str> = Arc::from("Chunks of 猫, 🐈 and Mèo. ".repeat(2_000));
        let whole = Encoding::Cl100kBase.tokenizer().encode(&text);
        let mut slicer = Slicer::new(text.clone(), Encoding::Cl100kBase);
        assert_eq!(
            slicer.progress(),
            Progress::Running {
                done: 0,
                total: text.len()
            }
        );
        // Each read of this clock moves 10 ms: one call per 5 ms slice.
        let clock = ticking(10.0);
        let mut seen = vec![0];
        while !slicer.run_for(5.0, &clock) {
            let done = slicer.done_bytes();
            assert!(done > *seen.last().unwrap_or(&0), "a slice makes progress");
            assert!(
                done <= *seen.last().unwrap_or(&0) + SLICE_BYTES + 64,
                "one call per slice"
            );
            assert!(text.is_char_boundary(done));
            seen.push(done);
        }
        assert!(
            seen.len() >= text.len() / SLICE_BYTES,
            "{} slices",
            seen.len()
        );
        assert_eq!(slicer.done_bytes(), text.len());
        assert_eq!(slicer.progress().fraction(), 1.0);
        assert_eq!(slicer.into_encoded(), whole);
    }

    #[test]
    fn a_slice_with_time_to_spare_does_the_whole_text() {
        let text: Arc<str> = Arc::from("a short text");
        let mut slicer = Slicer::new(text.clone(), Encoding::O200kBase);
        assert!(slicer.run_for(PAGE_SLICE_MS, || 0.0));
        assert_eq!(
            slicer.into_encoded().offsets,
            Encoding::O200kBase.tokenizer().encode(&text).offsets
        );
        let mut empty = Slicer::new(Arc::from(""), Encoding::Cl100kBase);
        assert!(empty.run_for(0.0, ticking(1.0)));
        assert_eq!(empty.into_encoded().offsets, [0]);
    }
}
