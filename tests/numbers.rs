//! Numbers in the browser: the page's wasm module reads a typed number with the browser's own
//! `parseFloat` (`parse::float`, so that it carries no float parser of its own); that reading
//! equals Rust's `str::parse::<f64>`, bit for bit, on every string the syntax check lets
//! through (the syntax itself is checked natively, in `src/parse.rs`).
//!
//! Run with:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test numbers`
#![cfg(target_arch = "wasm32")]

use rag_chunk_calculator::parse::float;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `float(s)` against Rust's reading of `s`, compared by bits (so -0 and 0 differ).
fn check(s: &str) {
    let rust = s.parse::<f64>().ok().map(f64::to_bits);
    assert_eq!(float(s).map(f64::to_bits), rust, "{s:?}");
}

#[wasm_bindgen_test]
fn the_browser_reads_numbers_as_rust_does() {
    // Every string of up to four characters over the characters a normalised number holds.
    let alphabet = ['0', '5', '9', '.', 'e', 'E', '+', '-'];
    let mut strings = vec![String::new()];
    for _ in 0..4 {
        strings = strings
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        strings.iter().for_each(|s| check(s));
    }
    // Where rounding is hard: halfway cases, the subnormals, the largest values and past them,
    // prices as typed, and more digits than an f64 holds.
    for s in [
        "0.1",
        "0.02",
        "0.13",
        "1000000",
        "9007199254740993",
        "9007199254740995",
        "2.2250738585072014e-308",
        "2.2250738585072011e-308",
        "4.9e-324",
        "2.4703282292062328e-324",
        "2.4703282292062327e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "1e309",
        "1e-400",
        "-0",
        "-0.0e5",
        "123456789012345678901234567890.123456789",
        "0.000000000000000000000000000000000000000001234567890123456789",
        "7.038531e-26",
        "8.9255e-18",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "00012.500",
        ".5",
        "5.",
        "1e+05",
    ] {
        check(s);
    }
    // 20,000 decimals of 1 to 25 digits with a point somewhere and exponents -40 to 40
    // (mulberry32, fixed seed).
    let mut state: u32 = 0x9e37_79b9;
    let mut next = move || {
        state = state.wrapping_add(0x6d2b_79f5);
        let mut t = state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    };
    for _ in 0..20_000 {
        let len = 1 + next() as usize % 25;
        let mut s: String = (0..len)
            .map(|_| char::from(b'0' + (next() % 10) as u8))
            .collect();
        let point = next() as usize % (len + 1);
        if point < len {
            s.insert(point, '.');
        }
        if next() % 2 == 0 {
            s.push_str(&format!("e{}", next() as i32 % 41));
        }
        check(&s);
    }
}
