//! chonkie 1.7.0 `SemanticChunker` (`chunker/semantic.py`) with chonkie-core 0.10.2.

use super::numeric::{chonkie_percentile, cosine, filter_minima, local_minima};
use super::{counts, Curve, CurveKind, CurvePoint, Rule, Vectors};
use crate::strategy::chonkie::{pack, refuse_special_tokens, split_after};
use crate::strategy::length::Length;
use crate::strategy::{
    python_isspace, Boundary, Keeps, Parameter, Piece, Settings, StrategyError, StrategyId,
};
use std::borrow::Cow;
use std::ops::Range;

/// chonkie's `SemanticChunker` with its defaults but the embedding model, which is the one the
/// vectors come from (chonkie's default, `minishlab/potion-base-32M`, is on no package index;
/// the page gives potion-base-8M or all-MiniLM-L6-v2), and `chunk_size`, counted in the
/// settings' unit (chonkie counts the embedding model's own tokenizer: the model's tokens on
/// the page are that).
///
/// The rule, in chonkie's order:
/// 1. **Sentences**: `split_text_by_delimiters(text, [". ", "! ", "? ", "\n"],
///    include_delim="prev", min_chars=24)`: cut after every delimiter, then consecutive pieces
///    joined while the one so far or the next is under 24 UTF-8 bytes (chonkie-core counts
///    bytes). They cover the whole text. An empty or whitespace-only text (`str.isspace`) has
///    no chunk.
/// 2. `similarity_window` (3) sentences or fewer: one chunk.
/// 3. **Similarity** `i`: the cosine of the embedding of sentences `i..i+3` joined and the
///    embedding of sentence `i+3`, rounded to `float32` (chonkie's `similarity` returns
///    `np.float32`).
/// 4. **Split points**: with at least `filter_window` (5) similarities, the local minima of a
///    Savitzky–Golay fit (window 5, order 3: first derivative under `filter_tolerance` 0.2 in
///    magnitude, second derivative positive), kept when at or under the `threshold` (0.8)
///    quantile of the minima's values and at least `min_sentences_per_chunk` (1) after the
///    last kept; each shifted by the window (a cut before sentence `i+3`).
/// 5. In tiktoken's tokens, a text holding a special-token string (`<|endoftext|>`) is
///    refused: tiktoken's `encode` raises on it when chonkie counts the sentences.
/// 6. **Size**: a group over `chunk_size` (the sum of its sentences' counts) is cut greedily
///    between sentences; a single sentence over it stays whole (chonkie issue 222).
#[derive(Clone, Debug, PartialEq)]
pub struct ChonkieSemantic {
    /// `chunk_size` (default 2048 in chonkie; the page's size).
    pub chunk_size: usize,
    /// The unit sentences are counted in.
    pub length: Length,
    /// `threshold` (0–1, exclusive; default 0.8): the quantile of the minima's values.
    pub threshold: f64,
    /// `similarity_window` (default 3).
    pub similarity_window: usize,
    /// `min_sentences_per_chunk` (default 1).
    pub min_sentences_per_chunk: usize,
    /// `min_characters_per_sentence` (default 24; UTF-8 bytes in chonkie-core).
    pub min_characters_per_sentence: usize,
    /// `filter_window` (default 5).
    pub filter_window: usize,
    /// `filter_polyorder` (default 3).
    pub filter_polyorder: usize,
    /// `filter_tolerance` (default 0.2).
    pub filter_tolerance: f64,
}

const DELIMITERS: [&str; 4] = [". ", "! ", "? ", "\n"];

impl ChonkieSemantic {
    /// chonkie's defaults with `settings`' size and unit.
    ///
    /// # Errors
    /// [`StrategyError::Params`] for a `chunk_size` of 0 (chonkie raises `ValueError`),
    /// [`StrategyError::UnitUnsupported`].
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_settings(StrategyId::ChonkieSemantic, settings)?;
        Ok(ChonkieSemantic {
            chunk_size: settings.chunk_size,
            length: settings.length(),
            threshold: 0.8,
            similarity_window: 3,
            min_sentences_per_chunk: 1,
            min_characters_per_sentence: 24,
            filter_window: 5,
            filter_polyorder: 3,
            filter_tolerance: 0.2,
        })
    }

    fn refuse(parameter: &'static str, detail: &'static str) -> StrategyError {
        StrategyError::ParameterRefused {
            strategy: StrategyId::ChonkieSemantic,
            parameter,
            detail,
        }
    }

    /// chonkie's own checks in `__init__`.
    fn validate(&self) -> Result<(), StrategyError> {
        if self.similarity_window == 0 {
            return Err(Self::refuse("similarity_window", "must be positive"));
        }
        if self.min_sentences_per_chunk == 0 {
            return Err(Self::refuse("min_sentences_per_chunk", "must be positive"));
        }
        if !(self.threshold > 0.0 && self.threshold < 1.0) {
            return Err(Self::refuse("threshold", "must be between 0 and 1"));
        }
        if self.filter_window == 0 {
            return Err(Self::refuse("filter_window", "must be positive"));
        }
        if self.filter_polyorder >= self.filter_window {
            return Err(Self::refuse(
                "filter_polyorder",
                "must be non-negative and less than filter_window",
            ));
        }
        if !(self.filter_tolerance > 0.0 && self.filter_tolerance < 1.0) {
            return Err(Self::refuse("filter_tolerance", "must be between 0 and 1"));
        }
        Ok(())
    }

    /// The sentences (byte ranges covering `text`), or none for a blank text.
    fn sentences(&self, text: &str) -> Vec<Range<usize>> {
        if text.chars().all(python_isspace) {
            return Vec::new();
        }
        split_after(
            text,
            0..text.len(),
            &DELIMITERS,
            self.min_characters_per_sentence,
        )
    }
}

