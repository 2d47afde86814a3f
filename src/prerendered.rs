//! The page's start over its prerendered markup. The build writes the page, rendered natively
//! in English from these same components (`crates/prerender`), into `index.html` inside a
//! container, so that the title, the form and the FAQ are painted before the wasm has arrived.
//! When the wasm starts, [`mount`] mounts the live app after that container and removes the
//! container in the same task: the browser paints either the one or the other, never both.
//! The live app's first render is the same markup, so nothing moves; the scroll position is
//! the document's and stays.
//!
//! Nothing a visitor did meanwhile is lost. `assets/boot.js` enables the prerendered form as
//! soon as scripts run (it is disabled in the markup, for a browser without JavaScript) and
//! holds a file dropped on the page. [`mount`] reads what the visitor changed in the form
//! before the live app replaced it ([`Edits`]: a value typed or pasted, a setting picked, a
//! file chosen or dropped; only the controls `boot.js` saw an edit of, marked [`EDITED`], so
//! that what the live app starts from, such as a saved language or a settings link, is not
//! undone by the prerendered defaults), and gives each to the live control of the same `id`
//! (or `data-testid`) as an `input` and a `change` event, the way the browser reports a visitor's
//! own edit, so that the live app takes it through its usual handlers and counts it. The
//! control that had the focus has it again, with its selection.

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
    let edits = container.as_ref().map(Edits::read).unwrap_or_default();
    let dropped = take_dropped_files();
    leptos::mount::mount_to_body(crate::App);
    if let Some(container) = &container {
        container.remove();
    }
    edits.give_to_live(&document, dropped);
    if container.is_none() {
        return;
    }
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

/// The global through which `assets/boot.js` hands over what was dropped on the page before the
/// app started: an object whose `files` is the `FileList` of the last drop (or `null`). The app
/// sets it to `undefined` when it takes it, and the script then lets drops through.
const EARLY_GLOBAL: &str = "ragChunkCalculatorEarly";

/// The files dropped on the page before the app started (see [`EARLY_GLOBAL`]), if any; from
/// now on the live page's own drop target takes drops.
fn take_dropped_files() -> Option<web_sys::FileList> {
    let global = js_sys::global();
    let early = js_sys::Reflect::get(&global, &EARLY_GLOBAL.into()).ok()?;
    let _ = js_sys::Reflect::set(
        &global,
        &EARLY_GLOBAL.into(),
        &wasm_bindgen::JsValue::UNDEFINED,
    );
    let files: web_sys::FileList = js_sys::Reflect::get(&early, &"files".into())
        .ok()?
        .dyn_into()
        .ok()?;
    (files.length() > 0).then_some(files)
}

/// The attribute `assets/boot.js` puts on a prerendered control when the visitor edits it.
const EDITED: &str = "data-edited";

/// What a visitor left in one prerendered form control.
enum Held {
    /// The text of a text box or a number field, or a select's chosen value.
    Value(String),
    /// Whether a checkbox or radio button is checked.
    Checked(bool),
    /// The files a file input holds.
    Files(web_sys::FileList),
}

