//! The page's panels: the model panel, the semantic picker, the comparison table, the strategy
//! panel, the A/B view, the retrieval check, the simulator and the FAQ, and the wiring of the
//! page's workers ([`crate::jobs::start`]).
//!
//! With the `split` feature (the page's own build, index.html), they are a second wasm
//! module: the page's first module holds the form, the results card, the text box and the
//! contexts they and a settings link read (the simulator's settings, not its memos, which its
//! panel builds), so that the form answers as soon as that smaller module runs; the panels'
//! module is fetched at once when it mounts, and each slot renders its panels when it has
//! arrived. The split points are the two `load_*` functions here and the document reader's
//! start (`crate::extract_job::start_reading`) (`wasm_split_helpers`, one module named
//! `panels`); the post-build hook (crates/page-split) moves every function only they reach
//! into that module.
//!
//! Each slot is a `<div class="panels" data-panels="model|lower">` (laid out as if absent:
//! `display: contents`), in every build, so that the prerendered markup has the same slots.
//! Until a slot's panels arrive it shows the prerendered panels, moved there when the app
//! mounts, and what the visitor does in them is handed over when the live panels replace them
//! ([`crate::prerendered`]). If the module cannot be had (its fetch or compile failed), the
//! prerendered panels stay (the FAQ reads without the app), a status line says that they do
//! not work, with a button that tries again, and the comparison's status says it failed, so
//! the results card does not wait for it; the form and its fixed-window figures work without
//! the panels.
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

