//! One text tokenized in slices of whole pieces, so that a caller can stop between two slices:
//! to report progress, to let the browser draw, or to drop a job a newer edit made stale. The
//! page's tokenizer module runs it in its Web Worker and, where there is no worker, on the
//! page's own thread; both give exactly [`Bpe::encode`] of the whole text.
//!
//! Times are milliseconds as `f64` from a caller's clock (`Date.now()` in the browser); sizes
//! are UTF-8 bytes of the text.

use std::sync::Arc;

use super::{Bpe, Encoded, Encoding};

/// Bytes tokenized per step of [`Slicer::run_for`] (whole pieces, so a little more); steps
/// repeat until the call's time has passed, all of them with one memory of merged pieces.
pub const SLICE_BYTES: usize = 16 * 1024;

/// One text being tokenized in slices, each of whole pieces.
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
    #[cfg(feature = "bpe-tables")]
    pub fn new(text: Arc<str>, encoding: Encoding) -> Self {
        Slicer::with(text, encoding.tokenizer())
    }

    /// A job for `text` with the tokenizer `bpe` (e.g. one built from a fetched table,
    /// [`Encoding::load`]).
    pub fn with(text: Arc<str>, bpe: &'static Bpe) -> Self {
        Slicer {
            encoded: Encoded::for_text_of(text.len()),
            text,
            bpe,
            pos: 0,
        }
    }

    /// Tokenizes whole pieces, [`SLICE_BYTES`] at a time, until more than `ms` milliseconds of
    /// `clock` have passed (at least one call); returns true once the whole text is done. A
    /// single piece (e.g. a megabyte of one repeated character) is never cut, so a slice can
    /// run longer than `ms`.
    pub fn run_for(&mut self, ms: f64, clock: impl Fn() -> f64) -> bool {
        let started = clock();
        let text: &str = &self.text;
        // One memory of merged pieces for the whole call, not one per slice of SLICE_BYTES.
        let mut encoder = super::merge::PieceEncoder::new(self.bpe.ranks());
        while self.pos < text.len() {
            self.pos = self.bpe.encode_from_with(
                text,
                self.pos,
                SLICE_BYTES,
                &mut self.encoded,
                &mut encoder,
            );
            if clock() - started > ms {
                break;
            }
        }
        self.pos == self.text.len()
    }

    /// Bytes of the text tokenized so far (a character boundary).
    pub fn done_bytes(&self) -> usize {
        self.pos
    }

    /// Bytes in the whole text.
    pub fn total_bytes(&self) -> usize {
        self.text.len()
    }

    /// The tokens, once [`Slicer::run_for`] has returned true (before, those of the part done).
    pub fn into_encoded(self) -> Encoded {
        self.encoded
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

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
    fn slices_resume_where_they_stopped_and_give_the_whole_texts_tokens() {
        // Over SLICE_BYTES so that one call cannot do it all.
        let text: Arc<str> = Arc::from("Chunks of 猫, 🐈 and Mèo. ".repeat(2_000));
        let whole = Encoding::Cl100kBase.tokenizer().encode(&text);
        let mut slicer = Slicer::new(text.clone(), Encoding::Cl100kBase);
        assert_eq!((slicer.done_bytes(), slicer.total_bytes()), (0, text.len()));
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
        assert_eq!(slicer.into_encoded(), whole);
    }

    /// One call over many steps of SLICE_BYTES, with pieces that recur from step to step (the
    /// memory of merged pieces carries over) and merged pieces of every path: the whole text's
    /// tokens.
    #[test]
    fn one_call_over_many_steps_gives_the_whole_texts_tokens() {
        let unit = "Tokenization of 漢字かな交じり文 and Ŝtranĝa vorto, a wordthatisnotatoken; ";
        let text: Arc<str> = Arc::from(unit.repeat(3 * SLICE_BYTES / unit.len() + 1));
        for encoding in Encoding::ALL {
            let whole = encoding.tokenizer().encode(&text);
            let mut slicer = Slicer::new(text.clone(), encoding);
            assert!(slicer.run_for(f64::INFINITY, || 0.0));
            assert_eq!(slicer.into_encoded(), whole, "{encoding}");
        }
    }

    #[test]
    fn a_slice_with_time_to_spare_does_the_whole_text() {
        let text: Arc<str> = Arc::from("a short text");
        let mut slicer = Slicer::new(text.clone(), Encoding::O200kBase);
        assert!(slicer.run_for(12.0, || 0.0));
        assert_eq!(
            slicer.into_encoded().offsets,
            Encoding::O200kBase.tokenizer().encode(&text).offsets
        );
        let mut empty = Slicer::new(Arc::from(""), Encoding::Cl100kBase);
        assert!(empty.run_for(0.0, ticking(1.0)));
        assert_eq!(empty.into_encoded().offsets, [0]);
    }
}
