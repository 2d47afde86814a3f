//! The chunking simulator (SPEC §4): the second half of the page. A small document is chunked
//! by fixed token windows or by sentence packing, and the page shows what that does: where the
//! cuts fall, which tokens are repeated, which chunk still holds every keyword of a query, and
//! how split sentences and bloat move with the sliders.
//!
//! Codemap:
//! - [`model`]: the simulator's signals and memos ([`model::SimState`]), and the small pure
//!   helpers they use (tested natively);
//! - [`controls`]: sliders, selects, the query field and the two "try" buttons;
//! - [`figures`]: the metrics; [`warnings`]: every warning in plain words;
//! - [`strip`]: the token strip coloured by chunk, with cut markers and multiplicity;
//! - [`coverage`]: the keyword table; [`charts`]: the two hand-written SVG charts;
//! - [`explain`]: the short explanations; [`messages`]: the simulator's message catalog;
//!
//! All chunking, metrics, coverage and sweeps come from `chunk_core::sim`; this module only
//! holds the controls' state and renders.

pub mod charts;
pub mod controls;
pub mod coverage;
pub mod explain;
pub mod figures;
pub mod messages;
pub mod model;
pub mod strip;
pub mod warnings;

use leptos::prelude::*;

use crate::state::{Language, SourceText};
use messages::Msg;
use model::{SimSettings, SimState};

/// The simulator panel. Needs the page's [`Language`] and [`SourceText`] contexts (the UI
/// language and the text of the text box, both only read here). Uses the [`SimSettings`] the
/// `App` provides (so that a settings link can set its controls before the panel is built), or
/// creates them when mounted alone; builds the [`SimState`] over them and provides it to its
/// parts.
#[component]
pub fn Simulator() -> impl IntoView {
    // The settings come from the page (a settings link may have set them); the memos are
    // built here, with the panel.
    let settings = use_context::<SimSettings>()
        .unwrap_or_else(|| SimSettings::new(expect_context::<Language>()));
    let sim = SimState::new(settings, expect_context::<SourceText>());
    provide_context(sim);
    view! {
        <section class="panel simulator" aria-labelledby="sim-heading" data-testid="simulator">
            <h2 id="sim-heading">{move || sim.t(Msg::Heading)}</h2>
            <p class="intro">{move || sim.t(Msg::Intro)}</p>
            <div class="sim-top">
                <controls::Controls/>
                <div class="sim-results" aria-live="polite">
                    <figures::Figures/>
                    <warnings::Warnings/>
                </div>
            </div>
            <strip::Strip/>
            <coverage::CoverageTable/>
            <charts::Charts/>
            <explain::Explain/>
        </section>
    }
}
