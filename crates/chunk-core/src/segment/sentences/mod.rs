//! Sentence segmentation with byte spans, and the token range each sentence covers.
//!
//! Every rule returns byte spans that tile the text: nothing is dropped. Whitespace after a
//! sentence belongs to that sentence; a segment holding only whitespace is merged into the
//! sentence before it (or after it, at the start of the text).

mod contextual;
mod words;

pub use contextual::contextual_starts;

use crate::windows::Window;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};
use unicode_segmentation::UnicodeSegmentation;

/// How sentence ends are found. Its stable code (`"terminators"`, `"uax29"`,
/// `"uax29-abbreviations"`, `"contextual"`) is [`SentenceRule::code`], parsed back by `FromStr`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumString, strum::IntoStaticStr,
)]
#[strum(serialize_all = "kebab-case")]
pub enum SentenceRule {
    /// The original simulator's rule (SPEC §4): a sentence ends at `.` `?` `!` `…` `;` or the
    /// CJK `。` `！` `？`, wherever it stands. A run of such marks (`?!`, `...`) and any closing
    /// quotes or brackets right after it end the same sentence. Abbreviations (`Dr.`, `U.S.`)
    /// and decimals (`2.5`) fool it, as they fool real splitters.
    #[default]
    Terminators,
    /// Unicode UAX #29 sentence boundaries (the `unicode-segmentation` crate). A full stop
    /// followed by a lower-case word does not end a sentence (`U.S. last`, `e.g. costs`), but
    /// one followed by a capital does (`Dr. Lee`); a line break always ends one.
    Uax29,
    /// [`SentenceRule::Uax29`], then a segment that ends in a known title abbreviation
    /// ([`ABBREVIATIONS`], e.g. `Dr.`, `Mrs.`, `St.`) is joined to the next one.
    Uax29Abbreviations,
    /// This project's rule for real text ([`crate::segment::sentences`]): a terminator ends a
    /// sentence by what stands around it (abbreviations, initials, numbers, the case of the next
    /// word, ellipses, quotations), lists and line structure end one without a terminator, and
    /// CJK full stops need no space. The default for every strategy and figure on a user's text;
    /// the simulator keeps [`SentenceRule::Terminators`] (SPEC §4).
    Contextual,
}

impl SentenceRule {
    /// The rule's stable code, as the page's select and the benches name it.
    pub fn code(self) -> &'static str {
        self.into()
    }

    /// Every rule, the simulator's default first.
    pub const ALL: [SentenceRule; 4] = [
        SentenceRule::Terminators,
        SentenceRule::Uax29,
        SentenceRule::Uax29Abbreviations,
        SentenceRule::Contextual,
    ];
}

/// Characters that end a sentence under [`SentenceRule::Terminators`].
pub const TERMINATORS: [char; 8] = ['.', '?', '!', '…', ';', '。', '！', '？'];

/// Closing marks that stay with the sentence they follow (after a terminator).
const CLOSERS: [char; 12] = [
    '"', '\'', '”', '’', ')', ']', '}', '»', '」', '』', '）', '〉',
];

/// Title abbreviations after which [`SentenceRule::Uax29Abbreviations`] does not end a
/// sentence, compared lower-cased without the full stop (English and Polish; a small list).
pub const ABBREVIATIONS: [&str; 12] = [
    "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "vs", "mt", "inż", "mgr",
];

/// Sentence byte spans `[start, end)` of `text` under `rule`: in order, non-empty, tiling the
/// text (the first starts at 0, each starts where the previous ended, the last ends at
/// `text.len()`); none holds only whitespace unless the whole text is whitespace. Empty text
/// gives no sentence.
///
/// While a prepared document is current (`strategy::run_prepared`) and `text` is that whole
/// document, the spans are computed once per rule and then copied ([`CurrentSentences`]).
pub fn sentence_bytes(text: &str, rule: SentenceRule) -> Vec<(usize, usize)> {
    let slot = SentenceRule::ALL
        .iter()
        .position(|&r| r == rule)
        .unwrap_or(0);
    let cached = CURRENT.with(|c| {
        let c = c.borrow();
        let (address, len, cache) = c.as_ref()?;
        (*address == text.as_ptr() as usize && *len == text.len()).then(|| {
            cache[slot]
                .get_or_init(|| compute_sentence_bytes(text, rule))
                .clone()
        })
    });
    cached.unwrap_or_else(|| compute_sentence_bytes(text, rule))
}

