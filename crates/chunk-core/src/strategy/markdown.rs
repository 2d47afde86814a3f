//! Markdown structure (the product's own; SPEC §5): split at headings (never at a `#` inside a
//! fenced code block), merge small sections, cut a code block only between its lines,
//! optionally prefix each chunk with its heading path or nearest heading and repair the fences
//! of cut code blocks.
//!
//! Levels, coarsest first; each is used only for a unit the level above could not fit:
//! 1. **Sections** ([`crate::segment::markdown::sections`]: a top-level heading to the next; the
//!    text before the first heading). Consecutive sections merge while the merged slice fits
//!    `chunk_size` ([`super::section_budget::pack`], the same greedy rule as
//!    [`super::SectionBudget`]); a chunk of whole sections ends at a heading
//!    ([`Boundary::Section`]) or at the end. Sections never overlap: a chunk that starts at a
//!    heading starts clean.
//! 2. **Blocks** of a section too large alone: its blank-line blocks
//!    ([`crate::segment::markdown::Section::blocks`], a code block whole), packed by the same
//!    rule, with whole trailing blocks of at most `chunk_overlap` repeated (the overlap rule of
//!    [`super::SectionBudget`]; the prefix does not count as overlap).
//! 3. **The recursive splitter** ([`super::Recursive`]) on a block too large alone, with the
//!    budget left after the prefix and `chunk_overlap` (clamped below that budget); its pieces
//!    are shifted to document offsets.
//!
//! "Fits" is always the true count ([`Length::count`]) of exactly the chunk's text: the document
//! slice, plus the prefix when there is one.
//!
//! **Heading prefix** ([`MarkdownStructure::heading_prefix`], off by default): the chunk's text
//! is `"<H1> > <H2> > …\n\n"` ([`HeadingPrefix::Path`]: the heading texts of
//! [`Piece::heading_path`] joined by `" > "`) or `"<nearest heading>\n\n"`
//! ([`HeadingPrefix::Title`]) followed by the slice; a chunk with an empty path gets none. The
//! prefix's units count against the budget. When the prefix alone leaves no room (its count ≥
//! `chunk_size`), or a piece of the recursive splitter does not fit with it, it is left out of
//! that chunk and [`Piece::prefix_over_budget`] is set; when the prefix alone is over the
//! budget for every chunk under a heading, the strategy refuses
//! ([`StrategyError::PrefixOverBudget`]). It never makes a chunk overflow silently.
//!
//! **Code blocks**: a fenced code block is one block (its blank lines do not split it); one too
//! large alone is cut by the recursive splitter between two lines of code, never leaving a fence
//! line alone ([`Piece::code_info`] marks each piece). With **fence repair**
//! ([`MarkdownStructure::fence_repair`], off by default) a piece that starts inside the code
//! gets the opening fence line before it, and one that ends inside it a closing fence after it,
//! so that each embedded piece is valid markdown; the fences count against the budget (the
//! recursive splitter runs with the budget less what they cost, one unit less at a time until
//! every repaired piece fits), and the chunk's text is no longer the slice
//! ([`Keeps::EverythingAfterPrefix`]). Fences that would take half the room or more, and a
//! piece of blank lines only, are left without repair.
//!
//! **Heading path** of a chunk: the headings every section it touches is under (the longest
//! common prefix of their paths); a chunk inside one section has that section's path, its own
//! heading last.

use super::section_budget::{clean_start, common_path, pack, Ends, Group, Units};
use super::{
    Boundary, Chunker, HeadingPrefix, Keeps, Piece, Recursive, Settings, SizeUnit, StrategyError,
    StrategyId,
};
use crate::params::ChunkParams;
use crate::segment::markdown::{fenced_code_blocks, sections, CodeBlock, Section};
use crate::strategy::length::Length;
use crate::tokenizer::Encoding;
use crate::tokenizer::TokenCounter;
use std::ops::Range;

