//! A second, independent implementation of the recursive strategy (SPEC §6: reconstruction
//! proves consistency, not correctness), written from the rule stated on
//! `chunk_core::strategy::Recursive` with plain linear scans and full counts: no binary search,
//! no capped count, no shared candidate code. Compared chunk for chunk with the real one on
//! every gate document × sizes × overlaps, in tokens and in characters.

use crate::corpus::documents;
use crate::no_hang;
use crate::strategies::{own, settings, UNITS};
use chunk_core::segment::markdown::fenced_code_blocks;
use chunk_core::segment::sentences::sentence_bytes;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::strategy::length::Length;
use chunk_core::strategy::{chunker, Boundary, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use chunk_core::tokenizer::TokenCounter;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Levels, coarsest first (`Unit` = tokens, or characters not before whitespace; `Char` = every
/// character).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Paragraph,
    Sentence,
    Line,
    Word,
    Unit,
    Char,
}

const LEVELS: [Level; 6] = [
    Level::Paragraph,
    Level::Sentence,
    Level::Line,
    Level::Word,
    Level::Unit,
    Level::Char,
];

fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// The reference's view of one document.
struct Doc<'t> {
    text: &'t str,
    unit: Length,
    /// Start offsets of the document's units (tokens) — empty for characters.
    unit_starts: Vec<usize>,
    /// Cut points of each level, each holding the coarser ones and the end of the text.
    levels: Vec<BTreeSet<usize>>,
    /// Bytes one unit may span at most.
    unit_bytes: usize,
    /// Whole sentences and lines of code only (the `sentence` strategy).
    sentences_only: bool,
    /// The line-of-code cut points.
    code_lines: BTreeSet<usize>,
}

fn longest_token() -> usize {
    static L: OnceLock<usize> = OnceLock::new();
    *L.get_or_init(|| {
        let bpe = Encoding::Cl100kBase.tokenizer();
        let mut longest = 0;
        for id in 0..bpe.vocab_size() as u32 {
            longest = longest.max(bpe.token_bytes(id).map_or(0, <[u8]>::len));
        }
        longest
    })
}

