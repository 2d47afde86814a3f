//! chonkie 1.7.0 chunkers (with its compiled core, chonkie-core 0.10.2), reproduced exactly:
//! [`ChonkieRecursiveChunker`] (`chonkie.RecursiveChunker`) and [`ChonkieTokenChunker`]
//! (`chonkie.TokenChunker`).
//!
//! Both size in chonkie's default tokenizer `"character"` (Python `len`) or in the tokens of a
//! tiktoken encoding (a `tiktoken.Encoding` passed as `tokenizer`, whose `encode` refuses
//! special-token strings).

use super::fixed::{token_piece, window_pieces};
use super::python::python_isspace;
use super::{py_str, py_tiktoken, Parameter};
use super::{Boundary, Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::strategy::length::Length;
use crate::tokenizer::find_special_tokens_of;
use crate::tokenizer::TokenCounter;
use std::ops::Range;

const LIBRARY: &str = "chonkie";

/// One level of chonkie's default `RecursiveRules()` (`chonkie/types/recursive.py`,
/// `RecursiveRules.__post_init__`), every level with `include_delim="prev"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RecursiveLevel {
    /// Split after every occurrence of any of these strings (leftmost match first, and at one
    /// position the one listed first), then merge short segments (`min_characters_per_chunk`).
    Delimiters(&'static [&'static str]),
    /// `RecursiveLevel(whitespace=True)`: split after every space `" "` (only U+0020), then
    /// merge short segments.
    Whitespace,
    /// `RecursiveLevel()`: windows of `chunk_size` tokens of the piece, decoded; no merging.
    Tokens,
}

/// chonkie's default recursive recipe, `RecursiveRules()`: paragraphs, sentences, pauses,
/// words, tokens.
const RECURSIVE_RULES: [RecursiveLevel; 5] = [
    RecursiveLevel::Delimiters(&["\n\n", "\r\n", "\n", "\r"]),
    RecursiveLevel::Delimiters(&[". ", "! ", "? "]),
    RecursiveLevel::Delimiters(&[
        "{", "}", "\"", "[", "]", "<", ">", "(", ")", ":", ";", ",", "—", "|", "~", "-", "...",
        "`", "'",
    ]),
    RecursiveLevel::Whitespace,
    RecursiveLevel::Tokens,
];

/// chonkie 1.7.0 `RecursiveChunker(tokenizer=…, chunk_size=…)` with its default
/// `rules=RecursiveRules()` and `min_characters_per_chunk=24`.
///
/// The default rules' five levels, each with `include_delim="prev"`: paragraphs
/// (`"\n\n"`, `"\r\n"`, `"\n"`, `"\r"`), sentences (`". "`, `"! "`, `"? "`), pauses
/// (`{` `}` `"` `[` `]` `<` `>` `(` `)` `:` `;` `,` `—` `|` `~` `-` `...`, the backtick and
/// `'`), words (`whitespace=True`: the space U+0020 only) and tokens.
///
/// The rules, from `chonkie/chunker/recursive.py` (`RecursiveChunker._recursive_chunk`,
/// `_split_text`, `_merge_splits`) and chonkie-core 0.10.2 (`split_pattern_offsets`,
/// `split_offsets`, `merge_splits`):
/// 1. At each level the piece is cut after every delimiter match (the delimiter stays with the
///    segment before it). Consecutive segments are then joined while the one accumulated so far
///    or the next is shorter than `min_characters_per_chunk` **bytes** of UTF-8 (chonkie-core
///    measures byte offsets, despite the name).
/// 2. Each segment is measured alone with the tokenizer; segments are packed greedily while
///    the **sum** of their counts is at most `chunk_size` (a segment over the size stays
///    alone). The sums are never re-measured: a packed chunk's real count may be lower.
/// 3. A packed chunk whose sum is over `chunk_size` is cut again at the next level; at the last
///    level (tokens) it becomes windows of `chunk_size` tokens of its own encoding, decoded with
///    U+FFFD for a cut character (tiktoken's `decode`, `errors="replace"`).
///
/// A consequence of rule 1: words are seldom 24 bytes long, so the word level joins a whole
/// sentence back into one segment, and a sentence over the size is cut into windows
/// (`"Line two is here too.\r\n\r\nT"`, `"hird line."`) rather than between words.
///
/// Nothing is dropped or trimmed: the chunks rebuild the document (a window that cuts a
/// character shows U+FFFD). chonkie's `start_index`/`end_index` are running sums of
/// `len(text)`, true positions unless such a U+FFFD appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChonkieRecursiveChunker {
    /// `tokenizer`: `"character"` ([`Length::Characters`]) or a tiktoken encoding.
    pub tokenizer: Length,
    /// `chunk_size`, in units of `tokenizer`.
    pub chunk_size: usize,
    /// `min_characters_per_chunk` (default 24): segments shorter than this many UTF-8 bytes are
    /// joined to a neighbour before measuring.
    pub min_characters_per_chunk: usize,
    /// The overlap the page asked for, which `RecursiveChunker` has no parameter for: a chonkie
    /// user runs it without one, so its chunks never overlap, and [`Chunker::overlap_ignored`]
    /// says so when this is above 0. Not a parameter of the library.
    pub ignored_overlap: usize,
}

