//! The embedding model in the page (SPEC §7): the `embedding-model` select in the settings
//! form ([`ModelSelect`]) over the core's table (`chunk_core::models::MODELS`), and what the
//! choice means ([`ModelPanel`]): the chunk budget under the model's limit and the chunks it
//! would truncate, the fit of top-k chunks in an LLM context window, and vector storage and
//! cost for a corpus. With a text, every figure is for the chosen strategy's real chunks, each
//! counted by the comparison worker with the model's own tokenizer (`crate::compare::Shown`,
//! `chunk_core::analysis::compare::LimitCheck`); without one, for the formula's fixed windows.
//! Every figure comes from `chunk_core`. It lives in the comparison because it shows the
//! comparison's results; the model's words are `crate::model`'s.
//!
//! Context (`crate::state::model::ModelSettings`): the chosen model and the panel's fields,
//! written only by these inputs and the settings link. Choosing a model also sets the
//! calculator's tokenizer and price (the user's own request, as the comparison's "use the
//! library's defaults" sets chunk_size); the price stays editable.
//!
//! Hooks: `embedding-model` (select; option values are model ids, `custom` for none),
//! `model-note` (`data-estimate` = `true` when the model's counts are estimates),
//! `model-panel`, `out-model-limit`, `out-over-limit` (`data-basis` = `formula` without a text,
//! else how the chosen strategy's chunks were counted: `own` (the model's own tokenizer),
//! `proxy`, `stand-in` (its vocabulary not loaded) or `chunk-tokens` (no model)),
//! `out-model-max-tokens` (the largest chunk as the model reads it), `out-truncated-tokens`
//! (tokens the model drops over all chunks), `model-limit-basis` (the same `data-basis`, in
//! words), `top-k`, `context-window`,
//! `prompt-tokens`, `answer-reserve`, `out-context-fit` (`data-value` = the largest top-k that
//! fits, `u64::MAX` for "any"; `data-fits`, `data-used-tokens`), `dimensions`, `vector-format`,
//! `corpus-documents`, `out-storage-bytes`, `out-corpus-storage-bytes`, `out-corpus-cost`,
//! each figure with its raw number in `data-value` (empty when there is none). For a model whose
//! own tokenizer the page loads on demand (`ModelTokenizer::open_vocab`): `out-model-tokens`
//! (the document's tokens with it, without the model's special tokens) and
//! `model-vocab-status` (`data-state` = `pending` | `loading` | `counted` | `failed`,
//! `data-vocab` = the vocabulary's code, e.g. `bert-uncased`, `data-millis` = the worker's
//! time for the count in ms once counted).

use chunk_core::analysis::LimitBasis;
use chunk_core::models::{
    context_fit, corpus_embedding_cost_usd, corpus_storage_bytes, model, storage_bytes,
    windows_over_limit, VectorFormat, CONTEXT_WINDOWS, CONTEXT_WINDOW_LABELS, MODELS,
};
use leptos::prelude::*;

use crate::format;
use crate::i18n::Lang;
use crate::model::messages::{self, args as model_msg, Mm};
use crate::model::{
    approx_mark, estimate_hint, field_word, format_code, limit_basis_code, tokenizer_name,
    ModelResults, ModelSettings, OpenStatus,
};
use crate::parse::parse_count;
use crate::state::PageState;
use crate::ui::NumberField;

/// The words of a vector format.
fn format_label(f: VectorFormat) -> Mm {
    match f {
        VectorFormat::Float32 => Mm::Float32,
        VectorFormat::Float16 => Mm::Float16,
        VectorFormat::Int8 => Mm::Int8,
        VectorFormat::Binary => Mm::Binary,
    }
}

