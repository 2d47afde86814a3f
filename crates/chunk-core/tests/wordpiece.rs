//! The BERT uncased WordPiece tokenizer against Hugging Face `tokenizers` (the oracle venv's,
//! pinned in `differential/requirements.txt`; `oracle/hf_wordpiece.py`), id for id: the
//! differential corpus (all five UI languages, CJK, code, markdown, CRLF), every code point
//! below U+30000 in runs of 64, hand-picked edge cases (accents, emoji, odd whitespace,
//! controls, special tokens, long words) and 3,000 generated strings from a pool of the
//! characters each rule treats apart. The committed vocabulary's sha256 is checked too.
//! Then every code point below U+30000 alone and between two letters, in a vocabulary with
//! one entry per character (each as `c` and `##c`): there every word splits into its
//! characters, so the ids spell out the normalised text and no `[UNK]` can hide a difference
//! in the normalisation (in BERT's vocabulary most of those words are one `[UNK]`).
//!
//! Needs `CHUNK_ORACLE_PYTHON` (`make test` sets it); without it the test fails, unless
//! `CHUNK_ORACLE_SKIP=1` skips it on purpose, as the differential tests do.

#[path = "differential/corpus.rs"]
mod corpus;
#[path = "common/hf_oracle.rs"]
mod hf_oracle;

use chunk_core::tokenizer::wordpiece::WordPiece;

const VOCAB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vocab/bert-base-uncased.txt");
/// The published sha256 of bert-base-uncased's vocab.txt (`vocab/SOURCE.md`).
const VOCAB_SHA256: &str = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3";

fn oracle(texts: &[String]) -> Option<(String, Vec<Vec<u32>>)> {
    hf_oracle::hf_ids("WordPiece", "hf_wordpiece.py", VOCAB, texts)
}

/// Characters each rule treats apart: ASCII letters, digits and punctuation (the symbols
/// BERT counts as punctuation among them), accented letters both composed and decomposed,
/// Unicode punctuation, CJK (inside and outside the spaced ranges), controls, format
/// characters, odd whitespace, emoji with modifiers and joiners, letters whose lower case
/// changes length, and the special tokens' brackets.
const POOL: &[&str] = &[
    "a",
    "Z",
    "q",
    "7",
    " ",
    " ",
    "\t",
    "\n",
    "\r\n",
    ".",
    ",",
    "$",
    "+",
    "<",
    "^",
    "`",
    "|",
    "~",
    "-",
    "'",
    "[",
    "]",
    "[CLS]",
    "[MASK]",
    "[SEP",
    "é",
    "e\u{301}",
    "Å",
    "ñ",
    "ß",
    "İ",
    "Σ",
    "ς",
    "ǅ",
    "ﬁ",
    "Ω",
    "ў",
    "Ł",
    "ł",
    "ő",
    "ạ",
    "ở",
    "đ",
    "«",
    "»",
    "—",
    "…",
    "¿",
    "、",
    "。",
    "「",
    "猫",
    "語",
    "𠀀",
    "\u{2B820}",
    "\u{2B920}",
    "\u{F900}",
    "\u{3400}",
    "か",
    "カ",
    "한",
    "ไทย",
    "مرحبا",
    "नमस्ते",
    "\u{0}",
    "\u{1}",
    "\u{7F}",
    "\u{85}",
    "\u{B}",
    "\u{C}",
    "\u{AD}",
    "\u{200B}",
    "\u{200D}",
    "\u{FEFF}",
    "\u{E000}",
    "\u{FFFD}",
    "\u{A0}",
    "\u{2003}",
    "\u{3000}",
    "\u{2028}",
    "🙂",
    "👍🏽",
    "👩\u{200D}💻",
    "🇵🇱",
    "❤\u{FE0F}",
    "\u{1F970}",
    "𝐀",
    "①",
    "½",
    "unaffable",
    "tokenization",
    "RAG",
    "chunk_size",
    "2026",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
];

fn generated(n: usize) -> Vec<String> {
    // xorshift64*, fixed seed: the same strings every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..n)
        .map(|_| {
            let len = (next() % 24) as usize;
            (0..len)
                .map(|_| POOL[(next() % POOL.len() as u64) as usize])
                .collect()
        })
        .collect()
}

fn every_code_point() -> Vec<String> {
    (0..0x30000u32)
        .step_by(64)
        .map(|start| (start..start + 64).filter_map(char::from_u32).collect())
        .collect()
}

