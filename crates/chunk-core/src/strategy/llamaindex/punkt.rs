//! NLTK's Punkt sentence boundaries exactly as llama-index-core 0.14.25 runs them.
//!
//! llama-index's `split_by_sentence_tokenizer()` (`node_parser/text/utils.py`) calls
//! `span_tokenize` on `globals_helper.punkt_tokenizer`, which `llama_index/core/utils.py` builds
//! as `nltk.tokenize.PunktSentenceTokenizer()` — with **no training text and no language
//! tables**. Its `PunktParameters` are empty: no abbreviations, no collocations, no frequent
//! sentence starters and an empty orthographic context. (The `punkt_tab` tables that
//! llama-index ships in `_static/nltk_cache` are only checked for and downloaded there; this
//! tokenizer never loads them, so they are not shipped here.) With empty parameters the
//! inference side of `nltk/tokenize/punkt.py` (nltk 3.10.4) reduces to the rules below, each
//! named after the function it comes from:
//!
//! - `PunktLanguageVars.period_context_re`: a candidate is one `.`, `?` or `!` followed by a
//!   non-word character or by whitespace and a token;
//! - `_match_potential_end_contexts`: the text each candidate is judged on (the word before it,
//!   found leftwards to the last ASCII whitespace, the mark and what follows), with a candidate
//!   dropped when its word overlaps the next one's;
//! - `text_contains_sentbreak` → `_tokenize_words` (`PunktLanguageVars.word_tokenize` per
//!   line), `_first_pass_annotation` (a lone `.?!`, or a token ending in one period and not in
//!   `..`, is a break) and `_second_pass_annotation` with `_ortho_heuristic` (an initial such
//!   as `J.` or a number such as `5.` is no break before punctuation or a lowercase word, and
//!   an initial is none before an uppercase word either);
//! - `_slices_from_text` and `_realign_boundaries` (closing quotes and brackets after the mark
//!   stay with the sentence before).
//!
//! nltk compiles these patterns with the third-party `regex` module (`nltk/redos.py`), so `\s`
//! is Unicode `White_Space` ([`char::is_whitespace`]) and `\d` is `Nd` ([`ND`], the `regex`
//! 2026.11.19 table), while `str.strip`/`str.rstrip` and `str.isupper`/`str.islower` are
//! Python's own (`str.isspace` adds U+001C–U+001F; see [`crate::strategy::python_isspace`]; the case of a word's
//! first letter is read with [`char::is_uppercase`]/[`char::is_lowercase`], the same
//! properties, on Rust's newer Unicode tables than CPython 3.11's 14.0). `redos` also stops
//! any match after 5 s of wall-clock time (`TimeoutError`); that timeout is not reproduced.

pub(crate) use crate::strategy::python::python_isspace as py_space;

/// `\s` of the `regex` module: Unicode `White_Space`.
fn re_space(c: char) -> bool {
    c.is_whitespace()
}

