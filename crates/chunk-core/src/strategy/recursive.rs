//! The product's own recursive splitter (SPEC §5): split at paragraphs, then sentences, then
//! words, and cut at token boundaries only when nothing else fits, sizing every chunk by the
//! true count of its own text.
//!
//! No library is reproduced; the strategy is guarded by reconstruction and by an independent
//! second implementation in the gate (`tests/gate/recursive_reference.rs`), which follows the
//! rule stated on [`Recursive`] with linear scans and full counts.

use super::{Boundary, Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::params::ChunkParams;
use crate::segment::markdown::fenced_code_blocks;
use crate::segment::sentences::{sentence_bytes, SentenceRule};
use crate::strategy::length::Length;
use crate::tokenizer::{Encoding, SliceCounter};
use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

/// The product's recursive splitter: every chunk is an exact slice of the document, at most
/// [`ChunkParams::chunk_size`] units of [`Recursive::length`] counting its overlap, cut at the
/// coarsest structure that fits.
///
/// # The rule
///
/// *Units* are the tokens of the encoding or characters (Unicode scalar values), as
/// [`Recursive::length`] says; `S` = `chunk_size`, `O` = `chunk_overlap` (clamped below `S` and
/// flagged by [`ChunkParams`]); `c(x)` = the true count of the text `x`
/// ([`crate::tokenizer::TokenCounter::count`]); `T[a..e]` = the document's bytes `a..e`.
///
/// **Cut points.** A separator ends the chunk it closes (langchain PR 21665 fixed the same
/// fault with its "end" placement): every structural cut point is the *end* of a run of
/// whitespace (`char::is_whitespace`) that has text before it and non-whitespace after it, or,
/// when the run holds a line break, the start of its last line (the line's indentation stays
/// with it: code and nested lists keep their shape), so a chunk starts with a word or with the
/// indentation of its first line, never with the separator before it. Leading whitespace of the
/// document is thus in the first chunk, trailing whitespace in the last. A chunk starts with
/// whitespace only where the text does, at a line of code (its indentation kept), or where a
/// cut falls below the word level: a run of whitespace longer than the size, or a word that
/// fits without the whitespace after it but not with it (the character level then cuts
/// before the whitespace). A separator at the end costs a token where BPE would have merged it
/// into the next word, so at an exact fit a chunk holds one word less.
///
/// **Code blocks.** Fenced code blocks ([`fenced_code_blocks`]) are kept whole when they fit.
/// Inside one (after the first character of its opening fence, up to its end) there is no
/// paragraph or sentence cut point; no cut at any level falls after the fence's first
/// character up to and including the end of the opening fence's line, nor in the closing
/// fence's line: a fence line never stands alone in a chunk (text-splitter issue 798).
///
/// The levels, coarsest first, each holding every cut point of the levels above it and the
/// end of the text:
/// 1. **paragraph** ([`Boundary::Paragraph`]): runs of whitespace with at least two line breaks
///    (`\r\n` is one; `\n`, `\r`, U+000B, U+000C, U+0085, U+2028, U+2029), and the edges of
///    every code block: its opening fence's first character (when text comes before it) and
///    the first non-whitespace after it;
/// 2. **sentence** ([`Boundary::Sentence`]): the start of each sentence of
///    [`sentence_bytes`] under [`Recursive::rule`] after the first, moved forward over any
///    whitespace to the sentence's first character, or to the start of its line when that
///    whitespace holds a line break;
/// 3. **line of code** ([`Boundary::CodeBlockPart`]): the start of every line of a code block's
///    body after its first ([`crate::segment::markdown::CodeBlock::inner_line_starts`]) that
///    is not blank (a blank line stays with the line before it);
/// 4. **word** ([`Boundary::Word`]): every run of whitespace, except, inside a code block, a
///    run holding a line break (a line of code is cut at its start, by level 3);
/// 5. **unit**: tokens — the document's token boundaries that are also char boundaries (never a
///    cut inside a character, so no U+FFFD: E16) and are not followed by whitespace, reason
///    [`Boundary::SizeLimit`]; characters — every char boundary not followed by whitespace,
///    reason [`Boundary::Character`];
/// 6. **character** ([`Boundary::Character`]): every char boundary.
///
/// Each chunk that starts or ends inside a code block's inside carries the block's info
/// string ([`Piece::code_info`]).
///
/// **Reach.** A unit is at most `m` bytes (`m` = the longest token of the encoding, or 4 for
/// characters), so a slice longer than `n·m` bytes is always more than `n` units: candidates
/// lie within that reach and are never counted beyond it.
///
/// **Proxy.** `p(a, e)` = the number of the document's units that start in `[a, e)`: exact for
/// characters, and for tokens equal to `c(T[a..e])` whenever the slice is tokenized as the
/// document is there (nearly always). It is monotone in `e`, so it is searched by bisection;
/// it only chooses where the true counts are taken.
///
/// **End of a chunk starting at `a`** whose end must lie after `lo` (`lo = a`, or the previous
/// chunk's end when this one starts inside it). At each level, coarsest first: let `w₁ < w₂ <
/// …` be the level's cut points in `(lo, a + S·m]`; let `k` = the number of them with
/// `p(a, wᵢ) ≤ S`; call `i` *fitting* when `c(T[a..wᵢ]) ≤ S`, and `0` fitting always. If `k`
/// fits, move up while `k + 1` fits; otherwise move down until a fitting `k` (possibly 0). A
/// final `k ≥ 1` ends the chunk at `w_k`, at this level; `k = 0` tries the next level. When no
/// level fits (one character alone is more than `S` tokens, or the size is smaller than what a
/// fence line allows at any level), the chunk is that one
/// character, flagged oversize by [`super::run`]. Token counts of slices are not monotone in BPE
/// (`"hel"` may be 2 tokens and `"hell"` 1): the walk from the proxy makes the result one
/// precise edge of the fitting candidates, and every chosen chunk is verified by a true count.
///
/// **Overlap.** The next chunk after `[a, e)` (cut at level `ℓ`) starts by stepping back over
/// whole units of level `ℓ`: let `q₁ > q₂ > …` be the level-`ℓ` cut points in `(a, e)` with
/// `e − q ≤ O·m`, `k` = the number with `p(qᵢ, e) ≤ O`, *fitting* =
/// `c(T[qᵢ..e]) ≤ O`, and the same walk; the start is `q_k`, or `e` for `k = 0` (or `O = 0`).
/// A paragraph cut thus overlaps by whole paragraphs only: with paragraphs longer than `O`
/// the real overlap is 0 (E06), which the page measures from the chunks. The next chunk's end
/// must lie after `e`, and the overlap may not move the cut inside a word: first the chunk
/// starting at `e` itself is cut (level `ℓ₀`); then from the overlap start the end is searched
/// at the levels down to the word level, or down to `ℓ₀` when that is finer. When none fits
/// (the overlap plus the next word would exceed `S`), the start moves to the next later cut
/// point `q_{k−1}`, …, and finally to `e`, whose cut is already known. Every chunk so starts
/// after the previous start and ends after the previous end: the loop always advances (E01,
/// E12).
///
/// **Reason**: the level the chunk's end was found at; [`Boundary::EndOfText`] for the last.
///
/// **Cost**: one encode of the document, one sentence segmentation, and per chunk a few true
/// counts of chunk-sized slices (counts stop once past the cap), so linear in the text. Not so
/// inside a long run of one split piece (a run of line breaks, of one character): a slice
/// that starts inside it is merged whole at every count, and each overlap start that does not
/// fit costs one such count; 256 KB of line breaks take about 1.9 s natively (typical text:
/// about 25 ms per MB). Within one cut, a slice is counted once, whatever the number of levels
/// it is a candidate at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recursive {
    /// Size and overlap, in units of [`Recursive::length`] (an overlap ≥ size is clamped to
    /// size − 1 and flagged).
    pub params: ChunkParams,
    /// The unit: tokens of an encoding or characters.
    pub length: Length,
    /// How sentence ends are found (default: [`SentenceRule::Contextual`]).
    pub rule: SentenceRule,
}