/// The sentence spans of one document under each rule of [`SentenceRule::ALL`], computed on
/// first use; shared by a prepared document and the threads' [`CurrentSentences`].
pub(crate) type SentenceCache = Arc<[OnceLock<Vec<(usize, usize)>>; SentenceRule::ALL.len()]>;

thread_local! {
    static CURRENT: RefCell<Option<(usize, usize, SentenceCache)>> = const { RefCell::new(None) };
}

/// While it lives, [`sentence_bytes`] of exactly `text` (the same memory) on this thread is
/// served from `cache`; dropping it restores the previous one.
pub(crate) struct CurrentSentences<'t> {
    previous: Option<(usize, usize, SentenceCache)>,
    _text: PhantomData<&'t str>,
}

impl<'t> CurrentSentences<'t> {
    /// Makes `cache` the one for `text`.
    pub(crate) fn new(cache: &SentenceCache, text: &'t str) -> Self {
        let now = (text.as_ptr() as usize, text.len(), Arc::clone(cache));
        CurrentSentences {
            previous: CURRENT.with(|c| c.replace(Some(now))),
            _text: PhantomData,
        }
    }
}

impl Drop for CurrentSentences<'_> {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

fn compute_sentence_bytes(text: &str, rule: SentenceRule) -> Vec<(usize, usize)> {
    let raw = match rule {
        SentenceRule::Terminators => terminator_cuts(text),
        SentenceRule::Uax29 | SentenceRule::Uax29Abbreviations => text
            .split_sentence_bound_indices()
            .map(|(at, s)| (at, at + s.len()))
            .collect(),
        SentenceRule::Contextual => {
            let starts = crate::segment::sentences::contextual_starts(text);
            let ends = starts.iter().skip(1).copied().chain([text.len()]);
            starts.iter().copied().zip(ends).collect()
        }
    };
    let merged = merge_blank(text, raw);
    if rule == SentenceRule::Uax29Abbreviations {
        join_abbreviations(text, merged)
    } else {
        merged
    }
}

fn terminator_cuts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if !TERMINATORS.contains(&c) {
            continue;
        }
        while chars.next_if(|&(_, c)| TERMINATORS.contains(&c)).is_some() {}
        while chars.next_if(|&(_, c)| CLOSERS.contains(&c)).is_some() {}
        while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
        let end = chars.peek().map_or(text.len(), |&(at, _)| at);
        out.push((start, end));
        start = end;
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out
}

/// Merges whitespace-only segments into the previous one (the next one at the start).
fn merge_blank(text: &str, raw: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
    let mut pending_start: Option<usize> = None;
    for (s, e) in raw {
        let blank = text[s..e].chars().all(char::is_whitespace);
        match out.last_mut() {
            Some(last) if blank => last.1 = e,
            _ if blank => {
                pending_start.get_or_insert(s);
            }
            _ => out.push((pending_start.take().unwrap_or(s), e)),
        }
    }
    if let Some(s) = pending_start {
        // The whole text is whitespace: one sentence.
        out.push((s, text.len()));
    }
    out
}

fn join_abbreviations(text: &str, spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    let mut join_next = false;
    for (s, e) in spans {
        match out.last_mut() {
            Some(last) if join_next => last.1 = e,
            _ => out.push((s, e)),
        }
        join_next = ends_in_abbreviation(&text[s..e]);
    }
    out
}

fn ends_in_abbreviation(sentence: &str) -> bool {
    let Some(body) = sentence.trim_end().strip_suffix('.') else {
        return false;
    };
    let word = body
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .unwrap_or_default()
        .to_lowercase();
    ABBREVIATIONS.contains(&word.as_str())
}

