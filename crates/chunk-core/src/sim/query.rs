//! Query coverage (SPEC §4): which chunks hold which keywords of a query.
//!
//! Keyword rule: the query is split into words with the simple tokenizer's rule
//! ([`super::tokens::simple_spans`]; punctuation is not a keyword), lower-cased, and the stop
//! words of the language ([`stop_words`]) are removed; repeats are kept once. A chunk holds a
//! keyword when a word of the chunk's own text, split and lower-cased the same way, equals it.
//! So matching is by whole words of the text, whatever tokenizer cut the chunks: a word that a
//! chunk edge cuts in two is held by neither part. It is lexical on purpose (see SPEC §4).

use super::tokens::{is_word, simple_spans, TokenSpans};
use crate::windows::Window;
use crate::Lang;

/// Stop words removed from a query, per language: a short list of function words written for
/// this page (articles, prepositions, question words, copulas), lower-case.
pub fn stop_words(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => &[
            "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and",
            "or", "is", "are", "was", "be", "what", "which", "how", "does", "do", "it", "its",
            "this", "that", "as",
        ],
        Lang::Vi => &[
            "của", "là", "và", "các", "những", "cho", "với", "trong", "có", "được", "này", "đó",
            "một", "thì", "ở", "gì", "nào", "bao", "nhiêu", "về", "hay", "hoặc",
        ],
        Lang::Id => &[
            "dari", "yang", "dan", "di", "ke", "untuk", "dengan", "adalah", "ini", "itu", "pada",
            "apa", "berapa", "atau", "sebuah", "para",
        ],
        Lang::Ru => &[
            "и",
            "в",
            "во",
            "на",
            "с",
            "со",
            "о",
            "об",
            "по",
            "для",
            "из",
            "от",
            "до",
            "к",
            "что",
            "как",
            "это",
            "у",
            "ли",
            "или",
            "а",
            "же",
            "какой",
            "какая",
            "каков",
            "каковы",
        ],
        Lang::Pl => &[
            "i", "w", "we", "na", "z", "ze", "o", "do", "dla", "od", "po", "jest", "to", "jaki",
            "jaka", "jakie", "czy", "a", "oraz", "się",
        ],
    }
}

/// Lower-cased words of `text` (simple-tokenizer words, punctuation left out).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    simple_spans(text)
        .spans
        .into_iter()
        .map(move |(s, e)| &text[s..e])
        .filter(|w| is_word(w))
        .map(str::to_lowercase)
}

/// The keywords of `query` in `lang` (see the module docs), in query order.
pub fn keywords(query: &str, lang: Lang) -> Vec<String> {
    let stop = stop_words(lang);
    let mut out: Vec<String> = Vec::new();
    for w in words(query) {
        if !stop.contains(&w.as_str()) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Which chunk holds which keyword.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Coverage {
    /// The keywords, lower-case, in query order (the table's columns).
    pub keywords: Vec<String>,
    /// One row per chunk, one entry per keyword: true when the chunk holds it.
    pub held: Vec<Vec<bool>>,
    /// Per chunk, how many keywords it holds (the "k" of "k/n").
    pub counts: Vec<usize>,
    /// Number of chunks that hold every keyword (0 when there is no keyword).
    pub chunks_with_all: usize,
    /// The largest count over the chunks (0 with no chunk).
    pub best: usize,
}

impl Coverage {
    /// True when chunk `chunk` holds every keyword (a "full" row of the coverage table). Never
    /// true when there is no keyword, nor for a chunk index out of range; the chunks it is
    /// true for are the ones [`Coverage::chunks_with_all`] counts.
    pub fn holds_all(&self, chunk: usize) -> bool {
        !self.keywords.is_empty() && self.counts.get(chunk) == Some(&self.keywords.len())
    }
}

/// The part of `text.as_bytes()[start..end]` made of whole characters (a BPE chunk edge may
/// cut a character; its bytes hold no whole word).
fn whole_chars(text: &str, start: usize, end: usize) -> &str {
    let (mut s, mut e) = (start.min(text.len()), end.min(text.len()));
    while !text.is_char_boundary(s) {
        s += 1;
    }
    while e > s && !text.is_char_boundary(e) {
        e -= 1;
    }
    &text[s..e.max(s)]
}

/// Coverage of `keywords` (from [`keywords`]) over the `chunks` (token ranges) of `text`
/// tokenized as `tokens`; each chunk's text is its byte range from
/// [`TokenSpans::chunk_bytes`].
pub fn coverage(
    text: &str,
    tokens: &TokenSpans,
    chunks: &[Window],
    keywords: &[String],
) -> Coverage {
    let held: Vec<Vec<bool>> = chunks
        .iter()
        .map(|w| {
            let (s, e) = tokens.chunk_bytes(w.start, w.end).unwrap_or((0, 0));
            let chunk_words: Vec<String> = words(whole_chars(text, s, e)).collect();
            keywords.iter().map(|k| chunk_words.contains(k)).collect()
        })
        .collect();
    let counts: Vec<usize> = held
        .iter()
        .map(|r| r.iter().filter(|&&h| h).count())
        .collect();
    Coverage {
        keywords: keywords.to_vec(),
        chunks_with_all: if keywords.is_empty() {
            0
        } else {
            counts.iter().filter(|&&c| c == keywords.len()).count()
        },
        best: counts.iter().copied().max().unwrap_or(0),
        held,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_go_and_case_folds() {
        assert_eq!(
            keywords("dải nhiệt độ của XV40", Lang::Vi),
            ["dải", "nhiệt", "độ", "xv40"]
        );
        assert_eq!(keywords("The range, of THE range?", Lang::En), ["range"]);
        assert!(keywords("of the", Lang::En).is_empty());
    }

    #[test]
    fn a_word_cut_by_a_chunk_edge_is_not_held() {
        let text = "XV40 works. Range is wide.";
        let tokens = simple_spans(text);
        let kw = keywords("XV40 range", Lang::En);
        let c = coverage(
            text,
            &tokens,
            &[Window { start: 0, end: 3 }, Window { start: 3, end: 7 }],
            &kw,
        );
        assert_eq!(c.held, vec![vec![true, false], vec![false, true]]);
        assert_eq!((c.chunks_with_all, c.best), (0, 1));
        assert_eq!(whole_chars("a猫", 0, 2), "a");
        assert_eq!(whole_chars("a猫", 2, 4), "");
    }

    #[test]
    fn a_full_row_holds_every_keyword_and_is_counted() {
        let text = "XV40 range is wide. The XV40 is small. Its range is wide.";
        let tokens = simple_spans(text);
        let kw = keywords("XV40 range", Lang::En);
        // Five tokens per sentence (the full stop is one).
        let chunks = [
            Window { start: 0, end: 5 },
            Window { start: 5, end: 10 },
            Window { start: 10, end: 15 },
        ];
        let c = coverage(text, &tokens, &chunks, &kw);
        assert_eq!(c.counts, [2, 1, 1]);
        let full: Vec<bool> = (0..chunks.len()).map(|k| c.holds_all(k)).collect();
        assert_eq!(full, [true, false, false]);
        assert_eq!(c.chunks_with_all, full.iter().filter(|&&f| f).count());
        assert!(!c.holds_all(3), "no such chunk");
        // No keyword: no row is full, though every row holds "all" zero keywords.
        let none = coverage(text, &tokens, &chunks, &[]);
        assert_eq!(none.counts, [0, 0, 0]);
        assert!((0..3).all(|k| !none.holds_all(k)));
    }
}