impl ChonkieRecursiveChunker {
    /// The chunker for `settings` with chonkie's defaults for the rest.
    ///
    /// # Errors
    /// [`StrategyError::Params`] (chonkie: `ValueError("chunk_size must be greater than
    /// 0")`). An overlap above 0 is not refused: `RecursiveChunker` has no `chunk_overlap`
    /// parameter, so the chunks are the library's without one, and
    /// [`ChonkieRecursiveChunker::ignored_overlap`] keeps what was asked.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        let c = ChonkieRecursiveChunker {
            tokenizer: settings.length(),
            chunk_size: settings.chunk_size,
            min_characters_per_chunk: 24,
            ignored_overlap: settings.chunk_overlap,
        };
        c.validate()?;
        Ok(c)
    }

    /// chonkie's constructor checks (`RecursiveChunker.__init__`).
    fn validate(&self) -> Result<(), StrategyError> {
        if self.chunk_size == 0 {
            return Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize,
            ));
        }
        if self.min_characters_per_chunk == 0 {
            return Err(StrategyError::ParameterRefused {
                strategy: StrategyId::ChonkieRecursive,
                parameter: "min_characters_per_chunk",
                detail: "must be greater than 0",
            });
        }
        Ok(())
    }

    /// Cuts `text[range]` at `level` and below, appending chunks to `out`; `end` is why the
    /// piece itself ends.
    ///
    /// # Errors
    /// [`StrategyError::ModelDecode`] when an open model's tokenizer sizes the chunks and a
    /// piece reaches the token level, where chonkie decodes the model's ids.
    fn chunk(
        &self,
        text: &str,
        range: Range<usize>,
        level: usize,
        end: Boundary,
        out: &mut Vec<Piece>,
    ) -> Result<(), StrategyError> {
        if range.is_empty() {
            return Ok(());
        }
        let rule = match RECURSIVE_RULES.get(level) {
            Some(rule) => *rule,
            None => {
                out.push(Piece::slice(range, end));
                return Ok(());
            }
        };
        let delimiters: &[&str] = match rule {
            RecursiveLevel::Delimiters(d) => d,
            RecursiveLevel::Whitespace => &[" "],
            RecursiveLevel::Tokens if matches!(self.tokenizer, Length::Model(_)) => {
                return Err(StrategyError::ModelDecode {
                    strategy: StrategyId::ChonkieRecursive,
                    byte_offset: range.start,
                });
            }
            RecursiveLevel::Tokens => {
                self.windows(text, range, end, out);
                return Ok(());
            }
        };
        let segments = split_after(text, range, delimiters, self.min_characters_per_chunk);
        let counts: Vec<usize> = segments
            .iter()
            .map(|r| self.tokenizer.count(&text[r.clone()]))
            .collect();
        let groups = pack(&counts, self.chunk_size);
        let mut first = 0;
        for (g, &(last, sum)) in groups.iter().enumerate() {
            let piece = segments[first].start..segments[last - 1].end;
            first = last;
            let reason = if g + 1 == groups.len() {
                end
            } else {
                level_reason(level, &text[piece.clone()])
            };
            if sum > self.chunk_size {
                self.chunk(text, piece, level + 1, reason, out)?;
            } else {
                out.push(Piece::slice(piece, reason));
            }
        }
        Ok(())
    }

    /// The last level: windows of `chunk_size` units of the piece's own encoding.
    fn windows(&self, text: &str, range: Range<usize>, end: Boundary, out: &mut Vec<Piece>) {
        let base = range.start;
        let bounds = self.tokenizer.boundaries(&text[range]);
        let n = bounds.len() - 1;
        let cut = match self.tokenizer {
            Length::Characters => Boundary::Character,
            Length::Tokens(_) | Length::Model(_) => Boundary::SizeLimit,
        };
        let mut start = 0;
        while start < n {
            let stop = start.saturating_add(self.chunk_size).min(n);
            let reason = if stop == n { end } else { cut };
            out.push(token_piece(
                text,
                base + bounds[start]..base + bounds[stop],
                reason,
            ));
            start = stop;
        }
    }
}

