//! The semantic rows' switch (`semantic-model`): off, or the embedding model the semantic
//! strategies embed their sentences with. It writes the comparison's
//! [`CompareSettings::semantic`] and the retrieval check's dense model: the page runs one
//! embedding model (one embedding worker), so both use the same. A layer above `compare` and
//! `retrieval`, as `jobs` is, so that neither imports the other back.

use chunk_core::retrieval::DenseModel;
use leptos::prelude::*;
use strum::IntoEnumIterator;

use crate::compare::messages::{self, Msg};
use crate::compare::CompareSettings;
use crate::embed::messages::args as em_args;
use crate::format;
use crate::retrieval::state::RetrievalSettings;
use crate::state::PageState;

/// The `semantic-model` select and its hint, in its own panel above the comparison table.
#[component]
pub fn SemanticPicker() -> impl IntoView {
    let app = PageState::from_context();
    let compare = expect_context::<CompareSettings>();
    let retrieval = expect_context::<RetrievalSettings>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Msg| messages::text(lang(), msg);
    let on_change = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        match value.parse::<DenseModel>() {
            Ok(model) => {
                retrieval.dense_model.set(model);
                compare.semantic.set(true);
            }
            Err(_) => compare.semantic.set(false),
        }
    };
    view! {
        <section class="panel semantic-pick" data-testid="semantic">
            <div class="field">
                <label for="semantic-model">{move || m(Msg::SemanticModelLabel)}</label>
                <select id="semantic-model" data-testid="semantic-model" on:change=on_change>
                    <option value="off" selected=move || !compare.semantic.get()>
                        {move || m(Msg::SemanticOff)}
                    </option>
                    {DenseModel::iter()
                        .map(|model| {
                            view! {
                                <option
                                    value=model.id()
                                    data-bytes=model.download_bytes()
                                    selected=move || {
                                        compare.semantic.get() && retrieval.dense_model.get() == model
                                    }
                                >
                                    {move || {
                                        let l = lang();
                                        em_args::ModelOption {
                                            model: model.name(),
                                            size: &format::int(l, model.download_kib()),
                                        }
                                        .fill(l)
                                    }}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <p class="hint" data-testid="semantic-hint">{move || m(Msg::SemanticHint)}</p>
            </div>
        </section>
    }
}
