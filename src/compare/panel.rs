//! The chosen strategy: the `strategy` select, the library's own defaults, its figures, the
//! chunk-size histogram (SVG, limit line), the smallest and last chunk called out, its chunks
//! (20 at a time) with byte, character and line positions, token count, heading path and why
//! each ended, the JSONL / CSV export, and the snippet that reproduces it with the library.
//!
//! Hooks: `strategy` (select; option values are strategy ids), `strategy-defaults`,
//! `strategy-parameters` / `strategy-parameter` (`data-name`), `strategy-figures`, `histogram` / `histogram-bar` (`data-from`, `data-to`, `data-count`) /
//! `histogram-limit`, `smallest-chunk` and `last-chunk` (`data-index`, `data-tokens`),
//! `strategy-chunks` (`data-strategy`, `data-total` chunks), one `chunk` per chunk (`data-index`, `data-byte-start`, `data-byte-end`,
//! `data-char-start`, `data-char-end`, `data-line-start`, `data-line-end`, `data-tokens`,
//! `data-reason`, and for a PDF's text `data-page-start`, `data-page-end`) holding `chunk-pages`
//! (a PDF's text only) and `chunk-text` (exactly the chunk's text), `show-more`, `export-jsonl`,
//! `export-csv`, `snippet`, `snippet-copy`, `strategy-refused`, `overlap-ignored` (the library
//! has no overlap: its chunks without one), `document-view` / `doc-span` (the whole document,
//! each chunk in place: [`DocumentView`]); each `chunk` also has `data-overlap-bytes` and marks
//! its shared start (`chunk-shared`), `data-code-info` and the badge `chunk-code-part` on a
//! piece of a fenced code block, `data-prefix-over-budget` and `chunk-prefix-over-budget` where
//! the heading prefix was left out; `structure-options` holds `heading-prefix` and
//! `fence-repair` (the markdown strategy's options); `semantic-waiting` (`data-done`,
//! `data-queued`) while a semantic strategy's chunks wait for their sentence embeddings.
//!
//! With the fixed strategy in tokens the page's classic preview (overlaps highlighted, cut
//! characters as bytes) shows the chunks instead (`crate::preview`).

use crate::compare::messages::args as cmp_msg;
use chunk_core::analysis::export::Row;
use chunk_core::analysis::histogram::Histogram;
use chunk_core::analysis::layout::{view_blocks, DocSpan, VIEW_BLOCK_BYTES};
use chunk_core::analysis::protocol::{ExportFormat, Outcome};
use chunk_core::strategy::{HeadingPrefix, SizeUnit, StrategyId};
use leptos::prelude::*;

use super::messages::{self, Msg};
use super::table::badge;
use super::{refusal_text, strategy_name, CompareResults, CompareSettings};
use crate::format;
use crate::i18n::Lang;
use crate::preview::{shown_end, Preview};
use crate::state::PageState;

/// True when the classic preview shows the chosen strategy's chunks.
pub fn classic_preview(strategy: StrategyId, unit: SizeUnit) -> bool {
    strategy == StrategyId::Fixed && unit == SizeUnit::Tokens
}

