//! The split step ("pre-tokenization"): cuts text into the pieces that BPE merges separately,
//! identical to tiktoken's regexes for cl100k_base and o200k_base, by a hand-written scanner
//! that runs in linear time with no backtracking.
//!
//! Each function below implements one pattern's alternation in its order (leftmost-first, as a
//! backtracking engine tries it). The patterns, from tiktoken-rs 0.12.1:
//!
//! cl100k_base:
//! `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`
//!
//! o200k_base:
//! `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! `|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! `|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
//!
//! The look-ahead `\s+(?!\S)` needs backtracking in a regex engine (tiktoken-rs overflows its
//! stack on a million spaces, edge case E14); here it is one comparison: a whitespace run of two
//! or more characters followed by a non-space gives back its last character.

use super::classes::{self, is_other, L, LOWERISH, N, UPPERISH, WS};

/// Which split pattern to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// cl100k_base's pattern.
    Cl100k,
    /// o200k_base's pattern.
    O200k,
}

/// The character at byte `i` with its class bits and length in bytes, or `None` at the end.
///
/// Always inlined, with the decoding of a non-ASCII character kept out of line: the scanner
/// calls this for every character, and most are ASCII.
#[inline(always)]
fn at(text: &str, i: usize) -> Option<(char, u16, usize)> {
    let bytes = text.as_bytes();
    let &byte = bytes.get(i)?;
    if byte < 0x80 {
        return Some((char::from(byte), classes::ASCII[usize::from(byte)], 1));
    }
    if byte < 0xE0 {
        // Two bytes (Latin, Greek, Cyrillic, Hebrew, Arabic letters): decoded here, since
        // `i` is a character boundary the continuation byte is there.
        let cp = u32::from(byte & 0x1F) << 6 | u32::from(bytes[i + 1] & 0x3F);
        let c = char::from_u32(cp)?;
        return Some((c, classes::of_bmp(cp), 2));
    }
    at_multibyte(text, i)
}

/// [`at`] for a character of three or four bytes (lead byte `0xE0` or above): `i` is a
/// character boundary (every offset the scanner reaches is), so the lead byte gives the length,
/// and the character is decoded from its bytes without searching for its end again.
#[inline(never)]
fn at_multibyte(text: &str, i: usize) -> Option<(char, u16, usize)> {
    let b = text.as_bytes();
    let lead = u32::from(b[i]);
    let cont = |k: usize| u32::from(b[i + k] & 0x3F);
    let (cp, n) = if lead < 0xF0 {
        ((lead & 0x0F) << 12 | cont(1) << 6 | cont(2), 3)
    } else {
        (
            (lead & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3),
            4,
        )
    };
    let c = char::from_u32(cp)?;
    Some((c, classes::of(c), n))
}

/// End of the run of bytes from `i` that meet `want` (ASCII tests: the scanner's fast step
/// inside words, before it looks at a character of more bytes).
#[inline(always)]
fn ascii_run(bytes: &[u8], mut i: usize, want: impl Fn(u8) -> bool) -> usize {
    while let Some(&b) = bytes.get(i) {
        if !want(b) {
            break;
        }
        i += 1;
    }
    i
}

/// End of the run of characters of `class` from byte `i`: ASCII bytes by `ascii` (the class's
/// ASCII members), then, if the run goes on past ASCII, character by character.
#[inline(always)]
fn class_run(text: &str, i: usize, ascii: impl Fn(u8) -> bool, class: u16) -> usize {
    let e = ascii_run(text.as_bytes(), i, ascii);
    match text.as_bytes().get(e) {
        Some(&b) if b >= 0x80 => run(text, e, |_, b| b & class != 0),
        _ => e,
    }
}

/// `\p{L}++` from byte `i`, whose character is a letter.
#[inline(always)]
fn letters(text: &str, i: usize) -> usize {
    class_run(text, i, |b| b.is_ascii_alphabetic(), L)
}

