//! The few direct browser calls outside the view tree: language detection and memory, the
//! document's `lang` and title, a yield to the browser, and reading a pasted string in slices.
//! Each compiles natively (the first three are no-ops or defaults outside the browser), so the
//! crate still unit-tests natively.

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

/// Why [`fetch_text`] got no text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// The server answered with this HTTP status, not 2xx.
    Status(u16),
    /// No answer (offline, refused, aborted), or its body could not be read: the browser's own
    /// words for it, for the console.
    Network(String),
}

/// The text of the file at `path`, relative to the page (its `<base>`).
#[cfg(target_arch = "wasm32")]
pub async fn fetch_text(path: &str) -> Result<String, FetchError> {
    use wasm_bindgen::JsCast;
    let network = |e: wasm_bindgen::JsValue| {
        FetchError::Network(
            js_sys::Error::from(e)
                .message()
                .as_string()
                .unwrap_or_default(),
        )
    };
    let answer =
        wasm_bindgen_futures::JsFuture::from(leptos::prelude::window().fetch_with_str(path))
            .await
            .map_err(network)?;
    let response: web_sys::Response = answer.dyn_into().map_err(network)?;
    if !response.ok() {
        return Err(FetchError::Status(response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(network)?)
        .await
        .map_err(network)?;
    text.as_string()
        .ok_or_else(|| FetchError::Network("the body is not text".to_owned()))
}

/// Resolves after about `ms` milliseconds (a `setTimeout` promise). Used by the browser tests
/// to wait for the tokenizer (the page itself yields with [`yield_now`]).
#[cfg(target_arch = "wasm32")]
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let _ = leptos::prelude::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Yields to the browser's event loop once: resolves on a message sent through a fresh
/// `MessageChannel`, so queued events (input, a newer job for the worker) run first. Rather
/// than `setTimeout(0)`, which browsers delay to 4 ms once timers nest. Works in the page and
/// in a worker.
pub async fn yield_now() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        channel.port1().set_onmessage(Some(&resolve));
        let _ = channel.port2().post_message(&wasm_bindgen::JsValue::NULL);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Copies a JS string into a Rust `String` one slice of `units` UTF-16 code units (at least 2)
/// per browser task, so that a paste of megabytes never blocks the page in one long task
/// (Chromium converts a million units in 6–10 ms). A slice never ends between the two
/// halves of a surrogate pair. Between slices it yields to the browser and then gives up,
/// returning `None`, as soon as `keep_going` returns false (a newer edit made the text stale).
pub async fn read_js_string(
    s: &js_sys::JsString,
    units: u32,
    keep_going: impl Fn() -> bool,
) -> Option<String> {
    let len = s.length();
    let mut out = String::with_capacity(len as usize);
    let mut at = 0;
    while at < len {
        let mut end = at.saturating_add(units.max(2)).min(len);
        let high_surrogate = 0xD800 as f64..0xDC00 as f64;
        if end < len && high_surrogate.contains(&s.char_code_at(end - 1)) {
            end -= 1;
        }
        out.push_str(&String::from(s.slice(at, end)));
        at = end;
        if at < len {
            yield_now().await;
            if !keep_going() {
                return None;
            }
        }
    }
    Some(out)
}

/// The clipboard's plain text as the JS string itself: `DataTransfer.getData("text")` without
/// the copy into wasm memory that web-sys's binding makes at once (see [`read_js_string`]).
/// `None` when there is no text.
pub fn clipboard_text(data: &web_sys::DataTransfer) -> Option<js_sys::JsString> {
    use wasm_bindgen::JsCast;
    let get_data = js_sys::Reflect::get(data, &"getData".into()).ok()?;
    let text = get_data
        .dyn_ref::<js_sys::Function>()?
        .call1(data, &"text".into())
        .ok()?;
    text.dyn_into().ok()
}

/// Offers `text` as a file download named `name` with MIME type `mime`: a `Blob` in the page
/// and a temporary object URL clicked through an `<a download>`; nothing leaves the browser.
pub fn download(name: &str, mime: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
        let options = web_sys::BlobPropertyBag::new();
        options.set_type(mime);
        let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
            return;
        };
        let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
            return;
        };
        let document = leptos::prelude::document();
        if let Some(a) = document
            .create_element("a")
            .ok()
            .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
        // The click has started the download; the URL can go once this task ends.
        let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        });
        let _ = leptos::prelude::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 0);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, mime, text);
}

/// True unless the browser says it is offline (`navigator.onLine`); always true natively.
pub fn is_online() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        leptos::prelude::window().navigator().on_line()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        true
    }
}

/// Puts `text` on the clipboard (`navigator.clipboard.writeText`); silently nothing where the
/// browser refuses (no permission, insecure context).
pub fn copy_text(text: &str) {
    copy_text_then(text, |_| {});
}

