//! Sentence rules scored against golden sentence-boundary sets, and the rules' invariants.
//!
//! - `sentences/golden_en.json`: the 48 English exemplars of Pragmatic Segmenter's Golden Rules
//!   (Kevin S. Dias, MIT licence), as kept in pySBD's test suite (MIT licence).
//! - `sentences/languages.json`: this project's own cases in every UI language, CJK and Hindi.
//! - `sentences/heldout.json`: a held-out set, written without sight of the contextual rule.
//!
//! Sources and licences: `sentences/SOURCE.md`.
//!
//! A case is right when the rule's sentences, each trimmed of surrounding whitespace, equal the
//! expected ones. Run with `--nocapture` to see the score table.

use chunk_core::segment::sentences::{sentence_bytes, SentenceRule};
use chunk_core::strategy::punkt_sentence_starts;
use proptest::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Case {
    text: String,
    sentences: Vec<String>,
}

#[derive(Deserialize)]
struct Golden {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Languages {
    languages: BTreeMap<String, Vec<Case>>,
}

fn golden() -> Vec<Case> {
    serde_json::from_str::<Golden>(include_str!("sentences/golden_en.json"))
        .expect("golden_en.json parses")
        .cases
}

fn languages() -> BTreeMap<String, Vec<Case>> {
    serde_json::from_str::<Languages>(include_str!("sentences/languages.json"))
        .expect("languages.json parses")
        .languages
}

fn heldout() -> BTreeMap<String, Vec<Case>> {
    serde_json::from_str::<Languages>(include_str!("sentences/heldout.json"))
        .expect("heldout.json parses")
        .languages
}

fn split(text: &str, rule: SentenceRule) -> Vec<String> {
    pieces(text, sentence_bytes(text, rule).iter().map(|&(s, _)| s))
}

/// Trimmed, non-empty texts between consecutive starts (the text before the first start is
/// whitespace for every splitter scored here).
fn pieces(text: &str, starts: impl Iterator<Item = usize>) -> Vec<String> {
    let starts: Vec<usize> = starts.collect();
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&s, e)| text[s..e].trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The 1-based numbers of the cases `rule` gets wrong.
fn wrong(cases: &[Case], rule: SentenceRule) -> Vec<usize> {
    wrong_by(cases, |t| split(t, rule))
}

/// The 1-based numbers of the cases `split` gets wrong.
fn wrong_by(cases: &[Case], split: impl Fn(&str) -> Vec<String>) -> Vec<usize> {
    cases
        .iter()
        .enumerate()
        .filter(|(_, c)| split(&c.text) != c.sentences)
        .map(|(i, _)| i + 1)
        .collect()
}

/// NLTK's Punkt, untrained, as llama-index builds it (the library strategy's own rule).
fn punkt(text: &str) -> Vec<String> {
    pieces(text, punkt_sentence_starts(text).into_iter())
}

fn name(rule: SentenceRule) -> &'static str {
    match rule {
        SentenceRule::Terminators => "terminators",
        SentenceRule::Uax29 => "UAX #29",
        SentenceRule::Uax29Abbreviations => "UAX #29 + abbreviations",
        SentenceRule::Contextual => "contextual",
    }
}

/// A sentence splitter under test: text → trimmed sentences.
type Splitter = dyn Fn(&str) -> Vec<String>;

/// "right/total" of `split` on `cases`.
fn score(cases: &[Case], split: impl Fn(&str) -> Vec<String>) -> String {
    format!(
        "{}/{}",
        cases.len() - wrong_by(cases, split).len(),
        cases.len()
    )
}

/// Prints, per splitter, its score on the golden rules, on our cases per language and on the
/// held-out cases per language (`--nocapture`); the contextual rule's held-out misses in full.
#[test]
fn score_table() {
    let golden = golden();
    let sets = [("own", languages()), ("held out", heldout())];
    let mut splitters: Vec<(&str, Box<Splitter>)> = SentenceRule::ALL
        .iter()
        .map(|&r| {
            let f: Box<Splitter> = Box::new(move |t| split(t, r));
            (name(r), f)
        })
        .collect();
    splitters.push(("Punkt (untrained)", Box::new(punkt)));
    for (set, cases) in &sets {
        let langs: Vec<&str> = cases.keys().map(String::as_str).collect();
        println!("{set}: rule | golden rules (en) | {}", langs.join(" | "));
        for (name, f) in &splitters {
            let row: Vec<String> = cases.values().map(|c| score(c, f)).collect();
            println!(
                "{set}: {name} | {} | {}",
                score(&golden, f),
                row.join(" | ")
            );
        }
    }
    for (lang, cases) in &sets[1].1 {
        for i in wrong(cases, SentenceRule::Contextual) {
            let case = &cases[i - 1];
            println!(
                "held out, contextual, wrong {lang} {i}: want {:?}, got {:?}",
                case.sentences,
                split(&case.text, SentenceRule::Contextual)
            );
        }
    }
}

