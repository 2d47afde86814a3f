//! The token strip: every token of the document as a span, coloured by chunk (alternating
//! colours), a marker with the chunk number where each chunk starts, and a dashed outline on
//! tokens that two or more chunks hold. The whitespace between tokens is shown as text.
//!
//! Pointing at a token (or focusing the strip and moving with the arrow keys) shows its
//! index, its text and how many chunks hold it in a read-out under the strip; each token also
//! has a `title` with the same numbers. The strip is one tab stop, not one per token: a
//! keyboard user moves inside it with the arrow keys, Home and End.
//!
//! Only the first [`STRIP_CAP`] tokens are rendered, with a note: the simulator is for small
//! documents, and thousands of spans would make every slider move slow.

use crate::simulator::messages::args as sim_msg;
use chunk_core::text_view::{segments, Segment};
use chunk_core::windows::{token_owners, window_starting_at, windows_holding};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::messages::Msg;
use super::model::SimState;
use crate::preview::hex_bytes;

/// Most tokens the strip renders.
pub const STRIP_CAP: usize = 2_000;

/// The token as the strip shows it: its whole characters, and the bytes of a character that
/// a token edge cuts (BPE) as hex, never as a replacement character.
fn token_text(text: &str, start: usize, end: usize) -> String {
    segments(text, start, end)
        .into_iter()
        .map(|s| match s {
            Segment::Text(t) => t,
            Segment::PartialChar { bytes, .. } => hex_bytes(&bytes),
        })
        .collect()
}

