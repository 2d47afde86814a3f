//! OpenAI's byte-pair-encoding tokenizers (cl100k_base, o200k_base), exact to the token, with the
//! byte span of every token in the original text.
//!
//! Design (docs/design.md, "The tokenizer's design"): the tables come from tiktoken-rs at build time (`build.rs`) in a
//! compact form ([`table`]), embedded in native builds and the comparison's module, fetched as
//! one file per encoding by the tokenizer's module; the lookup is built on first use of an
//! encoding only.
//! The split step is a hand-written, linear-time scanner equal to tiktoken's regexes ([`pretokenize`]); the merge is
//! tiktoken's rank merge with heap and bucket paths for longer pieces ([`merge`]), over a rank
//! lookup built for it ([`ranks`]). Strings such as
//! `<|endoftext|>` are ordinary text, as on OpenAI's public tokenizer page
//! (tiktoken's `encode_ordinary`). Token ids are checked equal to tiktoken-rs in the tests.
//!
//! The open embedding models' tokenizers, whose tables are not built in but read from a file
//! the page fetches when such a model is chosen: [`wordpiece`] (BERT uncased) and [`unigram`]
//! (XLM-RoBERTa), behind one type in [`open`].

pub(crate) mod classes;
pub(crate) mod indexed;
mod merge;
pub mod open;
mod pretokenize;
mod ranks;
pub mod sliced;
pub mod table;
pub mod unigram;
pub mod wordpiece;

use merge::Ranks;
use pretokenize::Pattern;
use std::fmt;
use std::sync::LazyLock;

/// A BPE encoding shipped with the page (serde: its standard name, `"cl100k_base"`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// `cl100k_base`: OpenAI text-embedding-3-*, text-embedding-ada-002, GPT-4, GPT-3.5.
    /// 100,256 ordinary tokens.
    #[default]
    Cl100kBase,
    /// `o200k_base`: GPT-4o and later. 199,998 ordinary tokens.
    O200kBase,
}

impl Encoding {
    /// Every encoding, default first.
    pub const ALL: [Encoding; 2] = [Encoding::Cl100kBase, Encoding::O200kBase];

    /// The encoding's standard name, e.g. `"cl100k_base"`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Cl100kBase => "cl100k_base",
            Encoding::O200kBase => "o200k_base",
        }
    }

    /// Parses a standard name such as `"o200k_base"`; `None` for any other string.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The tokenizer for this encoding from its embedded table, built on first call, then
    /// shared. Only with the `bpe-tables` feature: the tables are most of a module's size. (A
    /// module without them fetches a table and builds its tokenizer with [`Encoding::load`].)
    #[cfg(feature = "bpe-tables")]
    pub fn tokenizer(self) -> &'static Bpe {
        static CL100K: LazyLock<Bpe> =
            LazyLock::new(|| Bpe::new(Encoding::Cl100kBase.embedded_table(), Encoding::Cl100kBase));
        static O200K: LazyLock<Bpe> =
            LazyLock::new(|| Bpe::new(Encoding::O200kBase.embedded_table(), Encoding::O200kBase));
        match self {
            Encoding::Cl100kBase => &CL100K,
            Encoding::O200kBase => &O200K,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Special-token strings of cl100k_base and o200k_base. They are tokenized as ordinary text;
/// [`find_special_tokens`] reports where they occur so the page can flag them.
pub const SPECIAL_TOKENS: [&str; 5] = [
    "<|endoftext|>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|endofprompt|>",
];

/// Byte offsets and strings of every special-token string in `text`, in order.
///
/// Every special token starts with `<`, so the scan looks for that one byte (a `memchr`-style
/// search, a few milliseconds for 10 MB in wasm) rather than for `"<|"` (a two-way substring
/// search, ten times slower there).
pub fn find_special_tokens(text: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices('<') {
        if let Some(s) = SPECIAL_TOKENS.iter().find(|s| text[at..].starts_with(**s)) {
            out.push((at, *s));
        }
    }
    out
}

/// The special-token strings of `encoding`: tiktoken's `special_tokens_set`
/// (`tiktoken_ext/openai_public.py`), the strings its `encode` refuses under
/// `disallowed_special="all"` and encodes as one token each under `allowed_special="all"`. All
/// five of [`SPECIAL_TOKENS`] for cl100k_base; `<|endoftext|>` and `<|endofprompt|>` for
/// o200k_base (where `<|fim_prefix|>` & co. are ordinary text).
pub fn special_tokens_of(encoding: Encoding) -> &'static [&'static str] {
    match encoding {
        Encoding::Cl100kBase => &SPECIAL_TOKENS,
        Encoding::O200kBase => &["<|endoftext|>", "<|endofprompt|>"],
    }
}