impl Chunker for ChonkieRecursiveChunker {
    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("tokenizer", tokenizer_literal(self.tokenizer)),
            ("chunk_size", self.chunk_size.to_string()),
            ("rules", "RecursiveRules()".to_owned()),
            (
                "min_characters_per_chunk",
                self.min_characters_per_chunk.to_string(),
            ),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::ChonkieRecursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, self.tokenizer)
    }

    fn overlap_ignored(&self) -> bool {
        self.ignored_overlap > 0
    }

    /// # Errors
    /// The constructor's refusals when fields were changed, and
    /// [`StrategyError::TextRefused`] in tokens when the text holds a special-token string of
    /// the encoding (tiktoken's `encode` raises on the first piece that is measured).
    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        self.validate()?;
        self.tokenizer.model_tokenizer()?;
        refuse_special_tokens(StrategyId::ChonkieRecursive, self.tokenizer, text)?;
        let mut out = Vec::new();
        self.chunk(text, 0..text.len(), 0, Boundary::EndOfText, &mut out)?;
        Ok(out)
    }
}

/// chonkie-core's `split_pattern_offsets` / `split_offsets` with `include_delim="prev"`:
/// `text[range]` cut after every match of `delimiters` (leftmost first; at one position the
/// delimiter listed first), then consecutive segments joined while the accumulated one or the
/// next is under `min_bytes` bytes. Absolute byte ranges, covering `range`, none empty.
pub(crate) fn split_after(
    text: &str,
    range: Range<usize>,
    delimiters: &[&str],
    min_bytes: usize,
) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut first_byte = [false; 256];
    for d in delimiters {
        if let Some(&b) = d.as_bytes().first() {
            first_byte[b as usize] = true;
        }
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut push = |seg: Range<usize>| match out.last_mut() {
        Some(acc) if acc.len() < min_bytes || seg.len() < min_bytes => acc.end = seg.end,
        _ => out.push(seg),
    };
    let mut seg_start = range.start;
    let mut at = range.start;
    while at < range.end {
        let found = first_byte[bytes[at] as usize]
            .then(|| {
                delimiters
                    .iter()
                    .find(|d| bytes[at..range.end].starts_with(d.as_bytes()))
            })
            .flatten();
        match found {
            Some(d) => {
                at += d.len();
                push(seg_start..at);
                seg_start = at;
            }
            None => at += 1,
        }
    }
    if seg_start < range.end {
        push(seg_start..range.end);
    }
    out
}

/// chonkie-core's `merge_splits` (`find_merge_indices`): greedy packing of consecutive
/// segments while the sum of their counts is at most `chunk_size`, at least one per group.
/// Returns each group's exclusive end index and its summed count.
pub(crate) fn pack(counts: &[usize], chunk_size: usize) -> Vec<(usize, usize)> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < counts.len() {
        let mut sum = counts[i];
        let mut j = i + 1;
        while j < counts.len() && sum.saturating_add(counts[j]) <= chunk_size {
            sum += counts[j];
            j += 1;
        }
        groups.push((j, sum));
        i = j;
    }
    groups
}

