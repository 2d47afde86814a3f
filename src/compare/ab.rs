//! A/B: the chosen strategy at the page's setting (A) against another strategy or setting (B),
//! with the difference of every figure ([`chunk_core::analysis::ab::difference`]).
//!
//! Hooks: `ab`, `ab-strategy` (select), `ab-chunk-size`, `ab-chunk-overlap` (inputs),
//! `ab-table`, one `ab-figure` per figure with `data-figure`, `data-a`, `data-b`,
//! `data-change`, and `ab-refused` when a side refused.

use crate::compare::messages::args as cmp_msg;
use chunk_core::analysis::ab::{difference, Delta};
use chunk_core::analysis::protocol::Outcome;
use chunk_core::strategy::StrategyId;
use leptos::prelude::*;

use super::messages::{self, Msg};
use super::{refusal_text, strategy_name, AbSide, CompareResults, CompareSettings};
use crate::format;
use crate::i18n::Lang;
use crate::state::PageState;

/// The A/B view.
#[component]
pub fn AbView() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let results = expect_context::<CompareResults>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let on_strategy = move |ev| {
        if let Ok(id) = event_target_value(&ev).parse::<StrategyId>() {
            settings.ab.update(|s| s.strategy = id);
        }
    };
    let a_label = move || {
        let lang = app.language.lang.get();
        let c = app.derived.checked.get();
        cmp_msg::AbSideA {
            strategy: &strategy_name(lang, settings.strategy.get()),
            chunk_size: &c.size_value.map_or("—".into(), |v| format::int(lang, v)),
            chunk_overlap: &c
                .requested_overlap
                .map_or("—".into(), |v| format::int(lang, v)),
        }
        .fill(lang)
    };
    let body = move || {
        let lang = app.language.lang.get();
        if results.ab_invalid.get() {
            return view! {
                <p class="notice warn" data-testid="ab-invalid">{messages::text(lang, Msg::AbInvalid)}</p>
            }
            .into_any();
        }
        if app
            .derived
            .checked
            .with(|c| c.size_value.is_none() || c.requested_overlap.is_none())
        {
            return view! {
                <p class="hint" data-testid="ab-pending">{messages::text(lang, Msg::FixFields)}</p>
            }
            .into_any();
        }
        // Without a text there is nothing to compare: say what is needed, not "working".
        if app.source.text.with(|t| t.is_empty()) {
            return view! {
                <p class="hint" data-testid="ab-idle">{messages::text(lang, Msg::CompareIdle)}</p>
            }
            .into_any();
        }
        let a = results.selection.get().map(|s| s.outcome);
        let b = results.ab_row.get().map(|(_, o)| o);
        ab_table(lang, a, b).into_any()
    };
    view! {
        <section class="panel ab" data-testid="ab">
            <h2 id="ab-heading">{move || m(Msg::AbHeading)}</h2>
            <p class="hint">{move || m(Msg::AbIntro)}</p>
            <p data-testid="ab-a">{a_label}</p>
            <div class="field-row ab-controls">
                <label for="ab-strategy">{move || m(Msg::AbSideB)}</label>
                <select id="ab-strategy" data-testid="ab-strategy" on:change=on_strategy>
                    {StrategyId::all()
                        .map(|id| {
                            view! {
                                <option value=id.as_str() selected=move || settings.ab.with(|s| s.strategy == id)>
                                    {move || strategy_name(app.language.lang.get(), id)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <AbField id="ab-chunk-size" label="chunk_size" get=|s: &AbSide| s.chunk_size.clone() set=|s: &mut AbSide, v| s.chunk_size = v/>
                <AbField id="ab-chunk-overlap" label="chunk_overlap" get=|s: &AbSide| s.chunk_overlap.clone() set=|s: &mut AbSide, v| s.chunk_overlap = v/>
            </div>
            {body}
        </section>
    }
}

/// One of B's number fields (its library parameter name as the label).
#[component]
fn AbField(
    /// Element id and data-testid.
    id: &'static str,
    /// The label: the parameter's name.
    label: &'static str,
    /// Reads the field's text from B's side.
    get: fn(&AbSide) -> String,
    /// Writes the field's text into B's side.
    set: fn(&mut AbSide, String),
) -> impl IntoView {
    let settings = expect_context::<CompareSettings>();
    let results = expect_context::<CompareResults>();
    view! {
        <label for=id>{label}</label>
        <input
            aria-invalid=move || results.ab_invalid.get().then_some("true")
            id=id
            data-testid=id
            type="text"
            inputmode="numeric"
            autocomplete="off"
            // The starting value as the attribute too, for the prerendered page
            // (crates/prerender: properties are not HTML).
            value=settings.ab.with_untracked(get)
            prop:value=move || settings.ab.with(get)
            on:input=move |ev| {
                let v = event_target_value(&ev);
                settings.ab.update(|s| set(s, v));
            }
        />
    }
}

/// The figures of both sides and their differences (or the refusal of a side).
fn ab_table(lang: Lang, a: Option<Outcome>, b: Option<Outcome>) -> impl IntoView {
    let m = |msg: Msg| messages::text(lang, msg);
    let refused = |side: &Option<Outcome>| match side {
        Some(Outcome::Refused { refusal }) => Some(refusal_text(lang, refusal)),
        _ => None,
    };
    if let Some(t) = refused(&a).or_else(|| refused(&b)) {
        return view! { <p class="notice warn" data-testid="ab-refused">{t}</p> }.into_any();
    }
    let (
        Some(Outcome::Figures { summary: a, .. }),
        Some(Outcome::Figures {
            summary: b,
            overlap_clamped: b_clamped,
            ..
        }),
    ) = (a, b)
    else {
        return view! { <p class="hint" data-testid="ab-pending">{m(Msg::Pending)}</p> }.into_any();
    };
    let d = difference(&a, &b);
    let clamped = b_clamped.then(
        || view! { <p class="notice" data-testid="ab-clamped">{m(Msg::OverlapClampedHere)}</p> },
    );
    let rows: [(&str, Msg, Delta, bool); 9] = [
        ("chunks", Msg::ColChunks, d.chunks, false),
        ("total-tokens", Msg::ColTotal, d.total_tokens, false),
        (
            "repeated-tokens",
            Msg::ColRepeated,
            d.repeated_tokens,
            false,
        ),
        ("mean-tokens", Msg::ColMean, d.mean_tokens, true),
        ("p95-tokens", Msg::ColP95, d.p95_tokens, false),
        ("max-tokens", Msg::ColMax, d.max_tokens, false),
        ("over-limit", Msg::ColOverLimit, d.over_limit, false),
        ("split-sentences", Msg::ColSplit, d.split_sentences, false),
        ("cost", Msg::ColCost, d.cost, true),
    ];
    let show = move |x: f64, decimals: bool, figure: &str| {
        if figure == "cost" {
            format::usd(lang, x)
        } else if decimals {
            format::fixed2(lang, x)
        } else {
            format::int(lang, x.abs().round() as u128)
        }
    };
    let signed = move |x: f64, decimals: bool, figure: &str| {
        let sign = if x > 0.0 {
            "+"
        } else if x < 0.0 {
            "−"
        } else {
            ""
        };
        format!("{sign}{}", show(x.abs(), decimals, figure))
    };
    view! {
        {clamped}
        // Focusable, so that a keyboard can scroll a table wider than the screen.
        <div class="table-scroll" tabindex="0" role="region" aria-labelledby="ab-heading">
        <table class="ab-table" data-testid="ab-table">
            <thead>
                <tr>
                    <th scope="col">{m(Msg::AbFigure)}</th>
                    <th scope="col">"A"</th>
                    <th scope="col">"B"</th>
                    <th scope="col">{m(Msg::AbChange)}</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(figure, msg, delta, decimals)| {
                        // One sign style for the change and its share: +, − (U+2212) or none.
                        let sign = |x: f64| if x > 0.0 { "+" } else if x < 0.0 { "−" } else { "" };
                        let rel = delta
                            .relative
                            .map(|r| format!(" ({}{})", sign(r), format::percent(lang, r.abs())))
                            .unwrap_or_default();
                        view! {
                            <tr
                                data-testid="ab-figure"
                                data-figure=figure
                                data-a=delta.a
                                data-b=delta.b
                                data-change=delta.change
                            >
                                <th scope="row">{m(msg)}</th>
                                <td>{show(delta.a, decimals, figure)}</td>
                                <td>{show(delta.b, decimals, figure)}</td>
                                <td>{format!("{}{rel}", signed(delta.change, decimals, figure))}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        </div>
    }
    .into_any()
}