/// [`find_special_tokens`] narrowed to the special tokens of `encoding`
/// ([`special_tokens_of`]).
pub fn find_special_tokens_of(text: &str, encoding: Encoding) -> Vec<(usize, &'static str)> {
    let specials = special_tokens_of(encoding);
    let mut found = find_special_tokens(text);
    found.retain(|(_, s)| specials.contains(s));
    found
}

/// How often each special-token string occurs in `found` (the output of
/// [`find_special_tokens`]), in order of first occurrence: `[("<|endoftext|>", 2), …]`. The
/// counts sum to `found.len()`.
pub fn special_token_counts(found: &[(usize, &'static str)]) -> Vec<(&'static str, usize)> {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for &(_, s) in found {
        match counts.iter_mut().find(|(n, _)| *n == s) {
            Some((_, c)) => *c += 1,
            None => counts.push((s, 1)),
        }
    }
    counts
}

/// Number of tokens between the token boundaries `offsets` (as in [`Encoded::offsets`]:
/// one more boundary than tokens); 0 for no boundary at all.
pub fn tokens_between(offsets: &[usize]) -> usize {
    offsets.len().saturating_sub(1)
}

/// Counts the units (tokens or characters) of any text. The extension point for tokenizers:
/// cl100k_base and o200k_base ([`Bpe`]), the simulator's simple tokenizer ([`crate::sim::tokens::SimpleTokens`]),
/// Unicode scalar values ([`crate::strategy::length::Length::Characters`]), the open models'
/// WordPiece and Unigram ([`open::OpenTokenizer`]).
pub trait TokenCounter {
    /// Units in `text`. Need not be additive: callers never assume
    /// `count(a + b) == count(a) + count(b)` (BPE merges across the seam).
    fn count(&self, text: &str) -> usize;
}

impl TokenCounter for Bpe {
    fn count(&self, text: &str) -> usize {
        Bpe::count(self, text)
    }
}

/// Token boundaries a tokenizer outside this process (the tokenizer worker, the tokenizer
/// module) returned for a text, checked on construction to satisfy the invariant of
/// [`Encoded::offsets`]: from 0 to the text's length in bytes, strictly increasing. The page's
/// windows index the text with them, so a result that breaks it is refused rather than shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBoundaries(Vec<usize>);

/// Why offsets cannot be the token boundaries of a text ([`TokenBoundaries::new`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoundaryError {
    /// The offsets do not start at 0 or do not end at the text's length (`None`: no offsets).
    #[error("offsets span {first:?}..{last:?}, the text is {text_len} bytes")]
    Span {
        /// The first offset.
        first: Option<usize>,
        /// The last offset.
        last: Option<usize>,
        /// The text's length in bytes.
        text_len: usize,
    },
    /// Offset `token + 1` is not above offset `token` (token `token` would be empty or reversed).
    #[error("offsets do not increase at token {token}")]
    NotIncreasing {
        /// The index of the first token whose end is not after its start.
        token: usize,
    },
}

impl TokenBoundaries {
    /// Takes `offsets` (bytes) as the token boundaries of a text of `text_len` bytes, or says
    /// why they cannot be: [`BoundaryError::Span`] unless they run from 0 to `text_len`,
    /// [`BoundaryError::NotIncreasing`] at the first token whose end is not after its start.
    pub fn new(offsets: Vec<usize>, text_len: usize) -> Result<Self, BoundaryError> {
        if offsets.first() != Some(&0) || offsets.last() != Some(&text_len) {
            return Err(BoundaryError::Span {
                first: offsets.first().copied(),
                last: offsets.last().copied(),
                text_len,
            });
        }
        if let Some(token) = offsets.windows(2).position(|w| w[0] >= w[1]) {
            return Err(BoundaryError::NotIncreasing { token });
        }
        Ok(TokenBoundaries(offsets))
    }

    /// The checked offsets (bytes), ascending, the first 0 and the last the text's length.
    pub fn as_slice(&self) -> &[usize] {
        &self.0
    }

    /// The checked offsets, given back.
    pub fn into_vec(self) -> Vec<usize> {
        self.0
    }
}

/// A tokenized text: token ids and the byte span of each token in the original text.
///
/// Invariant: `offsets.len() == ids.len() + 1`, `offsets[0] == 0`, offsets strictly increase,
/// and the last equals the text's length in bytes. Token `i` is
/// `text.as_bytes()[offsets[i]..offsets[i + 1]]`. An offset may fall inside a multi-byte
/// character (one character can be several tokens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// Token ids (ranks), in text order.
    pub ids: Vec<u32>,
    /// Byte offsets of token boundaries (see the type's invariant).
    pub offsets: Vec<usize>,
}

