//! The comparison table: one row per strategy on the whole text, sortable by any column, with
//! the library and version each library row reproduces. Hooks: `compare` (the section, with
//! `data-state` = `idle` | `invalid` (a field the strategies need is wrong) | `loading` |
//! `running` | `done` | `failed`), `compare-progress`
//! (`data-value` = rows done, `data-total`), `compare-table`, `compare-sort` (one button per
//! column, `data-column`), and one `compare-row` per strategy with `data-strategy`,
//! `data-chunks`, `data-total-tokens`, `data-repeated-tokens`, `data-mean-tokens`,
//! `data-max-tokens`, `data-p95-tokens`, `data-over-limit` (chunks the chosen model reads as
//! more than its input limit, counted with its own tokenizer), `data-model-max-tokens`,
//! `data-truncated-tokens`, `data-limit-basis` (`own` | `proxy` | `stand-in` |
//! `chunk-tokens`), `data-split-sentences`, `data-structure-faults` (the sum of the parts on
//! its cell `compare-structure`: `data-code-cut`, `data-fence-only`, `data-separator-led`,
//! `data-heading-changed`; a `<tr>` takes at most 26 attributes),
//! `data-cost` (absent while pending; `data-refused` when the strategy refused;
//! `data-overlap-ignored` and the badge `compare-no-overlap` when the library has no overlap
//! and its chunks are shown without one; a semantic row's cost cell holds
//! `compare-semantic-cost` with `data-texts`, `data-tokens`, `data-cost`: its library's
//! embedding calls before the chunks),
//! `data-library` / `data-library-version` on library rows, `data-deferred` on a row left for
//! the user on a long text (its button: `compare-run-deferred`). The section's `data-engine` is
//! `loading` | `ready` | `failed`. `compare-unit-note` says what the sizes count, with
//! `data-unit` = `tokens` | `characters` | `model` (the chosen model's own tokens).

use crate::compare::messages::args as cmp_msg;
use chunk_core::analysis::protocol::Outcome;
use chunk_core::analysis::Summary;
use chunk_core::strategy::{SizeUnit, StrategyId};
use leptos::prelude::*;

use super::messages::{self, Msg};
use super::{refusal_text, strategy_name, CompareResults, CompareSettings, EngineStatus, RowState};
use crate::format;
use crate::i18n::Lang;
use crate::state::PageState;

/// A sortable column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The strategy's name.
    Strategy,
    /// Number of chunks.
    Chunks,
    /// Tokens embedded.
    Total,
    /// Repeated tokens.
    Repeated,
    /// Mean chunk tokens.
    Mean,
    /// 95th-percentile chunk tokens.
    P95,
    /// Largest chunk.
    Max,
    /// Chunks over the model's limit.
    OverLimit,
    /// Split sentences.
    Split,
    /// Structure faults ([`chunk_core::analysis::structure`]).
    Structure,
    /// Cost.
    Cost,
}

impl Column {
    /// Every column, in table order.
    pub const ALL: [Column; 11] = [
        Column::Strategy,
        Column::Chunks,
        Column::Total,
        Column::Repeated,
        Column::Mean,
        Column::P95,
        Column::Max,
        Column::OverLimit,
        Column::Split,
        Column::Structure,
        Column::Cost,
    ];