/// The `embedding-model` select and the note about the chosen model, for the settings form.
#[component]
pub fn ModelSelect() -> impl IntoView {
    let app = PageState::from_context();
    // It writes the calculator's tokenizer and price when a model is chosen.
    let fields = expect_context::<crate::state::FieldsWriter>();
    let settings = expect_context::<ModelSettings>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Mm| messages::text(lang(), msg);
    // The price this select last wrote: only a price the user did not type is replaced.
    // The page's default price counts as written by the select: a price from a settings link
    // differs from it and is kept, as a typed one is.
    let written_price = StoredValue::new(crate::parse::RawInputs::default().price);
    let on_change = move |ev| {
        let chosen = model(&event_target_value(&ev));
        settings.model.set(chosen);
        let Some(chosen) = chosen else {
            return;
        };
        // The user's own request: the calculator's tokenizer and price follow the model (the
        // price box is set too, since the boxes never follow their signals otherwise).
        if let Some(e) = chosen.tokenizer.bpe_encoding() {
            if fields.encoding.get_untracked() != e {
                fields.encoding.set(e);
            }
        }
        // A confirmed price replaces the field; without one (an open model, an unconfirmed
        // price) the field is cleared only if it holds what this select wrote, never what the
        // user typed.
        // The same number in either decimal mark is what this select wrote (the box follows
        // the language's mark).
        let as_written = |t: String| t.replace(',', ".");
        let typed_by_user =
            as_written(app.fields.price.get_untracked()) != as_written(written_price.get_value());
        let price = match chosen.price_per_million_usd {
            Some(p) => Some(crate::parse::price_text(lang(), p)),
            None if typed_by_user => None,
            None => Some(String::new()),
        };
        if let Some(price) = price {
            written_price.set_value(price.clone());
            fields.fill(crate::state::TextField::Price, price);
        }
        if let Some(d) = chosen.default_dimensions() {
            let d = d.to_string();
            crate::ui::fill_box("dimensions", settings.dimensions, d);
        }
    };
    let note = move || {
        let l = lang();
        let chosen = settings.model.get()?;
        let encoding = app.fields.encoding.get().name();
        let n = |x: usize| format::int(l, x as u64);
        let sized_in = use_context::<crate::compare::CompareSettings>()
            .map_or(chunk_core::strategy::SizeUnit::Tokens, |c| c.sized_in.get());
        let hint = estimate_hint(l, chosen, app.fields.encoding.get(), sized_in)
            .unwrap_or_else(|| model_msg::HintExact { encoding }.fill(l));
        let dims = if chosen.dimensions.is_empty() {
            m(Mm::NotConfirmed).to_owned()
        } else {
            chosen
                .dimensions
                .iter()
                .map(|&d| n(d))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let price = match chosen.price_per_million_usd {
            Some(p) => format::usd(l, p),
            None if chosen.open_weights => m(Mm::OpenWeights).to_owned(),
            None => m(Mm::NoPrice).to_owned(),
        };
        let facts = match chosen.max_input_tokens {
            Some(limit) if chosen.special_tokens == 0 => model_msg::FactsNoSpecial {
                limit: &n(limit),
                dims: &dims,
                price: &price,
            }
            .fill(l),
            Some(limit) => model_msg::Facts {
                limit: &n(limit),
                special: &n(chosen.special_tokens),
                dims: &dims,
                price: &price,
            }
            .fill(l),
            None => model_msg::FactsNoLimit {
                dims: &dims,
                price: &price,
            }
            .fill(l),
        };
        let prefix = chosen
            .required_prefix
            .map(|p| model_msg::Prefix { prefix: p }.fill(l));
        let chars = chosen
            .max_input_chars
            .map(|c| model_msg::CharLimit { chars: &n(c) }.fill(l));
        let unconfirmed = (!chosen.unconfirmed.is_empty()).then(|| {
            let fields: Vec<&str> = chosen
                .unconfirmed
                .iter()
                .map(|f| m(field_word(f)))
                .collect();
            model_msg::Unconfirmed {
                fields: &fields.join(", "),
            }
            .fill(l)
        });
        let source = model_msg::Source {
            date: chosen.read_on,
            source: chosen.source,
        }
        .fill(l);
        Some(view! {
            <div
                class="field-note model-note"
                data-testid="model-note"
                data-estimate=(!chosen.counts_exactly_with(app.fields.encoding.get())).to_string()
            >
                <p>{hint}</p>
                <p>{facts}</p>
                {chars.map(|c| view! { <p>{c}</p> })}
                {prefix.map(|p| view! { <p>{p}</p> })}
                {unconfirmed.map(|u| view! { <p>{u}</p> })}
                <p class="model-source">{source}</p>
            </div>
        })
    };
    view! {
        <div class="field">
            <label for="embedding-model">{move || m(Mm::ModelLabel)}</label>
            <select id="embedding-model" data-testid="embedding-model" on:change=on_change>
                {move || {
                    let current = settings.model.get().map(|m| m.id);
                    let custom = view! {
                        <option value="custom" selected=current.is_none()>
                            {m(Mm::ModelCustom)}
                        </option>
                    };
                    let rows = MODELS
                        .iter()
                        .map(|x| {
                            view! {
                                <option value=x.id selected=current == Some(x.id)>
                                    {format!("{} · {}", x.provider, x.name)}
                                </option>
                            }
                        })
                        .collect_view();
                    view! { {rows} {custom} }
                }}
            </select>
            {note}
        </div>
    }
}

/// A whole-number field of the panel, with its range error.
fn number_field(
    lang: impl Fn() -> Lang + Copy + Send + Sync + 'static,
    id: &'static str,
    label: Mm,
    value: RwSignal<String>,
    (min, max): (u64, u64),
    list: Option<&'static str>,
) -> impl IntoView {
    let error = Signal::derive(move || {
        parsed(value, (min, max)).is_none().then(|| {
            let l = lang();
            model_msg::ErrRange {
                min: &format::int(l, min),
                max: &format::int(l, max),
            }
            .fill(l)
        })
    });
    let label = Signal::derive(move || messages::text(lang(), label).to_owned());
    match list {
        Some(list) => view! { <NumberField id label value error list/> }.into_any(),
        None => view! { <NumberField id label value error/> }.into_any(),
    }
}

/// The field's value when it is a whole number in `[min, max]`.
fn parsed(value: RwSignal<String>, (min, max): (u64, u64)) -> Option<u64> {
    value.with(|v| parse_count(v, max).ok().filter(|&n| n >= min))
}

/// Ranges of the panel's fields.
const TOP_K: (u64, u64) = (1, 10_000);
const WINDOW: (u64, u64) = (1, 100_000_000);
const TOKENS: (u64, u64) = (0, 100_000_000);
const DIMS: (u64, u64) = (1, 65_536);
const DOCUMENTS: (u64, u64) = (1, 1_000_000_000_000);

/// One figure: label and value, the raw number in `data-value` ("" when there is none).
fn figure(
    lang: impl Fn() -> Lang + Copy + Send + Sync + 'static,
    testid: &'static str,
    label: Mm,
    value: impl Fn() -> Option<(String, String)> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="figure">
            <dt>{move || messages::text(lang(), label)}</dt>
            <dd
                data-testid=testid
                data-value=move || value().map(|v| v.0).unwrap_or_default()
            >
                {move || value().map(|v| v.1).unwrap_or_else(|| "—".into())}
            </dd>
        </div>
    }
}

