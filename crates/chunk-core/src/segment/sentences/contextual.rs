//! The contextual sentence rule: a terminator ends a sentence or not by what stands around it.
//!
//! The word lists named below (`PREFIXES`, `CAPITAL_PREFIXES`, `UNITS`, `STARTERS`) are in
//! `segment/sentences/words.rs`.
//!
//! Terminators: `.` `?` `!` `…` `‼` `⁇` `⁈` `⁉`, the Arabic `؟` `۔`, and (below) the CJK full
//! stops and the dandas. A run of them ends a sentence only when whitespace follows it (after
//! any closing quotes, brackets or emphasis marks) and the next word does not start with a
//! lower-case letter or, after full stops only, a digit. After a single full stop the word
//! before it decides the rest:
//! - an abbreviation that stands before a name (`PREFIXES`: "Dr. Lee", "ул. Ленина",
//!   "np. Kraków"; in capitals, compared as written, `CAPITAL_PREFIXES`: "TP. Hồ Chí Minh",
//!   while "OS." or "NY." is no abbreviation) does not end one; "et al." does, and "им." /
//!   "im." does before a sentence opener (the pronoun);
//! - a unit or year abbreviation (`UNITS`) ends one after a number ("1799 г. В Москве",
//!   "1941–1945 гг.", "It took 5 ms. Then") and stands before a name otherwise ("г. Москва");
//! - the word runs back to whitespace, an opening mark, a dash or a slash ("guest—Dr. Smith",
//!   "Mr./Mrs. Smith");
//! - an upper-case initial ("J. R. Smith") or an acronym with full stops ("U.S.") ends one only
//!   when the next word is a common sentence opener (`STARTERS`: "the U.S. How about you?"
//!   against "the U.S. Government") and not itself an initial;
//! - anything else ends one ("Co. It closed", "$100.00. It is").
//!
//! A dash and a lower-case word after a terminator are a speech tag, not a new sentence
//! ("«Ты придёшь?» — спросила она.").
//!
//! Ellipses: "..." or "…" before a lower-case word does not end one; spaced ". . ." does not
//! end one before a capital either, a fourth full stop does (". . . . Next"); "word. . . . Next"
//! ends after the first full stop (the ellipsis opens the next sentence); "[...]", "[…]" and
//! "(...)" are omissions, never an end.
//!
//! Without a terminator a sentence also starts: at a list item's marker ("1) … 2) …",
//! "a. … b. …", "• 9. … • 10. …"; a numbered marker at the start of a line, or a run of
//! consecutive markers that begins where a list may begin, see `list_markers`; the marker's own
//! full stop ends nothing), at a bullet (`•` and friends) that follows whitespace, after a blank
//! line, and after a line break when the line it ends is markdown structure (a heading `#`, a
//! table row `|`, a quote `>`, a list item `-`, `*`, `+`, a bullet, a code fence) or the next
//! line is that or a numbered item (`1.`, `1)`). A single line break in running text (mail
//! wrapped at 72 columns) does not end a sentence.
//!
//! The CJK full stops `。！？｡` and the dandas `।` `॥` end a sentence with no space after them,
//! except inside a quotation or title bracket that goes on ("《摔跤吧！爸爸》") or when a
//! closing quote or bracket after them is followed by more text ("彼は「本当に来るの？」と聞いた。").
//!
//! The rules are this project's own; they are scored against the 48 English exemplars of
//! Pragmatic Segmenter's Golden Rules, against cases in every UI language and against a
//! held-out set (`tests/sentences.rs`).

use super::words::{contains, CAPITAL_PREFIXES, PREFIXES, STARTERS, UNITS};