/// End of the run of characters from byte `i` whose class bits meet `want`.
#[inline(always)]
fn run(text: &str, mut i: usize, want: impl Fn(char, u16) -> bool) -> usize {
    while let Some((c, b, n)) = at(text, i) {
        if !want(c, b) {
            break;
        }
        i += n;
    }
    i
}

/// `(?i:[sdmt]|ll|ve|re)` after an apostrophe at byte `i − 1`: the length of the suffix
/// matched at `i`, if any. Case-insensitive as in the regex crate (simple case folding, so
/// `ſ` (U+017F) matches `s`).
#[inline]
fn contraction(text: &str, i: usize) -> Option<usize> {
    let b = &text.as_bytes()[i..];
    let lower = |k: usize| b.get(k).map(|x| x.to_ascii_lowercase());
    match lower(0)? {
        b's' | b'd' | b'm' | b't' => Some(1),
        b'l' if lower(1) == Some(b'l') => Some(2),
        b'v' | b'r' if lower(1) == Some(b'e') => Some(2),
        _ if text[i..].starts_with('\u{17F}') => Some(2),
        _ => None,
    }
}

/// Optional `'` + contraction at byte `e`: the end after it.
#[inline]
fn with_contraction(text: &str, e: usize) -> usize {
    if text.as_bytes().get(e) == Some(&b'\'') {
        if let Some(n) = contraction(text, e + 1) {
            return e + 1 + n;
        }
    }
    e
}

/// The whitespace branches, from a whitespace character at `pos`:
/// cl100k `\s++$|\s*[\r\n]|\s+(?!\S)|\s`, o200k `\s*[\r\n]+|\s+(?!\S)|\s+`.
fn whitespace(text: &str, pos: usize, pattern: Pattern) -> usize {
    // ASCII whitespace by byte (a run of line breaks or spaces can be megabytes long).
    let ascii_ws = |b: u8| b < 0x80 && classes::ASCII[usize::from(b)] & WS != 0;
    let end = class_run(text, pos, ascii_ws, WS);
    if end == text.len() && pattern == Pattern::Cl100k {
        return end; // \s++$
    }
    // \s*[\r\n] (and [\r\n]+): up to and including the run's last line break.
    if let Some(nl) = text.as_bytes()[pos..end]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
    {
        return pos + nl + 1;
    }
    if end == text.len() {
        return end; // \s+(?!\S) at the end of the text
    }
    // \s+(?!\S) gives back the last character when the run has two or more; else \s / \s+.
    let last = text[pos..end].chars().next_back().map_or(0, char::len_utf8);
    if end - last > pos {
        end - last
    } else {
        end
    }
}

/// ` ?[^\s\p{L}\p{N}]+` then `tail`: the punctuation branch, if it matches at `pos`.
fn punctuation(text: &str, pos: usize, tail: &[u8]) -> Option<usize> {
    let (c, _, n) = at(text, pos)?;
    let q = match at(text, pos + n) {
        Some((_, b, _)) if c == ' ' && is_other(b) => pos + n,
        _ => pos,
    };
    let (_, b, _) = at(text, q)?;
    if !is_other(b) {
        return None;
    }
    let e = run(text, q, |_, b| is_other(b));
    Some(
        e + text.as_bytes()[e..]
            .iter()
            .take_while(|x| tail.contains(x))
            .count(),
    )
}

/// `\p{N}{1,3}` at `pos`, whose character is a number.
fn digits(text: &str, pos: usize) -> usize {
    let mut e = pos;
    for _ in 0..3 {
        match at(text, e) {
            Some((_, b, n)) if b & N != 0 => e += n,
            _ => break,
        }
    }
    e
}

