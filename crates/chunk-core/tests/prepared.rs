//! A prepared document ([`Document`], [`run_prepared`], [`summary_prepared`]) gives exactly what
//! measuring every chunk from scratch gives: for every strategy, in both encodings, in tokens and
//! in characters, on texts of every script, the chunks equal a reference built here the slow
//! way — the strategy's pieces cut with no document prepared (every count inside the strategy a
//! plain encode), each chunk's tokens a fresh `Bpe::count` of its text, token ranges from a
//! fresh encode of the whole text — and the summary equals [`summary`], which re-encodes every
//! repeat and segments the sentences again. One document serves every strategy in turn, as the
//! page's worker uses it.

use chunk_core::analysis::{summary, summary_prepared, LimitCheck};
use chunk_core::strategy::length::Length;
use chunk_core::strategy::{
    chunker, run_prepared, Chunk, ChunkFlags, Chunker, Chunks, Document, Settings, SizeUnit,
    StrategyError, StrategyId,
};
use chunk_core::tokenizer::Encoding;
use chunk_core::tokenizer::TokenCounter;

/// The old `run`: every figure measured from scratch.
fn reference(c: &dyn Chunker, text: &str, encoding: Encoding) -> Result<Chunks, StrategyError> {
    let pieces = c.split(text)?;
    let bpe = encoding.tokenizer();
    let offsets = bpe.encode(text).offsets;
    let budget = c.budget();
    let token_at = |byte: usize| offsets.binary_search(&byte).ok();
    let chunks = pieces
        .into_iter()
        .map(|p| {
            let own: String = match &p.text {
                Some(t) => t.clone(),
                None => text[p.bytes.clone()].to_owned(),
            };
            let tokens = bpe.count(&own);
            let length = budget.1.count(&own);
            let token_range = match (&p.text, token_at(p.bytes.start), token_at(p.bytes.end)) {
                (None, Some(a), Some(b)) => Some(a..b),
                _ => None,
            };
            Chunk {
                flags: ChunkFlags {
                    oversize: length > budget.0,
                    prefix_over_budget: p.prefix_over_budget,
                    whitespace_only: own.trim().is_empty(),
                    text_changed: p.text.is_some(),
                },
                bytes: p.bytes,
                tokens,
                token_range,
                length,
                text: p.text,
                heading_path: p.heading_path,
                code_info: p.code_info,
                reason: p.reason,
            }
        })
        .collect();
    Ok(Chunks {
        strategy: c.id(),
        chunks,
        encoding,
        document_tokens: offsets.len() - 1,
        budget,
        keeps: c.keeps(),
        overlap_clamped: c.overlap_clamped(),
        overlap_ignored: c.overlap_ignored(),
    })
}

fn texts() -> Vec<String> {
    let corpus = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/tests/differential/corpus/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("corpus file")
    };
    let mixed = [
        "# Setup\n\nInstall it: don't skip 'S and 'LL.  Dr. Lee said so.\r\n\r\n",
        "## Linux\n\n```sh\ncargo build --release   \n```\n\n",
        "Zażółć gęślą jaźń. ПРИВЕТ мир! Tiếng Việt có dấu.\n\n\n",
        "日本語の文章です。中文句子，很长。カタカナ ｶﾀｶﾅ\n",
        "Numbers 1234567 and ١٢٣ and ½; emoji 😀👨\u{200d}👩\u{200d}👧 🇵🇱.\n",
        "\t\tindented\u{a0}text\u{3000}with\u{2003}spaces          \n\n\n\n",
        "fn main() { let x = 1; x += 2; println!(\"{x}\"); }\n",
        "<|endoftext|> is text here. ABCdef GHI jkl'VE.\n",
    ]
    .concat();
    vec![
        corpus("guide.md"),
        corpus("mixed_cjk.txt"),
        corpus("source.py"),
        mixed.repeat(6),
        String::new(),
        " \n \n".to_owned(),
    ]
}

