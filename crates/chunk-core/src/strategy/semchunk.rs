//! semchunk 4.1.1, reproduced exactly: `semchunk.chunkerify(tiktoken.get_encoding(enc),
//! chunk_size)` called as `chunker(text, overlap=…, offsets=True)`.
//!
//! The rules, all from `semchunk/semchunk.py`:
//! - `_split_text`: a text is split at the most meaningful splitter it contains: the longest
//!   run of `\r`/`\n` (else the first single one); else the longest run of tabs (else a tab);
//!   else the longest run of whitespace, or, when every whitespace is a single character, the
//!   whitespace after the first of the "preceders" (`.` `?` `!` `;` `,` … `-`, in that order)
//!   that occurs before a whitespace, split only where preceded by it; else the first of those
//!   same characters present (the splitter is then kept in the chunks); else every character.
//! - `chunk`: a split over the size is chunked recursively; the others are merged by
//!   `merge_splits`, an interpolated binary search over the splits' cumulative character
//!   lengths whose probes are steered by the characters-per-token of the previous probe.
//!   Token counts of a growing prefix are not monotonic under BPE, so the result depends on
//!   the probe path, which is reproduced float for float.
//! - `chunkerify` on a tiktoken `Encoding`: the counter is `len(encode(text,
//!   disallowed_special=()))`, i.e. `encode_ordinary` (special-token strings are plain text,
//!   nothing raises); no special token is added, and since `chunk_size` is given, the
//!   `encode("")` subtraction (only done when `chunk_size` is `None`) does not apply.
//!   `max_token_chars` defaults to the longest token of the vocabulary in bytes (128 for both
//!   encodings), and the counter answers `chunk_size + 1` for any text longer than
//!   `6 × chunk_size` characters whose first `6 × chunk_size + max_token_chars - 1` characters
//!   already exceed `chunk_size` tokens (`faster_token_counter`); that shortcut steers probes
//!   too, so it is reproduced. The counter's memoization (`lru_cache`) never changes a result.
//! - `chunkerify` on a token counter (a plain callable, as for an open model's tokenizer:
//!   `lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)`): no vocabulary
//!   to read, so `max_token_chars` stays `None` and there is no shortcut; every count is true.
//! - Whitespace-only and empty chunks are dropped at the end of the first call.
//! - `overlap` (an int ≥ 1: tokens; semchunk would read a float < 1 as a ratio) is clamped to
//!   `chunk_size - 1`; the text is then chunked at `min(overlap, chunk_size - overlap)` tokens,
//!   and every output chunk spans `chunk_size // subsize` consecutive subchunks, a new one
//!   every `(chunk_size - overlap) // subsize` subchunks (the document slice between the first
//!   subchunk's start and the last one's end, whitespace between them included).
//! - A single character over the size it is chunked at (e.g. "猫", 3 cl100k tokens, at size 2,
//!   or at size 24 with overlap 2, which chunks at 2) makes `chunk` recurse on that same
//!   character forever; Python raises `RecursionError`, and this returns
//!   [`StrategyError::CharacterOverChunkSize`]. Python's recursion limit itself (about a
//!   thousand nested levels, only reached by texts built for it) is not reproduced: the
//!   recursion runs on an explicit stack here.
//!
//! `reason`: a chunk ends at the splitter of the deepest level at which its end is a split
//! boundary: a newline run of two or more line breaks → paragraph, one → line; tabs and other
//! whitespace → word; whitespace after (or a kept) `.` `?` `!` → sentence, `;` `,` brackets,
//! quotes, `` ` `` `*` `:` `—` `…` → clause, `/` `\` `–` `&` `-` → word; characters →
//! character; the last chunk → end of text.
//!
//! Speed without changing a result: a count that is only compared with a limit tokenizes
//! whole pieces until it passes the limit; `merge_splits`' counts, whose values steer the
//! search, are exact.

use super::python::python_isspace;
use super::{py_tiktoken, Parameter};
use super::{Boundary, Chunker, Piece, Settings, SizeUnit, StrategyError, StrategyId};
use crate::strategy::length::Length;
use crate::tokenizer::open::{OpenTokenizer, OpenVocab};
use crate::tokenizer::{Bpe, Encoded, Encoding};
use std::ops::Range;
use std::sync::OnceLock;

