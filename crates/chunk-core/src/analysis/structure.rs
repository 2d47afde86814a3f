//! The structure report of one strategy's chunks: the ways a cut can break the document's
//! structure, counted per chunk, so that strategies can be told apart on a user's own text.
//!
//! Four faults, each a property of one chunk (a chunk counts once per kind):
//! - **code cut** ([`StructureFaults::code_cut`]): the chunk starts or ends inside a fenced
//!   code block ([`fenced_code_blocks`](crate::segment::markdown::fenced_code_blocks), after the first character of its opening fence and
//!   before its end) at a place that is not between two lines of its code: inside a line of
//!   code, or inside or right after a fence line, so that the fence is apart from the code.
//!   Between two lines means at a line's start or at its end (before its line ending) in the
//!   block's body, after its first line's start and before the closing fence's line; a place
//!   after the closing fence's marks with only whitespace left of the block is clean too.
//! - **fence only** ([`StructureFaults::fence_only`]): the chunk's text has at least one
//!   non-blank line and every non-blank line is a fence line (``` or ~~~ after any indentation);
//!   text-splitter issue 798.
//! - **separator-led** ([`StructureFaults::separator_led`]): a chunk that does not start the
//!   document starts with the separator of what came before it: a line break, whitespace in
//!   the middle of a line (indentation at a line's start is not a separator), or a punctuation
//!   mark that closes a clause or sentence (`. , ; : ! ? ) ] } » ” ’`) right after text that is
//!   neither whitespace nor such a mark.
//!   LangChain fixed the same fault with its "end" separator placement (PR 21665). The first
//!   character is read from the document at the chunk's start when that is a char boundary,
//!   else from the chunk's own text.
//! - **heading changed** ([`StructureFaults::heading_changed`]): a markdown heading
//!   ([`sections`](crate::segment::markdown::sections); not the first line of the document) starts inside the chunk after some
//!   non-whitespace text of it, so the chunk spans two heading paths.

