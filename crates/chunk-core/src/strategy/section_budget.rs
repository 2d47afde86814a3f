//! Token budget with structural bias (the product's own; SPEC §5, the seed guide's rule).
//!
//! The rule, in tokens of the encoding only:
//! 1. Pre-split the document into units: its markdown sections
//!    ([`crate::segment::markdown::sections`]), then the blank-line blocks inside each section
//!    ([`crate::segment::markdown::Section::blocks`]; a code block is never split at its own blank
//!    lines). Units tile the document; a unit never spans a heading.
//! 2. Append units to the current chunk until the next one would make it exceed `chunk_size`,
//!    then start a new chunk ([`pack`]).
//! 3. A unit larger than `chunk_size` on its own is cut at token boundaries that are also char
//!    boundaries (never U+FFFD, edge case E16), into token windows ([`token_windows`]).
//!
//! **The joiner costs tokens.** Chunks are exact slices of the document, so the joiner between
//! two units is the document's own whitespace between them (the blank lines after a paragraph),
//! and it is inside the slice. Every budget check is the true token count of the whole slice,
//! joiner included, as the page will measure it — never a sum of the units' own counts, except
//! where BPE is provably additive ([`Units`]).
//!
//! **Overlap** (`chunk_overlap`, clamped below `chunk_size` by [`ChunkParams`]): after a chunk of
//! whole units, the next chunk starts with the longest run of whole trailing units of it whose
//! slice holds at most `chunk_overlap` tokens (the run grows one unit at a time from the end and
//! stops at the first that exceeds), shortened from its front until the next new unit fits with
//! it; if nothing fits, there is no overlap. The first unit of a chunk is never repeated, so
//! every chunk starts and ends after the previous one. Inside a cut unit, consecutive windows
//! share at most `chunk_overlap` tokens, the start rounded up to a char boundary
//! ([`token_windows`]). A window
//! never overlaps the chunks of whole units around it.
//!
//! **Heading path** of a chunk ([`Piece::heading_path`]): the headings every section it touches
//! is under (the longest common prefix of their paths).

use super::{Boundary, Chunker, Piece, Settings, SizeUnit, StrategyError, StrategyId};
use crate::params::ChunkParams;
use crate::segment::markdown::{sections, Section};
use crate::strategy::length::Length;
use crate::tokenizer::Encoding;
use crate::tokenizer::TokenCounter;
use std::ops::Range;

/// Token-budget section packing: `chunk_size` tokens of [`SectionBudget::encoding`] per chunk,
/// whole sections and paragraphs first, token windows for a unit that is too large alone.
/// Sizes in tokens only ([`StrategyId::supports`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionBudget {
    /// Size and overlap in tokens (an overlap ≥ size is clamped to `size − 1` and flagged).
    pub params: ChunkParams,
    /// The tokenizer whose tokens the budget counts.
    pub encoding: Encoding,
}

impl SectionBudget {
    /// Section packing with `settings`.
    ///
    /// # Errors
    /// [`StrategyError::Params`] when `chunk_size == 0`;
    /// [`StrategyError::UnitUnsupported`] when the unit is characters.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        if settings.unit != SizeUnit::Tokens {
            return Err(StrategyError::UnitUnsupported {
                strategy: StrategyId::SectionBudget,
                unit: settings.unit,
            });
        }
        Ok(SectionBudget {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            encoding: settings.encoding,
        })
    }
}

impl Chunker for SectionBudget {
    fn overlap_clamped(&self) -> bool {
        self.params.overlap_clamped()
    }

    fn id(&self) -> StrategyId {
        StrategyId::SectionBudget
    }