impl Recursive {
    /// The recursive splitter with `settings`, sentences by
    /// [`SentenceRule::Contextual`].
    ///
    /// # Errors
    /// [`StrategyError::Params`] when `chunk_size == 0`.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::Recursive, settings.unit)?;
        Ok(Recursive {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            length: settings.length(),
            rule: SentenceRule::Contextual,
        })
    }
}

impl Chunker for Recursive {
    fn overlap_clamped(&self) -> bool {
        self.params.overlap_clamped()
    }

    fn id(&self) -> StrategyId {
        StrategyId::Recursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.params.chunk_size(), self.length)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let plan = Plan::new(text, self.length, self.rule, Grain::Recursive);
        Ok(plan.split(self.params.chunk_size(), self.params.chunk_overlap()))
    }
}

/// What a [`Plan`] cuts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grain {
    /// Every level, down to single characters ([`Recursive`]).
    Recursive,
    /// Whole sentences and, in code, whole lines only ([`super::SentencePacking`]): a sentence
    /// longer than the size is a chunk of its own.
    Sentences,
}

/// A structure level of the cut, coarsest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Paragraph,
    Sentence,
    Line,
    Word,
    Unit,
    Character,
}

/// The candidates and counts of one document.
pub(crate) struct Plan<'t> {
    text: &'t str,
    length: Length,
    /// Unit boundaries (tokens only; characters count directly).
    units: Vec<usize>,
    /// Cut points of the levels paragraph, sentence, line and word, and unit for tokens, each
    /// ending with `text.len()`.
    levels: Vec<Vec<usize>>,
    /// Most bytes one unit can span (the reach per unit).
    unit_bytes: usize,
    /// Where no cut may fall: the fence lines of the code blocks (sorted, disjoint).
    fences: Vec<Range<usize>>,
    /// The inside of each code block (after its fence's first character to its end, sorted,
    /// disjoint) with the fence's info string.
    code: Vec<(Range<usize>, String)>,
    /// The line-of-code cut points, ascending.
    code_lines: Vec<usize>,
    grain: Grain,
}

