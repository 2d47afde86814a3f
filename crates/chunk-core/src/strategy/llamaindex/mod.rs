//! LlamaIndex (llama-index-core 0.14.25) node parsers, reproduced exactly:
//! `TokenTextSplitter` and `SentenceSplitter` (`llama_index/core/node_parser/text/`), and the
//! markdown chain `MarkdownNodeParser` then `SentenceSplitter` (`markdown.rs`,
//! [`LlamaindexMarkdownNodeParser`]), which splits each markdown node with
//! [`LlamaindexSentenceSplitter::split_text_metadata_aware`].
//!
//! Both cut the text recursively into splits no longer than `chunk_size` tokens, trying one
//! separator after another, then merge consecutive splits into chunks, each chunk's size being
//! the **sum** of its splits' token counts (never a re-count of the joined text). Every split is
//! a contiguous piece of the text and so is every chunk: a chunk is the document slice of its
//! splits with Python's `str.strip()` applied, so [`Piece::text`] is always `None`.
//!
//! **Tokens** are those of llama-index's default tokenizer, `get_tokenizer()`
//! (`llama_index/core/utils.py`): tiktoken's `encode(text, allowed_special="all")`, i.e. every
//! special-token string of the encoding (`<|endoftext|>` …, see [`special_tokens`]) counts as
//! **one** token and the text between them is encoded on its own — unlike the ordinary-text
//! counts of [`crate::tokenizer::Bpe::count`]. llama-index's default is gpt-3.5-turbo's
//! encoding, cl100k_base; o200k_base is counted the same way (`tokenizer=
//! functools.partial(tiktoken.get_encoding("o200k_base").encode, allowed_special="all")`).
//!
//! **Offsets**: llama-index only reports node offsets through `get_nodes_from_documents`, which
//! finds them with `str.find` of the chunk text from the previous chunk's start + 1
//! (`NodeParser._postprocess_parsed_nodes` in `node_parser/interface.py`): a text search that
//! can land on an earlier duplicate, not the chunk's position. The byte ranges here are the
//! true positions; the differential oracle compares texts only.
//!
//! **Empty text**: both splitters return `[""]` for `""` (`_split_text`: `if text == "":
//! return [text]`) — one empty chunk — but nothing for whitespace-only text.

mod markdown;
mod punkt;
pub use markdown::{LlamaindexMarkdownNodeParser, LlamaindexMarkdownSection};
pub use punkt::sentence_starts as punkt_sentence_starts;

use super::{Boundary, Chunker, Piece, Settings, SizeUnit, StrategyError, StrategyId};
use crate::strategy::length::Length;
use crate::strategy::{py_bool, py_list, py_str, py_tiktoken, Parameter};
use crate::tokenizer::open::{OpenTokenizer, OpenVocab};
use crate::tokenizer::{Bpe, Encoding};
use punkt::py_space;
use std::collections::VecDeque;
use std::ops::Range;

const LIBRARY: &str = "llama-index-core";

/// The longest token of either encoding, in bytes (checked in the tests).
const MAX_TOKEN_BYTES: usize = 128;

/// Token counts of pieces of one document, as `len(enc.encode(piece, allowed_special="all"))`,
/// or as an open model's tokenizer counts them (`tokenizer=lambda text:
/// tokenizer.encode(text, add_special_tokens=False).ids`).
struct Counter<'a> {
    bpe: &'static Bpe,
    /// The open model's tokenizer, counting instead of `bpe` when set.
    model: Option<&'static OpenTokenizer>,
    text: &'a str,
    /// Byte ranges of the special-token strings of the document, in order (they cannot
    /// overlap: each starts with `<` and contains no other).
    specials: Vec<(usize, usize)>,
}

impl<'a> Counter<'a> {
    fn new(text: &'a str, encoding: Encoding, model: Option<&'static OpenTokenizer>) -> Self {
        // tiktoken's `allowed_special="all"`: each special token of the encoding is one token.
        let specials = crate::tokenizer::find_special_tokens_of(text, encoding)
            .into_iter()
            .map(|(at, s)| (at, at + s.len()))
            .collect();
        Counter {
            bpe: encoding.tokenizer(),
            model,
            text,
            specials,
        }
    }

    /// Tokens of `text[range]`: tiktoken splits it at the special tokens wholly inside it and
    /// encodes the ordinary pieces between them separately.
    fn count(&self, range: Range<usize>) -> usize {
        if let Some(m) = self.model {
            return m.count(&self.text[range]);
        }
        let first = self.specials.partition_point(|&(s, _)| s < range.start);
        let mut at = range.start;
        let mut n = 0;
        for &(s, e) in &self.specials[first..] {
            if e > range.end {
                break;
            }
            n += self.bpe.count(&self.text[at..s]) + 1;
            at = e;
        }
        n + self.bpe.count(&self.text[at..range.end])
    }

    /// Tokens of `text[range]` when at most `cap`, else some number over `cap`: only a
    /// prefix of a long piece is encoded (in whole pre-tokenizer pieces, so the prefix's
    /// tokens are exactly the first tokens of the piece).
    fn count_capped(&self, range: Range<usize>, cap: usize) -> usize {
        if range.len() <= cap || self.model.is_some() {
            // An open model's token may span any number of bytes (a long word is one
            // `[UNK]`): no bound on its count from the length, so it is counted whole.
            // At most one token per byte: the count is within the cap.
            return self.count(range);
        }
        if range.len() / MAX_TOKEN_BYTES > cap {
            // At least one token per MAX_TOKEN_BYTES bytes: over the cap without encoding
            // (one pre-tokenizer piece, e.g. a long run of punctuation, can be the whole text).
            return cap + 1;
        }
        let first = self.specials.partition_point(|&(s, _)| s < range.start);
        let mut at = range.start;
        let mut n = 0;
        for &(s, e) in &self.specials[first..] {
            if e > range.end || n > cap {
                break;
            }
            n += self.ordinary_capped(&self.text[at..s], cap - n) + 1;
            at = e;
        }
        if n > cap {
            return n;
        }
        n + self.ordinary_capped(&self.text[at..range.end], cap - n)
    }