/// The strategy panel and, below it, the chosen strategy's chunks.
#[component]
pub fn StrategyPanel() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    // "Use the library's defaults" fills the form.
    let fields = expect_context::<crate::state::FieldsWriter>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let on_pick = move |ev| {
        if let Ok(id) = event_target_value(&ev).parse::<StrategyId>() {
            settings.strategy.set(id);
        }
    };
    let defaults = move || settings.strategy.get().library_defaults();
    let use_defaults = move |_| {
        if let Some(d) = settings.strategy.get_untracked().library_defaults() {
            // The fields never follow their signals (what was typed is never replaced), so the
            // boxes are set too: this is the user's own request.
            fields.fill_size(d.chunk_size, d.chunk_overlap);
            settings.unit.set(d.unit);
        }
    };
    let defaults_text = move || {
        defaults().map(|d| {
            let lang = app.language.lang.get();
            cmp_msg::LibraryDefaults {
                chunk_size: &format::int(lang, d.chunk_size as u64),
                chunk_overlap: &format::int(lang, d.chunk_overlap as u64),
                unit: unit_name(lang, d.unit),
            }
            .fill(lang)
        })
    };
    let unsupported = move || {
        let id = settings.strategy.get();
        let unit = settings.sized_in.get();
        (!id.supports(unit)).then(|| m(Msg::UnitNotSupported))
    };
    view! {
        <section class="panel strategy-panel" data-testid="strategy-panel">
            <h2>{move || m(Msg::PanelHeading)}</h2>
            <div class="field-row strategy-pick">
                <label for="strategy">{move || m(Msg::StrategyLabel)}</label>
                <select id="strategy" data-testid="strategy" on:change=on_pick>
                    {move || super::Table::listed(settings.semantic.get())
                        .into_iter()
                        .map(|id| {
                            view! {
                                <option
                                    value=id.as_str()
                                    selected=move || settings.strategy.get() == id
                                >
                                    {move || strategy_name(app.language.lang.get(), id)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <span class="badge" data-testid="strategy-badge">
                    {move || badge(app.language.lang.get(), settings.strategy.get()).0}
                </span>
            </div>
            {move || {
                defaults_text()
                    .map(|t| {
                        view! {
                            <p class="hint">
                                {t}
                                " "
                                <button type="button" data-testid="strategy-defaults" on:click=use_defaults>
                                    {m(Msg::UseDefaults)}
                                </button>
                            </p>
                        }
                    })
            }}
            {move || unsupported().map(|t| view! { <p class="notice warn">{t}</p> })}
            <StructureOptions/>
            <Parameters/>
            <SemanticWaiting/>
            <Figures/>
            <SemanticCurve/>
            <HistogramView/>
            <Snippet/>
        </section>
        {move || {
            if classic_preview(settings.strategy.get(), settings.sized_in.get()) {
                view! { <Preview/> }.into_any()
            } else {
                view! { <StrategyChunks/> }.into_any()
            }
        }}
        <DocumentView/>
    }
}

/// The whole document with each of the chosen strategy's chunks coloured in place (four
/// colours in turn), the text two chunks share marked as shared, and the text no chunk holds
/// struck through: the selection's layout (`chunk_core::analysis::layout::document_spans`),
/// the first `LAYOUT_BYTES` of the document, in blocks of about `VIEW_BLOCK_BYTES` that end
/// lines (`view_blocks`), each laid out only near the viewport. Hooks: `document-view`
/// (`data-strategy`, `data-shown-bytes`, `data-total-bytes`), one `doc-span` per span, or per
/// part of a span that a block's end cuts (`data-start`, `data-end`, `data-chunk`,
/// `data-covers`); the spans' texts in order are the document's bytes shown.
#[component]
fn DocumentView() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Msg| messages::text(lang(), msg);
    // The selection's layout, once per selection (a language change rebuilds no span, only
    // their titles).
    let layout = Memo::new(move |_| {
        results.selection.with(|s| {
            s.as_ref()
                .filter(|s| !s.layout.is_empty())
                .map(|s| (s.strategy, s.layout.clone()))
        })
    });
    // The layout in display blocks, once per layout.
    let blocks = Memo::new(move |_| {
        layout.with(|l| {
            l.as_ref().map_or_else(Vec::new, |(_, spans)| {
                app.source
                    .text
                    .with_untracked(|t| view_blocks(spans, t, VIEW_BLOCK_BYTES))
            })
        })
    });
    let shown =
        move || layout.with(|l| l.as_ref().and_then(|(_, s)| s.last()).map_or(0, |s| s.end));
    let total = move || app.source.text.with(|t| t.len());
    // A layout of another text (the selection of the text before) is not shown.
    let visible = move || layout.with(Option::is_some) && shown() <= total();
    let cut = move || {
        let (shown, total) = (shown(), total());
        (shown < total).then(|| {
            let l = lang();
            let n = |x: usize| format::int(l, x as u64);
            view! {
                <p class="hint" data-testid="document-view-cut">
                    {cmp_msg::DocumentViewCut { shown: &n(shown), total: &n(total) }.fill(l)}
                </p>
            }
        })
    };
    let span = move |s: DocSpan| {
        let l = app.language.lang.get_untracked();
        let colour = match s.chunk {
            Some(c) => ["doc-span c0", "doc-span c1", "doc-span c2", "doc-span c3"][c % 4],
            None => "doc-span",
        };
        let (shared, uncovered) = (s.covers >= 2, s.covers == 0);
        // The title follows the language (and a language's words arriving); the body is built
        // once per layout.
        let title = move || {
            let l = app.language.lang.get();
            match s.chunk {
                Some(c) if shared => cmp_msg::DocSpanShared {
                    index: &format::int(l, c as u64),
                }
                .fill(l),
                Some(c) => cmp_msg::DocSpanChunk {
                    index: &format::int(l, c as u64),
                }
                .fill(l),
                None => messages::text(l, Msg::DocSpanNone).to_owned(),
            }
        };
        let body = app
            .source
            .text
            .with_untracked(|t| crate::preview::render_segments(l, t, s.start, s.end));
        view! {
            <span
                class=colour
                class:shared=shared
                class:uncovered=uncovered
                title=title
                data-testid="doc-span"
                data-start=s.start
                data-end=s.end
                data-chunk=s.chunk
                data-covers=s.covers
            >
                {body}
            </span>
        }
    };
    view! {
        <section
            class="panel document-view"
            class:hidden=move || !visible()
            data-testid="document-view"
            data-strategy=move || layout.with(|l| l.as_ref().map(|(id, _)| id.as_str()))
            data-shown-bytes=shown
            data-total-bytes=total
            aria-labelledby="document-view-heading"
        >
            <h2 id="document-view-heading">{move || m(Msg::DocumentViewHeading)}</h2>
            <p class="hint">{move || m(Msg::DocumentViewNote)}</p>
            {cut}
            <div class="doc-view" tabindex="0" role="region" aria-labelledby="document-view-heading">
                <For
                    each=move || {
                        if visible() { blocks.get() } else { Vec::new() }
                    }
                    key={|b: &Vec<DocSpan>| b.clone()}
                    children={move |b: Vec<DocSpan>| {
                        view! { <div class="doc-block">{b.into_iter().map(span).collect_view()}</div> }
                    }}
                />
            </div>
        </section>
    }
}

fn unit_name(lang: Lang, unit: SizeUnit) -> &'static str {
    messages::text(
        lang,
        match unit {
            SizeUnit::Tokens | SizeUnit::Model(_) => Msg::UnitTokens,
            SizeUnit::Characters => Msg::UnitCharacters,
        },
    )
}

/// The library's own parameters as the strategy ran, under the library's names.
#[component]
fn Parameters() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    move || {
        let lang = app.language.lang.get();
        let params = results
            .selection
            .with(|s| s.as_ref().map(|s| s.parameters.clone()))?;
        (!params.is_empty()).then(|| {
            view! {
                <details class="parameters" open>
                    <summary>{messages::text(lang, Msg::ParametersHeading)}</summary>
                    <dl data-testid="strategy-parameters">
                        {params
                            .into_iter()
                            .map(|(name, value)| {
                                let shown = name.clone();
                                view! {
                                    <div data-testid="strategy-parameter" data-name=name>
                                        <dt><code>{shown}</code></dt>
                                        <dd><code>{value}</code></dd>
                                    </div>
                                }
                            })
                            .collect_view()}
                    </dl>
                </details>
            }
        })
    }
}

/// While a semantic strategy's chunks wait for their sentence embeddings (no selection yet):
/// what the embedding worker is doing (`semantic-waiting`, `data-done` and `data-queued` texts
/// while it embeds), so that the panel is not blank.
#[component]
fn SemanticWaiting() -> impl IntoView {
    use crate::embed::{EmbedRuntime, EmbedStatus};
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let results = expect_context::<CompareResults>();
    let embed = expect_context::<EmbedRuntime>();
    move || {
        let waiting = settings.semantic.get()
            && settings.strategy.get().needs_embeddings()
            && results.selection.with(Option::is_none)
            && app.source.text.with(|t| !t.is_empty());
        if !waiting {
            return None;
        }
        let lang = app.language.lang.get();
        let counts = match embed.status.get() {
            EmbedStatus::Off | EmbedStatus::Loading { .. } => None,
            EmbedStatus::Embedding { done, queued } => Some((done, queued)),
            _ => Some((embed.embedded.get(), 0)),
        };
        let text = match counts {
            None => messages::text(lang, Msg::SemanticWaitingModel).to_owned(),
            Some((done, queued)) => cmp_msg::SemanticWaiting {
                done: &format::int(lang, done),
                queued: &format::int(lang, queued),
            }
            .fill(lang),
        };
        let (done, queued) = (counts.map(|c| c.0), counts.map(|c| c.1));
        Some(view! {
            <p class="hint" data-testid="semantic-waiting" role="status" data-done=done data-queued=queued>
                {text}
            </p>
        })
    }
}

/// A semantic strategy's similarity curve along the text (`semantic-curve`): the values at
/// each gap between sentences, the threshold line, the topic-shift cuts and the cuts the size
/// forced, all from the worker's [`chunk_core::analysis::protocol::SemanticView`]; the page
/// only scales them to the drawing. Under it, the value range (`semantic-curve-axes`,
/// `data-lo`, `data-hi`: the bottom and top of the drawing) and a key to its marks
/// (`semantic-curve-key`, one item per kind of mark drawn).
#[component]
fn SemanticCurve() -> impl IntoView {
    use chunk_core::strategy::curve::CurveKind;
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    move || {
        let lang = app.language.lang.get();
        let sel = results.selection.get()?;
        let view = sel.semantic?;
        let curve = &view.curve;
        let (w, h, pad) = (1000.0, 120.0, 8.0);
        let x = |byte: usize| byte as f64 / view.text_bytes.max(1) as f64 * w;
        let values = curve.points.iter().map(|p| p.value).chain(curve.threshold);
        let (lo, hi) = values
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
                (l.min(v), h.max(v))
            });
        let span = if hi > lo { hi - lo } else { 1.0 };
        let y = |v: f64| h - pad - (v - lo) / span * (h - 2.0 * pad);
        let line: Vec<String> = curve
            .points
            .iter()
            .filter(|p| p.value.is_finite())
            .map(|p| format!("{:.1},{:.1}", x(p.byte), y(p.value)))
            .collect();
        let threshold = curve.threshold.filter(|t| t.is_finite());
        let legend = match (curve.points.is_empty(), curve.kind, threshold) {
            (true, ..) => messages::text(lang, Msg::CurveNone).to_owned(),
            // Measured, but no threshold came of it (no smoothed minimum for chonkie; a
            // window the model read nothing of for LlamaIndex): no topic shift.
            (false, _, None) => messages::text(lang, Msg::CurveNoShift).to_owned(),
            (false, CurveKind::Similarity, Some(t)) => cmp_msg::CurveLegendChonkie {
                threshold: &format::fixed4(lang, t),
            }
            .fill(lang),
            (false, _, Some(t)) => cmp_msg::CurveLegend {
                threshold: &format::fixed4(lang, t),
            }
            .fill(lang),
        };
        let topic = &view.topic_cuts;
        let kind = match curve.kind {
            CurveKind::Distance => "distance",
            CurveKind::DistanceGradient => "distance-gradient",
            CurveKind::Similarity => "similarity",
        };
        // One entry of the key: a swatch drawn with the chart's own classes, and its words.
        let key = |swatch: AnyView, msg: Msg| {
            view! {
                <li>
                    <svg viewBox="0 0 18 10" width="18" height="10" aria-hidden="true">{swatch}</svg>
                    " "
                    {messages::text(lang, msg)}
                </li>
            }
        };
        let marks = |bytes: &[usize], class: &'static str| {
            bytes
                .iter()
                .map(|&b| {
                    let xb = x(b);
                    view! { <line class=class x1=xb x2=xb y1=0.0 y2=h/> }
                })
                .collect_view()
        };
        Some(view! {
            <figure class="semantic-curve" data-testid="semantic-curve" data-kind=kind
                data-points=curve.points.len() data-threshold=threshold.map(|t| t.to_string())
                data-cuts=topic.len() data-size-cuts=view.size_cuts.len()>
                <figcaption>{messages::text(lang, Msg::CurveHeading)}</figcaption>
                <svg viewBox=format!("0 0 {w} {h}") preserveAspectRatio="none" role="img"
                    aria-label=legend.clone()>
                    {marks(topic, "cut-topic")}
                    {marks(&view.size_cuts, "cut-size")}
                    {threshold.map(|t| view! {
                        <line class="threshold" x1=0.0 x2=w y1=y(t) y2=y(t)/>
                    })}
                    <polyline class="values" points=line.join(" ")/>
                </svg>
                <p class="hint" data-testid="semantic-curve-axes" data-lo=lo.is_finite().then_some(lo)
                    data-hi=hi.is_finite().then_some(hi)>
                    {(lo.is_finite() && hi.is_finite()).then(|| cmp_msg::CurveAxes {
                        lo: &format::fixed4(lang, lo),
                        hi: &format::fixed4(lang, hi),
                    }.fill(lang))}
                </p>
                <ul class="curve-key" data-testid="semantic-curve-key">
                    {key(view! { <polyline class="values" points="0,5 6,2 12,8 18,4"/> }.into_any(), Msg::CurveKeyValues)}
                    {threshold.map(|_| key(view! { <line class="threshold" x1=0 x2=18 y1=5 y2=5/> }.into_any(), Msg::CurveKeyThreshold))}
                    {(!topic.is_empty()).then(|| key(view! { <line class="cut-topic" x1=9 x2=9 y1=0 y2=10/> }.into_any(), Msg::CurveKeyTopic))}
                    {(!view.size_cuts.is_empty()).then(|| key(view! { <line class="cut-size" x1=9 x2=9 y1=0 y2=10/> }.into_any(), Msg::CurveKeySize))}
                </ul>
                <p class="hint">{legend}</p>
            </figure>
        })
    }
}