/// semchunk 4.1.1's `chunkerify(tiktoken.get_encoding(encoding), chunk_size)` chunker, called
/// with `overlap` and `offsets=True`. Sizes in tokens only (semchunk has no character mode
/// with a tokenizer). Chunks are document slices (semchunk's offsets are exact slices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semchunk {
    /// `chunk_size`: the maximum number of tokens a chunk may contain.
    pub chunk_size: usize,
    /// The chunker's `overlap` argument, in tokens; 0 is semchunk's `None` (no overlap).
    pub overlap: usize,
    /// The tiktoken encoding passed to `chunkerify` (unless `model` is set).
    pub encoding: Encoding,
    /// An open model's tokenizer given to `chunkerify` as a token counter instead of the
    /// encoding (`len(tokenizer.encode(text, add_special_tokens=False).ids)`): then no
    /// `max_token_chars` shortcut applies (module docs).
    pub model: Option<OpenVocab>,
    /// `chunkerify`'s `max_token_chars`; `None` (the default) takes the length in bytes of the
    /// vocabulary's longest token, as semchunk does through `token_byte_values()`.
    pub max_token_chars: Option<usize>,
}

impl Semchunk {
    /// semchunk with `settings.chunk_size`, `settings.chunk_overlap` as the token overlap and
    /// `settings.encoding`; `max_token_chars` at its default.
    ///
    /// # Errors
    /// [`StrategyError::Params`] for size 0 (semchunk makes no chunk of 0 tokens);
    /// [`StrategyError::UnitUnsupported`] for characters.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        if settings.chunk_size == 0 {
            return Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize,
            ));
        }
        super::check_unit(StrategyId::Semchunk, settings.unit)?;
        Ok(Semchunk {
            chunk_size: settings.chunk_size,
            overlap: settings.chunk_overlap,
            encoding: settings.encoding,
            model: match settings.unit {
                SizeUnit::Model(v) => Some(v),
                _ => None,
            },
            max_token_chars: None,
        })
    }

    /// The overlap after semchunk's clamp (`min(overlap, chunk_size - 1)`, 0 = none) and the
    /// size the text is first chunked at (`min(overlap, chunk_size - overlap)` when
    /// overlapping).
    fn effective_sizes(&self) -> (usize, usize) {
        let overlap = self.overlap.min(self.chunk_size.saturating_sub(1));
        if overlap == 0 {
            (0, self.chunk_size)
        } else {
            (overlap, overlap.min(self.chunk_size - overlap))
        }
    }
}

impl Chunker for Semchunk {
    fn parameters(&self) -> Vec<Parameter> {
        vec![
            (
                "tokenizer_or_token_counter",
                match self.model {
                    Some(v) => super::py_hf_tokenizer(v),
                    None => py_tiktoken(self.encoding),
                },
            ),
            ("chunk_size", self.chunk_size.to_string()),
            ("overlap", self.overlap.to_string()),
            (
                "max_token_chars",
                self.max_token_chars
                    .map_or("None".to_owned(), |n| n.to_string()),
            ),
            ("memoize", "True".to_owned()),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::Semchunk
    }

    fn budget(&self) -> (usize, Length) {
        match self.model {
            Some(v) => (self.chunk_size, Length::Model(v)),
            None => (self.chunk_size, Length::Tokens(self.encoding)),
        }
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        if self.chunk_size == 0 {
            return Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize,
            ));
        }
        let bpe = self.encoding.tokenizer();
        let model = self.budget().1.model_tokenizer()?;
        let max_token_chars = match (self.max_token_chars, model) {
            (Some(n), _) => Some(n),
            (None, None) => Some(default_max_token_chars(self.encoding)),
            (None, Some(_)) => None,
        };
        let counter = Counter {
            bpe,
            model,
            chunk_size: self.chunk_size,
            // `text[: heuristic + max_token_chars - 1]`
            prefix_extra: max_token_chars.map(|n| n as isize - 1),
        };
        let (overlap, local_size) = self.effective_sizes();
        let subchunks: Vec<(Range<usize>, Boundary)> = chunk(text, local_size, &counter)?
            .into_iter()
            .filter(|(r, _)| !py_isspace_or_empty(&text[r.clone()]))
            .collect();
        let mut pieces: Vec<Piece> = if overlap == 0 || subchunks.is_empty() {
            subchunks
                .into_iter()
                .map(|(r, why)| Piece::slice(r, why))
                .collect()
        } else {
            overlap_subchunks(
                &subchunks,
                self.chunk_size,
                self.chunk_size - overlap,
                local_size,
            )
        };
        if let Some(last) = pieces.last_mut() {
            last.reason = Boundary::EndOfText;
        }
        Ok(pieces)
    }
}