/// `Nd` as the `regex` module 2026.11.19 has it (its `\d`): first and last code point of each
/// run of decimal digits.
const ND: [(u32, u32); 72] = [
    (0x30, 0x39),
    (0x660, 0x669),
    (0x6F0, 0x6F9),
    (0x7C0, 0x7C9),
    (0x966, 0x96F),
    (0x9E6, 0x9EF),
    (0xA66, 0xA6F),
    (0xAE6, 0xAEF),
    (0xB66, 0xB6F),
    (0xBE6, 0xBEF),
    (0xC66, 0xC6F),
    (0xCE6, 0xCEF),
    (0xD66, 0xD6F),
    (0xDE6, 0xDEF),
    (0xE50, 0xE59),
    (0xED0, 0xED9),
    (0xF20, 0xF29),
    (0x1040, 0x1049),
    (0x1090, 0x1099),
    (0x17E0, 0x17E9),
    (0x1810, 0x1819),
    (0x1946, 0x194F),
    (0x19D0, 0x19D9),
    (0x1A80, 0x1A89),
    (0x1A90, 0x1A99),
    (0x1B50, 0x1B59),
    (0x1BB0, 0x1BB9),
    (0x1C40, 0x1C49),
    (0x1C50, 0x1C59),
    (0xA620, 0xA629),
    (0xA8D0, 0xA8D9),
    (0xA900, 0xA909),
    (0xA9D0, 0xA9D9),
    (0xA9F0, 0xA9F9),
    (0xAA50, 0xAA59),
    (0xABF0, 0xABF9),
    (0xFF10, 0xFF19),
    (0x104A0, 0x104A9),
    (0x10D30, 0x10D39),
    (0x10D40, 0x10D49),
    (0x11066, 0x1106F),
    (0x110F0, 0x110F9),
    (0x11136, 0x1113F),
    (0x111D0, 0x111D9),
    (0x112F0, 0x112F9),
    (0x11450, 0x11459),
    (0x114D0, 0x114D9),
    (0x11650, 0x11659),
    (0x116C0, 0x116C9),
    (0x116D0, 0x116E3),
    (0x11730, 0x11739),
    (0x118E0, 0x118E9),
    (0x11950, 0x11959),
    (0x11BF0, 0x11BF9),
    (0x11C50, 0x11C59),
    (0x11D50, 0x11D59),
    (0x11DA0, 0x11DA9),
    (0x11DE0, 0x11DE9),
    (0x11F50, 0x11F59),
    (0x16130, 0x16139),
    (0x16A60, 0x16A69),
    (0x16AC0, 0x16AC9),
    (0x16B50, 0x16B59),
    (0x16D70, 0x16D79),
    (0x1CCF0, 0x1CCF9),
    (0x1D7CE, 0x1D7FF),
    (0x1E140, 0x1E149),
    (0x1E2F0, 0x1E2F9),
    (0x1E4F0, 0x1E4F9),
    (0x1E5F1, 0x1E5FA),
    (0x1E950, 0x1E959),
    (0x1FBF0, 0x1FBF9),
];

/// `\d` of the `regex` module.
fn re_digit(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return c.is_ascii_digit();
    }
    let i = ND.partition_point(|&(_, last)| last < cp);
    ND.get(i).is_some_and(|&(first, _)| first <= cp)
}

/// `[^\W\d]` of the `regex` module: a word character (`Alphabetic`, a mark, a connector
/// punctuation such as `_`, ZWNJ/ZWJ) that is not a decimal digit. Checked against the `regex`
/// module's class over every code point: equal except for the 12,887 characters that only
/// its newer Unicode data assigns (Unicode 17 additions, unknown to Rust's `char` tables).
fn re_word_not_digit(c: char) -> bool {
    let mark = crate::tokenizer::classes::is_word_char(c) && !c.is_alphabetic() && !c.is_numeric();
    let connector = matches!(
        c,
        '_' | '\u{203F}' | '\u{2040}' | '\u{2054}' | '\u{FE33}' | '\u{FE34}' | '\u{FE4D}'
            ..='\u{FE4F}' | '\u{FF3F}'
    );
    (c.is_alphabetic() || mark || connector || c == '\u{200C}' || c == '\u{200D}') && !re_digit(c)
}

/// `PunktLanguageVars._re_non_word_chars`: characters that cannot appear within words.
fn non_word(c: char) -> bool {
    matches!(
        c,
        ')' | '"'
            | ';'
            | '}'
            | ']'
            | '*'
            | ':'
            | '@'
            | '\''
            | '('
            | '{'
            | '['
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{AB}'
            | '\u{BB}'
            | '?'
            | '!'
    )
}

/// The characters `PunktLanguageVars._re_word_start` excludes from starting a word token.
fn not_word_start(c: char) -> bool {
    matches!(
        c,
        '(' | '"'
            | '`'
            | '{'
            | '['
            | ':'
            | ';'
            | '&'
            | '#'
            | '*'
            | '@'
            | ')'
            | '}'
            | ']'
            | '-'
            | ','
    )
}

/// The closing punctuation of `PunktLanguageVars.re_boundary_realignment`.
fn closing(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{AB}'
            | '\u{BB}'
    )
}

fn char_at(s: &str, at: usize) -> Option<char> {
    s.get(at..).and_then(|r| r.chars().next())
}

/// `&text[a..b]`, or `""` where Python's `text[a:b]` would be empty (`a >= b`).
fn slice(text: &str, a: usize, b: usize) -> &str {
    if a >= b {
        ""
    } else {
        &text[a..b]
    }
}

