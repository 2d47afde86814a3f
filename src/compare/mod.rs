//! Every strategy on the user's whole text: the comparison table ([`table`]), the chosen
//! strategy's chunks, histogram, export and snippet ([`panel`]), and two settings side by side
//! ([`ab`]), and the model select and panel ([`model_panel`]). Every figure comes from the
//! comparison worker ([`engine`], which runs `crates/compare-engine`); `crate::jobs` schedules
//! the requests and files the replies, and this module shows them.
//!
//! Contexts (Leptos todomvc style):
//! - [`CompareSettings`]: the size unit, the size tokenizer and the chosen strategy, written by
//!   their selects (the unit also by the buttons that fill the form: a library's defaults, the
//!   sweep's best, which also sets the size tokenizer; all three by a settings link), and the
//!   unit the chunks are sized in, a `Memo` of them and the chosen model;
//! - [`CompareResults`]: the worker's replies, written only by `crate::jobs`;
//! - the retrieval check's own two (`crate::retrieval::state::RetrievalSettings`,
//!   `crate::retrieval::state::RetrievalResults`), whose requests go through the same workers.

pub mod ab;
pub mod engine;
pub mod messages;
pub mod model_panel;
pub mod panel;
pub mod state;
pub mod table;

pub use state::{
    AbSide, ChunkPage, EngineStatus, RowState, Shown, Table, HISTOGRAM_BINS, ROWS_PAGE,
};

use crate::compare::messages::args as cmp_msg;
use std::rc::Rc;

use chunk_core::analysis::protocol::{ExportFormat, Outcome, Selection};
use chunk_core::analysis::refusal::Refusal;
use chunk_core::strategy::{Breakpoints, SizeUnit, StrategyId, Structure};
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;

use crate::i18n::Lang;
use crate::state::PageState;
use messages::Msg;

/// Quiet time after the last edit before the worker is asked, in milliseconds: a burst of
/// edits (keys, a settings change that moves several fields) makes one job, not one per
/// event. Short, because it adds to the time until the table is complete after a paste, and a
/// job the next edit replaces stops at its next row anyway.
pub const DEBOUNCE_MS: u64 = 50;

/// The settings the comparison reads besides the calculator's fields.
#[derive(Clone, Copy)]
pub struct CompareSettings {
    /// Unit of chunk_size and chunk_overlap for the strategies (`chunk-size-unit`): tokens or
    /// characters.
    pub unit: RwSignal<SizeUnit>,
    /// The user's choice in `size-tokenizer` (also set by a settings link): `Some(true)` the
    /// chosen open model's own tokens, `Some(false)` the encoding's, `None` the default
    /// ([`SizeUnit::sized_for`]).
    pub size_tokenizer: RwSignal<Option<bool>>,
    /// The strategy whose chunks are shown (`strategy`).
    pub strategy: RwSignal<StrategyId>,
    /// The B side of the A/B view: strategy, chunk_size, chunk_overlap as typed.
    pub ab: RwSignal<AbSide>,
    /// The unit every chunk is sized in: [`CompareSettings::unit`] made the chosen model's
    /// own tokens where [`SizeUnit::sized_for`] says (a `Memo` over the unit, the choice, the
    /// model and the strategy; everything that cuts or labels chunks reads it).
    pub sized_in: Memo<SizeUnit>,
    /// The product's structure options (`heading-prefix`, `fence-repair`), which only its
    /// markdown strategy reads.
    pub structure: RwSignal<Structure>,
    /// Whether the semantic strategies run (`semantic-model`, off by default: they need the
    /// embedding model, fetched only then); their model is the retrieval check's dense model.
    pub semantic: RwSignal<bool>,
    /// The semantic strategies' breakpoint percentile as typed (`semantic-percentile`; read
    /// by LangChain's, LlamaIndex's and the product's own).
    pub percentile: RwSignal<String>,
    /// chonkie's `threshold` as typed (`chonkie-threshold`).
    pub chonkie_threshold: RwSignal<String>,
}

/// A default threshold as it is typed (`95`, `0.8`).
fn format_breakpoint(x: f64) -> String {
    format!("{x}")
}