/// `chunkerify`'s default `max_token_chars` for `encoding`, computed once per encoding.
fn default_max_token_chars(encoding: Encoding) -> usize {
    static CACHE: [OnceLock<usize>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match encoding {
        Encoding::Cl100kBase => &CACHE[0],
        Encoding::O200kBase => &CACHE[1],
    };
    *slot.get_or_init(|| longest_token_bytes(encoding.tokenizer()))
}

/// The longest token of the encoding in bytes (`max(len(t) for t in token_byte_values())`).
fn longest_token_bytes(bpe: &Bpe) -> usize {
    (0..bpe.vocab_size() as u32)
        .filter_map(|id| bpe.token_bytes(id))
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// semchunk's token counter for a tiktoken encoding: `encode_ordinary` length behind
/// `chunkerify`'s `faster_token_counter` shortcut.
struct Counter<'a> {
    bpe: &'a Bpe,
    /// The open model's tokenizer counting instead of `bpe`, when one was given.
    model: Option<&'a OpenTokenizer>,
    /// `chunkerify`'s `chunk_size` (not the reduced size of an overlapping run).
    chunk_size: usize,
    /// `max_token_chars - 1`, the characters read past `6 × chunk_size` by the shortcut;
    /// `None`: no shortcut (`max_token_chars` unknown).
    prefix_extra: Option<isize>,
}

impl Counter<'_> {
    /// `text[: heuristic + max_token_chars - 1]` when `len(text) > heuristic` (`heuristic = 6 ×
    /// chunk_size`), else `None`.
    fn shortcut_prefix<'t>(&self, t: &'t str) -> Option<&'t str> {
        let prefix_extra = self.prefix_extra?;
        let heuristic = self.chunk_size.saturating_mul(6);
        // A text of at most `heuristic` bytes has at most as many chars; an ASCII prefix of
        // `heuristic + 1` bytes is as many chars.
        if t.len() <= heuristic
            || !(t.as_bytes()[..=heuristic].is_ascii() || t.char_indices().nth(heuristic).is_some())
        {
            return None;
        }
        let prefix_chars = (heuristic as isize).saturating_add(prefix_extra);
        let end = if prefix_chars < 0 {
            // Python's negative slice end: all but the last |n| characters.
            let back = prefix_chars.unsigned_abs();
            t.char_indices().rev().nth(back - 1).map_or(0, |(b, _)| b)
        } else {
            let k = prefix_chars as usize;
            let ascii = t.len().min(k);
            if t.as_bytes()[..ascii].is_ascii() {
                ascii
            } else {
                t.char_indices().nth(k).map_or(t.len(), |(b, _)| b)
            }
        };
        Some(&t[..end])
    }

    /// `faster_token_counter(t)`: `chunk_size + 1` when the shortcut prefix is already over
    /// `chunk_size` tokens, else the true count.
    fn count(&self, t: &str) -> usize {
        if let Some(m) = self.model {
            return m.count(t);
        }
        if let Some(p) = self.shortcut_prefix(t) {
            if exceeds(self.bpe, p, self.chunk_size) {
                return self.chunk_size.saturating_add(1);
            }
        }
        self.bpe.count(t)
    }

    /// `faster_token_counter(t) > limit`, tokenizing only as far as that takes.
    fn exceeds(&self, t: &str, limit: usize) -> bool {
        if let Some(m) = self.model {
            return m.count(t) > limit;
        }
        if let Some(p) = self.shortcut_prefix(t) {
            if exceeds(self.bpe, p, self.chunk_size) {
                return self.chunk_size.saturating_add(1) > limit;
            }
        }
        exceeds(self.bpe, t, limit)
    }
}

/// `bpe.count(t) > limit`, tokenizing `t` in whole pieces (the same tokens as one pass, see
/// [`Bpe::encode_from`]) only until the count passes `limit`.
fn exceeds(bpe: &Bpe, t: &str, limit: usize) -> bool {
    if t.len() <= limit {
        return false; // a token is at least one byte
    }
    if let Some(n) = bpe.count_prepared(t) {
        return n > limit; // a slice of a prepared document: its count costs only its edges
    }
    let mut enc = Encoded {
        ids: Vec::new(),
        offsets: vec![0],
    };
    let mut at = 0;
    while at < t.len() {
        // About four bytes a token: read roughly as far as the tokens still missing.
        let missing = limit.saturating_add(1) - enc.ids.len();
        let next = bpe.encode_from(t, at, missing.saturating_mul(4).max(64), &mut enc);
        if enc.ids.len() > limit {
            return true;
        }
        if next <= at {
            break;
        }
        at = next;
    }
    false
}

/// `not chunk or chunk.isspace()`.
fn py_isspace_or_empty(s: &str) -> bool {
    s.chars().all(python_isspace)
}

/// `_NON_WHITESPACE_STRUCTURAL_SPLITTERS`, most desirable first, with the structure level a cut
/// at each one is reported as.
const STRUCTURAL: [(char, Boundary); 25] = [
    // Sentence terminators.
    ('.', Boundary::Sentence),
    ('?', Boundary::Sentence),
    ('!', Boundary::Sentence),
    // Clause separators.
    (';', Boundary::Clause),
    (',', Boundary::Clause),
    ('(', Boundary::Clause),
    (')', Boundary::Clause),
    ('[', Boundary::Clause),
    (']', Boundary::Clause),
    ('\u{201c}', Boundary::Clause),
    ('\u{201d}', Boundary::Clause),
    ('\u{2018}', Boundary::Clause),
    ('\u{2019}', Boundary::Clause),
    ('\'', Boundary::Clause),
    ('"', Boundary::Clause),
    ('`', Boundary::Clause),
    ('*', Boundary::Clause),
    // Sentence interrupters.
    (':', Boundary::Clause),
    ('\u{2014}', Boundary::Clause),
    ('\u{2026}', Boundary::Clause),
    // Word joiners.
    ('/', Boundary::Word),
    ('\\', Boundary::Word),
    ('\u{2013}', Boundary::Word),
    ('&', Boundary::Word),
    ('-', Boundary::Word),
];

