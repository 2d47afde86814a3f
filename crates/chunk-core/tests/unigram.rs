//! XLM-RoBERTa's Unigram tokenizer (`tokenizer::unigram`) against Hugging Face `tokenizers`
//! (the oracle venv's, pinned in `differential/requirements.txt`; `oracle/hf_unigram.py` builds
//! the models' pipeline from the same committed data file), id for id: the differential corpus
//! and every document in `docs/` (the five UI languages en, vi, id, ru, pl among them), every
//! code point below U+30000 (and planes 14–15) in runs of 64, runs of characters followed by
//! combining marks, hand-picked edge cases (emoji sequences, accents composed and decomposed,
//! CJK, Thai, Arabic, Hindi, odd whitespace, controls, the added tokens inside text, long
//! words, characters the charsmap rewrites), strings generated from a pool of such pieces,
//! and 2,000 strings drawn by proptest, compared in one batch. The committed data file's
//! sha256 is checked, in Rust and by the oracle.
//!
//! Needs `CHUNK_ORACLE_PYTHON` (`make test` sets it; or
//! `eval "$(scripts/ensure-oracle.sh)"; export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR`);
//! without it the oracle tests fail, unless `CHUNK_ORACLE_SKIP=1` skips them on purpose, as
//! the differential tests do. The sha256 check and the hand-checked ids need no Python.

#[path = "differential/corpus.rs"]
mod corpus;
#[path = "common/hf_oracle.rs"]
mod hf_oracle;

use chunk_core::tokenizer::unigram::Unigram;
use chunk_core::tokenizer::TokenCounter;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vocab/xlm-roberta.unigram");
/// sha256 of the committed `vocab/xlm-roberta.unigram` (`vocab/SOURCE.md`).
const DATA_SHA256: &str = "c8349c9f76af950ef49a3e0c3d02c99fcf6a116b8318f8878e78edb03acdc538";

fn load() -> Unigram {
    let data = std::fs::read(DATA).expect("read the data file");
    Unigram::from_bytes(&data).expect("the data file loads")
}

/// The oracle's ids for each text, after checking the sha256 it reports; `None` when skipped.
fn oracle(texts: &[String]) -> Option<Vec<Vec<u32>>> {
    let (sha256, ids) = hf_oracle::hf_ids("Unigram", "hf_unigram.py", DATA, texts)?;
    assert_eq!(sha256, DATA_SHA256, "the oracle read another data file");
    Some(ids)
}

