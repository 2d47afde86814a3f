//! Edge cases E06, E07, E11, E12, E13 and E16 (shared/cases/edge-cases.md) for the product's
//! own strategies, through the strategy API (`chunker` + `run`). Fixed windows, sentence
//! packing and recursive have their real expected values asserted; every own strategy (the
//! markdown and section-budget ones included) passes every gate check on every case; E13 is
//! checked for the two strategies that read markdown (headings only from outside code blocks,
//! no cut inside a fenced block when the section fits).

use crate::no_hang;
use crate::strategies::{check_own_chunks, own, run_case, settings};
use chunk_core::strategy::{Boundary, Chunks, Settings, SizeUnit, StrategyId};

const TOKENS: SizeUnit = SizeUnit::Tokens;

/// Runs an own strategy, checks it with every gate check, and returns its chunks; `None`
/// when the strategy is not under test (`GATE_STRATEGIES`) or cannot size in the unit.
fn chunks(id: StrategyId, text: &str, s: Settings) -> Option<Chunks> {
    if !own().contains(&id) || !id.supports(s.unit) {
        return None;
    }
    let c = run_case(id, text, &s)
        .unwrap_or_else(|e| panic!("{id} {s:?}: {e}"))
        .unwrap_or_else(|| panic!("{id} {s:?}: refused"));
    check_own_chunks(id, text, &s, &c).unwrap_or_else(|e| panic!("{id} {s:?}: {e}"));
    Some(c)
}

fn texts(c: &Chunks, text: &str) -> Vec<String> {
    c.chunks
        .iter()
        .map(|ch| ch.text(text).into_owned())
        .collect()
}

fn token_ranges(c: &Chunks) -> Vec<(usize, usize)> {
    c.chunks
        .iter()
        .map(|ch| {
            let r = ch.token_range.clone().expect("on token boundaries");
            (r.start, r.end)
        })
        .collect()
}

/// The overlap of each chunk with the one before, in tokens, read from the chunks' token
/// ranges (never from the setting): 0 for the first.
fn measured_overlaps(c: &Chunks) -> Vec<usize> {
    let r = token_ranges(c);
    (0..r.len())
        .map(|i| {
            if i == 0 {
                0
            } else {
                r[i - 1].1.saturating_sub(r[i].0)
            }
        })
        .collect()
}

fn reasons(c: &Chunks) -> Vec<Boundary> {
    c.chunks.iter().map(|ch| ch.reason).collect()
}

/// Every own strategy passes the gate checks on `text` with `s` (values asserted elsewhere).
fn all_own_pass(text: &str, s: Settings) {
    for id in own() {
        chunks(id, text, s);
    }
}

#[test]
fn e06_overlap_is_measured_from_the_chunks() {
    no_hang::ensure();
    let text = "one two three four five six seven eight\n\nnine ten";
    let s = settings(8, 3, TOKENS);
    all_own_pass(text, s);
    if let Some(c) = chunks(StrategyId::Fixed, text, s) {
        assert_eq!(token_ranges(&c), [(0, 8), (5, 11)]);
        assert_eq!(measured_overlaps(&c), [0, 3]);
    }
    // The first paragraph with its blank line is one 9-token sentence: oversize, alone, and
    // too long to step back over, so the real overlap is 0 although 3 was asked.
    if let Some(c) = chunks(StrategyId::Sentence, text, s) {
        assert_eq!(token_ranges(&c), [(0, 9), (9, 11)]);
        assert_eq!(measured_overlaps(&c), [0, 0]);
        assert!(c.chunks[0].flags.oversize);
    }
    // The paragraph with its blank line (9 tokens) does not fit 8, so the cut falls at a
    // word; the next chunk steps back over whole words of at most 3 tokens (" six seven ").
    if let Some(c) = chunks(StrategyId::Recursive, text, s) {
        assert_eq!(
            texts(&c, text),
            [
                "one two three four five six seven ",
                "six seven eight\n\nnine ten"
            ]
        );
        assert_eq!(reasons(&c), [Boundary::Word, Boundary::EndOfText]);
    }
    // At 9 the paragraph fits with its separator; stepping back is by whole paragraphs, and
    // the paragraph is longer than 3: real overlap 0.
    if let Some(c) = chunks(StrategyId::Recursive, text, settings(9, 3, TOKENS)) {
        assert_eq!(
            texts(&c, text),
            ["one two three four five six seven eight\n\n", "nine ten"]
        );
        assert_eq!(reasons(&c), [Boundary::Paragraph, Boundary::EndOfText]);
    }
}

