//! Semantic chunking: cuts where the embeddings of neighbouring sentences move apart.
//!
//! Four strategies, one rule each, all reading their similarities from [`Vectors`] given to
//! them, never from a model of their own:
//! - [`ChonkieSemantic`] — chonkie 1.7.0 `SemanticChunker` (`chunker/semantic.py`, with
//!   chonkie-core 0.10.2's `savgol.rs`);
//! - [`LangchainSemantic`] — langchain-experimental 0.4.2 `SemanticChunker`
//!   (`text_splitter.py`);
//! - [`LlamaindexSemantic`] — llama-index-core 0.14.25 `SemanticSplitterNodeParser`
//!   (`node_parser/text/semantic_splitter.py`);
//! - [`OwnSemantic`] — the product's own: the same kind of topic shift, but never over
//!   `chunk_size`, every byte kept, and each cut's reason.
//!
//! The work is sans-io in two steps, so that the embedding model can live elsewhere (the
//! page's embedding worker, a test's reference library): [`SemanticChunker::embedding_texts`]
//! says which texts need a vector (each once), and once [`Vectors`] holds them,
//! [`Chunker::split`] and [`SemanticChunker::curve`] cut. Without them `split` refuses with
//! [`StrategyError::EmbeddingsNeeded`]. The texts depend on the document and the sentence rule
//! only, never on the threshold or the size, so trying thresholds never embeds again.

mod chonkie;
mod langchain;
mod llamaindex;
pub(crate) mod numeric;
mod own;

pub use super::curve::{Curve, CurveKind, CurvePoint};
pub use chonkie::ChonkieSemantic;
pub use langchain::{BreakpointThresholdType, LangchainSemantic};
pub use llamaindex::LlamaindexSemantic;
pub use own::OwnSemantic;

use super::{
    Breakpoints, Chunker, Chunks, Document, Keeps, Parameter, Piece, Settings, StrategyError,
    StrategyId,
};
use crate::strategy::length::Length;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// Embedding vectors by their exact text: what the semantic strategies read. One vector per
/// text, all of one model (so of one length); a text's vector is what the model makes of
/// exactly that string.
#[derive(Clone, Debug, Default)]
pub struct Vectors {
    by_text: HashMap<String, Arc<[f32]>>,
}

impl Vectors {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps `vector` as the embedding of `text` (replacing an earlier one).
    pub fn insert(&mut self, text: impl Into<String>, vector: impl Into<Arc<[f32]>>) {
        self.by_text.insert(text.into(), vector.into());
    }

    /// The vector of exactly `text`, if held.
    pub fn get(&self, text: &str) -> Option<&[f32]> {
        self.by_text.get(text).map(|v| &v[..])
    }

    /// How many texts have a vector.
    pub fn len(&self) -> usize {
        self.by_text.len()
    }

    /// True when no text has a vector.
    pub fn is_empty(&self) -> bool {
        self.by_text.is_empty()
    }

    /// The texts of `wanted` that have no vector yet, each once, in first-seen order.
    pub fn missing<T: AsRef<str>>(&self, wanted: &[T]) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        wanted
            .iter()
            .map(AsRef::as_ref)
            .filter(|t| !self.by_text.contains_key(*t) && seen.insert(*t))
            .map(str::to_owned)
            .collect()
    }

    fn need(&self, strategy: StrategyId, text: &str) -> Result<&[f32], StrategyError> {
        self.get(text)
            .ok_or(StrategyError::EmbeddingsNeeded { strategy })
    }

    /// The vector of every text of `texts`, in order; [`StrategyError::EmbeddingsNeeded`] for
    /// `strategy` when one is not held.
    fn all<'t>(
        &self,
        strategy: StrategyId,
        texts: impl IntoIterator<Item = &'t str>,
    ) -> Result<Vec<&[f32]>, StrategyError> {
        texts.into_iter().map(|t| self.need(strategy, t)).collect()
    }
}

/// What every semantic constructor checks: the unit is one `id` sizes in, and `chunk_size`
/// is at least 1 ([`StrategyError::UnitUnsupported`], [`StrategyError::Params`]).
fn check_settings(id: StrategyId, settings: &Settings) -> Result<(), StrategyError> {
    super::check_unit(id, settings.unit)?;
    crate::params::ChunkParams::new(settings.chunk_size, 0)?;
    Ok(())
}

/// NLTK Punkt's sentences as LlamaIndex's `split_by_sentence_tokenizer` makes them: each from
/// its span's start to the next span's start (the whitespace after it included), the last to
/// the end; none for a blank text. Byte ranges.
fn punkt_sentences(text: &str) -> Vec<std::ops::Range<usize>> {
    let starts = super::punkt_sentence_starts(text);
    (0..starts.len())
        .map(|i| starts[i]..starts.get(i + 1).copied().unwrap_or(text.len()))
        .collect()
}