/// True when `p` lies in one of the sorted, disjoint `ranges`.
fn within<T>(ranges: &[(Range<usize>, T)], p: usize) -> bool {
    let i = ranges.partition_point(|(r, _)| r.start <= p);
    i > 0 && p < ranges[i - 1].0.end
}

impl<'t> Plan<'t> {
    pub(crate) fn new(text: &'t str, length: Length, rule: SentenceRule, grain: Grain) -> Self {
        let len = text.len();
        let mut fences = Vec::new();
        let mut code = Vec::new();
        let mut lines = Vec::new();
        let mut edges = Vec::new();
        for b in fenced_code_blocks(text) {
            let fence = b.fence;
            // No cut after the fence's first mark up to the start of the first line of code
            // (included), nor in the closing fence's line: a fence never stands alone.
            fences.push((fence + 1..b.body.start + 1, ()));
            if b.body.end < b.bytes.end {
                fences.push((b.body.end..b.bytes.end, ()));
            }
            lines.extend(
                b.inner_line_starts(text)
                    .filter(|&p| !blank_line(&text[p..])),
            );
            if !text[..fence].trim().is_empty() {
                edges.push(line_start_in_run(text, fence));
            }
            let after =
                b.bytes.end + (text[b.bytes.end..].len() - text[b.bytes.end..].trim_start().len());
            if after < len {
                edges.push(line_start_in_run(text, after));
            }
            code.push((fence + 1..b.bytes.end, b.info));
        }
        let free = |p: &usize| !within(&fences, *p);
        let prose = |p: &usize| free(p) && !within(&code, *p);
        let (mut paragraphs, mut words) = (Vec::new(), Vec::new());
        for (end, breaks) in whitespace_runs(text) {
            // In code, a line is cut at its start (its indentation kept), never after it.
            if free(&end) && (breaks == 0 || !within(&code, end)) {
                words.push(end);
            }
            if breaks >= 2 && prose(&end) {
                paragraphs.push(end);
            }
        }
        paragraphs = union(&paragraphs, &edges);
        let sentences: Vec<usize> = sentence_bytes(text, rule)
            .iter()
            .skip(1)
            .map(|&(s, _)| line_start_in_run(text, len - text[s..].trim_start().len()))
            .filter(|&p| p < len && !text[..p].trim().is_empty())
            .filter(prose)
            .collect();
        let mut levels = Vec::with_capacity(5);
        paragraphs.push(len);
        levels.push(paragraphs);
        levels.push(union(&levels[0], &sentences));
        lines.sort_unstable();
        levels.push(union(&levels[1], &lines));
        levels.push(union(&levels[2], &words));
        let (units, unit_bytes) = match length {
            Length::Tokens(e) => {
                let units = length.boundaries(text);
                let safe: Vec<usize> = units
                    .iter()
                    .copied()
                    .filter(|&u| u > 0 && text.is_char_boundary(u) && !starts_blank(&text[u..]))
                    .filter(free)
                    .collect();
                levels.push(union(&levels[3], &safe));
                (units, longest_token(e))
            }
            // Not a unit of this strategy (its constructor refuses it): counted as characters
            // are, by the true count at every char boundary.
            Length::Characters | Length::Model(_) => (Vec::new(), 4),
        };
        Plan {
            text,
            length,
            units,
            levels,
            unit_bytes,
            fences: fences.into_iter().map(|(r, ())| r).collect(),
            code,
            code_lines: lines,
            grain,
        }
    }

