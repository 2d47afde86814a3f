//! The query-coverage table (SPEC §4): one row per chunk (number, token range, ✓/✗ per keyword,
//! k/n), and a summary of how many chunks hold every keyword. Chunks and tokens are numbered
//! from 0, like the token indices in the strip.

use crate::simulator::messages::args as sim_msg;
use leptos::prelude::*;

use super::messages::Msg;
use super::model::SimState;

/// Most rows rendered; a text cut into more chunks gets a note (the counts above the table
/// still cover every chunk).
pub const ROW_CAP: usize = 300;

/// The table and its summary.
#[component]
pub fn CoverageTable() -> impl IntoView {
    let sim = expect_context::<SimState>();

    let summary = move || {
        let (full, rows) = sim
            .coverage
            .with(|c| c.as_ref().map(|c| (c.chunks_with_all, c.counts.len())))?;
        let n = sim.keywords.with(Vec::len);
        (n > 0).then(|| {
            sim.tf(sim_msg::CoverageSummary {
                full: &sim.int(full),
                chunks: &sim.int(rows),
            })
        })
    };

    // Rebuilt when the coverage or the chunks change. A plain closure: it is the only reader.
    let body = move || {
        let Some(cov) = sim.coverage.get() else {
            return Vec::new();
        };
        let chunks = sim
            .chunking
            .with(|c| c.as_ref().map(|c| c.chunks.clone()).unwrap_or_default());
        let n = cov.keywords.len();
        let (held_word, missing_word) = (sim.t(Msg::Held), sim.t(Msg::NotHeld));
        chunks
            .iter()
            .zip(cov.held.iter().zip(&cov.counts))
            .take(ROW_CAP)
            .enumerate()
            .map(|(k, (w, (held, &hits)))| {
                let full = cov.holds_all(k);
                let range = format!("{}–{}", sim.int(w.start), sim.int(w.end.saturating_sub(1)));
                let cells = held
                    .iter()
                    .map(|&h| {
                        let (mark, word, class) = if h {
                            ("✓", held_word, "hit")
                        } else {
                            ("✗", missing_word, "miss")
                        };
                        view! {
                            <td class=class>
                                <span aria-hidden="true">{mark}</span>
                                <span class="visually-hidden">{word}</span>
                            </td>
                        }
                    })
                    .collect_view();
                view! {
                    <tr
                        data-testid="sim-row"
                        data-chunk=k.to_string()
                        data-start=w.start.to_string()
                        data-end=w.end.to_string()
                        data-hits=hits.to_string()
                        data-full=full.to_string()
                        class:full=full
                    >
                        <th scope="row">{format!("#{k}")}</th>
                        <td class="num">{range}</td>
                        {cells}
                        <td class="num">{format!("{hits}/{n}")}</td>
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    };

    let capped = move || {
        let rows = sim
            .coverage
            .with(|c| c.as_ref().map_or(0, |c| c.counts.len()));
        (rows > ROW_CAP).then(|| {
            view! {
                <p class="field-note">
                    {sim.tf(sim_msg::RowsCapped { shown: &sim.int(ROW_CAP), total: &sim.int(rows) })}
                </p>
            }
        })
    };

    view! {
        <section class="sim-part" aria-labelledby="sim-coverage-heading">
            <h3 id="sim-coverage-heading">{move || sim.t(Msg::CoverageHeading)}</h3>
            <p class="intro">{move || sim.t(Msg::CoverageIntro)}</p>
            <p class="sim-summary" data-testid="sim-coverage-summary">{summary}</p>
            // Focusable: it scrolls, and a keyboard must reach what is below its fold.
            <div class="sim-table-wrap" tabindex="0" role="region" aria-labelledby="sim-coverage-heading">
                <table class="sim-coverage" data-testid="sim-coverage">
                    <thead>
                        <tr>
                            <th scope="col">{move || sim.t(Msg::ColChunk)}</th>
                            <th scope="col">{move || sim.t(Msg::ColTokens)}</th>
                            {move || {
                                sim.keywords
                                    .get()
                                    .into_iter()
                                    .map(|k| view! { <th scope="col" class="kw">{k}</th> })
                                    .collect_view()
                            }}
                            <th scope="col">{move || sim.t(Msg::ColHits)}</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {capped}
        </section>
    }
}