/// cl100k_base: the end of the piece that starts at `pos` (`pos < text.len()`).
fn next_cl100k(text: &str, pos: usize) -> usize {
    let Some((c, b, n)) = at(text, pos) else {
        return text.len();
    };
    if c == '\'' {
        if let Some(k) = contraction(text, pos + 1) {
            return pos + 1 + k;
        }
    }
    if b & L != 0 {
        return letters(text, pos);
    }
    if b & N != 0 {
        return digits(text, pos);
    }
    if c != '\r' && c != '\n' {
        if let Some((_, nb, _)) = at(text, pos + n) {
            if nb & L != 0 {
                return letters(text, pos + n);
            }
        }
    }
    if let Some(e) = punctuation(text, pos, b"\r\n") {
        return e;
    }
    whitespace(text, pos, Pattern::Cl100k)
}

/// o200k_base's first branch from `q`: `U*W+` then an optional contraction, with the
/// backtracking of the greedy `U*` done by hand.
fn o200k_lower(text: &str, q: usize) -> Option<usize> {
    let k = run(text, q, |_, b| b & UPPERISH != 0);
    if let Some((_, b, _)) = at(text, k) {
        if b & LOWERISH != 0 {
            return Some(with_contraction(
                text,
                run(text, k, |_, b| b & LOWERISH != 0),
            ));
        }
    }
    // Give back characters of U* until one can start W+: the last W character before k; W+
    // then ends right after it (the characters after it, up to k, are not in W).
    let (j, c) = text[q..k]
        .char_indices()
        .rev()
        .find(|&(_, c)| classes::of(c) & LOWERISH != 0)?;
    Some(with_contraction(text, q + j + c.len_utf8()))
}

/// o200k_base's second branch from `q`: `U+W*` then an optional contraction.
fn o200k_upper(text: &str, q: usize) -> Option<usize> {
    let k = run(text, q, |_, b| b & UPPERISH != 0);
    (k > q).then(|| with_contraction(text, run(text, k, |_, b| b & LOWERISH != 0)))
}

/// o200k_base when the piece starts with an ASCII byte `b0` at `pos` and every character the
/// letter branches look at is ASCII: the piece's end, or `None` for the general path.
///
/// In ASCII, `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]` is `[A-Z]` and `[\p{Ll}\p{Lm}\p{Lo}\p{M}]` is
/// `[a-z]`, disjoint. A word `[A-Z]*[a-z]+` ends at its lower-case run's end (branch one); an
/// upper-case word has no lower-case letter to give back to, so branch one fails with and
/// without the prefix and branch two takes the whole word. Either way the prefix
/// `[^\r\n\p{L}\p{N}]` is taken when there is one. The run that ends the piece must be
/// followed by an ASCII byte or the text's end: a character of more bytes may be a letter or a
/// mark that continues it.
#[inline(always)]
fn o200k_ascii(text: &str, pos: usize, b0: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let q = if b0.is_ascii_alphabetic() {
        pos
    } else if b0.is_ascii_digit() {
        return Some(digits(text, pos));
    } else {
        match bytes.get(pos + 1) {
            Some(&b1) if b1.is_ascii_alphabetic() && b0 != b'\r' && b0 != b'\n' => pos + 1,
            Some(&b1) if b1 >= 0x80 => return None,
            // No letter can start at `pos + 1` (or `b0`, a line break, cannot be the prefix):
            // neither letter branch matches, and `b0` is not a number.
            _ => {
                return Some(
                    punctuation(text, pos, b"\r\n/")
                        .unwrap_or_else(|| whitespace(text, pos, Pattern::O200k)),
                )
            }
        }
    };
    // Only the bytes up to the piece's end and the one after it are read, so the scan stays
    // linear on a long run of letters that change case (`aBaBaB…`).
    let k = ascii_run(bytes, q, |b| b.is_ascii_uppercase());
    let end = match bytes.get(k) {
        Some(&b) if b >= 0x80 => return None,
        Some(&b) if b.is_ascii_lowercase() => {
            let m = ascii_run(bytes, k, |b| b.is_ascii_lowercase());
            if bytes.get(m).is_some_and(|&b| b >= 0x80) {
                return None;
            }
            m
        }
        // An upper-case word (`k > q`: the byte at `q` is a letter and not lower-case).
        _ => k,
    };
    Some(with_contraction(text, end))
}