impl Encoded {
    /// No tokens yet (offsets `[0]`), with room for the tokens of a text of `bytes` bytes: about
    /// 4 bytes a token in English, fewer elsewhere, so one per 3 bytes, and the vectors rarely
    /// grow twice.
    pub(crate) fn for_text_of(bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(bytes / 3 + 1);
        offsets.push(0);
        Encoded {
            ids: Vec::with_capacity(bytes / 3),
            offsets,
        }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True for an empty text.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Byte range `[start, end)` of the tokens `[first, last)` (token indices, `first ≤ last ≤
    /// len`); `None` if out of range.
    pub fn byte_range(&self, first: usize, last: usize) -> Option<(usize, usize)> {
        if first > last || last > self.len() {
            return None;
        }
        Some((self.offsets[first], self.offsets[last]))
    }
}

/// Returned by [`Bpe::decode_bytes`] for an id that is not an ordinary token of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownToken(pub u32);

impl fmt::Display for UnknownToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "token id {} is not in this encoding", self.0)
    }
}

impl std::error::Error for UnknownToken {}

/// One encoding's tokenizer: rank table, reverse table and split pattern.
pub struct Bpe {
    /// token bytes → rank; keys borrow the embedded table.
    ranks: Ranks,
    /// rank → token bytes (ranks are contiguous from 0).
    tokens: Vec<&'static [u8]>,
    /// The split pattern (see `pretokenize`).
    split: Pattern,
}

impl Bpe {
    /// The tokenizer of `encoding` from its table (`table::tokens_of`; a table checked by
    /// [`Encoding::check_table`] or embedded by the build).
    fn new(table: &'static [u8], encoding: Encoding) -> Self {
        let tokens = table::tokens_of(table, encoding.table_facts().tokens as usize);
        let split = match encoding {
            Encoding::Cl100kBase => Pattern::Cl100k,
            Encoding::O200kBase => Pattern::O200k,
        };
        let mut ranks = Ranks::with_capacity(tokens.len());
        for (rank, &bytes) in tokens.iter().enumerate() {
            ranks.insert(bytes, rank as u32);
        }
        Bpe {
            ranks,
            tokens,
            split,
        }
    }

    /// The rank table (for the merge's tests and [`indexed::TokenIndex`]'s callers).
    pub(crate) fn ranks(&self) -> &Ranks {
        &self.ranks
    }

    /// Number of ordinary tokens (ids `0..vocab_size()`).
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// Tokenizes `text` (special-token strings as ordinary text).
    ///
    /// While a prepared document is current on this thread (`strategy::run_prepared`,
    /// `analysis::summary_prepared`) and `text` is a slice of it, the tokens are taken from the
    /// document's (`indexed`): the same result, at the cost of the slice's edges.
    pub fn encode(&self, text: &str) -> Encoded {
        if let Some(enc) =
            indexed::with_current(self.split, text, |i, at| i.encode(&self.ranks, text, at))
        {
            return enc;
        }
        let mut enc = Encoded::for_text_of(text.len());
        self.encode_from(text, 0, usize::MAX, &mut enc);
        enc
    }

    /// Number of tokens in `text` (served from a current prepared document's tokens when
    /// `text` is a slice of it, as [`Bpe::encode`]).
    pub fn count(&self, text: &str) -> usize {
        if let Some(n) =
            indexed::with_current(self.split, text, |i, at| i.count(&self.ranks, text, at))
        {
            return n;
        }
        if let Some(n) = indexed::count_with_current_cache(self.split, &self.ranks, text) {
            return n;
        }
        let mut ids = Vec::new();
        let mut ends = Vec::new();
        let mut n = 0;
        let mut encoder = merge::PieceEncoder::new(&self.ranks);
        for (s, e) in pretokenize::pieces(self.split, text, 0) {
            encoder.encode(&text.as_bytes()[s..e], s, &mut ids, &mut ends);
            n += ids.len();
            ids.clear();
            ends.clear();
        }
        n
    }