/// The strip, its legend and the read-out.
#[component]
pub fn Strip() -> impl IntoView {
    let sim = expect_context::<SimState>();
    let strip_ref = NodeRef::<leptos::html::Div>::new();
    let shown = move || sim.prepared.with(|p| p.n_tokens().min(STRIP_CAP));

    // The token spans, rebuilt when the chunks or the text change. A plain closure: the view
    // system re-runs it only when what it reads (prepared, chunking, metrics, language)
    // changes, and nothing else reads its output.
    let tokens = move || {
        let p = sim.prepared.get();
        let text = sim.text.with(|t| t.text.clone());
        let chunks = sim
            .chunking
            .with(|c| c.as_ref().map(|c| c.chunks.clone()).unwrap_or_default());
        let mult = sim.metrics.with(|m| {
            m.as_ref()
                .map(|m| m.multiplicity.clone())
                .unwrap_or_default()
        });
        let n = p.n_tokens().min(STRIP_CAP);
        let owners = token_owners(&chunks, n);
        let lang = sim.lang.get();
        let mut prev_end = 0;
        let mut views = Vec::with_capacity(n * 2);
        for (i, &(s, e)) in p.tokens.spans.iter().take(n).enumerate() {
            if s > prev_end {
                // Whitespace between tokens (simple tokenizer): plain text, in no chunk.
                views.push(
                    view! { <span class="sim-gap">{token_text(&text, prev_end, s)}</span> }
                        .into_any(),
                );
            }
            prev_end = e;
            if let Some(k) = window_starting_at(&chunks, i) {
                views.push(
                    view! { <span class="sim-cut" aria-hidden="true" data-chunk=format!("#{k}")></span> }
                        .into_any(),
                );
            }
            let m = mult.get(i).copied().unwrap_or(0);
            let owner = owners.get(i).copied().unwrap_or(0);
            let title = sim_msg::TokenTitle {
                index: &i.to_string(),
                n: &m.to_string(),
            }
            .fill(lang);
            views.push(
                view! {
                    <span
                        class="sim-tok"
                        class:odd={owner % 2 == 1}
                        class:multi={m >= 2}
                        class:current=move || sim.current_token.get() == Some(i)
                        data-testid="sim-token"
                        data-index=i.to_string()
                        data-chunk=owner.to_string()
                        data-multiplicity=m.to_string()
                        title=title
                    >
                        {token_text(&text, s, e)}
                    </span>
                }
                .into_any(),
            );
        }
        views
    };

    let on_point = move |ev: leptos::ev::MouseEvent| {
        if let Some(i) = index_of_target(ev.target()) {
            sim.current_token.set(Some(i));
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let last = shown().saturating_sub(1);
        let cur = sim.current_token.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => cur.map_or(0, |c| (c + 1).min(last)),
            "ArrowLeft" | "ArrowUp" => cur.map_or(0, |c| c.saturating_sub(1)),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        ev.prevent_default();
        if shown() == 0 {
            return;
        }
        sim.current_token.set(Some(next));
        if let Some(strip) = strip_ref.get_untracked() {
            keep_in_view(&strip, next);
        }
    };

    let capped = move || {
        let total = sim.prepared.with(|p| p.n_tokens());
        (total > STRIP_CAP).then(|| {
            view! {
                <p class="field-note" data-testid="sim-strip-capped">
                    {sim.tf(sim_msg::StripCapped { shown: &sim.int(STRIP_CAP), total: &sim.int(total) })}
                </p>
            }
        })
    };

    view! {
        <section class="sim-part" aria-labelledby="sim-strip-heading">
            <h3 id="sim-strip-heading">{move || sim.t(Msg::StripHeading)}</h3>
            <p class="legend">
                <span class="sim-tok">"ab"</span>
                <span class="sim-tok odd">"cd"</span>
                " "
                {move || sim.t(Msg::LegendChunks)}
                <span class="sep">" · "</span>
                <span class="sim-cut legend-cut" aria-hidden="true" data-chunk="#1"></span>
                " "
                {move || sim.t(Msg::LegendCut)}
                <span class="sep">" · "</span>
                <span class="sim-tok multi">"ef"</span>
                " "
                {move || sim.t(Msg::LegendMulti)}
            </p>
            {capped}
            <div
                class="sim-strip"
                node_ref=strip_ref
                data-testid="sim-strip"
                tabindex="0"
                role="group"
                aria-label=move || sim.t(Msg::StripLabel)
                aria-describedby="sim-readout"
                on:mouseover=on_point
                on:keydown=on_key
            >
                {tokens}
            </div>
            <Readout/>
        </section>
    }
}

/// The token index of the token element an event happened on, if any.
fn index_of_target(target: Option<web_sys::EventTarget>) -> Option<usize> {
    let el: web_sys::Element = target?.dyn_into().ok()?;
    let tok = el.closest("[data-testid=\"sim-token\"]").ok()??;
    tok.get_attribute("data-index")?.parse().ok()
}

/// Scrolls the strip (not the page) so that token `index` is visible.
fn keep_in_view(strip: &web_sys::HtmlDivElement, index: usize) {
    let Ok(Some(tok)) = strip.query_selector(&format!("[data-index=\"{index}\"]")) else {
        return;
    };
    let Ok(tok) = tok.dyn_into::<web_sys::HtmlElement>() else {
        return;
    };
    // The strip is position: relative, so it is the token's offsetParent.
    let (top, bottom) = (tok.offset_top(), tok.offset_top() + tok.offset_height());
    let (view_top, view_h) = (strip.scroll_top(), strip.client_height());
    if top < view_top {
        strip.set_scroll_top(top);
    } else if bottom > view_top + view_h {
        strip.set_scroll_top(bottom - view_h);
    }
}

/// The line that describes the current token.
#[component]
fn Readout() -> impl IntoView {
    let sim = expect_context::<SimState>();
    let text = move || {
        let Some(i) = sim.current_token.get() else {
            return sim.t(Msg::ReadoutIdle).to_string();
        };
        let p = sim.prepared.get();
        let Some(&(s, e)) = p.tokens.spans.get(i) else {
            return sim.t(Msg::ReadoutIdle).to_string();
        };
        let m = sim
            .metrics
            .with(|m| m.as_ref().and_then(|m| m.multiplicity.get(i).copied()))
            .unwrap_or(0);
        let holders: Vec<String> = sim.chunking.with(|c| {
            c.as_ref()
                .map(|c| {
                    windows_holding(&c.chunks, i)
                        .into_iter()
                        .map(|k| format!("#{k}"))
                        .collect()
                })
                .unwrap_or_default()
        });
        let token = sim.text.with(|t| token_text(&t.text, s, e));
        sim.tf(sim_msg::Readout {
            index: &i.to_string(),
            token: token.trim(),
            n: &m.to_string(),
            chunks: &holders.join(", "),
        })
    };
    view! {
        <p class="sim-readout" id="sim-readout" data-testid="sim-readout" aria-live="polite">
            {text}
        </p>
    }
}
