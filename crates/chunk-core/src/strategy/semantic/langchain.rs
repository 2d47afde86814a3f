//! langchain-experimental 0.4.2 `SemanticChunker` (`langchain_experimental/text_splitter.py`).

use super::numeric::{distance_nan_as_one, gradient, mean, percentile, std};
use super::{Curve, CurveKind, CurvePoint, Rule, Vectors};
use crate::strategy::{
    python_isspace, Boundary, Keeps, Parameter, Piece, Settings, StrategyError, StrategyId,
};
use std::borrow::Cow;
use std::ops::Range;

/// `breakpoint_threshold_type` and its `breakpoint_threshold_amount`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BreakpointThresholdType {
    /// `"percentile"` (default amount 95): cut where the distance is above this percentile
    /// of all distances (NumPy's linear percentile).
    Percentile(f64),
    /// `"standard_deviation"` (default 3): above mean + amount × standard deviation.
    StandardDeviation(f64),
    /// `"interquartile"` (default 1.5): above mean + amount × (Q3 − Q1).
    Interquartile(f64),
    /// `"gradient"` (default 95): where the distances' gradient is above its own percentile.
    Gradient(f64),
}

impl BreakpointThresholdType {
    /// The type's name in LangChain (`"percentile"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Self::Percentile(_) => "percentile",
            Self::StandardDeviation(_) => "standard_deviation",
            Self::Interquartile(_) => "interquartile",
            Self::Gradient(_) => "gradient",
        }
    }

    /// `breakpoint_threshold_amount`.
    pub fn amount(self) -> f64 {
        match self {
            Self::Percentile(a)
            | Self::StandardDeviation(a)
            | Self::Interquartile(a)
            | Self::Gradient(a) => a,
        }
    }

    /// The type `name` with LangChain's default amount (`BREAKPOINT_DEFAULTS`).
    pub fn default_of(name: &str) -> Option<Self> {
        Some(match name {
            "percentile" => Self::Percentile(95.0),
            "standard_deviation" => Self::StandardDeviation(3.0),
            "interquartile" => Self::Interquartile(1.5),
            "gradient" => Self::Gradient(95.0),
            _ => return None,
        })
    }
}

/// LangChain's `SemanticChunker(embeddings, buffer_size=1, breakpoint_threshold_type=
/// "percentile")` and its other parameters.
///
/// The rule:
/// 1. **Sentences**: `re.split(r"(?<=[.?!])\s+", text)`: cut at every run of whitespace
///    (Python's `\s`, `str.isspace`) that follows `.`, `?` or `!`, the run dropped. One
///    sentence (an empty text too): that is the only chunk, the whole text. With `gradient`
///    and two sentences: each is a chunk.
/// 2. **Combined sentences**: sentence `i` with `buffer_size` sentences before and after,
///    joined by single spaces; each is embedded.
/// 3. **Distances**: 1 − cosine of combined sentences `i` and `i+1` (in `float64`).
/// 4. **Threshold** by type, or from `number_of_chunks` (a percentile interpolated from the
///    count: `number_of_chunks` of 1 is the 100th, the number of distances the 0th).
/// 5. **Chunks**: a cut after sentence `i` when its value is strictly above the threshold;
///    the sentences of a chunk joined by one space (the whitespace they were cut at is not
///    kept: a chunk's text is not the document's slice when that was a newline or several
///    spaces). With `min_chunk_size`, a chunk shorter than that many characters is not cut
///    off: its sentences go on into the next.
///
/// LangChain has no maximum size: chunks are as long as the topic lasts (`chunk_size` only
/// flags them). Its `start_index` adds up chunk lengths, so it drifts by every whitespace run
/// it dropped; the pieces here carry true byte ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct LangchainSemantic {
    /// `buffer_size` (default 1).
    pub buffer_size: usize,
    /// `breakpoint_threshold_type` with its amount.
    pub breakpoint: BreakpointThresholdType,
    /// `number_of_chunks` (default `None`).
    pub number_of_chunks: Option<usize>,
    /// `min_chunk_size`, in characters (default `None`).
    pub min_chunk_size: Option<usize>,
}