    fn budget(&self) -> (usize, Length) {
        (self.params.chunk_size(), Length::Tokens(self.encoding))
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let sections = sections(text);
        let length = Length::Tokens(self.encoding);
        let (size, overlap) = (self.params.chunk_size(), self.params.chunk_overlap());
        // Units: every block of every section (a section's first block starts at its heading).
        let mut bounds = Vec::new();
        let mut section_of = Vec::new();
        for (k, s) in sections.iter().enumerate() {
            bounds.extend_from_slice(&s.blocks);
            section_of.extend(std::iter::repeat_n(k, s.blocks.len()));
        }
        bounds.push(text.len());
        let units = Units::new(text, length, bounds);
        let ends = Ends::new(&sections, text.len());
        let mut out = Vec::new();
        let groups = pack(
            units.len(),
            |i, j| units.count(i, j) <= size,
            |i, j| units.count(i, j) <= overlap,
        );
        for g in groups {
            match g {
                Group::Packed(r) => {
                    let bytes = units.bytes(r.clone());
                    out.push(Piece {
                        reason: ends.reason(bytes.end, Boundary::SizeLimit),
                        heading_path: common_path(
                            sections[section_of[r.start]..=section_of[r.end - 1]]
                                .iter()
                                .map(|s| &s.path[..]),
                        ),
                        ..Piece::slice(bytes, Boundary::SizeLimit)
                    });
                }
                Group::Oversize(k) => {
                    let unit = units.bytes(k..k + 1);
                    let path = &sections[section_of[k]].path;
                    for w in token_windows(text, unit, length, size, overlap) {
                        out.push(Piece {
                            reason: ends.reason(w.end, Boundary::SizeLimit),
                            heading_path: path.clone(),
                            ..Piece::slice(w, Boundary::SizeLimit)
                        });
                    }
                }
            }
        }
        Ok(out)
    }
}

/// What [`pack`] makes of a run of units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Group {
    /// Units `[start, end)` as one chunk (it fits the budget).
    Packed(Range<usize>),
    /// Unit `k`, which does not fit the budget on its own (the caller splits it further).
    Oversize(usize),
}

/// Greedy packing of `n` consecutive units, the seed guide's rule (see the module comment).
///
/// `fits(i, j)`: the slice of units `[i, j)` is within the budget. `within_overlap(i, j)`: it is
/// within the overlap (always false when there is no overlap). A chunk of whole units ends
/// before the first unit that does not fit; a unit that does not fit on its own at the start of
/// a chunk is [`Group::Oversize`]; the next chunk after `Packed(i..j)` starts at the smallest
/// `k` in `(i, j)` such that every run `[k', j)` with `k ≤ k' < j` is within the overlap and
/// `[k, j + 1)` fits, else at `j`.
pub(super) fn pack(
    n: usize,
    mut fits: impl FnMut(usize, usize) -> bool,
    mut within_overlap: impl FnMut(usize, usize) -> bool,
) -> Vec<Group> {
    let mut out = Vec::new();
    let mut start = 0;
    // Units known to fit from `start` (after an overlap, the repeated units and one new one).
    let mut known = 0;
    while start < n {
        if known == 0 && !fits(start, start + 1) {
            out.push(Group::Oversize(start));
            start += 1;
            continue;
        }
        let mut end = start + known.max(1);
        while end < n && fits(start, end + 1) {
            end += 1;
        }
        out.push(Group::Packed(start..end));
        if end == n {
            break;
        }
        // The longest trailing run within the overlap, never the chunk's first unit.
        let mut first = end;
        while first > start + 1 && within_overlap(first - 1, end) {
            first -= 1;
        }
        match (first..end).find(|&k| fits(k, end + 1)) {
            Some(k) => {
                known = end + 1 - k;
                start = k;
            }
            None => {
                known = 0;
                start = end;
            }
        }
    }
    out
}