/// o200k_base: the end of the piece that starts at `pos` (`pos < text.len()`).
fn next_o200k(text: &str, pos: usize) -> usize {
    if let Some(&b0) = text.as_bytes().get(pos) {
        if b0 < 0x80 {
            if let Some(e) = o200k_ascii(text, pos, b0) {
                return e;
            }
        }
    }
    let Some((c, b, n)) = at(text, pos) else {
        return text.len();
    };
    // `[^\r\n\p{L}\p{N}]?` is greedy: try with this character as the prefix, then without.
    let prefix = c != '\r' && c != '\n' && b & (L | N) == 0;
    for branch in [o200k_lower, o200k_upper] {
        if prefix {
            if let Some(e) = branch(text, pos + n) {
                return e;
            }
        }
        if let Some(e) = branch(text, pos) {
            return e;
        }
    }
    if b & N != 0 {
        return digits(text, pos);
    }
    if let Some(e) = punctuation(text, pos, b"\r\n/") {
        return e;
    }
    whitespace(text, pos, Pattern::O200k)
}

/// The end (byte offset) of the piece that starts at `pos`. Always `> pos` when
/// `pos < text.len()`, so iteration always advances.
#[inline]
pub(crate) fn next_piece_end(pattern: Pattern, text: &str, pos: usize) -> usize {
    let e = match pattern {
        Pattern::Cl100k => next_cl100k(text, pos),
        Pattern::O200k => next_o200k(text, pos),
    };
    if e > pos {
        e
    } else {
        // Unreachable (every branch consumes a character); advance one character regardless.
        pos + text[pos..].chars().next().map_or(1, char::len_utf8)
    }
}

/// Iterates over the pieces of `text[from..]` as byte ranges `(start, end)`, resuming the
/// split exactly as if it had run from the start (every piece end is a resumable point).
pub(crate) fn pieces(
    pattern: Pattern,
    text: &str,
    from: usize,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let start = pos;
        pos = next_piece_end(pattern, text, pos);
        Some((start, pos))
    })
}

/// A bound on what [`next_piece_end`] reads to find the piece `[s, e)` it returned from `s`:
/// every byte it looks at (every character a run stops at, every byte of a contraction it
/// tries, every branch it tries and gives up) lies below the returned offset, or the offset is
/// `text.len()`. So for any `b` with `bound ≤ b ≤ text.len()`,
/// `next_piece_end(pattern, &text[..b], s) == e`: a slice of the text that starts at `s` and
/// ends at or after the bound splits its first piece exactly as the whole text does. This lets
/// a slice's tokens reuse the whole text's tokens for the pieces far enough from its end
/// (`indexed`).
///
/// The scanner reads forward only, from `s`: each branch reads the piece itself, the
/// character right after a run (at most 4 bytes), a contraction's up to 3 bytes after an
/// apostrophe, and two runs that may go on past the piece: the whitespace run from `s` (the
/// `\s*[\r\n]` and `\s+(?!\S)` branches look at its end) and, for o200k_base, the run of
/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]` from `s` or after a one-character prefix (the greedy
/// `U*` of the letter branches, given back when no lower-case letter follows). The bound is
/// the furthest of these ends plus 4 bytes, capped at the text's end.
pub(crate) fn piece_reach(pattern: Pattern, text: &str, s: usize, e: usize) -> usize {
    let mut far = e;
    if let Some((_, b, n)) = at(text, s) {
        if b & WS != 0 {
            far = far.max(run(text, s, |_, b| b & WS != 0));
        }
        if pattern == Pattern::O200k {
            far = far.max(run(text, s, |_, b| b & UPPERISH != 0));
            far = far.max(run(text, s + n, |_, b| b & UPPERISH != 0));
        }
    }
    (far + 4).min(text.len())
}