impl LangchainSemantic {
    /// LangChain's defaults (`percentile` 95, `buffer_size` 1).
    ///
    /// # Errors
    /// [`StrategyError::Params`] for a `chunk_size` of 0, [`StrategyError::UnitUnsupported`].
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        super::check_settings(StrategyId::LangchainSemantic, settings)?;
        Ok(LangchainSemantic {
            buffer_size: 1,
            breakpoint: BreakpointThresholdType::Percentile(95.0),
            number_of_chunks: None,
            min_chunk_size: None,
        })
    }

    /// `re.split(r"(?<=[.?!])\s+", text)` as byte ranges.
    pub(crate) fn sentences(text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut prev: Option<char> = None;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if python_isspace(c) && matches!(prev, Some('.' | '?' | '!')) {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if !python_isspace(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                out.push(start..i);
                start = end;
                prev = None;
                continue;
            }
            prev = Some(c);
        }
        out.push(start..text.len());
        out
    }

    fn joined(text: &str, sentences: &[Range<usize>]) -> String {
        let parts: Vec<&str> = sentences.iter().map(|r| &text[r.clone()]).collect();
        parts.join(" ")
    }

    /// Each sentence with `buffer_size` neighbours on each side, joined by a space; borrowed
    /// from `text` where the sentences are separated by exactly one space there.
    fn combined<'t>(&self, text: &'t str, s: &[Range<usize>]) -> Vec<Cow<'t, str>> {
        (0..s.len())
            .map(|i| {
                let (a, b) = (
                    i.saturating_sub(self.buffer_size),
                    (i + self.buffer_size).min(s.len() - 1),
                );
                let one_space = |p: &[Range<usize>]| {
                    p[1].start == p[0].end + 1 && text.as_bytes()[p[0].end] == b' '
                };
                if s[a..=b].windows(2).all(one_space) {
                    // `re.split` took exactly the one space after each: the join is the slice.
                    return Cow::Borrowed(&text[s[a].start..s[b].end]);
                }
                let mut c = String::new();
                for j in i.saturating_sub(self.buffer_size)..i {
                    c.push_str(&text[s[j].clone()]);
                    c.push(' ');
                }
                c.push_str(&text[s[i].clone()]);
                for r in s.iter().take(i + 1 + self.buffer_size).skip(i + 1) {
                    c.push(' ');
                    c.push_str(&text[r.clone()]);
                }
                Cow::Owned(c)
            })
            .collect()
    }

    /// Whether the text is cut into sentences and embedded at all.
    fn measured(&self, n: usize) -> bool {
        !(n == 1 || matches!(self.breakpoint, BreakpointThresholdType::Gradient(_)) && n == 2)
    }
}

impl Rule for LangchainSemantic {
    fn id(&self) -> StrategyId {
        StrategyId::LangchainSemantic
    }

    fn keeps(&self) -> Keeps {
        Keeps::SentencesJoinedWithSpace
    }

    fn parameters(&self) -> Vec<Parameter> {
        let opt = |v: Option<usize>| v.map_or("None".to_string(), |v| v.to_string());
        vec![
            ("embeddings", "the page's embedding model".to_string()),
            ("buffer_size", self.buffer_size.to_string()),
            (
                "breakpoint_threshold_type",
                super::super::py_str(self.breakpoint.name()),
            ),
            (
                "breakpoint_threshold_amount",
                format!("{}", self.breakpoint.amount()),
            ),
            ("number_of_chunks", opt(self.number_of_chunks)),
            ("min_chunk_size", opt(self.min_chunk_size)),
        ]
    }