/// The token range `[start, end)` each sentence covers. A token belongs to the sentence that
/// holds its first non-whitespace byte (a token of whitespace only: its first byte), so a BPE
/// token such as `" Dogs"` goes with the sentence its word starts, not with the space before
/// it. Sentences that would hold no token (e.g. whitespace the simple tokenizer skips, or text
/// inside a token that began earlier) are merged away, so the ranges tile `[0, spans.len())`
/// with no empty range. `spans` are the tokens' byte spans in `text`, in order.
pub fn sentence_tokens(
    text: &str,
    sentence_bytes: &[(usize, usize)],
    spans: &[(usize, usize)],
) -> Vec<Window> {
    let bytes = text.as_bytes();
    // First non-whitespace byte of a span (ASCII whitespace is what BPE tokens carry in front
    // of words; any other byte counts as content).
    let anchor = |(s, e): (usize, usize)| {
        (s..e)
            .find(|&i| !bytes.get(i).is_some_and(u8::is_ascii_whitespace))
            .unwrap_or(s)
    };
    let anchors: Vec<usize> = spans.iter().map(|&sp| anchor(sp)).collect();
    let n = spans.len();
    let mut out: Vec<Window> = Vec::with_capacity(sentence_bytes.len());
    let mut prev = 0;
    for &span in sentence_bytes.iter().skip(1) {
        let cut = anchors.partition_point(|&a| a < anchor(span));
        if cut > prev {
            out.push(Window {
                start: prev,
                end: cut,
            });
            prev = cut;
        }
    }
    if prev < n {
        out.push(Window {
            start: prev,
            end: n,
        });
    }
    out
}

/// Sentence byte ranges without their leading and trailing whitespace; whitespace-only
/// segments are left out (cached per text by `strategy::Document`).
pub(crate) fn trimmed_sentences(text: &str) -> Vec<(usize, usize)> {
    sentence_bytes(text, SentenceRule::Contextual)
        .into_iter()
        .filter_map(|(s, e)| {
            let seg = &text[s..e];
            let start = s + (seg.len() - seg.trim_start().len());
            let end = s + seg.trim_end().len();
            (start < end).then_some((start, end))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str, rule: SentenceRule) -> Vec<&str> {
        sentence_bytes(text, rule)
            .iter()
            .map(|&(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn terminator_runs_closers_and_whitespace_stay_with_the_sentence() {
        assert_eq!(
            split("Really?! Yes... \"Done.\"  Next", SentenceRule::Terminators),
            ["Really?! ", "Yes... ", "\"Done.\"  ", "Next"]
        );
        assert_eq!(split("a;b", SentenceRule::Terminators), ["a;", "b"]);
        assert_eq!(split("  \n ", SentenceRule::Terminators), ["  \n "]);
        assert!(split("", SentenceRule::Uax29).is_empty());
    }

    #[test]
    fn codes_are_stable_and_parse_back() {
        let codes: Vec<&str> = SentenceRule::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(
            codes,
            ["terminators", "uax29", "uax29-abbreviations", "contextual"]
        );
        for r in SentenceRule::ALL {
            assert_eq!(r.code().parse::<SentenceRule>(), Ok(r));
        }
        assert!("spacy".parse::<SentenceRule>().is_err());
    }

    #[test]
    fn blank_segments_merge() {
        assert_eq!(
            split("\n\nHello\n\n", SentenceRule::Uax29),
            ["\n\nHello\n\n"]
        );
        assert_eq!(
            split("One.\n\nTwo.", SentenceRule::Uax29),
            ["One.\n\n", "Two."]
        );
    }

    #[test]
    fn a_token_goes_with_the_sentence_of_its_first_letter() {
        // BPE-like spans: "Cats", ".", " Dogs", "."; sentence 1 starts at byte 6 ("Dogs").
        let text = "Cats. Dogs.";
        let spans = [(0, 4), (4, 5), (5, 10), (10, 11)];
        let sentences = sentence_bytes(text, SentenceRule::Terminators);
        assert_eq!(sentences, vec![(0, 6), (6, 11)]);
        assert_eq!(
            sentence_tokens(text, &sentences, &spans),
            vec![Window { start: 0, end: 2 }, Window { start: 2, end: 4 }]
        );
        // A token starting in sentence 1 belongs to it, even if sentence 1 starts inside
        // the token before; a sentence with no token of its own merges into the one before it.
        assert_eq!(
            sentence_tokens(text, &sentences, &[(0, 8), (8, 11)]),
            vec![Window { start: 0, end: 1 }, Window { start: 1, end: 2 }]
        );
        assert_eq!(
            sentence_tokens(text, &sentences, &[(0, 11)]),
            vec![Window { start: 0, end: 1 }]
        );
        assert!(sentence_tokens("", &[], &[]).is_empty());
        // Whitespace-only text under the simple tokenizer: a sentence, no token.
        assert!(sentence_tokens("  ", &[(0, 2)], &[]).is_empty());
    }
}
