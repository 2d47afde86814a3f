//! The page's start over its prerendered markup. The build writes the page, rendered natively
//! in English from these same components (`crates/prerender`), into `index.html` inside a
//! container, so that the title, the form and the FAQ are painted before the wasm has arrived.
//! When the wasm starts, [`mount`] mounts the live app after that container and removes the
//! container in the same task: the browser paints either the one or the other, never both.
//! The live app's first render is the same markup, so nothing moves; the scroll position is
//! the document's, put back if the removal moved it. In the page's split build the panels
//! ([`crate::panels`]) are not in that first render: their prerendered markup stands in for
//! them in their live slots until their module has arrived, and what the visitor did in them
//! is handed over then (`StandIn::hand_over`).
//!
//! Nothing a visitor did meanwhile is lost. `assets/boot.js` enables the prerendered form as
//! soon as scripts run (it is disabled in the markup, for a browser without JavaScript) and
//! holds back a file dropped on the page and a paste too large for the box ([`HeldBack`]).
//! [`mount`] reads what the visitor changed in the form before the live app replaced it
//! ([`Edits`]: a value typed or pasted, a setting picked, a file chosen; only the controls
//! `boot.js` saw an edit of, marked [`EDITED`], so that what the live app starts from, such as
//! a saved language or a settings link, is not undone by the prerendered defaults), and gives
//! each to the live control of the same `id` (or `data-testid`) as an `input` and a `change`
//! event, and what was held back as a `paste` or a file input's `change`: the way the browser
//! reports a visitor's own edit, so that the live app takes it through its usual handlers and
//! counts it. The element that had the focus has it again (edited or not), with its
//! selection, without scrolling the page.

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
    let left = container.as_ref().map(Left::read).unwrap_or_default();
    let held = take_held();
    // Where the visitor had scrolled to. Removing the container can move the document's
    // scroll position although the live markup below it is the same (the browser's scroll
    // anchor was inside the removed markup: seen as a jump to the top): it is put back. Not at
    // the top of the document, where nothing can move it (a scroll position is never
    // negative, and browsers do not anchor at a zero offset: CSS Scroll Anchoring, WPT
    // `zero-scroll-offset`): reading the position again after the swap makes the browser lay
    // out the whole new page at once, inside the takeover (measured: 40 ms of a 190 ms
    // takeover, unthrottled), before the visitor's first answer can be drawn.
    let scrolled = scroll_position().filter(|&at| at != (0.0, 0.0));
    leptos::mount::mount_to_body(crate::App);
    if let Some(container) = &container {
        #[cfg(feature = "split")]
        move_stand_ins(&document, container);
        container.remove();
        keep_scroll(scrolled);
    }
    // The live page's `<details>` are the prerendered ones, in the same order (in any
    // language; were their count ever to differ, nothing is carried over).
    left.give(
        &document,
        held,
        elements(document.query_selector_all("details")),
    );
}

/// The document's scroll position (x, y; CSS px), if the window tells it.
fn scroll_position() -> Option<(f64, f64)> {
    let window = window();
    Some((window.scroll_x().ok()?, window.scroll_y().ok()?))
}

/// Puts the document's scroll position back to `scrolled` if it moved.
fn keep_scroll(scrolled: Option<(f64, f64)>) {
    if let Some((x, y)) = scrolled {
        if scroll_position() != Some((x, y)) {
            window().scroll_to_with_x_and_y(x, y);
        }
    }
}

/// What a visitor left in prerendered markup (the container, or a slot's stand-in): its
/// edits and focus ([`Edits`]), and whether each of its `<details>` was open.
#[derive(Default)]
struct Left {
    edits: Edits,
    opened: Vec<bool>,
}

impl Left {
    fn read(scope: &web_sys::Element) -> Left {
        Left {
            edits: Edits::read(scope),
            opened: elements(scope.query_selector_all("details"))
                .map(|d| d.has_attribute("open"))
                .collect(),
        }
    }