    /// The chunks of the text at `size` and `overlap` units (the loop of [`Recursive`]'s rule).
    pub(crate) fn split(&self, size: usize, overlap: usize) -> Vec<Piece> {
        let text = self.text;
        if text.is_empty() {
            return Vec::new();
        }
        let mut counter = Counter::new(self.length);
        let finest = match self.grain {
            Grain::Recursive => Level::Word,
            Grain::Sentences => Level::Line,
        };
        let mut pieces = Vec::new();
        let mut a = 0;
        let (mut end, mut level) = self.cut_or_fallback(&mut counter, 0, size);
        loop {
            pieces.push(Piece {
                code_info: self.code_info(&(a..end)),
                ..Piece::slice(a..end, self.reason(level, end))
            });
            if end == text.len() {
                return pieces;
            }
            // The cut from `end` itself, without overlap: an overlap may not cut inside a word
            // unless that one does.
            let plain = self.cut_or_fallback(&mut counter, end, size);
            let mut next = (end, plain);
            for b in self.overlap_starts(&mut counter, level, a, end, overlap) {
                if b == end {
                    break;
                }
                if let Some(found) = self.cut(&mut counter, b, end, size, plain.1.max(finest)) {
                    next = (b, found);
                    break;
                }
            }
            let (b, (e, l)) = next;
            (a, end, level) = (b, e, l);
        }
    }

    /// The info string of the code block `bytes` starts or ends inside, if any.
    fn code_info(&self, bytes: &Range<usize>) -> Option<String> {
        [bytes.start, bytes.end].into_iter().find_map(|p| {
            let i = self.code.partition_point(|(r, _)| r.start <= p);
            let (r, info) = self.code.get(i.checked_sub(1)?)?;
            (p < r.end).then(|| info.clone())
        })
    }

    /// True when a cut may fall at `p` (not inside a fence line).
    fn free(&self, p: usize) -> bool {
        let i = self.fences.partition_point(|r| r.start <= p);
        i == 0 || p >= self.fences[i - 1].end
    }