impl CompareSettings {
    /// The thresholds the semantic rows run with: each box's number (either decimal mark),
    /// or the library's default where a box does not hold one; and whether each box held one
    /// (percentile, chonkie). A number out of its range is passed on: the strategy refuses it
    /// in words ([`chunk_core::strategy::StrategyError::ParameterRefused`]), and
    /// [`Breakpoints::in_range`] says so beside the box.
    pub fn breakpoints(&self) -> (Breakpoints, [bool; 2]) {
        let read = |s: RwSignal<String>| s.with(|t| crate::parse::parse_decimal(t).ok());
        let (p, c) = (read(self.percentile), read(self.chonkie_threshold));
        let d = Breakpoints::default();
        (
            Breakpoints {
                percentile: p.unwrap_or(d.percentile),
                chonkie_threshold: c.unwrap_or(d.chonkie_threshold),
            },
            [p.is_some(), c.is_some()],
        )
    }

    /// The page's initial settings (tokens, fixed windows, the default sizing), with
    /// [`CompareSettings::sized_in`] following `models`' chosen model.
    pub fn new(models: crate::model::ModelSettings) -> Self {
        let unit = RwSignal::new(SizeUnit::Tokens);
        let size_tokenizer = RwSignal::new(None);
        let strategy = RwSignal::new(StrategyId::Fixed);
        CompareSettings {
            unit,
            size_tokenizer,
            strategy,
            ab: RwSignal::new(AbSide {
                strategy: StrategyId::LangchainRecursive,
                chunk_size: "1024".into(),
                chunk_overlap: "128".into(),
            }),
            structure: RwSignal::new(Structure::default()),
            semantic: RwSignal::new(false),
            percentile: RwSignal::new(format_breakpoint(Breakpoints::default().percentile)),
            chonkie_threshold: RwSignal::new(format_breakpoint(
                Breakpoints::default().chonkie_threshold,
            )),
            sized_in: Memo::new(move |_| {
                unit.get().sized_for(
                    models.model.get().and_then(|m| m.tokenizer.open_vocab()),
                    size_tokenizer.get(),
                    strategy.get(),
                )
            }),
        }
    }
}

/// The worker's replies, written only by [`wiring`].
#[derive(Clone, Copy)]
pub struct CompareResults {
    /// Worker status.
    pub engine: RwSignal<EngineStatus>,
    /// The comparison table.
    pub table: RwSignal<Table>,
    /// The chosen strategy's figures (`None` before the first reply or without text).
    pub selection: RwSignal<Option<Selection>>,
    /// The chosen strategy's chunks.
    pub chunks: RwSignal<ChunkPage>,
    /// The A/B view's B row: (job, outcome).
    pub ab_row: RwSignal<Option<(u32, Outcome)>>,
    /// True while B's chunk_size or chunk_overlap is not a whole number (size ≥ 1) and A's
    /// fields are valid. A `Memo`: the A/B view and its two fields read it.
    pub ab_invalid: Memo<bool>,
    /// The formula the results card and the model panel show without a text: fixed windows
    /// of tokens, or of characters when that is the unit
    /// ([`chunk_core::formula::compute_in_characters`]); with a text, the token formula over
    /// its exact count (the fixed windows' provisional figures). A `Memo` of the calculator's
    /// fields and the unit (not a reply of the worker): both read it.
    pub formula: Memo<Option<chunk_core::formula::FormulaOutput>>,
    /// What the results card and the model panel show (a `Memo` over the text, the chosen
    /// strategy, the unit and the selection: both read it, and it changes with them only).
    pub shown: Memo<Shown>,
    /// The driver's request functions for rows, deferred rows and exports.
    pub requests: Requests,
}

/// A request function the driver installs (local to the page's thread: it holds the worker).
type Stored<F> = StoredValue<Option<Rc<F>>, LocalStorage>;

/// The driver's request functions, for the components that ask for more (rows, exports).
#[derive(Clone, Copy)]
pub struct Requests {
    pub(crate) more_rows: Stored<dyn Fn()>,
    pub(crate) run_deferred: Stored<dyn Fn()>,
    pub(crate) export: Stored<dyn Fn(ExportFormat)>,
}

impl Requests {
    /// Asks for the next [`ROWS_PAGE`] chunks of the selection.
    pub fn more_rows(&self) {
        if let Some(f) = self.more_rows.get_value() {
            f();
        }
    }
    /// Starts the rows the table left for the user.
    pub fn run_deferred(&self) {
        if let Some(f) = self.run_deferred.get_value() {
            f();
        }
    }
    /// Asks for an export file of the selection (downloaded when it arrives).
    pub fn export(&self, format: ExportFormat) {
        if let Some(f) = self.export.get_value() {
            f(format);
        }
    }
}