#[test]
fn prepared_runs_and_summaries_equal_measuring_from_scratch() {
    let mut compared = 0;
    for text in texts() {
        for encoding in Encoding::ALL {
            let document = Document::new(&text, encoding);
            assert_eq!(document.encoded(), &encoding.tokenizer().encode(&text));
            for (unit, size, overlap) in [
                (SizeUnit::Tokens, 64, 8),
                (SizeUnit::Tokens, 200, 0),
                (SizeUnit::Tokens, 17, 5),
                (SizeUnit::Characters, 300, 30),
                (SizeUnit::Characters, 80, 0),
            ] {
                let settings = Settings {
                    chunk_size: size,
                    chunk_overlap: overlap,
                    unit,
                    encoding,
                };
                for id in StrategyId::all() {
                    let Ok(c) = chunker(id, &settings) else {
                        continue;
                    };
                    let want = reference(c.as_ref(), &text, encoding);
                    let got = run_prepared(c.as_ref(), &document);
                    assert_eq!(got, want, "{id} {encoding} {unit:?} {size}/{overlap}");
                    if let Ok(chunks) = got {
                        assert_eq!(
                            summary_prepared(&document, &chunks, &LimitCheck::within(100), 0.02),
                            summary(&text, &chunks, &LimitCheck::within(100), 0.02),
                            "{id} {encoding} {unit:?} {size}/{overlap}"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

/// `Document::count` is a fresh count of the range, on char boundaries or not.
#[test]
fn document_counts_equal_fresh_counts() {
    for text in texts() {
        for encoding in Encoding::ALL {
            let document = Document::new(&text, encoding);
            let bpe = encoding.tokenizer();
            let n = text.len();
            let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
            for _ in 0..300 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let a = (x % (n as u64 + 1)) as usize;
                let b = a + ((x >> 32) % 600) as usize;
                let (a, b) = (a, b.min(n));
                let want = bpe.count(&String::from_utf8_lossy(&text.as_bytes()[a..b]));
                assert_eq!(
                    document.count(a..b),
                    want,
                    "{encoding} {a}..{b} {:?} in {:?}",
                    text.get(a..b),
                    &text[..40.min(n)]
                );
            }
            assert_eq!(document.count(0..n), document.tokens());
            assert_eq!(Length::Tokens(encoding).count(&text), document.tokens());
        }
    }
}

/// Markdown-ish lines: headers, fences, indentation, tabs, `\r\n`, blank lines, invisible
/// characters and CJK, the rewrites LangChain's header splitter makes.
fn markdown_line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let parts = prop_oneof![
        Just("# Title".to_owned()),
        Just("## Part two".to_owned()),
        Just("```".to_owned()),
        Just("~~~".to_owned()),
        Just(String::new()),
        Just("    indented code line".to_owned()),
        Just("\tTabbed\tline ".to_owned()),
        Just("word word word word word".to_owned()),
        Just("Zażółć gęślą jaźń.".to_owned()),
        Just("日本語の文章です。中文句子".to_owned()),
        Just("zero\u{200b}width and\u{a0}nbsp".to_owned()),
        // Non-ASCII whitespace at a line's ends: the document gap of a join holds it.
        Just("\u{3000}全角\u{a0}".to_owned()),
        Just("x\u{2028}".to_owned()),
        Just("\u{85}next line".to_owned()),
        "[a-z ]{0,40}",
    ];
    (
        parts,
        prop_oneof![Just("\n"), Just("\r\n"), Just("  \n"), Just("\n\n")],
    )
        .prop_map(|(line, end)| format!("{line}{end}"))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// LangChain's markdown splitter counts a section's slices through the document where the
    /// bytes are the document's own (`Source`): prepared, it gives what measuring from scratch
    /// gives, in both encodings (the debug build also checks every mapped slice's bytes).
    #[test]
    fn langchain_markdown_prepared_equals_from_scratch(
        lines in proptest::collection::vec(markdown_line(), 1..60),
        size in 8usize..80,
    ) {
        let text = lines.concat();
        for encoding in Encoding::ALL {
            let settings = Settings {
                chunk_size: size,
                chunk_overlap: size / 4,
                unit: SizeUnit::Tokens,
                encoding,
            };
            let c = chunker(StrategyId::LangchainMarkdown, &settings).expect("valid");
            let document = Document::new(&text, encoding);
            proptest::prop_assert_eq!(
                run_prepared(c.as_ref(), &document),
                reference(c.as_ref(), &text, encoding),
                "{} {:?}", encoding, text
            );
        }
    }
}
