//! LangChain's `MarkdownHeaderTextSplitter.split_text` (langchain-text-splitters 1.1.3,
//! `markdown.py`) with `strip_headers=True`, `return_each_line=False` and no custom header
//! patterns: the document's header sections, each with its rewritten text and a map from that
//! text back to the document's bytes.
//!
//! The library's rules, line by line (`text.split("\n")`):
//! - each line is `str.strip()`ped, then every character that is not `str.isprintable()` is
//!   removed (tabs and non-ASCII spaces inside a line included);
//! - a line starting with ```` ``` ```` (exactly one ```` ``` ```` in it) or `~~~` opens a code
//!   block, which the next line starting with the same fence closes; lines in a code block,
//!   blank ones included, are kept as they are (stripped);
//! - outside code, a line that starts with a header mark followed by a space or nothing
//!   (longest mark first) is a header: it is dropped, ends the current block and sets the
//!   metadata (popping headers of the same or a deeper level); a blank line ends the current
//!   block; other lines are added to the current block;
//! - a block's lines are joined with `"\n"`; consecutive blocks with equal metadata are
//!   joined with `"  \n"` (`aggregate_lines_to_chunks`).

use super::recursive::Stretch;
use crate::strategy::python::{printable_range, strip};
use std::borrow::Cow;
use std::ops::Range;

/// One header section: the library's `Document(page_content, metadata)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Section {
    /// `page_content`.
    pub content: String,
    /// How `content` maps to the document, in order of `content`.
    pub segments: Vec<Segment>,
    /// The metadata's values in its order (outermost header first).
    pub headings: Vec<String>,
}

/// A piece of a section's content: copied from the document, or a line join the library
/// inserted for the line break(s) between two kept lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Segment {
    /// Byte offset in the content.
    pub at: usize,
    /// Length in the content.
    pub len: usize,
    /// The document bytes: the same text when copied; the gap between the two lines for a
    /// join.
    pub doc: Range<usize>,
    /// True when copied from the document.
    pub copied: bool,
}

impl Section {
    /// The longest stretches of `content` that are, byte for byte, one contiguous slice of
    /// `text` (the document the section was cut from), in order, not overlapping: copied runs,
    /// and of each join the bytes it shares with its document gap at either end (all of a
    /// `"\n"` between two lines that were not stripped; the last `"\n"` of a `"  \n"` that
    /// stands for a blank line), merged where they follow one another in both.
    pub fn same_as_document(&self, text: &str) -> Vec<Stretch> {
        let mut out: Vec<Stretch> = Vec::new();
        let mut add = |at: usize, len: usize, doc: usize| {
            if len == 0 {
                return;
            }
            match out.last_mut() {
                Some(last) if last.end == at && last.doc + (last.end - last.at) == doc => {
                    last.end += len;
                }
                _ => out.push(Stretch {
                    at,
                    end: at + len,
                    doc,
                }),
            }
        };
        for seg in &self.segments {
            if seg.copied {
                add(seg.at, seg.len, seg.doc.start);
                continue;
            }
            let own = &self.content.as_bytes()[seg.at..seg.at + seg.len];
            let gap = &text.as_bytes()[seg.doc.clone()];
            let prefix = own.iter().zip(gap).take_while(|(a, b)| a == b).count();
            if prefix == own.len() && prefix == gap.len() {
                add(seg.at, seg.len, seg.doc.start);
                continue;
            }
            let suffix = own[prefix..]
                .iter()
                .rev()
                .zip(gap.iter().rev())
                .take_while(|(a, b)| a == b)
                .count();
            // Both ends are whole characters: the joins are ASCII.
            add(seg.at, prefix, seg.doc.start);
            add(seg.at + seg.len - suffix, suffix, seg.doc.end - suffix);
        }
        out
    }

    /// The document byte range of the content range `range` (non-empty): from the first
    /// character's source to the last character's.
    pub fn to_doc(&self, range: Range<usize>) -> Range<usize> {
        let seg_of = |at: usize| &self.segments[self.segments.partition_point(|s| s.at <= at) - 1];
        let first = seg_of(range.start);
        let start = if first.copied {
            first.doc.start + (range.start - first.at)
        } else {
            first.doc.start
        };
        if range.is_empty() {
            return start..start;
        }
        let last = seg_of(range.end - 1);
        let end = if last.copied {
            last.doc.start + (range.end - last.at)
        } else {
            last.doc.end
        };
        start..end
    }
}

/// A kept line: its printable runs (document ranges) and the stripped line's range.
#[derive(Clone, Debug)]
struct Line {
    runs: Range<usize>,
    stripped: Range<usize>,
}

