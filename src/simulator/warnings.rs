//! Every condition the simulator must not keep silent, in plain words: an empty text or one
//! with no token, a cut own text, a refused chunk size, a clamped overlap, oversize, dropped
//! and blank chunks, a sentence rule fooled by a full stop, and a query with no keyword.

use crate::simulator::messages::args as sim_msg;
use chunk_core::params::ParamsError;
use chunk_core::segment::sentences::SentenceRule;
use leptos::prelude::*;

use super::messages::Msg;
use super::model::{SimState, TokensState};

/// Most dropped-chunk messages listed one by one; the rest are counted in one more line.
const DROPPED_LISTED: usize = 5;
/// Most oversize-chunk messages listed one by one.
const OVERSIZE_LISTED: usize = 5;

/// One warning: a stable kind (in `data-kind`, for tests and styling) and its message.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What the warning is about, e.g. `"oversize"`.
    pub kind: &'static str,
    /// The message, in the UI language.
    pub text: String,
}

/// The current warnings, in the order the page lists them.
pub fn warnings(sim: SimState) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut push = |kind, text: String| out.push(Warning { kind, text });
    let text = sim.text.get();
    if let Some(full) = text.cut_from {
        push(
            "text-cut",
            sim.tf(sim_msg::WarnTextCut {
                shown: &sim.int(text.text.len()),
                total: &sim.int(full),
            }),
        );
    }
    if text.text.is_empty() {
        push("empty-text", sim.t(Msg::WarnEmptyText).to_string());
    }
    // A BPE encoding's tokens not there (yet): the line under the tokenizer select says so,
    // and there is nothing to warn about until they are.
    if sim.tokens_state.get() != TokensState::Ready {
        return out;
    }
    if !text.text.is_empty() && sim.prepared.with(|p| p.n_tokens() == 0) {
        push("no-tokens", sim.t(Msg::WarnNoTokens).to_string());
    }
    let chunking = match sim.chunking.get() {
        Ok(c) => c,
        Err(ParamsError::ZeroChunkSize) => {
            push("chunk-error", sim.t(Msg::WarnZeroSize).to_string());
            return out;
        }
    };
    if chunking.overlap_clamped {
        push(
            "overlap-clamped",
            sim.tf(sim_msg::WarnOverlapClamped {
                requested: &sim.int(sim.overlap.get()),
                size: &sim.int(chunking.chunk_size),
                used: &sim.int(chunking.chunk_overlap),
            }),
        );
    }
    for &i in chunking.oversize.iter().take(OVERSIZE_LISTED) {
        let len = chunking.chunks[i].len();
        push(
            "oversize",
            sim.tf(sim_msg::WarnOversize {
                chunk: &i.to_string(),
                tokens: &sim.int(len),
                size: &sim.int(chunking.chunk_size),
            }),
        );
    }
    if chunking.oversize.len() > OVERSIZE_LISTED {
        push(
            "oversize",
            sim.tf(sim_msg::WarnMoreOversize {
                n: &sim.int(chunking.oversize.len() - OVERSIZE_LISTED),
            }),
        );
    }
    for d in chunking.dropped.iter().take(DROPPED_LISTED) {
        push(
            "dropped",
            sim.tf(sim_msg::WarnDropped {
                start: &sim.int(d.window.start),
                end: &sim.int(d.window.end.saturating_sub(1)),
                inside: &d.inside.to_string(),
            }),
        );
    }
    if chunking.dropped.len() > DROPPED_LISTED {
        push(
            "dropped",
            sim.tf(sim_msg::WarnMoreDropped {
                n: &sim.int(chunking.dropped.len() - DROPPED_LISTED),
            }),
        );
    }
    let blank = sim
        .metrics
        .with(|m| m.as_ref().map(|m| m.blank_chunks.clone()))
        .unwrap_or_default();
    if !blank.is_empty() {
        let list: Vec<String> = blank.iter().map(|i| format!("#{i}")).collect();
        push(
            "blank",
            sim.tf(sim_msg::WarnBlank {
                chunks: &list.join(", "),
            }),
        );
    }
    if sim.rule.get() == SentenceRule::Terminators {
        if let Some(before) = sim.fooled.get() {
            push(
                "rule-fooled",
                sim.tf(sim_msg::WarnRuleFooled { before: &before }),
            );
        }
    }
    if sim.keywords.with(Vec::is_empty) {
        push("no-keywords", sim.t(Msg::NoKeywords).to_string());
    }
    out
}

/// The list of warnings (nothing at all when there is none).
#[component]
pub fn Warnings() -> impl IntoView {
    let sim = expect_context::<SimState>();
    // A Memo: the list is read by the `<ul>` and by its presence check, and rebuilding it
    // formats several numbers; it must also not re-render when a slider move changes nothing.
    let list = Memo::new(move |_| warnings(sim));
    move || {
        let items = list.get();
        (!items.is_empty()).then(|| {
            view! {
                <ul class="sim-warnings" data-testid="sim-warnings">
                    {items
                        .into_iter()
                        .map(|w| {
                            view! {
                                <li class="notice warn" data-testid="sim-warning" data-kind=w.kind>
                                    {w.text}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            }
        })
    }
}
