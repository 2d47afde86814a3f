//! Markdown structure: sections under headings, and the blank-line blocks inside them.
//!
//! Headings are the ones a CommonMark parser finds ([`pulldown_cmark`], no extensions): ATX
//! (`## Title`) and setext (`Title` underlined with `===` or `---`). A `#` line inside a fenced
//! code block (backtick or tilde fence) is code, not a heading, and a fence that is never closed
//! runs to the end of the document, as CommonMark says; the parser decides all of that, this
//! module writes no heading detection of its own.
//!
//! Only top-level headings open a section: a heading inside a block quote or a list item is part
//! of that container, and cutting there would cut the container.
//!
//! Output, all in byte offsets of the document:
//! - [`Section`]s that tile the document: `[0, len)` is covered exactly once, in order. A
//!   section starts at the first byte of its heading's line (its indentation included) and runs
//!   to the next section's start; the text before the first heading, when there is any, is a
//!   section of level 0 with an empty heading path.
//! - Inside each section, its blocks ([`Section::blocks`]): a block starts at the section's
//!   start, and at every non-blank line that follows a blank line, unless that line is inside a
//!   code block or an HTML block (whose blank lines are content). A block runs to the next
//!   block's start, so the blank lines after a paragraph belong to that paragraph.
//!
//! Line endings are `\n`, `\r\n` or a lone `\r` (CommonMark's three); a blank line holds only
//! spaces and tabs.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// One section: a heading and everything up to the next top-level heading (or the text before
/// the first heading).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Byte range in the document; sections tile the document in order.
    pub bytes: Range<usize>,
    /// The heading's level, 1–6; 0 for the text before the first heading.
    pub level: u8,
    /// The heading texts this section is under, outermost first, its own heading last (empty
    /// for the text before the first heading). A heading closes every open heading of its own
    /// level or deeper: `# A`, `## B`, `### C`, `## D` give the paths `[A]`, `[A, B]`,
    /// `[A, B, C]`, `[A, D]`. A heading's text is its inline content as plain text (emphasis
    /// marks and link syntax removed, code spans kept, line breaks of a setext heading as
    /// spaces), trimmed.
    pub path: Vec<String>,
    /// Start offsets of the blocks inside the section, strictly increasing; the first is
    /// `bytes.start`. Block `i` is `blocks[i]..blocks[i + 1]` (the last ends at `bytes.end`).
    pub blocks: Vec<usize>,
}

impl Section {
    /// The byte ranges of the section's blocks, in order; they tile [`Section::bytes`].
    pub fn block_ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let ends = self.blocks[1..]
            .iter()
            .copied()
            .chain(std::iter::once(self.bytes.end));
        self.blocks.iter().copied().zip(ends).map(|(s, e)| s..e)
    }
}

/// One fenced code block (backtick or tilde fence, at any depth), as CommonMark finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBlock {
    /// The whole block: from the start of the opening fence's line to the end of the closing
    /// fence's line (its line ending included), or to the end of the document when the fence
    /// is never closed.
    pub bytes: Range<usize>,
    /// The byte of the opening fence's first mark (after the line's indentation and any
    /// container marks such as `- ` or `> `).
    pub fence: usize,
    /// The code between the fences: from the line after the opening fence to the start of the
    /// closing fence's line (or [`CodeBlock::bytes`]'s end when unclosed). Empty for an empty
    /// block.
    pub body: Range<usize>,
    /// The fence's info string, trimmed (`"rust"`, `"python title=x"`; empty when none). Its
    /// first word is the language.
    pub info: String,
}

impl CodeBlock {
    /// The language: the first word of the info string (`None` when there is none).
    pub fn language(&self) -> Option<&str> {
        self.info.split_whitespace().next()
    }