/// Where each sentence starts: byte offsets into `text`, ascending, the first 0 (for a
/// non-empty text); sentences run from one start to the next, whitespace after a sentence
/// included. Empty text gives none.
pub fn contextual_starts(text: &str) -> Vec<usize> {
    if text.is_empty() {
        return Vec::new();
    }
    let lists = list_markers(text);
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut marker = lists.iter().peekable();
    let mut at = 0;
    // Where the current line starts (no line feed is ever skipped over unread).
    let mut line_from = 0;
    while at < bytes.len() {
        // Only a few bytes can start a character the rule looks at; skip the rest without
        // decoding (a byte table, since this loop is the rule's whole cost on plain prose).
        let next_marker = marker.peek().map_or(bytes.len(), |m| m.start);
        let hit = bytes[at..next_marker]
            .iter()
            .position(|&b| INTERESTING[usize::from(b)])
            .map_or(next_marker, |i| at + i);
        if hit == next_marker {
            let Some(m) = marker.next() else { break };
            // A list item that continues its list starts a sentence, and its own full stop is
            // not a terminator.
            starts.push(m.start);
            at = m.after;
            continue;
        }
        at = hit;
        let c = text[at..].chars().next().unwrap_or_default();
        let mut resume = at + c.len_utf8();
        match c {
            '\n' => {
                // The whole run of whitespace is read here once (the blank lines in it start
                // no line of their own), so a text of line feeds stays linear.
                let (start, next_at) = line_break_start(text, line_from, at);
                starts.extend(start);
                resume = next_at;
                line_from = next_at;
            }
            _ if is_bullet(c) && text[..at].ends_with(char::is_whitespace) => starts.push(at),
            _ if is_terminator(c) => {
                let (after, start) = terminator(text, at, c);
                starts.extend(start);
                resume = after;
            }
            _ => {}
        }
        at = resume;
        // Markers inside what was just read (a terminator's closing marks) are passed over.
        while marker.next_if(|m| m.start < at).is_some() {}
    }
    starts.retain(|&s| s < text.len());
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// Bytes that start a character [`contextual_starts`] looks at: `.`, `?`, `!`, a line feed, and
/// the lead bytes of the multi-byte terminators and bullets (U+2022…, U+3002, U+FF01…, U+0964…,
/// U+061F, U+06D4).
const INTERESTING: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let bytes = [b'.', b'?', b'!', b'\n', 0xE2, 0xE3, 0xEF, 0xE0, 0xD8, 0xDB];
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// A list item's marker: `start` (the bullet, or the number / letter) up to `after` (the first
/// byte after the marker's `.`, `)` or `.)`).
#[derive(Debug, Clone, Copy)]
struct Marker {
    start: usize,
    after: usize,
}

/// The form of a list marker; a list continues only within one form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    NumberDot,
    NumberDotParen,
    NumberParen,
    LetterDot,
    LetterParen,
}

struct Candidate {
    marker: Marker,
    form: Form,
    value: u32,
    /// Only spaces or tabs before it on its line.
    line_start: bool,
    /// Where a list may begin: the text's or a line's start, after a bullet, or after a
    /// terminator or a colon ("Steps: 1. …").
    opens: bool,
}

/// The farthest apart two items of one list may start, in bytes.
const MAX_ITEM_BYTES: usize = 2000;

/// Markers of list items that belong to a list: a numbered marker at the start of a line, or
/// a run of markers of one form with consecutive values, each within [`MAX_ITEM_BYTES`] of the
/// one before, whose first one stands where a list may begin ([`Candidate::opens`]). So "1. The
/// first item 2. The second item" is a list, "room 12. Then room 13." is not.
fn list_markers(text: &str) -> Vec<Marker> {
    let bytes = text.as_bytes();
    // Every marker ends in ". " or ") ": find those (a SIMD search) and read back from them,
    // instead of looking at every word.
    let mut marks: Vec<usize> = memchr::memmem::find_iter(bytes, b". ")
        .chain(memchr::memmem::find_iter(bytes, b") "))
        .collect();
    marks.sort_unstable();
    let candidates: Vec<Candidate> = marks
        .into_iter()
        .filter_map(|mark| candidate(text, mark))
        .collect();
    let mut keep = vec![false; candidates.len()];
    let mut last: [Option<usize>; 5] = [None; 5];
    // Per form, the last marker that begins or continues a list.
    for (i, c) in candidates.iter().enumerate() {
        let slot = c.form as usize;
        let continues = last[slot].is_some_and(|j| {
            let p = &candidates[j];
            p.value + 1 == c.value && c.marker.start - p.marker.start <= MAX_ITEM_BYTES
        });
        if continues {
            keep[i] = true;
            if let Some(j) = last[slot] {
                keep[j] = true;
            }
        }
        if c.line_start && !matches!(c.form, Form::LetterDot | Form::LetterParen) {
            keep[i] = true;
        }
        if continues || c.opens {
            last[slot] = Some(i);
        }
    }
    candidates
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c.marker))
        .collect()
}