impl Rule for ChonkieSemantic {
    fn id(&self) -> StrategyId {
        StrategyId::ChonkieSemantic
    }

    fn keeps(&self) -> Keeps {
        Keeps::EverythingUnlessBlank
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("embedding_model", "the page's embedding model".to_string()),
            ("chunk_size", self.chunk_size.to_string()),
            ("threshold", format!("{}", self.threshold)),
            ("similarity_window", self.similarity_window.to_string()),
            (
                "min_sentences_per_chunk",
                self.min_sentences_per_chunk.to_string(),
            ),
            (
                "min_characters_per_sentence",
                self.min_characters_per_sentence.to_string(),
            ),
            ("filter_window", self.filter_window.to_string()),
            ("filter_polyorder", self.filter_polyorder.to_string()),
            ("filter_tolerance", format!("{}", self.filter_tolerance)),
        ]
    }

    fn texts<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError> {
        self.validate()?;
        self.length.model_tokenizer()?;
        refuse_special_tokens(StrategyId::ChonkieSemantic, self.length, text)?;
        let s = self.sentences(text);
        let w = self.similarity_window;
        if s.len() <= w {
            return Ok(Vec::new());
        }
        let n = s.len() - w;
        let mut out: Vec<Cow<'t, str>> = (0..n)
            .map(|i| Cow::Borrowed(&text[s[i].start..s[i + w - 1].end]))
            .collect();
        out.extend(s[w..].iter().map(|r| Cow::Borrowed(&text[r.clone()])));
        Ok(out)
    }

    fn cut(&self, text: &str, vectors: &Vectors) -> Result<(Vec<Piece>, Curve), StrategyError> {
        self.validate()?;
        let id = StrategyId::ChonkieSemantic;
        refuse_special_tokens(id, self.length, text)?;
        let sentences = self.sentences(text);
        let tokens = counts(self.length, text, &sentences)?;
        let w = self.similarity_window;
        let mut curve = Curve {
            kind: CurveKind::Similarity,
            points: Vec::new(),
            threshold: None,
        };
        // Group boundaries as sentence indices, and which were topic shifts.
        let mut bounds = vec![0, sentences.len()];
        if sentences.len() > w {
            let n = sentences.len() - w;
            let mut sims = Vec::with_capacity(n);
            for i in 0..n {
                let window =
                    vectors.need(id, &text[sentences[i].start..sentences[i + w - 1].end])?;
                let next = vectors.need(id, &text[sentences[i + w].clone()])?;
                sims.push(f64::from(cosine(window, next) as f32));
            }
            let mut cuts = Vec::new();
            if sims.len() >= self.filter_window {
                let minima = local_minima(
                    &sims,
                    self.filter_window,
                    self.filter_polyorder,
                    self.filter_tolerance,
                )
                .ok_or_else(|| Self::refuse("filter_window", "must be odd"))?;
                if !minima.is_empty() {
                    let mut values: Vec<f64> = minima.iter().map(|&(_, v)| v).collect();
                    values.sort_by(f64::total_cmp);
                    curve.threshold = Some(chonkie_percentile(&values, self.threshold));
                }
                cuts = filter_minima(&minima, self.threshold, self.min_sentences_per_chunk);
            }
            curve.points = sims
                .iter()
                .enumerate()
                .map(|(i, &value)| CurvePoint {
                    byte: sentences[i + w].start,
                    value,
                    cut: cuts.binary_search(&i).is_ok(),
                })
                .collect();
            bounds = std::iter::once(0)
                .chain(cuts.iter().map(|&i| i + w))
                .chain(std::iter::once(sentences.len()))
                .collect();
        }
        let mut pieces = Vec::new();
        if sentences.is_empty() {
            return Ok((pieces, curve));
        }
        for pair in bounds.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a >= b {
                continue;
            }
            let group = &tokens[a..b];
            let total: usize = group.iter().sum();
            // Up to `similarity_window` sentences are one chunk whatever their size.
            let ends: Vec<usize> = if total <= self.chunk_size || sentences.len() <= w {
                vec![b]
            } else {
                pack(group, self.chunk_size)
                    .into_iter()
                    .map(|(end, _)| a + end)
                    .collect()
            };
            let mut start = a;
            for &end in &ends {
                let reason = if end == sentences.len() {
                    Boundary::EndOfText
                } else if end == b {
                    Boundary::TopicShift
                } else {
                    Boundary::Sentence
                };
                pieces.push(Piece::slice(
                    sentences[start].start..sentences[end - 1].end,
                    reason,
                ));
                start = end;
            }
        }
        Ok((pieces, curve))
    }
}
