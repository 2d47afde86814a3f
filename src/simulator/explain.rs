//! The short explanations under the simulator: what each strategy costs, why no size suits
//! every document, and why the coverage test is lexical on purpose.

use leptos::prelude::*;

use super::messages::Msg;
use super::model::SimState;

/// The explanations, one titled paragraph each.
#[component]
pub fn Explain() -> impl IntoView {
    let sim = expect_context::<SimState>();
    let items = [
        (Msg::ExplainFixedTitle, Msg::ExplainFixed),
        (Msg::ExplainOverlapTitle, Msg::ExplainOverlap),
        (Msg::ExplainSentenceTitle, Msg::ExplainSentence),
        (Msg::ExplainNoSizeTitle, Msg::ExplainNoSize),
        (Msg::ExplainLexicalTitle, Msg::ExplainLexical),
    ];
    view! {
        <section class="sim-part sim-explain" aria-labelledby="sim-explain-heading">
            <h3 id="sim-explain-heading">{move || sim.t(Msg::ExplainHeading)}</h3>
            <dl>
                {items
                    .into_iter()
                    .map(|(title, body)| {
                        view! {
                            <dt>{move || sim.t(title)}</dt>
                            <dd>{move || sim.t(body)}</dd>
                        }
                    })
                    .collect_view()}
            </dl>
        </section>
    }
}
