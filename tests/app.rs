//! Browser tests of the page: mount the `App`, type into its fields, and read the figures and
//! chunks back through their data-testid hooks.
//!
//! Run with:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test app`
#![cfg(target_arch = "wasm32")]

use chunk_core::tokenizer::Encoding;
use chunk_core::windows::fixed_windows;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use rag_chunk_calculator::browser::sleep_ms;
use rag_chunk_calculator::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A mounted page inside its own wrapper, unmounted and removed on drop.
struct Page {
    root: Element,
    _handle: Box<dyn std::any::Any>,
}

impl Page {
    async fn mount() -> Page {
        let document = document();
        let root = document.create_element("div").expect("create div");
        document
            .body()
            .expect("body")
            .append_child(&root)
            .expect("append");
        // Each test's page starts from the defaults: the settings an earlier page wrote into
        // the address (src/share) would otherwise be restored.
        clear_fragment();
        let handle = mount_to(root.clone().unchecked_into::<HtmlElement>(), App);
        tick().await;
        Page {
            root,
            _handle: Box::new(handle),
        }
    }

    fn get(&self, testid: &str) -> Element {
        self.root
            .query_selector(&format!("[data-testid=\"{testid}\"]"))
            .expect("valid selector")
            .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
    }

    fn has(&self, testid: &str) -> bool {
        self.root
            .query_selector(&format!("[data-testid=\"{testid}\"]"))
            .expect("valid selector")
            .is_some()
    }

    fn value(&self, testid: &str) -> String {
        self.get(testid)
            .get_attribute("data-value")
            .unwrap_or_default()
    }

    /// Chooses a language in the language switch, as a user does (value, then `change`).
    async fn select_language(&self, code: &str) {
        let sel: web_sys::HtmlSelectElement = self.get("language").unchecked_into();
        sel.set_value(code);
        sel.dispatch_event(&web_sys::Event::new("change").expect("event"))
            .expect("dispatch");
        tick().await;
    }

