//! Behaviours of langchain-text-splitters 1.1.3, each expected value taken from the library
//! itself (CPython 3.11, tiktoken cl100k_base / o200k_base).

use super::*;
use crate::strategy::{run, Chunks};

fn settings(chunk_size: usize, chunk_overlap: usize, unit: SizeUnit) -> Settings {
    Settings {
        chunk_size,
        chunk_overlap,
        unit,
        encoding: Encoding::Cl100kBase,
    }
}

fn tokens(size: usize, overlap: usize) -> Settings {
    settings(size, overlap, SizeUnit::Tokens)
}

fn chars(size: usize, overlap: usize) -> Settings {
    settings(size, overlap, SizeUnit::Characters)
}

fn recursive(s: Settings) -> LangchainRecursiveCharacterTextSplitter {
    LangchainRecursiveCharacterTextSplitter::new(&s).expect("valid sizes")
}

fn chunks(c: &dyn Chunker, text: &str) -> Chunks {
    run(c, text, Encoding::Cl100kBase).expect("the library chunks it")
}

fn texts(c: &dyn Chunker, text: &str) -> Vec<String> {
    chunks(c, text)
        .chunks
        .iter()
        .map(|ch| ch.text(text).into_owned())
        .collect()
}

/// `(text, start in chars)` of every chunk: `create_documents(...)` with `add_start_index`.
fn starts(c: &dyn Chunker, text: &str) -> Vec<(String, usize)> {
    chunks(c, text)
        .chunks
        .iter()
        .map(|ch| {
            (
                ch.text(text).into_owned(),
                text[..ch.bytes.start].chars().count(),
            )
        })
        .collect()
}

fn owned(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn pairs(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(s, i)| (s.to_string(), *i)).collect()
}