/// Why a piece cut at level `level` of [`RECURSIVE_RULES`] (not the last of its parent) ends:
/// the delimiter it ends with (a paragraph when that is a second line break in a row).
fn level_reason(level: usize, piece: &str) -> Boundary {
    match level {
        0 => {
            let rest = piece
                .strip_suffix("\r\n")
                .or_else(|| piece.strip_suffix(['\n', '\r']))
                .unwrap_or(piece);
            if rest.ends_with(['\n', '\r']) {
                Boundary::Paragraph
            } else {
                Boundary::Line
            }
        }
        1 => Boundary::Sentence,
        2 => Boundary::Clause,
        3 => Boundary::Word,
        _ => Boundary::SizeLimit,
    }
}

/// In tokens, [`StrategyError::TextRefused`] at the first special-token string of the
/// encoding: chonkie calls tiktoken's `encode` (via `TiktokenAutoTokenizer`), which raises
/// `ValueError` on one.
pub(crate) fn refuse_special_tokens(
    strategy: StrategyId,
    tokenizer: Length,
    text: &str,
) -> Result<(), StrategyError> {
    let Length::Tokens(encoding) = tokenizer else {
        return Ok(());
    };
    match find_special_tokens_of(text, encoding).first().copied() {
        Some((byte_offset, found)) => Err(StrategyError::TextRefused {
            strategy,
            library: LIBRARY,
            byte_offset,
            found,
        }),
        None => Ok(()),
    }
}

/// chonkie 1.7.0 `TokenChunker(tokenizer=…, chunk_size=…, chunk_overlap=…)`
/// (`chonkie/chunker/token.py`): the whole text encoded once, windows of `chunk_size` units
/// starting every `chunk_size − chunk_overlap` units, the last one ending at the text's end
/// (`_token_group_generator`), each decoded (`decode_batch`; tiktoken shows U+FFFD for a cut
/// character). A text that is empty or whitespace only gives no chunk (`if not
/// text.strip(): return []`).
///
/// chonkie's `start_index`/`end_index` are running sums of decoded lengths
/// (`_create_chunks`), true positions unless a window cuts a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChonkieTokenChunker {
    /// `tokenizer`: `"character"` ([`Length::Characters`]) or a tiktoken encoding.
    pub tokenizer: Length,
    /// `chunk_size`, in units of `tokenizer`.
    pub chunk_size: usize,
    /// `chunk_overlap`, in units of `tokenizer` (default 0).
    pub chunk_overlap: usize,
}

impl ChonkieTokenChunker {
    /// The chunker for `settings`.
    ///
    /// # Errors
    /// [`StrategyError::Params`] (chonkie: `ValueError("chunk_size must be
    /// positive")`); [`StrategyError::OverlapRefused`] when `chunk_overlap >= chunk_size`
    /// (`ValueError("chunk_overlap must be less than chunk_size")`).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::ChonkieToken, settings.unit)?;
        let c = ChonkieTokenChunker {
            tokenizer: settings.length(),
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
        };
        c.validate()?;
        Ok(c)
    }

    fn validate(&self) -> Result<(), StrategyError> {
        if self.chunk_size == 0 {
            return Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize,
            ));
        }
        if self.chunk_overlap >= self.chunk_size {
            return Err(StrategyError::OverlapRefused {
                strategy: StrategyId::ChonkieToken,
                library: LIBRARY,
                chunk_size: self.chunk_size,
                chunk_overlap: self.chunk_overlap,
            });
        }
        Ok(())
    }
}

impl Chunker for ChonkieTokenChunker {
    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("tokenizer", tokenizer_literal(self.tokenizer)),
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::ChonkieToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, self.tokenizer)
    }

    /// # Errors
    /// The constructor's refusals when fields were changed, and
    /// [`StrategyError::TextRefused`] in tokens when the (non-blank) text holds a
    /// special-token string of the encoding.
    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        self.validate()?;
        if text.chars().all(python_isspace) {
            return Ok(Vec::new());
        }
        refuse_special_tokens(StrategyId::ChonkieToken, self.tokenizer, text)?;
        let bounds = self.tokenizer.boundaries(text);
        Ok(window_pieces(
            text,
            &bounds,
            self.chunk_size,
            self.chunk_overlap,
        ))
    }
}