/// Token windows over the byte range `unit` of `text` (one unit too large for the budget).
///
/// The cut points are the unit's own token boundaries (encoding the unit alone) that are also
/// char boundaries and whose moved place (below) is not a closing mark ([`crate::segment::CLOSING`]) right
/// after text. Each has two places: *raw*, the boundary itself, and *moved*, forward over
/// the whitespace after it (BPE tokens carry the space before a word; moved, the separator ends
/// the window it closes and the next window starts with a word). Points whose moved places
/// coincide are one, the first token's. Token positions below are those of the boundary.
///
/// A window from a start `s` (a place of cut point `a`) ends at the furthest cut point at most
/// `size` tokens of the unit's encoding after `a` whose moved place gives a window whose true
/// count (re-encoded) is at most `size`; when none does, at the furthest such raw place after
/// `s` (the whitespace then starts the next window: it did not fit in this one); when neither
/// fits (one character of more than `size` tokens), at the next cut point (its raw place, or its
/// moved place when the window starts at the raw one), and the chunk is oversize. The next window starts at the moved place of the first cut point
/// at most `overlap` tokens before the previous end, so that windows share at most `overlap`
/// tokens, if that point is after the previous window's first and before its last and the
/// window from there reaches past the previous end; else it starts at the previous end. Every
/// window advances; the windows tile the unit.
pub(super) fn token_windows(
    text: &str,
    unit: Range<usize>,
    length: Length,
    size: usize,
    overlap: usize,
) -> Vec<Range<usize>> {
    let slice = &text[unit.clone()];
    if slice.is_empty() {
        return Vec::new();
    }
    let tokens = length.boundaries(slice);
    // Per cut point: its token index, raw byte and moved byte.
    let (mut cuts, mut raw, mut moved) = (Vec::new(), Vec::new(), Vec::new());
    // The first non-whitespace byte at or after the boundaries seen so far: boundaries ascend,
    // so each byte of a run of whitespace is scanned once (linear on long runs).
    let mut next_text = 0;
    for (t, &b) in tokens.iter().enumerate() {
        if !slice.is_char_boundary(b) {
            continue;
        }
        let m = if t == 0 {
            b
        } else {
            if next_text < b {
                next_text = slice.len() - slice[b..].trim_start().len();
            }
            next_text
        };
        // Not before a mark that closes the text before it ("word" | ". Next"); between two
        // such marks is a place (a run of dots has to be cut somewhere).
        let before = slice[..m].chars().next_back();
        let closes = slice[m..].starts_with(crate::segment::CLOSING)
            && before.is_some_and(|c| !c.is_whitespace() && !crate::segment::CLOSING.contains(&c));
        if t > 0 && m < slice.len() && closes {
            continue;
        }
        if moved.last().is_none_or(|&l| l < m) {
            cuts.push(t);
            raw.push(b);
            moved.push(m);
        }
    }
    let last = cuts.len() - 1;
    // The window from place `st` of cut `a`: its end cut and end place.
    let window_end = |a: usize, st: usize| -> (usize, usize) {
        if a == last {
            // From the raw place of the last cut: the whitespace that ends the unit.
            return (last, moved[last]);
        }
        let limit = cuts[a].saturating_add(size); // a token index
        let top = (cuts.partition_point(|&t| t <= limit) - 1).max(a + 1);
        let fits = |e: usize| e > st && length.count(&slice[st..e]) <= size;
        (a + 1..=top)
            .rev()
            .find(|&b| fits(moved[b]))
            .map(|b| (b, moved[b]))
            .or_else(|| {
                (a + 1..=top)
                    .rev()
                    .find(|&b| fits(raw[b]))
                    .map(|b| (b, raw[b]))
            })
            .unwrap_or((
                a + 1,
                if raw[a + 1] > st {
                    raw[a + 1]
                } else {
                    moved[a + 1]
                },
            ))
    };
    let mut out = Vec::new();
    let (mut a, mut st) = (0, 0);
    let (mut b, mut end) = window_end(a, st);
    loop {
        out.push(unit.start + st..unit.start + end);
        if b == last && end == slice.len() {
            return out;
        }
        let back = cuts[b].saturating_sub(overlap);
        let candidate = cuts.partition_point(|&t| t < back);
        let next = if overlap > 0 && candidate > a && candidate < b && moved[candidate] < end {
            let (e, e_at) = window_end(candidate, moved[candidate]);
            (e_at > end).then_some((candidate, moved[candidate], e, e_at))
        } else {
            None
        };
        // Else from the previous end (a raw end: the window starts with cut `b`'s whitespace).
        (a, st, b, end) = next.unwrap_or_else(|| {
            let (e, e_at) = window_end(b, end);
            (b, end, e, e_at)
        });
    }
}

