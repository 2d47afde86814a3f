//! Markdown structure (the product's own; SPEC §5): split at headings, never inside a fenced
//! code block, merge small sections, optionally prefix each chunk with its heading path.
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
//! **Heading-path prefix** ([`MarkdownStructure::heading_path_prefix`], off by default): the
//! chunk's text is `"<H1> > <H2> > …\n\n"` followed by the slice, with the heading texts of
//! [`Piece::heading_path`] joined by `" > "` and one blank line after them; a chunk with an
//! empty path gets none. The prefix's tokens count against the budget. When the prefix alone
//! leaves no room (its count ≥ `chunk_size`), or a piece of the recursive splitter does not fit
//! with it, it is left out of that chunk and [`Piece::prefix_over_budget`] is set; it never
//! makes a chunk overflow silently.
//!
//! **Heading path** of a chunk: the headings every section it touches is under (the longest
//! common prefix of their paths); a chunk inside one section has that section's path, its own
//! heading last.

use super::section_budget::{clean_start, common_path, pack, Ends, Group, Units};
use super::{
    Boundary, Chunker, Keeps, Piece, Recursive, Settings, SizeUnit, StrategyError, StrategyId,
};
use crate::params::ChunkParams;
use crate::segment::markdown::{sections, Section};
use crate::sizer::{Length, TokenCounter};
use crate::tokenizer::Encoding;
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
    /// Prefix each chunk's text with its heading path (see the module comment). Default false.
    pub heading_path_prefix: bool,
}

impl MarkdownStructure {
    /// Markdown structure splitting with `settings`, no heading-path prefix.
    ///
    /// # Errors
    /// [`StrategyError::ZeroChunkSize`] when `chunk_size == 0`.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_unit(StrategyId::Markdown, settings.unit)?;
        Ok(MarkdownStructure {
            params: ChunkParams::new(settings.chunk_size, settings.chunk_overlap)?,
            unit: settings.unit,
            encoding: settings.encoding,
            heading_path_prefix: false,
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
        if !self.heading_path_prefix || path.is_empty() {
            return Prefix::None;
        }
        let text = format!("{}\n\n", path.join(" > "));
        let count = self.length().count(&text);
        if count >= self.params.chunk_size() {
            Prefix::OverBudget
        } else {
            Prefix::Text { text, count }
        }
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
            Prefix::None | Prefix::OverBudget => units.count(i, j),
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

    /// Splits one block that does not fit alone with the recursive splitter.
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
        let inner = match prefix {
            Prefix::Text { count, .. } => size - count,
            Prefix::None | Prefix::OverBudget => size,
        };
        let recursive = Recursive::new(&Settings {
            chunk_size: inner,
            chunk_overlap: self.params.chunk_overlap().min(inner - 1),
            unit: self.unit,
            encoding: self.encoding,
        })?;
        for p in recursive.split(&text[block.clone()])? {
            let bytes = block.start + p.bytes.start..block.start + p.bytes.end;
            let fits = match prefix {
                Prefix::Text { text: pre, .. } => {
                    let own = p.text.as_deref().unwrap_or(&text[bytes.clone()]);
                    self.length().count(&format!("{pre}{own}")) <= size
                }
                Prefix::None | Prefix::OverBudget => true,
            };
            let reason = ends.reason(bytes.end, p.reason);
            out.push(piece(text, bytes, p.text, path, prefix, fits, reason));
        }
        Ok(())
    }
}

/// The heading-path prefix of one chunk.
enum Prefix {
    /// None: the option is off, or the path is empty.
    None,
    /// The prefix alone is at least the budget: left out, flagged.
    OverBudget,
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
        Prefix::Text { .. } | Prefix::OverBudget => (own, true),
        Prefix::None => (own, false),
    };
    Piece {
        bytes,
        text,
        reason,
        heading_path: path.to_vec(),
        prefix_over_budget,
    }
}

impl Chunker for MarkdownStructure {
    /// [`Keeps::Everything`], or [`Keeps::EverythingAfterPrefix`] with the heading-path prefix.
    fn keeps(&self) -> Keeps {
        if self.heading_path_prefix {
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
            if !self.heading_path_prefix {
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
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, Chunks};

    fn md(size: usize, overlap: usize, prefix: bool) -> MarkdownStructure {
        MarkdownStructure {
            heading_path_prefix: prefix,
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
}
