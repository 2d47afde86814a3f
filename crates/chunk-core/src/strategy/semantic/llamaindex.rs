//! llama-index-core 0.14.25 `SemanticSplitterNodeParser`
//! (`llama_index/core/node_parser/text/semantic_splitter.py`).

use super::numeric::{cosine, percentile};
use super::{neighbour_windows, punkt_sentences, Curve, CurveKind, CurvePoint, Rule, Vectors};
use crate::strategy::{Boundary, Keeps, Parameter, Piece, Settings, StrategyError, StrategyId};
use std::borrow::Cow;
use std::ops::Range;

/// LlamaIndex's `SemanticSplitterNodeParser.from_defaults(embed_model, buffer_size=1,
/// breakpoint_percentile_threshold=95)`.
///
/// The rule:
/// 1. **Sentences**: `split_by_sentence_tokenizer()`: NLTK Punkt's spans, each sentence from
///    its span's start to the next span's start (the whitespace after it included); the first
///    span starts at 0 (NLTK's spans keep leading whitespace in the first sentence).
/// 2. **Combined sentences**: sentence `i` with `buffer_size` sentences before and after,
///    concatenated as they are (so a slice of the document); each is embedded.
/// 3. **Distances**: 1 − cosine of combined sentences `i` and `i+1`
///    (`BaseEmbedding.similarity`, `float64`).
///    They are embedded whenever there is a sentence, also one alone (its vector unread).
/// 4. **Chunks**: with at least one distance, a cut after sentence `i` where it is strictly
///    above the `breakpoint_percentile_threshold` percentile of the distances (NumPy's
///    linear percentile); each chunk its sentences concatenated. With none (one sentence, or
///    none in a blank text): one chunk, the sentences joined by a space (`""` for none).
///
/// No maximum size: `chunk_size` only flags chunks. The nodes' `start_char_idx` is a search
/// (`str.find` of the node's text from the previous node's start + 1), not a position; the
/// pieces here carry true byte ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct LlamaindexSemantic {
    /// `buffer_size` (default 1).
    pub buffer_size: usize,
    /// `breakpoint_percentile_threshold` (default 95).
    pub breakpoint_percentile_threshold: f64,
}

impl LlamaindexSemantic {
    /// LlamaIndex's defaults.
    ///
    /// # Errors
    /// [`StrategyError::Params`] for a `chunk_size` of 0, [`StrategyError::UnitUnsupported`].
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_settings(StrategyId::LlamaindexSemantic, settings)?;
        Ok(LlamaindexSemantic {
            buffer_size: 1,
            breakpoint_percentile_threshold: 95.0,
        })
    }

    fn combined(&self, s: &[Range<usize>]) -> Vec<Range<usize>> {
        neighbour_windows(s, self.buffer_size)
    }
}

impl Rule for LlamaindexSemantic {
    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexSemantic
    }

    fn keeps(&self) -> Keeps {
        Keeps::AllButWhitespace
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("embed_model", "the page's embedding model".to_string()),
            ("buffer_size", self.buffer_size.to_string()),
            (
                "breakpoint_percentile_threshold",
                format!("{}", self.breakpoint_percentile_threshold),
            ),
        ]
    }

    fn texts<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError> {
        // Embedded whenever there is a sentence, even one alone, whose vector is not read.
        let s = punkt_sentences(text);
        if s.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .combined(&s)
            .into_iter()
            .map(|r| Cow::Borrowed(&text[r]))
            .collect())
    }

    fn cut(&self, text: &str, vectors: &Vectors) -> Result<(Vec<Piece>, Curve), StrategyError> {
        let s = punkt_sentences(text);
        let mut curve = Curve {
            kind: CurveKind::Distance,
            points: Vec::new(),
            threshold: None,
        };
        if s.len() < 2 {
            let bytes = s.first().map_or(0..0, |r| r.clone());
            return Ok((vec![Piece::slice(bytes, Boundary::EndOfText)], curve));
        }
        let embedded = vectors.all(
            StrategyId::LlamaindexSemantic,
            self.combined(&s).into_iter().map(|r| &text[r]),
        )?;
        let distances: Vec<f64> = embedded
            .windows(2)
            .map(|p| 1.0 - cosine(p[0], p[1]))
            .collect();
        let threshold = percentile(&distances, self.breakpoint_percentile_threshold);
        curve.threshold = Some(threshold);
        let mut pieces = Vec::new();
        let mut start = 0;
        for (i, &d) in distances.iter().enumerate() {
            let cut = d > threshold;
            if cut {
                pieces.push(Piece::slice(s[start].start..s[i].end, Boundary::TopicShift));
                start = i + 1;
            }
            curve.points.push(CurvePoint {
                byte: s[i + 1].start,
                value: d,
                cut,
            });
        }
        pieces.push(Piece::slice(
            s[start].start..text.len(),
            Boundary::EndOfText,
        ));
        Ok((pieces, curve))
    }
}