    /// Ordinary tokens of `s` when at most `cap`, else some number over `cap`.
    fn ordinary_capped(&self, s: &str, cap: usize) -> usize {
        if s.len() <= cap {
            return self.bpe.count(s);
        }
        if let Some(n) = self.bpe.count_prepared(s) {
            return n; // a slice of a prepared document: the exact count costs only its edges
        }
        let mut enc = crate::tokenizer::Encoded {
            ids: Vec::new(),
            offsets: vec![0],
        };
        let mut from = 0;
        loop {
            // About four bytes a token: enough bytes to pass the cap in one or two calls.
            let budget = (cap + 1 - enc.ids.len())
                .saturating_mul(4)
                .saturating_add(64);
            from = self.bpe.encode_from(s, from, budget, &mut enc);
            if enc.ids.len() > cap || from >= s.len() {
                return enc.ids.len();
            }
        }
    }
}

/// One way of cutting a piece of text, tried in order by the recursive split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum SplitFn {
    /// `split_by_sep(sep)`: `split_text_keep_separator` — `text.split(sep)`, the separator
    /// put back at the start of every part but the first, empty parts dropped.
    Sep(String, Boundary),
    /// `split_by_sentence_tokenizer()`: NLTK Punkt spans, each sentence running to the next
    /// span's start (so the whitespace between sentences stays with the one before); nothing
    /// for blank text.
    Sentences,
    /// `split_by_regex(CHUNKING_REGEX)`: `re.findall("[^,.;。？！]+[,.;。？！]?|[,.;。？！]")`,
    /// i.e. a cut after each of `, . ; 。 ？ ！`.
    Clauses,
    /// `split_by_char()`: `list(text)`.
    Chars,
}

impl SplitFn {
    /// The level a cut made by this function is at.
    fn boundary(&self) -> Boundary {
        match self {
            SplitFn::Sep(_, b) => *b,
            SplitFn::Sentences => Boundary::Sentence,
            SplitFn::Clauses => Boundary::Clause,
            SplitFn::Chars => Boundary::Character,
        }
    }

    /// The start of every part of `text[range]` after the first (the parts are contiguous and
    /// cover the range, as the library's parts concatenate to the text); `None` when the
    /// function gives no part at all (Punkt on blank text). An empty separator must be caught
    /// before (see [`Walk::EmptySeparator`]).
    fn cuts(&self, text: &str, range: Range<usize>) -> Option<Vec<usize>> {
        let piece = &text[range.clone()];
        let at = range.start;
        let mut cuts: Vec<usize> = match self {
            SplitFn::Sep(sep, _) => piece
                .match_indices(sep.as_str())
                .map(|(i, _)| at + i)
                .collect(),
            SplitFn::Sentences => {
                let starts = punkt::sentence_starts(piece);
                if starts.is_empty() {
                    return None;
                }
                starts.into_iter().map(|s| at + s).collect()
            }
            SplitFn::Clauses => piece
                .char_indices()
                .filter(|&(_, c)| matches!(c, ',' | '.' | ';' | '。' | '？' | '！'))
                .map(|(i, c)| at + i + c.len_utf8())
                .collect(),
            SplitFn::Chars => piece.char_indices().map(|(i, _)| at + i).collect(),
        };
        // Drop a cut at the very start (an empty first part) or at the very end.
        cuts.retain(|&c| c > range.start && c < range.end);
        Some(cuts)
    }
}

/// One split: a piece of the text, its token count and the level of the cut at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Split {
    range: Range<usize>,
    tokens: usize,
    end: Boundary,
}

/// The deepest nesting of `_split` calls that Python's default recursion limit (1000 frames)
/// lets llama-index reach when `split_text` is called from a script's top level: measured with
/// `SentenceSplitter(chunk_size=24).split_text("!" * n)` three frames below the top, 974 levels
/// pass and 976 raise `RecursionError`. The exact figure moves with the caller's own stack
/// depth (in the differential oracle's worker processes it is 13 levels less); only texts with
/// runs of thousands of sentence marks and no whitespace nest this deep.
const MAX_DEPTH: usize = 975;

/// [`MAX_DEPTH`] when `SentenceSplitter` runs as the second transformation of
/// `IngestionPipeline(transformations=[MarkdownNodeParser(), SentenceSplitter(…)]).run(…)`
/// called from a script's top level: the pipeline's own calls (`run`, `run_transformations`,
/// `__call__`, `get_nodes_from_documents`, `_parse_nodes`, `split_text_metadata_aware`) sit
/// between the script and `_split_text`. Measured on `"!" * n`: `split_text` at the top level
/// passes 977 levels and raises at 979, the pipeline passes 965 and raises at 967, twelve
/// levels less; `split_text` three frames below the top ([`MAX_DEPTH`]) is three less than at
/// the top, so the pipeline's limit is nine below it.
pub(super) const PIPELINE_MAX_DEPTH: usize = MAX_DEPTH - 9;

