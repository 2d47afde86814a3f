//! Equivalence of the core's BPE tokenizers with tiktoken-rs (the reference), on fixtures,
//! generated text and the edge cases E04, E05, E14 and E15 of `shared/cases/edge-cases.md`.

use chunk_core::tokenizer::{find_special_tokens, Encoded, Encoding};
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

static REF_CL100K: LazyLock<CoreBPE> =
    LazyLock::new(|| tiktoken_rs::cl100k_base().expect("cl100k_base"));
static REF_O200K: LazyLock<CoreBPE> =
    LazyLock::new(|| tiktoken_rs::o200k_base().expect("o200k_base"));

fn reference(e: Encoding) -> &'static CoreBPE {
    match e {
        Encoding::Cl100kBase => &REF_CL100K,
        Encoding::O200kBase => &REF_O200K,
    }
}

/// tiktoken-rs with its own tables and merge but a pattern that makes the whole text one piece:
/// the reference for texts whose split tiktoken-rs cannot run (a million spaces).
fn reference_single_piece(e: Encoding) -> CoreBPE {
    let bpe = e.tokenizer();
    let encoder = (0..bpe.vocab_size() as u32)
        .map(|id| (bpe.token_bytes(id).expect("in range").to_vec(), id))
        .collect();
    CoreBPE::new(encoder, Default::default(), r"(?s).+").expect("pattern")
}

/// Checks the `Encoded` invariant and that each token's bytes are the text's bytes there.
fn check_offsets(e: Encoding, text: &str, enc: &Encoded) {
    assert_eq!(enc.offsets.len(), enc.ids.len() + 1);
    assert_eq!(enc.offsets[0], 0);
    assert_eq!(*enc.offsets.last().expect("non-empty"), text.len());
    let bpe = e.tokenizer();
    for (i, id) in enc.ids.iter().enumerate() {
        let (s, t) = (enc.offsets[i], enc.offsets[i + 1]);
        assert!(s < t, "offsets must strictly increase");
        assert_eq!(bpe.token_bytes(*id), Some(&text.as_bytes()[s..t]));
    }
}

fn assert_same(e: Encoding, text: &str) {
    let ours = e.tokenizer().encode(text);
    let theirs = reference(e).encode_ordinary(text);
    assert_eq!(ours.ids, theirs, "{e} differs on {text:?}");
    assert_eq!(e.tokenizer().count(text), theirs.len());
    check_offsets(e, text, &ours);
}

const FIXTURES: &[&str] = &[
    "",
    " ",
    "hello world",
    "Hello, World! It's 2024; we've 3.14159 reasons... don't we?",
    "I'M SHOUTING, YOU'RE NOT. HE'LL SEE. SHE'D GO. THEY'VE IT'S",
    "tab\there\r\nCRLF line\r\n\r\n  indented\n\n\n   \n\tmixed  \t  spaces   end   ",
    "fn main() {\n    let x = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n",
    "Thiết bị XV40 hoạt động ở nhiệt độ từ −10 đến 50 °C; độ ẩm tối đa 95 %.",
    "Устройство работает при температуре от −10 до 50 °C. Ёлка, щука, объём.",
    "Urządzenie działa w zakresie temperatur od −10 do 50 °C. Źdźbło, żółw.",
    "猫は可愛い。第一句。第二句。最后没有句号 한국어 텍스트 ภาษาไทย",
    "emoji 🐈‍⬛ 👩🏽‍💻 🇻🇳 flags and ZWJ",
    "12345678901234567890 1,000,000 0.5e-10 ١٢٣ ½ Ⅻ",
    "https://example.com/a/b?c=d&e=f#g path/to/file.rs //comment /* x */",
    "'s 's 'S 'll 'LL 'Ll ’s ﬁ ſ K",
    "a\u{0301}e\u{0301} combining; \u{200B}zero width\u{00A0}nbsp\u{2003}em space\u{3000}ideographic",
    "   leading spaces and trailing\n",
    "\n\n\nnewlines first",
    "x  \n  y \r\n z\t\n\tw",
    "Docs end with <|endoftext|> here.",
];

