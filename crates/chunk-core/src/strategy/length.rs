//! Length functions: how a splitter measures a piece of text. Every library sizes its chunks
//! with one (Python's `len` on `str`, or the length of a tokenizer's encoding), and the product
//! measures each chunk it shows with the chosen tokenizer. The counting itself is
//! [`TokenCounter`]'s, which every tokenizer implements ([`crate::tokenizer`]).

use crate::tokenizer::open::{OpenTokenizer, OpenVocab};
use crate::tokenizer::{Encoding, TokenCounter};

/// A splitter's length function: characters, the tokens of a BPE encoding, or the tokens of an
/// open embedding model's own tokenizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Length {
    /// Unicode scalar values, i.e. Python's `len(str)` (LangChain's, text-splitter's and
    /// chonkie's default). Not bytes, not UTF-16 units, not graphemes.
    Characters,
    /// Tokens of a BPE encoding, special-token strings counted as ordinary text (tiktoken's
    /// `encode_ordinary`).
    Tokens(Encoding),
    /// Tokens of an open model's tokenizer (WordPiece or XLM-R Unigram), without the model's
    /// special tokens: `len(tokenizer.encode(text, add_special_tokens=False).ids)` in Hugging
    /// Face `tokenizers`, which is what LangChain's `from_huggingface_tokenizer`,
    /// text-splitter's `ChunkSizer` for a `Tokenizer`, chonkie's `tokenizer=` and semchunk's
    /// counter measure. The tokenizer must be installed ([`OpenTokenizer::install`]);
    /// [`crate::strategy::chunker`] refuses this length otherwise, and until then it counts 0.
    Model(OpenVocab),
}

impl Length {
    /// Byte offsets of every unit boundary of `text`: `0`, the start of each unit after the
    /// first, and `text.len()`; `[0]` for empty text. For [`Length::Characters`] these are the
    /// char boundaries; for tokens, the token boundaries (a token may end inside a character).
    /// [`Length::Model`] has no byte offsets here (its tokens are read from a normalized,
    /// lower-cased text): its boundaries are the char boundaries, the finest cut a strategy
    /// sizing with it may make.
    #[cfg(feature = "bpe-tables")]
    pub fn boundaries(self, text: &str) -> Vec<usize> {
        match self {
            Length::Characters | Length::Model(_) => text
                .char_indices()
                .map(|(i, _)| i)
                .chain(std::iter::once(text.len()))
                .collect(),
            Length::Tokens(e) => e.tokenizer().encode(text).offsets,
        }
    }

    /// A short stable name: `"characters"`, the encoding's name or the vocabulary's code.
    pub fn name(self) -> &'static str {
        match self {
            Length::Characters => "characters",
            Length::Tokens(e) => e.name(),
            Length::Model(v) => v.code(),
        }
    }

    /// The installed tokenizer of [`Length::Model`], `None` for the other lengths.
    ///
    /// # Errors
    /// [`crate::strategy::StrategyError::TokenizerNotLoaded`] when the model's vocabulary is
    /// not installed ([`OpenTokenizer::install`]): a strategy refuses rather than count 0.
    pub fn model_tokenizer(
        self,
    ) -> Result<Option<&'static OpenTokenizer>, crate::strategy::StrategyError> {
        match self {
            Length::Model(vocab) => vocab
                .loaded()
                .map(Some)
                .ok_or(crate::strategy::StrategyError::TokenizerNotLoaded { vocab }),
            _ => Ok(None),
        }
    }
}

#[cfg(feature = "bpe-tables")]
impl TokenCounter for Length {
    fn count(&self, text: &str) -> usize {
        match self {
            Length::Characters => text.chars().count(),
            Length::Tokens(e) => e.tokenizer().count(text),
            Length::Model(v) => v.loaded().map_or(0, |t| t.count(text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_scalar_values_and_tokens_are_bpe_tokens() {
        assert_eq!(Length::Characters.count("猫a\u{301}"), 3);
        assert_eq!(Length::Characters.boundaries("猫a"), vec![0, 3, 4]);
        assert_eq!(Length::Characters.boundaries(""), vec![0]);
        let cl = Length::Tokens(Encoding::Cl100kBase);
        assert_eq!(cl.count("猫"), 3);
        assert_eq!(cl.boundaries("猫"), vec![0, 1, 2, 3]);
        assert_eq!(Length::Tokens(Encoding::O200kBase).count("猫"), 1);
    }
}
