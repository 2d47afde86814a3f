//! The tokenizer's module as the page handles it: the file names of its wasm-bindgen build, the
//! compiled `WebAssembly.Module` a worker hands over (kept for a restarted worker and for the
//! page's own thread). A leaf: the worker handle and the page's own thread both use it, and it
//! uses neither. (Every result is checked by the core's `TokenBoundaries::new` before the page
//! indexes a text with it.)

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
