//! Token byte spans: the one representation of a tokenized text that every strategy consumes,
//! whatever the tokenizer.
//!
//! Two tokenizers feed it:
//! - the original simulator's simple tokenizer ([`simple_spans`]): words are the runs of
//!   letters, digits and combining marks; every other non-whitespace character is a token of its
//!   own (so a comma or the `°` of `°C` is one token, and each Vietnamese syllable is one word);
//!   whitespace lies between tokens and belongs to none;
//! - a BPE encoding ([`crate::tokenizer::Encoding`]), whose tokens tile the text.

use crate::tokenizer::classes::{is_space, is_word_char};
use crate::tokenizer::{Encoded, Encoding, TokenCounter};

/// The byte spans of a text's tokens.
///
/// Invariant: spans are in text order, each non-empty (`start < end`), none overlapping
/// (`spans[i].1 ≤ spans[i + 1].0`), all within `text_len`. For a BPE encoding they tile the
/// text; for the simple tokenizer the whitespace between them belongs to no token.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TokenSpans {
    /// Half-open byte ranges `[start, end)` of the tokens, in order (units: bytes).
    pub spans: Vec<(usize, usize)>,
    /// Length of the tokenized text in bytes.
    pub text_len: usize,
}

impl TokenSpans {
    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when the text has no token (it is empty, or whitespace only under the simple
    /// tokenizer).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The byte range `[start, end)` that the chunk of tokens `[first, last)` covers, so that
    /// byte reconstruction holds: it runs from the start of token `first` (byte 0 for
    /// `first == 0`) to the start of token `last` (the text's end for `last == len()`). So the
    /// whitespace after a token belongs to that token, and whitespace before the first token to
    /// the first token. For BPE spans this is exactly the tokens' own bytes.
    ///
    /// Returns `None` unless `first < last ≤ len()`.
    pub fn chunk_bytes(&self, first: usize, last: usize) -> Option<(usize, usize)> {
        if first >= last || last > self.len() {
            return None;
        }
        let start = if first == 0 { 0 } else { self.spans[first].0 };
        let end = if last == self.len() {
            self.text_len
        } else {
            self.spans[last].0
        };
        Some((start, end))
    }

    /// The byte range that token `index` owns in the tiling of [`TokenSpans::chunk_bytes`]: its
    /// own bytes plus the whitespace after it (and before it, for token 0). `None` past the end.
    pub fn owned_bytes(&self, index: usize) -> Option<(usize, usize)> {
        self.chunk_bytes(index, index + 1)
    }

    /// Spans of a BPE encoding's output (`Encoded::offsets` pairs).
    pub fn from_encoded(encoded: &Encoded, text_len: usize) -> Self {
        Self::from_offsets(&encoded.offsets, text_len)
    }

    /// Spans between consecutive token boundaries `offsets` (as `Encoded::offsets`: 0, then
    /// the end of each token), e.g. as the page's tokenizer module returns them.
    pub fn from_offsets(offsets: &[usize], text_len: usize) -> Self {
        TokenSpans {
            spans: offsets.windows(2).map(|w| (w[0], w[1])).collect(),
            text_len,
        }
    }
}

/// The original simulator's tokenizer (see the module docs): byte spans of the words and of
/// every punctuation or symbol character, whitespace excluded. Letters, digits and combining
/// marks (`[\p{L}\p{N}\p{M}]`) form words (`\p{M}` keeps decomposed Vietnamese syllables
/// whole); any other non-whitespace character is a token alone. The classes are the
/// tokenizer's Unicode tables (`crate::tokenizer::classes`).
pub fn simple_spans(text: &str) -> TokenSpans {
    let mut spans = Vec::new();
    let mut word_start = None;
    for (i, c) in text.char_indices() {
        if is_word_char(c) {
            word_start.get_or_insert(i);
            continue;
        }
        if let Some(s) = word_start.take() {
            spans.push((s, i));
        }
        if !is_space(c) {
            spans.push((i, i + c.len_utf8()));
        }
    }
    if let Some(s) = word_start {
        spans.push((s, text.len()));
    }
    TokenSpans {
        spans,
        text_len: text.len(),
    }
}

/// True when the simple-tokenizer token `token` is a word (not a punctuation or symbol mark).
pub fn is_word(token: &str) -> bool {
    token.chars().next().is_some_and(is_word_char)
}

/// Which tokenizer the simulator counts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TokenizerChoice {
    /// The original simulator's simple tokenizer (SPEC §4); the SPEC §4 figures hold for it.
    #[default]
    Simple,
    /// A real BPE encoding, e.g. cl100k_base.
    Bpe(Encoding),
}

impl TokenizerChoice {
    /// Tokenizes `text` into byte spans.
    #[cfg(feature = "bpe-tables")]
    pub fn tokenize(self, text: &str) -> TokenSpans {
        match self {
            TokenizerChoice::Simple => simple_spans(text),
            TokenizerChoice::Bpe(e) => {
                TokenSpans::from_encoded(&e.tokenizer().encode(text), text.len())
            }
        }
    }