/// The chosen strategy's figures, or its refusal.
#[component]
fn Figures() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    move || {
        let lang = app.language.lang.get();
        let m = |msg: Msg| messages::text(lang, msg);
        let sel = results.selection.get()?;
        Some(match sel.outcome {
            Outcome::Figures {
                summary: s,
                overlap_clamped,
                overlap_ignored,
                embedding,
            } => {
                let n = |x: usize| format::int(lang, x as u64);
                let cost = embedding.map(|e| {
                    let line = cmp_msg::SemanticCost {
                        texts: &n(e.texts),
                        tokens: &n(e.tokens),
                    }
                    .fill(lang);
                    view! {
                        <p class="note" data-testid="semantic-cost" data-texts=e.texts
                            data-tokens=e.tokens data-cost=e.cost>{line}</p>
                    }
                });
                let clamped = overlap_clamped
                    .then(|| view! { <p class="notice">{m(Msg::OverlapClampedHere)}</p> });
                let ignored = overlap_ignored.then(|| {
                    view! { <p class="notice" data-testid="overlap-ignored">{m(super::overlap_ignored_msg(sel.strategy))}</p> }
                });
                view! {
                    <dl class="figures" data-testid="strategy-figures" data-chunks=s.chunks data-total-tokens=s.total_tokens>
                        <div><dt>{m(Msg::ColChunks)}</dt><dd>{n(s.chunks)}</dd></div>
                        <div><dt>{m(Msg::ColTotal)}</dt><dd>{n(s.total_tokens)}</dd></div>
                        <div><dt>{m(Msg::ColRepeated)}</dt><dd>{n(s.repeated_tokens)}</dd></div>
                        <div><dt>{m(Msg::ColP95)}</dt><dd>{n(s.p95_tokens)}</dd></div>
                        <div><dt>{m(Msg::ColMax)}</dt><dd>{n(s.max_tokens)}</dd></div>
                        <div><dt>{m(Msg::ColSplit)}</dt><dd>{n(s.split_sentences)}</dd></div>
                    </dl>
                    {cost}
                    {clamped}
                    {ignored}
                }
                .into_any()
            }
            Outcome::Refused { refusal } => view! {
                <p class="notice warn" data-testid="strategy-refused" data-refused=refusal.kind.clone()>
                    {refusal_text(lang, &refusal)}
                </p>
            }
            .into_any(),
        })
    }
}

