//! The cut of LangChain's `RecursiveCharacterTextSplitter` (langchain-text-splitters 1.1.3,
//! `character.py`: `RecursiveCharacterTextSplitter._split_text`, `_split_text_with_regex`; and
//! `base.py`: `TextSplitter._merge_splits`, `_join_docs`), on byte ranges of one text, with
//! literal separators or the markdown patterns of `from_language` ([`Separator`]).
//!
//! What the library measures is reproduced exactly: the length function is called on each
//! split on its own and on the merge separator, never on a joined chunk, so a chunk's sum
//! of split lengths can differ from the length of its text (BPE merges across the seams). A
//! split's length is measured once per level and reused by the merge, which measures the same
//! string again in the library.

use super::{KeepSeparator, Separator};
use crate::strategy::python::{python_isspace, strip};
use crate::strategy::Boundary;
use crate::tokenizer::open::OpenTokenizer;
use crate::tokenizer::Bpe;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::ops::Range;

/// The library's length function on the text being split.
pub(super) enum Measure<'t> {
    /// Python's `len`: Unicode scalar values.
    Characters,
    /// `len(enc.encode(s, allowed_special=set(), disallowed_special="all"))`, tiktoken's
    /// encoder as `from_tiktoken_encoder` builds it: it raises on any special-token string.
    Tokens {
        /// The encoding's tokenizer.
        bpe: &'static Bpe,
        /// The encoding's special-token strings (tiktoken's `special_tokens_set`).
        disallowed: &'static [&'static str],
        /// `(byte offset, string)` of each of them in the text, in order.
        special: &'t [(usize, &'static str)],
        /// Token counts of single characters (the `""` separator measures every character).
        chars: FxHashMap<char, usize>,
        /// Where the text being split is a rewrite of a document: see [`Source`].
        source: Option<Source<'t>>,
    },
    /// `len(tokenizer.tokenize(s))`, the length function of `from_huggingface_tokenizer`:
    /// the model's tokens without its special tokens. Never raises.
    Model {
        /// The installed tokenizer.
        tokenizer: &'static OpenTokenizer,
        /// Counts of single characters, as for tokens.
        chars: FxHashMap<char, usize>,
    },
}

/// The document a rewritten text (a markdown section's content) was made from, and the
/// stretches of that text that are the document's own bytes. A measured slice inside one
/// stretch is counted as the same bytes of the document: the same count (a count is a function
/// of the bytes), but when the document is prepared ([`crate::strategy::Document`]) its index
/// answers for the shared tokens, where the rewritten text's pieces would each be merged
/// afresh (the pieces of Chinese and Japanese lines are long and rarely recur).
#[derive(Clone, Copy, Debug)]
pub(super) struct Source<'t> {
    /// The document.
    pub doc: &'t str,
    /// The stretches, in order, not overlapping.
    pub same: &'t [Stretch],
}

/// `text[at..end]` of a rewritten text is `doc[doc..doc + (end - at)]` of its [`Source`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stretch {
    /// Byte offset in the rewritten text.
    pub at: usize,
    /// End byte offset in the rewritten text.
    pub end: usize,
    /// Byte offset of the same bytes in the document.
    pub doc: usize,
}