/// The status of the panels' module (`data-testid="panels-status"`, `data-state`: `loading`,
/// `ready` or `failed`): shown on a failure, with a button that tries again
/// (`data-testid="panels-retry"`), and while that new attempt loads; not on the first load,
/// while the prerendered panels stand in for the live ones.
fn status(state: Signal<Load>, retried: Signal<bool>, retry: impl Fn() + 'static) -> impl IntoView {
    let lang = expect_context::<crate::state::Language>();
    let shown = move || match state.get() {
        Load::Failed => true,
        Load::Loading => retried.get(),
        Load::Ready => false,
    };
    view! {
        <div
            class="panels-status"
            data-testid="panels-status"
            data-state=move || state.get().code()
            hidden=move || !shown()
        >
            <p role="status">
                {move || match state.get() {
                    Load::Failed => Some(lang.t(crate::i18n::Key::PanelsUnavailable)),
                    Load::Loading if retried.get() => Some(lang.t(crate::i18n::Key::PanelsLoading)),
                    _ => None,
                }}
            </p>
            <button
                type="button"
                data-testid="panels-retry"
                hidden=move || state.get() != Load::Failed
                on:click=move |_| retry()
            >
                {move || lang.t(crate::i18n::Key::PanelsRetry)}
            </button>
        </div>
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
        {status(Signal::stored(Load::Ready), Signal::stored(false), || {})}
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
    use crate::compare::state::EngineStatus;
    use crate::jobs::Jobs;

    /// The panels' module could not be had (its fetch or its compile failed; the browser's
    /// console has the cause, logged by the split's loader).
    pub struct Unavailable;

    impl From<wasm_split_helpers::SplitLoaderError> for Unavailable {
        fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
            Unavailable
        }
    }

    // The split points. Their bodies run inside the slot's `Suspend` once the module has
    // arrived: untracked, so that no signal they read can make the slot build them again.

    #[wasm_split_helpers::wasm_split(panels, fallible)]
    fn load_model_panel() -> Result<AnyView, Unavailable> {
        Ok(untrack(super::model_panel_view))
    }

    #[wasm_split_helpers::wasm_split(panels, fallible)]
    fn load_lower(jobs: Jobs) -> Result<AnyView, Unavailable> {
        Ok(untrack(|| super::lower_view(jobs)))
    }

    /// A slot: `load()`'s view once the panels' module has arrived (built under this owner, so
    /// it reads the page's contexts), nothing before or on failure; tried again whenever
    /// `attempt` changes (the status line's button). `on_result` hears how each attempt ended.
    /// On success the slot's prerendered stand-in is handed over in a microtask queued as the
    /// future ends: tachys puts a `Suspend`'s first view in the slot in the poll that ends its
    /// future, so the stand-in goes, with its edits given to the live panels, before the
    /// browser paints again ([`crate::prerendered::StandIn::hand_over`]; after a retry the view
    /// comes a tick later, and the hand-over waits for it). On failure the stand-in stays.
    fn slot<F, L>(
        name: &'static str,
        attempt: RwSignal<u32>,
        load: L,
        on_result: impl Fn(bool) + Copy + 'static,
    ) -> impl IntoView
    where
        L: Fn() -> F + Copy + 'static,
        F: std::future::Future<Output = Result<AnyView, Unavailable>> + 'static,
    {
        // The page has one thread; Leptos's views want `Send` closures and futures.
        let load = SendWrapper::new(load);
        let on_result = SendWrapper::new(on_result);
        let panels = move || {
            attempt.track();
            let load = SendWrapper::new(untrack(|| (*load)()));
            let on_result = SendWrapper::new(*on_result);
            Suspend::new(async move {
                let result = load.await;
                untrack(|| {
                    (*on_result)(result.is_ok());
                    if result.is_ok() {
                        if let Some(stand_in) = crate::prerendered::stand_in(name) {
                            queue_microtask(move || stand_in.hand_over());
                        }
                    }
                    result.ok()
                })
            })
        };
        view! { <div class="panels" data-panels=name>{panels}</div> }
    }

    /// One slot's attempts at the panels' module: how the last ended, and how many the
    /// status line's button asked for (the slot's view is built again for each).
    #[derive(Clone, Copy)]
    struct SlotLoad {
        load: RwSignal<Load>,
        attempt: RwSignal<u32>,
    }

    impl SlotLoad {
        fn new() -> SlotLoad {
            SlotLoad {
                load: RwSignal::new(Load::Loading),
                attempt: RwSignal::new(0),
            }
        }

        /// Tries again if the last attempt failed.
        fn retry(self) -> bool {
            let failed = self.load.get_untracked() == Load::Failed;
            if failed {
                self.load.set(Load::Loading);
                self.attempt.update(|n| *n += 1);
            }
            failed
        }
    }

    /// Both slots' attempts (each slot its own: a slot whose panels came is never built
    /// again, which would drop them and their effects).
    #[derive(Clone, Copy)]
    struct Attempts {
        model: SlotLoad,
        lower: SlotLoad,
    }

    impl Attempts {
        /// The page's (made and provided by the first slot built).
        fn of_page() -> Attempts {
            use_context().unwrap_or_else(|| {
                let attempts = Attempts {
                    model: SlotLoad::new(),
                    lower: SlotLoad::new(),
                };
                provide_context(attempts);
                attempts
            })
        }

        /// Failed if either slot's last attempt failed, loading if either is loading.
        fn state(self) -> Load {
            match (self.model.load.get(), self.lower.load.get()) {
                (Load::Failed, _) | (_, Load::Failed) => Load::Failed,
                (Load::Loading, _) | (_, Load::Loading) => Load::Loading,
                _ => Load::Ready,
            }
        }
    }

    /// The model panel, once the panels' module has arrived.
    pub fn model_panel() -> AnyView {
        let SlotLoad { load, attempt } = Attempts::of_page().model;
        slot(MODEL_SLOT, attempt, load_model_panel, move |ok| {
            load.set(if ok { Load::Ready } else { Load::Failed })
        })
        .into_any()
    }

    /// The panels below the text box and the workers' wiring, once the panels' module has
    /// arrived, after the module's status line (for both slots). When they cannot come, the
    /// comparison's status is failed (the results card says the strategies cannot run rather
    /// than waiting), and the page counts as settled, so that the service worker is
    /// registered.
    pub fn lower(jobs: Jobs) -> AnyView {
        let attempts = Attempts::of_page();
        let SlotLoad { load, attempt } = attempts.lower;
        let results = expect_context::<crate::compare::CompareResults>();
        let on_result = move |ok: bool| {
            load.set(if ok { Load::Ready } else { Load::Failed });
            if !ok {
                results.engine.set(EngineStatus::Failed(
                    "the page's panels module could not be loaded".into(),
                ));
                crate::browser::announce_settled();
            }
        };
        let retry = move || {
            attempts.model.retry();
            if attempts.lower.retry() {
                results.engine.set(EngineStatus::Loading);
            }
        };
        let retried = move || attempts.model.attempt.get() + attempts.lower.attempt.get() > 0;
        view! {
            {super::status(Signal::derive(move || attempts.state()), Signal::derive(retried), retry)}
            {slot(LOWER_SLOT, attempt, move || load_lower(jobs), on_result)}
        }
        .into_any()
    }
}
