//! The separators of LangChain's `RecursiveCharacterTextSplitter` (langchain-text-splitters
//! 1.1.3, `character.py`), with the leftmost, non-overlapping search Python's `re` makes for
//! them (`re.search` to choose one in `_split_text`, `re.split` with a capture group in
//! `_split_text_with_regex`), written by hand for exactly the patterns used here: no regex
//! engine in the page's wasm.

use crate::strategy::Boundary;
use std::borrow::Cow;
use std::ops::Range;

/// The mark of a markdown horizontal rule separator: `\n\*\*\*+\n`, `\n---+\n` or `\n___+\n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleMark {
    /// `*`: the pattern `\n\*\*\*+\n`.
    Asterisk,
    /// `-`: the pattern `\n---+\n`.
    Hyphen,
    /// `_`: the pattern `\n___+\n`.
    Underscore,
}

impl RuleMark {
    fn byte(self) -> u8 {
        match self {
            RuleMark::Asterisk => b'*',
            RuleMark::Hyphen => b'-',
            RuleMark::Underscore => b'_',
        }
    }
}

/// One separator of `RecursiveCharacterTextSplitter`, matched as Python's `re` matches the
/// library's pattern for it.
///
/// - [`Separator::Literal`]: a fixed string (`re.escape(s)` with `is_separator_regex=False`; or,
///   with `is_separator_regex=True`, a pattern without metacharacters, which matches itself:
///   `"```\n"`, `"\n\n"`, `"\n"`, `" "`). `""` matches everywhere: it splits into characters.
/// - [`Separator::Heading`]: the pattern `\n#{1,6} `: a line feed, one to six `#`, a space.
///   With backtracking this matches exactly where the run of `#` after the line feed is one
///   to six long and followed by a space (`\n####### ` does not match at that line feed).
/// - [`Separator::Rule`]: `\n\*\*\*+\n`, `\n---+\n`, `\n___+\n`: a line feed, a run of three
///   or more of the mark, a line feed; the whole run must be followed by the line feed.
///
/// Matches are found leftmost first and do not overlap: the search goes on where the last
/// match ended (`re.finditer` / `re.split`), so `"\n---\n---\n"` holds one match, the second
/// rule having lost its line feed to the first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// A fixed string.
    Literal(String),
    /// `\n#{1,6} `: a markdown ATX heading of level 1 to 6 after a line feed.
    Heading,
    /// A markdown horizontal rule of three or more marks on a line of its own.
    Rule(RuleMark),
}

impl Separator {
    /// `RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN)`
    /// (`character.py`), in its order: headings, the end of a code block, the three
    /// horizontal rules, then paragraphs, lines, words and characters. `from_language` passes
    /// them with `is_separator_regex=True`.
    pub fn markdown() -> Vec<Separator> {
        let lit = |s: &str| Separator::Literal(s.to_owned());
        vec![
            Separator::Heading,
            lit("```\n"),
            Separator::Rule(RuleMark::Asterisk),
            Separator::Rule(RuleMark::Hyphen),
            Separator::Rule(RuleMark::Underscore),
            lit("\n\n"),
            lit("\n"),
            lit(" "),
            lit(""),
        ]
    }

    /// The separator as the library's list holds it: the literal itself, or the regex pattern
    /// (`"\n#{1,6} "`, `"\n\\*\\*\\*+\n"`, `"\n---+\n"`, `"\n___+\n"` as Python source).
    pub fn pattern(&self) -> Cow<'_, str> {
        match self {
            Separator::Literal(s) => Cow::Borrowed(s),
            Separator::Heading => Cow::Borrowed("\n#{1,6} "),
            Separator::Rule(RuleMark::Asterisk) => Cow::Borrowed("\n\\*\\*\\*+\n"),
            Separator::Rule(RuleMark::Hyphen) => Cow::Borrowed("\n---+\n"),
            Separator::Rule(RuleMark::Underscore) => Cow::Borrowed("\n___+\n"),
        }
    }

    /// True for `""`, which splits a text into its characters.
    pub fn is_empty(&self) -> bool {
        matches!(self, Separator::Literal(s) if s.is_empty())
    }

    /// The structure level a cut at this separator stands for: a heading or a horizontal rule
    /// is a section boundary; a literal by what it holds.
    pub fn boundary(&self) -> Boundary {
        match self {
            Separator::Literal(s) => super::recursive::boundary_of(s),
            Separator::Heading | Separator::Rule(_) => Boundary::Section,
        }
    }

    /// The leftmost match in `hay` starting at or after byte `from` (a char boundary), as a
    /// byte range of `hay`; `None` when there is none. The empty literal is not searched for
    /// (it splits into characters); it answers `None`.
    pub fn find(&self, hay: &str, from: usize) -> Option<Range<usize>> {
        let bytes = hay.as_bytes();
        let rest = bytes.get(from..)?;
        match self {
            Separator::Literal(s) => {
                let n = s.as_bytes();
                let at = match n {
                    [] => return None,
                    [b] => memchr::memchr(*b, rest)?,
                    n => memchr::memmem::find(rest, n)?,
                };
                Some(from + at..from + at + n.len())
            }
            Separator::Heading => find_run_after_line_feed(bytes, from, b'#', 1, Some(6), b' '),
            Separator::Rule(mark) => {
                find_run_after_line_feed(bytes, from, mark.byte(), 3, None, b'\n')
            }
        }
    }

    /// True when `hay` holds a match (`re.search(pattern, hay)`).
    pub fn is_in(&self, hay: &str) -> bool {
        self.is_empty() || self.find(hay, 0).is_some()
    }

    /// Every match in `hay`, leftmost first, without overlap (`re.finditer`); empty for `""`.
    pub fn find_all<'h>(&'h self, hay: &'h str) -> impl Iterator<Item = Range<usize>> + 'h {
        let mut from = 0;
        std::iter::from_fn(move || {
            let m = self.find(hay, from)?;
            from = m.end;
            Some(m)
        })
    }
}

