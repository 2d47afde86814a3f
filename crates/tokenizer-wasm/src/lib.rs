//! The page's exact BPE tokenizer ([`chunk_core::tokenizer`]) compiled alone to WebAssembly,
//! so that `make bench` can measure its set-up time, throughput and size against the npm
//! tokenizers (js-tiktoken, gpt-tokenizer, tiktoken) in Node and in headless Chromium.
//! It is not part of the page: the page links chunk-core directly.
//!
//! Every export takes the encoding's standard name (`"cl100k_base"` or `"o200k_base"`); any
//! other name throws a JS `Error` naming the accepted ones. Special-token strings such as
//! `<|endoftext|>` are tokenized as ordinary text, as everywhere in the page.

use chunk_core::tokenizer::{Bpe, Encoding};
use wasm_bindgen::prelude::*;

/// The tokenizer of `encoding`, or a JS error for an unknown name.
fn tokenizer(encoding: &str) -> Result<&'static Bpe, JsError> {
    Encoding::from_name(encoding)
        .map(Encoding::tokenizer)
        .ok_or_else(|| {
            JsError::new(&format!(
                "unknown encoding {encoding:?}: expected \"cl100k_base\" or \"o200k_base\""
            ))
        })
}

/// Builds the lookup tables of `encoding` now (they are otherwise built on its first use), so
/// that a caller can time the set-up apart from the tokenizing.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn prepare(encoding: &str) -> Result<(), JsError> {
    tokenizer(encoding).map(|_| ())
}

/// Number of tokens of `text` in `encoding` (exact, equal to tiktoken's `encode_ordinary`
/// length). The first call for an encoding also builds its tables.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn count(encoding: &str, text: &str) -> Result<u32, JsError> {
    let n = tokenizer(encoding)?.count(text);
    u32::try_from(n).map_err(|_| JsError::new("more than 4,294,967,295 tokens"))
}

/// Token ids of `text` in `encoding`, in text order (a `Uint32Array` in JS), equal to
/// tiktoken's `encode_ordinary`. The first call for an encoding also builds its tables.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn encode(encoding: &str, text: &str) -> Result<Vec<u32>, JsError> {
    Ok(tokenizer(encoding)?.encode(text).ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_equals_encode_length() {
        let text = "Chunk sizes are counted in tokens, not bytes. Токены. 猫は可愛い。";
        for e in Encoding::ALL {
            let bpe = e.tokenizer();
            assert_eq!(bpe.count(text), bpe.encode(text).ids.len());
            assert!(bpe.count(text) > 10);
        }
    }
}