/// The list marker whose `.` or `)` is at `mark` (a space follows it), if there is one: a
/// bullet and spaces (optional), then one to three digits or one ASCII lower-case letter, then
/// `.`, `)` or `.)`, then a space and the item's text; the marker opens the text, follows
/// whitespace, or follows a bullet that does.
fn candidate(text: &str, mark: usize) -> Option<Candidate> {
    let bytes = text.as_bytes();
    let paren = bytes[mark] == b')';
    let dot_paren = paren && mark > 0 && bytes[mark - 1] == b'.';
    let body_end = if dot_paren { mark - 1 } else { mark };
    let digits = bytes[..body_end]
        .iter()
        .rev()
        .take(4)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let (body_start, letter, value) = match digits {
        1..=3 => {
            let start = body_end - digits;
            let value = text[start..body_end].parse().ok()?;
            (start, false, value)
        }
        0 if body_end > 0 && bytes[body_end - 1].is_ascii_lowercase() && !dot_paren => {
            let b = bytes[body_end - 1];
            (body_end - 1, true, u32::from(b - b'a') + 1)
        }
        _ => return None,
    };
    // The item's text follows the space.
    if bytes.get(mark + 2).is_none_or(u8::is_ascii_whitespace) {
        return None;
    }
    // What stands before the body: nothing, whitespace, or a bullet (after spaces) that opens
    // the text or follows whitespace.
    let before = &text[..body_start];
    let word_starts_after =
        |prefix: &str| prefix.is_empty() || prefix.ends_with(char::is_whitespace);
    let spaced = before.trim_end_matches(' ');
    let start = match spaced.chars().next_back() {
        Some(c) if is_bullet(c) && word_starts_after(&spaced[..spaced.len() - c.len_utf8()]) => {
            spaced.len() - c.len_utf8()
        }
        _ if word_starts_after(before) => body_start,
        _ => return None,
    };
    let form = match (letter, paren, dot_paren) {
        (false, _, true) => Form::NumberDotParen,
        (false, false, _) => Form::NumberDot,
        (false, true, _) => Form::NumberParen,
        (true, false, _) => Form::LetterDot,
        (true, true, _) => Form::LetterParen,
    };
    // Only spaces or tabs between the line's start and the marker (scanned back over those
    // alone, so a long line costs nothing).
    let indent = text[..start].trim_end_matches([' ', '\t']);
    let line_start = indent.is_empty() || indent.ends_with('\n');
    let bulleted = start < body_start;
    let after_end = text[..start]
        .trim_end()
        .ends_with(|c: char| c == ':' || is_terminator(c) || is_closer(c));
    Some(Candidate {
        marker: Marker {
            start,
            after: mark + 1,
        },
        form,
        value,
        line_start,
        opens: line_start || bulleted || after_end,
    })
}

fn is_bullet(c: char) -> bool {
    matches!(c, '•' | '‣' | '◦' | '▪' | '⁃' | '●')
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '?' | '!' | '…' | '‼' | '⁇' | '⁈' | '⁉' | '؟' | '۔') || is_cjk_terminator(c)
}

/// Terminators that need no space after them: CJK full stops and the Devanagari dandas.
fn is_cjk_terminator(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '｡' | '।' | '॥')
}