/// A prerendered control's key (its `id`, else its `data-testid`), what it holds, and the
/// selection in it if it had the focus (UTF-16 offsets, as the DOM counts them).
struct Control {
    key: (&'static str, String),
    held: Held,
    focus: Option<(u32, u32)>,
}

/// The prerendered form's controls as the visitor left them, read before the live app mounts.
#[derive(Default)]
struct Edits(Vec<Control>);

impl Edits {
    /// Every `input`, `textarea` and `select` of `container` marked [`EDITED`], with an `id` or
    /// a `data-testid`.
    fn read(container: &web_sys::Element) -> Edits {
        let focused = document().active_element();
        let list = container
            .query_selector_all(&format!(
                "input[{EDITED}], textarea[{EDITED}], select[{EDITED}]"
            ))
            .ok();
        let n = list.as_ref().map_or(0, web_sys::NodeList::length);
        let mut controls = Vec::new();
        for i in 0..n {
            let Some(el) = list
                .as_ref()
                .and_then(|l| l.item(i))
                .and_then(|node| node.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let key = match (el.get_attribute("id"), el.get_attribute("data-testid")) {
                (Some(id), _) if !id.is_empty() => ("id", id),
                (_, Some(hook)) if !hook.is_empty() => ("data-testid", hook),
                _ => continue,
            };
            let has_focus = focused.as_ref() == Some(&el);
            let (held, focus) = if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
                let focus = has_focus.then(|| input_selection(input)).flatten();
                match input.type_().as_str() {
                    "checkbox" | "radio" => (Held::Checked(input.checked()), None),
                    "file" => match input.files().filter(|f| f.length() > 0) {
                        Some(files) => (Held::Files(files), None),
                        None => continue,
                    },
                    _ => (Held::Value(input.value()), focus),
                }
            } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                let focus = has_focus
                    .then(|| Some((area.selection_start().ok()??, area.selection_end().ok()??)))
                    .flatten();
                (Held::Value(area.value()), focus)
            } else if let Some(select) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
                (Held::Value(select.value()), None)
            } else {
                continue;
            };
            controls.push(Control { key, held, focus });
        }
        Edits(controls)
    }

    /// Gives each control's state to the live control with the same key where it differs from
    /// what the live app shows, as the visitor's edit (an `input`, then a `change` event); the
    /// files dropped on the page, if any, go to the live file input last (a dropped document
    /// is the newest edit). Restores the focus and selection.
    fn give_to_live(self, document: &web_sys::Document, dropped: Option<web_sys::FileList>) {
        let mut refocus = None;
        for control in self.0 {
            let (attr, key) = &control.key;
            let selector = format!("[{attr}=\"{}\"]", key.replace('"', "\\\""));
            let Some(live) = document.query_selector(&selector).ok().flatten() else {
                continue;
            };
            let changed = apply(&live, &control.held);
            if changed {
                dispatch(&live, "input");
                dispatch(&live, "change");
            }
            if let Some(range) = control.focus {
                refocus = Some((live, range));
            }
        }
        if let Some(files) = dropped {
            if let Some(input) = document
                .query_selector("[data-testid=\"file-input\"]")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                input.set_files(Some(&files));
                dispatch(&input, "change");
            }
        }
        if let Some((live, (start, end))) = refocus {
            if let Some(el) = live.dyn_ref::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
            if let Some(area) = live.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                let _ = area.set_selection_range(start, end);
            } else if let Some(input) = live.dyn_ref::<web_sys::HtmlInputElement>() {
                let _ = input.set_selection_range(start, end);
            }
        }
    }
}

/// An input's selection, where its type has one (a number field has none).
fn input_selection(input: &web_sys::HtmlInputElement) -> Option<(u32, u32)> {
    Some((input.selection_start().ok()??, input.selection_end().ok()??))
}

/// Puts `held` into the live control `live`; whether that changed what it holds.
fn apply(live: &web_sys::Element, held: &Held) -> bool {
    if let Some(input) = live.dyn_ref::<web_sys::HtmlInputElement>() {
        match held {
            Held::Value(v) if input.value() != *v => input.set_value(v),
            Held::Checked(c) if input.checked() != *c => input.set_checked(*c),
            Held::Files(files) => input.set_files(Some(files)),
            _ => return false,
        }
        true
    } else if let Some(area) = live.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        match held {
            Held::Value(v) if area.value() != *v => area.set_value(v),
            _ => return false,
        }
        true
    } else if let Some(select) = live.dyn_ref::<web_sys::HtmlSelectElement>() {
        match held {
            Held::Value(v) if select.value() != *v => select.set_value(v),
            _ => return false,
        }
        true
    } else {
        false
    }
}

/// Dispatches a bubbling event `kind` at `target`, as the browser does for a visitor's edit.
fn dispatch(target: &web_sys::EventTarget, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(ev) = web_sys::Event::new_with_event_init_dict(kind, &init) {
        let _ = target.dispatch_event(&ev);
    }
}