    /// The `data-column` name.
    pub fn name(self) -> &'static str {
        match self {
            Column::Strategy => "strategy",
            Column::Chunks => "chunks",
            Column::Total => "total-tokens",
            Column::Repeated => "repeated-tokens",
            Column::Mean => "mean-tokens",
            Column::P95 => "p95-tokens",
            Column::Max => "max-tokens",
            Column::OverLimit => "over-limit",
            Column::Split => "split-sentences",
            Column::Structure => "structure-faults",
            Column::Cost => "cost",
        }
    }

    fn header(self) -> Msg {
        match self {
            Column::Strategy => Msg::ColStrategy,
            Column::Chunks => Msg::ColChunks,
            Column::Total => Msg::ColTotal,
            Column::Repeated => Msg::ColRepeated,
            Column::Mean => Msg::ColMean,
            Column::P95 => Msg::ColP95,
            Column::Max => Msg::ColMax,
            Column::OverLimit => Msg::ColOverLimit,
            Column::Split => Msg::ColSplit,
            Column::Structure => Msg::ColStructure,
            Column::Cost => Msg::ColCost,
        }
    }

    /// The figure this column sorts by (`None` for the name column).
    fn value(self, s: &Summary) -> Option<f64> {
        Some(match self {
            Column::Strategy => return None,
            Column::Chunks => s.chunks as f64,
            Column::Total => s.total_tokens as f64,
            Column::Repeated => s.repeated_tokens as f64,
            Column::Mean => s.mean_tokens.unwrap_or(0.0),
            Column::P95 => s.p95_tokens as f64,
            Column::Max => s.max_tokens as f64,
            Column::OverLimit => s.over_limit as f64,
            Column::Split => s.split_sentences as f64,
            Column::Structure => s.structure.total() as f64,
            Column::Cost => s.cost,
        })
    }
}

/// The table's order: a column and its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort {
    /// The column.
    pub column: Column,
    /// Ascending when true.
    pub ascending: bool,
}

/// `rows` in `sort` order: rows with figures first (by the column, ties in strategy order),
/// then refused rows, then pending ones, each in strategy order.
pub fn sorted(rows: &[RowState], sort: Sort, lang: Lang) -> Vec<RowState> {
    let mut out = rows.to_vec();
    let rank = |r: &RowState| match &r.outcome {
        Some(Outcome::Figures { .. }) => 0,
        Some(Outcome::Refused { .. }) => 1,
        None => 2,
    };
    out.sort_by(|a, b| {
        rank(a).cmp(&rank(b)).then_with(|| {
            let by = match (&a.outcome, &b.outcome, sort.column) {
                (_, _, Column::Strategy) => strategy_name(lang, a.strategy)
                    .to_lowercase()
                    .cmp(&strategy_name(lang, b.strategy).to_lowercase()),
                (
                    Some(Outcome::Figures { summary: x, .. }),
                    Some(Outcome::Figures { summary: y, .. }),
                    c,
                ) => c
                    .value(x)
                    .partial_cmp(&c.value(y))
                    .unwrap_or(std::cmp::Ordering::Equal),
                _ => std::cmp::Ordering::Equal,
            };
            let by = if sort.ascending { by } else { by.reverse() };
            by.then(a.strategy.cmp(&b.strategy))
        })
    });
    out
}