/// Markdown structure splitting: sections merged up to `chunk_size` units of
/// [`MarkdownStructure::unit`], larger ones split at blocks, then by the recursive splitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkdownStructure {
    /// Size and overlap (an overlap ≥ size is clamped to `size − 1` and flagged).
    pub params: ChunkParams,
    /// The unit of both sizes: tokens of [`MarkdownStructure::encoding`], or characters.
    pub unit: SizeUnit,
    /// The tokenizer (the unit when sizing in tokens).
    pub encoding: Encoding,
    /// Prefix each chunk's text with its heading path or its nearest heading (see the module
    /// comment). Default off.
    pub heading_prefix: HeadingPrefix,
    /// Close and re-open the fence in each piece of a code block cut at lines (see the module
    /// comment). Default false.
    pub fence_repair: bool,
}

impl MarkdownStructure {
    /// Markdown structure splitting with `settings`, no heading-path prefix.
    ///
    /// # Errors
    /// [`StrategyError::Params`] when `chunk_size == 0`.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::Markdown, settings.unit)?;
        Ok(MarkdownStructure {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            unit: settings.unit,
            encoding: settings.encoding,
            heading_prefix: HeadingPrefix::Off,
            fence_repair: false,
        })
    }

    fn length(&self) -> Length {
        match self.unit {
            SizeUnit::Tokens => Length::Tokens(self.encoding),
            SizeUnit::Characters => Length::Characters,
            SizeUnit::Model(v) => Length::Model(v),
        }
    }

    /// The prefix of a chunk under `path`.
    fn prefix(&self, path: &[String]) -> Prefix {
        let head = match (self.heading_prefix, path.last()) {
            (HeadingPrefix::Off, _) | (_, None) => return Prefix::None,
            (HeadingPrefix::Path, Some(_)) => path.join(" > "),
            (HeadingPrefix::Title, Some(last)) => last.clone(),
        };
        let text = format!("{head}\n\n");
        let count = self.length().count(&text);
        if count >= self.params.chunk_size() {
            Prefix::OverBudget(count)
        } else {
            Prefix::Text { text, count }
        }
    }

    /// Refuses when a heading prefix is on and the prefix alone of every chunk under a heading
    /// is over the budget ([`StrategyError::PrefixOverBudget`]); when only some are, those
    /// chunks are cut without it and flagged instead.
    fn check_prefixes(&self, pieces: &[Piece]) -> Result<(), StrategyError> {
        if self.heading_prefix == HeadingPrefix::Off {
            return Ok(());
        }
        let mut over = Vec::new();
        for p in pieces.iter().filter(|p| !p.heading_path.is_empty()) {
            match self.prefix(&p.heading_path) {
                Prefix::OverBudget(count) => over.push((count, p.bytes.start)),
                Prefix::None | Prefix::Text { .. } => return Ok(()),
            }
        }
        let Some(&(prefix_length, _)) = over.iter().min_by_key(|&&(count, _)| count) else {
            return Ok(());
        };
        let byte_offset = over.iter().map(|&(_, at)| at).min().unwrap_or(0);
        Err(StrategyError::PrefixOverBudget {
            prefix_length,
            chunk_size: self.params.chunk_size(),
            byte_offset,
        })
    }

    /// The true count of units `[i, j)` of `units` with `prefix` before them.
    fn count_with(&self, prefix: &Prefix, units: &Units, i: usize, j: usize) -> usize {
        match prefix {
            Prefix::Text { text, count } => {
                let bytes = units.bytes(i..j);
                let slice = units.slice(bytes.clone());
                // The prefix ends with a line ending: additive before a clean start.
                if self.unit == SizeUnit::Characters || clean_start(slice) {
                    count + units.count(i, j)
                } else {
                    self.length().count(&format!("{text}{slice}"))
                }
            }
            Prefix::None | Prefix::OverBudget(_) => units.count(i, j),
        }
    }

    /// Splits section `s`, which does not fit alone, into its blocks, then recursively.
    fn split_section(
        &self,
        text: &str,
        s: &Section,
        ends: &Ends,
        out: &mut Vec<Piece>,
    ) -> Result<(), StrategyError> {
        let length = self.length();
        let (size, overlap) = (self.params.chunk_size(), self.params.chunk_overlap());
        let prefix = self.prefix(&s.path);
        let mut bounds = s.blocks.clone();
        bounds.push(s.bytes.end);
        let units = Units::new(text, length, bounds);
        let groups = pack(
            units.len(),
            |i, j| self.count_with(&prefix, &units, i, j) <= size,
            |i, j| units.count(i, j) <= overlap,
        );
        for g in groups {
            match g {
                Group::Packed(r) => {
                    let bytes = units.bytes(r);
                    let reason = ends.reason(bytes.end, Boundary::Paragraph);
                    out.push(piece(text, bytes, None, &s.path, &prefix, true, reason));
                }
                Group::Oversize(k) => {
                    let block = units.bytes(k..k + 1);
                    self.split_block(text, block, &s.path, &prefix, ends, out)?;
                }
            }
        }
        Ok(())
    }

    /// Splits one block that does not fit alone with the recursive splitter; with
    /// [`MarkdownStructure::fence_repair`], the pieces of a code block it cuts get their fences
    /// (see the module comment).
    fn split_block(
        &self,
        text: &str,
        block: Range<usize>,
        path: &[String],
        prefix: &Prefix,
        ends: &Ends,
        out: &mut Vec<Piece>,
    ) -> Result<(), StrategyError> {
        let size = self.params.chunk_size();
        let pre = match prefix {
            Prefix::Text { text, count } => Some((text.as_str(), *count)),
            Prefix::None | Prefix::OverBudget(_) => None,
        };
        let room = size - pre.map_or(0, |(_, count)| count);
        let slice = &text[block.clone()];
        let code = if self.fence_repair {
            fenced_code_blocks(slice)
        } else {
            Vec::new()
        };
        let length = self.length();
        // The fences a repaired piece gets cost units: the budget of the inner split shrinks by
        // what they cost, and by one more unit at a time until every piece fits (counts are
        // not additive at every seam).
        let cost = code
            .iter()
            .map(|b| length.count(&opening_line(slice, b)) + length.count(&closing_line(slice, b)))
            .max()
            .unwrap_or(0);
        // Fences that would take half the room or more are not added: the code would be cut
        // into shreds to make room for them.
        let (code, cost) = if cost.saturating_mul(2) >= room {
            (Vec::new(), 0)
        } else {
            (code, cost)
        };
        let mut inner = room.saturating_sub(cost).max(1);
        let pieces = loop {
            let recursive = Recursive::new(&Settings {
                chunk_size: inner,
                chunk_overlap: self.params.chunk_overlap().min(inner - 1),
                unit: self.unit,
                encoding: self.encoding,
            })?;
            let pieces: Vec<(Piece, Option<String>)> = recursive
                .split(slice)?
                .into_iter()
                .map(|p| {
                    let repaired = repair(slice, &code, &p.bytes);
                    (p, repaired)
                })
                .collect();
            let over = |(p, r): &(Piece, Option<String>)| {
                r.as_ref().is_some_and(|r| {
                    let own = match pre {
                        Some((pre, _)) => format!("{pre}{r}"),
                        None => r.clone(),
                    };
                    length.count(&own) > size && length.count(&slice[p.bytes.clone()]) <= room
                })
            };
            if inner == 1 || !pieces.iter().any(over) {
                break pieces;
            }
            inner -= 1;
        };
        for (p, repaired) in pieces {
            let bytes = block.start + p.bytes.start..block.start + p.bytes.end;
            let own = repaired.or(p.text);
            let fits = match pre {
                Some((pre, _)) => {
                    let own = own.as_deref().unwrap_or(&text[bytes.clone()]);
                    length.count(&format!("{pre}{own}")) <= size
                }
                None => true,
            };
            let reason = ends.reason(bytes.end, p.reason);
            out.push(Piece {
                code_info: p.code_info,
                ..piece(text, bytes, own, path, prefix, fits, reason)
            });
        }
        Ok(())
    }
}