/// Width and height of the histogram's drawing, in SVG user units.
const SVG_W: f64 = 600.0;
const SVG_H: f64 = 160.0;

/// The histogram of chunk tokens, the limit line, and the smallest and last chunk.
#[component]
fn HistogramView() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    move || {
        let lang = app.language.lang.get();
        let h = results.selection.get()?.histogram?;
        let model = expect_context::<crate::model::ModelSettings>().model.get();
        Some(histogram_view(lang, model, h))
    }
}

fn histogram_view(
    lang: Lang,
    model: Option<&'static chunk_core::models::EmbeddingModel>,
    h: Histogram,
) -> impl IntoView {
    let m = |msg: Msg| messages::text(lang, msg);
    let n = |x: usize| format::int(lang, x as u64);
    let bins = h.bins.len().max(1) as f64;
    let bar_w = SVG_W / bins;
    let top = h.bins.last().map_or(1, |b| b.to + 1) as f64;
    let max = h.max_count.max(1) as f64;
    let bars = h
        .bins
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let height = SVG_H * b.count as f64 / max;
            let title = cmp_msg::BarTitle {
                count: &n(b.count),
                from: &n(b.from),
                to: &n(b.to),
            }
            .fill(lang);
            view! {
                <rect
                    data-testid="histogram-bar"
                    data-from=b.from
                    data-to=b.to
                    data-count=b.count
                    x=i as f64 * bar_w + 1.0
                    y=SVG_H - height
                    width=(bar_w - 2.0).max(1.0)
                    height=height
                >
                    <title>{title}</title>
                </rect>
            }
        })
        .collect_view();
    // Drawn where some chunk is over the limit (then the limit lies inside the scale).
    let limit = h.over_limit > 0;
    let limit_x = SVG_W * h.limit as f64 / top;
    let limit_line = limit.then(|| {
        view! {
            <line data-testid="histogram-limit" class="limit" x1=limit_x x2=limit_x y1=0 y2=SVG_H></line>
        }
    });
    // No limit line in the sizing tokens (no model, or one that counts with a tokenizer of its
    // own): the model's limit in words.
    let limit_note = if h.limit == usize::MAX {
        crate::model::limit_note(lang, model)
    } else {
        let limit_shown = n(h.limit);
        if limit {
            cmp_msg::LimitDrawn {
                limit: &limit_shown,
            }
            .fill(lang)
        } else {
            cmp_msg::LimitAbove {
                limit: &limit_shown,
            }
            .fill(lang)
        }
    };
    let called =
        |testid: &'static str, last: bool, c: Option<chunk_core::analysis::histogram::Called>| {
            c.map(|c| {
                view! {
                    <li data-testid=testid data-index=c.index data-tokens=c.tokens>
                        {{
                            let (index, tokens) = (n(c.index), n(c.tokens));
                            if last {
                                cmp_msg::LastChunk { index: &index, tokens: &tokens }.fill(lang)
                            } else {
                                cmp_msg::SmallestChunk { index: &index, tokens: &tokens }.fill(lang)
                            }
                        }}
                    </li>
                }
            })
        };
    let tiny = (h.tiny > 0).then(|| {
        view! { <li data-testid="tiny-chunks" data-value=h.tiny>{cmp_msg::TinyChunks { n: &n(h.tiny) }.fill(lang)}</li> }
    });
    view! {
        <figure class="histogram">
            <svg
                data-testid="histogram"
                viewBox=format!("0 0 {SVG_W} {SVG_H}")
                role="img"
                aria-label=m(Msg::HistogramTitle)
                preserveAspectRatio="none"
            >
                {bars}
                {limit_line}
            </svg>
            <div class="axis" aria-hidden="true">
                <span>"0"</span>
                <span data-testid="histogram-top">{n(top as usize)}</span>
            </div>
            <figcaption>
                {cmp_msg::HistogramCaption { width: &n(h.bin_width), max: &n(h.max_count) }.fill(lang)}
                " "
                {limit_note}
            </figcaption>
            <ul class="called-out">
                {called("smallest-chunk", false, h.smallest)}
                {called("last-chunk", true, h.last)}
                {tiny}
            </ul>
        </figure>
    }
}

