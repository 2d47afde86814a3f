//! The product's own semantic chunking: LlamaIndex's topic shifts, under the size limit, with
//! every byte kept.

use super::numeric::{distance_nan_as_one, percentile};
use super::{neighbour_windows, punkt_sentences, Curve, CurveKind, CurvePoint, Rule, Vectors};
use crate::params::ChunkParams;
use crate::strategy::length::Length;
use crate::strategy::recursive::Recursive;
use crate::strategy::{
    Boundary, Chunker, Keeps, Parameter, Piece, Settings, StrategyError, StrategyId,
};
use crate::tokenizer::TokenCounter;
use std::borrow::Cow;
use std::ops::Range;

/// Semantic chunking that never breaks the size limit.
///
/// 1. **Sentences**: NLTK Punkt's, as LlamaIndex splits them (each with the whitespace after
///    it; the first starts at 0), so the sentences cover the text.
/// 2. **Windows**: sentence `i` with its neighbours on both sides (`buffer_size` 1), the
///    document's own text; each is embedded. These are LlamaIndex's combined sentences, so
///    one set of vectors serves both rows.
/// 3. **Topic shifts**: a cut after sentence `i` where the cosine distance of windows `i` and
///    `i+1` is strictly above the `breakpoint_percentile_threshold` percentile of all
///    distances (default 95: about one gap in twenty). A window with the zero vector (the
///    model read none of its tokens) has a cosine of 0 with any other, a distance of 1.
/// 4. **Size**: a group over `chunk_size` (its own count, in the settings' unit) is cut by the
///    product's [`Recursive`] splitter (paragraphs, sentences, lines, words, then units), so
///    no chunk is over `chunk_size` and no byte is lost; those cuts give their own reason.
///    The one exception is the recursive splitter's: a single character that alone is more
///    tokens than `chunk_size` (a size of 1 or 2 and a CJK character) is a chunk of its own,
///    flagged oversize, since characters are not cut.
///
/// Reasons: [`Boundary::TopicShift`] at a topic shift, the level of the cut where the size
/// forced one, [`Boundary::EndOfText`] at the end. A text without sentence marks is one
/// sentence: it is cut by size alone.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnSemantic {
    /// Size (overlap unused: semantic chunks do not overlap).
    pub chunk_size: usize,
    /// The unit: tokens of an encoding or characters.
    pub length: Length,
    /// Percentile of the distances a gap must exceed to be a topic shift (0–100).
    pub breakpoint_percentile_threshold: f64,
}

impl OwnSemantic {
    /// With `settings`' size and unit, threshold percentile 95.
    ///
    /// # Errors
    /// [`StrategyError::Params`] for a `chunk_size` of 0, [`StrategyError::UnitUnsupported`]
    /// for an open model's tokens (the size cut is the recursive splitter's).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_settings(StrategyId::Semantic, settings)?;
        Ok(OwnSemantic {
            chunk_size: settings.chunk_size,
            length: settings.length(),
            breakpoint_percentile_threshold: 95.0,
        })
    }

    /// `text[range]` as pieces no larger than the size; the last ends with `last`.
    fn sized(
        &self,
        text: &str,
        range: Range<usize>,
        last: Boundary,
        out: &mut Vec<Piece>,
    ) -> Result<(), StrategyError> {
        if self.length.count(&text[range.clone()]) <= self.chunk_size {
            out.push(Piece::slice(range, last));
            return Ok(());
        }
        let recursive = Recursive {
            params: ChunkParams::new(self.chunk_size, 0)?,
            length: self.length,
            rule: crate::segment::sentences::SentenceRule::Contextual,
        };
        let pieces = recursive.split(&text[range.clone()])?;
        let n = pieces.len();
        for (k, p) in pieces.into_iter().enumerate() {
            let reason = if k + 1 == n { last } else { p.reason };
            out.push(Piece {
                bytes: p.bytes.start + range.start..p.bytes.end + range.start,
                reason,
                ..p
            });
        }
        Ok(())
    }
}

impl Rule for OwnSemantic {
    fn id(&self) -> StrategyId {
        StrategyId::Semantic
    }

    fn keeps(&self) -> Keeps {
        Keeps::Everything
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![(
            "breakpoint_percentile_threshold",
            format!("{}", self.breakpoint_percentile_threshold),
        )]
    }

    fn texts<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError> {
        let s = punkt_sentences(text);
        if s.len() < 2 {
            return Ok(Vec::new());
        }
        Ok(neighbour_windows(&s, 1)
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
        let mut pieces = Vec::new();
        if text.is_empty() {
            return Ok((pieces, curve));
        }
        let mut cuts = Vec::new();
        if s.len() >= 2 {
            let embedded = vectors.all(
                StrategyId::Semantic,
                neighbour_windows(&s, 1).into_iter().map(|r| &text[r]),
            )?;
            // A window the model reads nothing of (all unknown tokens) has the zero vector:
            // its cosine is taken as 0, a distance of 1, as LangChain does.
            let distances: Vec<f64> = embedded
                .windows(2)
                .map(|p| distance_nan_as_one(p[0], p[1]))
                .collect();
            let threshold = percentile(&distances, self.breakpoint_percentile_threshold);
            curve.threshold = Some(threshold);
            for (i, &d) in distances.iter().enumerate() {
                let cut = d > threshold;
                if cut {
                    cuts.push(s[i].end);
                }
                curve.points.push(CurvePoint {
                    byte: s[i + 1].start,
                    value: d,
                    cut,
                });
            }
        }
        let mut start = 0;
        for end in cuts {
            self.sized(text, start..end, Boundary::TopicShift, &mut pieces)?;
            start = end;
        }
        self.sized(text, start..text.len(), Boundary::EndOfText, &mut pieces)?;
        Ok((pieces, curve))
    }
}