/// The opening fence line of code block `b` of `slice`, with one line feed.
fn opening_line(slice: &str, b: &CodeBlock) -> String {
    format!("{}\n", b.opening(slice))
}

/// A closing fence for code block `b`: its opening fence's marks and one line feed.
fn closing_line(slice: &str, b: &CodeBlock) -> String {
    let marks: String = b
        .opening(slice)
        .chars()
        .take_while(|&c| c == '`' || c == '~')
        .collect();
    format!("{marks}\n")
}

/// The text of piece `bytes` of `slice` with its code blocks' fences repaired: the opening
/// fence of the block whose code it starts inside before it, a closing fence for the block whose
/// code it ends inside after it (two blocks when it spans from one into another); `None` when it
/// needs neither.
fn repair(slice: &str, code: &[CodeBlock], bytes: &Range<usize>) -> Option<String> {
    let opens = code
        .iter()
        .find(|b| b.body.start <= bytes.start && bytes.start < b.body.end);
    let closes = code
        .iter()
        .find(|b| b.body.start < bytes.end && bytes.end < b.body.end);
    let own = &slice[bytes.clone()];
    // A piece of blank lines stays as it is: fences around nothing would be a fence-only chunk.
    if (opens.is_none() && closes.is_none()) || own.trim().is_empty() {
        return None;
    }
    let mut out = String::with_capacity(own.len() + 16);
    if let Some(b) = opens {
        out.push_str(&opening_line(slice, b));
    }
    out.push_str(own);
    if let Some(b) = closes {
        if !own.ends_with(['\n', '\r']) {
            out.push('\n');
        }
        out.push_str(&closing_line(slice, b));
    }
    Some(out)
}

