//! The calculator's two panels: the settings form ([`Inputs`]) and the figures ([`Results`]),
//! with the notices that must never be silent (clamped overlap, estimate vs exact).

use crate::i18n::args as page_msg;
use chunk_core::analysis::Summary;
use chunk_core::formula::{FormulaOutput, CHARS_PER_TOKEN};
use chunk_core::strategy::{SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;

use crate::compare::Shown;
use crate::format;
use crate::i18n::Key;
use crate::parse::{price_text, relocalize_price, FieldError, LengthUnit};
use crate::state::{CalculatorFields, Derived, FieldsWriter, Language, SourceText, Tokenization};
use crate::ui::{Figure, NumberField};

/// Rewrites the price box for the decimal mark of `to` when it holds a plain decimal written
/// with `from`'s ([`relocalize_price`]); leaves it as typed otherwise. The box does not follow
/// its signal, so both are written. Called by the language switch, in the same update as the
/// language, and by [`Inputs`] for every other change of language (a link, Back / Forward).
pub fn move_price_mark(fields: FieldsWriter, from: crate::i18n::Lang, to: crate::i18n::Lang) {
    if let Some(moved) = relocalize_price(&fields.price.get_untracked(), from, to) {
        fields.fill(crate::state::TextField::Price, moved);
    }
}

/// The message for a field error, in the current language.
fn error_message(lang: Language, err: FieldError) -> String {
    match err {
        FieldError::Empty => lang.t(Key::ErrEmpty).into(),
        FieldError::NotANumber => lang.t(Key::ErrNotANumber).into(),
        FieldError::Negative => lang.t(Key::ErrNegative).into(),
        FieldError::NotWhole => lang.t(Key::ErrNotWhole).into(),
        FieldError::ZeroSize => lang.t(Key::ErrZeroSize).into(),
        FieldError::Ambiguous { grouped, decimal } => lang.tf(page_msg::ErrAmbiguous {
            grouped: &price_text(lang.get(), grouped),
            decimal: &price_text(lang.get(), decimal),
        }),
        FieldError::TooLarge { max } => lang.tf(page_msg::ErrTooLarge {
            max: &format::int(lang.get(), max as u128),
        }),
    }
}

/// The settings form: document length and unit, chunk size, overlap, embedding model, price,
/// tokenizer. The writer of the [`CalculatorFields`] context (besides the buttons that fill it
/// on the user's request, and the model select, which sets the tokenizer and the price).
#[component]
pub fn Inputs() -> impl IntoView {
    let lang = expect_context::<Language>();
    let fields = expect_context::<FieldsWriter>();
    let source = expect_context::<SourceText>();
    let tokenization = expect_context::<Tokenization>();
    let derived = expect_context::<Derived>();
    // Plain derived closures (not memos): each only projects one field of the `checked` memo,
    // which already runs once per edit.
    let worded = move |of: fn(&crate::parse::Checked) -> Option<FieldError>| {
        Signal::derive(move || derived.checked.with(of).map(|e| error_message(lang, e)))
    };
    let doc_err = worded(|c| c.doc_length);
    let size_err = worded(|c| c.chunk_size);
    let overlap_err = worded(|c| c.chunk_overlap);
    let price_err = worded(|c| c.price);
    let words = move |key: Key| Signal::derive(move || lang.t(key).to_owned());
    // The price box follows the language's decimal mark ("0.02" becomes "0,02" in Polish), as
    // its hint does, whenever the language changes; a price written any other way stays as
    // typed. At the start only the default price (written in English's notation) is
    // converted: a settings link's price is shown as the link wrote it.
    let price_written_in = StoredValue::new(None::<crate::i18n::Lang>);
    Effect::new(move |_| {
        let now = lang.lang.get();
        let price = fields.price.get_untracked();
        let before = match price_written_in.get_value() {
            Some(before) => before,
            None if price == crate::parse::RawInputs::default().price => crate::i18n::Lang::En,
            None => now,
        };
        price_written_in.set_value(Some(now));
        move_price_mark(fields, before, now);
    });
    // The labels name the unit the strategies size chunks in (`chunk-size-unit`).
    let unit = expect_context::<crate::compare::CompareSettings>().unit;
    let size_label = Signal::derive(move || match unit.get() {
        SizeUnit::Tokens | SizeUnit::Model(_) => lang.t(Key::ChunkSizeLabel).to_owned(),
        SizeUnit::Characters => lang.t(Key::ChunkSizeLabelChars).to_owned(),
    });
    let overlap_label = Signal::derive(move || match unit.get() {
        SizeUnit::Tokens | SizeUnit::Model(_) => lang.t(Key::OverlapLabel).to_owned(),
        SizeUnit::Characters => lang.t(Key::OverlapLabelChars).to_owned(),
    });
    let on_unit = move |ev| {
        if let Some(u) = LengthUnit::from_code(&event_target_value(&ev)) {
            fields.unit.set(u);
        }
    };
    let on_encoding = move |ev| {
        if let Some(e) = Encoding::from_name(&event_target_value(&ev)) {
            fields.encoding.set(e);
        }
    };
    let text_note = move || {
        let tokens = tokenization
            .tokenized
            .with(|t| t.as_ref().map(|t| t.tokens()));
        (!source.text.with(|t| t.is_empty()))
            .then_some(tokens)
            .flatten()
            .map(|n| {
                let n = format::int(lang.get(), n as u128);
                view! {
                    <p class="field-note" data-testid="doc-length-from-text">
                        {lang.tf(page_msg::DocLengthFromText { tokens: &n })}
                    </p>
                }
            })
    };
    view! {
        <section class="panel settings" aria-labelledby="settings-heading">
            <h2 id="settings-heading">{move || lang.t(Key::SettingsHeading)}</h2>
            <NumberField id="doc-length" label=words(Key::DocLengthLabel) value=fields.doc_length error=doc_err>
                <select
                    data-testid="length-unit"
                    aria-label=move || lang.t(Key::UnitLabel)
                    on:change=on_unit
                >
                    {[LengthUnit::Tokens, LengthUnit::Chars]
                        .into_iter()
                        .map(|u| {
                            let key = match u {
                                LengthUnit::Tokens => Key::UnitTokens,
                                LengthUnit::Chars => Key::UnitChars,
                            };
                            view! {
                                <option value=u.code() selected=move || fields.unit.get() == u>
                                    {move || lang.t(key)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </NumberField>
            {text_note}
            <div class="field-pair">
                <NumberField id="chunk-size" label=size_label value=fields.chunk_size error=size_err/>
                <NumberField id="chunk-overlap" label=overlap_label value=fields.chunk_overlap error=overlap_err/>
            </div>
            <crate::compare::SizeUnitSelect/>
            // The model first: choosing it sets the price and the tokenizer below.
            <crate::compare::model_panel::ModelSelect/>
            <crate::compare::SizeTokenizerSelect/>
            <NumberField id="price" label=words(Key::PriceLabel) value=fields.price error=price_err inputmode="decimal"/>
            <p class="field-note">{move || lang.t(Key::PriceHint)}</p>
            <div class="field">
                <label for="tokenizer">{move || lang.t(Key::TokenizerLabel)}</label>
                // The property, not only the options' attribute: the model select also sets
                // the encoding, and after a pick by hand the attribute no longer moves the box.
                <select
                    id="tokenizer"
                    data-testid="tokenizer"
                    prop:value=move || fields.encoding.get().name()
                    on:change=on_encoding
                >
                    {Encoding::ALL
                        .into_iter()
                        .map(|e| {
                            view! {
                                <option value=e.name() selected=move || fields.encoding.get() == e>
                                    {e.name()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <p class="field-note">{move || lang.t(Key::TokenizerHint)}</p>
            </div>
        </section>
    }
}

/// `(raw, shown)` for a count.
fn int(n: u128, lang: crate::i18n::Lang) -> (String, String) {
    (n.to_string(), format::int(lang, n))
}

/// `(raw fraction, shown percentage)` for a share.
fn share(x: f64, lang: crate::i18n::Lang) -> (String, String) {
    (x.to_string(), format::percent(lang, x))
}

/// The results card's figures, from the formula or from the chosen strategy's real chunks
/// (every number is the core's: `FormulaOutput` or `Summary`).
#[derive(Clone, Debug, PartialEq)]
struct Card {
    chunks: u128,
    total_tokens: u128,
    repeated_tokens: u128,
    repeated_share: f64,
    extra: f64,
    last_chunk: u128,
    cost: Option<f64>,
}

impl Card {
    fn of_formula(o: &FormulaOutput) -> Self {
        Card {
            chunks: o.chunks.into(),
            total_tokens: o.total_tokens,
            repeated_tokens: o.repeated_tokens,
            repeated_share: o.repeated_share,
            extra: o.extra_over_document,
            last_chunk: o.last_chunk_tokens.into(),
            cost: o.cost,
        }
    }

    fn of_summary(s: &Summary, priced: bool) -> Self {
        Card {
            chunks: s.chunks as u128,
            total_tokens: s.total_tokens as u128,
            repeated_tokens: s.repeated_tokens as u128,
            repeated_share: s.repeated_share(),
            extra: s.extra_over_document(),
            last_chunk: s.last_tokens as u128,
            cost: priced.then_some(s.cost),
        }
    }
}

/// The figures of SPEC §2 for the page's configuration (SPEC §10): without a text the formula
/// for fixed token windows (of characters when that is the unit; in the model's own tokens,
/// the encoding's stand in: `results-formula-note` has `data-unit` = `tokens` | `characters` |
/// `model`); with one, the chosen strategy's real chunks, fixed token windows
/// included (their tokens embedded are each window's text counted again, as the embedding API
/// counts what it is sent: `results-tokens-rule` says so; until the worker's figures arrive,
/// the formula over the exact count, `windows`). Hooks: the section's `data-source` =
/// `formula` | `windows` | `strategy` | `waiting` | `refused`, `data-strategy`, and
/// `results-badge` (`data-exact`).
#[component]
pub fn Results() -> impl IntoView {
    let lang = expect_context::<Language>();
    let source = expect_context::<SourceText>();
    let derived = expect_context::<Derived>();
    let compare = expect_context::<crate::compare::CompareResults>();
    let compare_settings = expect_context::<crate::compare::CompareSettings>();
    // Without a text in characters, the formula counts windows of characters (tokens then
    // estimated); otherwise fixed token windows over the document's tokens.
    let chars_formula = move || {
        compare_settings.sized_in.get() == SizeUnit::Characters
            && source.text.with(|t| t.is_empty())
    };
    let out = compare.formula;
    let priced = move || {
        derived
            .checked
            .with(|c| c.input.is_some_and(|i| i.price_per_million.is_some()))
    };
    // Fixed token windows in tokens, before the worker's figures arrive (or where it cannot
    // run): the formula over the exact count, which gives the same windows; their tokens
    // embedded differ only where a window cuts a character, and the worker's replace them.
    let provisional = move || {
        compare_settings.sized_in.get() == SizeUnit::Tokens
            && matches!(
                compare.shown.get(),
                Shown::Strategy {
                    strategy: StrategyId::Fixed,
                    summary: None
                }
            )
    };
    // `None`: no figure yet (a field to fix, or the strategy's chunks on their way).
    let card = Memo::new(move |_| {
        let formula = out.get()?;
        if provisional() {
            return Some(Card::of_formula(&formula));
        }
        match compare.shown.get() {
            Shown::Formula => Some(Card::of_formula(&formula)),
            Shown::Strategy { summary, .. } => summary.map(|s| Card::of_summary(&s, priced())),
            Shown::Refused { .. } => None,
        }
    });
    let words = move |key: Key| Signal::derive(move || lang.t(key).to_owned());
    let na = words(Key::NotAvailable);
    let fig = move |f: fn(&Card, crate::i18n::Lang) -> (String, String)| {
        Signal::derive(move || {
            let l = lang.get();
            card.with(|c| c.as_ref().map(|c| f(c, l)))
        })
    };
    let stride = Signal::derive(move || {
        let l = lang.get();
        // The formula's stride is fixed windows' step: shown without a text, and for fixed
        // windows in tokens.
        let windows = compare_settings.sized_in.get() == SizeUnit::Tokens;
        match compare.shown.get() {
            // Characters: the stride is not in tokens, which its label says.
            Shown::Formula if chars_formula() => None,
            Shown::Formula => out.get().map(|o| int(o.stride.into(), l)),
            Shown::Strategy {
                strategy: StrategyId::Fixed,
                ..
            } if windows => out.get().map(|o| int(o.stride.into(), l)),
            _ => None,
        }
    });

    // The document's own tokens do not depend on the strategy: shown while its chunks are on
    // their way too.
    let doc_tokens = Signal::derive(move || {
        let l = lang.get();
        out.get().map(|o| int(o.document_tokens.into(), l))
    });
    let doc_chars = Signal::derive(move || {
        let l = lang.get();
        if !source.text.with(|t| t.is_empty()) {
            return Some(int(derived.text_chars.get().into(), l));
        }
        match out.get().map(|o| o.is_estimate) {
            Some(true) => derived.checked.with(|c| {
                c.input.and_then(|i| match i.document {
                    chunk_core::formula::DocLength::EstimatedFromChars { chars, .. } => {
                        Some(int(chars.into(), l))
                    }
                    _ => None,
                })
            }),
            _ => None,
        }
    });
    let cost = Signal::derive(move || {
        let l = lang.get();
        card.with(|c| c.as_ref().and_then(|c| c.cost))
            .map(|c| (c.to_string(), format::usd(l, c)))
    });
    let models = expect_context::<crate::model::ModelSettings>();
    let fields = expect_context::<CalculatorFields>();
    // An estimate of the document's length, or counts that are an estimate for the chosen
    // model (another encoding than its own, a proxy, a tokenizer the page does not ship):
    // either way the figures are estimates.
    let is_estimate = move || {
        out.get().is_some_and(|o| o.is_estimate)
            || models
                .model
                .get()
                .is_some_and(|m| !m.counts_exactly_with(fields.encoding.get()))
    };
    let source_code = move || match compare.shown.get() {
        _ if provisional() => "windows",
        Shown::Formula => "formula",
        Shown::Strategy {
            summary: Some(_), ..
        } => "strategy",
        Shown::Strategy { summary: None, .. } => "waiting",
        Shown::Refused { .. } => "refused",
    };
    let shown_strategy = move || match compare.shown.get() {
        Shown::Formula => None,
        Shown::Strategy { strategy, .. } | Shown::Refused { strategy, .. } => Some(strategy),
    };
    // What the figures are exact (or an estimate) for: the library and version a strategy
    // reproduces, or the product's own strategy's name, and the tokenizer that counted them.
    let badge = move || {
        let length_estimated = out.get()?.is_estimate;
        let l = lang.get();
        let estimate = is_estimate();
        // The formula's windows over a length estimated from the characters (the exact count
        // still on its way, or a length typed in characters): no one's exact chunks, and no
        // tokenizer counted them.
        let strategy = shown_strategy().filter(|_| !(length_estimated && provisional()));
        let Some(strategy) = strategy else {
            let (class, text) = if estimate {
                ("badge estimate", lang.t(Key::EstimateBadge).to_owned())
            } else {
                ("badge formula", lang.t(Key::BadgeFormula).to_owned())
            };
            return Some(view! {
                <span class=class data-testid="results-badge" data-exact=(!estimate).to_string()>{text}</span>
            });
        };
        let what = match strategy.library() {
            Some(lib) => format!("{} {}", lib.package, lib.version),
            None => crate::compare::strategy_name(l, strategy),
        };
        let tokenizer = fields.encoding.get().name();
        let (class, text) = if estimate {
            (
                "badge estimate",
                lang.tf(page_msg::BadgeEstimateFor {
                    what: &what,
                    tokenizer,
                }),
            )
        } else {
            (
                "badge exact",
                lang.tf(page_msg::BadgeExactFor {
                    what: &what,
                    tokenizer,
                }),
            )
        };
        Some(view! {
            <span class=class data-testid="results-badge" data-exact=(!estimate).to_string()>{text}</span>
        })
    };
    // Why there are no figures with a text: the chunks are on their way, or the strategy
    // refused (its reason, as the strategy panel words it).
    let waiting = move || {
        let l = lang.get();
        match compare.shown.get() {
            // The strategies cannot run (their worker, or the page's panels' module that
            // starts it, failed): said, not waited for.
            Shown::Strategy { strategy, summary: None }
                if out.get().is_some()
                    && !provisional()
                    && matches!(compare.engine.get(), crate::compare::state::EngineStatus::Failed(_)) =>
            {
                Some(view! {
                    <p class="notice warn" data-testid="results-unavailable">
                        {lang.tf(page_msg::ResultsUnavailable { what: &crate::compare::strategy_name(l, strategy) })}
                    </p>
                }.into_any())
            }
            Shown::Strategy { strategy, summary: None } if out.get().is_some() && !provisional() => Some(view! {
                <p class="notice info" data-testid="results-waiting">
                    {lang.tf(page_msg::ResultsWaiting { what: &crate::compare::strategy_name(l, strategy) })}
                </p>
            }.into_any()),
            Shown::Refused { refusal, .. } => Some(view! {
                <p class="notice warn" data-testid="results-refused" data-refused=refusal.kind.clone()>
                    {crate::compare::refusal_text(l, &refusal)}
                </p>
            }.into_any()),
            Shown::Formula if out.get().is_some() => Some(view! {
                <p
                    class="field-note"
                    data-testid="results-formula-note"
                    data-unit=match compare_settings.sized_in.get() {
                        SizeUnit::Characters => "characters",
                        SizeUnit::Model(_) => "model",
                        SizeUnit::Tokens => "tokens",
                    }
                >
                    {match compare_settings.sized_in.get() {
                        SizeUnit::Characters => lang.t(Key::ResultsFormulaNoteChars).to_owned(),
                        SizeUnit::Model(_) => lang.tf(page_msg::ResultsFormulaNoteModel {
                            encoding: fields.encoding.get().name(),
                        }),
                        SizeUnit::Tokens => lang.t(Key::ResultsFormulaNote).to_owned(),
                    }}
                </p>
            }.into_any()),
            Shown::Strategy { summary: Some(_), .. } => Some(view! {
                <p class="field-note" data-testid="results-tokens-rule">{lang.t(Key::ResultsTokensRule)}</p>
            }.into_any()),
            _ => None,
        }
    };

    view! {
        <section
            class="panel results"
            aria-labelledby="results-heading"
            aria-live="polite"
            data-testid="results"
            data-estimate=move || is_estimate().to_string()
            data-source=source_code
            data-strategy=move || shown_strategy().map(|s| s.as_str())
        >
            <h2 id="results-heading">
                {move || lang.t(Key::ResultsHeading)}
                {badge}
            </h2>
            <Notices/>
            {waiting}
            <dl class="figures">
                <Figure testid="out-chunks" label=words(Key::OutChunks) missing=na shrink_long=true primary=true value=fig(|c, l| int(c.chunks, l))/>
                <Figure testid="out-total-tokens" label=words(Key::OutTotal) missing=na shrink_long=true primary=true value=fig(|c, l| int(c.total_tokens, l))/>
                <Figure testid="out-cost" label=words(Key::OutCost) missing=na shrink_long=true primary=true value=cost/>
                <Figure testid="out-repeated-tokens" label=words(Key::OutRepeated) missing=na shrink_long=true value=fig(|c, l| int(c.repeated_tokens, l))/>
                <Figure testid="out-repeated-share" label=words(Key::OutShare) missing=na shrink_long=true value=fig(|c, l| share(c.repeated_share, l))/>
                <Figure testid="out-extra" label=words(Key::OutExtra) missing=na shrink_long=true value=fig(|c, l| share(c.extra, l))/>
                <Figure testid="out-last-chunk" label=words(Key::OutLastChunk) missing=na shrink_long=true value=fig(|c, l| int(c.last_chunk, l))/>
                <Figure testid="out-stride" label=words(Key::OutStride) missing=na shrink_long=true value=stride/>
                <Figure testid="out-doc-tokens" label=words(Key::OutDocTokens) missing=na shrink_long=true value=doc_tokens/>
                <Figure testid="out-doc-chars" label=words(Key::OutDocChars) missing=na shrink_long=true value=doc_chars/>
            </dl>
        </section>
    }
}

/// The notices above the figures: fields to fix, overlap clamped, estimate or exact.
#[component]
fn Notices() -> impl IntoView {
    let lang = expect_context::<Language>();
    let models = expect_context::<crate::model::ModelSettings>();
    let fields = expect_context::<CalculatorFields>();
    let source = expect_context::<SourceText>();
    let derived = expect_context::<Derived>();
    let compare_settings = expect_context::<crate::compare::CompareSettings>();
    let compare = expect_context::<crate::compare::CompareResults>();
    let out = derived.output;
    // The formula and fixed windows use size − 1 for an overlap at or over the size; a strategy
    // that refuses it says why instead (`results-refused`), and no value was used.
    let clamped = move || {
        if matches!(compare.shown.get(), Shown::Refused { .. }) {
            return None;
        }
        let (requested, used) = derived.checked.with(|c| c.clamped_overlap())?;
        let size = derived.checked.with(|c| c.size_value)?;
        let l = lang.get();
        let msg = lang.tf(page_msg::NoticeOverlapClamped {
            requested: &format::int(l, requested as u128),
            size: &format::int(l, size as u128),
            used: &format::int(l, used as u128),
        });
        Some(view! {
            <p
                class="notice warn"
                role="status"
                data-testid="notice-overlap-clamped"
                data-requested=requested.to_string()
                data-used=used.to_string()
            >
                {msg}
            </p>
        })
    };
    let fix = move || {
        out.get().is_none().then(|| {
            view! {
                <p class="notice error" data-testid="notice-fix-fields">
                    {lang.t(Key::ErrFixFields)}
                </p>
            }
        })
    };
    let basis = move || {
        let o = out.get()?;
        let l = lang.get();
        if o.is_estimate {
            let chars = derived.checked.with(|c| {
                c.input.map(|i| match i.document {
                    chunk_core::formula::DocLength::EstimatedFromChars { chars, .. } => chars,
                    chunk_core::formula::DocLength::Tokens(t) => t,
                })
            })?;
            let msg = lang.tf(page_msg::NoticeEstimate {
                chars: &format::int(l, chars as u128),
                per_token: &format::int(l, CHARS_PER_TOKEN),
                tokens: &format::int(l, o.document_tokens as u128),
            });
            Some(
                view! { <p class="notice info" data-testid="notice-estimate">{msg}</p> }.into_any(),
            )
        } else if let Some(msg) = models.model.get().and_then(|m| {
            crate::model::estimate_hint(
                lang.get(),
                m,
                fields.encoding.get(),
                compare_settings.sized_in.get(),
            )
        }) {
            // Exact for the encoding, an estimate for the model: the model is what counts.
            Some(
                view! { <p class="notice info" data-testid="notice-model-estimate">{msg}</p> }
                    .into_any(),
            )
        } else if derived.ready.get() && !source.text.with(|t| t.is_empty()) {
            let msg = lang.tf(page_msg::NoticeExact {
                encoding: fields.encoding.get().name(),
            });
            Some(view! { <p class="notice ok" data-testid="notice-exact">{msg}</p> }.into_any())
        } else {
            None
        }
    };
    view! { {fix} {clamped} {basis} }
}
