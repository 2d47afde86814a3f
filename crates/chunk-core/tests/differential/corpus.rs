//! The differential corpus: the repo's fixture, the files in `corpus/`, the simulator's
//! documents in several languages, and generated edge documents.

/// chunk-core's folder, also when another crate's test includes this file (`#[path]`): every
/// crate folder is a sibling of chunk-core's.
const CORE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../chunk-core");
const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../chunk-core/tests/differential/corpus"
);

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// `(name, text)` pairs; names are stable (they appear in failure messages and `DIFF_DOCS`).
pub fn documents() -> Vec<(&'static str, String)> {
    let root = CORE;
    let fixture = read(&format!("{root}/../../tests/fixtures/moonstone-short.txt"));
    let guide = read(&format!("{DIR}/guide.md"));
    let sim = |name: &str| read(&format!("{root}/docs/{name}"));
    // A long run without whitespace: a base64-like blob inside a sentence.
    let blob: String = (0..6000u32)
        .map(|i| {
            char::from(
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                    [(i * 7 % 64) as usize],
            )
        })
        .collect();
    vec![
        ("moonstone-short.txt", fixture),
        ("guide-crlf.md", guide.replace('\n', "\r\n")),
        ("guide.md", guide),
        ("source.py", read(&format!("{DIR}/source.py"))),
        // Markdown's regex separators (`from_language(Language.MARKDOWN)`): headings of one
        // to seven marks, fences, horizontal rules of each mark (also setext underlines,
        // consecutive rules, rules with trailing spaces), front matter.
        ("rules.md", read(&format!("{DIR}/rules.md"))),
        ("mixed_cjk.txt", read(&format!("{DIR}/mixed_cjk.txt"))),
        ("default_ru.txt", sim("default_ru.txt")),
        ("default_vi.txt", sim("default_vi.txt")),
        ("default_pl.txt", sim("default_pl.txt")),
        ("gate_markdown.txt", sim("gate_markdown.txt")),
        ("gate_code.txt", sim("gate_code.txt")),
        ("gate_cjk.txt", sim("gate_cjk.txt")),
        (
            "long-run.txt",
            format!("The key is {blob} and it ends here.\n\nNext paragraph."),
        ),
        (
            "one-chunk.txt",
            "A document that fits in one chunk.".to_string(),
        ),
        ("whitespace.txt", sim("gate_whitespace.txt")),
        (
            "special-tokens.txt",
            "Docs end with <|endoftext|> here. A second sentence follows it, and a third one \
             mentions <|fim_prefix|> too.\n\nThen a last paragraph."
                .to_string(),
        ),
        // The open models' special tokens written in the text (each one token, not split),
        // accents, case and a word over WordPiece's 100 characters (one [UNK]).
        (
            "model-specials.txt",
            format!(
                "[CLS] Ünïcödé Café, naïve CAFÉ. The <mask> and <s> tokens [SEP] stay whole.\n\n\
                 汉字混合 text with {} then more words.\n\nÀ la fin: [MASK][PAD] done.",
                "x".repeat(140)
            ),
        ),
        // Python's str.isspace counts U+001C..U+001F as whitespace, Rust's does not: strip()
        // removes them at chunk edges (a fuzz find against the keeps statement).
        (
            "separators.txt",
            (1..=40)
                .map(|i| {
                    format!(
                        "Record {i} has\u{1f} a field\u{1c} and an end.\u{1d}\u{1e}\n{}",
                        if i % 3 == 0 { "\u{1e}\n\n" } else { "" }
                    )
                })
                .collect(),
        ),
        // Edge cases E13 (a shell comment in a fenced block is no heading) and E16 (CJK without
        // spaces) of shared/cases/edge-cases.md.
        (
            "e13-tilde.md",
            "# Setup\nInstall the tool.\n~~~bash\n# this is a shell comment\npip install thing\n~~~\n## Usage\nRun it.".to_string(),
        ),
        (
            "e13-backtick.md",
            "# Setup\nInstall the tool.\n```bash\n# this is a shell comment\npip install thing\n```\n## Usage\nRun it.".to_string(),
        ),
        ("e16-cjk.txt", "猫".repeat(200)),
        // Headings as LlamaIndex's MarkdownNodeParser reads them (`^(#+)\s(.*)` outside
        // ``` blocks): a tab, a no-break space and an ideographic space after the marks
        // (written as a space), a path holding "/" and a special token (its metadata counted
        // against chunk_size), seven levels, empty headings, `~~~` (no fence to it), a
        // heading-like line in an indented ``` block left open to the end.
        (
            "llamaindex-headings.md",
            "Preamble before any heading.\n\n#\tTabbed heading\nBody under the tab.\n\
             #\u{a0}No-break heading\nText under it.\n## Path/with/slashes\nDeep text here, \
             more than a few words long so that small sizes cut it.\n### <|endoftext|> in a \
             heading\nA special token in the path.\n#### Fourth level\n##### Fifth level\n\
             ###### Sixth level\n####### Seventh marks\nBody of seven.\n#hashtag is no heading\n\
               # nor is an indented one\n~~~\n# a heading inside tildes\n~~~\n#\u{3000}\n## \n\
             Under an empty heading.\n    ```\n# inside an open block\nto the end.\n"
                .to_string(),
        ),
        ("empty", String::new()),
    ]
}