/// The position of `c` in [`STRUCTURAL`], if it is one of them.
fn structural_rank(c: char) -> Option<usize> {
    Some(match c {
        '.' => 0,
        '?' => 1,
        '!' => 2,
        ';' => 3,
        ',' => 4,
        '(' => 5,
        ')' => 6,
        '[' => 7,
        ']' => 8,
        '\u{201c}' => 9,
        '\u{201d}' => 10,
        '\u{2018}' => 11,
        '\u{2019}' => 12,
        '\'' => 13,
        '"' => 14,
        '`' => 15,
        '*' => 16,
        ':' => 17,
        '\u{2014}' => 18,
        '\u{2026}' => 19,
        '/' => 20,
        '\\' => 21,
        '\u{2013}' => 22,
        '&' => 23,
        '-' => 24,
        _ => return None,
    })
}

/// How one level of `_split_text` cut a segment.
enum Cut<'t> {
    /// `text.split(splitter)`.
    Str(&'t str),
    /// `re.split(f"(?<={preceder}){ws}", text)`: `ws` only where it follows `preceder`.
    Preceded { preceder: char, ws: char },
    /// `list(text)`: every character.
    Chars,
}

/// One level of the recursion: a segment of the document cut into splits.
struct Level {
    /// Absolute byte start of every split, plus `segment end + splitter bytes` (semchunk's
    /// `local_split_starts`, in bytes).
    starts: Vec<usize>,
    /// The same in characters, relative to the segment (semchunk's `cum_lens`).
    cum: Vec<usize>,
    /// Splitter length in bytes.
    splitter_bytes: usize,
    /// False for a non-whitespace splitter, which is kept in the chunks.
    splitter_is_whitespace: bool,
    /// The structure level of a cut at this level's splitter.
    kind: Boundary,
}

impl Level {
    fn splits(&self) -> usize {
        self.starts.len() - 1
    }

    /// Bytes of splits `[first, end)` joined by the splitter (`text[split_starts[first] :
    /// split_starts[end] - splitter_len]`, empty when that is backwards).
    fn span(&self, first: usize, end: usize) -> Range<usize> {
        let a = self.starts[first];
        let b = self.starts[end].saturating_sub(self.splitter_bytes);
        a..b.max(a)
    }
}

/// `_split_text` on `doc[seg]`.
fn split_level(doc: &str, seg: Range<usize>) -> Level {
    let text = &doc[seg.clone()];
    let (cut, splitter_is_whitespace, kind) = choose_splitter(text);
    let (splitter_bytes, splitter_chars) = match &cut {
        Cut::Str(s) => (s.len(), s.chars().count()),
        Cut::Preceded { ws, .. } => (ws.len_utf8(), 1),
        Cut::Chars => (0, 0),
    };
    // Byte offsets (relative) where a splitter occurrence starts.
    let occurrences: Vec<usize> = match &cut {
        Cut::Str(s) => match s.chars().next() {
            // A one-character splitter: the faster char search, same matches.
            Some(c) if c.len_utf8() == s.len() => text.match_indices(c).map(|(i, _)| i).collect(),
            // Longer ones (a run of line breaks): the same leftmost non-overlapping matches as
            // `match_indices`, by memchr's searcher (std's two-way search was a sixth of the
            // strategy's time on the bench's mixed megabyte).
            _ => memchr::memmem::find_iter(text.as_bytes(), s.as_bytes()).collect(),
        },
        Cut::Preceded { preceder, ws } => {
            let mut prev = None;
            let mut out = Vec::new();
            for (i, c) in text.char_indices() {
                if c == *ws && prev == Some(*preceder) {
                    out.push(i);
                }
                prev = Some(c);
            }
            out
        }
        Cut::Chars => text.char_indices().skip(1).map(|(i, _)| i).collect(),
    };
    let mut starts = Vec::with_capacity(occurrences.len() + 2);
    let mut cum = Vec::with_capacity(occurrences.len() + 2);
    let (mut at, mut chars) = (0usize, 0usize);
    starts.push(seg.start);
    cum.push(0);
    let ends = occurrences
        .iter()
        .copied()
        .chain((!matches!(cut, Cut::Chars) || !text.is_empty()).then_some(text.len()));
    for end in ends {
        chars += text[at..end].chars().count() + splitter_chars;
        at = end + splitter_bytes;
        starts.push(seg.start + at);
        cum.push(chars);
    }
    Level {
        starts,
        cum,
        splitter_bytes,
        splitter_is_whitespace,
        kind,
    }
}

