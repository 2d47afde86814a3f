//! The simulator's state: the controls as signals, and everything derived from them as memos,
//! in the order the data flows:
//!
//! `text` (preset or own text, in the UI language) → `prepared` (tokenized and segmented once
//! per text × tokenizer × sentence rule) → `chunking` (per slider move) → `metrics`,
//! `coverage`, and the two slider sweeps for the charts.
//!
//! Every step is a `Memo` on purpose: several components read each one (the strip, the table,
//! the figures, the warnings), so each must run once per change, not once per reader; and a
//! memo stops the chain when a change does not alter its result (e.g. switching the UI language
//! while the "uneven sentences" preset, which has no Indonesian text, is shown does not
//! re-tokenize anything).
//!
//! The pure helpers at the end (fooled sentence boundaries, trimming) are plain functions,
//! tested natively; which chunk owns a token is `chunk_core::windows::token_owners`.

use std::sync::Arc;

use chunk_core::params::ParamsError;
use chunk_core::segment::sentences::sentence_bytes;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::sim::documents::{default_query, Preset};
use chunk_core::sim::sweep::{bloat_by_overlap, split_by_size};
use chunk_core::sim::tokens::{simple_spans, TokenSpans};
use chunk_core::sim::{
    coverage, keywords, Chunking, Coverage, Metrics, Prepared, Strategy, TokenizerChoice,
};
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;

use super::messages::{self, Msg};
use crate::state::{Language, SourceText};

/// A BPE encoding's token boundaries of one simulated text (byte offsets, as
/// `chunk_core::tokenizer::Encoded::offsets`), or why there are none (the tokenizer module
/// could not be loaded), with the text and encoding they are of.
#[derive(Debug, PartialEq)]
pub struct BpeTokens {
    text: Arc<str>,
    encoding: Encoding,
    offsets: Result<Vec<usize>, String>,
}

/// Where a BPE encoding's tokens of the simulated document stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokensState {
    /// The simple tokenizer, or the encoding's tokens are there: the figures are the text's.
    Ready,
    /// On their way (the tokenizer module loading, or counting): no figure yet.
    Pending,
    /// The tokenizer module could not be loaded: no figure; choosing the encoding again
    /// tries again.
    Failed,
}

/// Default chunk size of the simulator, in tokens (SPEC §4 figures).
pub const DEFAULT_SIZE: usize = 60;
/// Default overlap of the simulator, in tokens.
pub const DEFAULT_OVERLAP: usize = 0;
/// The overlap that the "try overlap 20" button sets, in tokens (SPEC §4).
pub const TRY_OVERLAP: usize = 20;
/// Most bytes of the user's own text that the simulator takes. The simulator is made for
/// small documents: its sweeps chunk the text 42 times per slider move and its strip shows
/// tokens one by one. A longer text is cut (at a char boundary) and the page says so.
pub const MAX_OWN_TEXT_BYTES: usize = 50_000;

/// Where the simulated document comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// One of the built-in documents, in the UI language.
    Preset(Preset),
    /// The text pasted or opened in the text box above the simulator.
    OwnText,
}

impl Source {
    /// Every source, in the order of the preset select.
    pub const ALL: [Source; 4] = [
        Source::Preset(Preset::Manual),
        Source::Preset(Preset::UnevenSentences),
        Source::Preset(Preset::OneSentence),
        Source::OwnText,
    ];

    /// The value of the source in the preset `<select>`.
    pub fn code(self) -> &'static str {
        match self {
            Source::Preset(Preset::Manual) => "manual",
            Source::Preset(Preset::UnevenSentences) => "uneven",
            Source::Preset(Preset::OneSentence) => "one-sentence",
            Source::OwnText => "own-text",
        }
    }

    /// Parses [`Source::code`]; `None` for any other string.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// The value of a tokenizer in the tokenizer `<select>`: `"simple"`, `"cl100k_base"`, …
pub fn tokenizer_code(t: TokenizerChoice) -> &'static str {
    t.name()
}