#[test]
fn fixtures_match_tiktoken() {
    for e in Encoding::ALL {
        for text in FIXTURES {
            assert_same(e, text);
        }
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce from the seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters that exercise every branch of the split patterns.
const ALPHABET: &[&str] = &[
    " ",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u{A0}",
    "\u{3000}",
    "\u{2028}",
    "a",
    "b",
    "Z",
    "Q",
    "é",
    "É",
    "ß",
    "ǅ",
    "ʰ",
    "\u{301}",
    "'",
    "'s",
    "'T",
    "'ll",
    "'RE",
    "'Ve",
    "'m",
    "'D",
    "0",
    "7",
    "42",
    "٣",
    "²",
    ".",
    ",",
    "!",
    "?",
    "/",
    "//",
    "-",
    "_",
    "(",
    ")",
    "<|",
    "|>",
    "\"",
    "猫",
    "語",
    "한",
    "ไ",
    "Ж",
    "ж",
    "ệ",
    "ạ",
    "🐈",
    "👩🏽‍💻",
    "\u{FEFF}",
    "\u{10FFFD}",
    "\u{E000}",
    "\u{1D400}",
    "\u{0}",
    "\u{7F}",
    "'ſ",
    "ſ",
    "\u{2C6}",
    "ǈ",
    "Ⅻ",
    "ﬁ",
    "İ",
    "\u{345}",
    "\u{212A}",
    "'\u{212A}",
    "\u{20DD}",
    "ǅ\u{301}",
    "A\u{301}b",
    "'Ll",
    "/\n",
    "\r\n/",
];

/// Generated cases per test; raise it for a longer run, e.g. `CHUNK_CORE_CASES=200000`.
fn cases(default: usize) -> usize {
    std::env::var("CHUNK_CORE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn generated_text_matches_tiktoken() {
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    for case in 0..cases(1500) {
        let len = 1 + g.below(40);
        let text: String = (0..len)
            .map(|_| ALPHABET[g.below(ALPHABET.len())])
            .collect();
        for e in Encoding::ALL {
            let ours = e.tokenizer().encode(&text);
            let theirs = reference(e).encode_ordinary(&text);
            assert_eq!(ours.ids, theirs, "case {case}, {e}: {text:?}");
            check_offsets(e, &text, &ours);
        }
    }
}

/// Single pieces on each side of the merge's path thresholds (20 and 128 bytes: scan, heap,
/// buckets): random lower-case words, CJK runs and runs of one punctuation mark, each the given
/// number of bytes long, alone and after a space.
#[test]
fn pieces_at_the_merge_thresholds_match_tiktoken() {
    let mut g = Gen(0x2545_F491_4F6C_DD1D);
    for len in [18, 19, 20, 21, 126, 127, 128, 129, 130] {
        for _ in 0..40 {
            let word: String = (0..len)
                .map(|_| char::from(b'a' + g.below(26) as u8))
                .collect();
            let han: String = (0..len / 3)
                .map(|_| char::from_u32(0x4E00 + g.below(0x5000) as u32).unwrap())
                .collect();
            let marks = ["^", "~", "#", "*"][g.below(4)].repeat(len);
            for text in [word, han, marks] {
                for e in Encoding::ALL {
                    assert_same(e, &text);
                    assert_same(e, &format!(" {text}"));
                }
            }
        }
    }
}

/// Many pieces of the scan and heap paths in one text, one merge after another in the same
/// reused buffers: runs of about 7 to 130 bytes, falling then rising again (each buffer is
/// refilled shorter, then longer, than the last piece's), Han and Cyrillic, and each Han run
/// twice (the second time, below 128 bytes, from the memory of merged pieces).
#[test]
fn merges_in_reused_buffers_match_tiktoken() {
    let mut g = Gen(0x5851_F42D_4C95_7F2D);
    let lengths: Vec<usize> = (7..=130).rev().chain(7..=130).step_by(3).collect();
    let mut text = String::new();
    for &len in &lengths {
        let han: String = (0..len / 3)
            .map(|_| char::from_u32(0x4E00 + g.below(0x5000) as u32).unwrap())
            .collect();
        let cyrillic: String = (0..len / 2)
            .map(|_| char::from_u32(0x430 + g.below(32) as u32).unwrap())
            .collect();
        text.push_str(&format!("{han}、 {cyrillic}. {han}, "));
    }
    for e in Encoding::ALL {
        assert_same(e, &text);
    }
}

#[test]
fn random_code_points_from_every_plane_match_tiktoken() {
    let mut g = Gen(0xDEAD_BEEF_CAFE_F00D);
    for case in 0..cases(400) {
        let len = 1 + g.below(24);
        let text: String = (0..len)
            .filter_map(|_| {
                let plane = [0u32, 0, 0, 1, 2, 3, 14, 15][g.below(8)];
                char::from_u32(plane << 16 | g.below(0x1_0000) as u32)
            })
            .collect();
        for e in Encoding::ALL {
            assert_eq!(
                e.tokenizer().encode(&text).ids,
                reference(e).encode_ordinary(&text),
                "case {case}, {e}: {text:?}"
            );
        }
    }
}

#[test]
fn slices_resume_exactly() {
    let text = FIXTURES.concat().repeat(3);
    for e in Encoding::ALL {
        let whole = e.tokenizer().encode(&text);
        for budget in [1, 7, 64, 1000] {
            let mut parts = Encoded {
                ids: Vec::new(),
                offsets: vec![0],
            };
            let mut at = 0;
            while at < text.len() {
                let next = e.tokenizer().encode_from(&text, at, budget, &mut parts);
                assert!(next > at, "a slice must advance");
                at = next;
            }
            assert_eq!(parts, whole, "{e}, budget {budget}");
        }
    }
}

#[test]
fn decode_rebuilds_the_bytes() {
    for e in Encoding::ALL {
        for text in FIXTURES {
            let enc = e.tokenizer().encode(text);
            let bytes = e.tokenizer().decode_bytes(&enc.ids).expect("known ids");
            assert_eq!(bytes, text.as_bytes());
        }
        let bad = e.tokenizer().vocab_size() as u32;
        assert_eq!(
            e.tokenizer().decode_bytes(&[0, bad]).map_err(|u| u.0),
            Err(bad)
        );
    }
    assert_eq!(Encoding::Cl100kBase.tokenizer().vocab_size(), 100_256);
    assert_eq!(Encoding::O200kBase.tokenizer().vocab_size(), 199_998);
}

#[test]
fn e04_multibyte_character_split_into_byte_tokens() {
    let cl = Encoding::Cl100kBase.tokenizer();
    let one = cl.encode("猫");
    assert_eq!(one.len(), 3);
    assert_eq!(one.offsets, vec![0, 1, 2, 3]);
    assert_eq!(Encoding::O200kBase.tokenizer().count("猫"), 1);
    let many = "猫".repeat(200);
    assert_eq!(cl.count(&many), 600);
    assert_same(Encoding::Cl100kBase, &many);
}

#[test]
fn e05_offsets_are_monotonic_and_slice_the_text() {
    let text = "Rivers carry sediment from the hills to the sea, and over many years the sediment builds deltas where the water slows. Farmers settle on the deltas because the soil is rich, but floods return every spring and move the channels again.";
    let enc = Encoding::Cl100kBase.tokenizer().encode(text);
    assert_eq!(enc.len(), 46);
    check_offsets(Encoding::Cl100kBase, text, &enc);
}

#[test]
fn e14_worst_cases_are_exact_and_linear() {
    let cases: [(String, usize, usize); 3] = [
        ("a".repeat(100_000), 12_500, 12_500),
        ("^".repeat(1_000_000), 250_000, 125_000),
        (" ".repeat(100_000), 782, 782),
    ];
    for (text, cl, o2) in &cases {
        assert_eq!(Encoding::Cl100kBase.tokenizer().count(text), *cl);
        assert_eq!(Encoding::O200kBase.tokenizer().count(text), *o2);
    }
    // tiktoken-rs's split runs on these three; its ids must equal ours.
    for e in Encoding::ALL {
        for (text, _, _) in &cases {
            assert_eq!(
                e.tokenizer().encode(text).ids,
                reference(e).encode_ordinary(text)
            );
        }
    }
}

/// A megabyte of letters that change case at every byte (`aBaB…`), o200k_base's pieces `a`,
/// `Ba`, `Ba`, …: each piece's end is found by reading only up to it and one byte more, so the
/// split stays linear (a scan to the end of the letter run for every piece would read ~2.5·10¹¹
/// bytes). Equal to tiktoken-rs, whose regex cuts these pieces quickly too.
#[test]
fn o200k_mixed_case_runs_split_in_linear_time() {
    for text in ["aB".repeat(500_000), format!(" {}", "xYz".repeat(300_000))] {
        let ours = Encoding::O200kBase.tokenizer().encode(&text);
        assert_eq!(
            ours.ids,
            reference(Encoding::O200kBase).encode_ordinary(&text)
        );
        assert!(ours.len() > text.len() / 3, "{} tokens", ours.len());
    }
}

#[test]
fn e14_a_million_spaces_does_not_panic_and_matches_tiktokens_merge() {
    // tiktoken-rs 0.12.1 panics splitting this; both patterns make it one piece, so tiktoken's
    // own merge on the whole text is the reference.
    let text = " ".repeat(1_000_000);
    for e in Encoding::ALL {
        let ours = e.tokenizer().encode(&text);
        check_offsets(e, &text, &ours);
        let theirs = reference_single_piece(e).encode_ordinary(&text);
        assert_eq!(ours.ids, theirs, "{e}");
        // The merge of a uniform run: 128-space tokens, then the rest.
        assert_eq!(ours.len(), 7_813, "{e}");
    }
}

#[test]
fn e15_special_token_strings_are_plain_text() {
    let text = "Docs end with <|endoftext|> here.";
    assert_eq!(Encoding::Cl100kBase.tokenizer().count(text), 11);
    assert_eq!(Encoding::O200kBase.tokenizer().count(text), 12);
    assert_eq!(Encoding::Cl100kBase.tokenizer().count("<|endoftext|>"), 7);
    assert_eq!(find_special_tokens(text), vec![(14, "<|endoftext|>")]);
    // Nested starts, back-to-back tokens, near misses and multi-byte neighbours.
    let tricky =
        "<<|endoftext|><|<|fim_prefix|>é<|endofprompt|><|fim_suffix|> <| endoftext|> <|fim_middle";
    assert_eq!(
        find_special_tokens(tricky),
        vec![
            (1, "<|endoftext|>"),
            (16, "<|fim_prefix|>"),
            (32, "<|endofprompt|>"),
            (47, "<|fim_suffix|>"),
        ]
    );
    assert_same(Encoding::Cl100kBase, text);
    assert_same(Encoding::O200kBase, text);
}