    /// Number of tokens in `text` (what [`TokenizerChoice::tokenize`] gives, counted).
    #[cfg(feature = "bpe-tables")]
    pub fn count(self, text: &str) -> usize {
        match self {
            TokenizerChoice::Simple => simple_spans(text).len(),
            TokenizerChoice::Bpe(e) => e.tokenizer().count(text),
        }
    }

    /// A short stable name: `"simple"` or the encoding's name (e.g. `"cl100k_base"`).
    pub fn name(self) -> &'static str {
        match self {
            TokenizerChoice::Simple => "simple",
            TokenizerChoice::Bpe(e) => e.name(),
        }
    }
}

/// A text's token count by the simple tokenizer beside a real BPE encoding's, with their
/// ratio. The simulator's figures (SPEC §4) hold for the simple tokenizer; this says, for the
/// text at hand, whether a real encoding gives more tokens (Vietnamese, where cl100k_base
/// splits most syllables) or fewer (English prose and code, where a word takes its leading space
/// and common words are one token).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenizerComparison {
    /// Tokens by the simple tokenizer.
    pub simple: usize,
    /// The encoding compared.
    pub encoding: Encoding,
    /// Tokens by that encoding.
    pub tokens: usize,
    /// `tokens ÷ simple` (`None` when the simple count is 0).
    pub ratio: Option<f64>,
}

impl TokenizerComparison {
    /// The comparison of two counts already made (the simulator has the encoding's count of
    /// its text from its own tokenization).
    pub fn new(simple: usize, encoding: Encoding, tokens: usize) -> Self {
        let ratio = (simple > 0).then(|| tokens as f64 / simple as f64);
        TokenizerComparison {
            simple,
            encoding,
            tokens,
            ratio,
        }
    }
}

/// The original simulator's simple tokenizer as a counter (SPEC §4): words and single
/// punctuation marks ([`simple_spans`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimpleTokens;

impl TokenCounter for SimpleTokens {
    fn count(&self, text: &str) -> usize {
        simple_spans(text).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simple_tokenizer_counts_words_and_marks() {
        assert_eq!(SimpleTokens.count("XV40, ok"), 3);
    }

    #[test]
    fn a_real_encoding_gives_more_tokens_in_vietnamese_and_fewer_in_english_code() {
        use crate::sim::documents::Preset;
        use crate::Lang;
        let ratio = |text: &str, e: Encoding| {
            let c = TokenizerComparison::new(
                TokenizerChoice::Simple.count(text),
                e,
                TokenizerChoice::Bpe(e).count(text),
            );
            assert_eq!(c.tokens, e.tokenizer().count(text));
            assert_eq!(c.simple, simple_spans(text).len());
            assert_eq!(c.encoding, e);
            c.ratio.unwrap()
        };
        let vi = Preset::Manual.text(Lang::Vi);
        let r = ratio(vi, Encoding::Cl100kBase);
        assert!(r > 1.3, "{r}");
        let code = "def chunk(text, size=512, overlap=64):\n    step = size - overlap\n    return [text[i:i + size] for i in range(0, len(text), step)]\n";
        let r = ratio(code, Encoding::Cl100kBase);
        assert!(r < 1.0, "{r}");
        assert_eq!(
            TokenizerComparison::new(4, Encoding::O200kBase, 3).ratio,
            Some(0.75)
        );
        let empty = TokenizerComparison::new(0, Encoding::O200kBase, 0);
        assert_eq!((empty.simple, empty.tokens, empty.ratio), (0, 0, None));
    }

    fn tokens(text: &str) -> Vec<&str> {
        simple_spans(text)
            .spans
            .iter()
            .map(|&(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn punctuation_is_one_token_each_and_words_are_runs() {
        assert_eq!(
            tokens("XV40, −10 to 50 °C?!"),
            ["XV40", ",", "−", "10", "to", "50", "°", "C", "?", "!"]
        );
        assert_eq!(
            tokens("Thiết bị của XV40."),
            ["Thiết", "bị", "của", "XV40", "."]
        );
        // Decomposed (NFD) Vietnamese stays one word per syllable.
        assert_eq!(tokens("nhie\u{0323}\u{0302}t đo\u{0323}\u{0302}").len(), 2);
        assert_eq!(tokens("   \n\t"), Vec::<&str>::new());
        assert_eq!(tokens("U.S."), ["U", ".", "S", "."]);
    }

    #[test]
    fn chunk_bytes_attribute_whitespace_to_the_preceding_token() {
        let t = "  ab, cd  ";
        let s = simple_spans(t);
        assert_eq!(s.spans, vec![(2, 4), (4, 5), (6, 8)]);
        assert_eq!(s.chunk_bytes(0, 2), Some((0, 6)));
        assert_eq!(s.chunk_bytes(2, 3), Some((6, 10)));
        assert_eq!(s.chunk_bytes(0, 3), Some((0, 10)));
        assert_eq!(s.chunk_bytes(1, 1), None);
        assert_eq!(s.chunk_bytes(2, 4), None);
        assert_eq!(s.owned_bytes(1), Some((4, 6)));
    }

    #[test]
    fn words_and_marks() {
        assert!(is_word("XV40"));
        assert!(is_word("độ"));
        assert!(!is_word(","));
        assert!(!is_word("°"));
    }
}