/// The comparison section: status, progress and the table.
#[component]
pub fn CompareTable() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let results = expect_context::<CompareResults>();
    let models = expect_context::<crate::model::ModelSettings>();
    let sort = RwSignal::new(Sort {
        column: Column::Strategy,
        ascending: true,
    });
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let state = move || {
        let table = results.table.get();
        match results.engine.get() {
            EngineStatus::Failed(_) => "failed",
            _ if app.source.text.with(|t| t.is_empty()) => "idle",
            _ if app
                .derived
                .checked
                .with(|c| c.size_value.is_none() || c.requested_overlap.is_none()) =>
            {
                "invalid"
            }
            EngineStatus::Loading => "loading",
            EngineStatus::Ready if table.job == 0 => "loading",
            EngineStatus::Ready if table.complete() => "done",
            EngineStatus::Ready => "running",
        }
    };
    let done = move || {
        results
            .table
            .with(|t| t.rows.iter().filter(|r| r.outcome.is_some()).count())
    };
    let total = move || results.table.with(|t| t.rows.len());
    let status_text = move || {
        let lang = app.language.lang.get();
        match state() {
            "failed" => m(Msg::EngineFailed).to_owned(),
            "idle" => m(Msg::CompareIdle).to_owned(),
            "invalid" => m(Msg::FixFields).to_owned(),
            "loading" => m(Msg::EngineLoading).to_owned(),
            "done" => {
                let ms: f64 = results
                    .table
                    .with(|t| t.rows.iter().map(|r| r.millis).sum());
                cmp_msg::CompareDone {
                    n: &format::int(lang, total() as u64),
                    seconds: &format::fixed2(lang, ms / 1000.0),
                }
                .fill(lang)
            }
            _ => cmp_msg::CompareRunning {
                done: &format::int(lang, done() as u64),
                total: &format::int(lang, total() as u64),
            }
            .fill(lang),
        }
    };
    let sized_in = move || settings.sized_in.get();
    let unit_note = move || {
        let unit = sized_in();
        let enc = app.fields.encoding.get().name();
        let lang = app.language.lang.get();
        let note = match unit {
            SizeUnit::Tokens => cmp_msg::TableNoteTokens { encoding: enc }.fill(lang),
            SizeUnit::Model(v) => cmp_msg::TableNoteModel {
                tokenizer: v.label(),
                encoding: enc,
            }
            .fill(lang),
            SizeUnit::Characters => cmp_msg::TableNoteCharacters { encoding: enc }.fill(lang),
        };
        note + " " + &crate::model::limit_note(app.language.lang.get(), models.model.get())
    };
    view! {
        <section
            class="panel compare"
            data-testid="compare"
            data-state=state
            data-engine=move || match results.engine.get() {
                EngineStatus::Loading => "loading",
                EngineStatus::Ready => "ready",
                EngineStatus::Failed(_) => "failed",
            }
        >
            <h2 id="compare-heading">{move || m(Msg::CompareHeading)}</h2>
            <p class="hint">{move || m(Msg::CompareIntro)}</p>
            <super::StatusProgress
                status_testid="compare-status"
                progress_testid="compare-progress"
                text=Signal::derive(status_text)
                done=Signal::derive(done)
                total=Signal::derive(total)
                running=Signal::derive(move || state() == "running")
            />
            <p
                class="hint"
                data-testid="compare-unit-note"
                data-unit=move || match sized_in() {
                    SizeUnit::Tokens => "tokens",
                    SizeUnit::Characters => "characters",
                    SizeUnit::Model(_) => "model",
                }
            >
                {unit_note}
            </p>
            <p class="hint" data-testid="compare-legend">{move || m(Msg::TableLegend)}</p>
            // Focusable, so that a keyboard can scroll a table wider than the screen.
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="compare-heading">
                <table class="compare-table" data-testid="compare-table">
                    <thead>
                        <tr>
                            {Column::ALL
                                .into_iter()
                                .map(|c| {
                                    let aria = move || {
                                        let s = sort.get();
                                        if s.column != c {
                                            "none"
                                        } else if s.ascending {
                                            "ascending"
                                        } else {
                                            "descending"
                                        }
                                    };
                                    view! {
                                        <th scope="col" aria-sort=aria>
                                            <button
                                                type="button"
                                                class="sort"
                                                data-testid="compare-sort"
                                                data-column=c.name()
                                                on:click=move |_| {
                                                    sort.update(|s| {
                                                        if s.column == c {
                                                            s.ascending = !s.ascending;
                                                        } else {
                                                            *s = Sort { column: c, ascending: c == Column::Strategy };
                                                        }
                                                    })
                                                }
                                            >
                                                {move || m(c.header())}
                                            </button>
                                        </th>
                                    }
                                })
                                .collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed by everything a row shows: a result re-renders its own row
                        // only. Rebuilding every row for each result set and removed all their
                        // attributes, and the table's style and layout were most of the page's
                        // longest task after a paste.
                        <For
                            each=move || {
                                let lang = app.language.lang.get();
                                let priced = results.table.with(|t| t.priced);
                                let started = results.table.with(|t| t.deferred_job != 0);
                                let job = results.table.with(|t| t.job);
                                let rows = results.table.with(|t| sorted(&t.rows, sort.get(), lang));
                                rows.into_iter()
                                    .map(|row| RowKey { job, lang, priced, started, row })
                                    .collect::<Vec<_>>()
                            }
                            key=RowKey::key
                            children={move |k: RowKey| {
                                row_view(k.lang, k.row, k.priced, settings, results, k.started)
                            }}
                        />
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// A row with what its view depends on, keyed ([`RowKey::key`]) by the job, the strategy and
/// how often a reply filled the row ([`RowState::filed`]), the language chosen and the one its
/// words are shown in (a fetched language's words arrive after it is chosen), the price's
/// presence and whether the deferred rows were started.
#[derive(Clone)]
struct RowKey {
    job: u32,
    lang: Lang,
    priced: bool,
    started: bool,
    row: RowState,
}

impl RowKey {
    fn key(&self) -> (u32, StrategyId, u32, bool, Lang, Lang, bool, bool) {
        (
            self.job,
            self.row.strategy,
            self.row.filed,
            self.row.deferred,
            self.lang,
            crate::i18n::bundle::shown(self.lang),
            self.priced,
            self.started,
        )
    }
}

/// One `compare-row`.
fn row_view(
    lang: Lang,
    r: RowState,
    priced: bool,
    settings: CompareSettings,
    results: CompareResults,
    deferred_started: bool,
) -> impl IntoView {
    let m = |msg: Msg| messages::text(lang, msg);
    let id = r.strategy;
    let name = strategy_name(lang, id);
    let badge = badge(lang, id);
    let pick = move |_| settings.strategy.set(id);
    // One shape for every state (pending, figures, refused): attributes that do not apply are
    // absent (`None`), so a row that changes state never keeps a stale hook.
    let (figures, refused, ignored, embedding) = match r.outcome {
        Some(Outcome::Figures {
            summary,
            overlap_ignored,
            embedding,
            ..
        }) => (Some(summary), None, overlap_ignored, embedding),
        Some(Outcome::Refused { refusal }) => (None, Some(refusal), false, None),
        None => (None, None, false, None),
    };
    // The library has no overlap: its chunks are shown as its users get them, and said so.
    let no_overlap = ignored.then(|| {
        view! {
            <span class="badge" data-testid="compare-no-overlap" title=m(super::overlap_ignored_msg(id))>
                {m(Msg::NoOverlapBadge)}
            </span>
        }
    });
    let name_cell = view! {
        <th scope="row" class="strategy-cell">
            <button type="button" class="link" data-testid="compare-pick" on:click=pick>
                {name}
            </button>
            <span class="badge" class:approx=badge.1 data-testid="compare-badge">{badge.0}</span>
            {no_overlap}
        </th>
    };
    let pending = (figures.is_none() && refused.is_none()).then_some("true");
    let mean_attr = figures
        .as_ref()
        .and_then(|s| s.mean_tokens)
        .map(|m| m.to_string());
    let f = figures.clone();
    let attr = move |get: fn(&Summary) -> String| f.as_ref().map(get);
    let n = move |x: usize| format::int(lang, x as u64);
    let cells = match (&figures, &refused) {
        (Some(s), _) => {
            let mean = s
                .mean_tokens
                .map(|x| format::fixed2(lang, x))
                .unwrap_or_else(|| "—".into());
            let cost = if priced {
                format::usd(lang, s.cost)
            } else {
                "—".into()
            };
            // A semantic row pays for its sentence windows before its chunks: said under the
            // chunks' cost.
            let first = embedding.map(|e| {
                let line = cmp_msg::SemanticCost {
                    texts: &n(e.texts),
                    tokens: &n(e.tokens),
                }
                .fill(lang);
                let priced_line = if priced {
                    format!("{line} ({})", format::usd(lang, e.cost))
                } else {
                    line
                };
                view! {
                    <small class="semantic-cost" data-testid="compare-semantic-cost"
                        data-texts=e.texts data-tokens=e.tokens data-cost=e.cost>
                        {priced_line}
                    </small>
                }
            });
            view! {
                <td>{n(s.chunks)}</td>
                <td>{n(s.total_tokens)}</td>
                <td>{n(s.repeated_tokens)}</td>
                <td>{mean}</td>
                <td>{n(s.p95_tokens)}</td>
                <td>{n(s.max_tokens)}</td>
                <td title=over_limit_title(lang, s)>
                    {crate::model::approx_mark(s.limit_basis)}
                    {n(s.over_limit)}
                </td>
                <td title=cmp_msg::OfSentences { n: &n(s.sentences) }.fill(lang)>
                    {n(s.split_sentences)}
                </td>
                <td
                    title=structure_title(lang, s)
                    data-testid="compare-structure"
                    data-code-cut=s.structure.code_cut
                    data-fence-only=s.structure.fence_only
                    data-separator-led=s.structure.separator_led
                    data-heading-changed=s.structure.heading_changed
                >
                    {n(s.structure.total())}
                </td>
                <td>{cost}{first}</td>
            }
            .into_any()
        }
        (None, Some(refusal)) => view! {
            <td colspan="10" class="refused">{refusal_text(lang, refusal)}</td>
        }
        .into_any(),
        (None, None) if r.deferred && !deferred_started => view! {
            <td colspan="10" class="pending">
                {m(Msg::DeferredNote)}
                " "
                <button
                    type="button"
                    data-testid="compare-run-deferred"
                    on:click=move |_| results.requests.run_deferred()
                >
                    {m(Msg::RunDeferred)}
                </button>
            </td>
        }
        .into_any(),
        (None, None) => {
            view! { <td colspan="10" class="pending">{m(Msg::Pending)}</td> }.into_any()
        }
    };
    view! {
        <tr
            data-testid="compare-row"
            data-strategy=id.as_str()
            data-library=id.library().map(|l| l.package)
            data-library-version=id.library().map(|l| l.version)
            data-pending=pending
            data-deferred=r.deferred.then_some("true")
            data-refused=refused.as_ref().map(|r| r.kind.clone())
            data-overlap-ignored=ignored.then_some("true")
            data-chunks=attr(|s| s.chunks.to_string())
            data-total-tokens=attr(|s| s.total_tokens.to_string())
            data-repeated-tokens=attr(|s| s.repeated_tokens.to_string())
            data-mean-tokens=mean_attr
            data-p95-tokens=attr(|s| s.p95_tokens.to_string())
            data-max-tokens=attr(|s| s.max_tokens.to_string())
            data-over-limit=attr(|s| s.over_limit.to_string())
            data-model-max-tokens=attr(|s| s.model_max_tokens.to_string())
            data-truncated-tokens=attr(|s| s.truncated_tokens.to_string())
            data-limit-basis=attr(|s| crate::model::limit_basis_code(s.limit_basis).to_owned())
            data-split-sentences=attr(|s| s.split_sentences.to_string())
            data-structure-faults=attr(|s| s.structure.total().to_string())
            data-sentences=attr(|s| s.sentences.to_string())
            data-cost=attr(|s| s.cost.to_string())
            data-millis=r.millis
            class:over=figures.as_ref().is_some_and(|s| s.over_limit > 0)
        >
            {name_cell}
            {cells}
        </tr>
    }
}

/// The breakdown of a row's structure faults, for its cell's title.
fn structure_title(lang: Lang, s: &Summary) -> String {
    let n = |x: usize| format::int(lang, x as u64);
    let f = s.structure;
    cmp_msg::StructureTitle {
        code_cut: &n(f.code_cut),
        fence_only: &n(f.fence_only),
        separator_led: &n(f.separator_led),
        heading_changed: &n(f.heading_changed),
    }
    .fill(lang)
}

/// The badge of a strategy and whether it is approximate: what it is exact for, never more.
pub fn badge(lang: Lang, id: StrategyId) -> (String, bool) {
    let m = |msg: Msg| messages::text(lang, msg);
    match id.library() {
        Some(lib) if lib.exact => (
            cmp_msg::BadgeExact {
                package: lib.package,
                version: lib.version,
            }
            .fill(lang),
            false,
        ),
        Some(lib) => (
            cmp_msg::BadgeApprox {
                package: lib.package,
                version: lib.version,
            }
            .fill(lang),
            true,
        ),
        None => (m(Msg::BadgeOwn).to_owned(), false),
    }
}

/// The over-limit cell's tooltip in the comparison table: the tokens the model drops and the
/// largest chunk as it reads it.
pub fn over_limit_title(lang: Lang, s: &Summary) -> String {
    super::messages::args::OverLimitTitle {
        dropped: &format::int(lang, s.truncated_tokens as u64),
        largest: &format::int(lang, s.model_max_tokens as u64),
    }
    .fill(lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::analysis::refusal::Refusal;
    use chunk_core::strategy::StrategyError;

    fn row(strategy: StrategyId, chunks: Option<usize>) -> RowState {
        let summary = |c: usize| Summary {
            chunks: c,
            document_tokens: 100,
            total_tokens: 100 + c,
            repeated_tokens: 0,
            mean_tokens: Some(1.0),
            p95_tokens: 1,
            max_tokens: 1,
            min_chunk: None,
            last_tokens: 1,
            over_limit: 0,
            max_input_tokens: 8191,
            limit_basis: chunk_core::analysis::LimitBasis::Own,
            model_max_tokens: 1,
            model_p95_tokens: 1,
            truncated_tokens: 0,
            sentences: 3,
            split_sentences: 0,
            cost: 0.0,
            structure: Default::default(),
        };
        RowState {
            strategy,
            outcome: chunks.map(|c| Outcome::Figures {
                summary: summary(c),
                overlap_clamped: false,
                overlap_ignored: false,
                embedding: None,
            }),
            millis: 0.0,
            deferred: false,
            filed: 0,
        }
    }

    #[test]
    fn figures_sort_both_ways_and_refused_and_pending_rows_stay_last() {
        let mut refused = row(StrategyId::ChonkieRecursive, None);
        refused.outcome = Some(Outcome::Refused {
            refusal: Refusal::from(&StrategyError::Params(
                chunk_core::params::ParamsError::ZeroChunkSize,
            )),
        });
        let rows = vec![
            row(StrategyId::Fixed, Some(5)),
            refused,
            row(StrategyId::Semchunk, Some(9)),
            row(StrategyId::Markdown, None),
            row(StrategyId::Sentence, Some(5)),
        ];
        let ids = |s: Sort| -> Vec<StrategyId> {
            sorted(&rows, s, Lang::En)
                .into_iter()
                .map(|r| r.strategy)
                .collect()
        };
        use StrategyId as S;
        assert_eq!(
            ids(Sort {
                column: Column::Chunks,
                ascending: true
            }),
            [
                S::Fixed,
                S::Sentence,
                S::Semchunk,
                S::ChonkieRecursive,
                S::Markdown
            ]
        );
        assert_eq!(
            ids(Sort {
                column: Column::Total,
                ascending: false
            }),
            [
                S::Semchunk,
                S::Fixed,
                S::Sentence,
                S::ChonkieRecursive,
                S::Markdown
            ]
        );
    }

    #[test]
    fn the_badge_names_the_library_and_version_it_is_exact_for() {
        let (text, approx) = badge(Lang::En, StrategyId::LangchainRecursive);
        assert!(
            text.contains("langchain-text-splitters") && text.contains("1.1.3"),
            "{text}"
        );
        assert!(!approx);
        for id in StrategyId::all() {
            for lang in Lang::ALL {
                assert!(!badge(lang, id).0.contains('{'));
            }
        }
    }
}
