//! Our copy of text-splitter 0.33.1 (`crates/text-splitter`, the crate the text-splitter rows
//! run) against the published crate: the same `chunk_indices` for `TextSplitter` and
//! `MarkdownSplitter`, sized in characters and in cl100k_base tokens, on the differential
//! corpus, the repo fixture and generated texts. The copy differs only in how it searches its
//! semantic ranges (`SemanticSplitRanges`), so any difference here is a defect of that search.

use chunk_core::tokenizer::{Bpe, Encoding};
use proptest::prelude::*;
use text_splitter_published as published;

/// cl100k_base token counts, as the strategy's own sizer counts (`Bpe::count`), for both
/// crates' `ChunkSizer` traits.
struct Tokens(&'static Bpe);

impl text_splitter::ChunkSizer for Tokens {
    fn size(&self, chunk: &str) -> usize {
        self.0.count(chunk)
    }
}

impl published::ChunkSizer for Tokens {
    fn size(&self, chunk: &str) -> usize {
        self.0.count(chunk)
    }
}

/// A splitter's chunks: `(byte offset, text)`.
type Chunks = Vec<(usize, String)>;

/// `(byte offset, chunk)` of both crates' splitters on `text`, in characters (`tokens` false)
/// or tokens, at `capacity` and `overlap` (overlap < capacity).
fn both(
    markdown: bool,
    tokens: bool,
    text: &str,
    capacity: usize,
    overlap: usize,
) -> (Chunks, Chunks) {
    let own = |v: Vec<(usize, &str)>| -> Chunks {
        v.into_iter().map(|(i, s)| (i, s.to_owned())).collect()
    };
    macro_rules! run {
        ($krate:ident, $sizer:expr) => {{
            let config = $krate::ChunkConfig::new(capacity)
                .with_overlap(overlap)
                .expect("overlap < capacity")
                .with_sizer($sizer);
            if markdown {
                own($krate::MarkdownSplitter::new(config)
                    .chunk_indices(text)
                    .collect())
            } else {
                own($krate::TextSplitter::new(config)
                    .chunk_indices(text)
                    .collect())
            }
        }};
    }
    let bpe = Encoding::Cl100kBase.tokenizer();
    if tokens {
        (
            run!(text_splitter, Tokens(bpe)),
            run!(published, Tokens(bpe)),
        )
    } else {
        (
            run!(text_splitter, text_splitter::Characters),
            run!(published, published::Characters),
        )
    }
}

fn assert_same(
    name: &str,
    markdown: bool,
    tokens: bool,
    text: &str,
    capacity: usize,
    overlap: usize,
) {
    let (ours, theirs) = both(markdown, tokens, text, capacity, overlap);
    assert!(
        !ours.is_empty() || text.trim().is_empty(),
        "{name}: no chunks"
    );
    if let Some(i) = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i)) {
        panic!(
            "{name} (markdown {markdown}, tokens {tokens}, capacity {capacity}, overlap {overlap}): \
             chunk {i} differs ({} chunks against {}): ours {:?}, published {:?}",
            ours.len(),
            theirs.len(),
            ours.get(i),
            theirs.get(i)
        );
    }
}

/// 3,000 short lines, then `tail`.
fn lines_then(tail: &str) -> String {
    let lines: String = (0..3000)
        .map(|i| format!("line {i} with a few words\n"))
        .collect();
    lines + tail
}

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn the_copy_equals_the_published_crate_on_the_corpus() {
    let texts = [
        ("guide.md", read("tests/differential/corpus/guide.md")),
        ("rules.md", read("tests/differential/corpus/rules.md")),
        (
            "mixed_cjk.txt",
            read("tests/differential/corpus/mixed_cjk.txt"),
        ),
        ("source.py", read("tests/differential/corpus/source.py")),
        (
            "moonstone-short.txt",
            read("../../tests/fixtures/moonstone-short.txt"),
        ),
        // Many lines, then one coarser separator near the end: a coarse level's first section
        // spans every finer range before it.
        (
            "lines, then a blank-line run",
            lines_then("\n\n\nThe end.\n"),
        ),
        (
            "lines, then a heading",
            lines_then("\n# Heading\n\nThe end.\n"),
        ),
    ];
    for (name, text) in &texts {
        for markdown in [false, true] {
            for (tokens, sizes) in [
                (true, [(16, 0), (64, 8), (512, 64)]),
                (false, [(40, 0), (200, 30), (2000, 200)]),
            ] {
                for (capacity, overlap) in sizes {
                    assert_same(name, markdown, tokens, text, capacity, overlap);
                }
            }
        }
    }
}

/// Pieces the generated texts are made of: markdown structure (ATX and setext headings, lists
/// nested and quoted, fences, indented code, rules, tables, block quotes, HTML blocks,
/// footnotes), line breaks of every length, sentences, CJK, emoji sequences and combining
/// marks.
const PARTS: &[&str] = &[
    "# Title\n",
    "## Section\n",
    "### Sub\n",
    "\n",
    "\n\n",
    "\n\n\n",
    "\r\n",
    "- item\n",
    "1. first\n",
    "```rust\nfn main() {}\n```\n",
    "---\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "> quoted line\n",
    "Word ",
    "words and more words. ",
    "A sentence ends here. ",
    "Does it? ",
    "  ",
    "\t",
    "*em* ",
    "**strong** ",
    "`code` ",
    "[link](http://x.y) ",
    "文字列です。",
    "Привет, мир. ",
    "🙂 ",
    "x",
    "  - nested item\n",
    "> - quoted item\n",
    "> > deeper quote\n",
    "Setext title\n===\n",
    "Sub title\n---\n",
    "1) other list\n",
    "<div>\nhtml block\n</div>\n",
    "[^1]: a footnote\n",
    "    indented code\n",
    "👩‍👩‍👧 ",
    "e\u{301} ",
];

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(0..PARTS.len(), 0..120)
        .prop_map(|ix| ix.into_iter().map(|i| PARTS[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn the_copy_equals_the_published_crate_on_generated_texts(
        text in text_strategy(),
        markdown in any::<bool>(),
        tokens in any::<bool>(),
        capacity in 1usize..80,
        overlap_share in 0usize..100,
    ) {
        let overlap = capacity * overlap_share / 100;
        let (ours, theirs) = both(markdown, tokens, &text, capacity, overlap);
        prop_assert_eq!(ours, theirs);
    }
}