#[test]
fn e07_every_chunk_fits_counting_overlap_and_separators() {
    no_hang::ensure();
    let text = "red  blue  green  gold  pink  grey";
    let s = settings(4, 2, TOKENS);
    all_own_pass(text, s);
    if let Some(c) = chunks(StrategyId::Recursive, text, s) {
        assert_eq!(
            texts(&c, text),
            [
                "red  blue  ",
                "blue  green  ",
                "green  gold  ",
                "gold  pink  ",
                "pink  grey"
            ]
        );
        assert_eq!(
            c.chunks.iter().map(|ch| ch.tokens).collect::<Vec<_>>(),
            [4, 4, 4, 4, 3]
        );
        // The text each chunk repeats from the one before: one word and its separator, 2
        // tokens each.
        let repeated: Vec<&str> = c
            .chunks
            .windows(2)
            .map(|w| &text[w[1].bytes.start..w[0].bytes.end])
            .collect();
        assert_eq!(repeated, ["blue  ", "green  ", "gold  ", "pink  "]);
    }
    if let Some(c) = chunks(StrategyId::Fixed, text, s) {
        assert_eq!(token_ranges(&c), [(0, 4), (2, 6), (4, 8), (6, 10), (8, 11)]);
    }
    // Sentence packing at S=10 O=4 on a multi-sentence text: neither short sentence fits in
    // the overlap; the 16-token sentence is alone and flagged.
    let text = "Cats sleep a lot. Dogs bark at night. And here is a much longer closing sentence that keeps going well past the limit.";
    let s = settings(10, 4, TOKENS);
    all_own_pass(text, s);
    if let Some(c) = chunks(StrategyId::Sentence, text, s) {
        assert_eq!(
            texts(&c, text),
            [
                "Cats sleep a lot. ",
                "Dogs bark at night. ",
                "And here is a much longer closing sentence that keeps going well past the limit."
            ]
        );
        let oversize: Vec<bool> = c.chunks.iter().map(|ch| ch.flags.oversize).collect();
        assert_eq!(oversize, [false, false, true]);
        // No overlap: each chunk starts where the one before ends.
        assert!(c
            .chunks
            .windows(2)
            .all(|w| w[0].bytes.end == w[1].bytes.start));
    }
}

#[test]
fn e11_no_empty_chunk_and_blank_chunks_are_flagged() {
    no_hang::ensure();
    let text = "\n\nHello there friend\n\nSecond part";
    let s = settings(4, 0, TOKENS);
    all_own_pass(text, s);
    if let Some(c) = chunks(StrategyId::Recursive, text, s) {
        assert_eq!(
            texts(&c, text),
            ["\n\nHello there ", "friend\n\nSecond part"]
        );
        assert!(c.chunks.iter().all(|ch| !ch.flags.whitespace_only));
    }
    if let Some(c) = chunks(StrategyId::Fixed, text, s) {
        assert_eq!(
            texts(&c, text),
            ["\n\nHello there friend", "\n\nSecond part"]
        );
    }
    // The blank lines go with the sentence before them: the first sentence is 5 tokens.
    if let Some(c) = chunks(StrategyId::Sentence, text, s) {
        assert_eq!(
            texts(&c, text),
            ["\n\nHello there friend\n\n", "Second part"]
        );
        assert!(c.chunks[0].flags.oversize);
    }
    // E11-B: fixed windows show the trailing spaces as a flagged blank chunk; recursive keeps
    // them with the last word, and the space between the words with the first.
    let text = "Tail text.   ";
    let s = settings(3, 0, TOKENS);
    all_own_pass(text, s);
    if let Some(c) = chunks(StrategyId::Fixed, text, s) {
        assert_eq!((c.document_tokens, c.total_tokens()), (4, 4));
        let blank: Vec<bool> = c.chunks.iter().map(|ch| ch.flags.whitespace_only).collect();
        assert_eq!(blank, [false, true]);
    }
    if let Some(c) = chunks(StrategyId::Recursive, text, s) {
        assert_eq!(texts(&c, text), ["Tail ", "text.   "]);
        assert_eq!(reasons(&c), [Boundary::Word, Boundary::EndOfText]);
    }
}

#[test]
fn e12_a_long_word_with_overlap_terminates_within_the_size() {
    no_hang::ensure();
    let text = format!("Prefix {} suffix", "x".repeat(300));
    let s = settings(10, 3, TOKENS);
    all_own_pass(&text, s);
    if let Some(c) = chunks(StrategyId::Fixed, &text, s) {
        assert_eq!(
            token_ranges(&c),
            [(0, 10), (7, 17), (14, 24), (21, 31), (28, 38), (35, 41)]
        );
    }
    if let Some(c) = chunks(StrategyId::Sentence, &text, s) {
        assert_eq!(token_ranges(&c), [(0, 41)]);
        assert!(c.chunks[0].flags.oversize);
    }
    if let Some(c) = chunks(StrategyId::Recursive, &text, s) {
        assert!(c
            .chunks
            .iter()
            .all(|ch| ch.tokens <= 10 && !ch.flags.oversize));
        let t = texts(&c, &text);
        assert_eq!(t[0], "Prefix ");
        assert!(t.last().expect("chunks").ends_with(" suffix"));
        // The second chunk starts after the space (inside the document's token " xxx…"); from
        // there the chunks are on token boundaries and step back 3 tokens, then only 1 where
        // 3 would leave no room for " suffix" without a cut inside a word.
        let ranges: Vec<(usize, usize)> = c.chunks[2..]
            .iter()
            .map(|ch| {
                let r = ch.token_range.clone().expect("on token boundaries");
                (r.start, r.end)
            })
            .collect();
        assert_eq!(ranges, [(8, 18), (15, 25), (22, 32), (31, 41)]);
        assert_eq!(c.chunks.len(), 6);
    }
}