/// Compares every case with the oracle; panics listing up to 20 differences (the first
/// differing id of each, with the pieces around it).
fn compare(label: &str, cases: &[(String, String)]) {
    let started = std::time::Instant::now();
    let texts: Vec<String> = cases.iter().map(|(_, t)| t.clone()).collect();
    let Some(theirs) = oracle(&texts) else {
        return;
    };
    let u = load();
    let piece = |id: u32| u.piece(id).unwrap_or("?").to_string();
    let mut failures = Vec::new();
    let mut ids = 0;
    for ((what, text), theirs) in cases.iter().zip(&theirs) {
        let ours = u.encode(text);
        assert_eq!(
            u.count(text),
            ours.len(),
            "count = encode's length on {text:?}"
        );
        ids += ours.len();
        if &ours != theirs {
            let i = ours
                .iter()
                .zip(theirs)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(theirs.len()));
            let around = |v: &[u32]| {
                v[i.saturating_sub(2).min(v.len())..(i + 4).min(v.len())]
                    .iter()
                    .map(|&id| format!("{id} {:?}", piece(id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            failures.push(format!(
                "{what} {:?}: {} ids, theirs {}; first difference at {i}: ours [{}], theirs [{}]",
                text.chars().take(80).collect::<String>(),
                ours.len(),
                theirs.len(),
                around(&ours),
                around(theirs),
            ));
        }
    }
    eprintln!(
        "unigram {label}: {} texts, {ids} ids compared, {} texts differ, in {:.1} s",
        cases.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} texts differ from Hugging Face:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Pieces each rule treats apart: ASCII, the added tokens and near misses, composed and
/// decomposed accents, characters the charsmap rewrites (full-width forms, ligatures, circled
/// and super/subscript digits, compatibility ideographs, half-width kana, controls, odd
/// whitespace, zero-width characters), scripts (CJK, Thai, Arabic, Hindi, Hangul), emoji
/// sequences (ZWJ, flags, skin tones, keycaps, variation selectors), and `▁` itself.
const POOL: &[&str] = &[
    "a",
    "Z",
    "q",
    "7",
    " ",
    "  ",
    "   ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    ".",
    ",",
    "!",
    "?",
    "'",
    "\"",
    "-",
    "_",
    "(",
    ")",
    "<",
    ">",
    "/",
    "<s>",
    "</s>",
    "<pad>",
    "<unk>",
    "<mask>",
    " <mask>",
    "<mask> ",
    "<s",
    "mask>",
    "<MASK>",
    "é",
    "e\u{301}",
    "a\u{308}",
    "Å",
    "A\u{30A}",
    "ñ",
    "n\u{303}",
    "ß",
    "İ",
    "ǅ",
    "ﬁ",
    "ﬂ",
    "ﬀ\u{308}",
    "ﬁ\u{301}",
    "Ａ",
    "ｚ",
    "０",
    "！",
    "＜s＞",
    "①",
    "⑩",
    "½",
    "²",
    "₃",
    "™",
    "℃",
    "㎏",
    "㍿",
    "Ⅻ",
    "\u{F900}",
    "ｶﾞ",
    "ｱ",
    "ﾟ",
    "か\u{3099}",
    "が",
    "\u{1}",
    "\u{7}",
    "\u{0}",
    "\u{7F}",
    "\u{85}",
    "\u{AD}",
    "\u{A0}",
    "\u{2000}",
    "\u{2003}",
    "\u{2009}",
    "\u{200B}",
    "\u{200C}",
    "\u{200D}",
    "\u{2028}",
    "\u{3000}",
    "\u{FEFF}",
    "\u{E000}",
    "\u{FFFD}",
    "\u{10FFFF}",
    "猫",
    "語",
    "𠀀",
    "中文",
    "日本語",
    "한국어",
    "\u{1100}\u{1161}\u{11A8}",
    "ภาษาไทย",
    "ไ",
    "مرحبا",
    "العربية",
    "\u{64B}",
    "नमस्ते",
    "क्ष",
    "हिन्दी",
    "Tiếng",
    "Việt",
    "đ",
    "ạ",
    "ở",
    "Łódź",
    "żółć",
    "Привет",
    "ё",
    "е\u{308}",
    "🙂",
    "👍🏽",
    "👩\u{200D}💻",
    "👨\u{200D}👩\u{200D}👧\u{200D}👦",
    "🇵🇱",
    "🇻🇳",
    "🏳\u{FE0F}\u{200D}🌈",
    "❤\u{FE0F}",
    "1\u{FE0F}\u{20E3}",
    "\u{1F970}",
    "𝐀",
    "𝔸",
    "▁",
    "▁▁",
    "Hello",
    "world",
    "tokenization",
    "chunk_size",
    "2026",
    "https://example.org/a?b=c",
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

/// Every code point below U+30000 and in planes 14–15's first blocks, in runs of 64; then the
/// Latin, Greek, Cyrillic, kana and Hangul blocks with a combining mark after each character
/// (the charsmap's multi-character keys are compositions).
fn code_points() -> Vec<String> {
    let mut out: Vec<String> = (0..0x30000u32)
        .chain(0xE0000..0xE0200)
        .chain(0xF0000..0xF0100)
        .collect::<Vec<_>>()
        .chunks(64)
        .map(|run| run.iter().filter_map(|&c| char::from_u32(c)).collect())
        .collect();
    let blocks = [
        (0x20u32, 0x250u32),
        (0x370, 0x530),
        (0x1E00, 0x2000),
        (0x3040, 0x3100),
        (0x1100, 0x1200),
        (0xFF00, 0xFFF0),
    ];
    for (lo, hi) in blocks {
        for mark in [
            '\u{301}', '\u{308}', '\u{323}', '\u{3099}', '\u{309A}', '\u{1161}',
        ] {
            let chars: Vec<char> = (lo..hi).filter_map(char::from_u32).collect();
            for run in chars.chunks(32) {
                out.push(run.iter().flat_map(|&c| [c, mark]).collect());
            }
        }
    }
    out
}

fn edge_cases() -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        " ",
        "   ",
        "\t",
        "\n\n",
        "\r\n",
        " leading",
        "trailing ",
        "  both  ",
        "runs     of      spaces",
        "Hello world!",
        "Hello, World! How are you?",
        "<s>",
        "<s>x</s>",
        "a<s>b",
        "a <s> b",
        "a<mask>b",
        "a <mask> b",
        "a\u{A0}\u{3000}\t<mask>",
        "<mask><mask> <mask>  <mask>",
        " <mask>",
        "x</s> <pad><unk><unk>x",
        "<unk>",
        "＜unk＞ ＜mask＞",
        "<s\u{301}>",
        "Ünïcödé accents: café, naïve, Ångström, İstanbul, ΣΊΣΥΦΟΣ",
        "decomposed: cafe\u{301} nai\u{308}ve A\u{30A}ngstro\u{308}m",
        "Tiếng Việt có dấu: Chuỗi văn bản được chia thành các đoạn.",
        "Bahasa Indonesia: pemotongan dokumen menjadi potongan-potongan kecil.",
        "Русский текст: разбиение документа на чанки. Ёлка.",
        "Polski tekst: dzielenie dokumentu na fragmenty, źdźbło, żółć.",
        "中文文本切分。日本語のテキスト、한국어 텍스트.",
        "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
        "النص العربي مع التشكيل: مَرْحَبًا بِكُمْ",
        "हिन्दी पाठ: नमस्ते दुनिया, क्षत्रिय",
        "emoji 🙂👍🏽👩‍💻🇵🇱🇻🇳❤️ 👨‍👩‍👧‍👦 🏳️‍🌈 1️⃣ and 🥰",
        "tabs\tand\u{A0}no-break\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{200B}end",
        "ideographic\u{3000}space and line\u{2028}separator and\u{85}next",
        "controls\u{1}\u{7}\u{7F}\u{8}\u{B}\u{C}\u{1B}x\u{0}y",
        "soft\u{AD}hyphen and joiner\u{200D}s and BOM\u{FEFF}here",
        "ＦＵＬＬ－ｗｉｄｔｈ　ＡＳＣＩＩ！ １２３",
        "ligatures ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ; ﬁ\u{301}",
        "circled ① ② ⑳ ㉑ ㊿ Ⓐ ⓩ; roman Ⅻ ⅻ; fractions ½ ⅞; super x² y³ H₂O",
        "units ㎏ ㎒ ㍿ ℃ ℉ № ™ ℡",
        "half-width ｶﾞｷﾞｸﾞ ﾊﾟ ｱｲｳ",
        "math 𝐀𝐁𝐂 𝔸𝔹 𝟘𝟙",
        "private \u{E000}\u{E001}\u{F8FF} unassigned \u{378}\u{379} noncharacter \u{FFFF}",
        "fn main() { let x = a.b(c)?; } // $HOME ~/.config <a href=\"#\">|^`</a>",
        "▁already▁metaspaced ▁ ▁▁",
        "supercalifragilisticexpialidocious",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("a".repeat(5000));
    v.push("ab".repeat(2500));
    v.push(format!("{}c", "ab".repeat(1000)));
    v.push("猫".repeat(3000));
    v.push("\u{E000}".repeat(500));
    v.push(format!("x{}y", "\u{E000}\u{378}".repeat(100)));
    v.push(" ".repeat(1000));
    v.push("\r\n".repeat(300));
    v.push("e\u{301}\u{302}\u{303}\u{304}\u{305}".repeat(50));
    v
}

#[test]
fn the_committed_data_file_has_its_sha256() {
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let data = std::fs::read(DATA).expect("read the data file");
    assert_eq!(hex(&sha256(&data)), DATA_SHA256, "vocab/SOURCE.md");
}

#[test]
fn hand_checked_ids() {
    let u = load();
    // Checked with tokenizers 0.23.3: "▁Hello" 35378, "▁world" 8999, "!" 38.
    assert_eq!(u.encode("Hello world!"), [35378, 8999, 38]);
    assert_eq!(u.piece(35378), Some("▁Hello"));
    assert_eq!(u.encode("<s>x</s>"), [0, 1022, 2]);
    // <mask> takes the spaces before it (lstrip); the next split gets its ▁ prepended.
    assert_eq!(u.encode("a  <mask> b"), [10, 250001, 876]);
    assert_eq!(u.unk_id(), 3);
    assert_eq!(TokenCounter::count(&u, "Hello world!"), 3);
}

#[test]
fn unigram_ids_equal_hugging_face_tokenizers() {
    let mut cases: Vec<(String, String)> = corpus::documents()
        .into_iter()
        .map(|(name, text)| (name.to_string(), text))
        .collect();
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut names: Vec<_> = std::fs::read_dir(docs)
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    for path in names {
        let text = std::fs::read_to_string(&path).expect("read a doc");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        cases.push((format!("docs/{name} (CRLF)"), text.replace('\n', "\r\n")));
        cases.push((format!("docs/{name}"), text));
    }
    cases.extend(edge_cases().into_iter().map(|t| ("edge".to_string(), t)));
    cases.extend(
        code_points()
            .into_iter()
            .map(|t| ("code points".to_string(), t)),
    );
    cases.extend(
        generated(3000)
            .into_iter()
            .map(|t| ("generated".to_string(), t)),
    );
    compare("corpus, docs, edge cases, code points, generated", &cases);
}

/// Random strings from proptest (a fixed seed, so runs repeat): any chars, pool pieces, and
/// ASCII, mixed; compared with the oracle in one batch.
#[test]
fn proptest_strings_equal_hugging_face_tokenizers() {
    let piece = prop_oneof![
        3 => any::<char>().prop_map(String::from),
        3 => proptest::sample::select(POOL).prop_map(String::from),
        2 => "[ -~]{1,8}",
        1 => "[ \t\n\u{a0}\u{3000}]{1,4}",
    ];
    let strategy = proptest::collection::vec(piece, 0..32).prop_map(|v| v.concat());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let cases: Vec<(String, String)> = (0..2000)
        .map(|_| {
            let tree = strategy.new_tree(&mut runner).expect("a value");
            ("proptest".to_string(), tree.current())
        })
        .collect();
    compare("proptest", &cases);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// FIPS 180-4 SHA-256 (the test needs no hashing crate); checked on "abc" above.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, x) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}
