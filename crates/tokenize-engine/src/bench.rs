//! The exports `make bench` times (built only with the `bench` feature; the page's module never
//! has them): the same three functions the deleted `tokenizer-wasm` crate had, so the figures
//! stay comparable with the earlier ones, now in the module the page ships.
//!
//! - [`prepare`] builds an encoding's table (the set-up time);
//! - [`count`] is the shipped path: a [`Slicer`] over the whole text, run to the end in one
//!   slice, as the tokenizer worker runs it (a copy of the text, the offsets of every token);
//! - [`encode`] gives the token ids, which the bench compares with every peer's.
//!
//! Every export takes the encoding's standard name (`"cl100k_base"` or `"o200k_base"`); any
//! other name throws a JS `Error` naming the accepted ones. Special-token strings such as
//! `<|endoftext|>` are tokenized as ordinary text, as everywhere in the page.

use std::sync::Arc;

use chunk_core::tokenizer::sliced::Slicer;
use chunk_core::tokenizer::Encoding;
use wasm_bindgen::prelude::*;

/// `encoding` by its standard name, or a JS error naming the accepted ones.
fn encoding(name: &str) -> Result<Encoding, JsError> {
    Encoding::from_name(name).ok_or_else(|| {
        JsError::new(&format!(
            "unknown encoding {name:?}: expected \"cl100k_base\" or \"o200k_base\""
        ))
    })
}

/// Builds the lookup tables of `encoding` now (they are otherwise built on its first use), so
/// that a caller can time the set-up apart from the tokenizing.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn prepare(encoding_name: &str) -> Result<(), JsError> {
    encoding(encoding_name)?.tokenizer();
    Ok(())
}

/// Number of tokens of `text` in `encoding` (exact, equal to tiktoken's `encode_ordinary`
/// length), by the tokenizer worker's path: a [`Slicer`] run over the whole text.
///
/// # Errors
/// A JS `Error` for an unknown encoding name, or more than `u32::MAX` tokens.
#[wasm_bindgen]
pub fn count(encoding_name: &str, text: &str) -> Result<u32, JsError> {
    let mut slicer = Slicer::new(Arc::from(text), encoding(encoding_name)?);
    while !slicer.run_for(f64::INFINITY, || 0.0) {}
    let tokens = slicer.into_encoded().offsets.len() - 1;
    u32::try_from(tokens).map_err(|_| JsError::new("more than 4,294,967,295 tokens"))
}

/// Token ids of `text` in `encoding`, in text order (a `Uint32Array` in JS), equal to
/// tiktoken's `encode_ordinary`: what the bench compares with the peers' ids.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn encode(encoding_name: &str, text: &str) -> Result<Vec<u32>, JsError> {
    Ok(encoding(encoding_name)?.tokenizer().encode(text).ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_by_the_sliced_path_equals_encode_length() {
        let text = "Chunk sizes are counted in tokens, not bytes. Токены. 猫は可愛い。";
        for name in ["cl100k_base", "o200k_base"] {
            let ids = encode(name, text).ok().unwrap_or_default();
            let n = count(name, text).ok().unwrap_or_default();
            assert_eq!(n as usize, ids.len());
            assert!(n > 10);
        }
        assert_eq!(count("cl100k_base", "").ok(), Some(0));
    }
}
