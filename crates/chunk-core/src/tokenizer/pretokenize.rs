//! The split step ("pre-tokenization"): cuts text into the pieces that BPE merges separately,
//! identical to tiktoken's regexes for cl100k_base and o200k_base, in linear time.
//!
//! tiktoken's patterns use a look-ahead, `\s+(?!\S)`, that needs a backtracking engine (and
//! overflows its stack on a million spaces, edge case E14). Here the pattern keeps only `\s+`
//! for that branch and runs on the `regex` crate (finite automata, no backtracking); the
//! look-ahead is then applied by hand: a whitespace run of two or more characters matched by that
//! branch and followed by a non-space gives back its last character, which starts the next piece
//! — exactly what `\s+(?!\S)` does by backtracking one character.
//! `cl100k_base`'s `\s++$` becomes `\s+$` (same match: `$` is the end of the text).

use regex::Regex;

/// cl100k_base's pattern with the look-ahead branch rewritten (see the module docs).
/// Source: tiktoken-rs 0.12.1 `cl100k_base()` (possessive quantifiers there change nothing for
/// these branches, since what follows each of them can never match what it gave back).
pub(crate) const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+";

/// o200k_base's pattern with the look-ahead branch rewritten (see the module docs).
/// Source: tiktoken-rs 0.12.1 `O200K_BASE_PAT_STR`.
pub(crate) const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+",
);

/// Returns the end (byte offset) of the piece that starts at `pos`, `pos < text.len()`.
///
/// `re` is one of the patterns above. Every character is matched by some branch, so a match
/// always starts at `pos`; should it not, the bytes up to the match form a piece of their own
/// (nothing is ever skipped).
pub(crate) fn next_piece_end(re: &Regex, text: &str, pos: usize) -> usize {
    let Some(m) = re.find_at(text, pos) else {
        return text.len();
    };
    if m.start() != pos {
        return m.start();
    }
    let end = m.end();
    if end < text.len() {
        let piece = &text[pos..end];
        let mut chars = piece.char_indices().rev();
        if let Some((last_at, last)) = chars.next() {
            // Only the bare `\s+` branch can end in a non-newline space before the text's end.
            if last.is_whitespace() && last != '\n' && last != '\r' && chars.next().is_some() {
                return pos + last_at;
            }
        }
    }
    end
}

/// Iterates over the pieces of `text[from..]` as byte ranges `(start, end)`, resuming the
/// split exactly as if it had run from the start (every piece end is a resumable point).
pub(crate) fn pieces<'a>(
    re: &'a Regex,
    text: &'a str,
    from: usize,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let start = pos;
        pos = next_piece_end(re, text, pos);
        Some((start, pos))
    })
}
