//! Slider sweeps (SPEC §4): split sentences against every slider size, bloat factor against
//! every slider overlap.

use super::chunking::Strategy;
use super::metrics::split_sentences;
use super::prepared::Prepared;
use crate::params::ParamsError;

/// The values of a slider: `min, min + step, …, max` (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slider {
    /// First value.
    pub min: usize,
    /// Last value.
    pub max: usize,
    /// Distance between values (≥ 1).
    pub step: usize,
}

impl Slider {
    /// The slider's values in increasing order.
    pub fn values(self) -> impl Iterator<Item = usize> {
        (self.min..=self.max).step_by(self.step.max(1))
    }
}

/// The chunk-size slider of the simulator: 10–160 tokens, step 5 (SPEC §4).
pub const SIZE_SLIDER: Slider = Slider {
    min: 10,
    max: 160,
    step: 5,
};

/// The overlap slider of the simulator: 0–50 tokens, step 5 (SPEC §4).
pub const OVERLAP_SLIDER: Slider = Slider {
    min: 0,
    max: 50,
    step: 5,
};

/// `(chunk_size, split sentences)` for every value of [`SIZE_SLIDER`] at `chunk_overlap`
/// tokens (the chart of SPEC §4; it is not monotonic).
///
/// # Errors
/// Never for the slider's sizes (all ≥ 1); the type keeps [`ParamsError`] for honesty.
pub fn split_by_size(
    prepared: &Prepared,
    strategy: Strategy,
    chunk_overlap: usize,
) -> Result<Vec<(usize, usize)>, ParamsError> {
    SIZE_SLIDER
        .values()
        .map(|size| {
            let c = prepared.chunk(strategy, size, chunk_overlap)?;
            Ok((size, split_sentences(&prepared.sentences, &c.chunks).len()))
        })
        .collect()
}

/// `(chunk_overlap, bloat factor)` for every value of [`OVERLAP_SLIDER`] at `chunk_size`
/// tokens; the factor is `None` for a text with no token.
///
/// # Errors
/// [`ParamsError::ZeroChunkSize`] when `chunk_size == 0`.
pub fn bloat_by_overlap(
    prepared: &Prepared,
    strategy: Strategy,
    chunk_size: usize,
) -> Result<Vec<(usize, Option<f64>)>, ParamsError> {
    let n = prepared.n_tokens();
    OVERLAP_SLIDER
        .values()
        .map(|overlap| {
            let c = prepared.chunk(strategy, chunk_size, overlap)?;
            let total: usize = c.chunks.iter().map(|w| w.len()).sum();
            Ok((overlap, (n > 0).then(|| total as f64 / n as f64)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_values() {
        assert_eq!(SIZE_SLIDER.values().count(), 31);
        assert_eq!(SIZE_SLIDER.values().last(), Some(160));
        assert_eq!(
            OVERLAP_SLIDER.values().collect::<Vec<_>>(),
            (0..=50).step_by(5).collect::<Vec<_>>()
        );
    }
}