/// The recursive `_split` of both splitters, streamed: `emit` receives the splits in document
/// order (and may stop the walk by returning `false`). A piece that fits is one split; else it
/// is cut by the first function of `fns` that gives more than one part (the last function's
/// parts are taken even if there is just one), and each part that does not fit is split again,
/// unless it is the only part (one character), which is kept whole though over the size.
///
/// Counts are exact up to `chunk_size`; past it only "over" matters (see
/// [`Counter::count_capped`]), except for a piece kept whole, which is counted exactly. The
/// walk keeps one frame per level (the cuts of the piece being split), never all splits.
/// The library raises where this returns `Err` (nesting deeper than `max_depth` levels is
/// Python's `RecursionError`).
fn split_recursive(
    counter: &Counter,
    chunk_size: usize,
    fns: &[SplitFn],
    max_depth: usize,
    emit: &mut dyn FnMut(Split) -> bool,
) -> Result<(), Walk> {
    /// A piece being split: its cuts, the next part's start and what ends the last part.
    struct Frame {
        cuts: Vec<usize>,
        next: usize,
        at: usize,
        end: usize,
        end_level: Boundary,
        level: Boundary,
    }
    let text = counter.text;
    // Some(frame) to descend into, or the split itself when it is final.
    let open = |piece: Split| -> Result<Result<Frame, Split>, Walk> {
        if piece.tokens <= chunk_size {
            return Ok(Err(piece));
        }
        let mut parts = None;
        for f in fns {
            if matches!(f, SplitFn::Sep(sep, _) if sep.is_empty()) {
                return Err(Walk::EmptySeparator);
            }
            if let Some(cuts) = f.cuts(text, piece.range.clone()) {
                let more = !cuts.is_empty();
                parts = Some((cuts, f.boundary()));
                if more {
                    break;
                }
            }
        }
        Ok(match parts {
            Some((cuts, level)) if !cuts.is_empty() => Ok(Frame {
                cuts,
                next: 0,
                at: piece.range.start,
                end: piece.range.end,
                end_level: piece.end,
                level,
            }),
            // One part, the piece itself: kept whole, counted exactly.
            _ => Err(Split {
                tokens: counter.count(piece.range.clone()),
                ..piece
            }),
        })
    };
    let whole = Split {
        range: 0..text.len(),
        tokens: counter.count_capped(0..text.len(), chunk_size),
        end: Boundary::EndOfText,
    };
    let mut stack = match open(whole)? {
        Ok(frame) => vec![frame],
        Err(split) => {
            emit(split);
            return Ok(());
        }
    };
    while let Some(frame) = stack.last_mut() {
        if frame.at == frame.end {
            stack.pop();
            continue;
        }
        let (end, level) = match frame.cuts.get(frame.next) {
            Some(&cut) => (cut, frame.level),
            None => (frame.end, frame.end_level),
        };
        let range = frame.at..end;
        frame.next += 1;
        frame.at = end;
        let child = Split {
            tokens: counter.count_capped(range.clone(), chunk_size),
            range,
            end: level,
        };
        match open(child)? {
            Ok(frame) => {
                if stack.len() >= max_depth {
                    return Err(Walk::RecursionLimit(frame.at));
                }
                stack.push(frame);
            }
            Err(split) => {
                if !emit(split) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// The byte range of `text[range]` after Python's `str.strip()`.
fn strip(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start_matches(py_space).len());
    let end = range.start + s.trim_end_matches(py_space).len();
    start..end.max(start)
}

/// The chunk of the consecutive splits `run`, stripped unless `keep_whitespaces`; `None`
/// when it is empty (the library drops it).
fn chunk_piece<'s>(
    text: &str,
    mut run: impl DoubleEndedIterator<Item = &'s Split>,
    keep_whitespaces: bool,
) -> Option<Piece> {
    let first = run.next()?;
    let last = run.next_back().unwrap_or(first);
    let mut range = first.range.start..last.range.end;
    if !keep_whitespaces {
        range = strip(text, range);
    }
    (!range.is_empty()).then(|| Piece::slice(range, last.end))
}

/// Why the library's `_split` raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// `RecursionError` (deeper than [`MAX_DEPTH`], or the caller's limit) at the piece
    /// starting at this byte.
    RecursionLimit(usize),
    /// `str.split("")`: `ValueError: empty separator`, raised when the separator is tried.
    EmptySeparator,
}

impl Walk {
    fn error(self, strategy: StrategyId) -> StrategyError {
        match self {
            Walk::RecursionLimit(byte_offset) => StrategyError::RecursionLimit {
                strategy,
                library: LIBRARY,
                byte_offset,
            },
            Walk::EmptySeparator => StrategyError::ParameterRefused {
                strategy,
                parameter: "separator",
                detail: "a non-empty string (str.split raises ValueError: empty separator)",
            },
        }
    }
}

/// The open model sizing `settings`, if any.
fn model_of(settings: &Settings) -> Option<OpenVocab> {
    match settings.unit {
        SizeUnit::Model(v) => Some(v),
        _ => None,
    }
}

/// The length function: the model's tokens when set, else the encoding's.
fn length_of(encoding: Encoding, model: Option<OpenVocab>) -> Length {
    model.map_or(Length::Tokens(encoding), Length::Model)
}

/// The `tokenizer` parameter as the page lists it.
fn tokenizer_literal(encoding: Encoding, model: Option<OpenVocab>) -> String {
    match model {
        Some(v) => super::py_hf_tokenizer(v),
        None => py_tiktoken(encoding),
    }
}

fn check_settings(settings: &Settings, strategy: StrategyId) -> Result<(), StrategyError> {
    super::check_unit(strategy, settings.unit)?;
    if settings.chunk_size == 0 {
        // pydantic: chunk_size is Field(gt=0).
        return Err(StrategyError::Params(
            crate::params::ParamsError::ZeroChunkSize,
        ));
    }
    if settings.chunk_overlap > settings.chunk_size {
        // Both __init__s: ValueError("Got a larger chunk overlap (…) than chunk size (…)").
        return Err(StrategyError::OverlapRefused {
            strategy,
            library: LIBRARY,
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
        });
    }
    Ok(())
}

/// LlamaIndex's `TokenTextSplitter` (llama-index-core 0.14.25,
/// `llama_index/core/node_parser/text/token.py`), `split_text(text)`, sized in tokens of
/// [`Self::encoding`] counted as llama-index's default `get_tokenizer()` counts them:
/// tiktoken's `encode(text, allowed_special="all")`, so a special-token string of the encoding
/// is **one** token (cl100k_base: `<|endoftext|>`, `<|fim_prefix|>`, `<|fim_middle|>`,
/// `<|fim_suffix|>`, `<|endofprompt|>`; o200k_base: `<|endoftext|>`, `<|endofprompt|>`) and
/// the text between such strings is encoded piece by piece. A chunk's own token count in
/// [`super::Chunk::tokens`] is the ordinary-text count and can therefore be larger.
///
/// Rules (`TokenTextSplitter._split` and `_merge`):
/// - `_split`: a text of at most `chunk_size` tokens is one split; else it is cut at
///   [`Self::separator`] (`" "`), else at each of [`Self::backup_separators`] (`["\n"]`),
///   else into characters — the first that gives more than one part, the separator kept at
///   the start of the part after it — and each part over `chunk_size` is split again (a single
///   character over it stays whole);
/// - `_merge`: splits are added while the running sum of their token counts stays within
///   `chunk_size`; when the next would exceed it the chunk is closed (stripped, dropped if
///   empty) and splits are popped from its front while the sum is over `chunk_overlap` or the
///   next split still does not fit — what remains is the next chunk's overlap;
/// - `""` gives one empty chunk; whitespace-only text gives none;
/// - an empty separator, once tried, raises `ValueError` (`str.split`):
///   [`StrategyError::ParameterRefused`]. (`_split` nests once per separator, so it never
///   reaches Python's recursion limit with the default separators.)
///
/// Each chunk ends at the level of the cut after its last split: [`Boundary::Word`] (space),
/// [`Boundary::Line`] (newline), [`Boundary::Character`], or [`Boundary::EndOfText`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlamaindexTokenTextSplitter {
    /// Maximum tokens per chunk (sum of its splits' counts); `Field(gt=0)`.
    pub chunk_size: usize,
    /// Tokens of overlap kept from the previous chunk; must not exceed `chunk_size`.
    pub chunk_overlap: usize,
    /// The first separator tried (default `" "`).
    pub separator: String,
    /// Separators tried after [`Self::separator`] (default `["\n"]`).
    pub backup_separators: Vec<String>,
    /// Keep leading and trailing whitespace of chunks (default `false`: `str.strip()`).
    pub keep_whitespaces: bool,
    /// The tiktoken encoding of the tokenizer (`encode(…, allowed_special="all")`), unless
    /// `model` is set.
    pub encoding: Encoding,
    /// An open model's tokenizer as the `tokenizer` callable (`lambda text:
    /// tokenizer.encode(text, add_special_tokens=False).ids`), instead of the encoding.
    pub model: Option<OpenVocab>,
}