/// Every tokenizer the simulator offers, default (simple) first.
pub fn tokenizers() -> [TokenizerChoice; 3] {
    [
        TokenizerChoice::Simple,
        TokenizerChoice::Bpe(Encoding::Cl100kBase),
        TokenizerChoice::Bpe(Encoding::O200kBase),
    ]
}

/// Parses [`tokenizer_code`]; `None` for any other string.
pub fn tokenizer_from_code(code: &str) -> Option<TokenizerChoice> {
    tokenizers().into_iter().find(|t| t.name() == code)
}

/// The value of a sentence rule in the rule `<select>`.
pub fn rule_code(rule: SentenceRule) -> &'static str {
    rule.code()
}

/// Parses [`rule_code`]; `None` for any other string.
pub fn rule_from_code(code: &str) -> Option<SentenceRule> {
    code.parse().ok()
}

/// The value of a strategy in the mode `<select>`.
pub fn strategy_code(s: Strategy) -> &'static str {
    match s {
        Strategy::Fixed => "fixed",
        Strategy::Sentence => "sentence",
    }
}

/// Parses [`strategy_code`]; `None` for any other string.
pub fn strategy_from_code(code: &str) -> Option<Strategy> {
    Strategy::ALL
        .into_iter()
        .find(|s| strategy_code(*s) == code)
}

/// The simulated document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimText {
    /// The text the simulator chunks (the own text cut to [`MAX_OWN_TEXT_BYTES`]).
    pub text: Arc<str>,
    /// The own text's full length in bytes when it was cut; `None` when nothing was cut.
    pub cut_from: Option<usize>,
}

/// The simulator's settings: the signals a settings link reads and writes
/// ([`crate::share`]) before the simulator's panel is built. The page provides them as context
/// from its first module; [`SimState`], with every memo of the figures, is built with the panel
/// (`crate::panels`: the second module), so the first module carries none of the simulator's
/// chunking, sentence rules, tokenizers or documents.
#[derive(Clone, Copy)]
pub struct SimSettings {
    /// The page's UI language (the signal of the page's [`Language`] context, only read
    /// here); it also picks the documents, queries and stop words.
    pub lang: ReadSignal<crate::i18n::Lang>,
    /// Chunk size slider, in tokens.
    pub size: RwSignal<usize>,
    /// Overlap slider, in tokens.
    pub overlap: RwSignal<usize>,
    /// Fixed windows or sentence packing.
    pub strategy: RwSignal<Strategy>,
    /// Which document is simulated.
    pub source: RwSignal<Source>,
    /// Tokenizer of the simulator (its own choice, independent of the calculator's).
    pub tokenizer: RwSignal<TokenizerChoice>,
    /// Sentence rule.
    pub rule: RwSignal<SentenceRule>,
}

impl SimSettings {
    /// The SPEC §4 defaults, in the language of `language`.
    pub fn new(language: Language) -> Self {
        SimSettings {
            lang: language.lang,
            size: RwSignal::new(DEFAULT_SIZE),
            overlap: RwSignal::new(DEFAULT_OVERLAP),
            strategy: RwSignal::new(Strategy::Fixed),
            source: RwSignal::new(Source::Preset(Preset::Manual)),
            tokenizer: RwSignal::new(TokenizerChoice::Simple),
            rule: RwSignal::new(SentenceRule::Terminators),
        }
    }
}

