//! A/B: two comparison rows side by side, and the difference of every figure (B − A), for the
//! page's "two settings side by side" view.

use crate::analysis::Summary;
use serde::{Deserialize, Serialize};

/// One figure of an A/B comparison.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// The figure for A.
    pub a: f64,
    /// The figure for B.
    pub b: f64,
    /// `b − a`.
    pub change: f64,
    /// `(b − a) / a` as a fraction (0.25 = +25 %); `None` when `a` is 0.
    pub relative: Option<f64>,
}

impl Delta {
    fn of(a: f64, b: f64) -> Self {
        Delta {
            a,
            b,
            change: b - a,
            relative: (a != 0.0).then(|| (b - a) / a),
        }
    }
}

/// The figures of an A/B comparison, each as a [`Delta`]; the names are [`Summary`]'s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AbDifference {
    /// Number of chunks.
    pub chunks: Delta,
    /// Tokens embedded.
    pub total_tokens: Delta,
    /// Tokens repeated by overlaps.
    pub repeated_tokens: Delta,
    /// Mean chunk tokens (0 without chunks).
    pub mean_tokens: Delta,
    /// 95th-percentile chunk tokens.
    pub p95_tokens: Delta,
    /// Largest chunk, tokens.
    pub max_tokens: Delta,
    /// Chunks over the model's limit.
    pub over_limit: Delta,
    /// Sentences no chunk holds wholly.
    pub split_sentences: Delta,
    /// Embedding cost, in the price's currency.
    pub cost: Delta,
}

/// Every figure of `b` against `a`.
pub fn difference(a: &Summary, b: &Summary) -> AbDifference {
    let d = |x: usize, y: usize| Delta::of(x as f64, y as f64);
    AbDifference {
        chunks: d(a.chunks, b.chunks),
        total_tokens: d(a.total_tokens, b.total_tokens),
        repeated_tokens: d(a.repeated_tokens, b.repeated_tokens),
        mean_tokens: Delta::of(a.mean_tokens.unwrap_or(0.0), b.mean_tokens.unwrap_or(0.0)),
        p95_tokens: d(a.p95_tokens, b.p95_tokens),
        max_tokens: d(a.max_tokens, b.max_tokens),
        over_limit: d(a.over_limit, b.over_limit),
        split_sentences: d(a.split_sentences, b.split_sentences),
        cost: Delta::of(a.cost, b.cost),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::summary;
    use crate::strategy::{chunker, run, Settings, SizeUnit, StrategyId};
    use crate::tokenizer::Encoding;

    #[test]
    fn halving_the_size_doubles_the_chunks() {
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let row = |size| {
            let s = Settings {
                chunk_size: size,
                chunk_overlap: 0,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            };
            let c = run(
                chunker(StrategyId::Fixed, &s).unwrap().as_ref(),
                text,
                s.encoding,
            );
            summary(
                text,
                &c.unwrap(),
                &crate::analysis::LimitCheck::within(8191),
                0.02,
            )
        };
        // 12 tokens: 2 chunks of 6, then 4 chunks of 3.
        let d = difference(&row(6), &row(3));
        assert_eq!((d.chunks.a, d.chunks.b, d.chunks.change), (2.0, 4.0, 2.0));
        assert_eq!(d.chunks.relative, Some(1.0));
        assert_eq!(d.total_tokens.change, 0.0);
        assert_eq!(d.max_tokens.relative, Some(-0.5));
        assert_eq!(d.over_limit.relative, None);
    }
}