    /// [`Bpe::count`] of `text` when it is a slice of the prepared document current on this
    /// thread (then it costs only the slice's edges); `None` otherwise, for callers that have a
    /// cheaper way than a full count for other texts (stopping early).
    pub(crate) fn count_prepared(&self, text: &str) -> Option<usize> {
        indexed::with_current(self.split, text, |i, at| i.count(&self.ranks, text, at))
    }

    /// [`Bpe::count`] of `text` whose bytes from `from` on are `same` (`text[from..] == same`):
    /// typically a rewritten string whose tail is a slice of the prepared document current on
    /// this thread, so that the tail is counted from the document's tokens and only the pieces
    /// before it are merged.
    ///
    /// Exact because the split step reads forward only: the pieces of `text` are cut from its
    /// start up to the first piece end `p ≥ from`, and the pieces of `text[p..]` are those of
    /// the same bytes alone, which are `same[p - from..]`. When `from` is not a character
    /// boundary of `text` or `same` differs (a caller's error), `text` is counted whole.
    pub(crate) fn count_with_tail(&self, text: &str, from: usize, same: &str) -> usize {
        let tail_ok = text.is_char_boundary(from) && text.as_bytes()[from..] == *same.as_bytes();
        debug_assert!(tail_ok, "the tail is not the text's bytes from {from}");
        if !tail_ok {
            return self.count(text);
        }
        let mut p = 0;
        let mut head = 0;
        while p < from {
            let q = pretokenize::next_piece_end(self.split, text, p);
            head += indexed::count_piece(self.split, &self.ranks, &text.as_bytes()[p..q]);
            p = q;
        }
        head + self.count(&same[p - from..])
    }

    /// Tokenizes `text[from..]` in whole pieces until at least `budget` bytes are done (or the
    /// text ends), appending to `out`; returns the byte offset where it stopped, a point at which
    /// a later call resumes with exactly the tokens a single pass would give. `from` must be 0 or
    /// an offset returned by an earlier call on the same text. Used to tokenize in slices with
    /// progress.
    pub fn encode_from(&self, text: &str, from: usize, budget: usize, out: &mut Encoded) -> usize {
        let mut encoder = merge::PieceEncoder::new(&self.ranks);
        self.encode_from_with(text, from, budget, out, &mut encoder)
    }

    /// [`Bpe::encode_from`] with a caller's `encoder`, whose memory of merged pieces then serves
    /// every slice of the text (`sliced::Slicer`), not one slice only. `encoder` must be one
    /// made over this tokenizer's ranks ([`Bpe::ranks`]): it merges with its own.
    pub(crate) fn encode_from_with<'t>(
        &self,
        text: &'t str,
        from: usize,
        budget: usize,
        out: &mut Encoded,
        encoder: &mut merge::PieceEncoder<'_, 't>,
    ) -> usize {
        let mut done = from;
        for (s, e) in pretokenize::pieces(self.split, text, from) {
            encoder.encode(&text.as_bytes()[s..e], s, &mut out.ids, &mut out.offsets);
            done = e;
            if done - from >= budget {
                break;
            }
        }
        done
    }

    /// The bytes of one token, or `None` for an id outside the encoding.
    pub fn token_bytes(&self, id: u32) -> Option<&'static [u8]> {
        self.tokens.get(id as usize).copied()
    }

    /// Concatenated bytes of `ids`.
    ///
    /// # Errors
    /// [`UnknownToken`] with the first id that is not an ordinary token.
    pub fn decode_bytes(&self, ids: &[u32]) -> Result<Vec<u8>, UnknownToken> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for &id in ids {
            out.extend_from_slice(self.token_bytes(id).ok_or(UnknownToken(id))?);
        }
        Ok(out)
    }
}

impl Bpe {
    /// A token counter for many slices of one text, sharing one merge cache: counting slices
    /// that hold the same words again costs a lookup per piece.
    pub fn counter<'t>(&'static self) -> SliceCounter<'t> {
        SliceCounter {
            bpe: self,
            encoder: merge::PieceEncoder::new(&self.ranks),
            ids: Vec::new(),
            ends: Vec::new(),
        }
    }
}

/// Counts the tokens of texts (slices of one document) with a shared merge cache; made by
/// [`Bpe::counter`].
pub struct SliceCounter<'t> {
    bpe: &'static Bpe,
    encoder: merge::PieceEncoder<'static, 't>,
    ids: Vec<u32>,
    ends: Vec<usize>,
}