/// Where `_re_multi_char_punct` (`\-{2,}|\.{2,}|(?:\.\s){2,}\.`) matches at `at`: its end.
fn multi_char_punct(line: &str, at: usize) -> Option<usize> {
    let b = line.as_bytes();
    let run = |byte: u8| at + b[at..].iter().take_while(|&&x| x == byte).count();
    match b.get(at..at + 2) {
        Some(b"--") => return Some(run(b'-')),
        Some(b"..") => return Some(run(b'.')),
        _ => {}
    }
    // (?:\.\s){2,}\. — greedy pairs, then a period, backtracking one pair if needed.
    let mut pair_starts = Vec::new();
    let mut r = at;
    while b.get(r) == Some(&b'.') {
        match char_at(line, r + 1) {
            Some(ws) if re_space(ws) => {
                pair_starts.push(r);
                r += 1 + ws.len_utf8();
            }
            _ => break,
        }
    }
    let k = pair_starts.len();
    if k >= 2 && b.get(r) == Some(&b'.') {
        Some(r + 1)
    } else if k >= 3 {
        Some(pair_starts[k - 1] + 1)
    } else {
        None
    }
}

/// The lookahead that ends a word token in `_word_tokenize_fmt`: whitespace, the end, a
/// non-word character, multi-character punctuation, or a comma followed by one of those.
fn word_ends_at(line: &str, q: usize) -> bool {
    let Some(c) = char_at(line, q) else {
        return true;
    };
    if re_space(c) || non_word(c) || multi_char_punct(line, q).is_some() {
        return true;
    }
    if c != ',' {
        return false;
    }
    match char_at(line, q + 1) {
        None => true,
        Some(n) => re_space(n) || non_word(n) || multi_char_punct(line, q + 1).is_some(),
    }
}

/// `PunktLanguageVars.word_tokenize` (`findall` of `_word_tokenize_fmt`) on one line, as an
/// iterator over the tokens.
struct Words<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let line = self.line;
        loop {
            let p = self.at;
            let c = char_at(line, p)?;
            let end = if let Some(e) = multi_char_punct(line, p) {
                e
            } else if re_space(c) {
                self.at += c.len_utf8();
                continue;
            } else if not_word_start(c) {
                p + c.len_utf8()
            } else {
                // \S+? up to the first position where the word may end (at the latest the
                // next whitespace or the end of the line).
                let mut q = p + c.len_utf8();
                while let Some(n) = char_at(line, q).filter(|_| !word_ends_at(line, q)) {
                    q += n.len_utf8();
                }
                q
            };
            self.at = end;
            return Some(&line[p..end]);
        }
    }
}

/// `PunktBaseClass._tokenize_words`: the word tokens of every line that is not blank.
fn tokenize_words(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .filter(|line| !line.chars().all(py_space))
        .flat_map(|line| Words { line, at: 0 })
}

/// `PunktToken.is_initial`: `[^\W\d]\.$`.
fn is_initial(tok: &str) -> bool {
    let mut cs = tok.chars();
    matches!((cs.next(), cs.next(), cs.next()), (Some(c), Some('.'), None) if re_word_not_digit(c))
}

/// `PunktToken._RE_NUMERIC` (`^-?[\.,]?\d[\d,\.-]*\.?$`) matches all of `tok`.
fn is_numeric(tok: &str) -> bool {
    let mut s = tok.strip_prefix('-').unwrap_or(tok);
    s = s
        .strip_prefix('.')
        .or_else(|| s.strip_prefix(','))
        .unwrap_or(s);
    let mut cs = s.chars();
    cs.next().is_some_and(re_digit) && cs.all(|c| re_digit(c) || matches!(c, ',' | '.' | '-'))
}

/// `type_no_period == "##number##"` for a period-final token (`PunktToken._get_type`).
fn is_number_type(tok: &str) -> bool {
    // A numeric token's type is "##number##"; otherwise the type is tok.lower(), which is
    // "##number##." only for that very text (no other character lowercases to n, u, m, b, e, r).
    is_numeric(tok) || tok.eq_ignore_ascii_case("##number##.")
}

/// `_first_pass_annotation`, with no known abbreviations: is `tok` a sentence break?
fn first_pass_break(tok: &str) -> bool {
    matches!(tok, "." | "?" | "!") || (tok.ends_with('.') && !tok.ends_with(".."))
}