/// How much of a measured range of a rewritten text is the document's own bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mapped<'t> {
    /// All of it: these bytes of the document.
    Whole(&'t str),
    /// The range's bytes from this offset (relative to the range's start) on: these bytes of
    /// the document.
    Tail(usize, &'t str),
    /// Its last byte is not the document's.
    Not,
}

impl<'t> Source<'t> {
    /// How the rewritten text's `range` maps to the document: by the stretch holding its last
    /// byte.
    fn map(&self, range: Range<usize>) -> Mapped<'t> {
        let i = self.same.partition_point(|x| x.end < range.end);
        let Some(x) = self.same.get(i).filter(|x| x.at < range.end) else {
            return Mapped::Not;
        };
        let end = x.doc + (range.end - x.at);
        if x.at <= range.start {
            Mapped::Whole(&self.doc[x.doc + (range.start - x.at)..end])
        } else {
            Mapped::Tail(x.at - range.start, &self.doc[x.doc..end])
        }
    }

    /// [`Bpe::count`] of `text[range]`, counting what maps to the document as the document's
    /// bytes (from its tokens, when it is prepared): a whole slice inside one stretch, else the
    /// tail in the last stretch after the pieces before it ([`Bpe::count_with_tail`]; a line
    /// whose indentation or tabs were stripped starts in another stretch than it ends).
    fn count(&self, bpe: &Bpe, text: &str, range: Range<usize>) -> usize {
        let s = &text[range.clone()];
        match self.map(range) {
            Mapped::Whole(same) => {
                debug_assert_eq!(same, s, "a stretch maps to other bytes");
                bpe.count(same)
            }
            Mapped::Tail(from, same) => bpe.count_with_tail(s, from, same),
            Mapped::Not => bpe.count(s),
        }
    }
}

/// tiktoken raised: the measured string contains the special-token string at this byte of the
/// text being split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Raised {
    /// Byte offset in the text being split.
    pub at: usize,
    /// The special-token string.
    pub found: &'static str,
}

impl Measure<'_> {
    /// The length of `text[range]`, as the library's length function gives it.
    fn of(&mut self, text: &str, range: Range<usize>) -> Result<usize, Raised> {
        let s = &text[range.clone()];
        match self {
            Measure::Characters => Ok(s.chars().count()),
            Measure::Tokens {
                bpe,
                special,
                chars,
                source,
                ..
            } => {
                let first = special.partition_point(|&(at, _)| at < range.start);
                if let Some(&(at, found)) = special.get(first) {
                    if at + found.len() <= range.end {
                        return Err(Raised { at, found });
                    }
                }
                let mut it = s.chars();
                match (it.next(), it.next(), source) {
                    (Some(c), None, _) => Ok(*chars.entry(c).or_insert_with(|| bpe.count(s))),
                    (_, _, Some(src)) => Ok(src.count(bpe, text, range)),
                    _ => Ok(bpe.count(s)),
                }
            }
            Measure::Model { tokenizer, chars } => {
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) => Ok(*chars.entry(c).or_insert_with(|| tokenizer.count(s))),
                    _ => Ok(tokenizer.count(s)),
                }
            }
        }
    }

    /// The length of a separator string (not a slice of the text).
    fn of_str(&mut self, s: &str) -> Result<usize, Raised> {
        match self {
            Measure::Characters => Ok(s.chars().count()),
            Measure::Tokens {
                bpe, disallowed, ..
            } => {
                let special = crate::tokenizer::find_special_tokens(s);
                match special.iter().find(|(_, f)| disallowed.contains(f)) {
                    // Only a custom separator could hold one; no text offset applies.
                    Some(&(_, found)) => Err(Raised { at: 0, found }),
                    None => Ok(bpe.count(s)),
                }
            }
            Measure::Model { tokenizer, .. } => Ok(tokenizer.count(s)),
        }
    }
}

/// The splitter's parameters, validated by the caller (`chunk_size > 0`,
/// `chunk_overlap <= chunk_size`).
pub(super) struct Params<'p> {
    pub chunk_size: usize,
    pub chunk_overlap: usize,
    pub separators: &'p [Separator],
    pub keep_separator: KeepSeparator,
    pub strip_whitespace: bool,
}

/// One chunk the library returns, in the coordinates of the text split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cut {
    /// Byte range of the chunk's text: its first to its last character.
    pub range: Range<usize>,
    /// The chunk's text when it is not `text[range]` (`keep_separator=False` re-joins splits
    /// with the separator where empty splits were dropped between them).
    pub text: Option<String>,
    /// The structure level of the cut after it.
    pub reason: Boundary,
}

/// LangChain's default separators: paragraphs, lines, words, characters.
pub(super) const DEFAULT_SEPARATORS: [&str; 4] = ["\n\n", "\n", " ", ""];