    /// Gives the edits (and what `boot.js` `held` back) to the live controls
    /// ([`Edits::give_to_live`]), and the open states to the `live` `<details>` that replace
    /// the prerendered ones, if they are as many (in order).
    fn give(
        self,
        document: &web_sys::Document,
        held: Option<HeldBack>,
        live: impl Iterator<Item = web_sys::Element>,
    ) {
        self.edits.give_to_live(document, held);
        let live: Vec<_> = live.collect();
        if live.len() != self.opened.len() {
            return;
        }
        for (d, open) in live.iter().zip(self.opened) {
            let _ = if open {
                d.set_attribute("open", "")
            } else {
                d.remove_attribute("open")
            };
        }
    }
}

/// The attribute of a slot's stand-in: the prerendered panels, moved into the live slot of the
/// same name until the live panels arrive.
#[cfg(feature = "split")]
const STAND_IN: &str = "data-stand-in";

/// Moves each panel slot's prerendered markup (`[data-panels=…]` in `container`) into the live
/// slot of the same name, in a `<div class="panels" data-stand-in>`: the page looks the same
/// and keeps what the visitor did in them until [`StandIn::hand_over`]. An edit there is marked
/// as `assets/boot.js` marks one in the container ([`EDITED`]), which no longer hears it.
#[cfg(feature = "split")]
fn move_stand_ins(document: &web_sys::Document, container: &web_sys::Element) {
    use wasm_bindgen::closure::Closure;
    for slot in elements(document.query_selector_all("[data-panels]")) {
        // The live slots only (the container's own are still in the document).
        if container.contains(Some(&slot)) {
            continue;
        }
        let Some(name) = slot.get_attribute("data-panels") else {
            continue;
        };
        let Some(prerendered) = container
            .query_selector(&format!("[data-panels=\"{name}\"]"))
            .ok()
            .flatten()
        else {
            continue;
        };
        let Ok(holder) = document.create_element("div") else {
            continue;
        };
        holder.set_class_name("panels");
        let _ = holder.set_attribute(STAND_IN, "");
        while let Some(child) = prerendered.first_child() {
            if holder.append_child(&child).is_err() {
                break;
            }
        }
        let _ = slot.append_child(&holder);
        let mark = Closure::<dyn Fn(web_sys::Event)>::new(|ev: web_sys::Event| {
            if let Some(el) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let _ = el.set_attribute(EDITED, "");
            }
        });
        for kind in ["input", "change"] {
            let _ = holder.add_event_listener_with_callback(kind, mark.as_ref().unchecked_ref());
        }
        // Lives as long as the stand-in, which the page removes; the listener goes with it.
        mark.forget();
    }
}

/// A slot's stand-in, found by [`stand_in`] before the live panels go into the slot, with
/// where the reader's view was then, for [`StandIn::hand_over`].
#[cfg(feature = "split")]
pub struct StandIn {
    slot: web_sys::Element,
    holder: web_sys::Element,
    /// The stand-in's panels (the slot's element children then).
    panels: usize,
    anchor: Option<Anchor>,
    scrolled: Option<(f64, f64)>,
}