/// Exact counts of runs of consecutive units, re-using each unit's own count where BPE is
/// additive.
///
/// Additivity: `count(x + y) == count(x) + count(y)` when `x` ends with a line ending (`\n` or
/// `\r`) and `y` starts with a character that is neither whitespace (Unicode `White_Space`)
/// nor `/`. Both encodings' split patterns then end a piece exactly at the seam in `x + y`, in
/// `x` alone and in `y` alone: no letter, digit or contraction piece contains a line ending;
/// the punctuation piece takes line endings after it but (cl100k) nothing else or (o200k) only
/// more line endings and `/`; a whitespace piece that holds a line ending ends at its last one,
/// or at the end of the text (cl100k's `\s++$`), which is the same byte here. BPE merges only
/// inside pieces. (A unit test checks this on the corpus.) Characters are always additive.
///
/// So the units are grouped at such clean seams; a run's count is the sum of the counts of the
/// groups it covers, with its partial first and last groups counted directly.
pub(super) struct Units<'t> {
    text: &'t str,
    length: Length,
    /// Unit `k` is `bounds[k]..bounds[k + 1]`.
    bounds: Vec<usize>,
    /// Count of each unit alone.
    counts: Vec<usize>,
    /// The group of each unit.
    group_of: Vec<usize>,
    /// First unit of each group, then `n`.
    group_start: Vec<usize>,
    /// `sums[g]`: total count of groups `[0, g)`.
    sums: Vec<usize>,
}

impl<'t> Units<'t> {
    /// Units of `text` at `bounds` (strictly increasing, first 0 or any start, last the end of
    /// the last unit), counted with `length`.
    pub(super) fn new(text: &'t str, length: Length, bounds: Vec<usize>) -> Self {
        let n = bounds.len().saturating_sub(1);
        let counts: Vec<usize> = (0..n)
            .map(|k| length.count(&text[bounds[k]..bounds[k + 1]]))
            .collect();
        let mut group_of = Vec::with_capacity(n);
        let mut group_start = Vec::new();
        for (k, &start) in bounds[..n].iter().enumerate() {
            if k == 0 || additive_at(text, length, start) {
                group_start.push(k);
            }
            group_of.push(group_start.len() - 1);
        }
        group_start.push(n);
        let mut sums = vec![0];
        for g in 0..group_start.len() - 1 {
            let (a, b) = (group_start[g], group_start[g + 1]);
            let c = if b == a + 1 {
                counts[a]
            } else {
                length.count(&text[bounds[a]..bounds[b]])
            };
            sums.push(sums[g] + c);
        }
        Units {
            text,
            length,
            bounds,
            counts,
            group_of,
            group_start,
            sums,
        }
    }

    /// Number of units.
    pub(super) fn len(&self) -> usize {
        self.counts.len()
    }

    /// Byte range of units `[i, j)`.
    pub(super) fn bytes(&self, r: Range<usize>) -> Range<usize> {
        self.bounds[r.start]..self.bounds[r.end]
    }

