//! The page's start over its prerendered markup. The build writes the page, rendered natively
//! in English from these same components (`crates/prerender`), into `index.html` inside a
//! container, so that the title, the form and the FAQ are painted before the wasm has arrived.
//! When the wasm starts, [`mount`] mounts the live app after that container and removes the
//! container in the same task: the browser paints either the one or the other, never both.
//! The live app's first render is the same markup, so nothing moves; the scroll position is
//! the document's and stays.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The `id` of the container that holds the prerendered markup (a disabled `<fieldset>`, so
/// that its form controls wait for the live app; `style/main.css` lays it out as a plain
/// block).
pub const CONTAINER_ID: &str = "prerendered";

/// Mounts [`crate::App`] at the end of `<body>`, then removes the prerendered markup, if any
/// (the component tests and a build without the hook have none). A `<details>` a reader opened
/// or closed meanwhile (the FAQ's questions) stays as they left it.
pub fn mount() {
    let document = document();
    let container = document.get_element_by_id(CONTAINER_ID);
    let opened: Vec<bool> = container
        .as_ref()
        .map(|c| details(c.query_selector_all("details")).map(|d| d.has_attribute("open")))
        .map(Iterator::collect)
        .unwrap_or_default();
    leptos::mount::mount_to_body(crate::App);
    let Some(container) = container else { return };
    container.remove();
    // The live page's `<details>` are the prerendered ones, in the same order (in any
    // language; were their count ever to differ, nothing is carried over).
    let live: Vec<_> = details(document.query_selector_all("details")).collect();
    if live.len() == opened.len() {
        for (d, open) in live.iter().zip(opened) {
            let _ = if open {
                d.set_attribute("open", "")
            } else {
                d.remove_attribute("open")
            };
        }
    }
}

/// The elements of a `querySelectorAll` answer (none if it failed).
fn details(
    list: Result<web_sys::NodeList, wasm_bindgen::JsValue>,
) -> impl Iterator<Item = web_sys::Element> {
    let list = list.ok();
    let n = list.as_ref().map_or(0, |l| l.length());
    (0..n).filter_map(move |i| list.as_ref()?.item(i)?.dyn_into().ok())
}
