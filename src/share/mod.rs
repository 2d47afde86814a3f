//! Settings in the URL (issue 12): the page's settings live in the fragment
//! (`#v=1&lang=en&doc_length=10000&chunk_size=512&…`, keys in [`Key`]), so a link reproduces
//! them; the pasted text never goes into the URL, the history or storage.
//!
//! - On start, [`restore_at_start`] reads `location.hash` before the page's views are built, so
//!   every field starts with the link's value; a key it does not know, or a value its
//!   field cannot hold (an option its select does not have; for a number box, a value too
//!   long or with characters no number is typed with), is left out and listed in a quiet
//!   notice (`share-notice`, `data-keys` = the keys left out, comma-separated, at most 10),
//!   never an error; a number box's value is otherwise taken as typed, and its own check shows
//!   any error (`1.5` chunks), as for typing.
//! - While the user works, [`follow`] writes the settings back, 700 ms after the last change:
//!   the first write replaces the entry the page was opened with (as does the first after
//!   Back or Forward), each later one adds a history entry, so Back and Forward move between
//!   settings the user made (not every keystroke).
//!   `popstate` applies the entry's settings again (and writes them into the text boxes, which
//!   do not follow their signals).
//! - [`ShareLink`]: the "copy link" button (`share-link`, the page's URL with its settings in
//!   `data-value`) and its status line (`share-status`, `data-state` = `copied` | `select`),
//!   with the link in a read-only box (`share-url`) to copy by hand where the clipboard is
//!   refused.
//!
//! Shared: the language; document length and its unit; chunk_size, chunk_overlap, price,
//! tokenizer; the embedding model and the model panel's fields; the comparison's strategy,
//! size unit and size tokenizer (`size_tokenizer`: `model`, an encoding, or `auto`); the
//! markdown strategy's `heading_prefix` (`off`, `path`, `title`) and `fence_repair` (`on`,
//! `off`); the semantic rows' model (`semantic`: `off` or a dense model's id; a link with a
//! model starts its download, as choosing it in the select does, so that the link shows what
//! its sender saw) and thresholds (`semantic_percentile`, `chonkie_threshold`); the retrieval check's k, BM25's k1 and b, the sweep's strategy and objective (not
//! the questions, which are text); the simulator's controls (chunk size and overlap sliders,
//! mode, document, tokenizer, sentence rule; not its query, which is text). Not yet: the A/B
//! view's second setting.

pub mod messages;

