//! The few direct browser calls outside the view tree: language detection and memory, the
//! document's `lang` and title, and a sleep for tests. Each is a no-op (or a default) outside
//! the browser, so the crate still compiles and unit-tests natively.

use crate::i18n::Lang;

/// `localStorage` key holding the chosen language code.
const LANG_KEY: &str = "rag-chunk-calculator.lang";

/// The language to start in: the one chosen earlier on this device, else the browser's
/// preferred language if the page has it, else English.
pub fn initial_lang() -> Lang {
    #[cfg(target_arch = "wasm32")]
    {
        let window = leptos::prelude::window();
        let saved = window
            .local_storage()
            .ok()
            .flatten()
            .and_then(|s| s.get_item(LANG_KEY).ok().flatten())
            .and_then(|code| Lang::from_tag(&code));
        saved
            .or_else(|| {
                window
                    .navigator()
                    .language()
                    .and_then(|t| Lang::from_tag(&t))
            })
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = LANG_KEY;
        Lang::default()
    }
}

/// Remembers the chosen language on this device (ignored if storage is unavailable, e.g. in
/// private mode: the page then simply starts from the browser's language next time).
pub fn remember_lang(lang: Lang) {
    #[cfg(target_arch = "wasm32")]
    if let Ok(Some(storage)) = leptos::prelude::window().local_storage() {
        let _ = storage.set_item(LANG_KEY, lang.code());
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = lang;
}

/// Sets `<html lang>` and the document title.
pub fn apply_lang(lang: Lang, title: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        let document = leptos::prelude::document();
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.code());
        }
        document.set_title(title);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (lang, title);
}

/// Resolves after about `ms` milliseconds (a `setTimeout` promise). Used by the browser tests
/// to wait for the sliced tokenizer, which runs on timers.
#[cfg(target_arch = "wasm32")]
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let _ = leptos::prelude::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