/// Marks that close a quotation, a bracket or an emphasis and stay with the sentence before.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '”'
            | '’'
            | '»'
            | '›'
            | ')'
            | ']'
            | '}'
            | '」'
            | '』'
            | '）'
            | '〉'
            | '》'
            | '】'
            | '*'
            | '_'
            | '`'
    )
}

/// Marks that open a quotation or a bracket before a sentence's first word.
fn is_opener(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '“'
            | '‘'
            | '„'
            | '«'
            | '‹'
            | '('
            | '['
            | '{'
            | '¿'
            | '¡'
            | '「'
            | '『'
            | '（'
            | '《'
            | '【'
            | '*'
            | '_'
            | '`'
    )
}

/// Decides the terminator `c` at `at`: returns the byte from which the scan goes on (after the
/// run of terminators) and the start of the next sentence if this run ends one.
fn terminator(text: &str, at: usize, c: char) -> (usize, Option<usize>) {
    let bytes = text.as_bytes();
    // The run: terminators in a row; for full stops also ". . ." with single spaces.
    let mut end = at + c.len_utf8();
    let mut dots = usize::from(c == '.');
    let mut spaced = false;
    let mut exclaims = c != '.' && c != '…';
    let mut cjk = is_cjk_terminator(c);
    // The byte after the first full stop of a spaced run (where "word. . . . Next" splits).
    let first_end = end;
    loop {
        let rest = &text[end..];
        if let Some(next) = rest.chars().next().filter(|&n| is_terminator(n)) {
            dots += usize::from(next == '.');
            exclaims |= next != '.' && next != '…';
            cjk |= is_cjk_terminator(next);
            end += next.len_utf8();
        } else if dots > 0 && rest.starts_with(" .") && !exclaims {
            spaced = true;
            dots += 1;
            end += 2;
        } else {
            break;
        }
    }
    let attached = at > 0 && !bytes[at - 1].is_ascii_whitespace();
    // "[...]", "[…]" or "(...)": an omission, between brackets.
    let ellipsis = !exclaims && (dots >= 3 || c == '…');
    if ellipsis
        && at > 0
        && matches!(bytes[at - 1], b'[' | b'(')
        && text[end..].starts_with([']', ')'])
    {
        return (end, None);
    }
    // Closing marks after the run.
    let mut after = end;
    while let Some(n) = text[after..].chars().next().filter(|&n| is_closer(n)) {
        after += n.len_utf8();
    }
    let closed = after > end;
    let rest = &text[after..];
    let Some(next) = rest.chars().next() else {
        return (after, None);
    };
    if !next.is_whitespace() {
        // CJK: a full stop with no space after it ends the sentence at once, unless it stands
        // inside a quotation or a title that goes on ("《摔跤吧！爸爸》", "「来るの？」と").
        let start = (cjk && !closed && !inside_brackets(text, at)).then_some(after);
        return (after, start);
    }
    // The next word, after whitespace and opening marks.
    let word_at = after + rest.len() - rest.trim_start().len();
    let opened = text[word_at..].trim_start_matches(is_opener);
    let Some(first) = opened.chars().next() else {
        return (after, None);
    };
    let start = Some(word_at);
    // A dash before a lower-case word carries on the sentence as a speech tag
    // ("«Ты придёшь?» — спросила она.", "– Idę – powiedział.").
    let tagged = matches!(first, '—' | '–')
        && opened[first.len_utf8()..]
            .trim_start()
            .chars()
            .next()
            .is_some_and(char::is_lowercase);
    if first.is_lowercase() || tagged {
        return (after, None);
    }
    if cjk || exclaims {
        return (after, start);
    }
    if dots >= 2 || c == '…' {
        // "compounds. . . . The": the sentence ends after "compounds."; the ellipsis opens the
        // next one.
        if spaced && attached && dots == 4 && text[first_end..].starts_with(" .") {
            return (end, Some(first_end + 1));
        }
        // Unspaced ("...", "…") ends before a capital; spaced needs a fourth full stop.
        let ends = !spaced || dots >= 4;
        return (after, ends.then_some(word_at));
    }
    if first.is_ascii_digit() {
        return (after, None);
    }
    (after, full_stop_ends(text, at, opened).then_some(word_at))
}

