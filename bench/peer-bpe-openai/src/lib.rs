//! github/rust-gems' `bpe-openai` 0.3.2 in wasm, for `make bench`: the exports of our tokenizer
//! module's bench build (`prepare`, `count`, `encode`, each taking the encoding's standard
//! name), so that bench/lib/adapters.mjs drives both the same way. Its tables are embedded by
//! its own build script; its split step is its own (regex-automata with a look-ahead rewrite).

use wasm_bindgen::prelude::*;

/// The tokenizer of `name` (`"cl100k_base"` or `"o200k_base"`), or a JS error naming both.
fn tokenizer(name: &str) -> Result<&'static bpe_openai::Tokenizer, JsError> {
    match name {
        "cl100k_base" => Ok(bpe_openai::cl100k_base()),
        "o200k_base" => Ok(bpe_openai::o200k_base()),
        _ => Err(JsError::new(&format!(
            "unknown encoding {name:?}: expected \"cl100k_base\" or \"o200k_base\""
        ))),
    }
}

/// Builds the tables of `encoding_name` now (otherwise on first use), so the set-up is timed
/// apart from the tokenizing.
///
/// # Errors
/// A JS `Error` for an encoding name other than `cl100k_base` or `o200k_base`.
#[wasm_bindgen]
pub fn prepare(encoding_name: &str) -> Result<(), JsError> {
    tokenizer(encoding_name)?.count("");
    Ok(())
}

/// Number of tokens of `text` by bpe-openai's own count.
///
/// # Errors
/// A JS `Error` for an unknown encoding name, or more than `u32::MAX` tokens.
#[wasm_bindgen]
pub fn count(encoding_name: &str, text: &str) -> Result<u32, JsError> {
    let n = tokenizer(encoding_name)?.count(text);
    u32::try_from(n).map_err(|_| JsError::new("more than 4,294,967,295 tokens"))
}

/// Token ids of `text` (a `Uint32Array` in JS), which the bench compares with ours.
///
/// # Errors
/// A JS `Error` for an unknown encoding name.
#[wasm_bindgen]
pub fn encode(encoding_name: &str, text: &str) -> Result<Vec<u32>, JsError> {
    Ok(tokenizer(encoding_name)?.encode(text))
}
