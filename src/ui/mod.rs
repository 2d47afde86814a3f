//! The page's shared widgets: a number field ([`NumberField`]), a figure with its raw number
//! ([`Figure`]), and the one way a button fills a field on the user's request ([`fill_box`]).
//! Each takes its words already in the page's language, so that the calculator, the model
//! panel and the simulator, with their own catalogs, share them.

use leptos::prelude::*;

/// Writes `value` into the `<input id=…>` and into `signal`, for a button that fills a field
/// the user asked it to fill. The boxes are bound one way (typing writes the signal, the
/// signal never rewrites the box, so what was typed is never replaced otherwise), so both are
/// written; the box is written only where it exists (a browser, after the page started).
pub fn fill_box(id: &str, signal: RwSignal<String>, value: String) {
    crate::browser::set_input_value(id, &value);
    signal.set(value);
}

/// A text field for a number. It is bound one way: typing writes the signal, but the signal
/// never rewrites the field, so what the user typed (even if invalid) is never replaced.
/// Hooks: the input's `id` and `data-testid` are `id`; its error line is `error-{id}`.
#[component]
pub fn NumberField(
    /// Element id and data-testid.
    id: &'static str,
    /// The label, in the page's language.
    #[prop(into)]
    label: Signal<String>,
    /// The typed text.
    value: RwSignal<String>,
    /// The field's error, worded in the page's language, if any.
    #[prop(into)]
    error: Signal<Option<String>>,
    /// `inputmode` hint for on-screen keyboards ("numeric" or "decimal").
    #[prop(default = "numeric")]
    inputmode: &'static str,
    /// The id of a `<datalist>` of suggested values.
    #[prop(optional)]
    list: Option<&'static str>,
    /// Extra content after the input on the same row (e.g. the unit select).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let error_id = format!("{id}-error");
    let error_testid = format!("error-{id}");
    view! {
        <div class="field" class:invalid=move || error.with(Option::is_some)>
            <label for=id>{move || label.get()}</label>
            <div class="field-row">
                <input
                    id=id
                    data-testid=id
                    type="text"
                    inputmode=inputmode
                    autocomplete="off"
                    spellcheck="false"
                    list=list
                    // The attribute, not the property: the same start, and written in the
                    // prerendered page too (crates/prerender: properties are not HTML).
                    value=value.get_untracked()
                    aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                    aria-describedby=error_id.clone()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
                {children.map(|c| c())}
            </div>
            <p class="field-error" id=error_id data-testid=error_testid role="alert">
                {move || error.get()}
            </p>
        </div>
    }
}

/// Values longer than this many chars are set in a smaller size (the `long` class) where the
/// figure asks for it.
pub const LONG_FIGURE_CHARS: usize = 9;

/// One figure: a label and a value carrying its raw number in `data-value` ("" when there is
/// no figure), with an optional note under it.
#[component]
pub fn Figure(
    /// data-testid of the value element.
    testid: &'static str,
    /// The label, in the page's language.
    #[prop(into)]
    label: Signal<String>,
    /// `(raw, shown)`, or `None` for "no figure".
    value: Signal<Option<(String, String)>>,
    /// What is shown without a figure (default "–").
    #[prop(optional, into)]
    missing: Option<Signal<String>>,
    /// A small line under the value.
    #[prop(optional)]
    note: Option<Signal<Option<String>>>,
    /// Larger type for the main figures.
    #[prop(optional)]
    primary: bool,
    /// Spans two grid columns (lists).
    #[prop(optional)]
    wide: bool,
    /// Sets a value longer than [`LONG_FIGURE_CHARS`] smaller rather than wrapping it over two
    /// lines in a narrow card (a cost such as "0,0000266 $").
    #[prop(optional)]
    shrink_long: bool,
) -> impl IntoView {
    let long = move || {
        shrink_long
            && value.with(|v| {
                v.as_ref()
                    .is_some_and(|v| v.1.chars().count() > LONG_FIGURE_CHARS)
            })
    };
    let shown = move || {
        value
            .get()
            .map(|v| v.1)
            .unwrap_or_else(|| missing.map(|m| m.get()).unwrap_or_else(|| "–".to_owned()))
    };
    view! {
        <div class="figure" class:primary=primary class:wide=wide>
            <dt>{move || label.get()}</dt>
            <dd
                data-testid=testid
                data-value=move || value.get().map(|v| v.0).unwrap_or_default()
                class:long=long
            >
                {shown}
            </dd>
            {note.map(|n| view! { <dd class="figure-note">{move || n.get()}</dd> })}
        </div>
    }
}