/// A job's status line (`role="status"`, announced politely) and its progress bar, shown only
/// while `running`; the bar carries the steps done in `data-value` and their number in
/// `data-total`. Shared by the comparison table and the retrieval check.
#[component]
pub fn StatusProgress(
    /// data-testid of the status line.
    status_testid: &'static str,
    /// data-testid of the bar.
    progress_testid: &'static str,
    /// The status text.
    #[prop(into)]
    text: Signal<String>,
    /// Steps done.
    #[prop(into)]
    done: Signal<usize>,
    /// Steps in the job.
    #[prop(into)]
    total: Signal<usize>,
    /// Whether the job runs (the bar is hidden otherwise).
    #[prop(into)]
    running: Signal<bool>,
) -> impl IntoView {
    view! {
        <p class="compare-status" data-testid=status_testid role="status" aria-live="polite">
            {text}
        </p>
        <progress
            data-testid=progress_testid
            max=move || total.get().max(1)
            value=move || done.get()
            data-value=move || done.get()
            data-total=move || total.get()
            class:hidden=move || !running.get()
        ></progress>
    }
}

/// The `chunk-size-unit` select: tokens or characters for chunk_size and chunk_overlap of the
/// strategies and of the results card (every figure is still counted in tokens).
#[component]
pub fn SizeUnitSelect() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let on_change = move |ev| {
        let unit = match event_target_value(&ev).as_str() {
            "characters" => SizeUnit::Characters,
            _ => SizeUnit::Tokens,
        };
        settings.unit.set(unit);
    };
    view! {
        <div class="field">
            <label for="chunk-size-unit">{move || m(Msg::SizeUnitLabel)}</label>
            <select id="chunk-size-unit" data-testid="chunk-size-unit" on:change=on_change>
                <option value="tokens" selected=move || settings.unit.get() == SizeUnit::Tokens>
                    {move || m(Msg::UnitTokens)}
                </option>
                <option value="characters" selected=move || settings.unit.get() == SizeUnit::Characters>
                    {move || m(Msg::UnitCharacters)}
                </option>
            </select>
            <p class="field-note">{move || m(Msg::UnitNote)}</p>
        </div>
    }
}