use crate::segment::markdown::{CodeBlock, Outline};
use crate::segment::CLOSING;
use crate::strategy::Chunks;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Counts of chunks with each structure fault (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureFaults {
    /// Chunks cut inside a code block other than between two of its lines.
    pub code_cut: usize,
    /// Chunks that are only fence lines.
    pub fence_only: usize,
    /// Chunks that start with a separator.
    pub separator_led: usize,
    /// Chunks whose heading path changes inside them.
    pub heading_changed: usize,
}

impl StructureFaults {
    /// The sum of the four counts (a chunk with two faults counts twice).
    pub fn total(&self) -> usize {
        self.code_cut + self.fence_only + self.separator_led + self.heading_changed
    }
}

/// The structure faults of `chunks`, cut from `text` whose outline is `outline`.
pub fn structure_faults(text: &str, outline: &Outline, chunks: &Chunks) -> StructureFaults {
    let mut out = StructureFaults::default();
    for c in &chunks.chunks {
        let own = c.text(text);
        let Range { start, end } = c.bytes.clone();
        let bad_cut = |p: usize| p > 0 && p < text.len() && !clean_in_code(text, &outline.code, p);
        if bad_cut(start) || bad_cut(end) {
            out.code_cut += 1;
        }
        if fence_only(&own) {
            out.fence_only += 1;
        }
        if start > 0 && separator_led(text, start, &own) {
            out.separator_led += 1;
        }
        let lo = outline.headings.partition_point(|&h| h <= start);
        let changed = outline.headings[lo..]
            .iter()
            .take_while(|&&h| h < end)
            .any(|&h| text.get(start..h).is_some_and(|t| !t.trim().is_empty()));
        if changed {
            out.heading_changed += 1;
        }
    }
    out
}

/// False when `p` is inside a code block (after its fence's first character, before its end)
/// and not between two lines of its code.
fn clean_in_code(text: &str, code: &[CodeBlock], p: usize) -> bool {
    let i = code.partition_point(|b| b.bytes.start < p);
    let Some(b) = i.checked_sub(1).map(|i| &code[i]) else {
        return true;
    };
    if p <= b.fence || p >= b.bytes.end {
        return true;
    }
    // After the closing fence (a stripped chunk ends at its marks): nothing of the block left.
    if p >= b.body.end
        && text
            .get(p..b.bytes.end)
            .is_some_and(|t| t.trim().is_empty())
    {
        return true;
    }
    let bytes = text.as_bytes();
    let line_start = p > b.body.start && matches!(bytes[p - 1], b'\n' | b'\r');
    let line_end = p > b.body.start && matches!(bytes.get(p), Some(b'\n' | b'\r'));
    p < b.body.end && (line_start || line_end)
}

/// True when `s` has a non-blank line and all its non-blank lines are fence lines.
fn fence_only(s: &str) -> bool {
    let mut lines = s
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    lines.peek().is_some() && lines.all(|l| l.starts_with("```") || l.starts_with("~~~"))
}

/// True when a chunk starting at byte `start` of `text` (own text `own`) starts with a
/// separator (see the module comment).
fn separator_led(text: &str, start: usize, own: &str) -> bool {
    let first = match text.get(start..) {
        Some(rest) => rest.chars().next(),
        None => own.chars().next(),
    };
    let Some(first) = first else {
        return false;
    };
    let before = text.get(..start).and_then(|t| t.chars().next_back());
    let at_line_start = before.is_none_or(|c| {
        matches!(
            c,
            '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    });
    match first {
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}' => true,
        c if c.is_whitespace() => !at_line_start,
        c if CLOSING.contains(&c) => {
            before.is_some_and(|c| !c.is_whitespace() && !CLOSING.contains(&c))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
    use crate::tokenizer::Encoding;

    fn faults(id: StrategyId, text: &str, size: usize, overlap: usize) -> StructureFaults {
        let s = Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        };
        let c = run(
            &*chunker(id, &s).expect("valid"),
            text,
            Encoding::Cl100kBase,
        )
        .expect("ok");
        structure_faults(text, &Outline::new(text), &c)
    }

    fn fenced() -> String {
        let lines: String = (0..40).map(|i| format!("let x{i} = {i};\n")).collect();
        format!("# Setup\n\nInstall it like this:\n\n```rust\n{lines}```\n\n## Next\n\nDone.\n")
    }

    #[test]
    fn the_field_cases_are_faults_of_fixed_windows_and_not_of_recursive() {
        let text = "Para A.\n\nPara B.\n\nPara C.";
        // Fixed windows of 2 tokens: "Para A" | ".\n\nPara" | " B.\n\n" | "Para C" | ".":
        // three start with the separator of the text before them.
        assert_eq!(faults(StrategyId::Fixed, text, 2, 0).separator_led, 3);
        assert_eq!(
            faults(StrategyId::Recursive, text, 3, 0),
            StructureFaults::default()
        );
        let text = fenced();
        let fixed = faults(StrategyId::Fixed, &text, 50, 0);
        assert!(fixed.code_cut > 0 && fixed.separator_led > 0, "{fixed:?}");
        for id in [
            StrategyId::Recursive,
            StrategyId::Sentence,
            StrategyId::Markdown,
        ] {
            let f = faults(id, &text, 50, 0);
            assert_eq!(
                (f.code_cut, f.fence_only, f.separator_led),
                (0, 0, 0),
                "{id}"
            );
        }
    }

    #[test]
    fn each_fault_by_hand() {
        let code = "x\n\n```py\na = 1\nb = 2\n```\n# H\ntext";
        let o = Outline::new(code);
        let clean: Vec<usize> = (1..code.len())
            .filter(|&p| clean_in_code(code, &o.code, p))
            .collect();
        // Inside the block (after its first backtick at 3, before its end at 25) only the
        // ends and starts of "a = 1" and "b = 2" after the first line's start are clean, and
        // the end of the closing fence's marks (24, before its line feed).
        let inside: Vec<usize> = clean.iter().copied().filter(|&p| p > 3 && p < 25).collect();
        assert_eq!(inside, [14, 15, 20, 24]);
        assert_eq!(&code[14..15], "\n");
        assert!(
            fence_only("  ```py\n\n")
                && fence_only("~~~\n```")
                && !fence_only("```\nx")
                && !fence_only(" \n")
        );
        assert!(separator_led("a b", 1, " b"));
        assert!(separator_led("a\nb", 1, "\nb"));
        assert!(!separator_led("a\n  b", 2, "  b"));
        assert!(separator_led("end. x", 3, ". x"));
        assert!(!separator_led("a (b)", 2, "(b)"));
        assert_eq!(o.headings, [25]);
    }
}