impl LlamaindexTokenTextSplitter {
    /// `TokenTextSplitter(chunk_size, chunk_overlap, tokenizer=…)` with the library's
    /// defaults for everything else.
    ///
    /// # Errors
    /// [`StrategyError::UnitUnsupported`] for characters (the splitter counts tokens only),
    /// [`StrategyError::Params`] (pydantic `gt=0`), and
    /// [`StrategyError::OverlapRefused`] when `chunk_overlap > chunk_size` (the library's
    /// `ValueError`).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_settings(settings, StrategyId::LlamaindexToken)?;
        Ok(LlamaindexTokenTextSplitter {
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
            separator: " ".to_string(),
            backup_separators: vec!["\n".to_string()],
            keep_whitespaces: false,
            encoding: settings.encoding,
            model: model_of(settings),
        })
    }

    fn split_fns(&self) -> Vec<SplitFn> {
        let level = |sep: &str| match sep {
            "\n" | "\r\n" => Boundary::Line,
            s if s.contains("\n\n") => Boundary::Paragraph,
            _ => Boundary::Word,
        };
        std::iter::once(&self.separator)
            .chain(&self.backup_separators)
            .map(|s| SplitFn::Sep(s.clone(), level(s)))
            .chain(std::iter::once(SplitFn::Chars))
            .collect()
    }
}

impl Chunker for LlamaindexTokenTextSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
            ("separator", py_str(&self.separator)),
            ("backup_separators", py_list(&self.backup_separators)),
            ("keep_whitespaces", py_bool(self.keep_whitespaces)),
            ("tokenizer", tokenizer_literal(self.encoding, self.model)),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, length_of(self.encoding, self.model))
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        if text.is_empty() {
            return Ok(vec![Piece::slice(0..0, Boundary::EndOfText)]);
        }
        let model = length_of(self.encoding, self.model).model_tokenizer()?;
        let counter = Counter::new(text, self.encoding, model);
        let keep = self.keep_whitespaces;
        let mut pieces = Vec::new();
        // _merge: the current chunk's splits and the sum of their counts.
        let mut cur: VecDeque<Split> = VecDeque::new();
        let mut cur_len = 0;
        let fns = self.split_fns();
        let walked = split_recursive(&counter, self.chunk_size, &fns, MAX_DEPTH, &mut |split| {
            if cur_len + split.tokens > self.chunk_size {
                pieces.extend(chunk_piece(text, cur.iter(), keep));
                while !cur.is_empty()
                    && (cur_len > self.chunk_overlap || cur_len + split.tokens > self.chunk_size)
                {
                    cur_len -= cur.pop_front().map_or(0, |s| s.tokens);
                }
            }
            cur_len += split.tokens;
            cur.push_back(split);
            true
        });
        walked.map_err(|w| w.error(StrategyId::LlamaindexToken))?;
        pieces.extend(chunk_piece(text, cur.iter(), keep));
        Ok(pieces)
    }
}