/// The snippet that reproduces the chosen strategy with its library, and the export buttons.
#[component]
fn Snippet() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let has_chunks = move || {
        results.selection.with(|s| {
            s.as_ref()
                .is_some_and(|s| matches!(s.outcome, Outcome::Figures { .. }))
        })
    };
    let code = move || {
        results
            .selection
            .with(|s| s.as_ref().and_then(|s| s.snippet.clone()))
    };
    let copy = move |_| {
        if let Some(s) = code() {
            crate::browser::copy_text(&s.file_text());
        }
    };
    view! {
        <div class="export-row" class:hidden=move || !has_chunks()>
            <button type="button" data-testid="export-jsonl" on:click=move |_| results.requests.export(ExportFormat::Jsonl)>
                {move || m(Msg::ExportJsonl)}
            </button>
            <button type="button" data-testid="export-csv" on:click=move |_| results.requests.export(ExportFormat::Csv)>
                {move || m(Msg::ExportCsv)}
            </button>
            <span class="hint">{move || m(Msg::ExportNote)}</span>
        </div>
        {move || {
            code()
                .map(|s| {
                    view! {
                        <div class="snippet">
                            <h3 id="snippet-heading">{m(Msg::SnippetHeading)}</h3>
                            <p class="hint">{m(Msg::SnippetNote)}</p>
                            <pre data-testid="snippet" data-language=s.language.clone() tabindex="0" role="region" aria-labelledby="snippet-heading"><code>{s.file_text()}</code></pre>
                            <button type="button" data-testid="snippet-copy" on:click=copy>{m(Msg::Copy)}</button>
                        </div>
                    }
                })
        }}
    }
}