/// Handles to the simulator's signals and memos. `Copy`, so closures capture it freely; the
/// `Simulator` provides it as context to its parts. Its settings' signals are read through it
/// (`sim.size`: it dereferences to its [`SimSettings`]).
#[derive(Clone, Copy)]
pub struct SimState {
    /// The settings' signals (the page's, which a settings link also writes).
    pub settings: SimSettings,
    /// The query as typed; `None` until the user edits it, meaning "the default query of the
    /// UI language", so that the default follows a language switch but an edit is never lost.
    pub query_edit: RwSignal<Option<String>>,
    /// The token the strip's read-out describes (hovered, or moved to with the arrow keys).
    pub current_token: RwSignal<Option<usize>>,
    /// The document.
    pub text: Memo<SimText>,
    /// The document tokenized and segmented: the only slow step (BPE), keyed on text ×
    /// tokenizer × rule, so moving a slider never re-tokenizes. With a BPE encoding whose
    /// tokens have not arrived yet ([`SimState::tokens_pending`]) it holds no token.
    pub prepared: Memo<Arc<Prepared>>,
    /// True while a BPE encoding is chosen and its tokens of the document are still on their
    /// way (the tokenizer module loading, or counting): the panel says so instead of
    /// figures.
    pub tokens_pending: Memo<bool>,
    /// Where the chosen tokenizer's tokens stand; the metrics, the coverage and the sweeps
    /// are empty unless [`TokensState::Ready`].
    pub tokens_state: Memo<TokensState>,
    /// The chunks for the current strategy, size and overlap.
    pub chunking: Memo<Result<Chunking, ParamsError>>,
    /// The metrics of that chunking (`None` when chunking failed).
    pub metrics: Memo<Option<Metrics>>,
    /// With a BPE encoding chosen and its tokens there: the document's tokens by the simple
    /// tokenizer beside that encoding's (taken from `prepared`, so no second encode), for the
    /// line under the tokenizer select; `None` with the simple tokenizer, so that the
    /// tokenizer module is not loaded on the page's thread until the user asks for it.
    pub tokenizer_counts: Memo<Option<chunk_core::sim::TokenizerComparison>>,
    /// The query's keywords (lower-case, stop words removed).
    pub keywords: Memo<Vec<String>>,
    /// Which chunk holds which keyword (`None` when chunking failed).
    pub coverage: Memo<Option<Coverage>>,
    /// `(size, split sentences)` over the size slider at the current overlap and strategy.
    pub split_sweep: Memo<Vec<(usize, usize)>>,
    /// `(overlap, bloat factor)` over the overlap slider at the current size and strategy
    /// (empty for a text with no token).
    pub bloat_sweep: Memo<Vec<(usize, f64)>>,
    /// Under the terminator rule: the text just before the first sentence end that UAX #29
    /// with abbreviations does not confirm at a full stop (an abbreviation or a decimal
    /// fooled the rule). `None` under the other rules or when there is none.
    pub fooled: Memo<Option<String>>,
}

/// A BPE encoding's tokens of the simulated document (`None` with the simple tokenizer, and
/// until they arrive). In the browser they come from the tokenizer module
/// ([`crate::tokenize::local`]: the page's own module holds no table), asynchronously: a
/// `LocalResource` that runs again when the text or the tokenizer changes. While the page's
/// tokenizer worker is still downloading that module (`waiting`), it waits for it rather than
/// fetching a second copy on the page's thread.
#[cfg(target_arch = "wasm32")]
fn bpe_tokens(
    text: Memo<SimText>,
    tokenizer: RwSignal<TokenizerChoice>,
    waiting: Memo<bool>,
) -> Signal<Option<Arc<BpeTokens>>> {
    let resource = LocalResource::new(move || {
        // Only a BPE encoding reads the text and the download: with the simple tokenizer, a
        // new text (a preset in another language) does not run the resource again.
        let source = match tokenizer.get() {
            TokenizerChoice::Bpe(encoding) if !waiting.get() => {
                Some((encoding, text.with(|t| t.text.clone())))
            }
            TokenizerChoice::Bpe(_) | TokenizerChoice::Simple => None,
        };
        async move {
            let (encoding, text) = source?;
            let offsets = crate::tokenize::local::tokenize(encoding, text.clone(), || true, |_| {})
                .await
                .and_then(|o| o.ok_or_else(|| "stopped".to_string()));
            if let Err(e) = &offsets {
                leptos::logging::warn!("simulator: {e}");
            }
            Some(Arc::new(BpeTokens {
                text,
                encoding,
                offsets,
            }))
        }
    });
    Signal::derive(move || resource.get().flatten())
}

