//! The simulator's metrics (SPEC §4): chunk count, total tokens, bloat factor, split sentences,
//! oversize and dropped chunks, how many chunks hold every keyword and the best chunk's k/n,
//! chunk lengths and measured overlaps. Each figure carries its raw value in `data-value`.

use crate::simulator::messages::args as sim_msg;
use leptos::prelude::*;

use crate::ui::Figure;

use super::messages::Msg;
use super::model::SimState;
use crate::format::fixed2;

/// Most entries of a per-chunk list (lengths, overlaps) written out; the rest is summarised.
const LIST_SHOWN: usize = 12;

/// `(raw, shown)` text of a figure.
type Shown = (String, String);

/// The metrics grid.
#[component]
pub fn Figures() -> impl IntoView {
    let sim = expect_context::<SimState>();
    // Each figure is a derived signal: a cheap projection of the `metrics` / `coverage` memos
    // plus the language, so a memo per figure would cost more than it saves.
    let count = move |f: fn(&chunk_core::sim::Metrics) -> usize| {
        Signal::derive(move || {
            let n = sim.metrics.with(|m| m.as_ref().map(f))?;
            Some((n.to_string(), sim.int(n)))
        })
    };
    let bloat = Signal::derive(move || {
        let b = sim
            .metrics
            .with(|m| m.as_ref().and_then(|m| m.bloat_factor))?;
        Some((b.to_string(), fixed2(sim.lang.get(), b)))
    });
    let full = Signal::derive(move || {
        let n = sim
            .coverage
            .with(|c| c.as_ref().map(|c| c.chunks_with_all))?;
        Some((n.to_string(), sim.int(n)))
    });
    let best = Signal::derive(move || {
        let best = sim.coverage.with(|c| c.as_ref().map(|c| c.best))?;
        let n = sim.keywords.with(Vec::len);
        let text = format!("{best}/{n}");
        Some((text.clone(), text))
    });
    let lengths = Signal::derive(move || {
        sim.metrics
            .with(|m| m.as_ref().map(|m| list(sim, &m.chunk_lengths)))
    });
    let overlaps = Signal::derive(move || {
        sim.metrics.with(|m| {
            m.as_ref()
                .map(|m| list(sim, m.measured_overlaps.get(1..).unwrap_or_default()))
        })
    });
    let split_note = Signal::derive(move || {
        let n = sim.metrics.with(|m| m.as_ref().map(|m| m.sentence_count))?;
        Some(sim.tf(sim_msg::OfSentences { n: &sim.int(n) }))
    });
    let total_note = Signal::derive(move || {
        let n = sim
            .metrics
            .with(|m| m.as_ref().map(|m| m.document_tokens))?;
        Some(sim.tf(sim_msg::DocumentTokens { n: &sim.int(n) }))
    });
    // The bloat factor is the calculator's "extra over the document" plus one: said beside it.
    let bloat_note = Signal::derive(move || {
        let extra = sim
            .metrics
            .with(|m| m.as_ref().and_then(|m| m.extra_over_document()))?;
        Some(sim.tf(sim_msg::BloatNote {
            extra: &crate::format::percent(sim.lang.get(), extra),
        }))
    });
    // Sentence packing's measured overlap is uneven ("20 · 0 · 0 · 12"): say why beside it.
    let overlap_note = Signal::derive(move || {
        let overlap = sim.overlap.get();
        (sim.strategy.get() == chunk_core::sim::Strategy::Sentence && overlap > 0).then(|| {
            sim.tf(sim_msg::OverlapWhySentence {
                overlap: &sim.int(overlap),
            })
        })
    });
    // Figures of an own text longer than the simulator's cap are of its first bytes only:
    // said above the figures themselves, not only among the warnings.
    let words = move |msg: Msg| Signal::derive(move || sim.t(msg).to_owned());
    let cut_note = move || {
        let text = sim.text.get();
        text.cut_from.map(|full| {
            let shown = text.text.len();
            view! {
                <p class="notice warn" data-testid="sim-figures-cut" data-value=shown>
                    {sim.tf(sim_msg::WarnTextCut { shown: &sim.int(shown), total: &sim.int(full) })}
                </p>
            }
        })
    };
    view! {
        {cut_note}
        <dl class="figures sim-figures" data-testid="sim-figures">
            <Figure testid="sim-out-chunks" label=words(Msg::OutChunks) value=count(|m| m.chunk_count) primary=true/>
            <Figure testid="sim-out-total" label=words(Msg::OutTotal) value=count(|m| m.total_tokens) note=total_note primary=true/>
            <Figure testid="sim-out-bloat" label=words(Msg::OutBloat) value=bloat note=bloat_note primary=true/>
            <Figure testid="sim-out-split-sentences" label=words(Msg::OutSplit) value=count(|m| m.split_sentences.len()) note=split_note/>
            <Figure testid="sim-out-full-chunks" label=words(Msg::OutFullChunks) value=full/>
            <Figure testid="sim-out-best-coverage" label=words(Msg::OutBestCoverage) value=best/>
            <Figure testid="sim-out-oversize" label=words(Msg::OutOversize) value=count(|m| m.oversize_chunks)/>
            <Figure testid="sim-out-dropped" label=words(Msg::OutDropped) value=count(|m| m.dropped_chunks)/>
            <Figure testid="sim-out-lengths" label=words(Msg::OutLengths) value=lengths wide=true/>
            <Figure testid="sim-out-overlap" label=words(Msg::OutOverlap) value=overlaps note=overlap_note wide=true/>
        </dl>
    }
}

/// A per-chunk list: raw = all values comma-separated; shown = the first [`LIST_SHOWN`]
/// joined by " · ", then "… (+N)"; "–" for an empty list.
fn list(sim: SimState, values: &[usize]) -> Shown {
    let raw = values
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if values.is_empty() {
        return (raw, "–".to_string());
    }
    let mut shown = values
        .iter()
        .take(LIST_SHOWN)
        .map(|&v| sim.int(v))
        .collect::<Vec<_>>()
        .join(" · ");
    if values.len() > LIST_SHOWN {
        shown.push_str(&format!(" … (+{})", sim.int(values.len() - LIST_SHOWN)));
    }
    (raw, shown)
}
