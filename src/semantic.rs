//! The semantic rows' switch (`semantic-model`): off, or the embedding model the semantic
//! strategies embed their sentences with. It writes the comparison's
//! [`CompareSettings::semantic`] and the retrieval check's dense model: the page runs one
//! embedding model (one embedding worker), so both use the same. A layer above `compare` and
//! `retrieval`, as `jobs` is, so that neither imports the other back.
//!
//! With a model chosen, the semantic strategies' thresholds as typed
//! ([`CompareSettings::breakpoints`]): `semantic-percentile` (LangChain's, LlamaIndex's and
//! the product's own breakpoint percentile) and `chonkie-threshold`, each with its error
//! (`semantic-percentile-error`, `chonkie-threshold-error`) while it holds no number, and
//! their hint (`semantic-threshold-hint`). A new threshold cuts again from the embeddings
//! held. While the model downloads or embeds, `semantic-status` (`data-done`, `data-queued`)
//! says the semantic rows wait for it.

use chunk_core::retrieval::DenseModel;
use chunk_core::strategy::StrategyId;
use leptos::prelude::*;
use strum::IntoEnumIterator;

use crate::compare::messages::{self, args as cmp_args, Msg};
use crate::compare::CompareSettings;
use crate::embed::messages::args as em_args;
use crate::embed::{EmbedRuntime, EmbedStatus};
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
            Err(_) => {
                compare.semantic.set(false);
                // A semantic strategy chosen in the chunk view or the sweep is no longer
                // listed: back to the defaults.
                if compare.strategy.get_untracked().needs_embeddings() {
                    compare.strategy.set(StrategyId::Fixed);
                }
                if retrieval.sweep_strategy.get_untracked().needs_embeddings() {
                    retrieval.sweep_strategy.set(StrategyId::Fixed);
                }
            }
        }
    };
    // Beside the table: while the model downloads or embeds, the semantic rows wait.
    let embed = expect_context::<EmbedRuntime>();
    let status = move || {
        let l = lang();
        let (text, done, queued) = match embed.status.get() {
            EmbedStatus::Loading { .. } => (m(Msg::SemanticRowsLoading).to_owned(), None, None),
            EmbedStatus::Embedding { done, queued } => (
                cmp_args::SemanticRowsWaiting {
                    done: &format::int(l, done),
                    queued: &format::int(l, queued),
                }
                .fill(l),
                Some(done),
                Some(queued),
            ),
            _ => return None,
        };
        Some(view! {
            <p class="hint" data-testid="semantic-status" role="status" data-done=done data-queued=queued>
                {text}
            </p>
        })
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
            <Show when=move || compare.semantic.get()>
                {status}
                <div class="semantic-thresholds">
                    {threshold_field("semantic-percentile", Msg::SemanticPercentileLabel, compare.percentile, 0)}
                    {threshold_field("chonkie-threshold", Msg::SemanticChonkieLabel, compare.chonkie_threshold, 1)}
                </div>
                <p class="hint" data-testid="semantic-threshold-hint">
                    {move || m(Msg::SemanticThresholdHint)}
                </p>
            </Show>
        </section>
    }
}

/// A threshold box (`id` is also its `data-testid`) with its error (`{id}-error`) while it
/// holds no number; `which` is its place in [`CompareSettings::breakpoints`]' flags.
fn threshold_field(
    id: &'static str,
    label: Msg,
    value: RwSignal<String>,
    which: usize,
) -> impl IntoView {
    let app = PageState::from_context();
    let compare = expect_context::<CompareSettings>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let error_id = format!("{id}-error");
    let read = move || compare.breakpoints().1[which];
    // A number, but one the strategies refuse (the core's range).
    let out_of_range = move || {
        let (b, read) = compare.breakpoints();
        read[which] && !b.in_range()[which]
    };
    view! {
        <div class="field">
            <label for=id>{move || m(label)}</label>
            <input
                id=id
                data-testid=id
                type="text"
                inputmode="decimal"
                value=value.get_untracked()
                prop:value=value
                aria-invalid=move || (!read() || out_of_range()).then_some("true")
                on:input=move |ev| value.set(event_target_value(&ev))
            />
            <Show when=move || !read() || out_of_range()>
                <p class="field-error" data-testid=error_id.clone() role="alert">
                    {move || m(if read() { Msg::SemanticOutOfRange } else { Msg::SemanticNotNumber })}
                </p>
            </Show>
        </div>
    }
}
