//! The document reader worker's module (run by `assets/extract-worker.js`): [`doc_extract`]'s
//! readers behind one wasm-bindgen export. Built by Trunk as a worker of its own, fetched only
//! when the user opens an HTML or DOCX file, so the parsers are never in the first paint.

use doc_extract::{Format, Outcome};
use wasm_bindgen::prelude::*;

/// Reads `bytes` (the file's whole content) as `format` (`"html"` or `"docx"`, as
/// [`Format`] serializes) and answers the [`Outcome`] as a plain object:
/// `{outcome: "read", text, title, headings, list_items, tables, images, removed}` or
/// `{outcome: "refused", reason, …}`.
///
/// # Errors
/// A string naming the format when `format` is neither, or when the outcome cannot be turned
/// into a JS value (neither happens from the page, which sends a detected format).
#[wasm_bindgen]
pub fn extract(format: &str, bytes: &[u8]) -> Result<JsValue, JsValue> {
    let format = parse_format(format).map_err(|e| JsValue::from_str(&e))?;
    let outcome: Outcome = doc_extract::extract(format, bytes);
    serde_wasm_bindgen::to_value(&outcome).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The [`Format`] named `name` as it serializes (`"html"`, `"docx"`).
fn parse_format(name: &str) -> Result<Format, String> {
    match name {
        "html" => Ok(Format::Html),
        "docx" => Ok(Format::Docx),
        other => Err(format!(
            "unknown document format {other:?} (expected \"html\" or \"docx\")"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_named_as_they_serialize() {
        for format in [Format::Html, Format::Docx] {
            let name = serde_json::to_value(format).unwrap();
            assert_eq!(parse_format(name.as_str().unwrap()), Ok(format));
        }
        assert!(parse_format("pdf").unwrap_err().contains("\"pdf\""));
    }
}