/// Whether `tok`, followed by `next`, is a sentence break after both annotation passes.
fn is_break(tok: &str, next: &str) -> bool {
    if !first_pass_break(tok) {
        return false;
    }
    if !tok.ends_with('.') {
        return true;
    }
    // _second_pass_annotation, section 4.3: initials and ordinals. With an empty
    // orthographic context, _ortho_heuristic says "not a sentence starter" for punctuation
    // and lowercase words and "unknown" otherwise.
    let initial = is_initial(tok);
    if !(initial || is_number_type(tok)) {
        return true;
    }
    let first = next.chars().next();
    let not_starter =
        matches!(next, ";" | ":" | "," | "." | "!" | "?") || first.is_some_and(char::is_lowercase);
    let initial_before_upper = initial && first.is_some_and(char::is_uppercase);
    !(not_starter || initial_before_upper)
}

/// `text_contains_sentbreak`: some token but the last is a break (stops at the first).
fn contains_sentbreak(context: &str) -> bool {
    let mut toks = tokenize_words(context);
    let Some(mut tok) = toks.next() else {
        return false;
    };
    for next in toks {
        if is_break(tok, next) {
            return true;
        }
        tok = next;
    }
    false
}

/// One match of `period_context_re`.
struct Candidate {
    /// Byte offset of the `.`, `?` or `!`.
    at: usize,
    /// End of `after_tok`.
    after_end: usize,
    /// Start of `next_tok`, when the mark is followed by whitespace and a token.
    next_tok: Option<usize>,
}

/// Every match of `period_context_re` in `text`, in order.
fn candidates(text: &str) -> impl Iterator<Item = Candidate> + '_ {
    let b = text.as_bytes();
    b.iter()
        .enumerate()
        .filter(|&(_, &x)| matches!(x, b'.' | b'?' | b'!'))
        .filter_map(move |(at, _)| {
            let after = at + 1;
            let c = char_at(text, after)?;
            if non_word(c) {
                return Some(Candidate {
                    at,
                    after_end: after + c.len_utf8(),
                    next_tok: None,
                });
            }
            if !re_space(c) {
                return None;
            }
            let tok = after
                + text[after..]
                    .char_indices()
                    .find(|&(_, c)| !re_space(c))
                    .map(|(i, _)| i)?;
            let end = text[tok..]
                .char_indices()
                .find(|&(_, c)| re_space(c))
                .map_or(text.len(), |(i, _)| tok + i);
            Some(Candidate {
                at,
                after_end: end,
                next_tok: Some(tok),
            })
        })
}