impl<'t> Doc<'t> {
    fn new(text: &'t str, unit: Length) -> Self {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let n = chars.len();
        // nonws_after[i]: some non-whitespace character at index ≥ i.
        let mut nonws_after = vec![false; n + 1];
        for i in (0..n).rev() {
            nonws_after[i] = nonws_after[i + 1] || !chars[i].1.is_whitespace();
        }
        // Code blocks (CommonMark's, from the core's parser): `fence` = the opening fence's
        // first character, `first_line_end` = the end of the opening fence's line, `closing` =
        // the closing fence's line start (the end when unclosed), `end` = the block's end.
        let mut inside: Vec<(usize, usize)> = Vec::new(); // (fence, end): no prose cut within
        let mut banned: Vec<(usize, usize)> = Vec::new(); // inclusive-exclusive byte ranges
        let mut code_lines = BTreeSet::new();
        let mut edges = BTreeSet::new();
        for b in fenced_code_blocks(text) {
            // The first fence mark on the opening line (after indentation and list or quote
            // marks).
            let mut fence = b.bytes.start;
            while !text[fence..].starts_with(['`', '~']) && fence < b.body.start {
                fence += text[fence..].chars().next().map_or(1, char::len_utf8);
            }
            banned.push((fence + 1, b.body.start + 1));
            banned.push((b.body.end, b.bytes.end));
            inside.push((fence, b.bytes.end));
            // Lines of the body after its first: every position right after a line ending that
            // is still before the body's end.
            let body = &text[b.body.clone()];
            for (k, ch) in body.char_indices() {
                let after = b.body.start + k + ch.len_utf8();
                let crlf_head = ch == '\r' && body[k + 1..].starts_with('\n');
                let next_line = text[after..b.body.end].lines().next().unwrap_or("");
                let blank = next_line.chars().all(char::is_whitespace);
                if (ch == '\n' || ch == '\r') && !crlf_head && after < b.body.end && !blank {
                    code_lines.insert(after);
                }
            }
            // An edge at a line's start when only whitespace comes before it on the line.
            let line_of = |p: usize| {
                let head = &text[..p];
                let line = head.rfind(['\n', '\r']).map_or(0, |k| k + 1);
                if head[line..].chars().all(char::is_whitespace) && line > 0 {
                    line
                } else {
                    p
                }
            };
            if text[..fence].chars().any(|c| !c.is_whitespace()) {
                edges.insert(line_of(fence));
            }
            if let Some((k, _)) = text[b.bytes.end..]
                .char_indices()
                .find(|(_, c)| !c.is_whitespace())
            {
                edges.insert(line_of(b.bytes.end + k));
            }
        }
        let allowed = |p: usize| banned.iter().all(|&(s, e)| p < s || p >= e);
        let prose = |p: usize| allowed(p) && inside.iter().all(|&(f, e)| p <= f || p >= e);
        let mut words = BTreeSet::new();
        let mut paragraphs = edges;
        for i in 1..n {
            let (_, c) = chars[i];
            if !c.is_whitespace() || chars[i - 1].1.is_whitespace() || !nonws_after[i] {
                continue;
            }
            // A run of whitespace starts here, after text, before text: the cut is its end.
            let mut breaks = 0;
            let mut j = i;
            while j < n && chars[j].1.is_whitespace() {
                let crlf_tail = chars[j].1 == '\n' && j > i && chars[j - 1].1 == '\r';
                if is_line_break(chars[j].1) && !crlf_tail {
                    breaks += 1;
                }
                j += 1;
            }
            // The cut: the run's end, or the start of its last line (indentation stays).
            let mut end = chars[j].0;
            for k in (i..j).rev() {
                if is_line_break(chars[k].1) {
                    end = chars[k + 1].0;
                    break;
                }
            }
            let in_code = inside.iter().any(|&(f, e)| f < end && end < e);
            if allowed(end) && (breaks == 0 || !in_code) {
                words.insert(end);
            }
            if breaks >= 2 && prose(end) {
                paragraphs.insert(end);
            }
        }
        let mut sentences = BTreeSet::new();
        for (k, &(start, _)) in sentence_bytes(text, SentenceRule::Contextual)
            .iter()
            .enumerate()
        {
            if k == 0 {
                continue;
            }
            let mut p = start;
            while let Some(c) = text[p..].chars().next() {
                if !c.is_whitespace() {
                    break;
                }
                p += c.len_utf8();
            }
            // Back to the start of the line when the whitespace before holds a line break.
            let mut q = p;
            while let Some(c) = text[..q].chars().next_back() {
                if is_line_break(c) {
                    p = q;
                    break;
                }
                if !c.is_whitespace() {
                    break;
                }
                q -= c.len_utf8();
            }
            let text_before = text[..p].chars().any(|c| !c.is_whitespace());
            if p < text.len() && text_before && prose(p) {
                sentences.insert(p);
            }
        }
        let all_chars: BTreeSet<usize> = chars
            .iter()
            .map(|&(i, _)| i)
            .skip(1)
            .filter(|&i| allowed(i))
            .chain([text.len()])
            .collect();
        let before_text = |o: usize| !text[o..].starts_with(char::is_whitespace);
        let (unit_starts, unit_cuts, unit_bytes) = match unit {
            Length::Tokens(_) => {
                let offsets = unit.boundaries(text);
                let starts = offsets[..offsets.len() - 1].to_vec();
                let cuts: BTreeSet<usize> = offsets
                    .into_iter()
                    .filter(|&o| o > 0 && text.is_char_boundary(o) && allowed(o) && before_text(o))
                    .collect();
                (starts, cuts, longest_token())
            }
            Length::Characters | Length::Model(_) => {
                let cuts = all_chars
                    .iter()
                    .copied()
                    .filter(|&o| before_text(o))
                    .collect();
                (Vec::new(), cuts, 4)
            }
        };
        let mut levels: Vec<BTreeSet<usize>> = Vec::new();
        let mut acc: BTreeSet<usize> = [text.len()].into();
        for set in [
            paragraphs,
            sentences,
            code_lines.clone(),
            words,
            unit_cuts,
            all_chars,
        ] {
            acc.extend(set);
            levels.push(acc.clone());
        }
        Doc {
            text,
            unit,
            unit_starts,
            levels,
            unit_bytes,
            sentences_only: false,
            code_lines,
        }
    }