    /// The text at `bytes` (a range from [`Units::bytes`]).
    pub(super) fn slice(&self, bytes: Range<usize>) -> &'t str {
        &self.text[bytes]
    }

    /// The true count of units `[i, j)` (`i < j ≤ len`): exactly `length.count` of the slice.
    pub(super) fn count(&self, i: usize, j: usize) -> usize {
        let (gi, gj) = (self.group_of[i], self.group_of[j - 1]);
        if gi == gj {
            return self.part(gi, i, j);
        }
        self.part(gi, i, self.group_start[gi + 1])
            + (self.sums[gj] - self.sums[gi + 1])
            + self.part(gj, self.group_start[gj], j)
    }

    /// Count of units `[i, j)` inside group `g`.
    fn part(&self, g: usize, i: usize, j: usize) -> usize {
        if i == self.group_start[g] && j == self.group_start[g + 1] {
            self.sums[g + 1] - self.sums[g]
        } else if j == i + 1 {
            self.counts[i]
        } else {
            self.length
                .count(&self.text[self.bounds[i]..self.bounds[j]])
        }
    }
}

/// True when counts add up across byte `at` of `text` (see [`Units`]).
pub(super) fn additive_at(text: &str, length: Length, at: usize) -> bool {
    match length {
        Length::Characters => true,
        // Not additive in general (and not a unit of this strategy).
        Length::Model(_) => false,
        Length::Tokens(_) => {
            matches!(text.as_bytes()[..at].last(), Some(b'\n' | b'\r')) && clean_start(&text[at..])
        }
    }
}

/// True when `rest` starts with a character after which a line ending before it ends a BPE
/// piece: neither whitespace nor `/` (see [`Units`]).
pub(super) fn clean_start(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_some_and(|c| !c.is_whitespace() && c != '/')
}

/// The longest common prefix of heading paths: the headings every one of them is under.
pub(super) fn common_path<'a>(mut paths: impl Iterator<Item = &'a [String]>) -> Vec<String> {
    let Some(first) = paths.next() else {
        return Vec::new();
    };
    let mut len = first.len();
    for p in paths {
        len = first[..len]
            .iter()
            .zip(p)
            .take_while(|(a, b)| a == b)
            .count();
    }
    first[..len].to_vec()
}

/// The structural boundaries of a document, to say why a chunk ends at a byte.
pub(super) struct Ends {
    section_starts: Vec<usize>,
    block_starts: Vec<usize>,
    len: usize,
}

impl Ends {
    pub(super) fn new(sections: &[Section], len: usize) -> Self {
        Ends {
            section_starts: sections.iter().map(|s| s.bytes.start).collect(),
            block_starts: sections
                .iter()
                .flat_map(|s| s.blocks.iter().copied())
                .collect(),
            len,
        }
    }

    /// [`Boundary::EndOfText`] at the end, [`Boundary::Section`] at a heading,
    /// [`Boundary::Paragraph`] at a block start, else `inner` (the cut's own level).
    pub(super) fn reason(&self, end: usize, inner: Boundary) -> Boundary {
        if end >= self.len {
            Boundary::EndOfText
        } else if self.section_starts.binary_search(&end).is_ok() {
            Boundary::Section
        } else if self.block_starts.binary_search(&end).is_ok() {
            Boundary::Paragraph
        } else {
            inner
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::run;

    fn settings(size: usize, overlap: usize) -> Settings {
        crate::strategy::test_settings(size, overlap, SizeUnit::Tokens)
    }

    fn chunks(text: &str, size: usize, overlap: usize) -> crate::strategy::Chunks {
        let c = SectionBudget::new(&settings(size, overlap)).expect("valid");
        run(&c, text, Encoding::Cl100kBase).expect("splits")
    }

    fn texts<'a>(text: &'a str, c: &'a crate::strategy::Chunks) -> Vec<&'a str> {
        c.chunks.iter().map(|c| &text[c.bytes.clone()]).collect()
    }

    #[test]
    fn characters_are_refused_and_empty_text_has_no_chunk() {
        let s = Settings {
            unit: SizeUnit::Characters,
            ..settings(10, 0)
        };
        assert_eq!(
            SectionBudget::new(&s),
            Err(StrategyError::UnitUnsupported {
                strategy: StrategyId::SectionBudget,
                unit: SizeUnit::Characters
            })
        );
        assert_eq!(
            SectionBudget::new(&settings(0, 0)),
            Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize
            ))
        );
        assert!(chunks("", 10, 0).chunks.is_empty());
    }