/// The heading-path prefix of one chunk.
enum Prefix {
    /// None: the option is off, or the path is empty.
    None,
    /// The prefix alone is at least the budget (its count): left out, flagged.
    OverBudget(usize),
    /// The prefix text and its count.
    Text { text: String, count: usize },
}

/// A piece of `bytes` (its own text `own` when the inner splitter changed it) under `path`,
/// with `prefix` when `fits` (the prefixed text is within the budget), else flagged.
fn piece(
    text: &str,
    bytes: Range<usize>,
    own: Option<String>,
    path: &[String],
    prefix: &Prefix,
    fits: bool,
    reason: Boundary,
) -> Piece {
    let (text, prefix_over_budget) = match prefix {
        Prefix::Text { text: pre, .. } if fits => {
            let body = own.as_deref().unwrap_or(&text[bytes.clone()]);
            (Some(format!("{pre}{body}")), false)
        }
        Prefix::Text { .. } | Prefix::OverBudget(_) => (own, true),
        Prefix::None => (own, false),
    };
    Piece {
        bytes,
        text,
        reason,
        heading_path: path.to_vec(),
        prefix_over_budget,
        code_info: None,
    }
}

impl Chunker for MarkdownStructure {
    /// [`Keeps::Everything`], or [`Keeps::EverythingAfterPrefix`] with a heading prefix or
    /// fence repair.
    fn keeps(&self) -> Keeps {
        if self.heading_prefix != HeadingPrefix::Off || self.fence_repair {
            Keeps::EverythingAfterPrefix
        } else {
            Keeps::Everything
        }
    }

    fn overlap_clamped(&self) -> bool {
        self.params.overlap_clamped()
    }

    fn id(&self) -> StrategyId {
        StrategyId::Markdown
    }