use crate::share::messages::args as share_msg;
use chunk_core::models::{model, VectorFormat};
use chunk_core::strategy::{SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;

use crate::compare::CompareSettings;
use crate::i18n::Lang;
use crate::model::ModelSettings;
use crate::parse::LengthUnit;
use crate::retrieval::state::RetrievalSettings;
use crate::simulator::model::{self as sim_model, SimSettings};
use crate::state::{FieldsWriter, LanguageWriter, PageState};
use chunk_core::retrieval::SweepObjective;
use chunk_core::sim::sweep::{OVERLAP_SLIDER, SIZE_SLIDER};
use messages::Sm;

/// The fragment's format version (`v=1`); a link of another version is read as far as its keys
/// are known.
pub const VERSION: &str = "1";

/// The most keys a notice names.
const MAX_LEFT_OUT: usize = 10;

/// The longest value a text box takes from a link, in characters; also the longest key a
/// notice names.
const MAX_VALUE_CHARS: usize = 40;

/// Every shared setting, by its key in the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumIter, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Key {
    /// The UI language (`en`, `vi`, `id`, `ru`, `pl`).
    Lang,
    /// Document length, as typed.
    DocLength,
    /// Its unit (`tokens`, `chars`).
    DocUnit,
    /// chunk_size, as typed.
    ChunkSize,
    /// chunk_overlap, as typed.
    ChunkOverlap,
    /// Price per 1M tokens in USD, as typed (may be empty).
    Price,
    /// The tokenizer's encoding name (`cl100k_base`, `o200k_base`).
    Encoding,
    /// The embedding model's id, or `custom`.
    Model,
    /// The comparison's chosen strategy id.
    Strategy,
    /// The comparison's size unit (`tokens`, `characters`).
    SizeUnit,
    /// Whose tokens size the chunks (`model`: an open model's own; `cl100k_base`,
    /// `o200k_base`: that encoding, which is also the [`Key::Encoding`]).
    SizeTokenizer,
    /// Top-k, as typed.
    TopK,
    /// The LLM context window in tokens, as typed.
    ContextWindow,
    /// Prompt tokens, as typed.
    PromptTokens,
    /// Answer reserve in tokens, as typed.
    AnswerReserve,
    /// Dimensions per vector, as typed.
    Dimensions,
    /// Vector format (`float32`, `float16`, `int8`, `binary`).
    VectorFormat,
    /// Documents in the corpus, as typed.
    CorpusDocuments,
    /// The simulator's chunk-size slider (tokens, a value of `SIZE_SLIDER`).
    SimSize,
    /// The simulator's overlap slider (tokens, a value of `OVERLAP_SLIDER`).
    SimOverlap,
    /// The simulator's mode (`fixed`, `sentence`).
    SimMode,
    /// The simulator's document (`manual`, …, `own`: the codes of its select).
    SimDocument,
    /// The simulator's tokenizer (`simple`, `cl100k_base`, `o200k_base`).
    SimTokenizer,
    /// The simulator's sentence rule (the codes of its select).
    SimRule,
    /// The retrieval check's k (top-k chunks retrieved), as typed.
    RetrievalK,
    /// BM25's k1, as typed.
    Bm25K1,
    /// BM25's b, as typed.
    Bm25B,
    /// The strategy the sweep runs (a strategy id).
    SweepStrategy,
    /// What the sweep's best setting minimises (`tokens`, `vectors`).
    SweepObjective,
    /// The markdown strategy's heading prefix (`off`, `path`, `title`).
    HeadingPrefix,
    /// The markdown strategy's fence repair (`on`, `off`).
    FenceRepair,
    /// The semantic rows' embedding model (`off`, or a dense model's id such as
    /// `potion-base-8m`), which is also the retrieval check's dense model.
    Semantic,
    /// The semantic rows' breakpoint percentile, as typed.
    SemanticPercentile,
    /// chonkie's semantic `threshold`, as typed.
    ChonkieThreshold,
}

impl Key {
    /// The key's name in the fragment.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The key named `name`.
    pub fn from_name(name: &str) -> Option<Key> {
        use strum::IntoEnumIterator;
        Key::iter().find(|k| k.name() == name)
    }

    /// The id of the text box this key's value is typed in, where it has one.
    fn input_id(self) -> Option<&'static str> {
        Some(match self {
            Key::DocLength => "doc-length",
            Key::ChunkSize => "chunk-size",
            Key::ChunkOverlap => "chunk-overlap",
            Key::Price => "price",
            Key::TopK => "top-k",
            Key::ContextWindow => "context-window",
            Key::PromptTokens => "prompt-tokens",
            Key::AnswerReserve => "answer-reserve",
            Key::Dimensions => "dimensions",
            Key::CorpusDocuments => "corpus-documents",
            Key::RetrievalK => "retrieval-k",
            Key::Bm25K1 => "bm25-k1",
            Key::Bm25B => "bm25-b",
            Key::SemanticPercentile => "semantic-percentile",
            Key::ChonkieThreshold => "chonkie-threshold",
            _ => return None,
        })
    }
}

