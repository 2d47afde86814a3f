//! The tokenizer's schedule, with no web type in it: job generations, progress (of a count,
//! and of the tokenizer module's download), and every decision about when a job starts
//! (typing may be debounced; a paste, a drop or a file never is: [`EditKind`],
//! [`start_delay`]), where it goes and when the worker is given up. The page side
//! ([`crate::tokenize::job`]) and the worker's page-side handle ([`crate::tokenize::worker`]) use
//! it, and neither imports the other for it; it is tested natively.
//!
//! Times are milliseconds as `f64` from a caller's clock (`Date.now()` in the browser, see
//! [`crate::browser::now_ms`]); sizes are UTF-8 bytes of the text.

use std::cell::Cell;

pub use crate::state::tokenization::{EditKind, Loading, Progress};
use std::time::Duration;

/// Work per slice on the page's thread before yielding to the browser, in milliseconds
/// (under one 60 Hz frame).
pub const PAGE_SLICE_MS: f64 = 12.0;
/// Work per slice in the worker before it looks for newer jobs and reports progress, in
/// milliseconds. Longer than the page's own slices (nothing is drawn in the worker); short
/// enough that a newer edit replaces a stale job within a frame or two.
pub const WORKER_SLICE_MS: f64 = 25.0;
/// Texts up to this many bytes start at once; when typed, longer ones wait [`DEBOUNCE`] for
/// typing to pause, so each keystroke in a large document does not restart a long count (a
/// paste, drop or file never waits: [`start_delay`]).
pub const IMMEDIATE_BYTES: usize = 64 * 1024;
/// Wait before counting a long text after a keystroke.
pub const DEBOUNCE: Duration = Duration::from_millis(150);
/// A worker silent this long (in ms) while it has a stale job is inside one long piece (its
/// progress comes every [`WORKER_SLICE_MS`] otherwise): a new job goes to a fresh worker
/// instead of waiting for that piece (about 0.1 s per MB of one repeated character).
pub const STUCK_MS: f64 = 250.0;
/// A starting worker that has neither said "ready" nor reported loading progress for this long
/// is given up. While it downloads the tokenizer module (about 1.5 MB gzip: about 8 s on a slow
/// mobile connection) it reports progress at least every [`LOADING_REPORT_MS`], each report
/// restarting this wait.
pub const READY_TIMEOUT: Duration = Duration::from_secs(15);
/// How often, at most, the starting worker reports the bytes of the tokenizer module received
/// so far, in milliseconds.
pub const LOADING_REPORT_MS: f64 = 100.0;

/// Numbers that order work: each new job (or worker) takes the next number, and only work of
/// the newest number is current; anything older is stale and is dropped when it next reports.
/// The page numbers its jobs and its workers with one each. Interior mutability (`Cell`), so an `Rc`-shared owner can advance
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

    /// The newest generation number (0 before any).
    pub fn newest(&self) -> u32 {
        self.newest.get()
    }

    /// True when `id` is the newest generation: its work may go on and be published.
    pub fn is_current(&self, id: u32) -> bool {
        self.newest.get() == id
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

/// Whether a job is posted to a fresh worker rather than the current one. `worker_ready`: the
/// worker has said "ready". `stale_silent_ms`: `Some(ms since the worker last spoke)` while it
/// still holds an older job, `None` when it holds none. A job always goes to the worker while
/// there is one, even while it is still loading the tokenizer module (the job waits there: the
/// page's own module holds no BPE table, and loading a second copy on the page's thread would
/// only compete with the worker's download). A ready worker silent for more than [`STUCK_MS`]
/// on a stale job is inside one long piece, so the job goes to a fresh worker instead.
pub fn restart_first(worker_ready: bool, stale_silent_ms: Option<f64>) -> bool {
    worker_ready && stale_silent_ms.is_some_and(|ms| ms > STUCK_MS)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_generation_is_current() {
        let g = Generations::default();
        assert_eq!(g.newest(), 0);
        let first = g.advance();
        let second = g.advance();
        assert_eq!((first, second), (1, 2));
        assert!(!g.is_current(first) && g.is_current(second));
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
    fn the_share_of_the_module_received_needs_its_size() {
        let part = Loading {
            received: 250,
            total: Some(1_000),
        };
        assert_eq!(part.fraction(), Some(0.25));
        let over = Loading {
            received: 1_200,
            total: Some(1_000),
        };
        assert_eq!(over.fraction(), Some(1.0));
        let unknown = Loading {
            received: 250,
            total: None,
        };
        assert_eq!(unknown.fraction(), None);
        assert_eq!(Loading::default().fraction(), None);
    }

    #[test]
    fn a_job_goes_to_a_fresh_worker_only_when_the_ready_one_is_stuck() {
        // Starting (loading its module): the job waits for it, however short.
        assert!(!restart_first(false, None));
        assert!(!restart_first(false, Some(STUCK_MS * 10.0)));
        // A ready worker takes every job …
        assert!(!restart_first(true, None));
        assert!(!restart_first(true, Some(STUCK_MS)));
        // … and is replaced when it has been silent past STUCK_MS on a stale job.
        assert!(restart_first(true, Some(STUCK_MS + 1.0)));
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
}