    /// The levels searched, coarsest first.
    fn searched(&self) -> &'static [Level] {
        match self.grain {
            Grain::Recursive => &[
                Level::Paragraph,
                Level::Sentence,
                Level::Line,
                Level::Word,
                Level::Unit,
                Level::Character,
            ],
            Grain::Sentences => &[Level::Line],
        }
    }

    fn reason(&self, level: Level, end: usize) -> Boundary {
        if end == self.text.len() {
            return Boundary::EndOfText;
        }
        if self.grain == Grain::Sentences {
            let line = self.code_lines.binary_search(&end).is_ok();
            return if line {
                Boundary::CodeBlockPart
            } else {
                Boundary::Sentence
            };
        }
        match (level, self.length) {
            (Level::Paragraph, _) => Boundary::Paragraph,
            (Level::Sentence, _) => Boundary::Sentence,
            (Level::Line, _) => Boundary::CodeBlockPart,
            (Level::Word, _) => Boundary::Word,
            (Level::Unit, Length::Tokens(_)) => Boundary::SizeLimit,
            (Level::Unit, Length::Characters | Length::Model(_)) | (Level::Character, _) => {
                Boundary::Character
            }
        }
    }

    /// Cut points of `level` in `(lo, hi]`, ascending.
    fn candidates(&self, level: Level, lo: usize, hi: usize) -> Cow<'_, [usize]> {
        match self.levels.get(level as usize) {
            Some(list) if level != Level::Character => {
                let from = list.partition_point(|&c| c <= lo);
                let to = list.partition_point(|&c| c <= hi);
                Cow::Borrowed(&list[from..to.max(from)])
            }
            _ => {
                // Characters: every char boundary at the character level; at the unit level
                // only those before a character that is not whitespace.
                let hi = hi.min(self.text.len());
                let t = self.text;
                let unit = level == Level::Unit;
                Cow::Owned(
                    (lo.saturating_add(1)..=hi)
                        .filter(|&p| t.is_char_boundary(p) && self.free(p))
                        .filter(|&p| !unit || p == t.len() || !starts_blank(&t[p..]))
                        .collect(),
                )
            }
        }
    }

    /// Units starting in `[a, e)` (see "Proxy" on [`Recursive`]).
    fn proxy(&self, a: usize, e: usize) -> usize {
        match self.length {
            Length::Tokens(_) => {
                let before = |x: usize| self.units.partition_point(|&o| o < x);
                before(e) - before(a)
            }
            Length::Characters | Length::Model(_) => self.text[a..e].chars().count(),
        }
    }

    /// Bytes that `n` units can span at most.
    fn reach(&self, n: usize) -> usize {
        n.saturating_mul(self.unit_bytes)
    }

    /// The chunk starting at `a` with its end after `lo`, at a level no finer than `finest`:
    /// `(end, level)`, or `None` when no such level fits.
    fn cut(
        &self,
        counter: &mut Counter<'t>,
        a: usize,
        lo: usize,
        size: usize,
        finest: Level,
    ) -> Option<(usize, Level)> {
        let hi = a.saturating_add(self.reach(size));
        let mut levels = self.searched().iter().take_while(|&&l| l <= finest);
        // `c(T[a..e]) ≤ size` of every end `e` counted so far: a cut point can be a candidate
        // at several levels (the text's end is one at every level), and its slice is counted
        // once. Without it, a start inside a long run of one piece (a run of line breaks) paid
        // one count of the whole slice per level.
        let mut counted: Vec<(usize, bool)> = Vec::new();
        levels.find_map(|&level| {
            let w = self.candidates(level, lo, hi);
            let k = w.partition_point(|&e| self.proxy(a, e) <= size);
            let text = self.text;
            let mut fits = |i: usize| {
                let Some(&e) = i.checked_sub(1).and_then(|i| w.get(i)) else {
                    return true;
                };
                if let Some(&(_, f)) = counted.iter().find(|&&(x, _)| x == e) {
                    return f;
                }
                let f = counter.fits(&text[a..e], size);
                counted.push((e, f));
                f
            };
            let j = edge(k, w.len(), &mut fits);
            (j > 0).then(|| (w[j - 1], level))
        })
    }

    /// [`Plan::cut`] from `a` at every level, or, when nothing fits, the single character at
    /// `a` ([`Grain::Recursive`]) or the whole sentence or line of code ([`Grain::Sentences`]).
    fn cut_or_fallback(&self, counter: &mut Counter<'t>, a: usize, size: usize) -> (usize, Level) {
        self.cut(counter, a, a, size, Level::Character)
            .unwrap_or_else(|| match self.grain {
                Grain::Recursive => {
                    let c = self.text[a..].chars().next().map_or(0, char::len_utf8);
                    (a + c, Level::Character)
                }
                Grain::Sentences => {
                    let next = self.candidates(Level::Line, a, self.text.len());
                    (
                        next.first().copied().unwrap_or(self.text.len()),
                        Level::Line,
                    )
                }
            })
    }

    /// Where the chunk after `[a, e)` (cut at `level`) may start, preferred first: the overlap
    /// start, then each later cut point, then `e`.
    fn overlap_starts(
        &self,
        counter: &mut Counter<'t>,
        level: Level,
        a: usize,
        e: usize,
        overlap: usize,
    ) -> Vec<usize> {
        if overlap == 0 {
            return vec![e];
        }
        let lo = a.max(e.saturating_sub(self.reach(overlap).saturating_add(1)));
        let v = self.candidates(level, lo, e - 1);
        let n = v.len();
        // The i-th latest cut point, i ≥ 1.
        let q = |i: usize| v[n - i];
        let k = n - v.partition_point(|&x| self.proxy(x, e) > overlap);
        let text = self.text;
        let mut fits = |i: usize| i == 0 || counter.fits(&text[q(i)..e], overlap);
        let j = edge(k, n, &mut fits);
        (1..=j).rev().map(q).chain(std::iter::once(e)).collect()
    }
}

/// The walk of [`Recursive`]'s rule: from `k` (of `n` candidates; 0 = none, always fitting),
/// up while the next fits if `k` fits, else down to the first that fits.
fn edge(k: usize, n: usize, fits: &mut impl FnMut(usize) -> bool) -> usize {
    let mut j = k;
    if fits(j) {
        while j < n && fits(j + 1) {
            j += 1;
        }
    } else {
        while j > 0 && !fits(j) {
            j -= 1;
        }
    }
    j
}

/// Cut points of the whitespace runs that have text before them and non-whitespace after them
/// (the run's end, or, when it holds a line break, the start of its last line: indentation
/// stays with its line), with the number of line breaks in each (`\r\n` counts once).
fn whitespace_runs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // (line breaks, the end of the last one) of the current run.
    let mut run: Option<(usize, Option<usize>)> = None;
    let mut seen_text = false;
    let mut prev = '\0';
    for (i, c) in text.char_indices() {
        if !c.is_whitespace() {
            out.extend(run.take().map(|(breaks, line)| (line.unwrap_or(i), breaks)));
            seen_text = true;
        } else if seen_text {
            let is_break = matches!(
                c,
                '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            );
            let r = run.get_or_insert((0, None));
            r.0 += usize::from(is_break && !(c == '\n' && prev == '\r'));
            if is_break {
                r.1 = Some(i + c.len_utf8());
            }
        }
        prev = c;
    }
    out
}