/// The fragment of `pairs` (without the `#`): `v=1` first, then each pair, form-encoded.
pub fn to_fragment(pairs: &[(Key, String)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    out.append_pair("v", VERSION);
    for (k, v) in pairs {
        out.append_pair(k.name(), v);
    }
    out.finish()
}

/// The pairs of a fragment (with or without its `#`), in order; keys it does not know (other
/// than `v`, and an empty one) come back as `Err(key)`.
pub fn from_fragment(fragment: &str) -> Vec<Result<(Key, String), String>> {
    let body = fragment.strip_prefix('#').unwrap_or(fragment);
    form_urlencoded::parse(body.as_bytes())
        // `v` is the version; a pair without a key (`=x`, `&&`) says nothing.
        .filter(|(k, _)| k != "v" && !k.is_empty())
        .map(|(k, v)| match Key::from_name(&k) {
            Some(key) => Ok((key, v.into_owned())),
            None => Err(k.into_owned()),
        })
        .collect()
}

/// Where the shared settings live.
#[derive(Clone, Copy)]
pub struct Targets {
    /// The calculator's fields and the language, to read.
    pub app: PageState,
    /// The language's write handle (a link sets the language).
    pub language: LanguageWriter,
    /// The calculator fields' write handle.
    pub fields: FieldsWriter,
    /// The model select and panel.
    pub models: ModelSettings,
    /// The comparison's strategy and unit.
    pub compare: CompareSettings,
    /// The simulator's controls.
    pub sim: SimSettings,
    /// The retrieval check's fields and the sweep's choices.
    pub retrieval: RetrievalSettings,
}

impl Targets {
    /// The contexts of the page (after `App` has provided them all).
    pub fn from_context() -> Self {
        Targets {
            app: PageState::from_context(),
            language: expect_context::<LanguageWriter>(),
            fields: expect_context::<FieldsWriter>(),
            models: expect_context::<ModelSettings>(),
            compare: expect_context::<CompareSettings>(),
            sim: expect_context::<SimSettings>(),
            retrieval: expect_context::<RetrievalSettings>(),
        }
    }

    /// The settings now, every key (reading them subscribes).
    pub fn snapshot(&self) -> Vec<(Key, String)> {
        use strum::IntoEnumIterator;
        Key::iter().map(|k| (k, self.read(k))).collect()
    }

    fn read(&self, key: Key) -> String {
        let f = self.app.fields;
        let m = self.models;
        match key {
            Key::Lang => self.app.language.lang.get().code().to_owned(),
            Key::DocLength => f.doc_length.get(),
            Key::DocUnit => f.unit.get().code().to_owned(),
            Key::ChunkSize => f.chunk_size.get(),
            Key::ChunkOverlap => f.chunk_overlap.get(),
            Key::Price => f.price.get(),
            Key::Encoding => f.encoding.get().name().to_owned(),
            Key::Model => m.model.get().map_or("custom", |x| x.id).to_owned(),
            Key::Strategy => self.compare.strategy.get().to_string(),
            // The model's own tokens are the `size-tokenizer` key's: the unit says tokens.
            Key::SizeUnit => match self.compare.unit.get() {
                SizeUnit::Model(_) => SizeUnit::Tokens,
                unit => unit,
            }
            .code()
            .to_owned(),
            Key::HeadingPrefix => self
                .compare
                .structure
                .get()
                .heading_prefix
                .as_str()
                .to_owned(),
            Key::FenceRepair => if self.compare.structure.get().fence_repair {
                "on"
            } else {
                "off"
            }
            .to_owned(),
            Key::SizeTokenizer => match self.compare.size_tokenizer.get() {
                Some(true) => "model",
                Some(false) => f.encoding.get().name(),
                None => "auto",
            }
            .to_owned(),
            Key::TopK => m.top_k.get(),
            Key::ContextWindow => m.window.get(),
            Key::PromptTokens => m.prompt.get(),
            Key::AnswerReserve => m.reserve.get(),
            Key::Dimensions => m.dimensions.get(),
            Key::VectorFormat => crate::model::format_code(m.format.get()).to_owned(),
            Key::CorpusDocuments => m.documents.get(),
            Key::SimSize => self.sim.size.get().to_string(),
            Key::SimOverlap => self.sim.overlap.get().to_string(),
            Key::SimMode => sim_model::strategy_code(self.sim.strategy.get()).to_owned(),
            Key::SimDocument => self.sim.source.get().code().to_owned(),
            Key::SimTokenizer => sim_model::tokenizer_code(self.sim.tokenizer.get()).to_owned(),
            Key::SimRule => sim_model::rule_code(self.sim.rule.get()).to_owned(),
            Key::RetrievalK => self.retrieval.k.get(),
            Key::Bm25K1 => self.retrieval.k1.get(),
            Key::Bm25B => self.retrieval.b.get(),
            Key::SweepStrategy => self.retrieval.sweep_strategy.get().to_string(),
            Key::SweepObjective => self.retrieval.sweep_objective.get().as_str().to_owned(),
            Key::Semantic => {
                if self.compare.semantic.get() {
                    self.retrieval.dense_model.get().id().to_owned()
                } else {
                    "off".to_owned()
                }
            }
            Key::SemanticPercentile => self.compare.percentile.get(),
            Key::ChonkieThreshold => self.compare.chonkie_threshold.get(),
        }
    }

    /// Sets `key` to `value` when the field can hold it (a select: one of its options; a
    /// number box: at most [`MAX_VALUE_CHARS`] characters that a number can be typed with,
    /// whatever its own check then says of them); `false` (nothing changed) otherwise. Signals are set only when the value differs, so applying the page's own
    /// settings notifies no one.
    pub fn apply(&self, key: Key, value: &str) -> bool {
        fn set<T: PartialEq + Send + Sync + 'static>(s: RwSignal<T>, v: T) {
            if s.with_untracked(|x| *x != v) {
                s.set(v);
            }
        }
        let f = self.fields;
        let m = self.models;
        // A box takes what could be a number as a user types one (digits, signs, an exponent,
        // either decimal mark, grouping marks and spaces, a dollar sign), up to
        // MAX_VALUE_CHARS: its own check then says whether it is one, as for typing.
        let numeric =
            |c: char| c.is_ascii_digit() || " .,'_eE+-$\u{A0}\u{202F}\u{2009}".contains(c);
        let text = (value.chars().count() <= MAX_VALUE_CHARS && value.chars().all(numeric))
            .then(|| value.to_owned());
        match key {
            Key::Lang => {
                return Lang::from_tag(value)
                    .map(|l| set(self.language.lang, l))
                    .is_some()
            }
            Key::DocUnit => {
                return LengthUnit::from_code(value)
                    .map(|u| set(f.unit, u))
                    .is_some()
            }
            Key::Encoding => {
                return Encoding::from_name(value)
                    .map(|e| set(f.encoding, e))
                    .is_some()
            }
            Key::Model if value == "custom" => {
                set(m.model, None);
                return true;
            }
            Key::Model => return model(value).map(|x| set(m.model, Some(x))).is_some(),
            Key::Strategy => {
                return value
                    .parse::<StrategyId>()
                    .map(|s| set(self.compare.strategy, s))
                    .is_ok()
            }
            Key::SweepStrategy => {
                return value
                    .parse::<StrategyId>()
                    .map(|s| set(self.retrieval.sweep_strategy, s))
                    .is_ok()
            }
            Key::Semantic if value == "off" => {
                set(self.compare.semantic, false);
                return true;
            }
            Key::Semantic => {
                let Ok(model) = value.parse::<chunk_core::retrieval::DenseModel>() else {
                    return false;
                };
                set(self.retrieval.dense_model, model);
                set(self.compare.semantic, true);
                return true;
            }
            Key::SweepObjective => {
                return value
                    .parse::<SweepObjective>()
                    .map(|o| set(self.retrieval.sweep_objective, o))
                    .is_ok()
            }
            Key::HeadingPrefix => {
                let Ok(p) = value.parse::<chunk_core::strategy::HeadingPrefix>() else {
                    return false;
                };
                let s = self.compare.structure.get_untracked();
                set(
                    self.compare.structure,
                    chunk_core::strategy::Structure {
                        heading_prefix: p,
                        ..s
                    },
                );
                return true;
            }
            Key::FenceRepair => {
                let on = match value {
                    "on" => true,
                    "off" => false,
                    _ => return false,
                };
                let s = self.compare.structure.get_untracked();
                set(
                    self.compare.structure,
                    chunk_core::strategy::Structure {
                        fence_repair: on,
                        ..s
                    },
                );
                return true;
            }
            Key::SizeTokenizer => {
                let choice = match value {
                    "model" => Some(true),
                    "auto" => None,
                    other => match chunk_core::tokenizer::Encoding::from_name(other) {
                        Some(e) => {
                            set(self.fields.encoding, e);
                            Some(false)
                        }
                        None => return false,
                    },
                };
                set(self.compare.size_tokenizer, choice);
                return true;
            }
            Key::SizeUnit => {
                let Ok(unit) = value.parse::<SizeUnit>() else {
                    return false;
                };
                set(self.compare.unit, unit);
                return true;
            }
            Key::SimSize | Key::SimOverlap => {
                let (signal, slider) = match key {
                    Key::SimSize => (self.sim.size, SIZE_SLIDER),
                    _ => (self.sim.overlap, OVERLAP_SLIDER),
                };
                // One of the slider's own values, so the slider can show it.
                return value
                    .parse::<usize>()
                    .ok()
                    .filter(|v| slider.values().any(|x| x == *v))
                    .map(|v| set(signal, v))
                    .is_some();
            }
            Key::SimMode => {
                return sim_model::strategy_from_code(value)
                    .map(|s| set(self.sim.strategy, s))
                    .is_some()
            }
            Key::SimDocument => {
                return sim_model::Source::from_code(value)
                    .map(|s| set(self.sim.source, s))
                    .is_some()
            }
            Key::SimTokenizer => {
                return sim_model::tokenizer_from_code(value)
                    .map(|t| set(self.sim.tokenizer, t))
                    .is_some()
            }
            Key::SimRule => {
                return sim_model::rule_from_code(value)
                    .map(|r| set(self.sim.rule, r))
                    .is_some()
            }
            Key::VectorFormat => {
                return VectorFormat::ALL
                    .into_iter()
                    .find(|x| crate::model::format_code(*x) == value)
                    .map(|x| set(m.format, x))
                    .is_some()
            }
            _ => {}
        }
        let Some(text) = text else {
            return false;
        };
        let signal = match key {
            Key::DocLength => f.doc_length,
            Key::ChunkSize => f.chunk_size,
            Key::ChunkOverlap => f.chunk_overlap,
            Key::Price => f.price,
            Key::TopK => m.top_k,
            Key::ContextWindow => m.window,
            Key::PromptTokens => m.prompt,
            Key::AnswerReserve => m.reserve,
            Key::Dimensions => m.dimensions,
            Key::RetrievalK => self.retrieval.k,
            Key::Bm25K1 => self.retrieval.k1,
            Key::Bm25B => self.retrieval.b,
            Key::SemanticPercentile => self.compare.percentile,
            Key::ChonkieThreshold => self.compare.chonkie_threshold,
            _ => m.documents,
        };
        set(signal, text);
        true
    }

    /// Applies every pair of `fragment`; the keys left out (unknown, or with a value the field
    /// does not take). `into_boxes`: also write the values into the text boxes (after start,
    /// when the boxes exist and do not follow their signals).
    pub fn apply_fragment(&self, fragment: &str, into_boxes: bool) -> Vec<String> {
        let mut left_out: Vec<String> = Vec::new();
        let mut leave_out = |key: &str| {
            // A crafted link names at most MAX_LEFT_OUT keys, each cut to MAX_VALUE_CHARS.
            if left_out.len() < MAX_LEFT_OUT {
                left_out.push(key.chars().take(MAX_VALUE_CHARS).collect());
            }
        };
        for pair in from_fragment(fragment) {
            match pair {
                Ok((key, value)) => {
                    if self.apply(key, &value) {
                        if let (true, Some(id)) = (into_boxes, key.input_id()) {
                            crate::browser::set_input_value(id, &value);
                        }
                    } else {
                        leave_out(key.name());
                    }
                }
                Err(unknown) => leave_out(&unknown),
            }
        }
        left_out
    }
}

