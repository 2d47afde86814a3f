//! Precomputes the BPE tables at build time: for each encoding, every ordinary token's bytes in
//! rank order, written to `OUT_DIR/<encoding>.bin` as `[len: u8][bytes; len]` records (the
//! longest token is 128 bytes). tiktoken-rs defines the tables; this turns them into a compact
//! form that the wasm embeds with `include_bytes!` instead of base64 text to parse at start-up.

use std::{env, fs, path::Path};

fn write_table(name: &str, bpe: &tiktoken_rs::CoreBPE, expected: u32) {
    let mut out = Vec::with_capacity(expected as usize * 8);
    let mut rank: u32 = 0;
    // Ordinary ranks are contiguous from 0; the first rank that does not decode ends them
    // (special tokens come after a gap).
    while let Ok(bytes) = bpe.decode_bytes(&[rank]) {
        let len = u8::try_from(bytes.len()).expect("a token longer than 255 bytes");
        out.push(len);
        out.extend_from_slice(&bytes);
        rank += 1;
    }
    assert_eq!(rank, expected, "{name}: unexpected number of ordinary tokens");
    let path = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(format!("{name}.bin"));
    fs::write(path, out).expect("write table");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    write_table("cl100k_base", &tiktoken_rs::cl100k_base().expect("cl100k_base"), 100_256);
    write_table("o200k_base", &tiktoken_rs::o200k_base().expect("o200k_base"), 199_998);
}