/// `p` (the first character after a run of whitespace), or the start of the run's last line
/// when the run holds a line break: a sentence's first line keeps its indentation.
fn line_start_in_run(text: &str, p: usize) -> usize {
    let run = &text[..p];
    let ws = run.len() - run.trim_end().len();
    match run[p - ws..].rfind([
        '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
    ]) {
        Some(k) => {
            let c = run[p - ws + k..].chars().next().map_or(1, char::len_utf8);
            p - ws + k + c
        }
        None => p,
    }
}

/// True when the line `s` starts with holds only whitespace.
fn blank_line(s: &str) -> bool {
    s.split(['\n', '\r'])
        .next()
        .is_none_or(|l| l.trim().is_empty())
}

/// True when `s` starts with whitespace.
fn starts_blank(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_whitespace)
}

/// Sorted union of two ascending lists.
fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let x = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x <= y => {
                i += 1;
                j += usize::from(x == y);
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => break,
        };
        out.push(x);
    }
    out
}

/// The longest token of `e`, in bytes.
fn longest_token(e: Encoding) -> usize {
    static CL100K: OnceLock<usize> = OnceLock::new();
    static O200K: OnceLock<usize> = OnceLock::new();
    let cell = match e {
        Encoding::Cl100kBase => &CL100K,
        Encoding::O200kBase => &O200K,
    };
    *cell.get_or_init(|| {
        let bpe = e.tokenizer();
        (0..bpe.vocab_size() as u32)
            .filter_map(|id| bpe.token_bytes(id))
            .map(<[u8]>::len)
            .max()
            .unwrap_or(1)
    })
}

/// True counts with a cap: stops once the count is past it.
enum Counter<'t> {
    Characters,
    Tokens {
        /// Boxed: the counter carries its merge buffers, and the other variant is empty.
        counter: Box<SliceCounter<'t>>,
        /// The longest token, in bytes.
        longest: usize,
    },
}

impl<'t> Counter<'t> {
    fn new(length: Length) -> Self {
        match length {
            Length::Characters | Length::Model(_) => Counter::Characters,
            Length::Tokens(e) => Counter::Tokens {
                counter: Box::new(e.tokenizer().counter()),
                longest: longest_token(e),
            },
        }
    }