    /// The opening fence from its first mark, without its line ending (`"```rust"`).
    pub fn opening<'t>(&self, text: &'t str) -> &'t str {
        text[self.fence..self.body.start].trim_end_matches(['\n', '\r'])
    }

    /// The start of each line of the body after its first, in order: the places a block too
    /// long for one chunk can be cut without cutting a line, keeping the opening fence with the
    /// first line of code and the closing fence with the last.
    pub fn inner_line_starts<'t>(&self, text: &'t str) -> impl Iterator<Item = usize> + 't {
        let body = self.body.clone();
        lines(text, body.clone())
            .map(|(_, _, end)| end)
            .filter(move |&e| e < body.end)
    }
}

/// Every fenced code block of `text`, in document order (nested ones included: a fence inside
/// a list item or a block quote is a code block too). Indented code blocks have no fence and
/// are not listed.
pub fn fenced_code_blocks(text: &str) -> Vec<CodeBlock> {
    use pulldown_cmark::CodeBlockKind;
    // A fence is three or more backticks or tildes in a row (CommonMark 4.5): without one, no
    // block, and no parse (the parse costs hundreds of instructions a byte on some texts, such
    // as line breaks only).
    if !text.contains("```") && !text.contains("~~~") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        let Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) = event else {
            continue;
        };
        let start = line_start(text, range.start);
        // The parser's range stops before the closing fence's line ending.
        let mut end = range.end.max(start);
        let rest = &text.as_bytes()[end..];
        end += match rest {
            [b'\r', b'\n', ..] => 2,
            [b'\n' | b'\r', ..] if !text[start..end].ends_with(['\n', '\r']) => 1,
            _ => 0,
        };
        let mut all = lines(text, start..end);
        let Some((_, _, body_start)) = all.next() else {
            continue;
        };
        // The fence's first mark: on the opening line, after any container marks (`- `, `> `).
        let fence = text[start..body_start]
            .find(['`', '~'])
            .map_or(start, |i| start + i);
        let mark = text[fence..].chars().next().unwrap_or('`');
        let width = text[fence..].chars().take_while(|&c| c == mark).count();
        // The closing fence: the last line, when it is only the fence character (after the
        // container's `>` marks and indentation), at least as many as the opening (CommonMark
        // 4.5); an unclosed block runs to `end`.
        let body_end = match all.last() {
            Some((ls, ce, _)) => {
                let line = text[ls..ce].trim().trim_start_matches(['>', ' ', '\t']);
                let closes = !line.is_empty()
                    && line.chars().all(|c| c == mark)
                    && line.chars().count() >= width;
                if closes {
                    ls
                } else {
                    end
                }
            }
            None => end,
        };
        out.push(CodeBlock {
            bytes: start..end,
            fence,
            body: body_start.min(body_end)..body_end,
            info: info.trim().to_string(),
        });
    }
    out
}

/// A top-level heading as the parser reports it.
struct Heading {
    /// Byte offset of the start of the heading's first line.
    line_start: usize,
    level: u8,
    text: String,
}

/// The sections of `text`, tiling it in order (none for empty text). See the module comment.
pub fn sections(text: &str) -> Vec<Section> {
    if text.is_empty() {
        return Vec::new();
    }
    let (headings, atomic) = parse(text);
    // Section starts: 0 for a preamble, then each heading's line start.
    let mut starts: Vec<(usize, u8, Vec<String>)> = Vec::with_capacity(headings.len() + 1);
    if headings.first().is_none_or(|h| h.line_start > 0) {
        starts.push((0, 0, Vec::new()));
    }
    let mut open: Vec<(u8, String)> = Vec::new();
    for h in headings {
        if starts.last().is_some_and(|s| s.0 >= h.line_start) {
            continue; // never happens (two headings cannot share a line); keeps the tiling strict
        }
        while open.last().is_some_and(|(level, _)| *level >= h.level) {
            open.pop();
        }
        open.push((h.level, h.text));
        let path = open.iter().map(|(_, t)| t.clone()).collect();
        starts.push((h.line_start, h.level, path));
    }
    let ends: Vec<usize> = starts[1..]
        .iter()
        .map(|s| s.0)
        .chain(std::iter::once(text.len()))
        .collect();
    let mut atomic = atomic.into_iter().peekable();
    starts
        .into_iter()
        .zip(ends)
        .map(|((start, level, path), end)| Section {
            bytes: start..end,
            level,
            path,
            blocks: blocks(text, start..end, &mut atomic),
        })
        .collect()
}