#[test]
fn contextual_rule_gets_47_of_the_48_golden_rules() {
    // Case 18 ("At 5 a.m. Mr. Smith went to the bank. He left the bank at 6 P.M. Mr. Smith
    // then went to the store.") wants a sentence to end at "6 P.M." but not at "5 a.m."
    // before the same "Mr. Smith"; no rule on the words around the full stop can tell them
    // apart (pySBD marks it as an expected failure too).
    let golden = golden();
    assert_eq!(golden.len(), 48);
    assert_eq!(wrong(&golden, SentenceRule::Contextual), [18]);
}

#[test]
fn contextual_rule_gets_every_language_case() {
    for (lang, cases) in languages() {
        for case in &cases {
            assert_eq!(
                split(&case.text, SentenceRule::Contextual),
                case.sentences,
                "{lang}"
            );
        }
    }
}

#[test]
fn contextual_rule_on_the_held_out_cases() {
    // Written by a contributor who had not seen the rule. Before the two fixes they prompted
    // (the Hindi "डॉ." and a dash-led speech tag after a quotation), the rule got 72 of 75.
    // Case hi 5 ("…चलोगे?" उसने पूछा।) stays wrong: in a script without letter case nothing
    // tells a speech tag after a quoted question from a new sentence.
    for (lang, cases) in heldout() {
        let want: &[usize] = if lang == "hi" { &[5] } else { &[] };
        assert_eq!(wrong(&cases, SentenceRule::Contextual), want, "{lang}");
    }
}

#[test]
fn the_other_rules_keep_their_scores() {
    // The figures the issue measured the old rules at; a change here changes what the page
    // says about them.
    let golden = golden();
    let scores: Vec<usize> = SentenceRule::ALL
        .iter()
        .map(|&r| golden.len() - wrong(&golden, r).len())
        .collect();
    assert_eq!(scores, [12, 28, 30, 47]);
}

/// Text made of the characters sentence rules look at.
fn sentence_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        ".",
        ". ",
        "?",
        "!",
        "…",
        "。",
        "！",
        "？",
        "।",
        " ",
        "\n",
        "\n\n",
        "  ",
        "\t",
        "Dr",
        "U.S",
        "e.g",
        "a",
        "b",
        "A",
        "I",
        "J",
        "1",
        "2",
        "10",
        ")",
        ".)",
        "(",
        "[",
        "]",
        "\"",
        "'",
        "”",
        "“",
        "《",
        "》",
        "「",
        "」",
        "•",
        "⁃",
        "#",
        "- ",
        "|",
        "word",
        "Word",
        "г",
        "r",
        "ул",
        "Москва",
        "東京",
        "é",
        "\u{301}",
        "🙂",
        "*",
        "\u{2006}",
        "\u{3000}",
        "\u{a0}",
        "—",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every rule tiles the text: spans in order, non-empty, on character boundaries, from 0 to
    /// the end; none holds only whitespace unless the whole text is whitespace.
    #[test]
    fn every_rule_tiles_the_text(text in sentence_soup()) {
        for rule in SentenceRule::ALL {
            let spans = sentence_bytes(&text, rule);
            let mut at = 0;
            for &(s, e) in &spans {
                prop_assert_eq!(s, at);
                prop_assert!(e > s);
                prop_assert!(text.is_char_boundary(e));
                at = e;
            }
            prop_assert_eq!(at, text.len());
            if spans.len() > 1 {
                for &(s, e) in &spans {
                    prop_assert!(!text[s..e].trim().is_empty(), "{:?} in {:?}", &text[s..e], text);
                }
            }
        }
    }

    /// A sentence ends where the rule says whatever follows: the spans of a prefix that ends
    /// at a sentence boundary followed by a blank line are the first spans of the whole.
    #[test]
    fn a_blank_line_always_ends_a_sentence(a in sentence_soup(), b in sentence_soup()) {
        prop_assume!(!a.trim().is_empty() && !b.trim().is_empty());
        let text = format!("{}\n\n{}", a.trim_end(), b.trim_start());
        let cut = a.trim_end().len() + 2;
        let spans = sentence_bytes(&text, SentenceRule::Contextual);
        prop_assert!(spans.iter().any(|&(s, _)| s == cut), "{:?}", text);
    }
}
