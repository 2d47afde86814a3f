//! Fixed windows over real BPE tokens (issue 2): the windows against a second, independently
//! written implementation, the reconstruction check, and the SPEC §2 formula against the real
//! cut, over every size 1..=64 × every overlap 0..size on several documents.

use chunk_core::formula::{compute, DocLength, FormulaInput};
use chunk_core::reconstruct::check_reconstruction;
use chunk_core::text_view::{chars_starting_in, segments, Segment};
use chunk_core::tokenizer::Encoding;
use chunk_core::windows::{fixed_windows, measured_overlaps, multiplicity, Window};

/// The reference: walk a cursor, emit `[cursor, cursor + size)`, stop as soon as a window reaches
/// the end, else step back by the overlap. Written without the formula.
fn reference_windows(n: usize, size: usize, overlap: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut cursor = 0;
    while cursor < n {
        let end = n.min(cursor + size);
        out.push((cursor, end));
        if end == n {
            break;
        }
        cursor = end - overlap;
    }
    out
}

const DOCS: &[&str] = &[
    "Rivers carry sediment from the hills to the sea, and over many years the sediment builds deltas where the water slows. Farmers settle on the deltas because the soil is rich, but floods return every spring and move the channels again.",
    "one two three four five six seven eight nine ten",
    "Thiết bị XV40 hoạt động ổn định trong phạm vi nhiệt độ từ −10 đến 50 °C. Không đặt thiết bị gần nguồn nhiệt.",
    "猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫猫 🐈‍⬛ Кошка сидит на окне.",
    "fn main() {\n    for i in 0..10 {\n        println!(\"{i}\");\n    }\n}\n",
    "x",
    "",
];

#[test]
fn fixed_windows_match_the_reference_and_the_formula_on_real_tokens() {
    for e in Encoding::ALL {
        for doc in DOCS {
            let enc = e.tokenizer().encode(doc);
            let n = enc.len();
            for size in 1..=64 {
                for overlap in 0..size {
                    let fw = fixed_windows(n, size, overlap).expect("size ≥ 1");
                    let spans: Vec<(usize, usize)> =
                        fw.windows.iter().map(|w| (w.start, w.end)).collect();
                    assert_eq!(
                        spans,
                        reference_windows(n, size, overlap),
                        "{e} n={n} s={size} o={overlap}"
                    );

                    let total = check_reconstruction(n, &spans).expect("tokens rebuild");
                    let bytes: Vec<(usize, usize)> = spans
                        .iter()
                        .map(|&(s, t)| enc.byte_range(s, t).expect("in range"))
                        .collect();
                    check_reconstruction(doc.len(), &bytes).expect("bytes rebuild");

                    let f = compute(FormulaInput {
                        document: DocLength::Tokens(n as u64),
                        chunk_size: size as u64,
                        chunk_overlap: overlap as u64,
                        price_per_million: None,
                    })
                    .expect("valid");
                    assert_eq!(f.chunks as usize, spans.len());
                    assert_eq!(f.total_tokens as usize, total);
                    let repeated: u32 = multiplicity(n, &fw.windows)
                        .iter()
                        .map(|m| m.saturating_sub(1))
                        .sum();
                    assert_eq!(f.repeated_tokens as usize, repeated as usize);
                    if let Some(last) = fw.windows.last() {
                        assert_eq!(f.last_chunk_tokens as usize, last.len());
                    }
                    let measured = measured_overlaps(&fw.windows);
                    assert!(measured.iter().skip(1).all(|&m| m == overlap));
                }
            }
        }
    }
}

#[test]
fn e01_overlap_not_below_size_is_clamped_on_real_tokens() {
    let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    for (e, n) in [(Encoding::Cl100kBase, 11), (Encoding::O200kBase, 13)] {
        assert_eq!(e.tokenizer().count(text), n);
        for (size, overlap) in [(2, 2), (5, 5), (5, 50)] {
            let fw = fixed_windows(n, size, overlap).expect("size ≥ 1");
            assert!(fw.overlap_clamped);
            assert_eq!(fw.chunk_overlap, size - 1);
            assert_eq!(fw.windows.len(), n - size + 1);
        }
    }
}

#[test]
fn e02_e03_windows_on_real_tokens() {
    let ten = "one two three four five six seven eight nine ten";
    let n = Encoding::Cl100kBase.tokenizer().count(ten);
    assert_eq!(n, 10);
    let fw = fixed_windows(n, 8, 4).expect("size ≥ 1");
    assert_eq!(
        fw.windows,
        vec![Window { start: 0, end: 8 }, Window { start: 4, end: 10 }]
    );
    let six = Encoding::Cl100kBase
        .tokenizer()
        .count("one two three four five six");
    assert_eq!(six, 6);
    let fw = fixed_windows(six, 8, 4).expect("size ≥ 1");
    assert_eq!(fw.windows.len(), 1);
    assert_eq!(measured_overlaps(&fw.windows), vec![0]);
}

fn segment_bytes(segs: &[Segment]) -> Vec<u8> {
    segs.iter()
        .flat_map(|s| match s {
            Segment::Text(t) => t.as_bytes().to_vec(),
            Segment::PartialChar { bytes, .. } => bytes.clone(),
        })
        .collect()
}

#[test]
fn e04_windows_inside_characters_are_shown_honestly() {
    let cl = Encoding::Cl100kBase.tokenizer();
    for (text, size, total) in [("猫".to_string(), 1, 3), ("猫".repeat(200), 50, 600)] {
        let enc = cl.encode(&text);
        let fw = fixed_windows(enc.len(), size, 0).expect("size ≥ 1");
        assert_eq!(fw.windows.iter().map(|w| w.len()).sum::<usize>(), total);
        let mut bytes = Vec::new();
        let mut chars = 0;
        for w in &fw.windows {
            let (s, t) = enc.byte_range(w.start, w.end).expect("in range");
            let segs = segments(&text, s, t);
            assert!(segs
                .iter()
                .all(|g| !matches!(g, Segment::Text(x) if x.contains('\u{FFFD}'))));
            bytes.extend(segment_bytes(&segs));
            chars += chars_starting_in(&text, s, t);
        }
        assert_eq!(bytes, text.as_bytes());
        assert_eq!(chars, text.chars().count());
    }
}

#[test]
fn e05_window_starts_and_byte_offsets() {
    let text = "Rivers carry sediment from the hills to the sea, and over many years the sediment builds deltas where the water slows. Farmers settle on the deltas because the soil is rich, but floods return every spring and move the channels again.";
    let enc = Encoding::Cl100kBase.tokenizer().encode(text);
    let fw = fixed_windows(enc.len(), 20, 10).expect("size ≥ 1");
    let starts: Vec<usize> = fw.windows.iter().map(|w| w.start).collect();
    assert_eq!(starts, vec![0, 10, 20, 30]);
    let mut prev = 0;
    for w in &fw.windows {
        let (s, t) = enc.byte_range(w.start, w.end).expect("in range");
        assert!(s >= prev && s < t);
        prev = s;
        let chunk = Encoding::Cl100kBase
            .tokenizer()
            .decode_bytes(&enc.ids[w.start..w.end])
            .expect("known ids");
        assert_eq!(&text.as_bytes()[s..t], chunk.as_slice());
    }
}