    #[test]
    fn e13_sections_pack_whole_and_the_joiner_is_counted() {
        let text = "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n## Usage\nRun it.";
        let c = chunks(text, 1000, 0);
        assert_eq!(texts(text, &c), [text]);
        assert_eq!(c.chunks[0].heading_path, ["Setup"]);
        // The Setup section is 24 tokens, Usage 6, together 30: at 29 they part at the heading.
        let setup = "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n";
        assert_eq!(Length::Tokens(Encoding::Cl100kBase).count(setup), 24);
        let c = chunks(text, 29, 0);
        assert_eq!(texts(text, &c), [setup, "## Usage\nRun it."]);
        let reasons: Vec<_> = c.chunks.iter().map(|c| c.reason).collect();
        assert_eq!(reasons, [Boundary::Section, Boundary::EndOfText]);
        assert_eq!(c.chunks[1].heading_path, ["Setup", "Usage"]);
        assert_eq!(c.chunks[0].tokens + c.chunks[1].tokens, 30);
        assert_eq!(chunks(text, 30, 0).chunks.len(), 1);
    }

    #[test]
    fn paragraphs_pack_until_the_next_would_exceed_with_the_blank_lines_inside() {
        // "one two three\n\n" is 4 tokens, "four five\n\n" 3, "six" 1; the joiner "\n\n" is
        // one token inside the first paragraph's slice.
        let text = "one two three\n\nfour five\n\nsix";
        let c = chunks(text, 7, 0);
        assert_eq!(texts(text, &c), ["one two three\n\nfour five\n\n", "six"]);
        assert_eq!(c.chunks[0].tokens, 7);
        assert_eq!(c.chunks[0].reason, Boundary::Paragraph);
        let c = chunks(text, 6, 0);
        assert_eq!(texts(text, &c), ["one two three\n\n", "four five\n\nsix"]);
    }

    #[test]
    fn overlap_repeats_whole_trailing_paragraphs_that_fit() {
        let text = "one two three\n\nfour five\n\nsix\n\nseven eight";
        // [4, 3, 2, 2] tokens. Size 8 overlap 3: chunk 1 = 4 + 3 (adding "six\n\n" makes 9);
        // "four five\n\n" (3) is repeated, then "six\n\n" and "seven eight" follow.
        let c = chunks(text, 8, 3);
        assert_eq!(
            texts(text, &c),
            [
                "one two three\n\nfour five\n\n",
                "four five\n\nsix\n\nseven eight"
            ]
        );
        // Overlap 2 cannot hold "four five\n\n": no repeat.
        let c = chunks(text, 8, 2);
        assert_eq!(
            texts(text, &c),
            ["one two three\n\nfour five\n\n", "six\n\nseven eight"]
        );
    }

    #[test]
    fn e16_cjk_without_spaces_is_cut_on_char_boundaries() {
        let text = "猫".repeat(200);
        let c = chunks(&text, 50, 0);
        let lens: Vec<usize> = c.chunks.iter().map(|c| c.tokens).collect();
        assert_eq!(lens, [[48; 12].as_slice(), &[24]].concat());
        assert!(c.chunks.iter().all(|c| c.text.is_none()));
        assert_eq!(c.chunks.iter().map(|c| c.bytes.len()).sum::<usize>(), 600);
        assert!(c.chunks[..12]
            .iter()
            .all(|c| c.reason == Boundary::SizeLimit));
        // Overlap 4 tokens: the next window starts at the first char boundary at most 4 tokens
        // back, so windows of 3 characters (9 tokens) share one character (3 tokens).
        let text = "猫".repeat(20);
        let c = chunks(&text, 10, 4);
        let ranges: Vec<_> = c.chunks.iter().take(3).map(|c| c.bytes.clone()).collect();
        assert_eq!(ranges, [0..9, 6..15, 12..21]);
        assert_eq!(c.chunks.last().map(|c| c.bytes.end), Some(60));
        // A budget smaller than one character's 3 tokens: one character per chunk, oversize.
        let c = chunks("猫猫", 2, 1);
        assert_eq!(texts("猫猫", &c), ["猫", "猫"]);
        assert!(c.chunks.iter().all(|c| c.flags.oversize));
    }