/// Each of the contiguous sentences `s` with up to `buffer` neighbours on each side, as one
/// byte range (LlamaIndex's `combined_sentence`: the sentences concatenated as they are).
fn neighbour_windows(s: &[std::ops::Range<usize>], buffer: usize) -> Vec<std::ops::Range<usize>> {
    (0..s.len())
        .map(|i| s[i.saturating_sub(buffer)].start..s[(i + buffer).min(s.len() - 1)].end)
        .collect()
}

/// The rule of one semantic strategy: its sentences, the texts it embeds and how it cuts.
pub(crate) trait Rule {
    fn id(&self) -> StrategyId;
    fn keeps(&self) -> Keeps;
    fn parameters(&self) -> Vec<Parameter>;
    /// The texts to embed, in the library's order (repeats allowed); a text that is a slice
    /// of `text` is borrowed from it (so that it is counted from a [`Document`]'s tokens).
    fn texts<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError>;
    /// The pieces and the curve.
    fn cut(&self, text: &str, vectors: &Vectors) -> Result<(Vec<Piece>, Curve), StrategyError>;
}

/// A semantic strategy with its vectors: a [`Chunker`] like every other, once
/// [`SemanticChunker::with_vectors`] has given it the embeddings of
/// [`SemanticChunker::embedding_texts`].
#[derive(Clone)]
pub struct SemanticChunker {
    rule: Arc<dyn Rule + Send + Sync>,
    budget: (usize, Length),
    chunk_overlap: usize,
    vectors: Arc<Vectors>,
}

impl std::fmt::Debug for SemanticChunker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticChunker")
            .field("strategy", &self.rule.id())
            .field("budget", &self.budget)
            .field("vectors", &self.vectors.len())
            .finish()
    }
}

impl SemanticChunker {
    /// The semantic strategy `id` with `settings` and the library's defaults, with no vectors
    /// yet. `None` when `id` is not a semantic strategy.
    ///
    /// # Errors
    /// As the strategy's own constructor: [`StrategyError::Params`] for a `chunk_size` of 0,
    /// [`StrategyError::UnitUnsupported`].
    pub fn new(id: StrategyId, settings: &Settings) -> Option<Result<Self, StrategyError>> {
        Self::with_breakpoints(id, settings, Breakpoints::default())
    }

