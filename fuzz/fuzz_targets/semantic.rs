//! The semantic strategies on arbitrary text, size and unit, with made-up vectors (a count of
//! a few words and letter classes per text: the rules only read cosines): no panic, no hang,
//! each strategy's `Keeps` statement holds, and the product's own `semantic` keeps every byte
//! and is never over `chunk_size` but for one character alone over it.
//!
//! Run: `cargo +nightly fuzz run semantic -- -max_len=4096 -timeout=10` (see fuzz/README.md).

#![no_main]

use arbitrary::Arbitrary;
use chunk_core::reconstruct::check_reconstruction;
use chunk_core::strategy::semantic::Vectors;
use chunk_core::strategy::{run, SemanticChunker, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::{Encoding, TokenCounter};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

#[path = "../../crates/chunk-core/tests/differential/keeps.rs"]
mod keeps;

#[derive(Arbitrary, Debug)]
struct Input {
    strategy: u8,
    chunk_size: u16,
    characters: bool,
    text: String,
}

fn made_up(text: &str) -> Vec<f32> {
    let mut v: Vec<f32> = ["the", "a", "cat", "ship", ".", "\n"]
        .iter()
        .map(|w| text.matches(w).count() as f32)
        .collect();
    v.push(text.chars().filter(|c| c.is_alphabetic()).count() as f32 * 0.01);
    v
}

fuzz_target!(|input: Input| {
    let ids: Vec<StrategyId> = StrategyId::semantic().collect();
    let id = ids[usize::from(input.strategy) % ids.len()];
    let settings = Settings {
        chunk_size: usize::from(input.chunk_size % 600),
        chunk_overlap: 0,
        unit: if input.characters { SizeUnit::Characters } else { SizeUnit::Tokens },
        encoding: Encoding::Cl100kBase,
    };
    let text = input.text.as_str();
    let Some(Ok(c)) = SemanticChunker::new(id, &settings) else {
        return;
    };
    let Ok(texts) = c.embedding_texts(text) else {
        return;
    };
    let mut vectors = Vectors::new();
    for t in texts {
        let v = made_up(&t);
        vectors.insert(t, v);
    }
    let c = c.with_vectors(Arc::new(vectors));
    let out = run(&c, text, settings.encoding).unwrap_or_else(|e| panic!("{id}: {e}"));
    if let Err(e) = keeps::check(out.keeps, text, &out) {
        panic!("{id}: {e}");
    }
    if id == StrategyId::Semantic {
        let spans: Vec<(usize, usize)> =
            out.chunks.iter().map(|c| (c.bytes.start, c.bytes.end)).collect();
        if let Err(e) = check_reconstruction(text.len(), &spans) {
            panic!("{id}: reconstruction: {e:?}");
        }
        let length = settings.length();
        for ch in &out.chunks {
            let t = &text[ch.bytes.clone()];
            assert!(
                length.count(t) <= settings.chunk_size || t.chars().count() == 1,
                "{id}: a chunk of {} over {}",
                length.count(t),
                settings.chunk_size
            );
        }
    }
});