#[test]
fn e06_words_are_measured_one_by_one() {
    let text = "one two three four five six seven eight\n\nnine ten";
    // The first paragraph is 8 tokens, not < 8: split into words, whose 1-token lengths sum
    // to 8, which fits.
    let c = recursive(tokens(8, 3));
    assert_eq!(
        starts(&c, text),
        pairs(&[
            ("one two three four five six seven eight", 0),
            ("nine ten", 41)
        ])
    );
    let out = chunks(&c, text);
    assert_eq!(out.chunks[0].reason, Boundary::Paragraph);
    assert_eq!(out.chunks[1].reason, Boundary::EndOfText);
    let c = recursive(chars(8, 3));
    assert_eq!(
        texts(&c, text),
        owned(&["one two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
    );
}

#[test]
fn e07_double_spaces_and_the_overlap() {
    let text = "red  blue  green  gold  pink  grey";
    assert_eq!(
        texts(&recursive(chars(4, 2)), text),
        owned(&["red", "blu", "lue", "gre", "reen", "gol", "old", "pin", "ink", "gre", "rey"])
    );
    // In tokens the overlap keeps the previous word. LangChain reports start_index -1 for
    // the 2nd and 4th chunks (its search starts past them); the ranges are where they are.
    assert_eq!(
        starts(&recursive(tokens(4, 2)), text),
        pairs(&[
            ("red  blue", 0),
            ("blue  green", 5),
            ("green  gold", 11),
            ("gold  pink", 18),
            ("pink  grey", 24)
        ])
    );
}

#[test]
fn e11a_leading_separators_leave_no_empty_chunk() {
    let text = "\n\nHello there friend\n\nSecond part";
    let c = recursive(tokens(4, 0));
    assert_eq!(
        starts(&c, text),
        pairs(&[("Hello there friend", 2), ("Second part", 22)])
    );
    assert_eq!(
        texts(&recursive(chars(4, 0)), text),
        owned(&["Hel", "lo", "the", "re", "fri", "end", "Sec", "ond", "par", "t"])
    );
}

#[test]
fn e12_a_run_without_whitespace_terminates() {
    let text = format!("Prefix {} suffix", "x".repeat(300));
    for s in [tokens(10, 3), chars(10, 3)] {
        let got = starts(&recursive(s), &text);
        assert_eq!(got.len(), 45);
        assert_eq!(
            got[..3],
            pairs(&[("Prefix", 0), ("xxxxxxxxx", 7), ("xxxxxxxxxx", 13)])
        );
        assert_eq!(
            got[42..],
            pairs(&[("xxxxxxxxxx", 293), ("xxxxxxx", 300), ("suffix", 308)])
        );
    }
}

#[test]
fn e16_characters_are_measured_alone() {
    // 猫 alone is 3 cl100k tokens: 16 fit in 50 (48), the 17th would not.
    let text = "猫".repeat(200);
    let out = chunks(&recursive(tokens(50, 0)), &text);
    let lens: Vec<usize> = out
        .chunks
        .iter()
        .map(|c| c.text(&text).chars().count())
        .collect();
    assert_eq!(lens, [[16; 12].as_slice(), &[8]].concat());
    assert!(out.chunks.iter().all(|c| c.tokens == 48 || c.tokens == 24));
    assert!(out.chunks[..12]
        .iter()
        .all(|c| c.reason == Boundary::Character));
    // TokenTextSplitter cuts the characters: 12 windows, U+FFFD at the cuts.
    let t = LangchainTokenTextSplitter::new(&tokens(50, 0)).expect("valid");
    let got = texts(&t, &text);
    assert_eq!(got.len(), 12);
    assert_eq!(got[0], format!("{}\u{FFFD}", "猫".repeat(16)));
    assert_eq!(got[1], format!("\u{FFFD}{}\u{FFFD}", "猫".repeat(16)));
    let t = LangchainTokenTextSplitter::new(&tokens(4, 1)).expect("valid");
    assert_eq!(
        texts(&t, &"猫".repeat(5)),
        owned(&["猫\u{FFFD}", "猫\u{FFFD}", "猫\u{FFFD}", "猫\u{FFFD}", "猫"])
    );
}

#[test]
fn crlf_is_kept_inside_chunks_and_stripped_at_their_edges() {
    let text = "line one\r\nline two\r\n\r\npara two here\r\n";
    assert_eq!(
        starts(&recursive(tokens(10, 0)), text),
        pairs(&[("line one\r\nline two", 0), ("para two here", 22)])
    );
    assert_eq!(
        starts(&recursive(chars(10, 0)), text),
        pairs(&[
            ("line one", 0),
            ("line two", 10),
            ("para two", 22),
            ("here", 31)
        ])
    );
    let t = LangchainTokenTextSplitter::new(&tokens(3, 1)).expect("valid");
    assert_eq!(
        texts(&t, "line one\r\nline two"),
        owned(&["line one\r\n", "\r\nline two"])
    );
    // The header splitter strips each line, "\r" included.
    let md = "# Title\r\nline one\r\nline two\r\n\r\n## Sub\r\npara two here\r\n";
    let m = LangchainMarkdownHeaderTextSplitter::new(&tokens(10, 0)).expect("valid");
    let out = chunks(&m, md);
    assert_eq!(
        texts(&m, md),
        owned(&["line one\nline two", "para two here"])
    );
    assert_eq!(&md[out.chunks[0].bytes.clone()], "line one\r\nline two");
    assert_eq!(out.chunks[0].heading_path, ["Title"]);
    assert_eq!(out.chunks[1].heading_path, ["Title", "Sub"]);
    assert_eq!(out.chunks[1].text, None);
}

#[test]
fn special_token_strings_are_refused_where_tiktoken_encodes_them() {
    let refused = |r: Result<Vec<Piece>, StrategyError>| match r {
        Err(StrategyError::TextRefused {
            byte_offset, found, ..
        }) => Some((byte_offset, found)),
        _ => None,
    };
    let t = LangchainTokenTextSplitter::new(&tokens(10, 0)).expect("valid");
    assert_eq!(
        refused(t.split("a <|endoftext|> b")),
        Some((2, "<|endoftext|>"))
    );
    // <|fim_prefix|> is not special in o200k_base.
    let o200k = Settings {
        encoding: Encoding::O200kBase,
        ..tokens(10, 0)
    };
    let t = LangchainTokenTextSplitter::new(&o200k).expect("valid");
    assert_eq!(
        texts(&t, "a <|fim_prefix|> b"),
        owned(&["a <|fim_prefix|> b"])
    );
    let r = recursive(tokens(10, 0));
    assert_eq!(
        refused(r.split("a <|endoftext|> b")),
        Some((2, "<|endoftext|>"))
    );
    // Without any whitespace the text is cut into characters, each measured alone: no raise.
    assert_eq!(texts(&r, "<|endoftext|>"), owned(&["<|endoftex", "t|>"]));
    assert_eq!(
        texts(&recursive(chars(10, 0)), "a <|endoftext|> b"),
        owned(&["a", "<|endofte", "xt|>", "b"])
    );
    let m = LangchainMarkdownHeaderTextSplitter::new(&tokens(10, 0)).expect("valid");
    // A header's text is metadata, never measured.
    let out = chunks(&m, "# <|endoftext|>\nbody text here");
    assert_eq!(out.chunks.len(), 1);
    assert_eq!(out.chunks[0].heading_path, ["<|endoftext|>"]);
    assert_eq!(
        refused(m.split("# T\nbody <|endoftext|> x")),
        Some((9, "<|endoftext|>"))
    );
    // Removing the non-printable U+200B makes the string.
    assert_eq!(
        refused(m.split("# T\nbody <|endof\u{200b}text|> x")),
        Some((9, "<|endoftext|>"))
    );
}

#[test]
fn sizes_the_library_refuses() {
    let overlap_refused =
        |r: Result<(), StrategyError>| matches!(r, Err(StrategyError::OverlapRefused { .. }));
    // TokenTextSplitter: overlap > size in __init__, overlap == size in split_text_on_tokens,
    // even on an empty text, but after encoding: a special-token string is refused first.
    assert!(overlap_refused(
        LangchainTokenTextSplitter::new(&tokens(5, 6)).map(|_| ())
    ));
    let t = LangchainTokenTextSplitter::new(&tokens(5, 5)).expect("refused only on split");
    assert!(overlap_refused(t.split("").map(|_| ())));
    assert!(matches!(
        t.split("a <|endoftext|> b"),
        Err(StrategyError::TextRefused { byte_offset: 2, .. })
    ));
    assert_eq!(
        LangchainTokenTextSplitter::new(&chars(5, 0)).map(|_| ()),
        Err(StrategyError::UnitUnsupported {
            strategy: StrategyId::LangchainToken,
            unit: SizeUnit::Characters
        })
    );
    assert!(overlap_refused(
        LangchainRecursiveCharacterTextSplitter::new(&chars(3, 4)).map(|_| ())
    ));
    assert!(overlap_refused(
        LangchainMarkdownHeaderTextSplitter::new(&chars(3, 4)).map(|_| ())
    ));
    assert_eq!(
        LangchainRecursiveCharacterTextSplitter::new(&chars(0, 0)).map(|_| ()),
        Err(StrategyError::Params(
            crate::params::ParamsError::ZeroChunkSize
        ))
    );
    // The recursive splitter accepts overlap == size.
    assert_eq!(
        starts(&recursive(chars(3, 3)), "one two three"),
        pairs(&[
            ("one", 0),
            ("tw", 4),
            ("two", 4),
            ("th", 8),
            ("thr", 8),
            ("hre", 9),
            ("ree", 10)
        ])
    );
}

#[test]
fn empty_text_gives_no_chunks() {
    let t = LangchainTokenTextSplitter::new(&tokens(5, 0)).expect("valid");
    let m = LangchainMarkdownHeaderTextSplitter::new(&tokens(5, 0)).expect("valid");
    let r = recursive(chars(5, 0));
    for c in [&t as &dyn Chunker, &m, &r] {
        assert_eq!(c.split(""), Ok(vec![]));
    }
    assert_eq!(m.split("# Only a header\n\n## And another"), Ok(vec![]));
}

#[test]
fn a_split_longer_than_the_size_is_kept_whole_and_unstripped() {
    // Size 1: every character is ≥ 1, so each is appended as it is, whitespace included.
    assert_eq!(
        texts(&recursive(chars(1, 0)), "a b"),
        owned(&["a", " ", "b"])
    );
    assert_eq!(
        texts(&recursive(tokens(1, 0)), "a b\n"),
        owned(&["a", " ", "b", "\n"])
    );
    // Two 1-token words fit in 2 though "one two" is measured as 1 + 1.
    assert_eq!(
        texts(&recursive(tokens(2, 0)), "one two"),
        owned(&["one two"])
    );
}

#[test]
fn keep_separator_and_strip_whitespace_variants() {
    let mut c = recursive(chars(100, 0));
    c.keep_separator = KeepSeparator::False;
    // Empty splits between the two "\n\n" are dropped, the separator put back once.
    let text = "one\n\n\n\ntwo";
    let out = chunks(&c, text);
    assert_eq!(out.chunks[0].text.as_deref(), Some("one\n\ntwo"));
    assert_eq!(out.chunks[0].bytes, 0..text.len());
    let text = "one\n\n\n\ntwo three";
    for keep in [KeepSeparator::False, KeepSeparator::End] {
        let mut c = recursive(chars(5, 0));
        c.keep_separator = keep;
        assert_eq!(
            starts(&c, text),
            pairs(&[("one", 0), ("two", 7), ("three", 11)])
        );
    }
    let mut c = recursive(chars(5, 0));
    c.strip_whitespace = false;
    assert_eq!(
        starts(&c, "one\n\ntwo three"),
        pairs(&[("one", 0), ("\n", 3), ("\ntwo", 4), (" thre", 8), ("e", 13)])
    );
}

#[test]
fn python_strip_removes_the_information_separators() {
    assert_eq!(
        starts(&recursive(chars(5, 0)), "\u{1c}abc\u{1c} def"),
        pairs(&[("abc", 1), ("def", 6)])
    );
}

#[test]
fn ranges_are_where_chunks_are_not_where_start_index_searches() {
    // LangChain's add_start_index searches each chunk from `previous start + previous length
    // − chunk_overlap`, which here is the previous start: it reports 0 for all five.
    let got = chunks(&recursive(chars(4, 4)), "xxxxxxxx");
    let ranges: Vec<_> = got.chunks.iter().map(|c| c.bytes.clone()).collect();
    assert_eq!(ranges, [0..4, 1..5, 2..6, 3..7, 4..8]);
}

#[test]
fn markdown_headers_lines_and_code_fences() {
    let md = "Intro line\n# Guide\n\ttabbed\u{a0}text \r\nnext\n\n#NotHeader\n#### deep\n```\n\
              # in code\n\n```\n## Setup\nlinux\n# Guide\nagain";
    let m = LangchainMarkdownHeaderTextSplitter::new(&chars(1000, 0)).expect("valid");
    let out = chunks(&m, md);
    let got: Vec<(String, Vec<String>)> = out
        .chunks
        .iter()
        .map(|c| (c.text(md).into_owned(), c.heading_path.clone()))
        .collect();
    let want = [
        ("Intro line", vec![]),
        (
            "tabbedtext\nnext  \n#NotHeader\n#### deep\n```\n# in code\n\n```",
            vec!["Guide"],
        ),
        ("linux", vec!["Guide", "Setup"]),
        ("again", vec!["Guide"]),
    ];
    let want: Vec<(String, Vec<String>)> = want
        .iter()
        .map(|(t, p)| (t.to_string(), owned(p)))
        .collect();
    assert_eq!(got, want);
    // The rewritten chunk spans its source lines, from "tabbed" to the closing fence.
    let b = out.chunks[1].bytes.clone();
    assert!(md[b.clone()].starts_with("tabbed\u{a0}text \r\nnext\n\n#NotHeader"));
    assert!(md[b].ends_with("# in code\n\n```"));
    assert!(out.chunks[1].flags.text_changed);
    assert_eq!(out.chunks[0].text, None);
    let reasons: Vec<Boundary> = out.chunks.iter().map(|c| c.reason).collect();
    assert_eq!(
        reasons,
        [
            Boundary::Section,
            Boundary::Section,
            Boundary::Section,
            Boundary::EndOfText
        ]
    );
    // The recursive splitter then cuts each section.
    let m = LangchainMarkdownHeaderTextSplitter::new(&chars(6, 0)).expect("valid");
    assert_eq!(
        texts(&m, md),
        owned(&[
            "Intro", "line", "tabbed", "text", "next", "#NotH", "eader", "####", "deep", "```",
            "# in", "code", "```", "linux", "again"
        ])
    );
}

#[test]
fn reasons_follow_the_separator_level_of_the_cut() {
    let text = "para one\n\npara two\nline three";
    let out = chunks(&recursive(chars(9, 0)), text);
    let got: Vec<(String, Boundary)> = out
        .chunks
        .iter()
        .map(|c| (c.text(text).into_owned(), c.reason))
        .collect();
    assert_eq!(
        got,
        [
            ("para one".to_string(), Boundary::Paragraph),
            ("para two".to_string(), Boundary::Line),
            ("line".to_string(), Boundary::Word),
            ("three".to_string(), Boundary::EndOfText),
        ]
    );
}

#[test]
fn huge_sizes_give_one_chunk() {
    let text = "one two\n\nthree";
    let t = LangchainTokenTextSplitter::new(&tokens(usize::MAX, 0)).expect("valid");
    let r = recursive(tokens(usize::MAX, usize::MAX));
    let m = LangchainMarkdownHeaderTextSplitter::new(&chars(usize::MAX, 1)).expect("valid");
    for c in [&t as &dyn Chunker, &r] {
        assert_eq!(texts(c, text), owned(&["one two\n\nthree"]));
    }
    // The header splitter joined the two blocks.
    assert_eq!(texts(&m, text), owned(&["one two  \nthree"]));
}

fn markdown_language(s: Settings) -> LangchainMarkdownLanguageSplitter {
    LangchainMarkdownLanguageSplitter::new(&s).expect("valid sizes")
}

#[test]
fn from_language_markdown_splits_at_headings_rules_and_fences_first() {
    let text = "Intro line.\n# One\nText of one.\n####### not a heading\n## Two\nText.\n---\nAfter the rule.\n```\ncode\n```\nEnd.";
    // `from_language(Language.MARKDOWN, chunk_size=30, chunk_overlap=0)` with `add_start_index`.
    let c = markdown_language(chars(30, 0));
    assert_eq!(
        starts(&c, text),
        pairs(&[
            ("Intro line.", 0),
            ("# One\nText of one.", 12),
            ("####### not a heading", 31),
            ("## Two\nText.", 53),
            ("---\nAfter the rule.", 66),
            ("```\ncode\n```\nEnd.", 86)
        ])
    );
    // The plain recursive splitter cuts the same text at lines and words instead.
    assert_eq!(
        texts(&recursive(chars(30, 0)), text),
        owned(&[
            "Intro line.\n# One\nText of one.",
            "####### not a heading\n## Two",
            "Text.\n---\nAfter the rule.\n```",
            "code\n```\nEnd."
        ])
    );
    // Seven marks are no heading: the line stays with the section before it.
    assert_eq!(
        starts(&markdown_language(chars(60, 0)), text),
        pairs(&[
            ("Intro line.\n# One\nText of one.\n####### not a heading", 0),
            (
                "## Two\nText.\n---\nAfter the rule.\n```\ncode\n```\nEnd.",
                53
            )
        ])
    );
    // In tokens (`from_tiktoken_encoder(..., separators=..., is_separator_regex=True)`).
    let c = markdown_language(tokens(8, 2));
    assert_eq!(
        texts(&c, text),
        owned(&[
            "Intro line.",
            "# One\nText of one.",
            "####### not a heading",
            "## Two\nText.",
            "---\nAfter the rule.",
            "```\ncode\n```\nEnd."
        ])
    );
    // A cut at a heading or a rule is a section boundary; "# One" is too long with the line
    // after it and is split again at its line feeds.
    let reasons: Vec<Boundary> = chunks(&c, text).chunks.iter().map(|c| c.reason).collect();
    assert_eq!(
        reasons,
        [
            Boundary::Section,
            Boundary::Line,
            Boundary::Section,
            Boundary::Section,
            Boundary::Line,
            Boundary::EndOfText
        ]
    );
}

#[test]
fn from_language_markdown_lists_the_librarys_parameters_and_refusals() {
    let c = markdown_language(chars(300, 30));
    let p = c.parameters();
    assert!(p.contains(&("language", "Language.MARKDOWN".to_owned())));
    assert!(p.contains(&("is_separator_regex", "True".to_owned())));
    assert!(p.contains(&(
        "separators",
        r#"["\n#{1,6} ", "```\n", "\n\\*\\*\\*+\n", "\n---+\n", "\n___+\n", "\n\n", "\n", " ", ""]"#
            .to_owned()
    )));
    assert_eq!(c.keeps(), crate::strategy::Keeps::AllButWhitespace);
    assert_eq!(
        LangchainMarkdownLanguageSplitter::new(&chars(10, 11)).unwrap_err(),
        StrategyError::OverlapRefused {
            strategy: StrategyId::LangchainMarkdownLanguage,
            library: PACKAGE,
            chunk_size: 10,
            chunk_overlap: 11
        }
    );
    let refused = run(
        &markdown_language(tokens(64, 0)),
        "# Title\nends with <|endoftext|> here.",
        Encoding::Cl100kBase,
    );
    assert!(matches!(
        refused,
        Err(StrategyError::TextRefused {
            strategy: StrategyId::LangchainMarkdownLanguage,
            ..
        })
    ));
    assert!(chunks(&markdown_language(chars(100, 0)), "")
        .chunks
        .is_empty());
}