    fn levels(&self) -> &'static [Level] {
        if self.sentences_only {
            &[Level::Line]
        } else {
            &LEVELS
        }
    }

    fn count(&self, a: usize, e: usize) -> usize {
        self.unit.count(&self.text[a..e])
    }

    /// Document units starting in `[a, e)`.
    fn proxy(&self, a: usize, e: usize) -> usize {
        match self.unit {
            Length::Tokens(_) => self
                .unit_starts
                .iter()
                .filter(|&&o| a <= o && o < e)
                .count(),
            Length::Characters | Length::Model(_) => self.text[a..e].chars().count(),
        }
    }

    /// The walk: `k` of `n`, `fits(0)` always true.
    fn walk(k: usize, n: usize, fits: impl Fn(usize) -> bool) -> usize {
        let mut j = k;
        if j == 0 || fits(j) {
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

    /// End and level of the chunk starting at `a` with its end after `lo`, no finer than
    /// `finest`.
    fn cut(&self, a: usize, lo: usize, size: usize, finest: Level) -> Option<(usize, Level)> {
        let reach = size.saturating_mul(self.unit_bytes);
        for &level in self.levels() {
            if level > finest {
                break;
            }
            let w: Vec<usize> = self.levels[level as usize]
                .iter()
                .copied()
                .filter(|&c| c > lo && c - a <= reach)
                .collect();
            let k = w.iter().filter(|&&e| self.proxy(a, e) <= size).count();
            let j = Self::walk(k, w.len(), |i| self.count(a, w[i - 1]) <= size);
            if j > 0 {
                return Some((w[j - 1], level));
            }
        }
        None
    }

    fn cut_or_char(&self, a: usize, size: usize) -> (usize, Level) {
        self.cut(a, a, size, Level::Char).unwrap_or_else(|| {
            if self.sentences_only {
                // The whole sentence (or line of code), oversize.
                let next = self.levels[Level::Line as usize].iter().find(|&&c| c > a);
                return (*next.expect("the end is a cut point"), Level::Line);
            }
            let c = self.text[a..].chars().next().expect("text left");
            (a + c.len_utf8(), Level::Char)
        })
    }

    /// Overlap starts after `[a, e)` cut at `level`, preferred first, ending with `e`.
    fn overlap_starts(&self, level: Level, a: usize, e: usize, overlap: usize) -> Vec<usize> {
        if overlap == 0 {
            return vec![e];
        }
        let reach = overlap.saturating_mul(self.unit_bytes);
        // Latest first.
        let q: Vec<usize> = self.levels[level as usize]
            .iter()
            .rev()
            .copied()
            .filter(|&c| a < c && c < e && e - c <= reach)
            .collect();
        let k = q.iter().filter(|&&x| self.proxy(x, e) <= overlap).count();
        let j = Self::walk(k, q.len(), |i| self.count(q[i - 1], e) <= overlap);
        let mut out: Vec<usize> = q[..j].iter().rev().copied().collect();
        out.push(e);
        out
    }

    fn reason(&self, level: Level, end: usize) -> Boundary {
        if end == self.text.len() {
            return Boundary::EndOfText;
        }
        if self.sentences_only {
            return if self.code_lines.contains(&end) {
                Boundary::CodeBlockPart
            } else {
                Boundary::Sentence
            };
        }
        match level {
            Level::Paragraph => Boundary::Paragraph,
            Level::Sentence => Boundary::Sentence,
            Level::Line => Boundary::CodeBlockPart,
            Level::Word => Boundary::Word,
            Level::Unit if matches!(self.unit, Length::Tokens(_)) => Boundary::SizeLimit,
            Level::Unit | Level::Char => Boundary::Character,
        }
    }
}

/// The reference chunks: `(start, end, reason)`.
pub fn reference_recursive(
    text: &str,
    size: usize,
    overlap: usize,
    unit: Length,
) -> Vec<(usize, usize, Boundary)> {
    reference(text, size, overlap, unit, false)
}

/// The reference chunks of the `sentence` strategy: the same rule searched at the sentence and
/// line-of-code level only, a sentence longer than the size alone.
pub fn reference_sentences(
    text: &str,
    size: usize,
    overlap: usize,
    unit: Length,
) -> Vec<(usize, usize, Boundary)> {
    reference(text, size, overlap, unit, true)
}

fn reference(
    text: &str,
    size: usize,
    overlap: usize,
    unit: Length,
    sentences_only: bool,
) -> Vec<(usize, usize, Boundary)> {
    let overlap = overlap.min(size - 1);
    let mut out = Vec::new();
    if text.is_empty() {
        return out;
    }
    let doc = Doc {
        sentences_only,
        ..Doc::new(text, unit)
    };
    let mut a = 0;
    let (mut end, mut level) = doc.cut_or_char(0, size);
    loop {
        out.push((a, end, doc.reason(level, end)));
        if end == text.len() {
            return out;
        }
        let plain = doc.cut_or_char(end, size);
        let finest = plain.1.max(if sentences_only {
            Level::Line
        } else {
            Level::Word
        });
        let mut next = (end, plain);
        for b in doc.overlap_starts(level, a, end, overlap) {
            if b == end {
                break;
            }
            if let Some(found) = doc.cut(b, end, size, finest) {
                next = (b, found);
                break;
            }
        }
        (a, (end, level)) = next;
    }
}

/// Sizes and overlaps compared, in tokens (× 4 in characters).
const SIZES: [usize; 8] = [10, 15, 20, 35, 50, 80, 120, 160];
const OVERLAPS: [usize; 5] = [0, 5, 15, 30, 50];

/// The reference rule of [`reference`]: `(text, size, overlap, unit)` to chunks.
type Rule = fn(&str, usize, usize, Length) -> Vec<(usize, usize, Boundary)>;

/// Compares strategy `id` with `rule` on every gate document × sizes × overlaps × units.
fn equals_the_reference(id: StrategyId, rule: Rule) {
    no_hang::ensure();
    if !own().contains(&id) {
        return;
    }
    let docs = documents();
    let mut failures = Vec::new();
    let mut compared = 0;
    for unit in UNITS {
        let k = if unit == SizeUnit::Characters { 4 } else { 1 };
        for size in SIZES {
            for overlap in OVERLAPS {
                let s = settings(size * k, overlap * k, unit);
                let real = chunker(id, &s).expect("valid");
                for doc in &docs {
                    let got: Vec<(usize, usize, Boundary)> = real
                        .split(doc.text)
                        .expect("never refuses")
                        .into_iter()
                        .map(|p| (p.bytes.start, p.bytes.end, p.reason))
                        .collect();
                    let want = rule(doc.text, s.chunk_size, s.chunk_overlap, s.length());
                    compared += 1;
                    if got != want {
                        let at = got.iter().zip(&want).position(|(g, w)| g != w);
                        failures.push(format!(
                            "{id} {:?} size {} overlap {} {unit:?}: first difference at chunk \
                             {at:?} of {}/{}: {:?} ≠ reference {:?}",
                            doc.name,
                            s.chunk_size,
                            s.chunk_overlap,
                            got.len(),
                            want.len(),
                            at.and_then(|i| got.get(i)),
                            at.and_then(|i| want.get(i)),
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(compared, 2 * SIZES.len() * OVERLAPS.len() * docs.len());
    assert!(
        failures.is_empty(),
        "{} of {compared} differ, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn recursive_equals_the_reference_chunk_for_chunk() {
    equals_the_reference(StrategyId::Recursive, reference_recursive);
}

#[test]
fn sentence_equals_the_reference_chunk_for_chunk() {
    equals_the_reference(StrategyId::Sentence, reference_sentences);
}

#[test]
fn the_reference_agrees_with_the_edge_cases() {
    no_hang::ensure();
    let cl = Length::Tokens(Encoding::Cl100kBase);
    let texts = |text: &str, size, overlap, unit| -> Vec<String> {
        reference_recursive(text, size, overlap, unit)
            .into_iter()
            .map(|(a, b, _)| text[a..b].to_string())
            .collect()
    };
    assert_eq!(
        texts("\n\nHello there friend\n\nSecond part", 5, 0, cl),
        ["\n\nHello there friend\n\n", "Second part"]
    );
    assert_eq!(
        texts(
            "one two three four five six seven eight\n\nnine ten",
            9,
            3,
            cl
        ),
        ["one two three four five six seven eight\n\n", "nine ten"]
    );
    let cjk = "猫".repeat(200);
    let lens: Vec<usize> = texts(&cjk, 50, 0, cl)
        .iter()
        .map(|t| t.chars().count())
        .collect();
    assert_eq!(lens, [[16; 12].as_slice(), &[8]].concat());
    assert_eq!(texts("", 5, 0, cl), Vec::<String>::new());
    assert_eq!(
        texts("Para A.\n\nPara B.\n\nPara C.", 3, 0, cl),
        ["Para A.\n\n", "Para B.\n\n", "Para C."]
    );
    assert_eq!(
        texts("Intro.\n\n```\na\nb\n```\n\nAfter text here.", 9, 0, cl),
        ["Intro.\n\n", "```\na\nb\n```\n\n", "After text here."]
    );
    assert_eq!(
        texts("abcdefgh ij", 3, 0, Length::Characters),
        ["abc", "def", "gh ", "ij"]
    );
}
