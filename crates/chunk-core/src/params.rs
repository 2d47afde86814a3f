//! The one validated chunking parameter type: every strategy of the product, the simulator and
//! fixed windows take their size and overlap from [`ChunkParams`], so the overlap is clamped in
//! one place only.

use std::num::NonZeroUsize;
use thiserror::Error;

/// Clamps an overlap below the chunk size (SPEC §2), in the caller's unit: returns `(overlap_used, clamped)`.
///
/// `chunk_size` must be ≥ 1. An overlap ≥ `chunk_size` would make the stride zero or negative
/// and the window loop would never advance, so it becomes `chunk_size − 1`.
pub fn clamp_overlap(chunk_size: u64, chunk_overlap: u64) -> (u64, bool) {
    if chunk_overlap >= chunk_size {
        (chunk_size.saturating_sub(1), true)
    } else {
        (chunk_overlap, false)
    }
}

/// Why [`ChunkParams::new`] refused a setting.
/// The one error for a chunk size no chunk can hold: the strategies ([`crate::strategy::StrategyError::Params`]),
/// the simulator ([`crate::sim::chunk`]) and the formula ([`crate::formula::FormulaError::Params`]) all
/// refuse with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ParamsError {
    /// `chunk_size` was 0: no chunk can hold anything.
    #[error("chunk_size must be at least 1")]
    ZeroChunkSize,
}

/// A chunk size and overlap that a strategy can always advance with.
///
/// Invariant: `chunk_overlap < chunk_size` (so the stride `chunk_size − chunk_overlap` is ≥ 1).
/// The unit (tokens or characters) is the caller's: the type only guards the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkParams {
    chunk_size: NonZeroUsize,
    chunk_overlap: usize,
    requested_overlap: usize,
}

impl ChunkParams {
    /// Validates `chunk_size` (≥ 1) and clamps `chunk_overlap` below it: an overlap ≥
    /// `chunk_size` becomes `chunk_size − 1` and [`ChunkParams::overlap_clamped`] says so
    /// (SPEC §2: the page must show a notice).
    ///
    /// # Errors
    /// [`ParamsError::ZeroChunkSize`] when `chunk_size == 0`.
    pub fn new(chunk_size: usize, chunk_overlap: usize) -> Result<Self, ParamsError> {
        let size = NonZeroUsize::new(chunk_size).ok_or(ParamsError::ZeroChunkSize)?;
        // One clamping rule for these and for the formula's u64 lengths ([`clamp_overlap`]).
        let (used, _) = clamp_overlap(chunk_size as u64, chunk_overlap as u64);
        Ok(ChunkParams {
            chunk_size: size,
            chunk_overlap: used as usize,
            requested_overlap: chunk_overlap,
        })
    }

    /// The chunk size (≥ 1).
    pub fn chunk_size(self) -> usize {
        self.chunk_size.get()
    }

    /// The overlap used: the request, or `chunk_size − 1` when that was clamped.
    pub fn chunk_overlap(self) -> usize {
        self.chunk_overlap
    }

    /// The overlap as requested, before clamping.
    pub fn requested_overlap(self) -> usize {
        self.requested_overlap
    }

    /// True when the requested overlap was ≥ `chunk_size` and was lowered.
    pub fn overlap_clamped(self) -> bool {
        self.requested_overlap != self.chunk_overlap
    }

    /// `chunk_size − chunk_overlap`, always ≥ 1.
    pub fn stride(self) -> usize {
        self.chunk_size() - self.chunk_overlap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_size_is_refused_and_overlap_is_clamped_below_size() {
        assert_eq!(ChunkParams::new(0, 0), Err(ParamsError::ZeroChunkSize));
        let p = ChunkParams::new(8, 3).expect("valid");
        assert_eq!((p.chunk_size(), p.chunk_overlap(), p.stride()), (8, 3, 5));
        assert!(!p.overlap_clamped());
        let p = ChunkParams::new(2, 2).expect("valid");
        assert_eq!(
            (p.chunk_overlap(), p.requested_overlap(), p.stride()),
            (1, 2, 1)
        );
        assert!(p.overlap_clamped());
        let p = ChunkParams::new(1, usize::MAX).expect("valid");
        assert_eq!((p.chunk_overlap(), p.stride()), (0, 1));
    }
}