/// Puts `text` on the clipboard and calls `done` with whether the browser took it (once the
/// promise of `navigator.clipboard.writeText` has settled; `false` in an insecure context,
/// where there is no clipboard API, and natively).
pub fn copy_text_then(text: &str, done: impl FnOnce(bool) + 'static) {
    #[cfg(target_arch = "wasm32")]
    {
        let window = leptos::prelude::window();
        if !window.is_secure_context() {
            done(false);
            return;
        }
        let promise = window.navigator().clipboard().write_text(text);
        wasm_bindgen_futures::spawn_local(async move {
            done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        done(false);
    }
}

/// `location.hash` (with its `#`), empty when there is none (and natively).
pub fn location_hash() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        leptos::prelude::window()
            .location()
            .hash()
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    String::new()
}

/// Sets the URL's fragment to `fragment` (without `#`) without scrolling or a request: a new
/// history entry when `push`, else the current entry replaced.
pub fn write_hash(fragment: &str, push: bool) {
    #[cfg(target_arch = "wasm32")]
    {
        let window = leptos::prelude::window();
        if let Ok(history) = window.history() {
            let url = format!("#{fragment}");
            let _ = if push {
                history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            } else {
                history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            };
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (fragment, push);
}

/// Calls `f` on every `popstate` (Back, Forward) for the page's lifetime.
pub fn on_popstate(f: impl Fn() + 'static) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
        let _ = leptos::prelude::window()
            .add_event_listener_with_callback("popstate", closure.as_ref().unchecked_ref());
        // The listener lives as long as the page.
        closure.forget();
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = f;
}

/// The page's address without its fragment, then `#fragment`.
pub fn page_url_with_hash(fragment: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let href = leptos::prelude::window()
            .location()
            .href()
            .unwrap_or_default();
        let base = href.split('#').next().unwrap_or_default();
        format!("{base}#{fragment}")
    }
    #[cfg(not(target_arch = "wasm32"))]
    format!("#{fragment}")
}

/// Focuses the text box `id` and selects its whole content.
pub fn select_input(id: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        if let Some(input) = leptos::prelude::document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            let _ = input.focus();
            input.select();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = id;
}

/// The text the user has selected anywhere on the page (`window.getSelection()`), when it is
/// not empty; form fields' own selections are not part of it.
pub fn selected_text() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let s = leptos::prelude::window().get_selection().ok()??;
        let text = String::from(s.to_string());
        (!text.is_empty()).then_some(text)
    }
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Milliseconds from a monotonic-enough clock: `Date.now()` in the page and in the worker
/// (both have it); 0 natively, where nothing is scheduled by time.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// Moves the keyboard focus to the element `id` (made focusable by script only, `tabindex=-1`,
/// if it is not focusable already) and scrolls it into view; nothing when there is none.
pub fn focus_element(id: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = leptos::prelude::document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            if !el.has_attribute("tabindex") {
                let _ = el.set_attribute("tabindex", "-1");
            }
            let _ = el.focus();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = id;
}

/// Sets the value of the `<input id=…>` to `value` (for a button that fills a field the user
/// asked it to fill); nothing when there is no such input.
pub fn set_input_value(id: &str, value: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        if let Some(input) = leptos::prelude::document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_value(value);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (id, value);
}

/// What a worker's `error` event says (its message, or that `script` did not load or start),
/// or its `messageerror` event (a message the page could not read), after keeping the event
/// from counting as an uncaught error of the page: the page handles it (the tokenizer falls
/// back to its own thread, the comparison restarts its worker, a document's reading ends).
#[cfg(target_arch = "wasm32")]
pub fn worker_error(ev: &web_sys::Event, script: &str) -> String {
    use wasm_bindgen::JsCast;
    ev.prevent_default();
    if ev.type_() == "messageerror" {
        return format!("a message from {script} could not be read");
    }
    ev.dyn_ref::<web_sys::ErrorEvent>()
        .map(|e| e.message())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| format!("{script} did not load or start"))
}

/// Writes `message` to the browser console as a warning (a worker's failure, for whoever
/// debugs the page; the page shows its own notice).
pub fn warn(message: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::warn_1(&message.into());
    #[cfg(not(target_arch = "wasm32"))]
    let _ = message;
}

/// The event the page dispatches on `window` once its workers' modules have arrived (or could
/// not): `assets/boot.js` registers the service worker then.
pub const SETTLED_EVENT: &str = "rag-chunk-calculator-settled";

/// Dispatches [`SETTLED_EVENT`] on `window` (nothing outside a browser).
pub fn announce_settled() {
    #[cfg(target_arch = "wasm32")]
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(SETTLED_EVENT)) {
        let _ = window.dispatch_event(&event);
    }
}

/// Stops `worker` after detaching its handlers, so that an event it had already queued never
/// reaches a closure its owner drops next (wasm-bindgen would throw on such a call).
#[cfg(target_arch = "wasm32")]
pub fn stop_worker(worker: &web_sys::Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.set_onmessageerror(None);
    worker.terminate();
}

/// The absolute URL of `file`, a file of the build, resolved against the page's base URL (the
/// `<base>` Trunk writes: "/" or a subpath such as "/rag-chunk-calculator/"): what the
/// workers and their modules are fetched from.
///
/// # Errors
/// English: the page has no base URL, or `file` is not a URL under it.
#[cfg(target_arch = "wasm32")]
pub fn build_file_url(file: &str) -> Result<String, String> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("the page has no base URL")?;
    web_sys::Url::new_with_base(file, &base)
        .map(|u| u.href())
        .map_err(|_| format!("{file}: not a URL under {base}"))
}