/// LlamaIndex's `SentenceSplitter` (llama-index-core 0.14.25,
/// `llama_index/core/node_parser/text/sentence.py`), `split_text(text)`, sized in tokens of
/// [`Self::encoding`] counted as llama-index's default `get_tokenizer()` counts them, special-
/// token strings as one token each (as for [`LlamaindexTokenTextSplitter`]).
///
/// Rules (`SentenceSplitter._split`, `_get_splits_by_fns`, `_merge`, `_postprocess_chunks`):
/// - `_split`: a text of at most `chunk_size` tokens is one split; else it is cut at
///   [`Self::paragraph_separator`] (`"\n\n\n"`, kept at the start of the next part), else into
///   sentences by NLTK Punkt (untrained, as llama-index builds it: see `punkt.rs`), else — if
///   [`Self::secondary_chunking_regex`] — after each of `, . ; 。 ？ ！`, else at
///   [`Self::separator`] (`" "`), else into characters: the first that gives more than one
///   part; each part over `chunk_size` is split again (a single character over it stays whole);
/// - `_merge`: splits are added while the sum of their token counts stays within
///   `chunk_size`; the chunk is then closed and the next one starts with the longest run of
///   the closed chunk's last splits whose sum is at most `chunk_overlap`, dropped from its
///   front as far as needed for the next split to fit (the first split of a chunk is always
///   taken). The `is_sentence` flag of the library's `_Split` never changes the result: the
///   branch it guards is reached only when its other conditions already hold;
/// - a split over `chunk_size` (a character of more tokens than the size) makes the library
///   raise `ValueError("Single token exceeded chunk size")`: [`StrategyError::ParameterRefused`]
///   for `chunk_size`;
/// - `_postprocess_chunks`: every chunk is `str.strip()`ped and whitespace-only ones dropped;
///   `""` gives one empty chunk;
/// - `_split` recurses once per level and Punkt may split a sentence again when it runs on
///   that sentence alone (a run of marks such as `!!!!…` loses one mark per level): past
///   about 975 levels Python raises `RecursionError`, here
///   [`StrategyError::RecursionLimit`] (the exact depth depends on the caller's stack; see
///   the source). An empty separator, once tried, raises `ValueError`:
///   [`StrategyError::ParameterRefused`].
///
/// Each chunk ends at the level of the cut after its last split: [`Boundary::Paragraph`],
/// [`Boundary::Sentence`], [`Boundary::Clause`], [`Boundary::Word`],
/// [`Boundary::Character`], or [`Boundary::EndOfText`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlamaindexSentenceSplitter {
    /// Maximum tokens per chunk (sum of its splits' counts); `Field(gt=0)`.
    pub chunk_size: usize,
    /// Tokens of overlap kept from the previous chunk; must not exceed `chunk_size`.
    pub chunk_overlap: usize,
    /// The word separator (default `" "`).
    pub separator: String,
    /// The paragraph separator (default `"\n\n\n"`).
    pub paragraph_separator: String,
    /// `true` (the default) for the library's `CHUNKING_REGEX`,
    /// `"[^,.;。？！]+[,.;。？！]?|[,.;。？！]"`; `false` for `secondary_chunking_regex=None`.
    pub secondary_chunking_regex: bool,
    /// The tiktoken encoding of the tokenizer (`encode(…, allowed_special="all")`), unless
    /// `model` is set.
    pub encoding: Encoding,
    /// An open model's tokenizer as the `tokenizer` callable (`lambda text:
    /// tokenizer.encode(text, add_special_tokens=False).ids`), instead of the encoding.
    pub model: Option<OpenVocab>,
}

impl LlamaindexSentenceSplitter {
    /// `SentenceSplitter(chunk_size, chunk_overlap, tokenizer=…)` with the library's defaults
    /// for everything else.
    ///
    /// # Errors
    /// [`StrategyError::UnitUnsupported`] for characters (the splitter counts tokens only),
    /// [`StrategyError::Params`] (pydantic `gt=0`), and
    /// [`StrategyError::OverlapRefused`] when `chunk_overlap > chunk_size` (the library's
    /// `ValueError`).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_settings(settings, StrategyId::LlamaindexSentence)?;
        Ok(LlamaindexSentenceSplitter {
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
            separator: " ".to_string(),
            paragraph_separator: "\n\n\n".to_string(),
            secondary_chunking_regex: true,
            encoding: settings.encoding,
            model: model_of(settings),
        })
    }

    /// The splitter's rules in order: paragraphs, sentences, clauses (when set), words,
    /// characters.
    pub(super) fn split_fns(&self) -> Vec<SplitFn> {
        let mut fns = vec![
            SplitFn::Sep(self.paragraph_separator.clone(), Boundary::Paragraph),
            SplitFn::Sentences,
        ];
        if self.secondary_chunking_regex {
            fns.push(SplitFn::Clauses);
        }
        fns.push(SplitFn::Sep(self.separator.clone(), Boundary::Word));
        fns.push(SplitFn::Chars);
        fns
    }
}

impl Chunker for LlamaindexSentenceSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        let regex = if self.secondary_chunking_regex {
            py_str("[^,.;。？！]+[,.;。？！]?|[,.;。？！]")
        } else {
            "None".to_owned()
        };
        vec![
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
            ("separator", py_str(&self.separator)),
            ("paragraph_separator", py_str(&self.paragraph_separator)),
            ("secondary_chunking_regex", regex),
            ("tokenizer", tokenizer_literal(self.encoding, self.model)),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexSentence
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, length_of(self.encoding, self.model))
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        self.split_sized(
            text,
            self.chunk_size,
            StrategyId::LlamaindexSentence,
            MAX_DEPTH,
        )
    }
}

/// What LlamaIndex's `SentenceSplitter.split_text_metadata_aware(text, metadata_str)`
/// (llama-index-core 0.14.25, `node_parser/text/sentence.py`) does with a node's metadata
/// string before splitting: its length is `len(self._tokenizer(metadata_str))` (tokens of the
/// splitter's own tokenizer), and the text is split at `chunk_size − metadata length`.
///
/// The metadata string is the one `MetadataAwareTextSplitter._get_metadata_str`
/// (`node_parser/interface.py`) picks: the longer of `node.get_metadata_str(MetadataMode.EMBED)`
/// and `…(MetadataMode.LLM)`, each the node's metadata not excluded for that mode, one
/// `"{key}: {value}"` per key joined by `"\n"` (`""` without metadata, 0 tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetadataFit {
    /// At least 50 tokens remain: the text is split at `effective_chunk_size`, silently.
    Fits {
        /// Tokens of the metadata string.
        metadata_length: usize,
        /// `chunk_size − metadata_length`.
        effective_chunk_size: usize,
    },
    /// Between 1 and 49 tokens remain: the library prints (to stdout, no exception, no
    /// `warnings` category) "Metadata length (…) is close to chunk size (…). Resulting chunks
    /// are less than 50 tokens. Consider increasing the chunk size or decreasing the size of
    /// your metadata to avoid this." and splits at `effective_chunk_size`. Also printed for a
    /// `chunk_size` under 50 with no metadata at all.
    Close {
        /// Tokens of the metadata string.
        metadata_length: usize,
        /// `chunk_size − metadata_length`, below 50.
        effective_chunk_size: usize,
    },
    /// Nothing remains (`metadata_length ≥ chunk_size`): the library raises `ValueError(
    /// "Metadata length (…) is longer than chunk size (…). Consider increasing the chunk size
    /// or decreasing the size of your metadata to avoid this.")`
    /// ([`StrategyError::MetadataOverChunkSize`]); llama_index issues 7980 and 12200.
    TooLong {
        /// Tokens of the metadata string.
        metadata_length: usize,
    },
}