const E13_TILDE: &str = "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n## Usage\nRun it.";

#[test]
fn e13_a_comment_in_a_fenced_block_is_not_a_heading() {
    no_hang::ensure();
    let backtick = E13_TILDE.replace("~~~", "```");
    for text in [E13_TILDE, backtick.as_str()] {
        let fence = text.find("bash\n").expect("fence") + 5;
        let fence_end = text.rfind("\n## Usage").expect("usage");
        for size in [1000, 24, 12, 6] {
            let s = settings(size, 0, TOKENS);
            // Markdown-only: the strategies that read markdown structure.
            for id in [StrategyId::Markdown, StrategyId::SectionBudget] {
                let Some(c) = chunks(id, text, s) else {
                    continue;
                };
                for ch in &c.chunks {
                    for h in &ch.heading_path {
                        let h = h.trim_start_matches('#').trim();
                        assert!(
                            h == "Setup" || h == "Usage",
                            "{id} size {size}: heading {h:?}"
                        );
                    }
                    // With room for a whole section, nothing cuts inside the code block.
                    if size == 1000 {
                        let inside = |b: usize| fence < b && b < fence_end;
                        assert!(
                            !inside(ch.bytes.start) && !inside(ch.bytes.end),
                            "{id}: cut inside the fenced block at {:?}",
                            ch.bytes
                        );
                    }
                }
                // The markdown strategy names each chunk's section.
                if id == StrategyId::Markdown && size == 12 {
                    let last = |ch: &chunk_core::strategy::Chunk| {
                        ch.heading_path
                            .last()
                            .map(|h| h.trim_start_matches('#').trim().to_string())
                    };
                    let sections: Vec<Option<String>> = c.chunks.iter().map(last).collect();
                    assert!(sections.contains(&Some("Setup".into())), "{sections:?}");
                    assert!(sections.contains(&Some("Usage".into())), "{sections:?}");
                }
            }
        }
    }
}

#[test]
fn e16_cjk_without_spaces_is_cut_between_characters() {
    no_hang::ensure();
    let text = "猫".repeat(200);
    let s = settings(50, 0, TOKENS);
    all_own_pass(&text, s);
    if let Some(c) = chunks(StrategyId::Recursive, &text, s) {
        let lens: Vec<usize> = texts(&c, &text).iter().map(|t| t.chars().count()).collect();
        assert_eq!(lens, [[16; 12].as_slice(), &[8]].concat());
        let tokens: Vec<usize> = c.chunks.iter().map(|ch| ch.tokens).collect();
        assert_eq!(tokens, [[48; 12].as_slice(), &[24]].concat());
        assert!(texts(&c, &text).iter().all(|t| !t.contains('\u{FFFD}')));
        assert_eq!(texts(&c, &text).concat(), text);
    }
    // Fixed windows cut inside characters: every window shows U+FFFD for its cut parts, and
    // the windows' bytes rebuild the text.
    // (A 猫 is 3 one-byte tokens, so a window of 50 tokens is 50 bytes.)
    if let Some(c) = chunks(StrategyId::Fixed, &text, s) {
        assert_eq!(c.chunks.len(), 12);
        assert!(c.chunks.iter().all(|ch| ch.bytes.len() == 50));
        assert!(c
            .chunks
            .iter()
            .all(|ch| ch.text(&text).contains('\u{FFFD}')));
        assert!(c.chunks.iter().all(|ch| ch.flags.text_changed));
        let bytes: Vec<u8> = c
            .chunks
            .iter()
            .flat_map(|ch| text.as_bytes()[ch.bytes.clone()].to_vec())
            .collect();
        assert_eq!(bytes, text.as_bytes());
    }
    // One sentence of 600 tokens: one chunk, flagged.
    if let Some(c) = chunks(StrategyId::Sentence, &text, s) {
        assert_eq!(token_ranges(&c), [(0, 600)]);
        assert!(c.chunks[0].flags.oversize);
    }
}

#[test]
fn e01_overlap_at_the_size_is_clamped_for_own_strategies() {
    no_hang::ensure();
    let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    for (size, overlap) in [(2, 2), (5, 5)] {
        all_own_pass(text, settings(size, overlap, TOKENS));
        all_own_pass(text, settings(size * 4, overlap * 4, SizeUnit::Characters));
    }
    if let Some(c) = chunks(StrategyId::Fixed, text, settings(2, 2, TOKENS)) {
        assert_eq!(c.chunks.len(), 10);
    }
    if let Some(c) = chunks(StrategyId::Sentence, text, settings(5, 5, TOKENS)) {
        assert_eq!(token_ranges(&c), [(0, 11)]);
    }
    if let Some(c) = chunks(StrategyId::Recursive, text, settings(2, 2, TOKENS)) {
        assert_eq!(
            texts(&c, text),
            [
                "alpha ",
                "beta ",
                "gamma ",
                "delta ",
                "epsilon ",
                "z",
                "eta ",
                "eta ",
                "theta ",
                "iota",
                "ota kappa"
            ]
        );
    }
}