/// What the chosen model means for the settings: limit, context fit, storage.
#[component]
pub fn ModelPanel() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<ModelSettings>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Mm| messages::text(lang(), msg);
    let results = expect_context::<crate::compare::CompareResults>();
    let model_results = expect_context::<ModelResults>();
    let compare_settings = expect_context::<crate::compare::CompareSettings>();
    let results_sized_in = move || compare_settings.sized_in.get();
    // Fixed windows of tokens, or of characters in that unit (tokens then estimated).
    let out = results.formula;
    let int = move |n: u128| (n.to_string(), format::int(lang(), n));

    let limit = move || {
        settings
            .model
            .get()
            .and_then(|m| m.chunk_budget(app.fields.encoding.get()))
    };
    let estimate = move || {
        settings
            .model
            .get()
            .and_then(|m| estimate_hint(lang(), m, app.fields.encoding.get(), results_sized_in()))
    };
    let limit_fig = move || limit().map(|l| int(l as u128));
    // The page's configuration (SPEC §10): with a text, the chosen strategy's real chunks as
    // the worker measured them; without one, the formula's fixed windows.
    let shown = results.shown;
    let real = move || shown.with(|s| s.summary().cloned());
    let formula = move || matches!(shown.get(), crate::compare::Shown::Formula);
    // (chunks, tokens embedded) of the configuration.
    let counts = move || -> Option<(u64, u128)> {
        if formula() {
            return out.get().map(|o| (o.chunks, o.total_tokens));
        }
        real().map(|s| (s.chunks as u64, s.total_tokens as u128))
    };
    let over_fig = move || {
        if formula() {
            let l = limit()?;
            let o = out.get()?;
            return Some(int(windows_over_limit(&o, l as u64).into()));
        }
        settings.model.get()?.max_input_tokens?;
        real().map(|s| int(s.over_limit as u128))
    };
    let model_max_fig = move || {
        settings.model.get()?.max_input_tokens?;
        real().map(|s| int(s.model_max_tokens as u128))
    };
    let dropped_fig = move || {
        settings.model.get()?.max_input_tokens?;
        real().map(|s| int(s.truncated_tokens as u128))
    };
    let basis = move || real().map(|s| s.limit_basis);
    // How the chunks were checked against the limit, in words.
    let basis_line = move || {
        let chosen = settings.model.get()?;
        chosen.max_input_tokens?;
        if formula() {
            return Some(view! {
                <p class="field-note" data-testid="model-limit-basis" data-basis="formula">{m(Mm::LimitFormula)}</p>
            }.into_any());
        }
        let b = basis()?;
        let tokenizer = tokenizer_name(chosen.tokenizer);
        let line = match b {
            LimitBasis::StandIn(e) => model_msg::LimitStandIn {
                tokenizer,
                encoding: e.name(),
            }
            .fill(lang()),
            LimitBasis::Proxy(e) => model_msg::HintProxy {
                provider: chosen.provider,
                encoding: e.name(),
            }
            .fill(lang()),
            LimitBasis::Own | LimitBasis::ChunkTokens => {
                model_msg::LimitOwn { tokenizer }.fill(lang())
            }
        };
        Some(view! {
            <p class="field-note" data-testid="model-limit-basis" data-basis=limit_basis_code(b)>{line}</p>
        }.into_any())
    };
    // The fit and the inputs it was computed from: `[top-k, chunk, prompt, reserve, window]`
    // and the p95 of the chunks (`None` for the formula, whose windows are all chunk_size).
    // The chunk is chunk_size for the formula, the largest real chunk otherwise, in the sizing
    // tokens (what the LLM is sent; the embedding model's special tokens and prefix are not).
    // A `Memo`: the figure, its two attributes and the sentence all read it.
    let fit = Memo::new(move |_| {
        let (chunk, p95) = if formula() {
            (out.get()?.window_tokens, None)
        } else {
            let s = real()?;
            (s.max_tokens as u64, Some(s.p95_tokens as u64))
        };
        let inputs = [
            parsed(settings.top_k, TOP_K)?,
            chunk,
            parsed(settings.prompt, TOKENS)?,
            parsed(settings.reserve, TOKENS)?,
            parsed(settings.window, WINDOW)?,
        ];
        let [k, chunk, prompt, reserve, window] = inputs;
        Some((context_fit(k, chunk, prompt, reserve, window), inputs, p95))
    });
    let fit_fig = move || {
        let (f, _, _) = fit.get()?;
        let shown = if f.largest_k == u64::MAX {
            m(Mm::NoLimitK).to_owned()
        } else {
            format::int(lang(), f.largest_k)
        };
        Some((f.largest_k.to_string(), shown))
    };
    let fit_line = move || {
        let (f, [k, chunk, prompt, reserve, window], p95) = fit.get()?;
        let l = lang();
        let n = |x: u64| format::int(l, x);
        let (k, chunk, prompt, reserve, used, window) = (
            n(k),
            n(chunk),
            n(prompt),
            n(reserve),
            n(f.used_tokens),
            n(window),
        );
        if let Some(p95) = p95 {
            let p95 = &n(p95);
            let (k, chunk, prompt, reserve, used, window) =
                (&k, &chunk, &prompt, &reserve, &used, &window);
            return Some(if f.fits {
                model_msg::ContextFitsReal {
                    k,
                    chunk,
                    p95,
                    prompt,
                    reserve,
                    used,
                    window,
                }
                .fill(l)
            } else {
                model_msg::ContextOverReal {
                    k,
                    chunk,
                    p95,
                    prompt,
                    reserve,
                    used,
                    window,
                }
                .fill(l)
            });
        }
        Some(if f.fits {
            model_msg::ContextFits {
                k: &k,
                chunk: &chunk,
                prompt: &prompt,
                reserve: &reserve,
                used: &used,
                window: &window,
            }
            .fill(l)
        } else {
            model_msg::ContextOver {
                k: &k,
                chunk: &chunk,
                prompt: &prompt,
                reserve: &reserve,
                used: &used,
                window: &window,
            }
            .fill(l)
        })
    };
    let dims = move || parsed(settings.dimensions, DIMS).map(|d| d as usize);
    let storage = move || {
        let (chunks, _) = counts()?;
        Some(int(storage_bytes(chunks, dims()?, settings.format.get())))
    };
    let corpus_storage = move || {
        let (chunks, _) = counts()?;
        Some(int(corpus_storage_bytes(
            chunks,
            parsed(settings.documents, DOCUMENTS)?,
            dims()?,
            settings.format.get(),
        )))
    };
    let corpus_cost = move || {
        let (_, total_tokens) = counts()?;
        let price = app
            .derived
            .checked
            .with(|c| c.input.and_then(|i| i.price_per_million))?;
        let cost =
            corpus_embedding_cost_usd(total_tokens, parsed(settings.documents, DOCUMENTS)?, price)?;
        Some((cost.to_string(), format::usd(lang(), cost)))
    };
    // The document counted with the open model's own tokenizer, and where that count is.
    let open_shown = move || {
        let chosen = settings.model.get()?;
        chosen.tokenizer.open_vocab()?;
        Some(chosen.tokenizer)
    };
    let open_fig = move || match model_results.open_count.get()?.status {
        OpenStatus::Counted { tokens, .. } => Some(int(tokens.into())),
        _ => None,
    };
    let open_line = move || {
        let tokenizer = tokenizer_name(open_shown()?);
        let count = model_results.open_count.get()?;
        let l = lang();
        let line = match &count.status {
            OpenStatus::Pending => model_msg::OpenCounting { tokenizer }.fill(l),
            OpenStatus::Loading => model_msg::VocabLoading {
                tokenizer,
                size: &format::int(l, count.vocab.file_bytes().div_ceil(1024)),
            }
            .fill(l),
            OpenStatus::Counted { millis, .. } => model_msg::OpenCounted {
                tokenizer,
                ms: &format::int(l, millis.max(0.0).round() as u64),
            }
            .fill(l),
            OpenStatus::Failed(error) => model_msg::OpenFailed { error }.fill(l),
        };
        let state = match count.status {
            OpenStatus::Pending => "pending",
            OpenStatus::Loading => "loading",
            OpenStatus::Counted { .. } => "counted",
            OpenStatus::Failed(_) => "failed",
        };
        Some(view! {
            <p
                class="field-note"
                data-testid="model-vocab-status"
                data-state=state
                data-vocab=count.vocab.code()
                data-millis=match count.status {
                    OpenStatus::Counted { millis, .. } => millis.to_string(),
                    _ => String::new(),
                }
                role="status"
            >
                {line}
            </p>
        })
    };
    let open_block = move || {
        open_shown()?;
        Some(view! {
            <dl class="figures">
                {figure(lang, "out-model-tokens", Mm::OutOpenTokens, open_fig)}
            </dl>
            {open_line}
        })
    };
    let fit_attrs = move || {
        fit.get()
            .map(|(f, _, _)| (f.fits.to_string(), f.used_tokens.to_string()))
    };
    let on_format = move |ev| {
        let v = event_target_value(&ev);
        if let Some(f) = VectorFormat::ALL.into_iter().find(|f| format_code(*f) == v) {
            settings.format.set(f);
        }
    };
    let limit_note = move || {
        if settings.model.get().is_none() {
            return Some(
                view! { <p class="notice info" data-testid="model-none">{m(Mm::NoModel)}</p> }
                    .into_any(),
            );
        }
        estimate().map(|hint| {
            view! { <p class="notice info" data-testid="model-panel-estimate">{hint}</p> }
                .into_any()
        })
    };
    view! {
        <section
            class="panel model-panel"
            data-testid="model-panel"
            data-estimate=move || estimate().is_some().to_string()
            aria-labelledby="model-heading"
        >
            <h2 id="model-heading">{move || m(Mm::PanelHeading)}</h2>
            <p class="hint">{move || m(Mm::PanelIntro)}</p>
            {limit_note}
            {open_block}
            <dl class="figures">
                {figure(lang, "out-model-limit", Mm::OutLimit, limit_fig)}
                <div class="figure">
                    <dt>{move || m(Mm::OutOverLimit)}</dt>
                    <dd
                        data-testid="out-over-limit"
                        data-value=move || over_fig().map(|v| v.0).unwrap_or_default()
                        data-basis=move || if formula() { Some("formula") } else { basis().map(limit_basis_code) }
                    >
                        {move || basis().map(approx_mark).filter(|_| !formula())}
                        {move || over_fig().map(|v| v.1).unwrap_or_else(|| "—".into())}
                    </dd>
                </div>
                {figure(lang, "out-model-max-tokens", Mm::OutModelMax, model_max_fig)}
                {figure(lang, "out-truncated-tokens", Mm::OutDropped, dropped_fig)}
            </dl>
            {basis_line}
            <p class="field-note">{move || m(Mm::OverLimitNote)}</p>
            <datalist id="context-window-presets">
                {CONTEXT_WINDOWS
                    .iter()
                    .zip(CONTEXT_WINDOW_LABELS)
                    .map(|(w, label)| view! { <option value=w.to_string() label=label></option> })
                    .collect_view()}
            </datalist>
            <div class="field-pair">
                {number_field(lang, "top-k", Mm::TopKLabel, settings.top_k, TOP_K, None)}
                {number_field(lang, "context-window", Mm::WindowLabel, settings.window, WINDOW, Some("context-window-presets"))}
            </div>
            <div class="field-pair">
                {number_field(lang, "prompt-tokens", Mm::PromptLabel, settings.prompt, TOKENS, None)}
                {number_field(lang, "answer-reserve", Mm::ReserveLabel, settings.reserve, TOKENS, None)}
            </div>
            <dl class="figures">
                <div class="figure">
                    <dt>{move || m(Mm::OutContextFit)}</dt>
                    <dd
                        data-testid="out-context-fit"
                        data-value=move || fit_fig().map(|v| v.0).unwrap_or_default()
                        data-fits=move || fit_attrs().map(|a| a.0)
                        data-used-tokens=move || fit_attrs().map(|a| a.1)
                    >
                        {move || fit_fig().map(|v| v.1).unwrap_or_else(|| "—".into())}
                    </dd>
                </div>
            </dl>
            <p class="field-note" data-testid="context-fit-line">{fit_line}</p>
            <div class="field-pair">
                {number_field(lang, "dimensions", Mm::DimsLabel, settings.dimensions, DIMS, None)}
                <div class="field">
                    <label for="vector-format">{move || m(Mm::FormatLabel)}</label>
                    <select id="vector-format" data-testid="vector-format" on:change=on_format>
                        {VectorFormat::ALL
                            .into_iter()
                            .map(|f| {
                                view! {
                                    <option value=format_code(f) selected=move || settings.format.get() == f>
                                        {move || m(format_label(f))}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
            </div>
            {number_field(lang, "corpus-documents", Mm::DocumentsLabel, settings.documents, DOCUMENTS, None)}
            <dl class="figures">
                {figure(lang, "out-storage-bytes", Mm::OutStorage, storage)}
                {figure(lang, "out-corpus-storage-bytes", Mm::OutCorpusStorage, corpus_storage)}
                {figure(lang, "out-corpus-cost", Mm::OutCorpusCost, corpus_cost)}
            </dl>
            <p class="field-note">{move || m(Mm::StorageNote)}</p>
        </section>
    }
}