impl<'t> SliceCounter<'t> {
    /// The number of tokens of `text` ([`Bpe::count`]) when it is at most `cap`; `None` when
    /// it is more (the count stops at the first piece past `cap`).
    pub fn count_at_most(&mut self, text: &'t str, cap: usize) -> Option<usize> {
        let split = self.bpe.split;
        let ranks = &self.bpe.ranks;
        if let Some(n) = indexed::with_current(split, text, |i, at| i.count(ranks, text, at)) {
            return (n <= cap).then_some(n);
        }
        if let Some(n) = indexed::count_with_current_cache(split, ranks, text) {
            return (n <= cap).then_some(n);
        }
        let mut n = 0;
        for (s, e) in pretokenize::pieces(self.bpe.split, text, 0) {
            self.encoder
                .encode(&text.as_bytes()[s..e], s, &mut self.ids, &mut self.ends);
            n += self.ids.len();
            self.ids.clear();
            self.ends.clear();
            if n > cap {
                return None;
            }
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_tokenization_gives_token_boundaries() {
        let text = "Chunks of 猫 and 🐈, with  spaces.";
        let enc = Encoding::Cl100kBase.tokenizer().encode(text);
        let checked = TokenBoundaries::new(enc.offsets.clone(), text.len()).unwrap();
        assert_eq!(checked.as_slice(), &enc.offsets[..]);
        let empty = Encoding::Cl100kBase.tokenizer().encode("");
        assert_eq!(
            TokenBoundaries::new(empty.offsets, 0).unwrap().into_vec(),
            vec![0]
        );
    }

    #[test]
    fn offsets_that_break_the_invariant_are_refused_with_the_reason() {
        let refused = |offsets: &[usize], len| {
            TokenBoundaries::new(offsets.to_vec(), len)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(&[], 9),
            "offsets span None..None, the text is 9 bytes"
        );
        assert_eq!(
            refused(&[0, 999_999_999], 9),
            "offsets span Some(0)..Some(999999999), the text is 9 bytes"
        );
        assert_eq!(
            refused(&[1, 4, 9], 9),
            "offsets span Some(1)..Some(9), the text is 9 bytes"
        );
        assert_eq!(
            TokenBoundaries::new(vec![0, 5, 5, 9], 9),
            Err(BoundaryError::NotIncreasing { token: 1 })
        );
        assert_eq!(
            refused(&[0, 5, 5, 9], 9),
            "offsets do not increase at token 1"
        );
    }

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_name(e.name()), Some(e));
        }
        assert_eq!(Encoding::from_name("gpt2"), None);
    }

    #[test]
    fn special_strings_are_found() {
        let t = "Docs end with <|endoftext|> here. <|x|> <|endofprompt|>";
        assert_eq!(
            find_special_tokens(t),
            vec![(14, "<|endoftext|>"), (40, "<|endofprompt|>")]
        );
    }

    #[test]
    fn special_strings_are_counted_per_string_in_order_of_first_occurrence() {
        let t = "<|fim_prefix|>a<|endoftext|>b<|fim_prefix|><|endoftext|><|endoftext|> <|x|>";
        let found = find_special_tokens(t);
        assert_eq!(found.len(), 5);
        assert_eq!(
            special_token_counts(&found),
            vec![("<|fim_prefix|>", 2), ("<|endoftext|>", 3)]
        );
        assert!(special_token_counts(&find_special_tokens("plain <| text")).is_empty());
    }

    #[test]
    fn o200k_has_no_fim_tokens() {
        let t = "a<|fim_prefix|>b<|endoftext|>";
        assert_eq!(
            find_special_tokens_of(t, Encoding::Cl100kBase),
            [(1, "<|fim_prefix|>"), (16, "<|endoftext|>")]
        );
        assert_eq!(
            find_special_tokens_of(t, Encoding::O200kBase),
            [(16, "<|endoftext|>")]
        );
    }

    #[test]
    fn tokens_are_one_fewer_than_their_boundaries() {
        let enc = Encoding::Cl100kBase
            .tokenizer()
            .encode("Chunks of 猫 and 🐈.");
        assert_eq!(tokens_between(&enc.offsets), enc.len());
        assert_eq!(tokens_between(&[0]), 0);
        assert_eq!(tokens_between(&[]), 0);
        assert_eq!(tokens_between(&[0, 3, 7]), 2);
    }
}