/// The structure level a cut at `sep` stands for.
pub(super) fn boundary_of(sep: &str) -> Boundary {
    if sep.is_empty() {
        Boundary::Character
    } else if sep.contains("\n\n") {
        Boundary::Paragraph
    } else if sep.contains('\n') {
        Boundary::Line
    } else if sep.chars().all(python_isspace) {
        Boundary::Word
    } else if matches!(sep.trim(), "." | "!" | "?" | "。" | "！" | "？") {
        Boundary::Sentence
    } else if matches!(sep.trim(), "," | ";" | ":" | "，" | "；" | "：" | "、") {
        Boundary::Clause
    } else {
        Boundary::Word
    }
}

/// Splits `text` as `RecursiveCharacterTextSplitter.split_text` does; `end` is the level of the
/// cut at the end of the text (the caller's: end of text, a markdown section…).
pub(super) fn split_text(
    text: &str,
    params: &Params<'_>,
    measure: &mut Measure<'_>,
    end: Boundary,
) -> Result<Vec<Cut>, Raised> {
    let defaults: Vec<Separator>;
    let separators = if params.separators.is_empty() {
        // `separators or ["\n\n", "\n", " ", ""]`: an empty list means the default.
        defaults = DEFAULT_SEPARATORS
            .iter()
            .map(|s| Separator::Literal(s.to_string()))
            .collect();
        &defaults[..]
    } else {
        params.separators
    };
    let mut splitter = Splitter {
        text,
        params,
        measure,
        out: Vec::new(),
    };
    splitter.split(0..text.len(), separators, end)?;
    Ok(splitter.out)
}

/// One split with its measured length and the level of the cut after it.
#[derive(Clone, Debug)]
struct Split {
    range: Range<usize>,
    len: usize,
    end: Boundary,
}

struct Splitter<'a, 'm, 't> {
    text: &'a str,
    params: &'a Params<'a>,
    measure: &'m mut Measure<'t>,
    out: Vec<Cut>,
}