/// Every code point below U+30000 (no surrogate), alone and as `a{c}s`, in a vocabulary of
/// one entry per character: the normalisation of each character, spelled out in ids, equals
/// Hugging Face's.
#[test]
fn every_code_point_normalises_as_hugging_face_does() {
    // The special tokens, then each character as itself and as a continuation; whitespace
    // and line breaks cannot be a line of vocab.txt (and never reach WordPiece as letters).
    let mut vocab = String::from("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n");
    let chars: Vec<char> = (0..0x30000u32).filter_map(char::from_u32).collect();
    for &c in chars
        .iter()
        .filter(|c| !c.is_whitespace() && **c != '\u{0}')
    {
        vocab.push_str(&format!("{c}\n##{c}\n"));
    }
    let path = std::env::temp_dir().join(format!("wordpiece-chars-{}.txt", std::process::id()));
    std::fs::write(&path, &vocab).expect("write the vocabulary");
    let texts: Vec<String> = chars
        .iter()
        .flat_map(|c| [c.to_string(), format!("a{c}s")])
        .collect();
    let theirs = hf_oracle::hf_ids(
        "WordPiece",
        "hf_wordpiece.py",
        path.to_str().expect("a UTF-8 temporary path"),
        &texts,
    );
    let _ = std::fs::remove_file(&path);
    let Some((_, theirs)) = theirs else {
        return;
    };
    let wp = WordPiece::from_vocab(&vocab).expect("the vocabulary loads");
    let differ: Vec<String> = texts
        .iter()
        .zip(&theirs)
        .filter(|(t, ids)| &wp.encode(t) != *ids)
        .map(|(t, ids)| {
            format!(
                "{t:?} (U+{:04X}): ours {:?}, theirs {ids:?}",
                t.chars().nth(t.chars().count() / 2).map_or(0, |c| c as u32),
                wp.encode(t)
            )
        })
        .collect();
    eprintln!(
        "wordpiece, one entry per character: {} texts, {} differ",
        texts.len(),
        differ.len()
    );
    assert!(
        differ.is_empty(),
        "{}",
        differ[..differ.len().min(20)].join("\n")
    );
}

#[test]
fn wordpiece_ids_equal_hugging_face_tokenizers() {
    let started = std::time::Instant::now();
    let mut cases: Vec<(String, String)> = corpus::documents()
        .into_iter()
        .map(|(name, text)| (name.to_string(), text))
        .collect();
    let edge = [
        "",
        "   ",
        "Hello, world!",
        "[CLS] the [MASK] sat [SEP][PAD][UNK]",
        "[cls] [Mask] [[SEP]] [SEP",
        "Ünïcödé accents: café, naïve, Ångström, İstanbul, ΣΊΣΥΦΟΣ",
        "Tiếng Việt có dấu: Chuỗi văn bản được chia thành các đoạn.",
        "Bahasa Indonesia: pemotongan dokumen menjadi potongan.",
        "Русский текст: разбиение документа на чанки.",
        "Polski tekst: dzielenie dokumentu na fragmenty, źdźbło, żółć.",
        "中文文本切分。日本語のテキスト、한국어 텍스트.",
        "emoji 🙂👍🏽👩‍💻🇵🇱❤️ and 🥰 (Unicode 11)",
        "tabs\tand\u{A0}no-break\u{2003}em\u{3000}ideographic\u{200B}zero-width\r\nCRLF",
        "controls\u{1}\u{7}\u{7F}\u{85}\u{B}\u{C}x",
        "soft\u{AD}hyphen and joiner\u{200D}s and BOM\u{FEFF}here",
        "fn main() { let x = a.b(c)?; } // $HOME ~/.config <a href=\"#\">|^`</a>",
        "supercalifragilisticexpialidocious",
    ];
    cases.extend(edge.iter().map(|t| ("edge".to_string(), t.to_string())));
    cases.push(("long word".into(), "ab".repeat(50)));
    cases.push(("longer word".into(), format!("{}c", "ab".repeat(50))));
    cases.extend(
        every_code_point()
            .into_iter()
            .map(|t| ("code points".to_string(), t)),
    );
    cases.extend(
        generated(3000)
            .into_iter()
            .map(|t| ("generated".to_string(), t)),
    );
    let texts: Vec<String> = cases.iter().map(|(_, t)| t.clone()).collect();
    let Some((sha256, theirs)) = oracle(&texts) else {
        return;
    };
    assert_eq!(
        sha256, VOCAB_SHA256,
        "the committed vocabulary is not BERT's"
    );
    let vocab = std::fs::read_to_string(VOCAB).expect("read the vocabulary");
    let wp = WordPiece::from_vocab(&vocab).expect("the vocabulary loads");
    let mut failures = Vec::new();
    let mut tokens = 0;
    for ((what, text), theirs) in cases.iter().zip(&theirs) {
        let ours = wp.encode(text);
        assert_eq!(wp.count(text), ours.len(), "count = encode's length");
        tokens += ours.len();
        if &ours != theirs {
            let i = ours
                .iter()
                .zip(theirs)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(theirs.len()));
            failures.push(format!(
                "{what} {:?}: {} ids, theirs {}; first difference at {i}: ours {:?}, theirs {:?}",
                text.chars().take(80).collect::<String>(),
                ours.len(),
                theirs.len(),
                &ours[i.min(ours.len())..(i + 5).min(ours.len())],
                &theirs[i.min(theirs.len())..(i + 5).min(theirs.len())],
            ));
        }
    }
    eprintln!(
        "wordpiece: {} texts, {tokens} ids compared, {} differ, in {:.1} s",
        cases.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} texts differ from Hugging Face:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn hand_checked_ids() {
    let vocab = std::fs::read_to_string(VOCAB).expect("read the vocabulary");
    let wp = WordPiece::from_vocab(&vocab).expect("the vocabulary loads");
    // bert-base-uncased: "hello" 7592, "," 1010, "world" 2088, "!" 999; "[MASK]" 103;
    // "unaffable" -> "una", "##ffa", "##ble".
    assert_eq!(wp.encode("Hello, World!"), vec![7592, 1010, 2088, 999]);
    assert_eq!(wp.encode("[MASK]"), vec![103]);
    assert_eq!(wp.unk_id(), 100);
    assert_eq!(wp.encode("unaffable"), vec![14477, 20961, 3468]);
}