    /// Sets a field's value and dispatches a bubbling `input` event (what typing does).
    async fn type_into(&self, testid: &str, value: &str) {
        let el = self.get(testid);
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_value(value);
        } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            area.set_value(value);
        } else {
            panic!("{testid} is not a text field");
        }
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let ev = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
        el.dispatch_event(&ev).expect("dispatch");
        tick().await;
    }

    /// Waits until the status hook says "ready" (bounded: fails instead of hanging).
    async fn wait_ready(&self) {
        for _ in 0..1000 {
            tick().await;
            if self.get("status").get_attribute("data-state").as_deref() == Some("ready") {
                return;
            }
            sleep_ms(10).await;
        }
        panic!("status never became ready");
    }

    fn chunks(&self) -> Vec<[usize; 4]> {
        let list = self
            .root
            .query_selector_all("[data-testid=\"chunk\"]")
            .expect("valid selector");
        (0..list.length())
            .map(|i| {
                let el: Element = list.item(i).expect("item").unchecked_into();
                let attr = |name: &str| -> usize {
                    el.get_attribute(name)
                        .and_then(|v| v.parse().ok())
                        .unwrap_or_else(|| panic!("chunk {i} lacks {name}"))
                };
                [
                    attr("data-start"),
                    attr("data-end"),
                    attr("data-byte-start"),
                    attr("data-byte-end"),
                ]
            })
            .collect()
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn defaults_give_the_spec_worked_example() {
    let page = Page::mount().await;
    assert_eq!(page.value("out-chunks"), "23");
    assert_eq!(page.value("out-total-tokens"), "11408");
    assert_eq!(page.value("out-repeated-tokens"), "1408");
    assert_eq!(page.value("out-last-chunk"), "144");
    assert_eq!(page.value("out-doc-tokens"), "10000");
    let share: f64 = page.value("out-repeated-share").parse().expect("a number");
    assert_eq!((share * 1000.0).round(), 123.0);
    let extra: f64 = page.value("out-extra").parse().expect("a number");
    assert_eq!((extra * 1000.0).round(), 141.0);
    let cost: f64 = page.value("out-cost").parse().expect("a number");
    assert!((cost - 11_408.0 / 1_000_000.0 * 0.02).abs() < 1e-12);
    assert!(!page.has("notice-overlap-clamped"));
    assert_eq!(
        page.get("status").get_attribute("data-state").as_deref(),
        Some("ready")
    );
}

#[wasm_bindgen_test]
async fn typed_values_update_the_figures() {
    let page = Page::mount().await;
    page.type_into("doc-length", "1000").await;
    page.type_into("chunk-size", "300").await;
    page.type_into("chunk-overlap", "0").await;
    // 1000 tokens in windows of 300 → 4 chunks, the last one 100 tokens, no repeats.
    assert_eq!(page.value("out-chunks"), "4");
    assert_eq!(page.value("out-total-tokens"), "1000");
    assert_eq!(page.value("out-repeated-tokens"), "0");
    assert_eq!(page.value("out-last-chunk"), "100");
}

#[wasm_bindgen_test]
async fn overlap_at_or_above_size_is_clamped_with_a_notice() {
    let page = Page::mount().await;
    page.type_into("chunk-overlap", "512").await;
    let notice = page.get("notice-overlap-clamped");
    assert_eq!(
        notice.get_attribute("data-requested").as_deref(),
        Some("512")
    );
    assert_eq!(notice.get_attribute("data-used").as_deref(), Some("511"));
    assert!(notice.text_content().unwrap_or_default().contains("511"));
    // Stride 1: 1 + (10000 − 512) = 9489 chunks.
    assert_eq!(page.value("out-chunks"), "9489");
    // The field keeps what was typed.
    let field: web_sys::HtmlInputElement = page.get("chunk-overlap").unchecked_into();
    assert_eq!(field.value(), "512");

    // A bad price blanks only the cost: the chunks stay, with the notice.
    page.type_into("price", "abc").await;
    assert_eq!(page.value("out-chunks"), "9489");
    assert_eq!(page.value("out-cost"), "");
    assert!(page.has("notice-overlap-clamped"));
    page.type_into("price", "0.02").await;

    page.type_into("chunk-overlap", "64").await;
    assert!(!page.has("notice-overlap-clamped"));
    assert_eq!(page.value("out-chunks"), "23");
}

#[wasm_bindgen_test]
async fn bad_input_shows_a_message_and_keeps_the_text() {
    let page = Page::mount().await;
    page.type_into("chunk-size", "0").await;
    assert!(!page
        .get("error-chunk-size")
        .text_content()
        .unwrap_or_default()
        .is_empty());
    assert_eq!(page.value("out-chunks"), "");
    page.type_into("chunk-size", "abc").await;
    assert!(!page
        .get("error-chunk-size")
        .text_content()
        .unwrap_or_default()
        .is_empty());
    let field: web_sys::HtmlInputElement = page.get("chunk-size").unchecked_into();
    assert_eq!(field.value(), "abc");
    page.type_into("chunk-size", "512").await;
    assert!(page
        .get("error-chunk-size")
        .text_content()
        .unwrap_or_default()
        .is_empty());
    assert_eq!(page.value("out-chunks"), "23");
}

#[wasm_bindgen_test]
async fn characters_are_marked_as_an_estimate() {
    let page = Page::mount().await;
    let unit: web_sys::HtmlSelectElement = page.get("length-unit").unchecked_into();
    unit.set_value("chars");
    unit.dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    page.type_into("doc-length", "40000").await;
    assert_eq!(page.value("out-doc-tokens"), "10000");
    assert_eq!(page.value("out-doc-chars"), "40000");
    assert_eq!(page.value("out-chunks"), "23");
    assert!(page.has("notice-estimate"));
}

#[wasm_bindgen_test]
async fn cat_text_chunks_cut_inside_characters_and_show_bytes() {
    let page = Page::mount().await;
    let text = "猫".repeat(40);
    page.type_into("chunk-size", "5").await;
    page.type_into("chunk-overlap", "2").await;
    page.type_into("text-input", &text).await;
    page.wait_ready().await;

    // The expected cut, from the core directly: tokens of the text, windows of 5 / overlap 2.
    let enc = Encoding::Cl100kBase.tokenizer().encode(&text);
    let windows = fixed_windows(enc.len(), 5, 2).expect("size ≥ 1").windows;
    assert_eq!(page.value("out-doc-tokens"), enc.len().to_string());
    assert_eq!(page.value("out-doc-chars"), "40");
    assert_eq!(page.value("out-chunks"), windows.len().to_string());

    let shown = page.chunks();
    assert!(!shown.is_empty());
    assert!(shown.len() <= windows.len());
    for (i, (got, w)) in shown.iter().zip(&windows).enumerate() {
        assert_eq!(
            *got,
            [w.start, w.end, enc.offsets[w.start], enc.offsets[w.end]],
            "chunk {i}"
        );
    }
    assert_eq!(shown[0][2], 0);
    // Every 猫 is 3 bytes; a byte range not on a multiple of 3 is a cut inside a character,
    // and the page must show such a cut as bytes, never as U+FFFD.
    let cut_inside = shown.iter().any(|c| c[2] % 3 != 0 || c[3] % 3 != 0);
    assert!(
        cut_inside,
        "expected a window edge inside a character: {shown:?}"
    );
    let preview = page.get("chunk-preview").text_content().unwrap_or_default();
    assert!(!preview.contains('\u{FFFD}'));
    assert!(page
        .root
        .query_selector("[data-testid=\"chunk\"] .partial")
        .expect("selector")
        .is_some());
}

#[wasm_bindgen_test]
async fn special_token_strings_are_flagged() {
    let page = Page::mount().await;
    page.type_into("text-input", "Intro <|endoftext|> and more text.")
        .await;
    page.wait_ready().await;
    let notice = page.get("notice-special-tokens");
    assert_eq!(notice.get_attribute("data-count").as_deref(), Some("1"));
    let expected = Encoding::Cl100kBase
        .tokenizer()
        .count("Intro <|endoftext|> and more text.");
    assert_eq!(page.value("out-doc-tokens"), expected.to_string());
}

/// Puts `bytes` as a file named `name` into the file input and fires `change`, as choosing a
/// file in the dialog does.
async fn choose_file(page: &Page, name: &str, bytes: &[u8]) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, name).expect("file");
    let transfer = web_sys::DataTransfer::new().expect("data transfer");
    transfer.items().add_with_file(&file).expect("add file");
    let input: web_sys::HtmlInputElement = page.get("file-input").unchecked_into();
    input.set_files(transfer.files().as_ref());
    input
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    // Reading the file is asynchronous (a promise); give it a few turns.
    for _ in 0..100 {
        tick().await;
        if page.has("file-message") {
            break;
        }
        sleep_ms(10).await;
    }
}

