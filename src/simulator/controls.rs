//! The simulator's controls: size and overlap sliders, the "try" buttons, mode, document,
//! query, tokenizer and sentence rule. Each control writes one signal of the
//! [`SimState`]; every figure below follows through the memos.

use crate::simulator::messages::args as sim_msg;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::documents::Preset;
use chunk_core::sim::sweep::{Slider, OVERLAP_SLIDER, SIZE_SLIDER};
use chunk_core::sim::{Strategy, TokenizerChoice};
use leptos::prelude::*;

use super::messages::{self, Msg};
use super::model::{
    rule_code, rule_from_code, strategy_code, strategy_from_code, tokenizer_code,
    tokenizer_from_code, tokenizers, SimState, Source, TokensState, DEFAULT_OVERLAP, DEFAULT_SIZE,
    TRY_OVERLAP,
};
use crate::i18n::Lang;

/// All controls, in one column.
#[component]
pub fn Controls() -> impl IntoView {
    let sim = expect_context::<SimState>();
    view! {
        <form class="sim-controls" on:submit=|ev| ev.prevent_default()>
            <RangeField id="sim-size" label=Msg::SizeLabel value=sim.size slider=SIZE_SLIDER/>
            <RangeField id="sim-overlap" label=Msg::OverlapLabel value=sim.overlap slider=OVERLAP_SLIDER/>
            <div class="sim-buttons">
                <button
                    type="button"
                    class="button secondary"
                    data-testid="sim-try-overlap"
                    on:click=move |_| {
                        // The essay's whole scenario, not one slider: fixed windows of 60, overlap 20.
                        sim.strategy.set(Strategy::Fixed);
                        sim.size.set(DEFAULT_SIZE);
                        sim.overlap.set(TRY_OVERLAP);
                    }
                >
                    {move || sim.t(Msg::TryOverlap)}
                </button>
                <button
                    type="button"
                    class="button secondary"
                    data-testid="sim-try-sentence"
                    on:click=move |_| {
                        // Sentence packing at 60 with no overlap, as the essay has it: pressed
                        // after "try overlap 20" it must not keep that overlap (SPEC §4: 5
                        // chunks, bloat 1.00).
                        sim.strategy.set(Strategy::Sentence);
                        sim.size.set(DEFAULT_SIZE);
                        sim.overlap.set(DEFAULT_OVERLAP);
                    }
                >
                    {move || sim.t(Msg::TrySentence)}
                </button>
            </div>
            <SelectField
                id="sim-mode"
                label=Msg::ModeLabel
                value=sim.strategy
                options=Strategy::ALL.to_vec()
                code=strategy_code
                parse=strategy_from_code
                name=strategy_name
            />
            <SelectField
                id="sim-preset"
                label=Msg::PresetLabel
                value=sim.source
                options=Source::ALL.to_vec()
                code=Source::code
                parse=Source::from_code
                name=source_name
            />
            <QueryField/>
            <SelectField
                id="sim-tokenizer"
                label=Msg::TokenizerLabel
                value=sim.tokenizer
                options=tokenizers().to_vec()
                code=tokenizer_code
                parse=tokenizer_from_code
                name=tokenizer_name
                note=Msg::TokenizerNote
            />
            <TokenizerCounts/>
            <SelectField
                id="sim-rule"
                label=Msg::RuleLabel
                value=sim.rule
                options=SentenceRule::ALL.to_vec()
                code=rule_code
                parse=rule_from_code
                name=rule_name
                note=Msg::RuleNote
            />
        </form>
    }
}

fn strategy_name(lang: Lang, s: Strategy) -> &'static str {
    messages::text(
        lang,
        match s {
            Strategy::Fixed => Msg::ModeFixed,
            Strategy::Sentence => Msg::ModeSentence,
        },
    )
}

fn source_name(lang: Lang, s: Source) -> &'static str {
    messages::text(
        lang,
        match s {
            Source::Preset(Preset::Manual) => Msg::PresetManual,
            Source::Preset(Preset::UnevenSentences) => Msg::PresetUneven,
            Source::Preset(Preset::OneSentence) => Msg::PresetOneSentence,
            Source::OwnText => Msg::PresetOwnText,
        },
    )
}

fn tokenizer_name(lang: Lang, t: TokenizerChoice) -> &'static str {
    match t {
        TokenizerChoice::Simple => messages::text(lang, Msg::TokenizerSimple),
        TokenizerChoice::Bpe(e) => e.name(),
    }
}

fn rule_name(lang: Lang, r: SentenceRule) -> &'static str {
    messages::text(
        lang,
        match r {
            SentenceRule::Terminators => Msg::RuleTerminators,
            SentenceRule::Uax29 => Msg::RuleUax29,
            SentenceRule::Uax29Abbreviations => Msg::RuleUax29Abbreviations,
            SentenceRule::Contextual => Msg::RuleContextual,
        },
    )
}