impl MetadataFit {
    /// Tokens of the metadata string.
    pub fn metadata_length(self) -> usize {
        match self {
            MetadataFit::Fits {
                metadata_length, ..
            }
            | MetadataFit::Close {
                metadata_length, ..
            }
            | MetadataFit::TooLong { metadata_length } => metadata_length,
        }
    }

    /// The chunk size the text is split at; `None` where the library raises.
    pub fn effective_chunk_size(self) -> Option<usize> {
        match self {
            MetadataFit::Fits {
                effective_chunk_size,
                ..
            }
            | MetadataFit::Close {
                effective_chunk_size,
                ..
            } => Some(effective_chunk_size),
            MetadataFit::TooLong { .. } => None,
        }
    }
}

impl LlamaindexSentenceSplitter {
    /// Tokens of `metadata_str` as the splitter's tokenizer counts them (tiktoken's
    /// `encode(…, allowed_special="all")`, or the open model's ids): `metadata_len` of
    /// `split_text_metadata_aware`.
    ///
    /// # Errors
    /// [`StrategyError::TokenizerNotLoaded`] when sized in a model's tokens not installed.
    pub fn metadata_length(&self, metadata_str: &str) -> Result<usize, StrategyError> {
        let model = length_of(self.encoding, self.model).model_tokenizer()?;
        Ok(Counter::new(metadata_str, self.encoding, model).count(0..metadata_str.len()))
    }

    /// What `split_text_metadata_aware` makes of `metadata_str` ([`MetadataFit`]).
    ///
    /// # Errors
    /// [`StrategyError::TokenizerNotLoaded`] when sized in a model's tokens not installed.
    pub fn metadata_fit(&self, metadata_str: &str) -> Result<MetadataFit, StrategyError> {
        let metadata_length = self.metadata_length(metadata_str)?;
        Ok(match self.chunk_size.checked_sub(metadata_length) {
            None | Some(0) => MetadataFit::TooLong { metadata_length },
            Some(effective_chunk_size) if effective_chunk_size < 50 => MetadataFit::Close {
                metadata_length,
                effective_chunk_size,
            },
            Some(effective_chunk_size) => MetadataFit::Fits {
                metadata_length,
                effective_chunk_size,
            },
        })
    }

    /// `split_text_metadata_aware(text, metadata_str)` (`sentence.py`): `text` split at
    /// `chunk_size` minus the tokens of `metadata_str` ([`MetadataFit`]), `chunk_overlap`
    /// unchanged; otherwise the rules of `split_text` (see the type). This is how the
    /// splitter cuts every node an ingestion pipeline or `get_nodes_from_documents` gives it
    /// (`MetadataAwareTextSplitter._parse_nodes`), with the node's metadata string; the pieces
    /// are byte ranges of `text`. [`MetadataFit::Close`] prints a line in the library and
    /// changes nothing here.
    ///
    /// # Errors
    /// [`StrategyError::MetadataOverChunkSize`] (at byte 0) where the library raises on the
    /// metadata's length, and the refusals of `split_text`.
    pub fn split_text_metadata_aware(
        &self,
        text: &str,
        metadata_str: &str,
    ) -> Result<Vec<Piece>, StrategyError> {
        let strategy = StrategyId::LlamaindexSentence;
        match self.metadata_fit(metadata_str)? {
            MetadataFit::TooLong { metadata_length } => Err(StrategyError::MetadataOverChunkSize {
                strategy,
                library: LIBRARY,
                metadata_length,
                chunk_size: self.chunk_size,
                byte_offset: 0,
            }),
            MetadataFit::Fits {
                effective_chunk_size,
                ..
            }
            | MetadataFit::Close {
                effective_chunk_size,
                ..
            } => self.split_sized(text, effective_chunk_size, strategy, MAX_DEPTH),
        }
    }
}

impl LlamaindexSentenceSplitter {
    /// `_split_text(text, chunk_size)` (`sentence.py`): the splitter's rules (see the type)
    /// at `chunk_size` tokens, which [`Self::split_text_metadata_aware`] lowers by the
    /// metadata's length while `chunk_overlap` stays [`Self::chunk_overlap`]; refusals name
    /// `strategy`, and `_split` may nest `max_depth` levels before Python's `RecursionError`.
    pub(super) fn split_sized(
        &self,
        text: &str,
        chunk_size: usize,
        strategy: StrategyId,
        max_depth: usize,
    ) -> Result<Vec<Piece>, StrategyError> {
        self.split_sized_with(text, chunk_size, strategy, max_depth, &self.split_fns())
    }