/// Whether the full stop at `at`, followed by whitespace and the word `next` (which starts with
/// a capital or an uncased letter), ends a sentence: by the word before it.
fn full_stop_ends(text: &str, at: usize, next: &str) -> bool {
    let before = &text[..at];
    // The word runs back to whitespace, an opening mark, a dash or a slash ("guest—Dr.",
    // "Mr./Mrs.").
    let word_start = before
        .rfind(|c: char| c.is_whitespace() || is_opener(c) || matches!(c, '—' | '–' | '/'))
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[word_start..];
    // No listed abbreviation or acronym is longer than 12 bytes; a longer word is an ordinary
    // one (and most words before a full stop are: the lists are not searched for them).
    if word.is_empty() || word.len() > 12 {
        return true;
    }
    let previous = || previous_word(text, word_start);
    // A word in capitals is looked up as written ("TS." a Vietnamese title, "OS." or "NY." not
    // an abbreviation at all); any other word lower-cased.
    let capitals = word.chars().filter(|c| c.is_uppercase()).count() >= 2
        && !word.chars().any(char::is_lowercase);
    let lower = word.to_lowercase();
    if capitals {
        if contains(CAPITAL_PREFIXES, word) {
            return false;
        }
    } else if contains(UNITS, &lower) {
        // A unit or "year" after a number ("1799 г. В Москве", "1941–1945 гг.", "5 ms. Then"),
        // a title or a place before a name otherwise ("г. Москва", "Ms. Lee", "Ft. Worth").
        return previous().is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    } else if contains(PREFIXES, &lower) {
        return match lower.as_str() {
            // "et al." is not the Polish "al." (aleja).
            "al" => previous() == Some("et"),
            // "МГУ им. Ломоносова", "Uniwersytet im. Adama", or the pronoun ("Я сказал им.
            // Они…", "Powiedziałem im. Potem…"): the next word decides, as after an initial.
            "im" | "им" => opens_sentence(next),
            _ => false,
        };
    }
    let ambiguous = {
        let mut letters = word.chars();
        let single = letters.next().is_some_and(char::is_uppercase) && letters.next().is_none();
        // "U.S", "E.U", "S.H": upper-case letters between full stops.
        let acronym = word.contains('.')
            && word.split('.').all(|part| {
                !part.is_empty()
                    && part.chars().count() <= 2
                    && part.chars().all(char::is_uppercase)
            });
        single || acronym
    };
    !ambiguous || opens_sentence(next)
}

/// Whether `next` (the text after a full stop and whitespace) starts with a common sentence
/// opener (`STARTERS`) that is not itself an initial ("J. R. Smith").
fn opens_sentence(next: &str) -> bool {
    let letters = next
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(next.len(), |(i, _)| i);
    let (next_word, after) = next.split_at(letters);
    // "J. R. Smith": the next word is itself an initial.
    let initial = after.starts_with('.') && next_word.chars().count() == 1;
    !initial && contains(STARTERS, &next_word.to_lowercase())
}

/// Whether a CJK quotation or title bracket opened before `at` (within the last 100
/// characters of the same line, after the last CJK terminator) is still open there.
fn inside_brackets(text: &str, at: usize) -> bool {
    let mut depth = 0i32;
    for c in text[..at].chars().rev().take(100) {
        match c {
            '\n' => break,
            _ if is_cjk_terminator(c) => break,
            '》' | '」' | '』' | '）' | '”' | '】' | '〉' => depth -= 1,
            '《' | '「' | '『' | '（' | '“' | '【' | '〈' => depth += 1,
            _ => {}
        }
        if depth > 0 {
            return true;
        }
    }
    false
}

/// The word before the one starting at `word_start` (after whitespace), if any.
fn previous_word(text: &str, word_start: usize) -> Option<&str> {
    let before = text[..word_start].trim_end();
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    (!word.is_empty()).then_some(word)
}

