//! Sentence packing (the product's own): whole sentences per chunk up to `chunk_size` units,
//! whole-sentence overlap of at most `chunk_overlap` units; one sentence longer than the size
//! is a chunk of its own, flagged oversize.
//!
//! The rule is [`super::Recursive`]'s, searched at one level only: the start of each sentence
//! (its first non-whitespace character, so the whitespace after a sentence ends the chunk it
//! closes), and, inside a fenced code block, the start of each line of code (a code block is
//! packed by whole lines and never leaves its fence alone in a chunk). Every chunk is an exact
//! slice of the document, sized by the true count of its own text.

use super::recursive::{Grain, Plan};
use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::params::ChunkParams;
use crate::segment::sentences::SentenceRule;
use crate::strategy::length::Length;

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
    /// [`StrategyError::Params`] when `chunk_size == 0`.
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
        let plan = Plan::new(text, self.length, self.rule, Grain::Sentences);
        Ok(plan.split(self.params.chunk_size(), self.params.chunk_overlap()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, Boundary, SizeUnit};
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
        // The space after a sentence ends the chunk it closes.
        let texts: Vec<_> = out.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(
            texts,
            [
                "Cats sleep a lot. ",
                "Dogs bark at night. ",
                "And here is a much longer closing sentence that keeps going well past the limit."
            ]
        );
        let oversize: Vec<_> = out.chunks.iter().map(|c| c.flags.oversize).collect();
        assert_eq!(oversize, [false, false, true]);
    }

    fn pieces(text: &str, size: usize, overlap: usize) -> Vec<(String, Boundary)> {
        let s = crate::strategy::test_settings(size, overlap, SizeUnit::Tokens);
        SentencePacking::new(&s)
            .expect("valid")
            .split(text)
            .expect("ok")
            .into_iter()
            .map(|p| (text[p.bytes].to_string(), p.reason))
            .collect()
    }

    #[test]
    fn separators_end_their_chunk_and_the_overlap_is_whole_sentences() {
        let text = "Para A.\n\nPara B.\n\nPara C.";
        assert_eq!(
            pieces(text, 3, 0),
            [
                ("Para A.\n\n".to_string(), Boundary::Sentence),
                ("Para B.\n\n".to_string(), Boundary::Sentence),
                ("Para C.".to_string(), Boundary::EndOfText),
            ]
        );
        let text = "One two. Three four. Five six. Seven eight.";
        assert_eq!(
            pieces(text, 8, 4),
            [
                ("One two. Three four. ".to_string(), Boundary::Sentence),
                ("Three four. Five six. ".to_string(), Boundary::Sentence),
                ("Five six. Seven eight.".to_string(), Boundary::EndOfText),
            ]
        );
    }

    #[test]
    fn a_code_block_is_packed_by_lines_with_its_fences() {
        let lines: String = (0..12).map(|i| format!("let x{i} = {i};\n")).collect();
        let text = format!("Intro sentence.\n\n```rust\n{lines}```\n\nOutro.");
        let got = pieces(&text, 30, 0);
        // Greedy: the intro and the first lines of code share a chunk; every cut inside the
        // block falls between two lines.
        assert!(
            got[0]
                .0
                .starts_with("Intro sentence.\n\n```rust\nlet x0 = 0;\n"),
            "{got:?}"
        );
        for (t, reason) in &got[..got.len() - 1] {
            assert_eq!(*reason, Boundary::CodeBlockPart, "{t:?}");
            assert!(t.ends_with(";\n"), "{t:?}");
        }
        assert!(got
            .iter()
            .all(|(t, _)| t.trim() != "```rust" && t.trim() != "```"));
        assert!(
            got.last().expect("chunks").0.ends_with("```\n\nOutro."),
            "{got:?}"
        );
    }
}