/// Natively (the page's unit tests, the build-time render) the core's tokenizer is linked and
/// counts at once; a `Memo`, so it runs once per text and tokenizer.
#[cfg(not(target_arch = "wasm32"))]
fn bpe_tokens(
    text: Memo<SimText>,
    tokenizer: RwSignal<TokenizerChoice>,
    _waiting: Memo<bool>,
) -> Signal<Option<Arc<BpeTokens>>> {
    Memo::new(move |_| {
        let TokenizerChoice::Bpe(encoding) = tokenizer.get() else {
            return None;
        };
        text.with(|t| {
            Some(Arc::new(BpeTokens {
                text: t.text.clone(),
                encoding,
                offsets: Ok(encoding.tokenizer().encode(&t.text).offsets),
            }))
        })
    })
    .into()
}

impl std::ops::Deref for SimState {
    type Target = SimSettings;

    fn deref(&self) -> &SimSettings {
        &self.settings
    }
}

impl SimState {
    /// Builds the simulator's memos over `settings`, reading the own text from `own`.
    pub fn new(settings: SimSettings, own: SourceText) -> Self {
        let SimSettings {
            lang,
            size,
            overlap,
            strategy,
            source,
            tokenizer,
            rule,
        } = settings;
        let query_edit = RwSignal::new(None::<String>);

        let text = Memo::new(move |_| match source.get() {
            Source::Preset(p) => SimText {
                text: Arc::from(p.text(lang.get())),
                cut_from: None,
            },
            Source::OwnText => own.text.with(|t| cut_text(t, MAX_OWN_TEXT_BYTES)),
        });
        // True while the page's tokenizer worker downloads the tokenizer module (none when
        // the panel is mounted without the page). A `Memo`: the download's progress changes
        // ten times a second, its being under way only twice.
        let loading = use_context::<crate::state::Tokenization>().map(|t| t.loading);
        let waiting = Memo::new(move |_| loading.is_some_and(|l| l.with(Option::is_some)));
        let bpe = bpe_tokens(text, tokenizer, waiting);
        // The BPE tokens of the current text and tokenizer, once they are there. The text is
        // compared by content: a preset without a text of its own in the new language gives
        // an equal text in a new `Arc`, which must not lose the tokens already there.
        let bpe_now = move || -> Option<Arc<BpeTokens>> {
            let TokenizerChoice::Bpe(encoding) = tokenizer.get() else {
                return None;
            };
            let tokens = bpe.get()?;
            let current = text.with(|t| *t.text == *tokens.text);
            (current && tokens.encoding == encoding).then_some(tokens)
        };
        let tokens_state = Memo::new(move |_| match tokenizer.get() {
            TokenizerChoice::Simple => TokensState::Ready,
            TokenizerChoice::Bpe(_) => match bpe_now() {
                None => TokensState::Pending,
                Some(b) if b.offsets.is_err() => TokensState::Failed,
                Some(_) => TokensState::Ready,
            },
        });
        let tokens_pending = Memo::new(move |_| tokens_state.get() == TokensState::Pending);
        let prepared = Memo::new(move |_| {
            let rule = rule.get();
            let bpe = bpe_now();
            text.with(|t| {
                let tokens = match (tokenizer.get(), bpe.as_ref().map(|b| &b.offsets)) {
                    (TokenizerChoice::Simple, _) => simple_spans(&t.text),
                    (TokenizerChoice::Bpe(_), Some(Ok(offsets))) => {
                        TokenSpans::from_offsets(offsets, t.text.len())
                    }
                    // Not there (yet): no token, and no figure is shown (`tokens_state`).
                    (TokenizerChoice::Bpe(_), _) => TokenSpans {
                        spans: Vec::new(),
                        text_len: t.text.len(),
                    },
                };
                Arc::new(Prepared::from_tokens(&t.text, tokens, rule))
            })
        });
        let tokenizer_counts = Memo::new(move |_| match tokenizer.get() {
            TokenizerChoice::Bpe(e) if tokens_state.get() == TokensState::Ready => {
                Some(chunk_core::sim::TokenizerComparison::new(
                    text.with(|t| simple_spans(&t.text).len()),
                    e,
                    prepared.with(|p| p.n_tokens()),
                ))
            }
            _ => None,
        });
        let chunking = Memo::new(move |_| {
            prepared.with(|p| p.chunk(strategy.get(), size.get(), overlap.get()))
        });
        let figures = move || tokens_state.get() == TokensState::Ready;
        let metrics = Memo::new(move |_| {
            if !figures() {
                return None;
            }
            let c = chunking.get().ok()?;
            let p = prepared.get();
            Some(text.with(|t| p.metrics(&t.text, &c)))
        });
        let keywords = Memo::new(move |_| {
            let lang = lang.get();
            match query_edit.get() {
                Some(q) => keywords(&q, lang),
                None => keywords(default_query(lang), lang),
            }
        });
        let coverage = Memo::new(move |_| {
            if !figures() {
                return None;
            }
            let c = chunking.get().ok()?;
            let p = prepared.get();
            let kw = keywords.get();
            Some(text.with(|t| coverage(&t.text, &p.tokens, &c.chunks, &kw)))
        });
        let split_sweep = Memo::new(move |_| {
            if !figures() {
                return Vec::new();
            }
            let p = prepared.get();
            split_by_size(&p, strategy.get(), overlap.get()).unwrap_or_default()
        });
        let bloat_sweep = Memo::new(move |_| {
            if !figures() {
                return Vec::new();
            }
            let p = prepared.get();
            bloat_by_overlap(&p, strategy.get(), size.get())
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(o, b)| b.map(|b| (o, b)))
                .collect()
        });
        let fooled = Memo::new(move |_| {
            (rule.get() == SentenceRule::Terminators)
                .then(|| text.with(|t| fooled_boundary(&t.text)))
                .flatten()
        });
        SimState {
            settings,
            query_edit,
            current_token: RwSignal::new(None),
            text,
            prepared,
            tokens_pending,
            tokens_state,
            chunking,
            metrics,
            tokenizer_counts,
            keywords,
            coverage,
            split_sweep,
            bloat_sweep,
            fooled,
        }
    }

    /// The simulator's message `msg`, one without parameters (those go through
    /// [`SimState::tf`]; debug builds assert it), in the current language; reading it
    /// subscribes to language changes.
    pub fn t(&self, msg: Msg) -> &'static str {
        messages::text(self.lang.get(), msg)
    }

    /// A message with parameters (a struct of `messages::args`), filled in the current language.
    pub fn tf(&self, message: impl crate::i18n::Message) -> String {
        message.fill(self.lang.get())
    }

    /// A count in the current language's format (e.g. 1,234 / 1.234).
    pub fn int(&self, n: usize) -> String {
        crate::format::int(self.lang.get(), n as u128)
    }

    /// The query shown in the query field: the user's edit, else the language's default.
    pub fn query(&self) -> String {
        self.query_edit
            .get()
            .unwrap_or_else(|| default_query(self.lang.get()).to_string())
    }
}

