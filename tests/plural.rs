//! Plural forms in the browser: the catalog's CLDR rules (`i18n::cldr_plural`, the stand-in
//! outside a browser) agree with the browser's own `Intl.PluralRules`, which the page uses (the
//! messages' forms for those categories are checked natively, in `src/i18n/mod.rs`).
//!
//! Run with:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test plural`
#![cfg(target_arch = "wasm32")]

use rag_chunk_calculator::i18n::{cldr_plural, intl_plural, plural, Lang};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_cldr_rules_equal_intl_plural_rules_in_every_language() {
    let numbers = (0..10_000u64).chain([100_001, 1_000_011, 1_000_021, 123_456_789_012]);
    for lang in Lang::ALL {
        for n in numbers.clone() {
            assert_eq!(
                intl_plural(lang, n),
                Some(cldr_plural(lang, n)),
                "{lang:?} {n}"
            );
            // What the page's messages ask goes through Intl here.
            assert_eq!(plural(lang, n), cldr_plural(lang, n), "{lang:?} {n}");
        }
    }
}
