//! Build-time tables of the tokenizers, written to `OUT_DIR`:
//! - `<encoding>.bin`: the length of every ordinary token in rank order (one byte each, the
//!   longest token is 128 bytes), then every token's bytes in rank order, back to back
//!   (`tokenizer::table`). tiktoken-rs defines the tables. The lengths apart from the bytes
//!   gzip 6 % smaller than `[len][bytes]` records (docs/design.md). Embedded with
//!   `include_bytes!` natively and in the comparison's module (feature `bpe-tables`); the
//!   tokenizer's module fetches them as files (`tables/<encoding>.bin`).
//! - `tables.rs`: each table's size in bytes, token count and checksum (`table_checksum` below,
//!   the same function as `tokenizer::table::checksum`), so that a fetched file is checked
//!   against what this build wrote.
//! - `unicode_classes.rs`: the Unicode classes that the split patterns use (`\p{L}`, `\p{N}`,
//!   `\s`, `\p{Lu}` …), as sorted code-point intervals with a bit set per interval, read from
//!   regex-syntax — the same Unicode data as tiktoken-rs's regexes.

use std::{env, fmt::Write as _, fs, path::Path};

fn out_path(name: &str) -> std::path::PathBuf {
    Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(name)
}

/// Must equal `tokenizer::table::checksum` (a test checks the embedded tables against the
/// constants this build writes): 8 bytes at a time, little-endian, the last word padded with
/// zeros, mixed as FxHash does, then the length.
fn table_checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = 0;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    (h.rotate_left(5) ^ bytes.len() as u64).wrapping_mul(K)
}

/// Writes `<name>.bin` and returns the line of `tables.rs` that describes it.
fn write_table(name: &str, bpe: &tiktoken_rs::CoreBPE, expected: u32) -> String {
    let mut lens = Vec::with_capacity(expected as usize);
    let mut blob = Vec::with_capacity(expected as usize * 8);
    let mut rank: u32 = 0;
    // Ordinary ranks are contiguous from 0; the first rank that does not decode ends them
    // (special tokens come after a gap).
    while let Ok(bytes) = bpe.decode_bytes(&[rank]) {
        let len = u8::try_from(bytes.len()).expect("a token longer than 255 bytes");
        lens.push(len);
        blob.extend_from_slice(&bytes);
        rank += 1;
    }
    assert_eq!(
        rank, expected,
        "{name}: unexpected number of ordinary tokens"
    );
    lens.extend_from_slice(&blob);
    fs::write(out_path(&format!("{name}.bin")), &lens).expect("write table");
    format!(
        "TableFacts {{ tokens: {rank}, bytes: {}, checksum: {:#018x} }}",
        lens.len(),
        table_checksum(&lens)
    )
}

/// The classes, in bit order; must match the `class` constants in `tokenizer/classes.rs`.
const CLASSES: [&str; 9] = [
    r"\p{L}", r"\p{N}", r"\s", r"\p{Lu}", r"\p{Lt}", r"\p{Lm}", r"\p{Lo}", r"\p{Ll}", r"\p{M}",
];

fn class_ranges(pattern: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::parse(pattern).expect("class parses");
    match hir.kind() {
        regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(c)) => c
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        other => panic!("{pattern} is not a Unicode class: {other:?}"),
    }
}

fn write_classes() {
    // Every point where some class starts or stops, then the bit set of each interval.
    let sets: Vec<Vec<(u32, u32)>> = CLASSES.iter().map(|p| class_ranges(p)).collect();
    let mut cuts = vec![0u32];
    for set in &sets {
        for &(s, e) in set {
            cuts.push(s);
            cuts.push(e + 1);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut starts = Vec::new();
    let mut bits = Vec::new();
    for &cut in &cuts {
        let mut b = 0u16;
        for (i, set) in sets.iter().enumerate() {
            let after = set.partition_point(|&(s, _)| s <= cut);
            if after > 0 && set[after - 1].1 >= cut {
                b |= 1 << i;
            }
        }
        if bits.last() != Some(&b) {
            starts.push(cut);
            bits.push(b);
        }
    }
    let ascii: Vec<u16> = (0u32..128)
        .map(|cp| bits[starts.partition_point(|&s| s <= cp) - 1])
        .collect();
    // A two-level table for the Basic Multilingual Plane: 512 blocks of 128 code points, equal
    // blocks stored once; each entry is the bit set itself.
    let bits_of = |cp: u32| bits[starts.partition_point(|&s| s <= cp) - 1];
    let mut blocks: Vec<Vec<u16>> = Vec::new();
    let mut block_index = Vec::with_capacity(512);
    for block in 0u32..512 {
        let entries: Vec<u16> = (block * 128..block * 128 + 128).map(bits_of).collect();
        let id = match blocks.iter().position(|b| *b == entries) {
            Some(id) => id,
            None => {
                blocks.push(entries);
                blocks.len() - 1
            }
        };
        block_index.push(u16::try_from(id).expect("fewer than 65536 blocks"));
    }
    let flat: Vec<u16> = blocks.concat();
    let mut src = String::new();
    writeln!(
        src,
        "/// Block number of each 128-code-point block of the BMP."
    )
    .ok();
    writeln!(
        src,
        "pub(crate) static BMP_INDEX: [u16; 512] = {:?};",
        block_index
    )
    .ok();
    writeln!(
        src,
        "/// Class bits of the distinct BMP blocks, 128 entries each."
    )
    .ok();
    writeln!(
        src,
        "pub(crate) static BMP_BLOCKS: [u16; {}] = {:?};",
        flat.len(),
        flat
    )
    .ok();
    writeln!(src, "/// Class bits of each ASCII code point.").ok();
    writeln!(src, "pub(crate) static ASCII: [u16; 128] = {:?};", ascii).ok();
    writeln!(src, "/// First code point of each interval (sorted).").ok();
    writeln!(
        src,
        "pub(crate) static STARTS: [u32; {}] = {:?};",
        starts.len(),
        starts
    )
    .ok();
    writeln!(src, "/// Class bits of each interval.").ok();
    writeln!(
        src,
        "pub(crate) static BITS: [u16; {}] = {:?};",
        bits.len(),
        bits
    )
    .ok();
    fs::write(out_path("unicode_classes.rs"), src).expect("write classes");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let cl100k = write_table(
        "cl100k_base",
        &tiktoken_rs::cl100k_base().expect("cl100k_base"),
        100_256,
    );
    let o200k = write_table(
        "o200k_base",
        &tiktoken_rs::o200k_base().expect("o200k_base"),
        199_998,
    );
    let facts = format!(
        "/// cl100k_base's table as this build wrote it.\n\
         pub(crate) const CL100K_BASE: TableFacts = {cl100k};\n\
         /// o200k_base's table as this build wrote it.\n\
         pub(crate) const O200K_BASE: TableFacts = {o200k};\n"
    );
    fs::write(out_path("tables.rs"), facts).expect("write table facts");
    write_classes();
}