/// The chosen strategy's chunks, [`super::ROWS_PAGE`] at a time.
#[component]
fn StrategyChunks() -> impl IntoView {
    let app = PageState::from_context();
    let results = expect_context::<CompareResults>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let shown = move || results.chunks.with(|c| c.rows.len());
    let total = move || results.chunks.with(|c| c.total);
    view! {
        <section
            class="panel preview"
            data-testid="strategy-chunks"
            data-strategy=move || results.selection.with(|s| s.as_ref().map(|s| s.strategy.as_str()))
            data-job=move || results.chunks.with(|c| c.job)
            data-total=total
        >
            <h2>{move || m(Msg::ChunksHeading)}</h2>
            <p class="hint legend">
                <mark class="overlap">{move || m(Msg::ChunkOverlapLegend)}</mark>
            </p>
            <crate::preview::SkipChunks target="ab-heading"/>
            {move || {
                app.source.text.with(|t| t.is_empty()).then(|| view! { <p class="hint">{m(Msg::CompareIdle)}</p> })
            }}
            <ol class="chunks">
                // Keyed by the language too: a chunk card's words are built once.
                <For
                    each=move || {
                        let lang = app.language.lang.get();
                        // The model's limit, for the chunks' model-token counts (none without a
                        // model).
                        let limit = results.selection.with(|s| match s.as_ref().map(|s| &s.outcome) {
                            Some(Outcome::Figures { summary, .. }) => Some(summary.max_input_tokens),
                            _ => None,
                        });
                        // The product's own strategies change a text only by its options.
                        let own = results.selection.with(|s| s.as_ref().is_some_and(|s| s.strategy.library().is_none()));
                        let page = results.chunks.get();
                        page.rows
                            .into_iter()
                            .enumerate()
                            .map(move |(i, r)| {
                                let read = limit.zip(page.model_tokens.get(i).copied());
                                let shared = page.shared.get(i).copied().unwrap_or(0);
                                (lang, read, shared, own, r)
                            })
                            .collect::<Vec<_>>()
                    }
                    // The language shown, too: a fetched language's words arrive after it is
                    // chosen, and the cards must be built again then.
                    key=|(lang, read, shared, own, r): &(Lang, Option<(usize, usize)>, usize, bool, Row)| (*lang, crate::i18n::bundle::shown(*lang), *read, *shared, *own, r.index, r.byte_start, r.byte_end, r.tokens, r.text_changed, r.prefix_over_budget)
                    children=move |(lang, read, shared, own, r): (Lang, Option<(usize, usize)>, usize, bool, Row)| chunk_view(lang, read, shared, own, r)
                />
            </ol>
            <p class="hint">
                {move || {
                    let lang = app.language.lang.get();
                    cmp_msg::ShowingOf { shown: &format::int(lang, shown() as u64), total: &format::int(lang, total() as u64) }.fill(lang)
                }}
            </p>
            <button
                type="button"
                data-testid="show-more"
                class:hidden={move || shown() >= total()}
                on:click=move |_| results.requests.more_rows()
            >
                {move || m(Msg::ShowMore)}
            </button>
        </section>
    }
}