    /// [`Self::split_sized`] with the splitter's [`Self::split_fns`] made beforehand: a caller
    /// that splits many nodes (the markdown parser, one call per section) makes them once.
    pub(super) fn split_sized_with(
        &self,
        text: &str,
        chunk_size: usize,
        strategy: StrategyId,
        max_depth: usize,
        fns: &[SplitFn],
    ) -> Result<Vec<Piece>, StrategyError> {
        if text.is_empty() {
            return Ok(vec![Piece::slice(0..0, Boundary::EndOfText)]);
        }
        let model = length_of(self.encoding, self.model).model_tokenizer()?;
        let counter = Counter::new(text, self.encoding, model);
        let mut pieces = Vec::new();
        let mut oversize = false;
        // _merge: the current chunk's splits, the sum of their counts, and `new_chunk`
        // (nothing added since the last close).
        let mut cur: VecDeque<Split> = VecDeque::new();
        let (mut cur_len, mut fresh) = (0, true);
        let walked = split_recursive(&counter, chunk_size, fns, max_depth, &mut |split| {
            // The library's _split runs to its end (and may raise RecursionError) before
            // _merge raises on an oversized split: keep walking, merge no more.
            oversize |= split.tokens > chunk_size;
            if oversize {
                return true;
            }
            if cur_len + split.tokens > chunk_size && !fresh {
                // close_chunk(): the next chunk starts with the longest tail of this one
                // within chunk_overlap.
                pieces.extend(chunk_piece(text, cur.iter(), false));
                let mut tail = 0;
                let keep = cur
                    .iter()
                    .rev()
                    .take_while(|s| {
                        tail += s.tokens;
                        tail <= self.chunk_overlap
                    })
                    .count();
                cur.drain(..cur.len() - keep);
                cur_len = cur.iter().map(|s| s.tokens).sum();
                fresh = true;
            }
            if fresh {
                // Drop overlap from the front until the split fits.
                while cur_len + split.tokens > chunk_size {
                    let Some(first) = cur.pop_front() else { break };
                    cur_len -= first.tokens;
                }
            }
            cur_len += split.tokens;
            cur.push_back(split);
            fresh = false;
            true
        });
        walked.map_err(|w| w.error(strategy))?;
        if oversize {
            return Err(StrategyError::ParameterRefused {
                strategy,
                parameter: "chunk_size",
                detail: "at least the tokens of every single character of the text \
                         (llama-index raises ValueError: Single token exceeded chunk size)",
            });
        }
        if !fresh {
            pieces.extend(chunk_piece(text, cur.iter(), false));
        }
        Ok(pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(chunk_size: usize, chunk_overlap: usize) -> Settings {
        Settings {
            chunk_size,
            chunk_overlap,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        }
    }

    fn texts(c: &dyn Chunker, text: &str) -> Vec<String> {
        c.split(text)
            .unwrap()
            .into_iter()
            .map(|p| {
                assert!(p.text.is_none());
                text[p.bytes].to_string()
            })
            .collect()
    }

    #[test]
    fn no_token_is_longer_than_max_token_bytes() {
        for e in Encoding::ALL {
            let bpe = e.tokenizer();
            let longest = (0..bpe.vocab_size() as u32)
                .filter_map(|id| bpe.token_bytes(id))
                .map(<[u8]>::len)
                .max();
            assert_eq!(longest, Some(MAX_TOKEN_BYTES), "{e}");
        }
    }

    #[test]
    fn special_tokens_count_as_one_token() {
        let text = "a <|endoftext|> b <|fim_prefix|>";
        let cl = Counter::new(text, Encoding::Cl100kBase, None);
        // tiktoken cl100k_base encode(allowed_special="all"): 6 tokens; o200k_base: the
        // fim token is ordinary text.
        assert_eq!(cl.count(0..text.len()), 6);
        assert_eq!(
            cl.count(1..8),
            Encoding::Cl100kBase.tokenizer().count(" <|endo")
        );
        let o = Counter::new(text, Encoding::O200kBase, None);
        assert_eq!(
            o.count(0..text.len()),
            4 + Encoding::O200kBase.tokenizer().count(" <|fim_prefix|>")
        );
    }

    fn token(size: usize, overlap: usize) -> LlamaindexTokenTextSplitter {
        LlamaindexTokenTextSplitter::new(&settings(size, overlap)).unwrap()
    }

    fn sentence(size: usize, overlap: usize) -> LlamaindexSentenceSplitter {
        LlamaindexSentenceSplitter::new(&settings(size, overlap)).unwrap()
    }

    // Every expected value below is llama-index-core 0.14.25's `split_text` with
    // `tokenizer=partial(tiktoken.get_encoding("cl100k_base").encode, allowed_special="all")`.

    #[test]
    fn e07_double_spaces_overlap_by_whole_words() {
        let text = "red  blue  green  gold  pink  grey";
        let want = [
            "red  blue",
            "blue  green",
            "green  gold",
            "gold  pink",
            "pink  grey",
        ];
        assert_eq!(texts(&token(4, 2), text), want);
        assert_eq!(texts(&sentence(4, 2), text), want);
        let text = "Cats sleep a lot. Dogs bark at night. And here is a much longer closing \
                    sentence that keeps going well past the limit.";
        assert_eq!(
            texts(&token(10, 4), text),
            [
                "Cats sleep a lot. Dogs bark at",
                "Dogs bark at night. And here is a much",
                "here is a much longer closing sentence that keeps going",
                "sentence that keeps going well past the limit."
            ]
        );
        assert_eq!(
            texts(&sentence(10, 4), text),
            [
                "Cats sleep a lot.",
                "Dogs bark at night. And here is",
                "And here is a much longer closing sentence that keeps",
                "closing sentence that keeps going well past the limit."
            ]
        );
    }

    #[test]
    fn e11_empty_and_whitespace_chunks() {
        let text = "\n\nHello there friend\n\nSecond part";
        let want = ["Hello there", "friend\n\nSecond part"];
        assert_eq!(texts(&token(4, 0), text), want);
        assert_eq!(texts(&sentence(4, 0), text), want);
        assert_eq!(texts(&token(3, 0), "Tail text.   "), ["Tail text."]);
        assert_eq!(texts(&sentence(3, 0), "Tail text.   "), ["Tail text."]);
        // "" is one empty chunk; whitespace-only text none.
        for c in [&token(10, 0) as &dyn Chunker, &sentence(10, 0)] {
            assert_eq!(
                c.split("").unwrap(),
                [Piece::slice(0..0, Boundary::EndOfText)]
            );
            assert!(c.split(" \n\t ").unwrap().is_empty());
        }
    }

    #[test]
    fn e12_a_run_without_spaces_is_cut_into_characters() {
        let text = format!("Prefix {} suffix", "x".repeat(300));
        let mut want = vec!["Prefix xxxxxxxx".to_string()];
        want.extend(std::iter::repeat_n("x".repeat(10), 41));
        want.push("xxxxxxxx suffix".to_string());
        assert_eq!(texts(&token(10, 3), &text), want);
        assert_eq!(texts(&sentence(10, 3), &text), want);
        let pieces = token(10, 3).split(&text).unwrap();
        assert_eq!(pieces[0].reason, Boundary::Character);
        assert_eq!(pieces.last().unwrap().reason, Boundary::EndOfText);
    }

    #[test]
    fn e16_cjk_without_spaces() {
        let text = "猫".repeat(200);
        let mut want = vec!["猫".repeat(16); 12];
        want.push("猫".repeat(8));
        assert_eq!(texts(&token(50, 0), &text), want);
        assert_eq!(texts(&sentence(50, 0), &text), want);
    }

    #[test]
    fn a_character_over_the_size_is_kept_or_refused() {
        // 猫 is 3 tokens: TokenTextSplitter keeps it as an oversized chunk, SentenceSplitter
        // raises ValueError("Single token exceeded chunk size").
        assert_eq!(texts(&token(1, 0), "猫 a"), ["猫", "a"]);
        assert!(matches!(
            sentence(1, 0).split("猫 a"),
            Err(StrategyError::ParameterRefused {
                parameter: "chunk_size",
                ..
            })
        ));
    }

    #[test]
    fn overlap_up_to_the_size_is_accepted_and_over_it_refused() {
        let text = "one two three four five six";
        let want = [
            "one two three",
            "two three four",
            "three four five",
            "four five six",
        ];
        assert_eq!(texts(&token(3, 3), text), want);
        assert_eq!(texts(&sentence(3, 3), text), want);
        for r in [
            LlamaindexTokenTextSplitter::new(&settings(3, 4)).map(|_| ()),
            LlamaindexSentenceSplitter::new(&settings(3, 4)).map(|_| ()),
        ] {
            assert!(matches!(r, Err(StrategyError::OverlapRefused { .. })));
        }
        assert_eq!(
            LlamaindexTokenTextSplitter::new(&settings(0, 0)),
            Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize
            ))
        );
        let chars = Settings {
            unit: SizeUnit::Characters,
            ..settings(10, 0)
        };
        assert!(matches!(
            LlamaindexSentenceSplitter::new(&chars),
            Err(StrategyError::UnitUnsupported { .. })
        ));
    }