/// Runs the parser once: the top-level headings in order, and the ranges of every code block
/// and HTML block (at any depth), sorted by start.
fn parse(text: &str) -> (Vec<Heading>, Vec<Range<usize>>) {
    let mut headings = Vec::new();
    let mut atomic = Vec::new();
    let mut depth = 0usize;
    let mut current: Option<Heading> = None;
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(tag) => {
                match tag {
                    Tag::Heading { level, .. } if depth == 0 => {
                        current = Some(Heading {
                            line_start: line_start(text, range.start),
                            level: level as u8,
                            text: String::new(),
                        });
                    }
                    Tag::CodeBlock(_) | Tag::HtmlBlock => atomic.push(range),
                    _ => {}
                }
                depth += 1;
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                if depth == 0 && matches!(end, TagEnd::Heading(_)) {
                    if let Some(mut h) = current.take() {
                        h.text = h.text.trim().to_string();
                        headings.push(h);
                    }
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(h) = current.as_mut() {
                    h.text.push(' ');
                }
            }
            _ => {}
        }
    }
    atomic.sort_by_key(|r| r.start);
    (headings, atomic)
}

/// The start of the line holding byte `pos`.
fn line_start(text: &str, pos: usize) -> usize {
    text.as_bytes()[..pos]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1)
}

/// The lines of `text[range]` as `(start, end_of_content, end_after_line_ending)`.
fn lines(text: &str, range: Range<usize>) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let b = text.as_bytes();
    let mut pos = range.start;
    std::iter::from_fn(move || {
        if pos >= range.end {
            return None;
        }
        let start = pos;
        let content_end = b[start..range.end]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .map_or(range.end, |i| start + i);
        let mut end = content_end;
        if end < range.end {
            end += if b[end] == b'\r' && b.get(end + 1) == Some(&b'\n') && end + 1 < range.end {
                2
            } else {
                1
            };
        }
        pos = end;
        Some((start, content_end, end))
    })
}

/// Block starts of the section `range` (see the module comment). `atomic` yields code and HTML
/// block ranges sorted by start; the ones that end before this section are consumed.
fn blocks(
    text: &str,
    range: Range<usize>,
    atomic: &mut std::iter::Peekable<impl Iterator<Item = Range<usize>>>,
) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = vec![range.start];
    let mut after_blank = false;
    for (start, content_end, _) in lines(text, range.clone()) {
        let blank = b[start..content_end]
            .iter()
            .all(|&c| c == b' ' || c == b'\t');
        if blank {
            after_blank = true;
            continue;
        }
        if after_blank && start > range.start {
            while atomic.peek().is_some_and(|r| r.end <= start) {
                atomic.next();
            }
            // Ranges are sorted by start; the first one left that starts before this line is
            // the only candidate that can hold it (nested blocks lie inside their parent).
            let inside = atomic.peek().is_some_and(|r| r.start < start);
            if !inside {
                out.push(start);
            }
        }
        after_blank = false;
    }
    out
}

/// The structure of a document the structure report (`analysis::structure`) reads: its fenced code blocks and the starts of its
/// headings (byte offsets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The fenced code blocks, in document order ([`fenced_code_blocks`]).
    pub(crate) code: Vec<CodeBlock>,
    /// The byte offsets where headings start, ascending; the first line of the document is
    /// left out ([`sections`] with a level above 0).
    pub(crate) headings: Vec<usize>,
}

