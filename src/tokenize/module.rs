//! The tokenizer's module as the page handles it: the file names of its wasm-bindgen build, the
//! compiled `WebAssembly.Module` a worker hands over (kept for a restarted worker and for the
//! page's own thread), and the check every result passes before the page indexes a text with
//! it. A leaf: the worker handle and the page's own thread both use it, and it uses neither.

use std::cell::RefCell;

/// The tokenizer module's wasm-bindgen glue, as Trunk names a worker build (after the crate).
pub const ENGINE_GLUE: &str = "tokenize-engine.js";
/// See [`ENGINE_GLUE`].
pub const ENGINE_WASM: &str = "tokenize-engine_bg.wasm";

/// A compiled tokenizer module (a `WebAssembly.Module`) as the worker hands it over; nothing
/// natively, where there is no worker.
#[derive(Clone, Debug)]
pub struct Module(#[cfg(target_arch = "wasm32")] pub wasm_bindgen::JsValue);

thread_local! {
    /// The first compiled module a worker sent: for a restarted worker, and for this thread.
    static OFFERED: RefCell<Option<Module>> = const { RefCell::new(None) };
}

/// Keeps the tokenizer module a worker compiled (a `WebAssembly.Module`), so that a restarted
/// worker, and this thread when it needs the tables, start from it rather than fetching and
/// compiling it again. The first one offered is kept.
pub fn offer_module(module: &Module) {
    OFFERED.with(|m| {
        m.borrow_mut().get_or_insert_with(|| module.clone());
    });
}

/// The module [`offer_module`] kept, if any.
pub fn offered_module() -> Option<Module> {
    OFFERED.with(|m| m.borrow().clone())
}

/// Checks that `offsets` can be the token boundaries of a text of `text_len` bytes: from 0 to
/// `text_len`, strictly increasing (the invariant of `Encoded::offsets`). The page's windows
/// index the text with them, so a result that breaks it is refused rather than shown.
pub fn check_offsets(offsets: &[usize], text_len: usize) -> Result<(), String> {
    if offsets.first() != Some(&0) || offsets.last() != Some(&text_len) {
        return Err(format!(
            "offsets span {:?}..{:?}, the text is {text_len} bytes",
            offsets.first(),
            offsets.last()
        ));
    }
    if let Some(i) = offsets.windows(2).position(|w| w[0] >= w[1]) {
        return Err(format!("offsets do not increase at token {i}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use chunk_core::tokenizer::Encoding;

    use super::check_offsets;

    #[test]
    fn a_real_tokenization_passes_the_check() {
        let text = "Chunks of 猫 and 🐈, with  spaces.";
        let enc = Encoding::Cl100kBase.tokenizer().encode(text);
        assert_eq!(check_offsets(&enc.offsets, text.len()), Ok(()));
        let empty = Encoding::Cl100kBase.tokenizer().encode("");
        assert_eq!(check_offsets(&empty.offsets, 0), Ok(()));
    }

    #[test]
    fn offsets_that_break_the_invariant_are_refused_with_the_reason() {
        assert_eq!(
            check_offsets(&[], 9),
            Err("offsets span None..None, the text is 9 bytes".to_string())
        );
        assert_eq!(
            check_offsets(&[0, 999_999_999], 9),
            Err("offsets span Some(0)..Some(999999999), the text is 9 bytes".to_string())
        );
        assert_eq!(
            check_offsets(&[1, 4, 9], 9),
            Err("offsets span Some(1)..Some(9), the text is 9 bytes".to_string())
        );
        assert_eq!(
            check_offsets(&[0, 5, 5, 9], 9),
            Err("offsets do not increase at token 1".to_string())
        );
    }
}