    #[test]
    fn crlf_lines_and_paragraphs() {
        let text = "First line here.\r\nSecond line here.\r\n\r\n\r\nThird para.";
        assert_eq!(
            texts(&token(6, 1), text),
            [
                "First line here.\r\nSecond line",
                "line here.\r\n\r\n\r\nThird",
                "para."
            ]
        );
        let s = sentence(6, 1);
        assert_eq!(
            texts(&s, text),
            ["First line here.", "Second line here.", "Third para."]
        );
        let reasons: Vec<Boundary> = s.split(text).unwrap().iter().map(|p| p.reason).collect();
        assert_eq!(
            reasons,
            [Boundary::Sentence, Boundary::Sentence, Boundary::EndOfText]
        );
    }

    #[test]
    fn special_token_strings_are_one_token_of_their_encoding() {
        let text = "Docs end with <|endoftext|> here. A second sentence follows it, and a third \
                    one mentions <|fim_prefix|> too.\n\nThen a last paragraph.";
        assert_eq!(
            texts(&token(12, 2), text),
            [
                "Docs end with <|endoftext|> here. A second sentence follows",
                "sentence follows it, and a third one mentions <|fim_prefix|>",
                "<|fim_prefix|> too.\n\nThen a last paragraph."
            ]
        );
        assert_eq!(
            texts(&sentence(12, 2), text),
            [
                "Docs end with <|endoftext|> here.",
                "A second sentence follows it,",
                "and a third one mentions <|fim_prefix|> too.",
                "Then a last paragraph."
            ]
        );
        // o200k_base has no <|fim_prefix|>: it is five ordinary tokens there.
        let o200k = Settings {
            encoding: Encoding::O200kBase,
            ..settings(12, 2)
        };
        assert_eq!(
            texts(&LlamaindexTokenTextSplitter::new(&o200k).unwrap(), text),
            [
                "Docs end with <|endoftext|> here. A second sentence follows",
                "sentence follows it, and a third one mentions",
                "one mentions <|fim_prefix|> too.\n\nThen a",
                "a last paragraph."
            ]
        );
        assert_eq!(
            texts(&LlamaindexSentenceSplitter::new(&o200k).unwrap(), text),
            [
                "Docs end with <|endoftext|> here.",
                "A second sentence follows it, and a third one mentions",
                "one mentions <|fim_prefix|> too.",
                "Then a last paragraph."
            ]
        );
    }

    #[test]
    fn nesting_past_pythons_recursion_limit_is_refused() {
        // SentenceSplitter(chunk_size=24).split_text("!" * n): Punkt splits one "!" off each
        // end per level; n = 2140 nests 974 levels and passes, n = 2141 nests 976 and raises
        // RecursionError (measured three frames below a script's top level).
        let s = sentence(24, 0);
        assert_eq!(s.split(&"!".repeat(2140)).map(|p| p.len()), Ok(83));
        assert!(matches!(
            s.split(&"!".repeat(2141)),
            Err(StrategyError::RecursionLimit { .. })
        ));
        // TokenTextSplitter nests at most once per separator.
        assert!(token(24, 0).split(&"!".repeat(5000)).is_ok());
    }

    #[test]
    fn other_parameters_follow_the_library() {
        // keep_whitespaces=True: chunks are not stripped.
        let keep = LlamaindexTokenTextSplitter {
            keep_whitespaces: true,
            ..token(3, 0)
        };
        assert_eq!(
            texts(&keep, " one two  three four\n"),
            [" one two ", " three four\n"]
        );
        // separator="": fine while nothing needs splitting, ValueError once it is tried.
        let empty = LlamaindexTokenTextSplitter {
            separator: String::new(),
            ..token(3, 0)
        };
        assert_eq!(texts(&empty, "short"), ["short"]);
        let refused = Err(StrategyError::ParameterRefused {
            strategy: StrategyId::LlamaindexToken,
            parameter: "separator",
            detail: "a non-empty string (str.split raises ValueError: empty separator)",
        });
        assert_eq!(empty.split("one two three four five"), refused);
        let empty = LlamaindexSentenceSplitter {
            separator: String::new(),
            ..sentence(3, 0)
        };
        assert_eq!(texts(&empty, "short"), ["short"]);
        assert!(empty.split("one two three four five").is_err());
    }
}