#[wasm_bindgen_test]
async fn a_text_file_is_read_locally_and_counted() {
    let page = Page::mount().await;
    let text = "# Notes\n\nMèo và 猫 are the same animal.\n";
    choose_file(&page, "notes.md", text.as_bytes()).await;
    page.wait_ready().await;
    let area: web_sys::HtmlTextAreaElement = page.get("text-input").unchecked_into();
    assert_eq!(area.value(), text);
    let expected = Encoding::Cl100kBase.tokenizer().count(text);
    assert_eq!(page.value("out-doc-tokens"), expected.to_string());
    assert_eq!(
        page.value("out-doc-chars"),
        text.chars().count().to_string()
    );
}

#[wasm_bindgen_test]
async fn a_file_that_is_not_utf8_is_refused_and_the_text_kept() {
    let page = Page::mount().await;
    page.type_into("text-input", "kept").await;
    choose_file(&page, "latin1.txt", &[b'c', b'a', 0xE9, b'!']).await;
    let msg = page.get("file-message");
    assert!(msg.class_name().contains("error"));
    let area: web_sys::HtmlTextAreaElement = page.get("text-input").unchecked_into();
    assert_eq!(area.value(), "kept");
    page.wait_ready().await;
    let expected = Encoding::Cl100kBase.tokenizer().count("kept");
    assert_eq!(page.value("out-doc-tokens"), expected.to_string());
}

#[wasm_bindgen_test]
async fn the_price_takes_dollars_asks_about_1_500_and_follows_the_decimal_mark() {
    let page = Page::mount().await;
    let price_box = || -> web_sys::HtmlInputElement { page.get("price").unchecked_into() };
    let error = || page.get("error-price").text_content().unwrap_or_default();
    // Copied from a pricing page: 23 chunks, 11,408 tokens at $0.02 per 1M tokens.
    page.type_into("price", "$0.02").await;
    assert_eq!(error(), "");
    assert_eq!(
        page.value("out-cost"),
        (11_408.0 / 1_000_000.0 * 0.02).to_string()
    );
    // "1,500" on the English page: 1500 or 1.5? Asked, and only the cost is blanked.
    page.type_into("price", "1,500").await;
    assert!(
        error().contains("1500") && error().contains("1.5"),
        "{}",
        error()
    );
    assert_eq!(page.value("out-cost"), "");
    assert_eq!(page.value("out-chunks"), "23");
    page.type_into("price", "0.02").await;
    // The box follows the language's decimal mark, and the hint's.
    page.select_language("pl").await;
    assert_eq!(price_box().value(), "0,02");
    assert_eq!(error(), "");
    assert_eq!(
        page.value("out-cost"),
        (11_408.0 / 1_000_000.0 * 0.02).to_string()
    );
    // In Polish the comma is the decimal mark; a point with three digits is asked about.
    page.type_into("price", "1.500").await;
    assert!(
        error().contains("1500") && error().contains("1,5"),
        "{}",
        error()
    );
    page.type_into("price", "0,13").await;
    page.select_language("en").await;
    assert_eq!(price_box().value(), "0.13");
}