/// The splitter `_split_text` picks for `text`, whether it is whitespace, and the structure
/// level it stands for.
fn choose_splitter(text: &str) -> (Cut<'_>, bool, Boundary) {
    let bytes = text.as_bytes();
    let newline = |b: u8| b == b'\n' || b == b'\r';
    if let Some(first) = bytes.iter().position(|&b| newline(b)) {
        let s =
            longest_byte_run(bytes, first, newline).map_or(&text[first..first + 1], |r| &text[r]);
        // Line breaks in the run (`\r\n` is one).
        let breaks = s.matches('\n').count() + s.matches('\r').count() - s.matches("\r\n").count();
        let kind = if breaks >= 2 {
            Boundary::Paragraph
        } else {
            Boundary::Line
        };
        return (Cut::Str(s), true, kind);
    }
    if let Some(first) = bytes.iter().position(|&b| b == b'\t') {
        let s = longest_byte_run(bytes, first, |b| b == b'\t').map_or("\t", |r| &text[r]);
        return (Cut::Str(s), true, Boundary::Word);
    }
    // One pass for the whitespace branch: the first whitespace, the first longest run of two
    // or more, and the first preceder of the list (by rank) that occurs before a whitespace,
    // with the whitespace after its first such occurrence.
    let mut first_ws: Option<(usize, char)> = None;
    let mut run: Option<(usize, usize)> = None; // (start byte, chars)
    let mut best_run: Option<(usize, Range<usize>)> = None;
    let mut preceded: Option<(usize, char)> = None; // (rank, whitespace)
    let mut prev_rank: Option<usize> = None;
    let mut close = |run: &mut Option<(usize, usize)>, end: usize| {
        if let Some((s, n)) = run.take() {
            if n >= 2 && best_run.as_ref().is_none_or(|(m, _)| n > *m) {
                best_run = Some((n, s..end));
            }
        }
    };
    for (i, c) in text.char_indices() {
        if python_isspace(c) {
            first_ws.get_or_insert((i, c));
            match &mut run {
                Some((_, n)) => *n += 1,
                None => run = Some((i, 1)),
            }
            if let Some(r) = prev_rank.take() {
                if preceded.is_none_or(|(b, _)| r < b) {
                    preceded = Some((r, c));
                }
            }
        } else {
            close(&mut run, i);
            prev_rank = structural_rank(c);
        }
    }
    close(&mut run, text.len());
    if let Some((first, ws)) = first_ws {
        if let Some((_, r)) = best_run {
            return (Cut::Str(&text[r]), true, Boundary::Word);
        }
        if let Some((r, ws)) = preceded {
            let (preceder, kind) = STRUCTURAL[r];
            return (Cut::Preceded { preceder, ws }, true, kind);
        }
        return (
            Cut::Str(&text[first..first + ws.len_utf8()]),
            true,
            Boundary::Word,
        );
    }
    // The first of the list present (`splitter in text`, in list order).
    let mut best: Option<(usize, usize)> = None; // (rank, byte)
    for (i, c) in text.char_indices() {
        if let Some(r) = structural_rank(c) {
            if best.is_none_or(|(b, _)| r < b) {
                best = Some((r, i));
                if r == 0 {
                    break;
                }
            }
        }
    }
    if let Some((r, i)) = best {
        let (p, kind) = STRUCTURAL[r];
        return (Cut::Str(&text[i..i + p.len_utf8()]), false, kind);
    }
    (Cut::Chars, true, Boundary::Character)
}

/// The first longest run of at least two bytes matching `is` (`max(re.findall(f"{c}{{2,}}",
/// text), key=len)` for ASCII classes), scanning from `from`; `None` when every run is single.
fn longest_byte_run(bytes: &[u8], from: usize, is: impl Fn(u8) -> bool) -> Option<Range<usize>> {
    let mut best: Option<Range<usize>> = None;
    let mut i = from;
    while let Some(k) = bytes[i..].iter().position(|&b| is(b)) {
        let s = i + k;
        let e = bytes[s..]
            .iter()
            .position(|&b| !is(b))
            .map_or(bytes.len(), |k| s + k);
        if e - s >= 2 && best.as_ref().is_none_or(|b| e - s > b.len()) {
            best = Some(s..e);
        }
        i = e;
    }
    best
}