    #[test]
    fn e07_and_e12_windows_stay_within_the_budget_and_advance() {
        let text = "red  blue  green  gold  pink  grey";
        // 11 tokens: red, " ", " blue", " ", " green", …; windows of 4 stepping by 2, each
        // cut after the whitespace that follows its last word.
        let c = chunks(text, 4, 2);
        assert_eq!(
            texts(text, &c),
            [
                "red  blue  ",
                "blue  green  ",
                "green  gold  ",
                "gold  pink  ",
                "pink  grey"
            ]
        );
        assert!(c.chunks.iter().all(|c| c.tokens <= 4));
        let text = format!("Prefix {} suffix", "x".repeat(300));
        let c = chunks(&text, 10, 3);
        assert!(c.chunks.iter().all(|c| c.tokens <= 10 && !c.flags.oversize));
        let spans: Vec<(usize, usize)> = c
            .chunks
            .iter()
            .map(|c| (c.bytes.start, c.bytes.end))
            .collect();
        crate::reconstruct::check_reconstruction(text.len(), &spans).expect("rebuilds");
        assert!(c.chunks.len() >= 41 / 7);
    }

    #[test]
    fn crlf_paragraphs_and_sections() {
        let text = "# A\r\none two\r\n\r\nthree\r\n## B\r\nfour";
        // The first block is 6 tokens ("#", " A", "\r\n", "one", " two", "\r\n\r\n"): at 5
        // it is cut at the budget; "three\r\n" (2) and the Usage section (4) part at the
        // heading.
        let c = chunks(text, 5, 0);
        assert_eq!(
            texts(text, &c),
            ["# A\r\none ", "two\r\n\r\n", "three\r\n", "## B\r\nfour"]
        );
        let reasons: Vec<_> = c.chunks.iter().map(|c| c.reason).collect();
        assert_eq!(
            reasons,
            [
                Boundary::SizeLimit,
                Boundary::Paragraph,
                Boundary::Section,
                Boundary::EndOfText
            ]
        );
        let c = chunks(text, 6, 0);
        assert_eq!(
            texts(text, &c),
            ["# A\r\none two\r\n\r\n", "three\r\n## B\r\nfour"]
        );
    }

    #[test]
    fn runs_of_closing_marks_and_of_line_breaks_are_cut_within_the_budget() {
        // Between two closing marks is a cut point: dot leaders are cut, not one chunk.
        let dots = ".,".repeat(400);
        let c = chunks(&dots, 8, 0);
        assert!(c.chunks.len() > 1);
        assert!(c.chunks.iter().all(|c| c.tokens <= 8 && !c.flags.oversize));
        // A long run of line breaks: the cut places move over it in one pass; the text is
        // rebuilt.
        let text = format!("a{}b", "\n".repeat(20_000));
        let c = chunks(&text, 64, 0);
        let spans: Vec<(usize, usize)> = c
            .chunks
            .iter()
            .map(|c| (c.bytes.start, c.bytes.end))
            .collect();
        crate::reconstruct::check_reconstruction(text.len(), &spans).expect("rebuilds");
    }

