//! Every sentence rule on arbitrary text: no panic, no hang (libFuzzer's -timeout), and the
//! spans tile the text (in order, non-empty, on character boundaries, from 0 to the end).
//!
//! Run: `cargo +nightly fuzz run sentences -- -max_len=4096 -timeout=10` (see fuzz/README.md).

#![no_main]

use chunk_core::segment::sentences::sentence_bytes;
use chunk_core::segment::sentences::SentenceRule;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for rule in SentenceRule::ALL {
        let spans = sentence_bytes(text, rule);
        let mut at = 0;
        for &(s, e) in &spans {
            assert_eq!(s, at, "{rule:?}: a gap or an overlap before byte {s}");
            assert!(e > s && text.is_char_boundary(e), "{rule:?}: span {s}..{e}");
            at = e;
        }
        assert_eq!(at, text.len(), "{rule:?}: the spans stop at byte {at}");
    }
});