/// The `size-tokenizer` select: whose tokens chunk_size and chunk_overlap count — the chosen
/// model's own tokenizer (`model`, offered for a model with an open one) or an encoding
/// (`cl100k_base`, `o200k_base`, which is also the calculator's tokenizer). Shown when the
/// unit is tokens; `data-value` is what sizes the chunks now.
#[component]
pub fn SizeTokenizerSelect() -> impl IntoView {
    let app = PageState::from_context();
    // It writes the calculator's tokenizer when an encoding is picked.
    let fields = expect_context::<crate::state::FieldsWriter>();
    let settings = expect_context::<CompareSettings>();
    let models = expect_context::<crate::model::ModelSettings>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Msg| messages::text(lang(), msg);
    let open = move || models.model.get().and_then(|x| x.tokenizer.open_vocab());
    let value = move || match settings.sized_in.get() {
        SizeUnit::Model(_) => "model",
        _ => app.fields.encoding.get().name(),
    };
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        if v == "model" {
            settings.size_tokenizer.set(Some(true));
        } else if let Some(e) = Encoding::from_name(&v) {
            settings.size_tokenizer.set(Some(false));
            fields.encoding.set(e);
        }
    };
    view! {
        <div class="field" class:hidden=move || settings.sized_in.get() == SizeUnit::Characters>
            <label for="size-tokenizer">{move || m(Msg::SizeTokenizerLabel)}</label>
            <select
                id="size-tokenizer"
                data-testid="size-tokenizer"
                data-value=value
                prop:value=value
                on:change=on_change
            >
                {move || {
                    open()
                        .map(|v| {
                            view! {
                                <option value="model" selected=move || value() == "model">
                                    {move || {
                                        cmp_msg::SizeTokenizerModel {
                                            tokenizer: v.label(),
                                        }
                                        .fill(lang())
                                    }}
                                </option>
                            }
                        })
                }}
                {Encoding::ALL
                    .into_iter()
                    .map(|e| {
                        view! {
                            <option value=e.name() selected=move || value() == e.name()>
                                {e.name()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <p class="field-note">{move || m(Msg::SizeTokenizerNote)}</p>
        </div>
    }
}

/// The strategy's display name: the library's class for library strategies, else the
/// product's own name in `lang`.
/// Every strategy is named here (no catch-all): a new one does not compile until it has a name.
pub fn strategy_name(lang: Lang, id: StrategyId) -> String {
    let own = match id {
        StrategyId::Fixed => Msg::OwnFixed,
        StrategyId::Sentence => Msg::OwnSentence,
        StrategyId::Recursive => Msg::OwnRecursive,
        StrategyId::Markdown => Msg::OwnMarkdown,
        StrategyId::SectionBudget => Msg::OwnSectionBudget,
        StrategyId::Semantic => Msg::OwnSemantic,
        StrategyId::LangchainToken
        | StrategyId::LangchainRecursive
        | StrategyId::LangchainMarkdown
        | StrategyId::LangchainMarkdownLanguage
        | StrategyId::TextSplitter
        | StrategyId::TextSplitterMarkdown
        | StrategyId::Semchunk
        | StrategyId::ChonkieRecursive
        | StrategyId::ChonkieToken
        | StrategyId::LlamaindexToken
        | StrategyId::LlamaindexSentence
        | StrategyId::LlamaindexMarkdown
        | StrategyId::ChonkieSemantic
        | StrategyId::LangchainSemantic
        | StrategyId::LlamaindexSemantic => {
            return id.library().map_or_else(
                || id.to_string(),
                |lib| format!("{} · {}", lib.label(), lib.api),
            )
        }
    };
    messages::text(lang, own).to_owned()
}

/// What the page says beside chunks made without the overlap asked for: chonkie's
/// `RecursiveChunker` has no overlap parameter; no semantic chunker has one either.
pub fn overlap_ignored_msg(id: StrategyId) -> Msg {
    if id.needs_embeddings() {
        Msg::OverlapIgnoredSemantic
    } else {
        Msg::OverlapIgnored
    }
}

/// A refusal worded in `lang`, with its numbers formatted.
pub fn refusal_text(lang: Lang, r: &Refusal) -> String {
    // A field as shown: a whole number formatted for the language (but a strategy's name),
    // anything else as the core wrote it; a field the refusal lacks is shown empty.
    let shown = |name: &str| -> String {
        let v = r.field(name).unwrap_or_default();
        match v.parse::<u64>() {
            Ok(n) if name != "strategy" => crate::format::int(lang, n),
            _ => v.to_owned(),
        }
    };
    let (library, chunk_size, chunk_overlap) = (
        shown("library"),
        shown("chunk_size"),
        shown("chunk_overlap"),
    );
    let (byte_offset, found, tokens) = (shown("byte_offset"), shown("found"), shown("tokens"));
    match r.kind.as_str() {
        "zero-chunk-size" => messages::text(lang, Msg::RefusedZeroSize).to_owned(),
        "overlap-refused" => cmp_msg::RefusedOverlap {
            library: &library,
            chunk_overlap: &chunk_overlap,
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "unit-unsupported" => {
            let unit_name = match r.field("unit") {
                Some("characters") => messages::text(lang, Msg::UnitCharacters),
                Some("model") => {
                    // Token windows decode ids; the page's own strategies cut at the encoding's
                    // token boundaries.
                    let own = r
                        .field("strategy")
                        .and_then(|s| s.parse::<StrategyId>().ok())
                        .is_some_and(|s| s.library().is_none() && s != StrategyId::Fixed);
                    let msg = if own {
                        Msg::RefusedModelUnitOwn
                    } else {
                        Msg::RefusedModelUnit
                    };
                    return messages::text(lang, msg).to_owned();
                }
                _ => messages::text(lang, Msg::UnitTokens),
            };
            cmp_msg::RefusedUnit { unit_name }.fill(lang)
        }
        "tokenizer-not-loaded" => messages::text(lang, Msg::RefusedNotLoaded).to_owned(),
        "model-decode" => cmp_msg::RefusedModelDecode {
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "text-refused" => cmp_msg::RefusedText {
            library: &library,
            found: &found,
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "character-over-chunk-size" => cmp_msg::RefusedCharacter {
            library: &library,
            byte_offset: &byte_offset,
            tokens: &tokens,
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "recursion-limit" => cmp_msg::RefusedRecursion {
            library: &library,
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "metadata-over-chunk-size" => cmp_msg::RefusedMetadata {
            library: &library,
            byte_offset: &byte_offset,
            metadata_length: &shown("metadata_length"),
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "prefix-over-budget" => cmp_msg::RefusedPrefix {
            prefix_length: &shown("prefix_length"),
            chunk_size: &chunk_size,
        }
        .fill(lang),
        // The semantic thresholds a user types are named with their range.
        "parameter-refused" => match (r.field("strategy"), r.field("parameter")) {
            (_, Some(p @ ("breakpoint_threshold_amount" | "breakpoint_percentile_threshold"))) => {
                cmp_msg::RefusedPercentile { parameter: p }.fill(lang)
            }
            (Some("chonkie-semantic"), Some(p @ ("threshold" | "filter_tolerance"))) => {
                cmp_msg::RefusedUnitInterval { parameter: p }.fill(lang)
            }
            _ => cmp_msg::RefusedParameter {
                parameter: &shown("parameter"),
            }
            .fill(lang),
        },
        "embeddings-needed" => messages::text(lang, Msg::RefusedNeedsEmbeddings).to_owned(),
        "sentence-embeddings-failed" => cmp_msg::RefusedSentenceEmbeddings {
            message: r.field("message").unwrap_or_default(),
        }
        .fill(lang),
        "embeddings-failed" => cmp_msg::RefusedEmbeddings {
            message: r.field("message").unwrap_or_default(),
        }
        .fill(lang),
        _ => r.english.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::strategy::StrategyError;
    use chunk_core::tokenizer::open::OpenVocab;

    #[test]
    fn every_refusal_is_worded_with_its_numbers_in_every_language() {
        let errors = [
            StrategyError::Params(chunk_core::params::ParamsError::ZeroChunkSize),
            StrategyError::OverlapRefused {
                strategy: StrategyId::LangchainRecursive,
                library: "langchain-text-splitters",
                chunk_size: 100,
                chunk_overlap: 150,
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Semchunk,
                unit: SizeUnit::Characters,
            },
            StrategyError::TextRefused {
                strategy: StrategyId::LangchainToken,
                library: "langchain-text-splitters",
                byte_offset: 42,
                found: "<|endoftext|>",
            },
            StrategyError::CharacterOverChunkSize {
                strategy: StrategyId::Semchunk,
                library: "semchunk",
                byte_offset: 7,
                tokens: 3,
                chunk_size: 2,
            },
            StrategyError::RecursionLimit {
                strategy: StrategyId::LlamaindexSentence,
                library: "llama-index-core",
                byte_offset: 9,
            },
            StrategyError::ParameterRefused {
                strategy: StrategyId::Semchunk,
                parameter: "chunk_size",
                detail: "must be positive",
            },
            StrategyError::MetadataOverChunkSize {
                strategy: StrategyId::LlamaindexMarkdown,
                library: "llama-index-core",
                metadata_length: 1250,
                chunk_size: 1024,
                byte_offset: 4096,
            },
            StrategyError::TokenizerNotLoaded {
                vocab: OpenVocab::XlmRoberta,
            },
            StrategyError::PrefixOverBudget {
                prefix_length: 9,
                chunk_size: 8,
                byte_offset: 0,
            },
            StrategyError::ModelDecode {
                strategy: StrategyId::ChonkieRecursive,
                byte_offset: 1234,
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Fixed,
                unit: SizeUnit::Model(OpenVocab::BertUncased),
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Recursive,
                unit: SizeUnit::Model(OpenVocab::BertUncased),
            },
            StrategyError::EmbeddingsNeeded {
                strategy: StrategyId::Semantic,
            },
        ];
        for lang in Lang::ALL {
            // The semantic rows' failure is worded apart from the retrieval check's.
            let failed = refusal_text(lang, &Refusal::sentence_embeddings_failed("offline"));
            let ranked = refusal_text(lang, &Refusal::embeddings_failed("offline"));
            assert!(
                failed.contains("offline") && !failed.contains('{'),
                "{lang:?}: {failed}"
            );
            assert_ne!(failed, ranked);
            let mut seen = std::collections::HashSet::new();
            for e in &errors {
                let text = refusal_text(lang, &Refusal::from(e));
                assert!(!text.contains('{'), "{lang:?} {e}: {text}");
                assert!(
                    seen.insert(text.clone()),
                    "{lang:?}: two refusals, one text: {text}"
                );
            }
            let t = refusal_text(lang, &Refusal::from(&errors[1]));
            assert!(t.contains("150") && t.contains("100"), "{lang:?}: {t}");
            let model_decode = errors
                .iter()
                .find(|e| matches!(e, StrategyError::ModelDecode { .. }))
                .expect("in the list");
            let decode = refusal_text(lang, &Refusal::from(model_decode));
            assert!(
                decode.contains(&crate::format::int(lang, 1234u32)),
                "{lang:?}: {decode}"
            );
            let metadata = errors
                .iter()
                .find(|e| matches!(e, StrategyError::MetadataOverChunkSize { .. }))
                .expect("in the list");
            let metadata = refusal_text(lang, &Refusal::from(metadata));
            for n in [1250u32, 1024, 4096] {
                assert!(
                    metadata.contains(&crate::format::int(lang, n)),
                    "{lang:?}: {metadata}"
                );
            }
        }
    }
}