impl Splitter<'_, '_, '_> {
    /// `_split_text(text[range], separators)`.
    fn split(
        &mut self,
        range: Range<usize>,
        separators: &[Separator],
        end: Boundary,
    ) -> Result<(), Raised> {
        let piece = &self.text[range.clone()];
        // The first separator found in the text (`re.search`); "" stops the search (and leaves
        // no finer separator); none found: the last one, with no finer separator.
        const EMPTY: &Separator = &Separator::Literal(String::new());
        let mut separator = separators.last().unwrap_or(EMPTY);
        let mut finer: &[Separator] = &[];
        for (i, s) in separators.iter().enumerate() {
            if s.is_empty() {
                separator = s;
                break;
            }
            if s.is_in(piece) {
                separator = s;
                finer = &separators[i + 1..];
                break;
            }
        }
        let keep = self.params.keep_separator;
        // `separator_ = "" if self._keep_separator else separator`. Dropped separators are put
        // back as the library's string; a pattern only comes with `keep_separator=True`
        // (`LangchainMarkdownLanguageSplitter` has no other), so a dropped one is a literal.
        let merge_separator = match (keep, separator) {
            (KeepSeparator::False, Separator::Literal(s)) => s.as_str(),
            _ => "",
        };
        let at_separator = separator.boundary();
        let mut merge = Merge::new(merge_separator);
        let mut splits = splits(self.text, range, separator, keep).peekable();
        while let Some(s) = splits.next() {
            let end = if splits.peek().is_none() {
                end
            } else {
                at_separator
            };
            let len = self.measure.of(self.text, s.clone())?;
            if len < self.params.chunk_size {
                merge.push(self, Split { range: s, len, end })?;
            } else {
                merge.finish(self);
                if finer.is_empty() {
                    // Appended as it is: not stripped, however long.
                    self.out.push(Cut {
                        range: s,
                        text: None,
                        reason: end,
                    });
                } else {
                    self.split(s, finer, end)?;
                }
            }
        }
        merge.finish(self);
        Ok(())
    }

    /// `_join_docs(docs, separator)` for the splits of `window`: joined, stripped when
    /// `strip_whitespace`, dropped when empty.
    fn join(&mut self, window: &VecDeque<Split>, separator: &str) {
        let (Some(first), Some(last)) = (window.front(), window.back()) else {
            return;
        };
        let reason = last.end;
        // Splits are consecutive pieces of the text; with the separator kept they are
        // adjacent, else a separator occurrence follows each of them in the text.
        let contiguous = window
            .iter()
            .zip(window.iter().skip(1))
            .all(|(a, b)| b.range.start == a.range.end + separator.len());
        let strip_whitespace = self.params.strip_whitespace;
        if contiguous {
            let whole = first.range.start..last.range.end;
            let range = if strip_whitespace {
                strip(self.text, whole)
            } else {
                whole
            };
            if !range.is_empty() {
                self.out.push(Cut {
                    range,
                    text: None,
                    reason,
                });
            }
            return;
        }
        // Rejoined with the separator: each segment is a range of the text (a split, or the
        // separator occurrence that follows a split).
        let mut segments = Vec::with_capacity(window.len() * 2);
        for (i, s) in window.iter().enumerate() {
            if i > 0 {
                let prev = &window[i - 1].range;
                segments.push(prev.end..prev.end + separator.len());
            }
            segments.push(s.range.clone());
        }
        let joined: String = segments.iter().map(|r| &self.text[r.clone()]).collect();
        let kept = if strip_whitespace {
            strip(&joined, 0..joined.len())
        } else {
            0..joined.len()
        };
        if kept.is_empty() {
            return;
        }
        let to_text = |at: usize, is_end: bool| {
            let mut base = 0;
            for r in &segments {
                let len = r.len();
                if at < base + len || (is_end && at == base + len) {
                    return r.start + (at - base);
                }
                base += len;
            }
            last.range.end
        };
        let range = to_text(kept.start, false)..to_text(kept.end, true);
        let own = &joined[kept];
        self.out.push(Cut {
            text: (self.text.get(range.clone()) != Some(own)).then(|| own.to_string()),
            range,
            reason,
        });
    }
}

/// `_split_text_with_regex(text[range], separator, keep_separator)`: the non-empty pieces
/// between matches of `separator`, each carrying the match before it (`"start"`/`True`),
/// after it (`"end"`) or neither (`False`); every character when the separator is empty.
/// Matches are found leftmost first, without overlap, as `re.split` finds them
/// ([`Separator::find`]).
fn splits<'a>(
    text: &'a str,
    range: Range<usize>,
    separator: &'a Separator,
    keep: KeepSeparator,
) -> Box<dyn Iterator<Item = Range<usize>> + 'a> {
    let base = range.start;
    let piece = &text[range.clone()];
    if separator.is_empty() {
        return Box::new(
            piece
                .char_indices()
                .map(move |(i, c)| base + i..base + i + c.len_utf8()),
        );
    }
    // A literal's searcher is built once (memchr's `Finder`), as `re` compiles it once.
    let finder = match separator {
        Separator::Literal(s) => Some(memchr::memmem::Finder::new(s.as_bytes())),
        _ => None,
    };
    let mut from = 0;
    let mut cur = base;
    let mut done = false;
    Box::new(std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        let found = match &finder {
            Some(f) => f
                .find(piece.as_bytes().get(from..)?)
                .map(|i| from + i..from + i + f.needle().len()),
            None => separator.find(piece, from),
        };
        let piece = match found {
            Some(m) => {
                from = m.end;
                let (at, after) = (base + m.start, base + m.end);
                let (piece, next) = match keep {
                    KeepSeparator::Start => (cur..at, at),
                    KeepSeparator::End => (cur..after, after),
                    KeepSeparator::False => (cur..at, after),
                };
                cur = next;
                piece
            }
            None => {
                done = true;
                cur..range.end
            }
        };
        if !piece.is_empty() {
            return Some(piece);
        }
    }))
}