/// What the links did: the keys the opening link left out.
#[derive(Clone, Copy)]
pub struct ShareState {
    /// Keys of the last applied link that were left out.
    pub left_out: RwSignal<Vec<String>>,
}

/// Applies the link the page was opened with (before the views are built), provides
/// [`ShareState`], and starts [`follow`].
pub fn restore_at_start() {
    let targets = Targets::from_context();
    let hash = crate::browser::location_hash();
    let left_out = if hash.len() > 1 {
        targets.apply_fragment(&hash, false)
    } else {
        Vec::new()
    };
    let state = ShareState {
        left_out: RwSignal::new(left_out),
    };
    provide_context(state);
    follow(targets, state);
}

/// Writes the settings into the URL 700 ms after the last change (replacing the first entry,
/// and the entry the user went back or forward to, then one history entry per pause), and
/// applies an entry the user goes back or forward to.
fn follow(targets: Targets, state: ShareState) {
    use std::cell::Cell;
    use std::rc::Rc;
    let generation = Rc::new(Cell::new(0u64));
    let first = Rc::new(Cell::new(true));
    let first_in_effect = first.clone();
    Effect::new(move |_| {
        let fragment = to_fragment(&targets.snapshot());
        let g = generation.get() + 1;
        generation.set(g);
        let generation = generation.clone();
        let first = first_in_effect.clone();
        set_timeout(
            move || {
                if generation.get() != g {
                    return;
                }
                let current = crate::browser::location_hash();
                if current.strip_prefix('#') != Some(fragment.as_str()) {
                    crate::browser::write_hash(&fragment, !first.get());
                }
                first.set(false);
            },
            std::time::Duration::from_millis(700),
        );
    });
    crate::browser::on_popstate(move || {
        let hash = crate::browser::location_hash();
        // The entry gone back to is rewritten in place if the page writes it otherwise (a
        // value left out), never pushed: a push would drop the Forward entries.
        first.set(true);
        state.left_out.set(targets.apply_fragment(&hash, true));
    });
}