/// `text` cut to at most `max` bytes at a char boundary.
pub fn cut_text(text: &str, max: usize) -> SimText {
    if text.len() <= max {
        return SimText {
            text: Arc::from(text),
            cut_from: None,
        };
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    SimText {
        text: Arc::from(&text[..end]),
        cut_from: Some(text.len()),
    }
}

/// Characters of context shown before a fooled sentence end.
const FOOLED_CONTEXT_CHARS: usize = 24;

/// The first place where the terminator rule ends a sentence at a full stop and the contextual
/// rule ([`SentenceRule::Contextual`]) does not: the text up to and including that full stop (its last
/// [`FOOLED_CONTEXT_CHARS`] characters, `…`-prefixed when cut). Ends at `;`, `?`, `!` are
/// the rule's own choice, not a mistake, so only full stops count.
pub fn fooled_boundary(text: &str) -> Option<String> {
    let better: Vec<usize> = sentence_bytes(text, SentenceRule::Contextual)
        .iter()
        .map(|&(_, e)| e)
        .collect();
    sentence_bytes(text, SentenceRule::Terminators)
        .iter()
        .map(|&(_, e)| e)
        .filter(|e| better.binary_search(e).is_err())
        .find_map(|end| {
            let sentence = text[..end].trim_end();
            sentence.ends_with('.').then(|| {
                let count = sentence.chars().count();
                let tail: String = sentence
                    .chars()
                    .skip(count.saturating_sub(FOOLED_CONTEXT_CHARS))
                    .collect();
                if count > FOOLED_CONTEXT_CHARS {
                    format!("…{}", tail.trim_start())
                } else {
                    tail
                }
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::sim::documents::default_document;
    use chunk_core::Lang;

    #[test]
    fn abbreviations_and_decimals_are_reported_but_semicolons_are_not() {
        assert_eq!(
            fooled_boundary("Ask Dr. Lee about it. Then go home."),
            Some("Ask Dr.".to_string())
        );
        assert_eq!(
            fooled_boundary("It weighs 2.5 kg. Fine."),
            Some("It weighs 2.".to_string())
        );
        assert_eq!(fooled_boundary("One part; another part. Done."), None);
        for lang in Lang::ALL {
            assert_eq!(fooled_boundary(default_document(lang)), None, "{lang:?}");
        }
    }

    #[test]
    fn long_own_texts_are_cut_at_a_char_boundary() {
        let t = cut_text("aé", 2);
        assert_eq!((&*t.text, t.cut_from), ("a", Some(3)));
        let t = cut_text("abc", 3);
        assert_eq!((&*t.text, t.cut_from), ("abc", None));
    }

    #[test]
    fn codes_round_trip() {
        for s in Source::ALL {
            assert_eq!(Source::from_code(s.code()), Some(s));
        }
        for t in tokenizers() {
            assert_eq!(tokenizer_from_code(tokenizer_code(t)), Some(t));
        }
        for r in SentenceRule::ALL {
            assert_eq!(rule_from_code(rule_code(r)), Some(r));
        }
        for s in Strategy::ALL {
            assert_eq!(strategy_from_code(strategy_code(s)), Some(s));
        }
    }

    /// The figures the page's tests check, computed here through the same calls the memos
    /// make, so a failure in the browser can be told apart from a failure of the wiring.
    #[test]
    fn the_memos_calls_give_the_spec_figures_in_every_language() {
        for lang in Lang::ALL {
            let text = default_document(lang);
            let p = Prepared::new(text, TokenizerChoice::Simple, SentenceRule::Terminators);
            let kw = keywords(default_query(lang), lang);
            let c = p.chunk(Strategy::Fixed, 60, 0).expect("size ≥ 1");
            let cov = coverage(text, &p.tokens, &c.chunks, &kw);
            assert_eq!((c.chunks.len(), cov.best, kw.len()), (5, 3, 4), "{lang:?}");
            let c = p.chunk(Strategy::Fixed, 60, 20).expect("size ≥ 1");
            let m = p.metrics(text, &c);
            let cov = coverage(text, &p.tokens, &c.chunks, &kw);
            assert_eq!((m.chunk_count, m.total_tokens), (7, 387), "{lang:?}");
            assert_eq!(cov.chunks_with_all, 1, "{lang:?}");
            let c = p.chunk(Strategy::Sentence, 60, 0).expect("size ≥ 1");
            let m = p.metrics(text, &c);
            assert_eq!((m.chunk_count, m.split_sentences.len()), (5, 0), "{lang:?}");
        }
    }
}