/// Lines with the same metadata, up to a blank line or a header (`lines_with_metadata`).
#[derive(Clone, Debug)]
struct Block {
    lines: Vec<Line>,
    metadata: Vec<(usize, String)>,
}

/// `MarkdownHeaderTextSplitter(headers_to_split_on).split_text(text)`.
pub(super) fn sections(text: &str, headers_to_split_on: &[(String, String)]) -> Vec<Section> {
    // Longest mark first; Python's sort is stable, as Rust's is.
    // Each header's metadata key: the index of the first header with its name (dict keys).
    let mut headers: Vec<(usize, &str)> = headers_to_split_on
        .iter()
        .map(|(mark, name)| {
            let key = headers_to_split_on
                .iter()
                .position(|(_, n)| n == name)
                .unwrap_or_default();
            (key, mark.as_str())
        })
        .collect();
    headers.sort_by_key(|&(_, mark)| std::cmp::Reverse(mark.chars().count()));

    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Vec<Line> = Vec::new();
    // `initial_metadata` (key → header text, a dict in insertion order) and the header
    // stack (level, key); `current_metadata` is the metadata of the lines in
    // `current`.
    let mut metadata: Vec<(usize, String)> = Vec::new();
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut current_metadata: Vec<(usize, String)> = Vec::new();
    let mut fence: Option<&str> = None;

    let mut start = 0;
    for raw in text.split('\n') {
        let line_range = start..start + raw.len();
        start += raw.len() + 1;
        let stripped = strip(text, line_range);
        let first_run = runs.len();
        let line_text = &text[stripped.clone()];
        // (A fold without early exit, which vectorizes.)
        let ascii = line_text
            .bytes()
            .fold(true, |ok, b| ok & (0x20..0x7f).contains(&b));
        if ascii {
            // Printable ASCII only (most lines): one run.
            if !line_text.is_empty() {
                runs.push(stripped.clone());
            }
        } else {
            printable_runs(line_text, stripped.start, &mut runs);
        }
        let line = Line {
            runs: first_run..runs.len(),
            stripped: stripped.clone(),
        };
        let s: Cow<str> = match &runs[line.runs.clone()] {
            [] => Cow::Borrowed(""),
            [one] => Cow::Borrowed(&text[one.clone()]),
            many => Cow::Owned(many.iter().map(|r| &text[r.clone()]).collect()),
        };

        match fence {
            None => {
                if s.starts_with("```") && s.matches("```").count() == 1 {
                    fence = Some("```");
                } else if s.starts_with("~~~") {
                    fence = Some("~~~");
                }
            }
            Some(f) => {
                if s.starts_with(f) {
                    fence = None;
                }
            }
        }
        if fence.is_some() {
            current.push(line);
            continue;
        }

        let header = headers.iter().find(|(_, mark)| {
            s.starts_with(mark) && (s.len() == mark.len() || s[mark.len()..].starts_with(' '))
        });
        if let Some(&(key, mark)) = header {
            let level = mark.matches('#').count();
            while let Some(&(top, top_key)) = stack.last() {
                if top < level {
                    break;
                }
                stack.pop();
                metadata.retain(|(k, _)| *k != top_key);
            }
            stack.push((level, key));
            let data = s[mark.len()..].trim_matches(crate::strategy::python::python_isspace);
            // `initial_metadata[name] = data`: a dict keeps an existing key's place.
            match metadata.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = data.to_string(),
                None => metadata.push((key, data.to_string())),
            }
            if !current.is_empty() {
                blocks.push(Block {
                    lines: std::mem::take(&mut current),
                    metadata: current_metadata.clone(),
                });
            }
        } else if !s.is_empty() {
            current.push(line);
        } else if !current.is_empty() {
            blocks.push(Block {
                lines: std::mem::take(&mut current),
                metadata: current_metadata.clone(),
            });
        }
        current_metadata.clone_from(&metadata);
    }
    if !current.is_empty() {
        blocks.push(Block {
            lines: current,
            metadata: current_metadata,
        });
    }

    // `aggregate_lines_to_chunks`: consecutive blocks with equal metadata (as dicts) are one
    // section.
    fn same(a: &[(usize, String)], b: &[(usize, String)]) -> bool {
        fn sorted(m: &[(usize, String)]) -> Vec<(usize, &str)> {
            let mut v: Vec<(usize, &str)> = m.iter().map(|(k, d)| (*k, d.as_str())).collect();
            v.sort_unstable();
            v
        }
        a.len() == b.len() && sorted(a) == sorted(b)
    }
    let mut out: Vec<Section> = Vec::new();
    let mut last_meta: Option<&[(usize, String)]> = None;
    let mut prev_line: Option<Range<usize>> = None;
    for block in &blocks {
        let joins_previous = last_meta.is_some_and(|m| same(m, &block.metadata));
        if !joins_previous {
            out.push(Section {
                content: String::new(),
                segments: Vec::new(),
                headings: block.metadata.iter().map(|(_, d)| d.clone()).collect(),
            });
            prev_line = None;
        }
        // A section was pushed above when this block does not join the previous one.
        let Some(section) = out.last_mut() else {
            continue;
        };
        for (i, line) in block.lines.iter().enumerate() {
            if let Some(prev) = &prev_line {
                let join = if i == 0 { "  \n" } else { "\n" };
                section.segments.push(Segment {
                    at: section.content.len(),
                    len: join.len(),
                    doc: prev.end..line.stripped.start.max(prev.end),
                    copied: false,
                });
                section.content.push_str(join);
            }
            for r in &runs[line.runs.clone()] {
                section.segments.push(Segment {
                    at: section.content.len(),
                    len: r.len(),
                    doc: r.clone(),
                    copied: true,
                });
                section.content.push_str(&text[r.clone()]);
            }
            prev_line = Some(line.stripped.clone());
        }
        last_meta = Some(&block.metadata);
    }
    out
}