/// The leftmost match of `\n{mark}{min,max}{after}` in `bytes[from..]` (all ASCII). A greedy
/// quantifier over one repeated byte followed by a different byte backtracks to nothing
/// shorter that could match: the byte after a shorter run is `mark` again, never `after`. So
/// a line feed matches exactly when the whole run of `mark` after it is `min..=max` long and
/// is followed by `after`.
fn find_run_after_line_feed(
    bytes: &[u8],
    from: usize,
    mark: u8,
    min: usize,
    max: Option<usize>,
    after: u8,
) -> Option<Range<usize>> {
    let mut at = from;
    while let Some(i) = memchr::memchr(b'\n', bytes.get(at..)?) {
        let lf = at + i;
        let run = bytes[lf + 1..].iter().take_while(|&&b| b == mark).count();
        let end = lf + 1 + run;
        if run >= min && max.is_none_or(|m| run <= m) && bytes.get(end) == Some(&after) {
            return Some(lf..end + 1);
        }
        at = lf + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matches as `(start, end)` in bytes.
    fn all(sep: &Separator, hay: &str) -> Vec<(usize, usize)> {
        sep.find_all(hay).map(|r| (r.start, r.end)).collect()
    }

    /// Expected values from CPython 3.11's `re.finditer` with the library's patterns (the
    /// texts are ASCII but for two, whose offsets are converted to bytes).
    #[test]
    fn markdown_patterns_match_as_python_re_does() {
        let [heading, fence, stars, dashes, unders] = [
            Separator::Heading,
            Separator::Literal("```\n".into()),
            Separator::Rule(RuleMark::Asterisk),
            Separator::Rule(RuleMark::Hyphen),
            Separator::Rule(RuleMark::Underscore),
        ];
        /// A separator, a text, and its matches in the text.
        type Case<'a> = (&'a Separator, &'a str, &'a [(usize, usize)]);
        let cases: &[Case] = &[
            (&heading, "a\n# b", &[(1, 4)]),
            (&heading, "a\n####### b", &[]),
            (&heading, "a\n###### b", &[(1, 9)]),
            (&heading, "a\n#b", &[]),
            (&heading, "\n# \n## x", &[(0, 3), (3, 7)]),
            (&heading, "\n#\n# x", &[(2, 5)]),
            (&heading, "\n\n# a", &[(1, 4)]),
            (&heading, "a\n#  b", &[(1, 4)]),
            // "é\n## ü": chars (1, 5) are bytes (2, 6).
            (&heading, "é\n## ü", &[(2, 6)]),
            (&heading, "# no line feed before", &[]),
            (&heading, "a\n###", &[]),
            (&stars, "x\n***\n***\ny", &[(1, 6)]),
            (&stars, "x\n**\ny", &[]),
            (&stars, "x\n****\n\ny", &[(1, 7)]),
            (&stars, "x\n***a\n", &[]),
            (&stars, "x\n***", &[]),
            (&dashes, "\n---\n---\n", &[(0, 5)]),
            (&dashes, "a\n---- \n", &[]),
            (&dashes, "a\n-----\nb\n---\n", &[(1, 8), (9, 14)]),
            (&dashes, "Title\n---\n", &[(5, 10)]),
            (&unders, "a\n___\n__\n___\n", &[(1, 6), (8, 13)]),
            (&fence, "```\n```\n", &[(0, 4), (4, 8)]),
            (&fence, "````\n", &[(1, 5)]),
        ];
        for (sep, hay, want) in cases {
            assert_eq!(all(sep, hay), *want, "{:?} in {hay:?}", sep.pattern());
            assert_eq!(sep.is_in(hay), !want.is_empty(), "{hay:?}");
        }
    }

    #[test]
    fn a_search_from_an_offset_and_the_empty_separator() {
        let h = Separator::Heading;
        assert_eq!(h.find("a\n# b\n## c", 2), Some(5..9));
        assert_eq!(h.find("a\n# b", 99), None);
        let empty = Separator::Literal(String::new());
        assert!(empty.is_empty() && empty.is_in("abc") && empty.is_in(""));
        assert_eq!(empty.find("abc", 0), None);
        assert_eq!(
            all(&Separator::Literal("ab".into()), "abab ab"),
            [(0, 2), (2, 4), (5, 7)]
        );
    }

    #[test]
    fn the_markdown_list_is_the_librarys() {
        let patterns: Vec<String> = Separator::markdown()
            .iter()
            .map(|s| s.pattern().into_owned())
            .collect();
        assert_eq!(
            patterns,
            [
                "\n#{1,6} ",
                "```\n",
                "\n\\*\\*\\*+\n",
                "\n---+\n",
                "\n___+\n",
                "\n\n",
                "\n",
                " ",
                ""
            ]
        );
        assert_eq!(Separator::Heading.boundary(), Boundary::Section);
        assert_eq!(
            Separator::Literal("\n\n".into()).boundary(),
            Boundary::Paragraph
        );
    }
}