/// `_merge_splits`, fed one split at a time: `current_doc` is `window`, `total` its measured
/// length with a separator length between every two splits.
struct Merge<'s> {
    separator: &'s str,
    separator_len: Option<usize>,
    window: VecDeque<Split>,
    total: usize,
}

impl<'s> Merge<'s> {
    fn new(separator: &'s str) -> Self {
        Merge {
            separator,
            separator_len: None,
            window: VecDeque::new(),
            total: 0,
        }
    }

    /// One iteration of `_merge_splits`' loop.
    fn push(&mut self, sp: &mut Splitter<'_, '_, '_>, d: Split) -> Result<(), Raised> {
        let separator_len = match self.separator_len {
            Some(l) => l,
            None => *self
                .separator_len
                .insert(sp.measure.of_str(self.separator)?),
        };
        let (size, overlap) = (sp.params.chunk_size, sp.params.chunk_overlap);
        let sep = |n: usize| if n > 0 { separator_len } else { 0 };
        if self.total + d.len + sep(self.window.len()) > size && !self.window.is_empty() {
            // (When `total > chunk_size` the library also logs "Created a chunk of size
            // {total}, which is longer than the specified {chunk_size}"; every split merged
            // here is shorter than chunk_size and the loop below keeps `total` within it, so
            // the recursive splitter never gets there.)
            sp.join(&self.window, self.separator);
            // Pop while more than the overlap is kept, or while the next split would not fit.
            while self.total > overlap
                || (self.total + d.len + sep(self.window.len()) > size && self.total > 0)
            {
                let popped_sep = if self.window.len() > 1 {
                    separator_len
                } else {
                    0
                };
                let Some(first) = self.window.pop_front() else {
                    break;
                };
                self.total -= first.len + popped_sep;
            }
        }
        self.total += d.len + sep(self.window.len());
        self.window.push_back(d);
        Ok(())
    }

    /// The final `_join_docs` of `_merge_splits`; resets for the next run of short splits.
    fn finish(&mut self, sp: &mut Splitter<'_, '_, '_>) {
        sp.join(&self.window, self.separator);
        self.window.clear();
        self.total = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_maps_to_the_document_by_the_stretch_of_its_last_byte() {
        // The rewritten text "\nab  \ncd" from the document "\n  ab\n\ncd": "\n" (a join's
        // first byte) is the document's 0..1, "ab" its 3..5, the join "  \n" is not the
        // document's but its last "\n" is (6..7), and "cd" is 7..9.
        let doc = "\n  ab\n\ncd";
        let same = [
            Stretch {
                at: 0,
                end: 1,
                doc: 0,
            },
            Stretch {
                at: 1,
                end: 3,
                doc: 3,
            },
            Stretch {
                at: 5,
                end: 8,
                doc: 6,
            },
        ];
        let src = Source { doc, same: &same };
        // Inside one stretch: its document bytes.
        assert_eq!(src.map(1..3), Mapped::Whole("ab"));
        assert_eq!(src.map(5..8), Mapped::Whole("\ncd"));
        // Across stretches: from the last one's start, the document's bytes.
        assert_eq!(src.map(0..3), Mapped::Tail(1, "ab"));
        assert_eq!(src.map(1..8), Mapped::Tail(4, "\ncd"));
        // Ending in the join's own spaces: not the document's.
        assert_eq!(src.map(1..4), Mapped::Not);
        // An empty range inside a stretch maps to nothing of it.
        assert_eq!(src.map(2..2), Mapped::Whole(""));
        // The counts agree with counting the rewritten text itself.
        let text = "\nab  \ncd";
        let bpe = crate::tokenizer::Encoding::Cl100kBase.tokenizer();
        for (a, b) in [(0, 3), (1, 8), (0, 8), (1, 4), (5, 8)] {
            assert_eq!(
                src.count(bpe, text, a..b),
                bpe.count(&text[a..b]),
                "{a}..{b}"
            );
        }
    }
}