/// Appends the document ranges of the runs of printable characters of `line` (which starts
/// at byte `base`).
fn printable_runs(line: &str, base: usize, runs: &mut Vec<Range<usize>>) {
    let mut run_start = None;
    // Characters of one line mostly come from one script: the last printable range found is
    // tried first.
    let mut last = (u32::MAX, 0);
    for (i, c) in line.char_indices() {
        let code = u32::from(c);
        let printable = if last.0 <= code && code <= last.1 {
            true
        } else {
            match printable_range(c) {
                Some(r) => {
                    last = r;
                    true
                }
                None => false,
            }
        };
        match (printable, run_start) {
            (true, None) => run_start = Some(base + i),
            (false, Some(s)) => {
                runs.push(s..base + i);
                run_start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = run_start {
        runs.push(s..base + line.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Vec<(String, String)> {
        [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn sections_rewrite_lines_as_the_library_does() {
        // From langchain-text-splitters 1.1.3: [Document('a b\nc  \nd', {}),
        // Document('```\n# not a header\n\n```\ne', {'Header 1': 'T'}),
        // Document('f', {'Header 1': 'T', 'Header 2': 'S'})]
        let text = "  a\tb \r\nc\n\n d\n# T\n```\n# not a header\n\n```\ne\n## S\n\u{200b}f\n";
        let s = sections(text, &defaults());
        let contents: Vec<&str> = s.iter().map(|s| s.content.as_str()).collect();
        assert_eq!(
            contents,
            ["ab\nc  \nd", "```\n# not a header\n\n```\ne", "f"]
        );
        assert_eq!(s[1].headings, ["T"]);
        assert_eq!(s[2].headings, ["T", "S"]);
        // "ab" maps back to "a\tb"; the "  \n" join to the blank line between c and d.
        assert_eq!(&text[s[0].to_doc(0..2)], "a\tb");
        assert_eq!(&text[s[0].to_doc(0..8)], "a\tb \r\nc\n\n d");
        assert_eq!(&text[s[0].to_doc(4..7)], "\n\n ");
        // "a" and "b" are apart in the document (a tab between); the "\n" join shares its
        // last byte with the gap " \r\n" and runs on into "c"; the "  \n" join shares no end
        // with its gap "\n\n "; "d" stands alone.
        let same = s[0].same_as_document(text);
        let at = |at, end, doc| Stretch { at, end, doc };
        assert_eq!(same, [at(0, 1, 2), at(1, 2, 4), at(2, 4, 7), at(7, 8, 12)]);
        for x in &same {
            assert_eq!(
                &s[0].content[x.at..x.end],
                &text[x.doc..x.doc + (x.end - x.at)]
            );
        }
        // Lines that were not stripped: one stretch up to the block join, whose last "\n" starts
        // the next.
        let plain = "one\ntwo\n\nthree\n";
        let p = sections(plain, &defaults());
        assert_eq!(p[0].content, "one\ntwo  \nthree");
        assert_eq!(p[0].same_as_document(plain), [at(0, 7, 0), at(9, 15, 8)]);
    }
}