    fn texts<'t>(&self, text: &'t str) -> Result<Vec<Cow<'t, str>>, StrategyError> {
        let s = Self::sentences(text);
        if !self.measured(s.len()) {
            return Ok(Vec::new());
        }
        Ok(self.combined(text, &s))
    }

    fn cut(&self, text: &str, vectors: &Vectors) -> Result<(Vec<Piece>, Curve), StrategyError> {
        let s = Self::sentences(text);
        let mut curve = Curve {
            kind: CurveKind::Distance,
            points: Vec::new(),
            threshold: None,
        };
        let piece = |a: usize, b: usize, reason| {
            let bytes = s[a].start..s[b].end;
            let joined = Self::joined(text, &s[a..=b]);
            let text = (joined != text[bytes.clone()]).then_some(joined);
            Piece {
                text,
                ..Piece::slice(bytes, reason)
            }
        };
        if s.len() == 1 {
            return Ok((
                vec![Piece::slice(0..text.len(), Boundary::EndOfText)],
                curve,
            ));
        }
        if !self.measured(s.len()) {
            let pieces = vec![
                piece(0, 0, Boundary::Sentence),
                piece(1, 1, Boundary::EndOfText),
            ];
            return Ok((pieces, curve));
        }
        let combined = self.combined(text, &s);
        let embedded = vectors.all(
            StrategyId::LangchainSemantic,
            combined.iter().map(|c| c.as_ref()),
        )?;
        let distances: Vec<f64> = embedded
            .windows(2)
            .map(|p| distance_nan_as_one(p[0], p[1]))
            .collect();
        let (threshold, values) = if let Some(k) = self.number_of_chunks {
            let (x1, y1, x2, y2) = (distances.len() as f64, 0.0, 1.0, 100.0);
            let x = (k as f64).min(x1).max(x2);
            let y = if x2 == x1 {
                y2
            } else {
                y1 + ((y2 - y1) / (x2 - x1)) * (x - x1)
            };
            (
                percentile(&distances, y.clamp(0.0, 100.0)),
                distances.clone(),
            )
        } else {
            match self.breakpoint {
                BreakpointThresholdType::Percentile(a) => {
                    (percentile(&distances, a), distances.clone())
                }
                BreakpointThresholdType::StandardDeviation(a) => {
                    (mean(&distances) + a * std(&distances), distances.clone())
                }
                BreakpointThresholdType::Interquartile(a) => {
                    let iqr = percentile(&distances, 75.0) - percentile(&distances, 25.0);
                    (mean(&distances) + a * iqr, distances.clone())
                }
                BreakpointThresholdType::Gradient(a) => {
                    curve.kind = CurveKind::DistanceGradient;
                    let g = gradient(&distances);
                    (percentile(&g, a), g)
                }
            }
        };
        curve.threshold = Some(threshold);
        let mut pieces = Vec::new();
        let mut start = 0;
        let mut cut_at = vec![false; values.len()];
        for (i, &x) in values.iter().enumerate() {
            if x > threshold {
                if let Some(min) = self.min_chunk_size {
                    let chars = Self::joined(text, &s[start..=i]).chars().count();
                    if chars < min {
                        continue;
                    }
                }
                pieces.push(piece(start, i, Boundary::TopicShift));
                cut_at[i] = true;
                start = i + 1;
            }
        }
        if start < s.len() {
            pieces.push(piece(start, s.len() - 1, Boundary::EndOfText));
        }
        curve.points = values
            .iter()
            .enumerate()
            .map(|(i, &value)| CurvePoint {
                byte: s[i + 1].start,
                value,
                cut: cut_at[i],
            })
            .collect();
        Ok((pieces, curve))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window borrowed from the text is exactly LangChain's `" ".join` of its sentences.
    #[test]
    fn every_window_is_the_joined_sentences() {
        let texts = [
            "One. Two. Three. Four.",
            "One.  Two.\nThree.\u{a0}Four! Five? ",
            "One. Two.\r\n\r\nThree. ",
            "A.\tB. C.   D. E.",
            "No punctuation at all",
            "Ends with a space. ",
        ];
        for buffer_size in [0, 1, 2] {
            let rule = LangchainSemantic {
                buffer_size,
                ..LangchainSemantic::new(&crate::strategy::test_settings(
                    64,
                    0,
                    crate::strategy::SizeUnit::Tokens,
                ))
                .unwrap()
            };
            for text in texts {
                let s = LangchainSemantic::sentences(text);
                for (i, window) in rule.combined(text, &s).iter().enumerate() {
                    let (a, b) = (
                        i.saturating_sub(buffer_size),
                        (i + buffer_size).min(s.len() - 1),
                    );
                    let joined = LangchainSemantic::joined(text, &s[a..=b]);
                    assert_eq!(window.as_ref(), joined, "{text:?} window {i}");
                }
            }
        }
    }
}