/// The product's structure options, read by its markdown strategy only (and so shown with
/// it): `heading-prefix` (select: `off` | `path` | `title`, `data-value`) and `fence-repair`
/// (checkbox, `data-value` = `on` | `off`).
#[component]
fn StructureOptions() -> impl IntoView {
    let app = crate::state::PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let prefix = move || settings.structure.get().heading_prefix;
    let repair = move || settings.structure.get().fence_repair;
    let on_prefix = move |ev| {
        if let Ok(p) = event_target_value(&ev).parse::<HeadingPrefix>() {
            settings.structure.update(|s| s.heading_prefix = p);
        }
    };
    let on_repair = move |ev| {
        let on = event_target_checked(&ev);
        settings.structure.update(|s| s.fence_repair = on);
    };
    let options = [
        (HeadingPrefix::Off, Msg::HeadingPrefixOff),
        (HeadingPrefix::Path, Msg::HeadingPrefixPath),
        (HeadingPrefix::Title, Msg::HeadingPrefixTitle),
    ];
    view! {
        <div
            class="structure-options"
            data-testid="structure-options"
            class:hidden=move || settings.strategy.get() != StrategyId::Markdown
        >
            <div class="field-row">
                <label for="heading-prefix">{move || m(Msg::HeadingPrefixLabel)}</label>
                <select
                    id="heading-prefix"
                    data-testid="heading-prefix"
                    data-value=move || prefix().as_str()
                    prop:value=move || prefix().as_str()
                    on:change=on_prefix
                >
                    {options
                        .into_iter()
                        .map(|(p, msg)| {
                            view! {
                                <option value=p.as_str() selected=move || prefix() == p>
                                    {move || m(msg)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="fence-repair"
                    data-value=move || if repair() { "on" } else { "off" }
                    prop:checked=repair
                    on:change=on_repair
                />
                " "
                {move || m(Msg::FenceRepairLabel)}
            </label>
            <p class="field-note">{move || m(Msg::StructureOptionsNote)}</p>
        </div>
    }
}

/// One `chunk`: its positions, tokens, heading path, why it ended, and its text; with a model,
/// `read` = (the model's limit, the chunk's tokens as the model reads it): how many it drops
/// (`chunk-model`, `data-model-tokens`, `data-dropped`). `shared`: bytes at its start that the
/// chunk before it holds too (measured; `data-overlap-bytes`), marked in its text
/// (`chunk-shared`) when the text is the document's.
fn chunk_view(
    lang: Lang,
    read: Option<(usize, usize)>,
    shared: usize,
    own: bool,
    r: Row,
) -> impl IntoView {
    let m = |msg: Msg| messages::text(lang, msg);
    let n = |x: usize| format::int(lang, x as u64);
    let head = cmp_msg::ChunkHead {
        index: &n(r.index),
        tokens: &n(r.tokens),
        b0: &n(r.byte_start),
        b1: &n(r.byte_end),
        c0: &n(r.char_start),
        c1: &n(r.char_end),
        l0: &n(r.line_start),
        l1: &n(r.line_end),
    }
    .fill(lang);
    let label = head.clone();
    let reason = cmp_msg::EndsAt {
        reason: m(reason_msg(r.reason)),
    }
    .fill(lang);
    let path = (!r.heading_path.is_empty()).then(|| {
        view! { <span class="heading-path" data-testid="chunk-heading-path">{r.heading_path.clone()}</span> }
    });
    let pages = r.page_start.zip(r.page_end).map(|(first, last)| {
        view! { <span class="chunk-pages" data-testid="chunk-pages">{crate::format::chunk_pages(lang, first, last)}</span> }
    });
    let model = read
        .filter(|&(limit, _)| limit != usize::MAX)
        .map(|(limit, tokens)| {
            let dropped = chunk_core::analysis::dropped_tokens(tokens, limit);
            let over = dropped > 0;
            let (read_n, limit_n) = (n(tokens), n(limit));
            let line = if dropped > 0 {
                cmp_msg::ChunkModelDrops {
                    read: &read_n,
                    limit: &limit_n,
                    dropped: &n(dropped),
                }
                .fill(lang)
            } else {
                cmp_msg::ChunkModelRead {
                    read: &read_n,
                    limit: &limit_n,
                }
                .fill(lang)
            };
            view! {
                <p
                    class="chunk-model"
                    class:over=over
                    data-testid="chunk-model"
                    data-model-tokens=tokens
                    data-dropped=dropped
                >
                    {line}
                </p>
            }
        });
    let changed_msg = if own {
        Msg::TextChangedOwn
    } else {
        Msg::TextChanged
    };
    let changed = r.text_changed.then(
        || view! { <span class="badge" data-testid="chunk-text-changed">{m(changed_msg)}</span> },
    );
    // A piece of a fenced code block, with the fence's info string (its language first).
    let code_part = r.code_info.as_deref().map(|info| {
        let label = match info.split_whitespace().next() {
            Some(info) => cmp_msg::CodePart { info }.fill(lang),
            None => m(Msg::CodePartPlain).to_owned(),
        };
        view! { <span class="badge" data-testid="chunk-code-part">{label}</span> }
    });
    let prefix_left_out = r.prefix_over_budget.then(|| {
        view! { <span class="badge warn" data-testid="chunk-prefix-over-budget">{m(Msg::PrefixLeftOut)}</span> }
    });
    // A chunk's text is shown whole up to the preview's display limits (8 KiB, 200 lines).
    let end = shown_end(&r.text, 0, r.text.len(), 0);
    // The shared start, marked where the text is the document's (a rewritten text's bytes do
    // not line up with the range), cut to what is shown and to a character boundary.
    let marked = if r.text_changed {
        0
    } else {
        let mut k = shared.min(end);
        while !r.text.is_char_boundary(k) {
            k -= 1;
        }
        k
    };
    let overlap = (marked > 0).then(|| {
        view! { <mark class="overlap" data-testid="chunk-shared">{r.text[..marked].to_owned()}</mark> }
    });
    let hidden = r.text.len() - end;
    let more = (hidden > 0)
        .then(|| view! { <p class="hint">{cmp_msg::TextCut { n: &n(hidden) }.fill(lang)}</p> });
    view! {
        <li
            class="chunk"
            data-testid="chunk"
            data-index=r.index
            data-byte-start=r.byte_start
            data-byte-end=r.byte_end
            data-char-start=r.char_start
            data-char-end=r.char_end
            data-line-start=r.line_start
            data-line-end=r.line_end
            data-tokens=r.tokens
            data-reason=r.reason.as_str()
            data-shown-bytes=end
            data-overlap-bytes=shared
            data-page-start=r.page_start
            data-page-end=r.page_end
            data-code-info=r.code_info.clone()
            data-prefix-over-budget=r.prefix_over_budget.then_some("true")
        >
            <div class="chunk-head">
                <span>{head}</span>
                " "
                {pages}
                " "
                {path}
                " "
                <span class="reason">{reason}</span>
                {changed}
                {code_part}
                {prefix_left_out}
            </div>
            {model}
            // The text scrolls inside its card, so the card is focusable (a keyboard scrolls
            // it) and named; `SkipChunks` goes past them all.
            <pre class="chunk-text" data-testid="chunk-text" tabindex="0" role="region" aria-label=label>
                {overlap}
                {r.text[marked..end].to_owned()}
            </pre>
            {more}
        </li>
    }
}

/// The message naming a boundary.
fn reason_msg(b: chunk_core::strategy::Boundary) -> Msg {
    use chunk_core::strategy::Boundary as B;
    match b {
        B::Section => Msg::ReasonSection,
        B::Paragraph => Msg::ReasonParagraph,
        B::Line => Msg::ReasonLine,
        B::CodeBlockPart => Msg::ReasonCodeBlockPart,
        B::Sentence => Msg::ReasonSentence,
        B::Clause => Msg::ReasonClause,
        B::Word => Msg::ReasonWord,
        B::Character => Msg::ReasonCharacter,
        B::SizeLimit => Msg::ReasonSizeLimit,
        B::TopicShift => Msg::ReasonTopicShift,
        B::EndOfText => Msg::ReasonEndOfText,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fixed_token_windows_use_the_classic_preview() {
        assert!(classic_preview(StrategyId::Fixed, SizeUnit::Tokens));
        assert!(!classic_preview(StrategyId::Fixed, SizeUnit::Characters));
        assert!(!classic_preview(
            StrategyId::LangchainRecursive,
            SizeUnit::Tokens
        ));
    }
}
