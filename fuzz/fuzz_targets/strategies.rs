//! Every strategy on arbitrary text, size, overlap, unit and encoding: no panic, no hang
//! (libFuzzer's -timeout), and each strategy's `Keeps` statement holds — for the product's own
//! strategies that is byte reconstruction (SPEC §6), also checked by `chunk_core::reconstruct`.
//!
//! Run: `cargo +nightly fuzz run strategies -- -max_len=4096 -timeout=10` (see fuzz/README.md).

#![no_main]

use chunk_core::reconstruct::check_reconstruction;
use chunk_core::strategy::{chunker, run, Keeps, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/chunk-core/tests/differential/keeps.rs"]
mod keeps;

#[derive(Arbitrary, Debug)]
struct Input {
    strategy: u8,
    chunk_size: u16,
    chunk_overlap: u16,
    characters: bool,
    o200k: bool,
    text: String,
}

fuzz_target!(|input: Input| {
    let ids: Vec<StrategyId> = StrategyId::all().collect();
    let id = ids[usize::from(input.strategy) % ids.len()];
    let settings = Settings {
        // Sizes 0..=1023: 0 must be refused, tiny sizes stress the no-progress paths.
        chunk_size: usize::from(input.chunk_size % 1024),
        chunk_overlap: usize::from(input.chunk_overlap % 1100),
        unit: if input.characters { SizeUnit::Characters } else { SizeUnit::Tokens },
        encoding: if input.o200k { Encoding::O200kBase } else { Encoding::Cl100kBase },
    };
    let text = input.text.as_str();
    let Ok(c) = chunker(id, &settings) else {
        return;
    };
    let Ok(out) = run(c.as_ref(), text, settings.encoding) else {
        return;
    };
    if let Err(e) = keeps::check(out.keeps, text, &out) {
        panic!("{id}: {e}");
    }
    if id.library().is_none() && out.keeps == Keeps::Everything {
        let spans: Vec<(usize, usize)> =
            out.chunks.iter().map(|c| (c.bytes.start, c.bytes.end)).collect();
        if let Err(e) = check_reconstruction(text.len(), &spans) {
            panic!("{id}: reconstruction: {e:?}");
        }
    }
});