/// chonkie's `tokenizer` argument: `"character"` or a tiktoken encoding.
fn tokenizer_literal(length: Length) -> String {
    match length {
        Length::Characters => py_str("character"),
        Length::Tokens(e) => py_tiktoken(e),
        Length::Model(v) => super::py_hf_tokenizer(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, run, SizeUnit};
    use crate::tokenizer::Encoding;

    use crate::strategy::test_settings as settings;

    fn texts(id: StrategyId, s: Settings, text: &str) -> Vec<String> {
        let c = chunker(id, &s).expect("valid");
        let out = run(c.as_ref(), text, s.encoding).expect("chunks");
        out.chunks
            .iter()
            .map(|c| c.text(text).into_owned())
            .collect()
    }

    fn recursive(size: usize, unit: SizeUnit, text: &str) -> Vec<String> {
        texts(StrategyId::ChonkieRecursive, settings(size, 0, unit), text)
    }

    fn token(size: usize, overlap: usize, unit: SizeUnit, text: &str) -> Vec<String> {
        texts(
            StrategyId::ChonkieToken,
            settings(size, overlap, unit),
            text,
        )
    }

    #[test]
    fn core_split_joins_segments_under_min_bytes_not_characters() {
        // chonkie_core.split_offsets(b"A. B. C. D. E.", delimiters=b".", min_chars=4):
        // every segment is under 4 bytes, so all join: [(0, 14)].
        let t = "A. B. C. D. E.";
        let whole = split_after(t, 0..t.len(), &["."], 4);
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0], 0..14);
        // "é. é. é. é. é." with min_chars=4: "é." is 3 bytes, " é." 4 bytes:
        // [(0, 7), (7, 11), (11, 15), (15, 19)].
        let t = "é. é. é. é. é.";
        assert_eq!(
            split_after(t, 0..t.len(), &["."], 4),
            [0..7, 7..11, 11..15, 15..19]
        );
        // split_pattern_offsets(b"a\n\n\nb\r\n\nc\r\rd", [\n\n, \r\n, \n, \r], min_chars=1).
        let t = "a\n\n\nb\r\n\nc\r\rd";
        let delims = ["\n\n", "\r\n", "\n", "\r"];
        assert_eq!(
            split_after(t, 0..t.len(), &delims, 1),
            [0..3, 3..4, 4..7, 7..8, 8..10, 10..11, 11..12]
        );
    }

    #[test]
    fn core_merge_packs_by_summed_counts() {
        // chonkie_core.merge_splits(..., [10, 15, 20, 5, 8, 12], 30): merged ends [2, 4, 6].
        assert_eq!(
            pack(&[10, 15, 20, 5, 8, 12], 30),
            [(2, 25), (4, 25), (6, 20)]
        );
        assert_eq!(pack(&[50, 60, 70], 30), [(1, 50), (2, 60), (3, 70)]);
        assert_eq!(pack(&[1; 7], 3), [(3, 3), (6, 3), (7, 1)]);
    }

    #[test]
    fn recursive_e07_paragraphs_and_sentences_in_characters() {
        // chonkie.RecursiveChunker(chunk_size=40).chunk(text): the 23-byte first paragraph is
        // under the 24-byte minimum and "End" too, so the paragraph level is one 75-char
        // segment; the sentence level joins short sentences the same way, words are all under
        // 24 bytes: the cut is a 40-char window (that it falls after a space is chance).
        let text = "First paragraph here.\n\nSecond paragraph is much longer. It has two. Ok.\nEnd";
        assert_eq!(
            recursive(40, SizeUnit::Characters, text),
            [
                "First paragraph here.\n\nSecond paragraph ",
                "is much longer. It has two. Ok.\nEnd",
            ]
        );
        let c = ChonkieRecursiveChunker::new(&settings(40, 0, SizeUnit::Characters)).expect("ok");
        let reasons: Vec<_> = c
            .split(text)
            .expect("ok")
            .iter()
            .map(|p| p.reason)
            .collect();
        assert_eq!(reasons, [Boundary::Character, Boundary::EndOfText]);
    }

    #[test]
    fn recursive_e11a_a_run_without_whitespace_becomes_windows() {
        // chonkie.RecursiveChunker(chunk_size=10): no delimiter, no space: 10-char windows.
        let text = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(
            recursive(10, SizeUnit::Characters, text),
            ["abcdefghij", "klmnopqrst", "uvwxyz"]
        );
    }

    #[test]
    fn recursive_e12_token_windows_cut_characters_with_u_fffd() {
        // RecursiveChunker(tokenizer=cl100k_base, chunk_size=2).chunk("猫猫猫"): 猫 is 3 tokens
        // of one byte each (e7 8c ab): windows of 2 tokens, decoded with errors="replace"
        // (e7 8c is one incomplete sequence, one U+FFFD; 8c ab are two stray bytes, two).
        let out = recursive(2, SizeUnit::Tokens, "猫猫猫");
        assert_eq!(
            out,
            [
                "\u{FFFD}",
                "\u{FFFD}\u{FFFD}",
                "\u{FFFD}\u{FFFD}",
                "\u{FFFD}",
                "\u{FFFD}"
            ]
        );
        let c = ChonkieRecursiveChunker::new(&settings(2, 0, SizeUnit::Tokens)).expect("ok");
        let pieces = c.split("猫猫猫").expect("ok");
        assert_eq!(pieces[0].bytes, 0..2);
        assert_eq!(pieces[4].bytes, 8..9);
        assert_eq!(pieces[0].reason, Boundary::SizeLimit);
        assert_eq!(pieces[4].reason, Boundary::EndOfText);
    }

    #[test]
    fn recursive_e16_crlf_and_whitespace_are_kept() {
        // RecursiveChunker(chunk_size=48).chunk(...): every line is under the 24-byte minimum,
        // so the paragraph level is one segment; no sentence, pause or long-enough word
        // follows: the cut is a 48-char window.
        let text = "Line one is here ok.\r\nLine two is here too.\r\n\r\nThird line.";
        assert_eq!(
            recursive(48, SizeUnit::Characters, text),
            [
                "Line one is here ok.\r\nLine two is here too.\r\n\r\nT",
                "hird line."
            ]
        );
        // Longer lines: the 2-byte "\r\n" segment joins the line before it, nothing is
        // trimmed. RecursiveChunker(chunk_size=30 | 60 | 90).
        let text = "The first line is long enough here.\r\nThe second line is long enough too.\r\n\r\nA third paragraph that is long.\r\nEnd.";
        assert_eq!(
            recursive(30, SizeUnit::Characters, text),
            [
                "The first line is long enough ",
                "here.\r\n",
                "The second line is long enough",
                " too.\r\n\r\n",
                "A third paragraph that is long",
                ".\r\nEnd."
            ]
        );
        assert_eq!(
            recursive(60, SizeUnit::Characters, text),
            [
                "The first line is long enough here.\r\n",
                "The second line is long enough too.\r\n\r\n",
                "A third paragraph that is long.\r\nEnd."
            ]
        );
        assert_eq!(
            recursive(90, SizeUnit::Characters, text),
            [
                "The first line is long enough here.\r\nThe second line is long enough too.\r\n\r\n",
                "A third paragraph that is long.\r\nEnd."
            ]
        );
        let reasons = |size| {
            let c =
                ChonkieRecursiveChunker::new(&settings(size, 0, SizeUnit::Characters)).expect("ok");
            let r: Vec<_> = c
                .split(text)
                .expect("ok")
                .iter()
                .map(|p| p.reason)
                .collect();
            r
        };
        use Boundary::*;
        assert_eq!(
            reasons(30),
            [Character, Line, Character, Paragraph, Character, EndOfText]
        );
        assert_eq!(reasons(60), [Line, Paragraph, EndOfText]);
        assert_eq!(reasons(90), [Paragraph, EndOfText]);
        assert_eq!(
            recursive(4, SizeUnit::Characters, "  \n \n\t  "),
            ["  \n ", "\n\t  "]
        );
        assert!(recursive(4, SizeUnit::Characters, "").is_empty());
    }

    #[test]
    fn recursive_refusals() {
        // No chunk_overlap in the library: an overlap asked for is ignored, and said to be.
        let text = "One sentence here. Another one there.\n\nA second paragraph follows it.";
        let with = ChonkieRecursiveChunker::new(&settings(8, 7, SizeUnit::Tokens)).expect("ok");
        let without = ChonkieRecursiveChunker::new(&settings(8, 0, SizeUnit::Tokens)).expect("ok");
        assert_eq!(with.split(text), without.split(text));
        assert!(with.overlap_ignored() && !without.overlap_ignored());
        let chunks = run(&with, text, crate::tokenizer::Encoding::Cl100kBase).expect("chunks");
        assert!(chunks.overlap_ignored);
        assert!(chunks
            .chunks
            .windows(2)
            .all(|w| w[0].bytes.end <= w[1].bytes.start));
        assert_eq!(
            ChonkieRecursiveChunker::new(&settings(0, 0, SizeUnit::Tokens)),
            Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize
            ))
        );
        // tiktoken's encode raises ValueError on "<|endoftext|>"; characters do not.
        let c = ChonkieRecursiveChunker::new(&settings(64, 0, SizeUnit::Tokens)).expect("ok");
        assert_eq!(
            c.split("a <|endoftext|> b"),
            Err(StrategyError::TextRefused {
                strategy: StrategyId::ChonkieRecursive,
                library: LIBRARY,
                byte_offset: 2,
                found: "<|endoftext|>",
            })
        );
        // "<|fim_prefix|>" is special in cl100k_base only.
        let o200k = Settings {
            encoding: Encoding::O200kBase,
            ..settings(64, 0, SizeUnit::Tokens)
        };
        let c = ChonkieRecursiveChunker::new(&o200k).expect("ok");
        assert_eq!(c.split("a <|fim_prefix|>").expect("ok").len(), 1);
        assert_eq!(
            recursive(64, SizeUnit::Characters, "a <|endoftext|> b"),
            ["a <|endoftext|> b"]
        );
        let mut c = c;
        c.min_characters_per_chunk = 0;
        assert!(matches!(
            c.split("x"),
            Err(StrategyError::ParameterRefused { .. })
        ));
    }

    #[test]
    fn token_windows_with_overlap_and_blank_text() {
        // TokenChunker(chunk_size=4, chunk_overlap=1).chunk("abcdefghij"): steps of 3.
        assert_eq!(
            token(4, 1, SizeUnit::Characters, "abcdefghij"),
            ["abcd", "defg", "ghij"]
        );
        // A window that reaches the end is the last one.
        assert_eq!(
            token(4, 2, SizeUnit::Characters, "abcdef"),
            ["abcd", "cdef"]
        );
        // TokenChunker(tokenizer=cl100k_base, chunk_size=2, chunk_overlap=1).chunk("猫猫").
        assert_eq!(
            token(2, 1, SizeUnit::Tokens, "猫猫"),
            [
                "\u{FFFD}",
                "\u{FFFD}\u{FFFD}",
                "\u{FFFD}\u{FFFD}",
                "\u{FFFD}",
                "\u{FFFD}\u{FFFD}"
            ]
        );
        // `not text.strip()`: no chunk; U+001C is whitespace for Python, not for Rust.
        assert!(token(4, 0, SizeUnit::Characters, " \n\t\u{1c}").is_empty());
        assert!(token(4, 0, SizeUnit::Tokens, "").is_empty());
        assert_eq!(
            token(4, 0, SizeUnit::Characters, " \r\nx "),
            [" \r\nx", " "]
        );
    }

    #[test]
    fn token_refusals() {
        assert!(matches!(
            ChonkieTokenChunker::new(&settings(8, 8, SizeUnit::Tokens)),
            Err(StrategyError::OverlapRefused {
                chunk_size: 8,
                chunk_overlap: 8,
                ..
            })
        ));
        assert_eq!(
            ChonkieTokenChunker::new(&settings(0, 0, SizeUnit::Characters)),
            Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize
            ))
        );
        let c = ChonkieTokenChunker::new(&settings(8, 0, SizeUnit::Tokens)).expect("ok");
        assert!(matches!(
            c.split("x <|endofprompt|>"),
            Err(StrategyError::TextRefused { byte_offset: 2, .. })
        ));
        // Huge sizes: one window, no overflow.
        let c = ChonkieTokenChunker::new(&settings(usize::MAX, 3, SizeUnit::Tokens)).expect("ok");
        assert_eq!(c.split("one two").expect("ok").len(), 1);
        let c =
            ChonkieRecursiveChunker::new(&settings(usize::MAX, 0, SizeUnit::Tokens)).expect("ok");
        assert_eq!(c.split("one two").expect("ok").len(), 1);
    }
}