    /// [`SemanticChunker::new`] with `breakpoints` in place of the libraries' default
    /// thresholds (each strategy reads its own).
    ///
    /// # Errors
    /// As [`SemanticChunker::new`], and [`StrategyError::ParameterRefused`] for a percentile
    /// outside 0–100 (NumPy's `percentile` raises on it). chonkie refuses a `threshold`
    /// outside (0, 1) when it is run, as chonkie does.
    pub fn with_breakpoints(
        id: StrategyId,
        settings: &Settings,
        breakpoints: Breakpoints,
    ) -> Option<Result<Self, StrategyError>> {
        let p = breakpoints.percentile;
        let percentile = |parameter: &'static str| {
            if breakpoints.in_range()[0] {
                Ok(p)
            } else {
                Err(StrategyError::ParameterRefused {
                    strategy: id,
                    parameter,
                    detail: "must be a percentile between 0 and 100",
                })
            }
        };
        let made = match id {
            StrategyId::ChonkieSemantic => ChonkieSemantic::new(settings).map(|r| {
                let threshold = breakpoints.chonkie_threshold;
                Self::of(ChonkieSemantic { threshold, ..r }, settings)
            }),
            StrategyId::LangchainSemantic => LangchainSemantic::new(settings).and_then(|r| {
                let breakpoint =
                    BreakpointThresholdType::Percentile(percentile("breakpoint_threshold_amount")?);
                Ok(Self::of(LangchainSemantic { breakpoint, ..r }, settings))
            }),
            StrategyId::LlamaindexSemantic => LlamaindexSemantic::new(settings).and_then(|r| {
                let breakpoint_percentile_threshold =
                    percentile("breakpoint_percentile_threshold")?;
                Ok(Self::of(
                    LlamaindexSemantic {
                        breakpoint_percentile_threshold,
                        ..r
                    },
                    settings,
                ))
            }),
            StrategyId::Semantic => OwnSemantic::new(settings).and_then(|r| {
                let breakpoint_percentile_threshold =
                    percentile("breakpoint_percentile_threshold")?;
                Ok(Self::of(
                    OwnSemantic {
                        breakpoint_percentile_threshold,
                        ..r
                    },
                    settings,
                ))
            }),
            _ => return None,
        };
        Some(made)
    }

    /// A chunker over an explicitly configured rule (a library's non-default parameters).
    pub fn of<R: Into<AnyRule>>(rule: R, settings: &Settings) -> Self {
        SemanticChunker {
            rule: rule.into().0,
            budget: (settings.chunk_size, settings.length()),
            chunk_overlap: settings.chunk_overlap,
            vectors: Arc::new(Vectors::new()),
        }
    }

    /// The texts whose vectors [`Chunker::split`] reads on `text`, each once, in the order
    /// the library embeds them.
    ///
    /// # Errors
    /// What the strategy refuses before it embeds: chonkie's parameters out of its range
    /// ([`StrategyError::ParameterRefused`]), a special-token string in tiktoken's tokens
    /// ([`StrategyError::TextRefused`]), a sizing tokenizer not loaded
    /// ([`StrategyError::TokenizerNotLoaded`]).
    pub fn embedding_texts(&self, text: &str) -> Result<Vec<String>, StrategyError> {
        Ok(Vectors::new().missing(&self.rule.texts(text)?))
    }

    /// Every text the library embeds on `text`, in its order, repeats included: what a
    /// pipeline running it pays for before it embeds a chunk (a text that occurs twice in
    /// the document is embedded twice).
    ///
    /// # Errors
    /// As [`SemanticChunker::embedding_texts`].
    pub fn embedding_calls<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError> {
        self.rule.texts(text)
    }

    /// How many texts [`SemanticChunker::embedding_calls`] embeds on `document`'s text, and
    /// their tokens in the document's encoding, summed: each call counted as encoding it alone
    /// counts it, from the document's tokens where the call is a slice of the text (so the
    /// windows, about three times the text, cost little more than their edges).
    ///
    /// # Errors
    /// As [`SemanticChunker::embedding_texts`].
    pub fn embedding_tokens(&self, document: &Document) -> Result<(usize, usize), StrategyError> {
        let _active = document.activate();
        let calls = self.rule.texts(document.text())?;
        let bpe = document.encoding().tokenizer();
        Ok((calls.len(), calls.iter().map(|c| bpe.count(c)).sum()))
    }

    /// [`crate::strategy::run_prepared`] and [`SemanticChunker::curve`] from one cut: the
    /// chunks of `document`, measured in its encoding, and the similarity curve.
    ///
    /// # Errors
    /// As [`Chunker::split`].
    pub fn run_with_curve(&self, document: &Document) -> Result<(Chunks, Curve), StrategyError> {
        let _active = document.activate();
        let (pieces, curve) = self.rule.cut(document.text(), &self.vectors)?;
        Ok((super::measure(self, document, pieces), curve))
    }

    /// This chunker reading `vectors`.
    pub fn with_vectors(mut self, vectors: Arc<Vectors>) -> Self {
        self.vectors = vectors;
        self
    }

    /// The similarity curve of `text` and where the strategy cut it.
    ///
    /// # Errors
    /// As [`Chunker::split`].
    pub fn curve(&self, text: &str) -> Result<Curve, StrategyError> {
        Ok(self.rule.cut(text, &self.vectors)?.1)
    }

    /// The pieces and the curve at once.
    ///
    /// # Errors
    /// As [`Chunker::split`].
    pub fn split_with_curve(&self, text: &str) -> Result<(Vec<Piece>, Curve), StrategyError> {
        self.rule.cut(text, &self.vectors)
    }
}

/// Any semantic rule, for [`SemanticChunker::of`].
pub struct AnyRule(Arc<dyn Rule + Send + Sync>);

macro_rules! any_rule {
    ($($t:ty),*) => {$(
        impl From<$t> for AnyRule {
            fn from(rule: $t) -> Self {
                AnyRule(Arc::new(rule))
            }
        }
    )*};
}
any_rule!(
    ChonkieSemantic,
    LangchainSemantic,
    LlamaindexSemantic,
    OwnSemantic
);

impl Chunker for SemanticChunker {
    fn id(&self) -> StrategyId {
        self.rule.id()
    }

    fn budget(&self) -> (usize, Length) {
        self.budget
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        Ok(self.rule.cut(text, &self.vectors)?.0)
    }

    fn keeps(&self) -> Keeps {
        self.rule.keeps()
    }

    fn parameters(&self) -> Vec<Parameter> {
        self.rule.parameters()
    }

    fn overlap_ignored(&self) -> bool {
        // None of the semantic chunkers has an overlap parameter.
        self.chunk_overlap > 0
    }
}

/// Counts of `text[r]` for each range, in the sizing unit.
pub(crate) fn counts(
    length: Length,
    text: &str,
    ranges: &[std::ops::Range<usize>],
) -> Result<Vec<usize>, StrategyError> {
    length.model_tokenizer()?;
    use crate::tokenizer::TokenCounter;
    Ok(ranges
        .iter()
        .map(|r| length.count(&text[r.clone()]))
        .collect())
}

#[cfg(test)]
mod tests;
