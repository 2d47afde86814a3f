//! A text prepared once for the simulator (tokenized and segmented), then chunked as often as
//! the sliders move. Tokenizing with a BPE encoding is the slow step; it happens here only.

use super::chunking::{chunk, Chunking, Strategy};
use super::metrics::{metrics, Metrics};
use super::tokens::{TokenSpans, TokenizerChoice};
use crate::params::ParamsError;
use crate::segment::sentences::{sentence_bytes, sentence_tokens, SentenceRule};
use crate::windows::Window;

/// A tokenized, segmented text. It does not keep the text: methods that read it take it again.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Prepared {
    /// Token byte spans.
    pub tokens: TokenSpans,
    /// Sentence byte spans, tiling the text ([`sentence_bytes`]).
    pub sentence_bytes: Vec<(usize, usize)>,
    /// Sentence token ranges, tiling `[0, tokens.len())` ([`sentence_tokens`]); fewer than
    /// `sentence_bytes` when a sentence holds no token start.
    pub sentences: Vec<Window>,
}

impl Prepared {
    /// Tokenizes `text` with `tokenizer` and splits it into sentences with `rule`.
    #[cfg(feature = "bpe-tables")]
    pub fn new(text: &str, tokenizer: TokenizerChoice, rule: SentenceRule) -> Self {
        Self::from_tokens(text, tokenizer.tokenize(text), rule)
    }

    /// Like [`Prepared::new`] with tokens already computed (e.g. to reuse a BPE tokenization
    /// under another sentence rule).
    pub fn from_tokens(text: &str, tokens: TokenSpans, rule: SentenceRule) -> Self {
        let sentence_bytes = sentence_bytes(text, rule);
        let sentences = sentence_tokens(text, &sentence_bytes, &tokens.spans);
        Prepared {
            tokens,
            sentence_bytes,
            sentences,
        }
    }

    /// Tokens in the text.
    pub fn n_tokens(&self) -> usize {
        self.tokens.len()
    }

    /// Chunks the text (see [`chunk`]); sizes in tokens.
    ///
    /// # Errors
    /// [`ParamsError::ZeroChunkSize`] when `chunk_size == 0`.
    pub fn chunk(
        &self,
        strategy: Strategy,
        chunk_size: usize,
        chunk_overlap: usize,
    ) -> Result<Chunking, ParamsError> {
        chunk(
            strategy,
            self.n_tokens(),
            &self.sentences,
            chunk_size,
            chunk_overlap,
        )
    }

    /// Metrics of `chunking` of `text` (the same text this was prepared from).
    pub fn metrics(&self, text: &str, chunking: &Chunking) -> Metrics {
        metrics(text, &self.tokens, &self.sentences, chunking)
    }

    /// Byte range `[start, end)` of each chunk ([`TokenSpans::chunk_bytes`]): they rebuild the
    /// first [`Prepared::covered_bytes`] bytes of the text.
    pub fn chunk_byte_spans(&self, chunking: &Chunking) -> Vec<(usize, usize)> {
        chunking
            .chunks
            .iter()
            .filter_map(|w| self.tokens.chunk_bytes(w.start, w.end))
            .collect()
    }

    /// Bytes that the chunks cover: the whole text when it has a token; 0 when it has none
    /// (empty, or whitespace only under the simple tokenizer: there is no chunk, and the page
    /// says the text holds no token).
    pub fn covered_bytes(&self) -> usize {
        if self.tokens.is_empty() {
            0
        } else {
            self.tokens.text_len
        }
    }
}
