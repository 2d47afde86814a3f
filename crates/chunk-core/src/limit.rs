//! The embedding model's input limit (SPEC §10): how many tokens the model reads of each chunk
//! (its own tokenizer, special tokens and required prefix) and what it drops. The comparison
//! table (`analysis::compare`) and the retrieval sweep (`retrieval::sweep`) both check chunks
//! with it.

use crate::models::{EmbeddingModel, ModelTokenizer};
use crate::strategy::Chunks;
use crate::tokenizer::open::OpenTokenizer;
use crate::tokenizer::Encoding;
use crate::tokenizer::TokenCounter;

/// What a chunk's count against the embedding model's limit is measured with (SPEC §10: "each
/// chunk tokenized by the model's own tokenizer with its special tokens and required prefix").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "basis", content = "encoding", rename_all = "kebab-case")]
pub enum LimitBasis {
    /// No model limit: the limit is a plain number of the chunks' own tokens.
    ChunkTokens,
    /// The model's own tokenizer (its BPE encoding, or its WordPiece / Unigram vocabulary):
    /// the counts are the model's.
    Own,
    /// The vendor publishes no tokenizer: this encoding stands in, and the counts are
    /// estimates ([`crate::models::ModelTokenizer::Proxy`]).
    Proxy(Encoding),
    /// The model's own tokenizer could not be loaded (its vocabulary file did not arrive):
    /// this encoding, the one the chunks are sized with, stands in, and the counts are
    /// estimates.
    StandIn(Encoding),
}

impl LimitBasis {
    /// True when the over-limit counts are the model's own.
    pub fn is_exact(self) -> bool {
        matches!(self, LimitBasis::Own | LimitBasis::ChunkTokens)
    }
}

/// The embedding model's input limit as a check of each chunk: a chunk of `n` tokens of the
/// model's tokenizer is read as `n + added_tokens`, and the model truncates it when that
/// exceeds `max_input_tokens`, dropping the excess.
#[derive(Clone, Copy)]
pub struct LimitCheck<'a> {
    /// The model's maximum input, in its tokens, including what it adds (special tokens,
    /// required prefix).
    pub max_input_tokens: usize,
    /// Tokens the model adds to every input: its special tokens (`[CLS]`, `[SEP]`).
    pub added_tokens: usize,
    /// The text the model card requires before every document (`"passage: "`): each chunk is
    /// counted with it in front, as the model reads it (a prefix's tokens do not always add up
    /// with the chunk's: SentencePiece gives the prefix's trailing space a piece of its own).
    /// Counted only with a [`LimitCheck::counter`].
    pub prefix: Option<&'a str>,
    /// Counts a chunk's text with the model's tokenizer; `None`: the chunks' own token counts
    /// ([`crate::strategy::Chunk::tokens`]) are already in it.
    pub counter: Option<&'a dyn TokenCounter>,
    /// What the counts are.
    pub basis: LimitBasis,
}

impl LimitCheck<'static> {
    /// A plain limit of `max_input_tokens` of the chunks' own tokens, nothing added
    /// ([`LimitBasis::ChunkTokens`]); `usize::MAX` checks nothing.
    pub const fn within(max_input_tokens: usize) -> Self {
        LimitCheck {
            max_input_tokens,
            added_tokens: 0,
            prefix: None,
            counter: None,
            basis: LimitBasis::ChunkTokens,
        }
    }
}

#[cfg(feature = "bpe-tables")]
impl<'a> LimitCheck<'a> {
    /// The check of every chunk against `model`'s input limit (SPEC §10), with the model's own
    /// tokenizer where there is one: its BPE encoding (counted afresh when the chunks are sized
    /// with another encoding than `sizing`), a proxy encoding for a vendor without a public
    /// tokenizer ([`LimitBasis::Proxy`]), or its WordPiece / Unigram vocabulary from `open`
    /// (the tokenizers loaded so far). Without that vocabulary, the sizing encoding stands in
    /// and says so ([`LimitBasis::StandIn`]). A model without a stated limit checks nothing.
    pub fn for_model(
        model: &'static EmbeddingModel,
        sizing: Encoding,
        open: &[&'a OpenTokenizer],
    ) -> LimitCheck<'a> {
        let Some(max_input_tokens) = model.max_input_tokens else {
            return LimitCheck::within(usize::MAX);
        };
        let bpe = |e: Encoding| -> Option<&'a dyn TokenCounter> {
            // The chunks' own counts are in the sizing encoding; a prefix needs a count of its own.
            (e != sizing || model.required_prefix.is_some())
                .then(|| e.tokenizer() as &dyn TokenCounter)
        };
        let (counter, basis) = match model.tokenizer {
            ModelTokenizer::Bpe(e) => (bpe(e), LimitBasis::Own),
            ModelTokenizer::Proxy(e) => (bpe(e), LimitBasis::Proxy(e)),
            other => match other
                .open_vocab()
                .and_then(|v| open.iter().copied().find(|t| t.vocab() == v))
            {
                Some(t) => (Some(t as &dyn TokenCounter), LimitBasis::Own),
                None => (bpe(sizing), LimitBasis::StandIn(sizing)),
            },
        };
        LimitCheck {
            max_input_tokens,
            added_tokens: model.special_tokens,
            prefix: model.required_prefix,
            counter,
            basis,
        }
    }
}

impl std::fmt::Debug for LimitCheck<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LimitCheck")
            .field("max_input_tokens", &self.max_input_tokens)
            .field("added_tokens", &self.added_tokens)
            .field("prefix", &self.prefix)
            .field("counter", &self.counter.is_some())
            .field("basis", &self.basis)
            .finish()
    }
}

/// Every chunk of `chunks` (cut from `text`) as the model reads it, in order: the tokens of
/// the prefix and its text in the model's tokenizer plus [`LimitCheck::added_tokens`].
/// Compare each with [`LimitCheck::max_input_tokens`]: the excess is what the model drops.
pub fn model_tokens(text: &str, chunks: &Chunks, limit: &LimitCheck<'_>) -> Vec<usize> {
    let mut prefixed = String::new();
    chunks
        .chunks
        .iter()
        .map(|c| {
            let own = match (limit.counter, limit.prefix) {
                (Some(counter), None) => counter.count(&c.text(text)),
                (Some(counter), Some(prefix)) => {
                    prefixed.clear();
                    prefixed.push_str(prefix);
                    prefixed.push_str(&c.text(text));
                    counter.count(&prefixed)
                }
                (None, _) => c.tokens,
            };
            own.saturating_add(limit.added_tokens)
        })
        .collect()
}

/// How many of the chunks, read as `read` tokens each ([`model_tokens`]), exceed
/// `max_input_tokens`: the chunks the model truncates.
pub fn chunks_over_limit(read: &[usize], max_input_tokens: usize) -> usize {
    read.iter().filter(|&&t| t > max_input_tokens).count()
}

/// Tokens the model drops of a chunk it reads as `read` tokens under a limit of
/// `max_input_tokens`: the excess, 0 when the chunk fits.
pub fn dropped_tokens(read: usize, max_input_tokens: usize) -> usize {
    read.saturating_sub(max_input_tokens)
}