/// A labelled range slider with its current value shown beside the label.
#[component]
fn RangeField(
    /// Element id and data-testid.
    id: &'static str,
    /// Label message.
    label: Msg,
    /// The value, in tokens.
    value: RwSignal<usize>,
    /// Bounds and step.
    slider: Slider,
) -> impl IntoView {
    let sim = expect_context::<SimState>();
    let out_id = format!("{id}-value");
    view! {
        <div class="field sim-range">
            <div class="sim-range-head">
                <label for=id>{move || sim.t(label)}</label>
                <output id=out_id for=id data-testid=format!("{id}-value")>
                    {move || sim.int(value.get())}
                </output>
            </div>
            <input
                id=id
                data-testid=id
                type="range"
                min=slider.min.to_string()
                max=slider.max.to_string()
                step=slider.step.to_string()
                // The starting value as the attribute too, for the prerendered page
                // (crates/prerender: properties are not HTML).
                value=value.get_untracked().to_string()
                prop:value=move || value.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                        value.set(v);
                    }
                }
            />
            <div class="sim-range-ends" aria-hidden="true">
                <span>{move || sim.int(slider.min)}</span>
                <span>{move || sim.int(slider.max)}</span>
            </div>
        </div>
    }
}

/// A labelled `<select>` over `options`, bound both ways to `value` (the "try" buttons set
/// the mode from outside, so the select must follow the signal).
#[component]
fn SelectField<T>(
    /// Element id and data-testid.
    id: &'static str,
    /// Label message.
    label: Msg,
    /// The chosen option.
    value: RwSignal<T>,
    /// The options, in display order.
    options: Vec<T>,
    /// An option's value attribute.
    code: fn(T) -> &'static str,
    /// Parses a value attribute back.
    parse: fn(&str) -> Option<T>,
    /// An option's display name in a language.
    name: fn(Lang, T) -> &'static str,
    /// A note under the select.
    #[prop(optional)]
    note: Option<Msg>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let sim = expect_context::<SimState>();
    let note_id = format!("{id}-note");
    let described = note.map(|_| note_id.clone());
    view! {
        <div class="field">
            <label for=id>{move || sim.t(label)}</label>
            <select
                id=id
                data-testid=id
                aria-describedby=described
                on:change=move |ev| {
                    if let Some(v) = parse(&event_target_value(&ev)) {
                        value.set(v);
                    }
                }
            >
                {options
                    .into_iter()
                    .map(|o| {
                        view! {
                            // `selected` as the attribute too, for the prerendered page.
                            <option
                                value=code(o)
                                selected=value.get_untracked() == o
                                prop:selected=move || value.get() == o
                            >
                                {move || name(sim.lang.get(), o)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            {note.map(|n| view! { <p class="field-note" id=note_id>{move || sim.t(n)}</p> })}
        </div>
    }
}

/// The query field and the keywords it leaves after stop words.
#[component]
fn QueryField() -> impl IntoView {
    let sim = expect_context::<SimState>();
    let keywords = move || {
        let kw = sim.keywords.get();
        if kw.is_empty() {
            sim.t(Msg::NoKeywords).to_string()
        } else {
            sim.tf(sim_msg::KeywordsAre {
                keywords: &kw.join(" · "),
            })
        }
    };
    view! {
        <div class="field">
            <label for="sim-query">{move || sim.t(Msg::QueryLabel)}</label>
            <input
                id="sim-query"
                data-testid="sim-query"
                type="text"
                autocomplete="off"
                spellcheck="false"
                aria-describedby="sim-query-note"
                // The starting value as the attribute too, for the prerendered page.
                value=untrack(|| sim.query())
                prop:value=move || sim.query()
                on:input=move |ev| sim.query_edit.set(Some(event_target_value(&ev)))
            />
            <p class="field-note" id="sim-query-note" data-testid="sim-keywords">
                {keywords}
            </p>
        </div>
    }
}

/// The line under the tokenizer select, once an encoding is chosen: this text's tokens by the
/// simple tokenizer and by that encoding, with their ratio (`data-simple`, `data-tokens`,
/// `data-encoding`).
#[component]
fn TokenizerCounts() -> impl IntoView {
    let sim = expect_context::<SimState>();
    move || {
        let encoding = sim.tokenizer.get().name();
        let waiting = match sim.tokens_state.get() {
            TokensState::Pending => Some((
                "sim-tokenizer-loading",
                "field-note",
                sim.tf(sim_msg::TokenizerLoading { encoding }),
            )),
            TokensState::Failed => Some((
                "sim-tokenizer-failed",
                "notice",
                sim.tf(sim_msg::TokenizerFailed { encoding }),
            )),
            TokensState::Ready => None,
        };
        if let Some((testid, class, text)) = waiting {
            return Some(
                view! { <p class=class data-testid=testid role="status">{text}</p> }.into_any(),
            );
        }
        let c = sim.tokenizer_counts.get()?;
        let lang = sim.lang.get();
        let n = |x: usize| crate::format::int(lang, x as u64);
        let ratio = c
            .ratio
            .map_or_else(|| "—".to_owned(), |r| crate::format::fixed2(lang, r));
        let text = sim.tf(sim_msg::TokenizerCounts {
            simple: &n(c.simple),
            tokens: &n(c.tokens),
            encoding: c.encoding.name(),
            ratio: &ratio,
        });
        Some(
            view! {
                <p
                    class="field-note"
                    data-testid="sim-tokenizer-counts"
                    data-simple=c.simple
                    data-tokens=c.tokens
                    data-encoding=c.encoding.name()
                >
                    {text}
                </p>
            }
            .into_any(),
        )
    }
}