#[wasm_bindgen_test]
async fn vietnamese_uses_its_own_number_format() {
    let page = Page::mount().await;
    page.select_language("vi").await;
    let text = |id: &str| page.get(id).text_content().unwrap_or_default();
    assert_eq!(text("out-total-tokens"), "11.408");
    assert!(
        text("out-repeated-share").starts_with("12,3"),
        "{}",
        text("out-repeated-share")
    );
    assert_eq!(
        document()
            .document_element()
            .and_then(|e| e.get_attribute("lang"))
            .as_deref(),
        Some("vi")
    );
    // Raw values do not depend on the language.
    assert_eq!(page.value("out-total-tokens"), "11408");
    page.select_language("en").await;
    assert_eq!(text("out-total-tokens"), "11,408");
    assert!(text("out-repeated-share").starts_with("12.3"));
}

#[wasm_bindgen_test]
async fn a_large_paste_is_held_outside_the_box_and_counted_whole() {
    let page = Page::mount().await;
    page.type_into("text-input", "Head. ").await;
    let area: web_sys::HtmlTextAreaElement = page.get("text-input").unchecked_into();
    area.set_selection_range(6, 6).expect("caret at the end");
    // Over LARGE_TEXT_BYTES: a paste must not be written into the box.
    let pasted = "Mèo 猫 sleeps. ".repeat(20_000);
    let transfer = web_sys::DataTransfer::new().expect("data transfer");
    transfer.set_data("text", &pasted).expect("set data");
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&transfer));
    let ev = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).expect("event");
    area.dispatch_event(&ev).expect("dispatch");
    assert!(
        ev.default_prevented(),
        "the page handles a large paste itself"
    );
    page.wait_ready().await;
    let whole = format!("Head. {pasted}");
    assert_eq!(area.value(), "");
    assert!(area.read_only());
    assert!(page.has("large-text-notice"));
    let expected = Encoding::Cl100kBase.tokenizer().count(&whole);
    assert_eq!(page.value("out-doc-tokens"), expected.to_string());
    assert_eq!(
        page.value("out-doc-chars"),
        whole.chars().count().to_string()
    );
    // Clearing gives the box back.
    let clear: web_sys::HtmlElement = page.get("clear-text").unchecked_into();
    clear.click();
    tick().await;
    assert!(!area.read_only());
    assert!(!page.has("large-text-notice"));
}

#[wasm_bindgen_test]
async fn windows_line_breaks_and_replacement_characters_are_noticed() {
    let page = Page::mount().await;
    let crlf = "line one\r\nline two\r\n";
    choose_file(&page, "crlf.txt", crlf.as_bytes()).await;
    page.wait_ready().await;
    assert!(page.has("notice-crlf"));
    // Counted as loaded, with the CR bytes.
    let expected = Encoding::Cl100kBase.tokenizer().count(crlf);
    assert_eq!(page.value("out-doc-tokens"), expected.to_string());
    assert!(!page.has("notice-replacement"));

    page.type_into("text-input", "a\u{FFFD}b\u{FFFD}").await;
    page.wait_ready().await;
    assert!(!page.has("notice-crlf"));
    let note = page.get("notice-replacement");
    assert_eq!(note.get_attribute("data-count").as_deref(), Some("2"));
}

/// `read_js_string` (the sliced copy of long pastes) gives back exactly the string, whatever
/// the slice size, even where a slice edge falls between the halves of a surrogate pair; it
/// stops when told the text is stale, but a string of one slice never yields and is read.
#[wasm_bindgen_test]
async fn sliced_read_keeps_every_surrogate_pair_and_stops_when_stale() {
    use rag_chunk_calculator::browser::read_js_string;
    let text = format!("x{}ü{}", "🐈".repeat(9), "猫".repeat(5));
    let js = js_sys::JsString::from(text.as_str());
    assert_eq!(js.length(), 1 + 18 + 1 + 5);
    for units in [0, 1, 2, 3, 4, 5, 7, 25, 26, 1 << 20] {
        let read = read_js_string(&js, units, || true).await;
        assert_eq!(
            read.as_deref(),
            Some(text.as_str()),
            "{units} units per slice"
        );
    }
    assert_eq!(read_js_string(&js, 4, || false).await, None);
    let short = js_sys::JsString::from("ab🐈");
    assert_eq!(
        read_js_string(&short, 4, || false).await.as_deref(),
        Some("ab🐈")
    );
}

/// Removes the address's fragment (the settings link) without a new history entry.
fn clear_fragment() {
    let window = web_sys::window().expect("window");
    let location = window.location();
    let path = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    window
        .history()
        .expect("history")
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path))
        .expect("replaceState");
}