    #[test]
    fn extreme_sizes_do_not_panic() {
        let text = "# A\n\nsome text here\n\n## B\n\n猫猫 more";
        let c = chunks(text, usize::MAX, usize::MAX);
        assert_eq!(texts(text, &c), [text]);
        let c = chunks(text, 1, usize::MAX);
        assert!(
            c.chunks
                .iter()
                .all(|c| c.tokens == 1 || c.text(text).chars().count() == 1),
            "{:?}",
            texts(text, &c)
        );
        let spans: Vec<(usize, usize)> = c
            .chunks
            .iter()
            .map(|c| (c.bytes.start, c.bytes.end))
            .collect();
        crate::reconstruct::check_reconstruction(text.len(), &spans).expect("rebuilds");
        let text = "Docs end with <|endoftext|> here.";
        assert_eq!(texts(text, &chunks(text, 100, 0)), [text]);
    }

    #[test]
    fn pack_follows_the_rule_on_abstract_sizes() {
        // Units of sizes 3, 3, 9, 2, 2, 2 with an additive count, budget 6, overlap 2.
        let sizes = [3usize, 3, 9, 2, 2, 2];
        let sum = |i: usize, j: usize| sizes[i..j].iter().sum::<usize>();
        let g = pack(sizes.len(), |i, j| sum(i, j) <= 6, |i, j| sum(i, j) <= 2);
        assert_eq!(
            g,
            [Group::Packed(0..2), Group::Oversize(2), Group::Packed(3..6)]
        );
        let g = pack(sizes.len(), |i, j| sum(i, j) <= 4, |i, j| sum(i, j) <= 2);
        assert_eq!(
            g,
            [
                Group::Packed(0..1),
                Group::Packed(1..2),
                Group::Oversize(2),
                Group::Packed(3..5),
                Group::Packed(4..6)
            ]
        );
    }

    #[test]
    fn unit_runs_count_exactly_across_non_additive_seams() {
        let text: String = (0..6)
            .map(|i| format!("## Step {i}\n\nStep {i} done.\n\n//c {i}.\n\n/ x {i}.\n\n  y\n\n"))
            .collect();
        let bounds: Vec<usize> = sections(&text)
            .iter()
            .flat_map(|s| s.blocks.clone())
            .chain([text.len()])
            .collect();
        for e in Encoding::ALL {
            let len = Length::Tokens(e);
            let units = Units::new(&text, len, bounds.clone());
            for i in 0..units.len() {
                for j in i + 1..=units.len() {
                    let direct = len.count(&text[units.bytes(i..j)]);
                    assert_eq!(units.count(i, j), direct, "{e:?} units {i}..{j}");
                }
            }
        }
    }

    #[test]
    fn counts_are_additive_at_clean_line_starts() {
        let docs = [
            include_str!("../../tests/differential/corpus/guide.md").to_string(),
            include_str!("../../tests/differential/corpus/guide.md").replace('\n', "\r\n"),
            include_str!("../../docs/gate_markdown.txt").to_string(),
            include_str!("../../tests/differential/corpus/source.py").to_string(),
            "a.\n/x\n\n/y\n  z\n\u{3000}w\n!\n\n\n's\n1\n".to_string(),
        ];
        for e in Encoding::ALL {
            let len = Length::Tokens(e);
            for d in &docs {
                let starts: Vec<usize> = (1..d.len())
                    .filter(|&i| {
                        d.is_char_boundary(i) && matches!(d.as_bytes()[i - 1], b'\n' | b'\r')
                    })
                    .collect();
                for w in starts.windows(3) {
                    let (a, m, b) = (w[0], w[1], w[2]);
                    let whole = len.count(&d[a..b]);
                    let sum = len.count(&d[a..m]) + len.count(&d[m..b]);
                    if additive_at(d, len, m) {
                        assert_eq!(whole, sum, "{e:?} at {m} in {:?}", &d[a..b]);
                    }
                }
            }
        }
        // And the exclusions are real: a line starting with "/" after punctuation is not.
        let o = Length::Tokens(Encoding::O200kBase);
        assert!(!additive_at("a.\n/x", o, 3));
    }
}