    fn budget(&self) -> (usize, Length) {
        (self.params.chunk_size(), self.length())
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let sections = sections(text);
        let size = self.params.chunk_size();
        let mut bounds: Vec<usize> = sections.iter().map(|s| s.bytes.start).collect();
        bounds.push(text.len());
        let units = Units::new(text, self.length(), bounds);
        let ends = Ends::new(&sections, text.len());
        // The prefix of the run of sections being grown from `start` (its path only shrinks
        // as sections are added), so that each step costs one path comparison.
        let mut grown: Option<(usize, usize, Vec<String>)> = None;
        let mut fits = |i: usize, j: usize| -> bool {
            if self.heading_prefix == HeadingPrefix::Off {
                return units.count(i, j) <= size;
            }
            let path = match grown.take() {
                Some((start, end, path)) if start == i && end + 1 == j => {
                    common_path([&path[..], &sections[j - 1].path[..]].into_iter())
                }
                _ => common_path(sections[i..j].iter().map(|s| &s.path[..])),
            };
            let prefix = self.prefix(&path);
            let ok = self.count_with(&prefix, &units, i, j) <= size;
            grown = Some((i, j, path));
            ok
        };
        let groups = pack(units.len(), &mut fits, |_, _| false);
        let mut out = Vec::new();
        for g in groups {
            match g {
                Group::Packed(r) => {
                    let path = common_path(sections[r.clone()].iter().map(|s| &s.path[..]));
                    let prefix = self.prefix(&path);
                    let bytes = units.bytes(r);
                    let reason = ends.reason(bytes.end, Boundary::Section);
                    out.push(piece(text, bytes, None, &path, &prefix, true, reason));
                }
                Group::Oversize(k) => self.split_section(text, &sections[k], &ends, &mut out)?,
            }
        }
        self.check_prefixes(&out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, Chunks};

    fn md(size: usize, overlap: usize, prefix: bool) -> MarkdownStructure {
        MarkdownStructure {
            heading_prefix: if prefix {
                HeadingPrefix::Path
            } else {
                HeadingPrefix::Off
            },
            ..MarkdownStructure::new(&Settings {
                chunk_size: size,
                chunk_overlap: overlap,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            })
            .expect("valid")
        }
    }

    fn chunks(c: &MarkdownStructure, text: &str) -> Chunks {
        run(c, text, Encoding::Cl100kBase).expect("splits")
    }

    fn shown<'a>(text: &'a str, c: &'a Chunks) -> Vec<std::borrow::Cow<'a, str>> {
        c.chunks.iter().map(|c| c.text(text)).collect()
    }

    const E13: &str = "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n## Usage\nRun it.";

    #[test]
    fn e13_two_sections_and_the_code_block_stays_in_setup() {
        for fence in ["~~~", "```"] {
            let text = E13.replace("~~~", fence);
            let setup_end = text.find("## Usage").expect("has Usage");
            // Large budget: one chunk of both sections.
            let c = chunks(&md(1000, 0, false), &text);
            assert_eq!(shown(&text, &c), [text.as_str()]);
            assert_eq!(c.chunks[0].heading_path, ["Setup"]);
            // A budget that holds each section but not both: exactly the two sections.
            let count = |s: &str| Length::Tokens(Encoding::Cl100kBase).count(s);
            let both = count(&text);
            assert!(count(&text[..setup_end]) < both - 1);
            let c = chunks(&md(both - 1, 0, false), &text);
            assert_eq!(shown(&text, &c), [&text[..setup_end], &text[setup_end..]]);
            let paths: Vec<_> = c.chunks.iter().map(|c| c.heading_path.clone()).collect();
            assert_eq!(paths, [vec!["Setup"], vec!["Setup", "Usage"]]);
            let reasons: Vec<_> = c.chunks.iter().map(|c| c.reason).collect();
            assert_eq!(reasons, [Boundary::Section, Boundary::EndOfText]);
            assert!(c
                .chunks
                .iter()
                .all(|c| c.heading_path.iter().all(|h| !h.contains("shell"))));
        }
    }

    #[test]
    fn the_prefix_is_counted_and_shown() {
        let c = chunks(&md(29, 0, true), E13);
        let setup_end = E13.find("## Usage").expect("has Usage");
        assert_eq!(
            shown(E13, &c),
            [
                format!("Setup\n\n{}", &E13[..setup_end]),
                format!("Setup > Usage\n\n{}", &E13[setup_end..])
            ]
        );
        assert!(c
            .chunks
            .iter()
            .all(|c| c.tokens <= 29 && !c.flags.prefix_over_budget));
        // Merged, the two sections share the path ["Setup"]: 2 + 30 tokens > 31, so at 31
        // they stay apart; without the prefix they merge at 30.
        assert_eq!(chunks(&md(30, 0, false), E13).chunks.len(), 1);
        assert_eq!(chunks(&md(31, 0, true), E13).chunks.len(), 2);
        assert_eq!(chunks(&md(32, 0, true), E13).chunks.len(), 1);
    }

    #[test]
    fn a_prefix_over_the_budget_is_left_out_and_flagged() {
        let text = "# Alpha beta gamma delta\n\n## Epsilon zeta eta theta\n\n### Iota kappa\n\nShort body.\n\nAnother line.\n";
        let count = |s: &str| Length::Tokens(Encoding::Cl100kBase).count(s);
        // The path prefixes are 5, 12 and 16 tokens: at 11 only the first leaves room.
        let prefixes = [
            "Alpha beta gamma delta\n\n",
            "Alpha beta gamma delta > Epsilon zeta eta theta\n\n",
            "Alpha beta gamma delta > Epsilon zeta eta theta > Iota kappa\n\n",
        ];
        assert_eq!(prefixes.map(count), [5, 12, 16]);
        let c = chunks(&md(11, 0, true), text);
        assert_eq!(
            shown(text, &c),
            [
                "Alpha beta gamma delta\n\n# Alpha beta gamma delta\n\n",
                "## Epsilon zeta eta theta\n\n",
                "### Iota kappa\n\nShort body.\n\nAnother line.\n"
            ]
        );
        let flags: Vec<_> = c
            .chunks
            .iter()
            .map(|c| c.flags.prefix_over_budget)
            .collect();
        assert_eq!(flags, [false, true, true]);
        let tokens: Vec<_> = c.chunks.iter().map(|c| c.tokens).collect();
        assert_eq!(tokens, [11, 8, 11]);
        assert_eq!(
            c.chunks[2].heading_path,
            [
                "Alpha beta gamma delta",
                "Epsilon zeta eta theta",
                "Iota kappa"
            ]
        );
        assert!(c.chunks.iter().all(|c| !c.flags.oversize));
    }

    #[test]
    fn prefixed_counts_are_exact_where_bpe_is_not_additive() {
        // o200k merges "\n\n//" into one piece: the prefix's blank line and a block that
        // starts with "//" must be counted together.
        let text = "# Part 1.\n\nStep done.\n\n//c 1.\n\n/ x.\n\n  y\n\n\u{3000}z\n";
        let section = &sections(text)[0];
        for e in Encoding::ALL {
            let mut m = md(1000, 0, true);
            m.encoding = e;
            let prefix = m.prefix(&section.path);
            let Prefix::Text { text: pre, .. } = &prefix else {
                panic!("the prefix fits 1000 tokens")
            };
            let mut bounds = section.blocks.clone();
            bounds.push(section.bytes.end);
            let units = Units::new(text, m.length(), bounds);
            for i in 0..units.len() {
                for j in i + 1..=units.len() {
                    let direct = m
                        .length()
                        .count(&format!("{pre}{}", &text[units.bytes(i..j)]));
                    assert_eq!(
                        m.count_with(&prefix, &units, i, j),
                        direct,
                        "{e:?} {i}..{j}"
                    );
                }
            }
        }
        let o = Length::Tokens(Encoding::O200kBase);
        assert_eq!(
            o.count("Part 1.\n\n//c 1.\n\n"),
            o.count("Part 1.\n\n") + o.count("//c 1.\n\n") - 1
        );
    }

    #[test]
    fn extreme_sizes_do_not_panic() {
        let text = "# A\n\nsome text\n\n## B\n\nmore <|endoftext|> text";
        for prefix in [false, true] {
            let c = chunks(&md(usize::MAX, usize::MAX, prefix), text);
            assert_eq!(c.chunks.len(), 1);
            assert_eq!(c.chunks[0].text.is_some(), prefix);
        }
        for unit in [SizeUnit::Tokens, SizeUnit::Characters] {
            let m = MarkdownStructure::new(&Settings {
                chunk_size: 1,
                chunk_overlap: 5,
                unit,
                encoding: Encoding::O200kBase,
            })
            .expect("valid");
            assert_eq!(m.params.chunk_overlap(), 0);
        }
    }

    #[test]
    fn crlf_and_empty_text() {
        assert!(chunks(&md(10, 0, true), "").chunks.is_empty());
        let text = "# A\r\none\r\n## B\r\ntwo\r\n";
        let c = chunks(&md(6, 0, false), text);
        assert_eq!(shown(text, &c), ["# A\r\none\r\n", "## B\r\ntwo\r\n"]);
        assert_eq!(c.chunks[1].heading_path, ["A", "B"]);
    }

    #[test]
    fn merged_sections_are_under_their_common_path() {
        let text = "# T\n## a\nx\n### b\ny\n## c\nz\n";
        let c = chunks(&md(1000, 0, true), text);
        assert_eq!(c.chunks.len(), 1);
        assert_eq!(c.chunks[0].heading_path, ["T"]);
        assert_eq!(
            c.chunks[0].text.as_deref(),
            Some(format!("T\n\n{text}").as_str())
        );
    }

    /// A heading, an intro line and one fenced block of 40 short lines (text-splitter issue
    /// 798).
    fn fenced() -> String {
        let lines: String = (0..40).map(|i| format!("let x{i} = {i};\n")).collect();
        format!("# Setup\n\nInstall it like this:\n\n```rust\n{lines}```\n\nDone.\n")
    }

    #[test]
    fn a_code_block_is_cut_at_lines_and_fence_repair_makes_each_piece_valid() {
        let text = fenced();
        let plain = run(&md(50, 0, false), &text, Encoding::Cl100kBase).expect("ok");
        let parts: Vec<_> = plain
            .chunks
            .iter()
            .filter(|c| c.code_info.is_some())
            .collect();
        assert!(parts.len() >= 3);
        assert!(parts.iter().all(|c| c.code_info.as_deref() == Some("rust")));
        assert!(plain.chunks.iter().all(|c| {
            let t = c.text(&text);
            let t = t.trim();
            t != "```rust" && t != "```" && c.tokens <= 50
        }));
        let repaired = MarkdownStructure {
            fence_repair: true,
            ..md(50, 0, false)
        };
        assert_eq!(repaired.keeps(), Keeps::EverythingAfterPrefix);
        let out = run(&repaired, &text, Encoding::Cl100kBase).expect("ok");
        let parts: Vec<_> = out
            .chunks
            .iter()
            .filter(|c| c.code_info.is_some())
            .collect();
        assert!(parts.len() >= 3);
        for c in &parts {
            let t = c.text(&text);
            assert!(t.starts_with("```rust\n"), "{t:?}");
            assert!(t.trim_end().ends_with("```"), "{t:?}");
            assert_eq!(t.matches("```").count(), 2, "{t:?}");
            assert!(c.tokens <= 50 && !c.flags.oversize, "{t:?}");
        }
        // Pieces that needed a fence changed their text; the document's own are untouched.
        assert!(parts[1..parts.len() - 1]
            .iter()
            .all(|c| c.flags.text_changed));
        assert!(out
            .chunks
            .iter()
            .filter(|c| c.code_info.is_none())
            .all(|c| !c.flags.text_changed));
    }

    #[test]
    fn a_title_prefix_and_a_prefix_no_chunk_can_carry() {
        let text = "# A very long heading that takes many tokens to say\n\nShort body text here.\n";
        let title = MarkdownStructure {
            heading_prefix: HeadingPrefix::Title,
            ..md(40, 0, false)
        };
        let out = run(&title, text, Encoding::Cl100kBase).expect("ok");
        assert_eq!(
            out.chunks[0].text(text),
            "A very long heading that takes many tokens to say\n\n# A very long heading that takes many tokens to say\n\nShort body text here.\n"
        );
        // At 8 tokens the prefix alone (11 tokens) is over the budget for the only headed chunk.
        let small = MarkdownStructure {
            heading_prefix: HeadingPrefix::Path,
            ..md(8, 0, false)
        };
        match small.split(text) {
            Err(StrategyError::PrefixOverBudget {
                prefix_length,
                chunk_size,
                byte_offset,
            }) => assert_eq!((prefix_length, chunk_size, byte_offset), (11, 8, 0)),
            other => panic!("{other:?}"),
        }
    }
}
