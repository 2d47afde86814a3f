//! The tokenization's state as the page shows it: its progress, the tokenizer module's
//! download, and the kind of edit that made the text (which decides whether its count may wait
//! for a pause: `crate::tokenize::schedule::start_delay`). Plain types with no web type in
//! them, held by the [`Tokenization`](super::Tokenization) and [`SourceText`](super::SourceText)
//! contexts and decided on by the tokenizer's schedule (`crate::tokenize::schedule`).

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
    /// The newest text could not be counted: the page had to count on its own thread and
    /// could not load the tokenizer module (a first visit gone offline, a file missing from
    /// the build). The next edit tries again.
    Failed,
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

/// The tokenizer module on its way to the worker, as the worker reports it: what the status
/// shows while a count waits for the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Loading {
    /// Bytes of the module received so far (as the browser's progress events count them:
    /// decoded, in Chromium).
    pub received: usize,
    /// Bytes of the whole file, when the browser knows them (not for a compressed file).
    pub total: Option<usize>,
}

impl Loading {
    /// The share received, from 0 to 1, when the whole is known.
    pub fn fraction(self) -> Option<f64> {
        let total = self.total.filter(|&t| t > 0)?;
        Some(self.received.min(total) as f64 / total as f64)
    }
}

/// What kind of edit produced the text to count: the one thing besides its length that
/// decides whether its count waits for `crate::tokenize::schedule::DEBOUNCE` (`crate::tokenize::schedule::start_delay`).
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