/// The line break at `at` ends the line that starts at `line_from`: the start of a sentence it
/// implies, if any (after a blank line; where this line is markdown structure or the next is
/// markdown structure or a numbered item), and where the next line's text starts (after the
/// whitespace that follows `at`; `text.len()` when only whitespace follows).
fn line_break_start(text: &str, line_from: usize, at: usize) -> (Option<usize>, usize) {
    let rest = &text[at..];
    let next_at = at + rest.len() - rest.trim_start().len();
    if next_at >= text.len() {
        return (None, next_at);
    }
    let gap = &text[at..next_at];
    if gap.matches('\n').count() >= 2 {
        return (Some(next_at), next_at);
    }
    let line = text[line_from..at].trim_start();
    let next = &text[next_at..];
    let structural = |l: &str| {
        // A heading is `#`s then a space (CommonMark), not "#1".
        let heading = l.starts_with('#') && l.trim_start_matches('#').starts_with([' ', '\t']);
        heading
            || l.starts_with(['|', '>'])
            || l.starts_with("- ")
            || l.starts_with("* ")
            || l.starts_with("+ ")
            || l.starts_with("```")
            || l.chars().next().is_some_and(is_bullet)
    };
    let numbered = {
        let digits = next.bytes().take_while(u8::is_ascii_digit).count();
        (1..=3).contains(&digits)
            && (next[digits..].starts_with(". ") || next[digits..].starts_with(") "))
    };
    (
        (structural(line) || structural(next) || numbered).then_some(next_at),
        next_at,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        let starts = contextual_starts(text);
        let mut out = Vec::new();
        for (i, &s) in starts.iter().enumerate() {
            let e = starts.get(i + 1).copied().unwrap_or(text.len());
            out.push(text[s..e].trim());
        }
        out
    }

    #[test]
    fn initials_and_abbreviations() {
        assert_eq!(
            split("The letter came from J. R. Smith yesterday. It was short."),
            [
                "The letter came from J. R. Smith yesterday.",
                "It was short."
            ]
        );
        assert_eq!(
            split("I live in the U.S. How about you?"),
            ["I live in the U.S.", "How about you?"]
        );
        assert_eq!(
            split("I work for the U.S. Government."),
            ["I work for the U.S. Government."]
        );
        assert_eq!(
            split("Smith et al. The results hold."),
            ["Smith et al.", "The results hold."]
        );
        assert_eq!(split("Dr. Lee left."), ["Dr. Lee left."]);
    }

    #[test]
    fn long_numbers_are_not_list_markers() {
        // Found by the fuzz target: a run of digits once overflowed the marker's value.
        assert_eq!(split("\tJ\t999999999999JJ"), ["J\t999999999999JJ"]);
        // A number opens no sentence after a full stop ("p. 55", "N°. 1026"): the price of
        // reading "The end. 2000. Next" as two sentences, not three.
        assert_eq!(
            split("1999. The end. 2000. Next"),
            ["1999.", "The end. 2000.", "Next"]
        );
    }

    #[test]
    fn multi_byte_whitespace_before_a_year_abbreviation() {
        // Found by the fuzz target: the word before "г." after a U+2006 SIX-PER-EM SPACE.
        assert_eq!(
            split("в 1799\u{2006}г. В Москве"),
            ["в 1799\u{2006}г.", "В Москве"]
        );
        assert_eq!(split("в\u{2006}г. Москва"), ["в\u{2006}г. Москва"]);
    }

    #[test]
    fn numbers_in_prose_are_not_lists() {
        assert_eq!(
            split("Go to room 12. Then room 13. Done."),
            ["Go to room 12.", "Then room 13.", "Done."]
        );
        assert_eq!(
            split("Chapter 3. The end. Chapter 4. The start."),
            ["Chapter 3.", "The end.", "Chapter 4.", "The start."]
        );
        assert_eq!(
            split("Steps: 1. Open it 2. Close it"),
            ["Steps:", "1. Open it", "2. Close it"]
        );
    }

    #[test]
    fn units_and_everyday_words_before_a_full_stop() {
        assert_eq!(
            split("I ate a fig. It was ripe. It took 5 ms. Then it was gone."),
            [
                "I ate a fig.",
                "It was ripe.",
                "It took 5 ms.",
                "Then it was gone."
            ]
        );
        assert_eq!(
            split("See Fig. 3 and ask Ms. Lee."),
            ["See Fig. 3 and ask Ms. Lee."]
        );
        assert_eq!(
            split("Skip […] The rest. And (...) more."),
            ["Skip […] The rest.", "And (...) more."]
        );
    }

    #[test]
    fn runs_of_line_feeds_are_read_once() {
        // A quadratic scan of the whitespace after every line feed would take minutes here.
        let text = "\n".repeat(200_000) + "End. " + &"\n \n".repeat(100_000) + "Next.";
        let starts = contextual_starts(&text);
        assert_eq!(starts, [0, 200_000, 500_005]);
    }

    #[test]
    fn attack_cases() {
        // A spaced ellipsis after "….": no split inside the '…' (it once panicked).
        assert_eq!(split("x.… . . . Y"), ["x.… . . .", "Y"]);
        assert_eq!(split("x…. . . . Y"), ["x…. . . .", "Y"]);
        // Titles after a year, after a dash or a slash.
        assert_eq!(
            split("In 2020 Dr. Lee won the prize."),
            ["In 2020 Dr. Lee won the prize."]
        );
        assert_eq!(
            split("The guest—Dr. Smith—arrived. Mr./Mrs. Smith will attend."),
            [
                "The guest—Dr. Smith—arrived.",
                "Mr./Mrs. Smith will attend."
            ]
        );
        // Years after a range or a decade, the pronoun "им" / "im".
        assert_eq!(
            split("Война шла в 1941–1945 гг. Победа пришла в мае."),
            ["Война шла в 1941–1945 гг.", "Победа пришла в мае."]
        );
        assert_eq!(
            split("Я сказал им. Они ушли."),
            ["Я сказал им.", "Они ушли."]
        );
        assert_eq!(
            split("Powiedziałem im. Potem wyszedłem."),
            ["Powiedziałem im.", "Potem wyszedłem."]
        );
        assert_eq!(
            split("Uniwersytet im. Adama Mickiewicza."),
            ["Uniwersytet im. Adama Mickiewicza."]
        );
        // Capitals are not lower-case abbreviations; Vietnamese titles in capitals are.
        assert_eq!(
            split("It runs on any OS. The kernel is small."),
            ["It runs on any OS.", "The kernel is small."]
        );
        assert_eq!(
            split("I moved to NY. It was cold."),
            ["I moved to NY.", "It was cold."]
        );
        assert_eq!(
            split("Bà ấy là BS. Lan. Hôm nay bà nghỉ."),
            ["Bà ấy là BS. Lan.", "Hôm nay bà nghỉ."]
        );
        assert_eq!(
            split("Dia dirawat di RS. Harapan Kita. Dia pulih."),
            ["Dia dirawat di RS. Harapan Kita.", "Dia pulih."]
        );
        // "#1" is no heading, U+2219 no bullet, "An" a Vietnamese name.
        assert_eq!(
            split("We are\n#1 in sales. Yes."),
            ["We are\n#1 in sales.", "Yes."]
        );
        assert_eq!(
            split("Compute 5 ∙ 3 today. Done."),
            ["Compute 5 ∙ 3 today.", "Done."]
        );
        assert_eq!(
            split("Ông Nguyễn V. An đến muộn. Ai cũng chờ."),
            ["Ông Nguyễn V. An đến muộn.", "Ai cũng chờ."]
        );
        // An unclosed bracket holds CJK ends back only up to the next terminator.
        assert_eq!(
            split("价格（含税！真的。下次见。"),
            ["价格（含税！真的。", "下次见。"]
        );
    }

    #[test]
    fn empty_and_whitespace() {
        assert!(contextual_starts("").is_empty());
        assert_eq!(contextual_starts("   "), [0]);
        assert_eq!(contextual_starts(". . ."), [0]);
    }
}
