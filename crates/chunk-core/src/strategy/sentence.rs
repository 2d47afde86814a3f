//! Sentence packing (the product's own): whole sentences per chunk up to `chunk_size` units,
//! whole-sentence overlap of at most `chunk_overlap` units; one sentence longer than the size
//! is a chunk of its own, flagged oversize. The rule is the simulator's
//! ([`crate::sim::packing::pack_sentences`]), here over tokens or characters.

use super::{Boundary, Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::params::ChunkParams;
use crate::sim::packing::pack_sentences;
use crate::sim::sentences::{sentence_bytes, sentence_tokens, SentenceRule};
use crate::sim::tokens::TokenSpans;
use crate::sizer::Length;

/// Sentence packing with [`SentencePacking::rule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentencePacking {
    /// Size and overlap (an overlap ≥ size is clamped and flagged).
    pub params: ChunkParams,
    /// The unit sizes are counted in.
    pub length: Length,
    /// How sentence ends are found (default: [`SentenceRule::Contextual`]).
    pub rule: SentenceRule,
}

impl SentencePacking {
    /// Sentence packing with `settings`.
    ///
    /// # Errors
    /// [`StrategyError::ZeroChunkSize`] when `chunk_size == 0`.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::Sentence, settings.unit)?;
        Ok(SentencePacking {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            length: settings.length(),
            rule: SentenceRule::Contextual,
        })
    }
}

impl Chunker for SentencePacking {
    fn overlap_clamped(&self) -> bool {
        self.params.overlap_clamped()
    }

    fn id(&self) -> StrategyId {
        StrategyId::Sentence
    }

    fn budget(&self) -> (usize, Length) {
        (self.params.chunk_size(), self.length)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let bounds = self.length.boundaries(text);
        let units = TokenSpans {
            spans: bounds.windows(2).map(|w| (w[0], w[1])).collect(),
            text_len: text.len(),
        };
        let sentences = sentence_tokens(text, &sentence_bytes(text, self.rule), &units.spans);
        let packed = pack_sentences(
            &sentences,
            self.params.chunk_size(),
            self.params.chunk_overlap(),
        );
        let n = units.len();
        Ok(packed
            .chunks
            .into_iter()
            .filter_map(|w| {
                let (s, e) = units.chunk_bytes(w.start, w.end)?;
                let reason = if w.end == n {
                    Boundary::EndOfText
                } else {
                    Boundary::Sentence
                };
                Some(super::fixed::token_piece(text, s..e, reason))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, SizeUnit};
    use crate::tokenizer::Encoding;

    #[test]
    fn e08_a_long_sentence_is_its_own_oversize_chunk() {
        let text = "Cats sleep a lot. Dogs bark at night. And here is a much longer closing sentence that keeps going well past the limit.";
        let s = Settings {
            chunk_size: 10,
            chunk_overlap: 0,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        };
        let out = run(
            &SentencePacking::new(&s).expect("valid"),
            text,
            Encoding::Cl100kBase,
        )
        .expect("ok");
        // BPE tokens carry the space before a word, so each chunk after the first starts with it.
        let texts: Vec<_> = out.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(
            texts,
            [
                "Cats sleep a lot.",
                " Dogs bark at night.",
                " And here is a much longer closing sentence that keeps going well past the limit."
            ]
        );
        let oversize: Vec<_> = out.chunks.iter().map(|c| c.flags.oversize).collect();
        assert_eq!(oversize, [false, false, true]);
    }
}
