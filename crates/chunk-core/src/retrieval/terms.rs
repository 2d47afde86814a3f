//! The terms BM25 indexes and queries with.
//!
//! **The rule** (the page states it in these words): *a term is a word of the text as Unicode
//! word boundaries (UAX #29) cut it, kept only if it holds a letter or a digit, lower-cased;
//! the stop words of the page's language are removed.*
//!
//! In detail:
//! - words are unicode-segmentation's `unicode_words`: the segments between UAX #29 word
//!   boundaries that contain at least one character with the Unicode `Alphabetic` property or
//!   of General_Category Number. So `can't`, `32.3` and `XV40` are one word each, `e-mail` is
//!   two (`e`, `mail`); punctuation and spaces are not; every Han ideograph and every Hiragana
//!   character is a word of its own (UAX #29 joins neither), a Katakana run is one word;
//! - lower case is Rust's `str::to_lowercase` (full Unicode lower-casing, final sigma
//!   included); there is no other normalisation (no NFC, no stemming, no accent folding:
//!   `café` and `cafe` are different terms, and so are `moonstone's` and `moonstone`);
//! - the stop words are [`crate::sim::query::stop_words`] of the language, compared after
//!   lower-casing; they are the same lists the simulator's keyword rule removes (SPEC §4).
//!
//! Repeats are kept: a chunk's term frequencies count them. (A query's repeats are another
//! matter, see [`super::bm25`].)

use crate::sim::query::stop_words;
use crate::Lang;
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// One term and where it stands in the text it came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TermSpan {
    /// Byte range `[start, end)` of the word in the text (UTF-8 bytes; always on char
    /// boundaries).
    pub bytes: Range<usize>,
    /// The term: the word lower-cased.
    pub term: String,
}

/// The terms of `text` in `lang` (the rule in the module docs), in text order, repeats kept.
///
/// ```
/// use chunk_core::retrieval::terms;
/// use chunk_core::Lang;
/// assert_eq!(
///     terms("What is the temperature range of the XV40?", Lang::En),
///     ["temperature", "range", "xv40"]
/// );
/// ```
pub fn terms(text: &str, lang: Lang) -> Vec<String> {
    term_spans(text, lang).into_iter().map(|t| t.term).collect()
}

/// [`terms`] with the byte range of each word in `text` (for highlighting matches).
pub fn term_spans(text: &str, lang: Lang) -> Vec<TermSpan> {
    let mut out = Vec::new();
    for_each_term(text, lang, |start, word, term| {
        out.push(TermSpan {
            bytes: start..start + word.len(),
            term: term.to_owned(),
        })
    });
    out
}

/// Calls `f(start, word, term)` for every term of `text` in text order: the word's byte offset,
/// the word as written and the term (the word lower-cased, in a buffer reused between calls,
/// so that an index can look terms up without allocating one string per word). The one place
/// the rule of the module docs is applied.
pub(crate) fn for_each_term(text: &str, lang: Lang, mut f: impl FnMut(usize, &str, &str)) {
    let stop = stop_words(lang);
    let mut lower = String::new();
    for (start, word) in text.unicode_word_indices() {
        if word.is_ascii() {
            lower.clear();
            lower.push_str(word);
            lower.make_ascii_lowercase();
        } else {
            // Full Unicode lower-casing of the whole word (final sigma needs its context).
            lower = word.to_lowercase();
        }
        if !stop.contains(&lower.as_str()) {
            f(start, word, &lower);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_and_stop_words_go() {
        assert_eq!(
            terms("The cat sat on the MAT. The cat!", Lang::En),
            ["cat", "sat", "mat", "cat"]
        );
        // Apostrophes and decimals stay inside a word; punctuation is never a term.
        assert_eq!(
            terms("It can't jump 32.3 feet -- right?", Lang::En),
            ["can't", "jump", "32.3", "feet", "right"]
        );
        assert!(terms("of the, and ... ?!", Lang::En).is_empty());
        // No stemming: a possessive is a word of its own.
        assert_eq!(
            terms("the Moonstone's curse", Lang::En),
            ["moonstone's", "curse"]
        );
    }

    #[test]
    fn stop_words_are_those_of_the_language() {
        // "của" is a Vietnamese stop word, not an English one.
        assert_eq!(
            terms("Dải nhiệt độ của XV40", Lang::Vi),
            ["dải", "nhiệt", "độ", "xv40"]
        );
        assert_eq!(
            terms("Dải nhiệt độ của XV40", Lang::En),
            ["dải", "nhiệt", "độ", "của", "xv40"]
        );
        // Upper case in the text is lowered before the comparison.
        assert_eq!(terms("ЧТО такое XV40", Lang::Ru), ["такое", "xv40"]);
        assert_eq!(terms("Jaki jest zakres", Lang::Pl), ["zakres"]);
    }

    #[test]
    fn lower_case_is_unicode_full_lower_casing() {
        // Final sigma: "ΟΔΟΣ" lowers to "οδος" with a final "ς", as str::to_lowercase does.
        // "İ" lowers to "i" and a combining dot above.
        assert_eq!(
            terms("ΟΔΟΣ İstanbul STRASSE", Lang::En),
            ["\u{3bf}\u{3b4}\u{3bf}\u{3c2}", "i\u{307}stanbul", "strasse"]
        );
    }

    #[test]
    fn spans_are_byte_ranges_of_the_words() {
        let text = "Ünïcode and 日本";
        let spans = term_spans(text, Lang::En);
        assert_eq!(
            spans,
            [
                TermSpan {
                    bytes: 0..9,
                    term: "ünïcode".into()
                },
                // Each Han ideograph is a word of its own (3 bytes each).
                TermSpan {
                    bytes: 14..17,
                    term: "日".into()
                },
                TermSpan {
                    bytes: 17..20,
                    term: "本".into()
                },
            ]
        );
        for s in &spans {
            assert_eq!(text[s.bytes.clone()].to_lowercase(), s.term);
        }
    }
}