/// `_slices_from_text`: the sentence slices before realignment, as `(start, stop)` (a slice
/// may be empty or even have `start > stop`, as in Python).
fn slices_from_text(text: &str) -> Vec<(usize, usize)> {
    let mut slices = Vec::new();
    let mut last_break = 0;
    let mut judge = |m: &Candidate, word_start: usize| {
        if contains_sentbreak(&text[word_start..m.after_end]) {
            slices.push((last_break, m.at + 1));
            last_break = m.next_tok.unwrap_or(m.at + 1);
        }
    };
    // _match_potential_end_contexts: the previous candidate and its word slice.
    let mut previous: Option<(Candidate, (usize, usize))> = None;
    let mut previous_slice = (0, 0);
    for m in candidates(text) {
        let before = slice(text, previous_slice.1, m.at);
        // _get_last_whitespace_index: string.whitespace, and 0 when not found *or* found first.
        let last_ws = before
            .bytes()
            .rposition(|x| matches!(x, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'))
            .unwrap_or(0);
        let start = if last_ws != 0 {
            previous_slice.1 + last_ws + 1
        } else {
            previous_slice.0
        };
        if let Some((pm, ps)) = previous.take() {
            if ps.1 <= start {
                judge(&pm, ps.0);
            }
        }
        previous_slice = (start, m.at);
        previous = Some((m, previous_slice));
    }
    if let Some((pm, ps)) = previous {
        judge(&pm, ps.0);
    }
    let rstripped = text.trim_end_matches(py_space).len();
    slices.push((last_break, rstripped));
    slices
}

/// `re_boundary_realignment.match` at the start of `s`
/// (`["\')\]}‘’“”«»]+?(?:\s+|(?=--)|$)`): the length of the closing punctuation and the end
/// of the match.
fn realignment(s: &str) -> Option<(usize, usize)> {
    let mut k = 0;
    loop {
        let c = char_at(s, k)?;
        if !closing(c) {
            return None;
        }
        k += c.len_utf8();
        match char_at(s, k) {
            None => return Some((k, k)),
            Some(ws) if re_space(ws) => {
                let end = s[k..]
                    .char_indices()
                    .find(|&(_, c)| !re_space(c))
                    .map_or(s.len(), |(i, _)| k + i);
                return Some((k, end));
            }
            Some(_) if s[k..].starts_with("--") => return Some((k, k)),
            Some(_) => {}
        }
    }
}

/// The start of every sentence span of `PunktSentenceTokenizer().span_tokenize(text)`
/// (`realign_boundaries=True`), in order, byte offsets; empty for blank text. NLTK's Punkt
/// untrained, as llama-index builds it (the tests score it beside the page's sentence rules).
pub fn sentence_starts(text: &str) -> Vec<usize> {
    let slices = slices_from_text(text);
    let mut starts = Vec::with_capacity(slices.len());
    let mut realign = 0;
    for (i, &(start, stop)) in slices.iter().enumerate() {
        let start = start + realign;
        match slices.get(i + 1) {
            None => {
                if start < stop {
                    starts.push(start);
                }
            }
            Some(&(next_start, next_stop)) => {
                if let Some((_, end)) = realignment(slice(text, next_start, next_stop)) {
                    starts.push(start);
                    realign = end;
                } else {
                    realign = 0;
                    if start < stop {
                        starts.push(start);
                    }
                }
            }
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences llama-index makes: each span runs to the next span's start.
    fn sentences(text: &str) -> Vec<&str> {
        let starts = sentence_starts(text);
        starts
            .iter()
            .enumerate()
            .map(|(i, &s)| &text[s..starts.get(i + 1).copied().unwrap_or(text.len())])
            .collect()
    }

    #[test]
    fn untrained_punkt_breaks_after_abbreviations_but_not_initials() {
        // NLTK 3.10.4: list(PunktSentenceTokenizer().span_tokenize(text)).
        let text = "Dr. Lee met Mrs. Park in the U.S. last May. They compared e.g. costs and \
                    staffing. St. Anne's clinic opens at 9 a.m. on Monday.";
        let spans: Vec<usize> = sentence_starts(text);
        assert_eq!(spans, [0, 4, 17, 34, 44, 63, 83, 87, 117]);
        assert_eq!(
            sentences(text),
            [
                "Dr. ",
                "Lee met Mrs. ",
                "Park in the U.S. ",
                "last May. ",
                "They compared e.g. ",
                "costs and staffing. ",
                "St. ",
                "Anne's clinic opens at 9 a.m. ",
                "on Monday."
            ]
        );
    }

    #[test]
    fn marks_quotes_initials_numbers_and_ellipses_as_nltk_does() {
        // list(PunktSentenceTokenizer().span_tokenize(text)), nltk 3.10.4: the span starts.
        let cases: [(&str, &[usize]); 8] = [
            // Runs of marks: only the last one is judged.
            ("Very bad acting!!! I promise.", &[0, 19]),
            // A closing quote or bracket stays with the sentence before (realignment).
            ("He said \"Stop.\" Then he left.", &[0, 16]),
            ("(Sent1.) Sent2.", &[0, 9]),
            // Initials before capitals and numbers before lowercase words are no breaks.
            (
                "J. S. Bach wrote it. Item 5. Next one. Item 5. and more.",
                &[0, 21, 29, 39],
            ),
            // An ellipsis is no break; spaced periods are single marks, each one a break.
            ("Wait... what? Yes. . . no.", &[0, 14, 19, 21, 23]),
            // A mark followed by a word character is no candidate at all.
            ("Hello!Bye. ok", &[0, 11]),
            ("A. b", &[0]),
            ("e.g., this", &[0]),
        ];
        for (text, want) in cases {
            assert_eq!(sentence_starts(text), want, "{text:?}");
        }
        assert!(sentence_starts(" \n\t").is_empty());
        assert_eq!(sentence_starts(""), Vec::<usize>::new());
    }

    #[test]
    fn python_and_regex_character_classes() {
        // str.isspace has U+001C..U+001F, the regex module's \s does not.
        assert!(py_space('\u{1c}') && !re_space('\u{1c}'));
        assert!(py_space('\u{3000}') && re_space('\u{85}'));
        assert!(re_digit('٣') && re_digit('𝟎') && !re_digit('²') && !re_digit('Ⅻ'));
        assert!(is_initial("ö.") && is_initial("_.") && is_initial("Ⅻ."));
        assert!(!is_initial("٣.") && !is_initial("².") && !is_initial("ab."));
        assert!(is_numeric("-3,000.5.") && is_numeric(".5") && !is_numeric("5a."));
        assert!(is_number_type("##NUMBER##.") && is_number_type("12."));
    }
}