/// `merge_splits`: the index of the first split not merged into the chunk that starts at split
/// `start`, found by semchunk's estimate-steered binary search.
fn merge_splits(
    doc: &str,
    level: &Level,
    size: usize,
    counter: &Counter<'_>,
    start: usize,
) -> usize {
    let cum = &level.cum;
    let mut high = level.splits() + 1;
    let mut low = start;
    let offset = cum[start];
    let mut average = 0.2f64;
    let mut target = offset as f64 + size as f64 * average;
    while low < high {
        // bisect_left(cum_lens, target, lo=low, hi=high)
        let i = low + cum[low..high].partition_point(|&c| (c as f64) < target);
        let mid = i.min(high - 1);
        let tokens = counter.count(&doc[level.span(start, mid)]);
        let local_cum = cum[mid] - offset;
        if local_cum > 0 && tokens > 0 {
            average = local_cum as f64 / tokens as f64;
            target = offset as f64 + size as f64 * average;
        }
        if tokens > size {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    // `low - 1`; always past `start` (split `start` alone fits), kept so as to always advance.
    low.saturating_sub(1).max(start + 1)
}

/// One level on the explicit recursion stack (semchunk recurses; a stack keeps deep inputs
/// off the call stack).
struct Frame {
    level: Level,
    /// Next split to look at.
    i: usize,
    /// Set while a child chunks split `i`: the split after it.
    pending: Option<usize>,
    /// The structure level of this segment's own end (its parent's splitter, or the end of
    /// the text).
    end_kind: Boundary,
}

/// `chunk()` without the first call's whitespace filter and overlap: byte ranges of every
/// chunk, in order, with the structure level each ends at.
///
/// # Errors
/// [`StrategyError::CharacterOverChunkSize`] where semchunk recurses without end.
fn chunk(
    doc: &str,
    size: usize,
    counter: &Counter<'_>,
) -> Result<Vec<(Range<usize>, Boundary)>, StrategyError> {
    let mut out: Vec<(Range<usize>, Boundary)> = Vec::new();
    let mut stack = vec![Frame {
        level: split_level(doc, 0..doc.len()),
        i: 0,
        pending: None,
        end_kind: Boundary::EndOfText,
    }];
    while let Some(f) = stack.last_mut() {
        let n = f.level.splits();
        let next = match f.pending.take() {
            Some(next) => next,
            None if f.i >= n => {
                stack.pop();
                continue;
            }
            None => {
                let i = f.i;
                let split = f.level.span(i, i + 1);
                if counter.exceeds(&doc[split.clone()], size) {
                    let level = split_level(doc, split.clone());
                    if level.splits() == 1 {
                        // One character over the size: semchunk would chunk that same
                        // character again, forever (Python: `RecursionError`).
                        return Err(StrategyError::CharacterOverChunkSize {
                            strategy: StrategyId::Semchunk,
                            library: "semchunk",
                            byte_offset: split.start,
                            tokens: counter.count(&doc[split]),
                            chunk_size: size,
                        });
                    }
                    f.pending = Some(i + 1);
                    let end_kind = if i + 1 < n { f.level.kind } else { f.end_kind };
                    let child = Frame {
                        level,
                        i: 0,
                        pending: None,
                        end_kind,
                    };
                    stack.push(child);
                    continue;
                }
                let end = merge_splits(doc, &f.level, size, counter, i);
                let why = if end < n { f.level.kind } else { f.end_kind };
                out.push((f.level.span(i, end), why));
                end
            }
        };
        // A non-whitespace splitter joins the chunk before it if that still fits, else it is
        // a chunk of its own.
        if !f.level.splitter_is_whitespace && next < n {
            let sb = f.level.splitter_bytes;
            if let Some((last, _)) = out.last_mut() {
                if !counter.exceeds(&doc[last.start..last.end + sb], size) {
                    last.end += sb;
                } else {
                    let s = last.end;
                    out.push((s..s + sb, f.level.kind));
                }
            }
        }
        f.i = next;
    }
    Ok(out)
}

/// semchunk's overlap: output chunk `k` spans subchunks `[k·stride, min(k·stride + per,
/// n))`, for `max(1, ceil((n - per) / stride) + 1)` chunks.
fn overlap_subchunks(
    sub: &[(Range<usize>, Boundary)],
    chunk_size: usize,
    unoverlapped: usize,
    subchunk_size: usize,
) -> Vec<Piece> {
    let n = sub.len();
    let per = (chunk_size / subchunk_size).max(1);
    let stride = (unoverlapped / subchunk_size).max(1);
    // math.ceil((n - per) / stride), with Python's rounding toward +inf for negatives.
    let diff = n as i128 - per as i128;
    let ceil = -((-diff).div_euclid(stride as i128));
    let count = (ceil + 1).max(1) as usize;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let first = k * stride;
        let last = first.saturating_add(per).min(n) - 1;
        let (Some(a), Some(b)) = (sub.get(first), sub.get(last)) else {
            break;
        };
        out.push(Piece::slice(a.0.start..b.0.end, b.1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, size: usize, overlap: usize, encoding: Encoding) -> Vec<(&str, Boundary)> {
        let s = Semchunk::new(&Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit: SizeUnit::Tokens,
            encoding,
        })
        .unwrap();
        s.split(text)
            .unwrap()
            .into_iter()
            .map(|p| (&text[p.bytes], p.reason))
            .collect()
    }

    /// `(text, start, end)` in chars, as semchunk's `offsets=True` reports them.
    fn offsets(text: &str, size: usize, overlap: usize) -> Vec<(String, usize, usize)> {
        let s = Semchunk::new(&Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        })
        .unwrap();
        let ch = |b: usize| text[..b].chars().count();
        s.split(text)
            .unwrap()
            .into_iter()
            .map(|p| {
                (
                    text[p.bytes.clone()].to_string(),
                    ch(p.bytes.start),
                    ch(p.bytes.end),
                )
            })
            .collect()
    }

    fn owned(v: &[(&str, usize, usize)]) -> Vec<(String, usize, usize)> {
        v.iter().map(|(t, a, b)| (t.to_string(), *a, *b)).collect()
    }

    // Expected values below are semchunk 4.1.1's own output (chunkerify(cl100k_base, size),
    // offsets=True).

    #[test]
    fn paragraphs_then_words_with_the_library_offsets() {
        let text =
            "First paragraph here.\n\nSecond paragraph is a bit longer than the first.\n\nThird.";
        assert_eq!(
            offsets(text, 8, 0),
            owned(&[
                ("First paragraph here.", 0, 21),
                ("Second paragraph is a bit longer than the", 23, 64),
                ("first.", 65, 71),
                ("Third.", 73, 79),
            ])
        );
        let v = cut(text, 8, 0, Encoding::Cl100kBase);
        let why: Vec<Boundary> = v.iter().map(|(_, b)| *b).collect();
        assert_eq!(
            why,
            [
                Boundary::Paragraph,
                Boundary::Word,
                Boundary::Paragraph,
                Boundary::EndOfText
            ]
        );
    }

    #[test]
    fn crlf_runs_are_the_longest_newline_splitter() {
        let text = "One line\r\nTwo line\r\n\r\nThree line, with more words in it";
        assert_eq!(
            offsets(text, 4, 0),
            owned(&[
                ("One line", 0, 8),
                ("Two line", 10, 18),
                ("Three line,", 22, 33),
                ("with more words in", 34, 52),
                ("it", 53, 55),
            ])
        );
        let why: Vec<Boundary> = cut(text, 4, 0, Encoding::Cl100kBase)
            .iter()
            .map(|(_, b)| *b)
            .collect();
        assert_eq!(why[..2], [Boundary::Line, Boundary::Paragraph]);
    }

    #[test]
    fn a_run_without_whitespace_keeps_its_punctuation_splitters() {
        assert_eq!(
            offsets("alpha-beta/gamma;delta,epsilon", 3, 0),
            owned(&[
                ("alpha-beta/", 0, 11),
                ("gamma;", 11, 17),
                ("delta,epsilon", 17, 30),
            ])
        );
    }

    #[test]
    fn single_spaces_split_after_sentence_terminators_first() {
        let text = "Hello there. General Kenobi! You are, a bold one.";
        assert_eq!(
            offsets(text, 5, 0),
            owned(&[
                ("Hello there.", 0, 12),
                ("General Kenobi!", 13, 28),
                ("You are,", 29, 37),
                ("a bold one.", 38, 49),
            ])
        );
        let why: Vec<Boundary> = cut(text, 5, 0, Encoding::Cl100kBase)
            .iter()
            .map(|(_, b)| *b)
            .collect();
        assert_eq!(why[..2], [Boundary::Sentence, Boundary::Sentence]);
    }

    #[test]
    fn overlap_merges_subchunks_of_the_reduced_size() {
        // overlap 3 of 10: subchunks of min(3, 7) = 3 tokens, 3 per chunk, a new chunk every
        // 2 subchunks; special-token strings are plain text.
        let text = "Docs end with <|endoftext|> here. A second sentence follows it, and a third one mentions <|fim_prefix|> too.\n\nThen a last paragraph.";
        assert_eq!(
            offsets(text, 10, 3),
            owned(&[
                ("Docs end with <|endoftext|", 0, 26),
                ("ftext|> here.", 20, 33),
                ("here. A second sentence follows", 28, 59),
                ("follows it, and a third", 52, 75),
                ("and a third one mentions <|fi", 64, 93),
                ("<|fim_prefix|>", 89, 103),
                ("> too.\n\nThen a last", 102, 121),
                ("Then a last paragraph.", 110, 132),
            ])
        );
        // An overlap of chunk_size - 1 or more is clamped; one chunk still comes out.
        assert_eq!(
            offsets("Docs end with <|endoftext|> here.", 1000, 999),
            owned(&[("Docs end with <|endoftext|> here.", 0, 33)])
        );
    }

    #[test]
    fn empty_and_whitespace_only_texts_give_no_chunk() {
        assert!(offsets("", 5, 0).is_empty());
        assert!(offsets(" \n\t ", 5, 0).is_empty());
        assert!(offsets("\u{1f}\u{a0} ", 5, 2).is_empty());
    }

    #[test]
    fn a_character_over_the_size_is_the_library_recursion_error() {
        // "猫" is 3 cl100k tokens: semchunk recurses on it forever (RecursionError).
        let s = |size, overlap| {
            Semchunk::new(&Settings {
                chunk_size: size,
                chunk_overlap: overlap,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            })
            .unwrap()
        };
        assert_eq!(
            s(2, 0).split("猫"),
            Err(StrategyError::CharacterOverChunkSize {
                strategy: StrategyId::Semchunk,
                library: "semchunk",
                byte_offset: 0,
                tokens: 3,
                chunk_size: 2,
            })
        );
        // Size 24 with overlap 12 chunks at 12 tokens, which fits it.
        assert_eq!(offsets("ab 猫", 24, 12), owned(&[("ab 猫", 0, 4)]));
        // Size 1: characters merged while they stay one token.
        assert_eq!(
            offsets(&"x".repeat(10), 1, 0),
            owned(&[("xxxx", 0, 4), ("xxxx", 4, 8), ("xx", 8, 10)])
        );
        assert!(s(usize::MAX, 7).split("Any text. At all.").is_ok());
    }

    #[test]
    fn the_counter_shortcut_answers_size_plus_one_for_long_texts() {
        let bpe = Encoding::Cl100kBase.tokenizer();
        let c = Counter {
            bpe,
            model: None,
            chunk_size: 2,
            prefix_extra: Some(127),
        };
        let long = "word ".repeat(10); // 50 chars > 6 × 2
        assert_eq!(bpe.count(&long), 11);
        assert_eq!(c.count(&long), 3);
        assert_eq!(c.count("word word"), 2); // 9 chars: counted
    }

    #[test]
    fn structural_ranks_follow_the_list_order() {
        for (r, (p, _)) in STRUCTURAL.iter().enumerate() {
            assert_eq!(structural_rank(*p), Some(r), "{p:?}");
        }
        assert_eq!(structural_rank('a'), None);
        assert_eq!(structural_rank(' '), None);
    }

    #[test]
    fn splitter_choice_follows_split_text() {
        let pick = |t: &str| match choose_splitter(t) {
            (Cut::Str(s), ws, k) => (s.to_string(), ws, k),
            (Cut::Preceded { preceder, ws }, w, k) => (format!("{preceder}{ws}"), w, k),
            (Cut::Chars, ws, k) => (String::new(), ws, k),
        };
        // Values from semchunk's own `_split_text`. Longest newline run (in characters),
        // the first of the longest; CRLF CRLF is a paragraph.
        assert_eq!(
            pick("a\n\nb\r\n\r\nc\n\n\nd\r\r\re"),
            ("\r\n\r\n".into(), true, Boundary::Paragraph)
        );
        assert_eq!(
            pick("a\n\n\nb\r\r\rc"),
            ("\n\n\n".into(), true, Boundary::Paragraph)
        );
        assert_eq!(pick("a\r\nb"), ("\r\n".into(), true, Boundary::Line));
        assert_eq!(pick("a\rb\nc"), ("\r".into(), true, Boundary::Line));
        assert_eq!(pick("a\tb\t\tc  d"), ("\t\t".into(), true, Boundary::Word));
        // A whitespace run beats preceders; `\u{a0}` and U+001F are whitespace.
        assert_eq!(
            pick("a. b \u{a0}c"),
            (" \u{a0}".into(), true, Boundary::Word)
        );
        // Single whitespace: the best-ranked preceder, wherever it is.
        assert_eq!(
            pick("a, b; c! d. e"),
            (". ".into(), true, Boundary::Sentence)
        );
        assert_eq!(pick("a - b, c"), (", ".into(), true, Boundary::Clause));
        assert_eq!(pick("a\u{1f}b"), ("\u{1f}".into(), true, Boundary::Word));
        // No whitespace: the best-ranked character present, kept in the chunks.
        assert_eq!(pick("a-b/c;d"), (";".into(), false, Boundary::Clause));
        assert_eq!(pick("abc"), (String::new(), true, Boundary::Character));
    }

    #[test]
    fn longest_token_is_128_bytes_in_both_encodings() {
        for e in Encoding::ALL {
            assert_eq!(longest_token_bytes(e.tokenizer()), 128);
        }
    }

    #[test]
    fn python_isspace_includes_information_separators() {
        assert!(python_isspace('\u{1f}') && python_isspace('\u{a0}') && python_isspace('\u{3000}'));
        assert!(!python_isspace('\u{200b}') && !python_isspace('\u{180e}') && !python_isspace('x'));
    }
}
