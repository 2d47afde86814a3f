//! Fixed windows (the product's own): `chunk_size` units, stepping by
//! `chunk_size − chunk_overlap`, over the tokens of the encoding or over characters. The same
//! cut as [`crate::windows::fixed_windows`], which the SPEC §2 formula counts.

use super::{Boundary, Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::params::ChunkParams;
use crate::strategy::length::Length;
use crate::windows::fixed_windows;

/// Fixed windows of [`FixedWindows::params`] units of [`FixedWindows::length`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedWindows {
    /// Size and overlap (an overlap ≥ size is clamped and flagged).
    pub params: ChunkParams,
    /// The unit windows are counted in.
    pub length: Length,
}

impl FixedWindows {
    /// Fixed windows with `settings`.
    ///
    /// # Errors
    /// [`StrategyError::Params`] when `chunk_size == 0`.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::Fixed, settings.unit)?;
        Ok(FixedWindows {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            length: settings.length(),
        })
    }
}

impl Chunker for FixedWindows {
    fn overlap_clamped(&self) -> bool {
        self.params.overlap_clamped()
    }

    fn id(&self) -> StrategyId {
        StrategyId::Fixed
    }

    fn budget(&self) -> (usize, Length) {
        (self.params.chunk_size(), self.length)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let bounds = self.length.boundaries(text);
        Ok(window_pieces(
            text,
            &bounds,
            self.params.chunk_size(),
            self.params.chunk_overlap(),
        ))
    }
}

/// Fixed windows of `chunk_size` units stepping by `chunk_size − chunk_overlap` over the units
/// whose byte boundaries are `bounds` ([`Length::boundaries`] of `text`), the last one ending
/// at the text's end ([`fixed_windows`], so the count is the SPEC §2 formula's). The product's
/// fixed windows, LangChain's `TokenTextSplitter` and chonkie's `TokenChunker` all cut this
/// way. An overlap ≥ `chunk_size` is clamped (library strategies refuse it before).
pub(super) fn window_pieces(
    text: &str,
    bounds: &[usize],
    chunk_size: usize,
    chunk_overlap: usize,
) -> Vec<Piece> {
    let n = bounds.len().saturating_sub(1);
    let Some(windows) = fixed_windows(n, chunk_size, chunk_overlap) else {
        return Vec::new();
    };
    windows
        .windows
        .into_iter()
        .map(|w| {
            let reason = if w.end == n {
                Boundary::EndOfText
            } else {
                Boundary::SizeLimit
            };
            token_piece(text, bounds[w.start]..bounds[w.end], reason)
        })
        .collect()
}

/// A piece for a byte range that may start or end inside a character (a token window): the
/// slice itself when it is on char boundaries, else its bytes decoded with U+FFFD for each
/// incomplete character, as tiktoken's `decode` (Python's `errors="replace"`) does.
pub(super) fn token_piece(text: &str, bytes: std::ops::Range<usize>, reason: Boundary) -> Piece {
    if text.get(bytes.clone()).is_some() {
        Piece::slice(bytes, reason)
    } else {
        let own = String::from_utf8_lossy(&text.as_bytes()[bytes.clone()]).into_owned();
        Piece {
            text: Some(own),
            ..Piece::slice(bytes, reason)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, SizeUnit};
    use crate::tokenizer::Encoding;

    use crate::strategy::test_settings as settings;

    #[test]
    fn e02_two_windows_and_e04_cut_characters_are_marked_changed() {
        let text = "one two three four five six seven eight nine ten";
        let c = FixedWindows::new(&settings(8, 4, SizeUnit::Tokens)).expect("valid");
        let out = run(&c, text, Encoding::Cl100kBase).expect("ok");
        let ranges: Vec<_> = out.chunks.iter().map(|c| c.token_range.clone()).collect();
        assert_eq!(ranges, [Some(0..8), Some(4..10)]);
        assert_eq!(out.chunks[1].reason, Boundary::EndOfText);
        assert!(!out.overlap_clamped);
        // E01: an overlap at the size is lowered to size − 1, and the output says so.
        let c = FixedWindows::new(&settings(2, 2, SizeUnit::Tokens)).expect("valid");
        let out = run(&c, text, Encoding::Cl100kBase).expect("ok");
        assert!(out.overlap_clamped);
        assert_eq!(out.chunks.len(), 9);
        // 猫 is three cl100k tokens of one byte each: a window of one token cuts it.
        let c = FixedWindows::new(&settings(1, 0, SizeUnit::Tokens)).expect("valid");
        let out = run(&c, "猫", Encoding::Cl100kBase).expect("ok");
        assert_eq!(out.chunks.len(), 3);
        assert!(out.chunks.iter().all(|c| c.flags.text_changed));
        assert_eq!(out.chunks[0].text.as_deref(), Some("\u{FFFD}"));
        let c = FixedWindows::new(&settings(2, 0, SizeUnit::Characters)).expect("valid");
        let out = run(&c, "猫猫猫", Encoding::Cl100kBase).expect("ok");
        let texts: Vec<_> = out.chunks.iter().map(|c| c.text("猫猫猫")).collect();
        assert_eq!(texts, ["猫猫", "猫"]);
        assert_eq!(out.chunks[0].tokens, 6);
    }
}