    /// `c(s) ≤ cap`, with the same result as [`crate::tokenizer::TokenCounter::count`].
    fn fits(&mut self, s: &'t str, cap: usize) -> bool {
        match self {
            Counter::Characters => s.chars().nth(cap).is_none(),
            Counter::Tokens { counter, longest } => {
                s.len() <= cap.saturating_mul(*longest) && counter.count_at_most(s, cap).is_some()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, SizeUnit};

    use crate::strategy::test_settings as settings;

    /// `(text, reason)` of each chunk.
    fn chunks(text: &str, size: usize, overlap: usize, unit: SizeUnit) -> Vec<(String, Boundary)> {
        let r = Recursive::new(&settings(size, overlap, unit)).expect("valid");
        r.split(text)
            .expect("ok")
            .into_iter()
            .map(|p| (text[p.bytes].to_string(), p.reason))
            .collect()
    }

    fn texts(text: &str, size: usize, overlap: usize, unit: SizeUnit) -> Vec<String> {
        chunks(text, size, overlap, unit)
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn paragraphs_first_with_the_separator_ending_the_chunk_it_closes() {
        // E11-A: the leading blank line stays in the first chunk; no chunk is empty.
        let text = "\n\nHello there friend\n\nSecond part";
        assert_eq!(
            chunks(text, 5, 0, SizeUnit::Tokens),
            [
                (
                    "\n\nHello there friend\n\n".to_string(),
                    Boundary::Paragraph
                ),
                ("Second part".to_string(), Boundary::EndOfText),
            ]
        );
        // Without room for the separator, the paragraph is cut at a word: the next chunk
        // still starts with a word, never with whitespace.
        assert_eq!(
            texts(text, 4, 0, SizeUnit::Tokens),
            ["\n\nHello there ", "friend\n\nSecond part"]
        );
        // CRLF blank lines are paragraphs; a single line break is not.
        let text = "alpha beta\r\n\r\ngamma delta\nepsilon";
        assert_eq!(
            texts(text, 6, 0, SizeUnit::Tokens),
            ["alpha beta\r\n\r\n", "gamma delta\nepsilon"]
        );
        assert_eq!(texts("", 4, 0, SizeUnit::Tokens), Vec::<String>::new());
        assert_eq!(texts(" \n\n ", 4, 0, SizeUnit::Tokens), [" \n\n "]);
    }

    #[test]
    fn field_case_langchain_21665_separators_end_the_chunk_they_close() {
        // ".\n\n" is one cl100k_base token: each paragraph with its separator is 3 tokens.
        let text = "Para A.\n\nPara B.\n\nPara C.";
        assert_eq!(
            chunks(text, 3, 0, SizeUnit::Tokens),
            [
                ("Para A.\n\n".to_string(), Boundary::Paragraph),
                ("Para B.\n\n".to_string(), Boundary::Paragraph),
                ("Para C.".to_string(), Boundary::EndOfText),
            ]
        );
    }

    /// A heading, an intro line and one fenced block of 40 short lines (text-splitter issue
    /// 798).
    fn fenced_document() -> String {
        let lines: String = (0..40).map(|i| format!("let x{i} = {i};\n")).collect();
        format!("# Setup\n\nInstall it like this:\n\n```rust\n{lines}```\n\nDone.\n")
    }

    #[test]
    fn field_case_text_splitter_798_a_fence_never_stands_alone() {
        let text = fenced_document();
        let r = Recursive::new(&settings(50, 0, SizeUnit::Tokens)).expect("valid");
        let pieces = r.split(&text).expect("ok");
        let out = run(&r, &text, Encoding::Cl100kBase).expect("ok");
        assert!(out
            .chunks
            .iter()
            .all(|c| c.tokens <= 50 && !c.flags.oversize));
        let texts: Vec<&str> = pieces.iter().map(|p| &text[p.bytes.clone()]).collect();
        // The intro ends before the fence; the first piece of code opens with it and the last
        // closes with it; every cut inside the block falls between two lines of code.
        assert_eq!(texts[0], "# Setup\n\nInstall it like this:\n\n");
        assert!(
            texts[1].starts_with("```rust\nlet x0 = 0;\n"),
            "{:?}",
            texts[1]
        );
        let code: Vec<&Piece> = pieces[1..].iter().collect();
        assert_eq!(code.len(), 6, "{texts:#?}");
        for (i, p) in code.iter().enumerate() {
            let t = &text[p.bytes.clone()];
            assert!(t.starts_with("let x") || i == 0, "{t:?}");
            assert_eq!(p.code_info.as_deref(), Some("rust"), "{t:?}");
            if i + 1 < code.len() {
                assert_eq!(p.reason, Boundary::CodeBlockPart, "{t:?}");
                assert!(t.ends_with(";\n"), "{t:?}");
            }
        }
        // The closing fence stays with the last line of code (the paragraph after it fits).
        assert!(texts[6].ends_with("let x39 = 39;\n```\n\nDone.\n"));
        // A block that fits stays whole, with its fences.
        let r = Recursive::new(&settings(400, 0, SizeUnit::Tokens)).expect("valid");
        let whole = r.split(&text).expect("ok");
        assert_eq!(whole.len(), 1);
        let small = "Intro.\n\n```\na\nb\n```\n\nAfter text here.";
        assert_eq!(
            texts_of(small, 9),
            ["Intro.\n\n", "```\na\nb\n```\n\n", "After text here."]
        );
    }

    fn texts_of(text: &str, size: usize) -> Vec<String> {
        texts(text, size, 0, SizeUnit::Tokens)
    }

    #[test]
    fn e06_a_paragraph_cut_overlaps_by_whole_paragraphs_only() {
        let text = "one two three four five six seven eight\n\nnine ten";
        assert_eq!(
            chunks(text, 9, 3, SizeUnit::Tokens),
            [
                (
                    "one two three four five six seven eight\n\n".to_string(),
                    Boundary::Paragraph
                ),
                ("nine ten".to_string(), Boundary::EndOfText),
            ]
        );
    }

    #[test]
    fn e07_word_overlap_counts_the_separators() {
        let text = "red  blue  green  gold  pink  grey";
        assert_eq!(
            chunks(text, 4, 2, SizeUnit::Tokens),
            [
                ("red  blue  ".to_string(), Boundary::Word),
                ("blue  green  ".to_string(), Boundary::Word),
                ("green  gold  ".to_string(), Boundary::Word),
                ("gold  pink  ".to_string(), Boundary::Word),
                ("pink  grey".to_string(), Boundary::EndOfText),
            ]
        );
    }

    #[test]
    fn sentences_before_words_and_characters_as_a_unit() {
        let text = "Cats sleep a lot. Dogs bark at night. And here is more.";
        assert_eq!(
            chunks(text, 12, 0, SizeUnit::Tokens),
            [
                (
                    "Cats sleep a lot. Dogs bark at night. ".to_string(),
                    Boundary::Sentence
                ),
                ("And here is more.".to_string(), Boundary::EndOfText),
            ]
        );
        assert_eq!(
            texts(text, 20, 0, SizeUnit::Characters),
            [
                "Cats sleep a lot. ",
                "Dogs bark at night. ",
                "And here is more."
            ]
        );
        // A word longer than the size is cut between characters.
        assert_eq!(
            chunks("abcdefgh ij", 3, 0, SizeUnit::Characters),
            [
                ("abc".to_string(), Boundary::Character),
                ("def".to_string(), Boundary::Character),
                ("gh ".to_string(), Boundary::Word),
                ("ij".to_string(), Boundary::EndOfText),
            ]
        );
    }

    #[test]
    fn e16_cjk_is_cut_at_character_safe_token_boundaries() {
        let text = "猫".repeat(200);
        let r = Recursive::new(&settings(50, 0, SizeUnit::Tokens)).expect("valid");
        let out = run(&r, &text, Encoding::Cl100kBase).expect("ok");
        let lens: Vec<_> = out
            .chunks
            .iter()
            .map(|c| c.text(&text).chars().count())
            .collect();
        assert_eq!(lens, [[16; 12].as_slice(), &[8]].concat());
        assert!(out.chunks[..12].iter().all(|c| c.tokens == 48));
        assert!(out
            .chunks
            .iter()
            .all(|c| c.text.is_none() && !c.flags.oversize));
        assert_eq!(out.chunks[0].reason, Boundary::SizeLimit);
        // One character of 3 tokens under a size of 2: the character alone, flagged oversize.
        let r = Recursive::new(&settings(2, 1, SizeUnit::Tokens)).expect("valid");
        let out = run(&r, "猫猫", Encoding::Cl100kBase).expect("ok");
        let got: Vec<_> = out
            .chunks
            .iter()
            .map(|c| (c.text("猫猫").into_owned(), c.flags.oversize))
            .collect();
        assert_eq!(got, [("猫".to_string(), true), ("猫".to_string(), true)]);
        assert_eq!(out.chunks[1].bytes, 3..6);
    }

    #[test]
    fn e12_a_long_word_with_overlap_advances_within_the_size() {
        let text = format!("Prefix {} suffix", "x".repeat(300));
        let r = Recursive::new(&settings(10, 3, SizeUnit::Tokens)).expect("valid");
        let out = run(&r, &text, Encoding::Cl100kBase).expect("ok");
        assert!(out
            .chunks
            .iter()
            .all(|c| c.tokens <= 10 && !c.flags.oversize));
        let spans: Vec<_> = out
            .chunks
            .iter()
            .map(|c| (c.bytes.start, c.bytes.end))
            .collect();
        assert!(crate::reconstruct::check_reconstruction(text.len(), &spans).is_ok());
        assert_eq!(out.chunks[0].text(&text), "Prefix ");
        // Token-level chunks step back 3 tokens: measured from the document's tokens.
        let ranges: Vec<_> = out
            .chunks
            .iter()
            .filter_map(|c| c.token_range.clone())
            .collect();
        assert!(ranges
            .windows(2)
            .skip(1)
            .any(|w| w[0].end - w[1].start == 3));
    }

    #[test]
    fn overlap_at_size_is_clamped_and_size_one_terminates() {
        let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        let r = Recursive::new(&settings(3, 3, SizeUnit::Tokens)).expect("valid");
        assert!(r.params.overlap_clamped());
        let out = run(&r, text, Encoding::Cl100kBase).expect("ok");
        assert!(out.chunks.iter().all(|c| c.tokens <= 3));
        let got: Vec<_> = out.chunks.iter().map(|c| c.text(text)).collect();
        // Each chunk after the first steps back one whole word with its space (2 tokens);
        // "zeta " is 3 tokens, so the chunk after "delta epsilon " drops the overlap rather
        // than cut inside it.
        assert_eq!(
            got,
            [
                "alpha beta ",
                "beta gamma ",
                "gamma delta ",
                "delta epsilon ",
                "zeta ",
                "eta theta ",
                "theta iota kappa"
            ]
        );
        let r = Recursive::new(&settings(1, 0, SizeUnit::Characters)).expect("valid");
        assert_eq!(r.split("ab c").expect("ok").len(), 4);
    }

    #[test]
    fn the_slice_counter_counts_exactly_and_stops_past_the_cap() {
        let bpe = Encoding::Cl100kBase.tokenizer();
        let text = "Hello there, friend!\n\n猫猫 1234567   x";
        let mut counter = bpe.counter();
        for (end, _) in text.char_indices().skip(1) {
            let s = &text[..end];
            let n = bpe.count(s);
            assert_eq!(counter.count_at_most(s, n), Some(n), "{s:?}");
            assert_eq!(counter.count_at_most(s, n + 5), Some(n), "{s:?}");
            assert_eq!(counter.count_at_most(s, n - 1), None, "{s:?}");
        }
        assert_eq!(counter.count_at_most("", 0), Some(0));
    }
}