/// The "copy link" button, its status and the link itself.
#[component]
pub fn ShareLink() -> impl IntoView {
    let targets = Targets::from_context();
    let state = expect_context::<ShareState>();
    let lang = move || targets.app.language.lang.get();
    let s = move |msg: Sm| messages::text(lang(), msg);
    let url = move || crate::browser::page_url_with_hash(&to_fragment(&targets.snapshot()));
    let copied = RwSignal::new(None::<bool>);
    let on_click = move |_| {
        copied.set(None);
        crate::browser::copy_text_then(&url(), move |ok| {
            copied.set(Some(ok));
            if !ok {
                crate::browser::select_input("share-url");
            }
        });
    };
    let notice = move || {
        let keys = state.left_out.get();
        (!keys.is_empty()).then(|| {
            let joined = keys.join(", ");
            view! {
                <p class="notice info" data-testid="share-notice" data-keys=joined.clone() role="status">
                    {share_msg::LeftOut { keys: &joined }.fill(lang())}
                </p>
            }
        })
    };
    view! {
        <section class="panel share" aria-labelledby="share-heading">
            <h2 id="share-heading">{move || s(Sm::Heading)}</h2>
            {notice}
            <p class="hint">{move || s(Sm::Intro)}</p>
            <div class="share-row">
                <button type="button" data-testid="share-link" data-value=url on:click=on_click>
                    {move || s(Sm::Copy)}
                </button>
                <input
                    id="share-url"
                    data-testid="share-url"
                    type="text"
                    readonly
                    aria-label=move || s(Sm::UrlLabel)
                    prop:value=url
                />
            </div>
            <p
                class="field-note"
                data-testid="share-status"
                data-state=move || match copied.get() {
                    Some(true) => "copied",
                    Some(false) => "select",
                    None => "",
                }
                role="status"
            >
                {move || match copied.get() {
                    Some(true) => Some(s(Sm::Copied)),
                    Some(false) => Some(s(Sm::CopyByHand)),
                    None => None,
                }}
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_round_trip_and_unknown_keys_are_named() {
        let pairs = vec![
            (Key::Lang, "vi".to_owned()),
            (Key::Price, "0,02".to_owned()),
            (Key::DocLength, "1 500".to_owned()),
            (Key::Model, "all-minilm-l6-v2".to_owned()),
        ];
        let f = to_fragment(&pairs);
        assert_eq!(
            f,
            "v=1&lang=vi&price=0%2C02&doc_length=1+500&model=all-minilm-l6-v2"
        );
        let back: Vec<(Key, String)> = from_fragment(&format!("#{f}"))
            .into_iter()
            .map(|p| p.expect("known"))
            .collect();
        assert_eq!(back, pairs);
        let odd = from_fragment("#v=9&chunk_size=512&colour=red&=x");
        assert_eq!(
            odd,
            vec![
                Ok((Key::ChunkSize, "512".to_owned())),
                Err("colour".to_owned()),
            ]
        );
        assert!(from_fragment("").is_empty());
    }

    #[test]
    fn every_key_has_one_name() {
        use strum::IntoEnumIterator;
        for k in Key::iter() {
            assert_eq!(Key::from_name(k.name()), Some(k));
        }
        assert_eq!(Key::SizeUnit.name(), "size_unit");
        assert_eq!(Key::ChunkOverlap.name(), "chunk_overlap");
        assert_eq!(Key::from_name("LANG"), None);
    }

    #[test]
    fn a_link_sets_what_the_fields_accept_and_names_the_rest() {
        let owner = Owner::new();
        owner.set();
        let app = crate::state::provide_page_state(Lang::En);
        crate::model::provide();
        let compare = CompareSettings::new(expect_context::<ModelSettings>());
        let (retrieval, _) = crate::retrieval::state::provide(app);
        let t = Targets {
            app,
            language: expect_context::<LanguageWriter>(),
            fields: expect_context::<FieldsWriter>(),
            models: expect_context::<ModelSettings>(),
            compare,
            sim: SimSettings::new(app.language),
            retrieval,
        };
        let long = "9".repeat(41);
        let left = t.apply_fragment(
            &format!("#v=1&lang=pl&chunk_size=256&chunk_overlap=abc&encoding=o200k_base&model=nope&strategy=semchunk&size_unit=characters&vector_format=int8&price=&top_k=7&colour=red&dimensions={long}&context_window=1%0A2&sim_size=85&sim_overlap=7&sim_mode=sentence&sim_document=own-text&sim_tokenizer=cl100k_base&sim_rule=nope&retrieval_k=3&bm25_b=0,5&sweep_strategy=semchunk&sweep_objective=vectors&bm25_k1=x&size_tokenizer=model"),
            false,
        );
        assert_eq!(
            left,
            vec![
                "chunk_overlap",
                "model",
                "colour",
                "dimensions",
                "context_window",
                "sim_overlap",
                "sim_rule",
                "bm25_k1"
            ]
        );
        // The simulator's controls: a slider takes only its own values (7 is not one).
        assert_eq!(t.sim.size.get_untracked(), 85);
        assert_eq!(t.sim.overlap.get_untracked(), sim_model::DEFAULT_OVERLAP);
        assert_eq!(
            t.sim.strategy.get_untracked(),
            chunk_core::sim::Strategy::Sentence
        );
        assert_eq!(t.sim.source.get_untracked(), sim_model::Source::OwnText);
        assert_eq!(
            t.sim.tokenizer.get_untracked(),
            chunk_core::sim::TokenizerChoice::Bpe(Encoding::Cl100kBase)
        );
        assert!(!t.apply(Key::SimSize, "165"), "above the slider");
        assert!(t.apply(
            Key::SimRule,
            sim_model::rule_code(chunk_core::segment::sentences::SentenceRule::Terminators)
        ));
        assert_eq!(app.language.lang.get_untracked(), Lang::Pl);
        assert_eq!(app.fields.chunk_size.get_untracked(), "256");
        assert_eq!(app.fields.chunk_overlap.get_untracked(), "64", "kept");
        // A number as typed, even one its box refuses: the box says why.
        assert!(t.apply(Key::ChunkSize, "1.5"));
        assert_eq!(app.fields.chunk_size.get_untracked(), "1.5");
        assert!(t.apply(Key::ChunkSize, "256"));
        assert_eq!(t.models.dimensions.get_untracked(), "1536", "kept");
        assert_eq!(app.fields.encoding.get_untracked(), Encoding::O200kBase);
        assert_eq!(
            app.fields.price.get_untracked(),
            "",
            "an empty price is a price"
        );
        assert_eq!(compare.strategy.get_untracked(), StrategyId::Semchunk);
        assert_eq!(compare.unit.get_untracked(), SizeUnit::Characters);
        assert_eq!(compare.size_tokenizer.get_untracked(), Some(true));
        // An encoding sizes the chunks and is the tokenizer; `auto` is the default; anything
        // else is refused and changes nothing.
        assert!(t.apply(Key::SizeTokenizer, "cl100k_base"));
        assert_eq!(compare.size_tokenizer.get_untracked(), Some(false));
        assert_eq!(app.fields.encoding.get_untracked(), Encoding::Cl100kBase);
        assert!(!t.apply(Key::SizeTokenizer, "wordpiece"));
        assert_eq!(compare.size_tokenizer.get_untracked(), Some(false));
        assert!(t.apply(Key::SizeTokenizer, "auto"));
        assert_eq!(compare.size_tokenizer.get_untracked(), None);
        assert!(t.apply(Key::HeadingPrefix, "title"));
        assert!(t.apply(Key::FenceRepair, "on"));
        assert!(!t.apply(Key::HeadingPrefix, "chapter"));
        assert!(!t.apply(Key::FenceRepair, "yes"));
        assert_eq!(
            compare.structure.get_untracked(),
            chunk_core::strategy::Structure {
                heading_prefix: chunk_core::strategy::HeadingPrefix::Title,
                fence_repair: true,
            }
        );
        // With an open model and a strategy that sizes in its tokens, the default sizes in
        // them; with fixed windows, in the encoding.
        assert!(t.apply(Key::Model, "bge-small-en-v1-5"));
        assert!(t.apply(Key::SizeUnit, "tokens"));
        let bert = SizeUnit::Model(chunk_core::tokenizer::open::OpenVocab::BertUncased);
        assert_eq!(compare.sized_in.get_untracked(), bert);
        assert!(t.apply(Key::Strategy, "fixed"));
        assert_eq!(compare.sized_in.get_untracked(), SizeUnit::Tokens);
        assert!(t.apply(Key::SizeTokenizer, "model"));
        assert_eq!(compare.sized_in.get_untracked(), bert);
        assert!(t.apply(Key::Strategy, "semchunk"));
        assert!(t.apply(Key::SizeUnit, "characters"));
        assert!(t.apply(Key::Model, "custom"));
        assert!(t.apply(Key::Encoding, "o200k_base"));
        assert_eq!(t.models.format.get_untracked(), VectorFormat::Int8);
        assert_eq!(t.models.top_k.get_untracked(), "7");
        assert_eq!(retrieval.k.get_untracked(), "3");
        assert_eq!(
            retrieval.b.get_untracked(),
            "0,5",
            "as typed: its box checks it"
        );
        assert_eq!(retrieval.k1.get_untracked(), "1.2", "kept");
        assert_eq!(
            retrieval.sweep_strategy.get_untracked(),
            StrategyId::Semchunk
        );
        assert_eq!(
            retrieval.sweep_objective.get_untracked(),
            SweepObjective::Vectors
        );
        // The semantic rows: off, or a dense model (also the retrieval check's); their
        // thresholds as typed (the rows refuse a number out of range in words).
        assert_eq!(t.read(Key::Semantic), "off");
        assert!(!t.apply(Key::Semantic, "word2vec"));
        assert!(!compare.semantic.get_untracked());
        assert!(t.apply(Key::Semantic, "all-minilm-l6-v2"));
        assert!(compare.semantic.get_untracked());
        assert_eq!(
            retrieval.dense_model.get_untracked(),
            chunk_core::retrieval::DenseModel::AllMiniLmL6V2
        );
        assert!(t.apply(Key::SemanticPercentile, "80"));
        assert!(t.apply(Key::ChonkieThreshold, "0,6"));
        assert!(!t.apply(Key::ChonkieThreshold, "high"));
        let (b, read) = compare.breakpoints();
        assert_eq!(
            (b.percentile, b.chonkie_threshold, read),
            (80.0, 0.6, [true, true])
        );
        // What the page would write now reads back as the same settings.
        let now = to_fragment(&t.snapshot());
        let again = t.apply_fragment(&now, false);
        assert!(again.is_empty(), "{again:?}");
        assert_eq!(to_fragment(&t.snapshot()), now);
        assert!(
            now.contains("&chunk_size=256&") && now.contains("v=1&lang=pl&"),
            "{now}"
        );
        assert!(
            now.contains(
                "&semantic=all-minilm-l6-v2&semantic_percentile=80&chonkie_threshold=0%2C6"
            ),
            "{now}"
        );
        // A crafted link names at most 10 keys, each cut to 40 characters.
        let many: String = (0..50)
            .map(|i| format!("&{}{i}=1", "x".repeat(60)))
            .collect();
        let named = t.apply_fragment(&many, false);
        assert_eq!(named.len(), 10);
        assert!(named.iter().all(|k| k.chars().count() == 40));
    }
}
