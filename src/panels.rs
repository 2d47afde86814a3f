//! The page's panels: the model panel, the semantic picker, the comparison table, the strategy
//! panel, the A/B view, the retrieval check, the simulator and the FAQ, and the wiring of the
//! page's workers ([`crate::jobs::start`]).
//!
//! With the `split` feature (the page's own build, index.html), they are a second wasm
//! module: the page's first module holds the form, the results card, the text box and every
//! context, so that the form answers as soon as that smaller module runs; the panels' module
//! is fetched at once when it mounts, and each slot renders its panels when it has arrived.
//! The split points are the two `load_*` functions (`wasm_split_helpers`, one module named
//! `panels`); the post-build hook (crates/page-split) moves every function only they reach
//! into that module.
//!
//! Each slot is a `<div class="panels" data-panels="model|lower">` (laid out as if absent:
//! `display: contents`), in every build, so that the prerendered markup has the same slots.
//! Until a slot's panels arrive it shows the prerendered panels, moved there when the app
//! mounts, and what the visitor does in them is handed over when the live panels replace them
//! ([`crate::prerendered`]). If the module cannot be had (its fetch or compile failed), the
//! prerendered panels go and a status line says so; the form and the results card work
//! without them.
//!
//! Without the feature (the prerender, the component tests), the same views are built in
//! place, in one module.

use leptos::prelude::*;

use crate::jobs::Jobs;

/// The model panel's views (between the results card and the settings link).
fn model_panel_view() -> AnyView {
    view! { <crate::compare::model_panel::ModelPanel/> }.into_any()
}

/// The workers' wiring, then the panels below the text box.
fn lower_view(jobs: Jobs) -> AnyView {
    crate::jobs::start(jobs);
    view! {
        <crate::semantic::SemanticPicker/>
        <crate::compare::table::CompareTable/>
        <crate::compare::panel::StrategyPanel/>
        <crate::compare::ab::AbView/>
        <crate::retrieval::RetrievalCheck/>
        <crate::simulator::Simulator/>
        <crate::faq::Faq/>
    }
    .into_any()
}

/// The slot of the model panel.
const MODEL_SLOT: &str = "model";
/// The slot of the panels below the text box.
const LOWER_SLOT: &str = "lower";

/// The status line of the panels' module (`data-testid="panels-status"`, `data-state`:
/// `loading`, `ready` or `failed`; shown only on failure: until then the prerendered panels
/// stand in for the live ones).
fn status(state: Signal<Load>) -> impl IntoView {
    let lang = expect_context::<crate::state::Language>();
    view! {
        <p
            class="panels-status"
            data-testid="panels-status"
            role="status"
            data-state=move || state.get().code()
            hidden=move || state.get() != Load::Failed
        >
            {move || (state.get() == Load::Failed).then(|| lang.t(crate::i18n::Key::PanelsUnavailable))}
        </p>
    }
}

/// Where the panels' module is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Load {
    /// Being fetched (only in the split build).
    Loading,
    /// Its panels are in the page.
    Ready,
    /// It could not be had.
    Failed,
}

impl Load {
    /// The `data-state` word.
    fn code(self) -> &'static str {
        match self {
            Load::Loading => "loading",
            Load::Ready => "ready",
            Load::Failed => "failed",
        }
    }
}

#[cfg(not(feature = "split"))]
/// The model panel, built in place.
pub fn model_panel() -> AnyView {
    view! { <div class="panels" data-panels=MODEL_SLOT>{model_panel_view()}</div> }.into_any()
}

#[cfg(not(feature = "split"))]
/// The panels below the text box, and the workers' wiring, built in place.
pub fn lower(jobs: Jobs) -> AnyView {
    view! {
        {status(Signal::stored(Load::Ready))}
        <div class="panels" data-panels=LOWER_SLOT>{lower_view(jobs)}</div>
    }
    .into_any()
}

#[cfg(feature = "split")]
pub use split::{lower, model_panel};

#[cfg(feature = "split")]
mod split {
    use leptos::prelude::*;
    use send_wrapper::SendWrapper;

    use super::{Load, LOWER_SLOT, MODEL_SLOT};
    use crate::jobs::Jobs;

    /// The panels' module could not be had (its fetch or its compile failed; the browser's
    /// console has the cause, logged by the split's loader).
    pub struct Unavailable;

    impl From<wasm_split_helpers::SplitLoaderError> for Unavailable {
        fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
            Unavailable
        }
    }

    #[wasm_split_helpers::wasm_split(panels, fallible)]
    fn load_model_panel() -> Result<AnyView, Unavailable> {
        Ok(super::model_panel_view())
    }

    #[wasm_split_helpers::wasm_split(panels, fallible)]
    fn load_lower(jobs: Jobs) -> Result<AnyView, Unavailable> {
        Ok(super::lower_view(jobs))
    }

    /// A slot: `load`'s view once the panels' module has arrived (built under this owner, so
    /// it reads the page's contexts), nothing before or on failure. `on_result` hears how the
    /// load ended. The slot's prerendered stand-in goes in the same task as the live panels
    /// come (the Suspend puts them in after a microtask), and its edits are handed over to
    /// them in the next animation frame ([`crate::prerendered::take_stand_in`]).
    fn slot<F>(name: &'static str, load: F, on_result: impl Fn(bool) + 'static) -> impl IntoView
    where
        F: std::future::Future<Output = Result<AnyView, Unavailable>> + 'static,
    {
        let load = SendWrapper::new(load);
        let on_result = SendWrapper::new(on_result);
        let panels = Suspend::new(async move {
            let result = load.await;
            // What follows reads no signal for the Suspend to track.
            untrack(|| {
                (*on_result)(result.is_ok());
                if let Some(stand_in) = crate::prerendered::take_stand_in(name) {
                    request_animation_frame(move || stand_in.hand_over());
                }
                result.ok()
            })
        });
        view! { <div class="panels" data-panels=name>{panels}</div> }
    }

    /// The model panel, once the panels' module has arrived.
    pub fn model_panel() -> AnyView {
        slot(MODEL_SLOT, load_model_panel(), |_| {}).into_any()
    }

    /// The panels below the text box and the workers' wiring, once the panels' module has
    /// arrived, after the module's status line.
    pub fn lower(jobs: Jobs) -> AnyView {
        let state = RwSignal::new(Load::Loading);
        view! {
            {super::status(state.into())}
            {slot(LOWER_SLOT, load_lower(jobs), move |ok| {
                state.set(if ok { Load::Ready } else { Load::Failed })
            })}
        }
        .into_any()
    }
}