impl Outline {
    /// Parses `text` once ([`fenced_code_blocks`], [`sections`]).
    pub fn new(text: &str) -> Self {
        Outline {
            code: fenced_code_blocks(text),
            headings: sections(text)
                .into_iter()
                .filter(|s| s.level > 0 && s.bytes.start > 0)
                .map(|s| s.bytes.start)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(section text, level, path, block texts)` of every section.
    fn outline(text: &str) -> Vec<(&str, u8, Vec<String>, Vec<&str>)> {
        sections(text)
            .iter()
            .map(|s| {
                (
                    &text[s.bytes.clone()],
                    s.level,
                    s.path.clone(),
                    s.block_ranges().map(|r| &text[r]).collect(),
                )
            })
            .collect()
    }

    fn path(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn e13_a_shell_comment_in_a_tilde_or_backtick_fence_is_not_a_heading() {
        for fence in ["~~~", "```"] {
            let text = format!(
                "# Setup\nInstall the tool.\n{fence}bash\n# this is a shell comment\npip install thing\n{fence}\n## Usage\nRun it."
            );
            let got = outline(&text);
            let setup = format!(
                "# Setup\nInstall the tool.\n{fence}bash\n# this is a shell comment\npip install thing\n{fence}\n"
            );
            assert_eq!(
                got,
                [
                    (setup.as_str(), 1, path(&["Setup"]), vec![setup.as_str()]),
                    (
                        "## Usage\nRun it.",
                        2,
                        path(&["Setup", "Usage"]),
                        vec!["## Usage\nRun it."]
                    ),
                ],
                "{fence}"
            );
        }
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end_and_its_blank_lines_are_not_block_breaks() {
        let text = "Intro.\n\n## Code\n\n```\n# not a heading\n\n## nor this\n";
        let got = outline(text);
        assert_eq!(
            got,
            [
                ("Intro.\n\n", 0, vec![], vec!["Intro.\n\n"]),
                (
                    "## Code\n\n```\n# not a heading\n\n## nor this\n",
                    2,
                    path(&["Code"]),
                    vec!["## Code\n\n", "```\n# not a heading\n\n## nor this\n"]
                ),
            ]
        );
    }

    #[test]
    fn setext_headings_nested_paths_and_indented_atx() {
        let text = "Title\n=====\nText one.\n\nSub part\nof two lines\n---\n\n   ### Deep *em* `code`\nx\n# Next\ny";
        let got = outline(text);
        assert_eq!(
            got,
            [
                (
                    "Title\n=====\nText one.\n\n",
                    1,
                    path(&["Title"]),
                    vec!["Title\n=====\nText one.\n\n"]
                ),
                (
                    "Sub part\nof two lines\n---\n\n",
                    2,
                    path(&["Title", "Sub part of two lines"]),
                    vec!["Sub part\nof two lines\n---\n\n"]
                ),
                (
                    "   ### Deep *em* `code`\nx\n",
                    3,
                    path(&["Title", "Sub part of two lines", "Deep em code"]),
                    vec!["   ### Deep *em* `code`\nx\n"]
                ),
                ("# Next\ny", 1, path(&["Next"]), vec!["# Next\ny"]),
            ]
        );
    }

    #[test]
    fn a_heading_closes_its_level_and_deeper_ones() {
        let text = "# A\n## B\n### C\n## D\n#### E\n# F\n";
        let paths: Vec<Vec<String>> = sections(text).into_iter().map(|s| s.path).collect();
        assert_eq!(
            paths,
            [
                path(&["A"]),
                path(&["A", "B"]),
                path(&["A", "B", "C"]),
                path(&["A", "D"]),
                path(&["A", "D", "E"]),
                path(&["F"])
            ]
        );
    }

    #[test]
    fn crlf_and_lone_cr_line_endings() {
        let text = "Intro\r\n\r\n# A\r\none\r\n\r\ntwo\r\n## B\r\nend";
        let got = outline(text);
        assert_eq!(
            got,
            [
                ("Intro\r\n\r\n", 0, vec![], vec!["Intro\r\n\r\n"]),
                (
                    "# A\r\none\r\n\r\ntwo\r\n",
                    1,
                    path(&["A"]),
                    vec!["# A\r\none\r\n\r\n", "two\r\n"]
                ),
                ("## B\r\nend", 2, path(&["A", "B"]), vec!["## B\r\nend"]),
            ]
        );
        let got = outline("x\r# A\ry\r\rz");
        assert_eq!(
            got,
            [
                ("x\r", 0, vec![], vec!["x\r"]),
                ("# A\ry\r\rz", 1, path(&["A"]), vec!["# A\ry\r\r", "z"]),
            ]
        );
    }

    #[test]
    fn headings_in_quotes_and_lists_do_not_open_sections() {
        let text = "> # Quoted\n\n- # Listed\n\ntext\n";
        let got = outline(text);
        assert_eq!(
            got,
            [(
                text,
                0,
                vec![],
                vec!["> # Quoted\n\n", "- # Listed\n\n", "text\n"]
            )]
        );
    }

    #[test]
    fn empty_and_blank_texts() {
        assert!(sections("").is_empty());
        assert_eq!(
            outline("\n\n  \n"),
            [("\n\n  \n", 0, vec![], vec!["\n\n  \n"])]
        );
        assert_eq!(outline("#"), [("#", 1, path(&[""]), vec!["#"])]);
    }

    #[test]
    fn fenced_code_blocks_with_bodies_languages_and_inner_lines() {
        let text = "Intro:\n```rust title=x\nfn a() {}\n\nfn b() {}\n```\n\n- item\n\n  ~~~\n  x\n  ~~~\n\n````\nopen\n```\nstill code\n";
        let blocks = fenced_code_blocks(text);
        let got: Vec<_> = blocks
            .iter()
            .map(|b| {
                (
                    &text[b.bytes.clone()],
                    &text[b.body.clone()],
                    b.language(),
                    b.opening(text),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "```rust title=x\nfn a() {}\n\nfn b() {}\n```\n",
                    "fn a() {}\n\nfn b() {}\n",
                    Some("rust"),
                    "```rust title=x"
                ),
                ("  ~~~\n  x\n  ~~~\n", "  x\n", None, "~~~"),
                (
                    "````\nopen\n```\nstill code\n",
                    "open\n```\nstill code\n",
                    None,
                    "````"
                ),
            ]
        );
        assert_eq!(blocks[0].info, "rust title=x");
        let inner: Vec<&str> = blocks[0]
            .inner_line_starts(text)
            .map(|p| &text[p..blocks[0].body.end])
            .collect();
        assert_eq!(inner, ["\nfn b() {}\n", "fn b() {}\n"]);
        assert!(fenced_code_blocks("no fences\n\n    indented code\n").is_empty());
        // A fence on a list item's or a block quote's line: the marks after the container's.
        for text in [
            "- ```py\n  a = 1\n  ```\nafter\n",
            "> ```py\n> a = 1\n> ```\n\nafter\n",
        ] {
            let b = &fenced_code_blocks(text)[0];
            assert_eq!(b.opening(text), "```py", "{text:?}");
            assert_eq!(b.language(), Some("py"));
            assert!(
                text[b.body.clone()].contains("a = 1") && !text[b.body.clone()].contains("```"),
                "{text:?}: {:?}",
                &text[b.body.clone()]
            );
        }
    }

    #[test]
    fn html_blocks_keep_their_blank_lines() {
        let text = "<pre>\na\n\nb\n</pre>\n\nafter\n";
        let got = outline(text);
        assert_eq!(
            got,
            [(
                text,
                0,
                vec![],
                vec!["<pre>\na\n\nb\n</pre>\n\n", "after\n"]
            )]
        );
    }
}