/// Slot `name`'s stand-in, if it has one, and where the reader's view is. [`crate::panels`]
/// asks for it when the panels' module has arrived, before the live panels go into the slot,
/// and hands it over once they are there.
///
/// The slots' panels arrive together (one module), and each slot's live panels go in as soon
/// as its own future ends, so the first slot to ask measures every slot's view at once, before
/// any live panels are in: a slot measured after another slot's live panels went in above it,
/// beside that slot's stand-in, would see the page longer by them, and be moved by as much
/// when handed over (seen as an 824 px jump on a slow first visit). The others' measurements
/// are kept until the current microtasks have run, which is when the other slots ask (a slot
/// that asks later, after a retry, measures again).
#[cfg(feature = "split")]
pub fn stand_in(name: &str) -> Option<StandIn> {
    thread_local! {
        static MEASURED: std::cell::RefCell<Vec<(String, StandIn)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(at) = MEASURED.with_borrow(|m| m.iter().position(|(n, _)| n == name)) {
        return Some(MEASURED.with_borrow_mut(|m| m.swap_remove(at)).1);
    }
    let slots = elements(document().query_selector_all("[data-panels]"));
    let mut mine = None;
    let mut others = Vec::new();
    for slot in slots {
        let Some(slot_name) = slot.get_attribute("data-panels") else {
            continue;
        };
        let Some(measured) = measure(slot) else {
            continue;
        };
        if slot_name == name {
            mine = Some(measured);
        } else {
            others.push((slot_name, measured));
        }
    }
    if !others.is_empty() {
        MEASURED.with_borrow_mut(|m| *m = others);
        queue_microtask(|| MEASURED.with_borrow_mut(Vec::clear));
    }
    mine
}

/// `slot`'s stand-in, if it has one, and where the reader's view is now.
#[cfg(feature = "split")]
fn measure(slot: web_sys::Element) -> Option<StandIn> {
    let holder = slot
        .query_selector(&format!("[{STAND_IN}]"))
        .ok()
        .flatten()?;
    let scrolled = scroll_position();
    let panels = children(&holder);
    let anchor = anchor(&window(), &slot, &panels);
    Some(StandIn {
        slot,
        holder,
        panels: panels.len(),
        anchor,
        scrolled,
    })
}

/// Where the reader's view is, to keep it when the stand-in is replaced: the first of the
/// stand-in's panels in view (its index among the slot's panels) or, when the whole stand-in
/// is above the view, the element after the slot; with the viewport top of either (CSS px).
/// Measured after the live panels are in (and the browser's own scroll anchoring has acted),
/// the same element's top tells how far to scroll.
#[cfg(feature = "split")]
enum Anchor {
    Panel(usize, f64),
    After(web_sys::Element, f64),
}

/// The element children of `parent`, in order.
#[cfg(feature = "split")]
fn children(parent: &web_sys::Element) -> Vec<web_sys::Element> {
    elements(parent.query_selector_all(":scope > *")).collect()
}

/// The [`Anchor`] of a stand-in's `panels` in `slot`; none when the stand-in is below the view
/// (nothing the reader sees can move).
#[cfg(feature = "split")]
fn anchor(
    window: &web_sys::Window,
    slot: &web_sys::Element,
    panels: &[web_sys::Element],
) -> Option<Anchor> {
    let view_height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let rects: Vec<_> = panels
        .iter()
        .map(|p| p.get_bounding_client_rect())
        .collect();
    if let Some(i) = rects
        .iter()
        .position(|r| r.bottom() > 0.0 && r.top() < view_height)
    {
        return Some(Anchor::Panel(i, rects[i].top()));
    }
    if rects.last().is_some_and(|r| r.bottom() <= 0.0) {
        let after = slot.next_element_sibling()?;
        let top = after.get_bounding_client_rect().top();
        return Some(Anchor::After(after, top));
    }
    None
}

#[cfg(feature = "split")]
impl StandIn {
    /// Once the live panels are in the slot: the stand-in goes, and what the visitor did in it
    /// (a value typed, a setting picked, the focus, a `<details>` opened or closed) goes to the
    /// live panels as [`mount`] gives the form's; then the reader's view is put back where it
    /// was ([`Anchor`]: the live panels may be taller than the prerendered ones, which show no
    /// text; where the live panels are not as many, the scroll position is). Until the live
    /// panels are there, it waits a frame at a time (a few seconds at most; then the stand-in
    /// stays).
    pub fn hand_over(self) {
        self.hand_over_within(300);
    }

    fn hand_over_within(self, frames: u32) {
        let live: Vec<_> = children(&self.slot)
            .into_iter()
            .filter(|c| !c.has_attribute(STAND_IN))
            .collect();
        if live.is_empty() {
            if frames > 0 {
                request_animation_frame(move || self.hand_over_within(frames - 1));
            }
            return;
        }
        let left = Left::read(&self.holder);
        self.holder.remove();
        left.give(
            &document(),
            None,
            elements(self.slot.query_selector_all("details")),
        );
        let moved = match &self.anchor {
            _ if live.len() != self.panels => None,
            Some(Anchor::Panel(i, top)) => live
                .get(*i)
                .map(|p| p.get_bounding_client_rect().top() - top),
            Some(Anchor::After(el, top)) => Some(el.get_bounding_client_rect().top() - top),
            None => Some(0.0),
        };
        // Under 2 px is layout rounding (the prerendered and the live panels of the same
        // state differ by a fraction of a pixel), and scrolling by it would shift the whole
        // view by a pixel; a text's panels move the view by tens or thousands.
        match moved {
            Some(by) if by.abs() >= 2.0 => window().scroll_by_with_x_and_y(0.0, by.round()),
            Some(_) => {}
            None => keep_scroll(self.scrolled),
        }
    }
}

/// The elements of a `querySelectorAll` answer (none if it failed).
fn elements(
    list: Result<web_sys::NodeList, wasm_bindgen::JsValue>,
) -> impl Iterator<Item = web_sys::Element> {
    let list = list.ok();
    let n = list.as_ref().map_or(0, |l| l.length());
    (0..n).filter_map(move |i| list.as_ref()?.item(i)?.dyn_into().ok())
}

/// The global through which `assets/boot.js` hands over what it held back before the app
/// started: an object whose `files` is the `FileList` of the last drop on the page, and whose
/// `paste` is a paste too large for the box (`{ text, start, end }`: the text, and the box's
/// selection then, in UTF-16 offsets), or `null`; at most one of the two, the newer. The app
/// sets it to `undefined` when it takes it, and the script then lets drops through.
const EARLY_GLOBAL: &str = "ragChunkCalculatorEarly";

/// What `assets/boot.js` held back for the app (see [`EARLY_GLOBAL`]).
enum HeldBack {
    /// Files dropped on the page.
    Dropped(web_sys::FileList),
    /// A paste into the text box, too large for it, and the selection it replaces.
    Pasted {
        text: js_sys::JsString,
        start: u32,
        end: u32,
    },
}

/// What `boot.js` held back, if anything; from now on the live page takes drops and pastes.
fn take_held() -> Option<HeldBack> {
    let global = js_sys::global();
    let early = js_sys::Reflect::get(&global, &EARLY_GLOBAL.into()).ok()?;
    let _ = js_sys::Reflect::set(
        &global,
        &EARLY_GLOBAL.into(),
        &wasm_bindgen::JsValue::UNDEFINED,
    );
    let field = |name: &str| js_sys::Reflect::get(&early, &name.into()).ok();
    if let Some(paste) = field("paste").filter(|p| p.is_object()) {
        let get = |name: &str| js_sys::Reflect::get(&paste, &name.into()).ok();
        let text: js_sys::JsString = get("text")?.dyn_into().ok()?;
        let offset = |name: &str| get(name).and_then(|v| v.as_f64()).map(|n| n as u32);
        return Some(HeldBack::Pasted {
            text,
            start: offset("start").unwrap_or(0),
            end: offset("end").unwrap_or(0),
        });
    }
    let files: web_sys::FileList = field("files")?.dyn_into().ok()?;
    (files.length() > 0).then_some(HeldBack::Dropped(files))
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

/// A prerendered control's key (its `id`, else its `data-testid`) and what it holds.
struct Control {
    key: Key,
    held: Held,
}

/// How a live element is found from a prerendered one: `(attribute, value)`, the `id` if it has
/// one, else its `data-testid`.
type Key = (&'static str, String);

/// The element that had the focus, its selection if it has one (UTF-16 offsets, as the DOM
/// counts them, and the direction: `forward`, `backward` or `none`), and how far its own
/// content was scrolled (CSS pixels; a text box's).
struct Focus {
    key: Key,
    selection: Option<(u32, u32, String)>,
    scroll_top: i32,
}

/// The prerendered form's controls as the visitor left them, and where the focus was, read
/// before the live app mounts.
#[derive(Default)]
struct Edits {
    controls: Vec<Control>,
    focus: Option<Focus>,
}

/// `el`'s [`Key`], if it has an `id` or a `data-testid`.
fn key_of(el: &web_sys::Element) -> Option<Key> {
    match (el.get_attribute("id"), el.get_attribute("data-testid")) {
        (Some(id), _) if !id.is_empty() => Some(("id", id)),
        (_, Some(hook)) if !hook.is_empty() => Some(("data-testid", hook)),
        _ => None,
    }
}

impl Edits {
    /// Every `input`, `textarea` and `select` of `container` marked [`EDITED`], with an `id` or
    /// a `data-testid`; and the focused element of `container`, edited or not.
    fn read(container: &web_sys::Element) -> Edits {
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
            let Some(key) = key_of(&el) else { continue };
            let held = if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
                match input.type_().as_str() {
                    "checkbox" | "radio" => Held::Checked(input.checked()),
                    "file" => match input.files().filter(|f| f.length() > 0) {
                        Some(files) => Held::Files(files),
                        None => continue,
                    },
                    _ => Held::Value(input.value()),
                }
            } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                Held::Value(area.value())
            } else if let Some(select) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
                Held::Value(select.value())
            } else {
                continue;
            };
            controls.push(Control { key, held });
        }
        let focus = document()
            .active_element()
            .filter(|el| container.contains(Some(el)))
            .and_then(|el| {
                let key = key_of(&el)?;
                let selection = if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                    selection_of(
                        area.selection_start(),
                        area.selection_end(),
                        area.selection_direction(),
                    )
                } else if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
                    selection_of(
                        input.selection_start(),
                        input.selection_end(),
                        input.selection_direction(),
                    )
                } else {
                    None
                };
                let scroll_top = el.scroll_top();
                Some(Focus {
                    key,
                    selection,
                    scroll_top,
                })
            });
        Edits { controls, focus }
    }

    /// Gives each control's state to the live control with the same key where it differs from
    /// what the live app shows, as the visitor's edit (an `input`, then a `change` event); the
    /// files dropped on the page, if any, go to the live file input last (`boot.js` lets a
    /// drop go when a text is typed or a file picked after it, so a drop held here is the
    /// newest edit of the text). Then the element that had the focus has it again, with its
    /// selection, without scrolling.
    fn give_to_live(self, document: &web_sys::Document, held: Option<HeldBack>) {
        for control in self.controls {
            let Some(live) = find(document, &control.key) else {
                continue;
            };
            if apply(&live, &control.held) {
                dispatch(&live, "input");
                dispatch(&live, "change");
            }
        }
        match held {
            Some(HeldBack::Dropped(files)) => {
                if let Some(input) = find(document, &("data-testid", "file-input".into()))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
                {
                    input.set_files(Some(&files));
                    dispatch(&input, "change");
                }
            }
            Some(HeldBack::Pasted { text, start, end }) => {
                if let Some(area) = find(document, &("data-testid", "text-input".into()))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
                {
                    let _ = area.set_selection_range(start, end);
                    paste(&area, &text);
                }
            }
            None => {}
        }
        let Some(focus) = self.focus else { return };
        let Some(live) = find(document, &focus.key) else {
            return;
        };
        if let Some(el) = live.dyn_ref::<web_sys::HtmlElement>() {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
        if let Some((start, end, direction)) = focus.selection {
            if let Some(area) = live.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                let _ = area.set_selection_range_with_direction(start, end, &direction);
            } else if let Some(input) = live.dyn_ref::<web_sys::HtmlInputElement>() {
                let _ = input.set_selection_range_with_direction(start, end, &direction);
            }
        }
        // Setting the selection scrolls the box to the caret; the visitor's view of it stays.
        live.set_scroll_top(focus.scroll_top);
    }
}

/// The live element with `key`, if any.
fn find(document: &web_sys::Document, (attr, value): &Key) -> Option<web_sys::Element> {
    let selector = format!("[{attr}=\"{}\"]", value.replace('"', "\\\""));
    document.query_selector(&selector).ok().flatten()
}

/// A selection read from the DOM, where the element has one (a number field has none).
fn selection_of(
    start: Result<Option<u32>, wasm_bindgen::JsValue>,
    end: Result<Option<u32>, wasm_bindgen::JsValue>,
    direction: Result<Option<String>, wasm_bindgen::JsValue>,
) -> Option<(u32, u32, String)> {
    let direction = direction.ok().flatten().unwrap_or_else(|| "none".into());
    Some((start.ok()??, end.ok()??, direction))
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

/// Dispatches a `paste` event of `text` at `target`, as the browser does for a visitor's paste:
/// the live box's handler takes a large one into the page's state itself, in slices. The JS
/// string is handed to `setData` as it is (not copied into wasm memory and back).
fn paste(target: &web_sys::EventTarget, text: &js_sys::JsString) {
    let Ok(data) = web_sys::DataTransfer::new() else {
        return;
    };
    let set = js_sys::Reflect::get(&data, &"setData".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(set) = set {
        let _ = set.call2(&data, &"text/plain".into(), text);
    }
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&data));
    if let Ok(ev) = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init) {
        let _ = target.dispatch_event(&ev);
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
