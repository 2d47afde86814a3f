//! Fixed token windows ("hard cut"): the token ranges that the SPEC §2 formula counts.
//!
//! A window is a half-open range of token indices `[start, end)`. Windows start at
//! `0, stride, 2·stride, …` and the last one is the remainder, so the number of windows equals
//! [`crate::formula::chunk_count`] for every input.

use crate::formula::chunk_count;
use crate::params::ChunkParams;

/// A half-open range `[start, end)` of token indices (units: tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// Index of the first token in the window.
    pub start: usize,
    /// Index one past the last token in the window.
    pub end: usize,
}

impl Window {
    /// Number of tokens in the window.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// True for a window with no token (never produced by [`fixed_windows`]).
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// The windows of a fixed-window cut, with the overlap actually used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedWindows {
    /// Windows in document order; empty for an empty document.
    pub windows: Vec<Window>,
    /// Overlap used, in tokens (`chunk_size − 1` when the request was clamped).
    pub chunk_overlap: usize,
    /// True when the requested overlap was ≥ `chunk_size` and had to be lowered.
    pub overlap_clamped: bool,
}

/// Cuts `n_tokens` tokens into windows of `chunk_size` tokens that overlap by `chunk_overlap`.
///
/// Returns `None` when `chunk_size == 0`. An overlap ≥ `chunk_size` is clamped to
/// `chunk_size − 1` and flagged, so the loop always advances by at least one token.
/// Edge case E02: 10 tokens, size 8, overlap 4 → `[0, 8)` and `[4, 10)`, never a third window
/// `[8, 10)` that lies inside the second.
pub fn fixed_windows(
    n_tokens: usize,
    chunk_size: usize,
    chunk_overlap: usize,
) -> Option<FixedWindows> {
    let params = ChunkParams::new(chunk_size, chunk_overlap).ok()?;
    let (overlap, stride) = (params.chunk_overlap(), params.stride());
    let count = chunk_count(n_tokens as u64, chunk_size as u64, stride as u64) as usize;
    let windows = (0..count)
        .map(|i| {
            let start = i * stride;
            Window {
                start,
                end: (start + chunk_size).min(n_tokens),
            }
        })
        .collect();
    Some(FixedWindows {
        windows,
        chunk_overlap: overlap,
        overlap_clamped: params.overlap_clamped(),
    })
}

/// The overlap measured between each window and the one before it, in tokens: element `i` is
/// `max(0, windows[i−1].end − windows[i].start)`, and element 0 is 0. It is read from the
/// windows, never echoed from the setting.
pub fn measured_overlaps(windows: &[Window]) -> Vec<usize> {
    let mut out = Vec::with_capacity(windows.len());
    let mut prev_end = None;
    for w in windows {
        out.push(prev_end.map_or(0, |e: usize| e.saturating_sub(w.start)));
        prev_end = Some(w.end);
    }
    out
}

/// How many windows hold each token: a vector of `n_tokens` counts (difference array, O(n + w)).
/// Windows reaching past `n_tokens` are cut at `n_tokens`.
pub fn multiplicity(n_tokens: usize, windows: &[Window]) -> Vec<u32> {
    let mut diff = vec![0i64; n_tokens + 1];
    for w in windows {
        let (s, e) = (w.start.min(n_tokens), w.end.min(n_tokens));
        if s < e {
            diff[s] += 1;
            diff[e] -= 1;
        }
    }
    let mut acc = 0i64;
    diff[..n_tokens]
        .iter()
        .map(|d| {
            acc += d;
            acc as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(n: usize, s: usize, o: usize) -> Vec<(usize, usize)> {
        fixed_windows(n, s, o)
            .expect("size ≥ 1")
            .windows
            .iter()
            .map(|w| (w.start, w.end))
            .collect()
    }

    #[test]
    fn e02_no_window_inside_the_previous_one() {
        assert_eq!(spans(10, 8, 4), vec![(0, 8), (4, 10)]);
    }

    #[test]
    fn e03_short_document_is_one_window_with_no_overlap() {
        let w = fixed_windows(6, 8, 4).expect("size ≥ 1");
        assert_eq!(w.windows, vec![Window { start: 0, end: 6 }]);
        assert_eq!(measured_overlaps(&w.windows), vec![0]);
    }

    #[test]
    fn e01_overlap_equal_to_size_is_clamped() {
        let w = fixed_windows(11, 2, 2).expect("size ≥ 1");
        assert!(w.overlap_clamped);
        assert_eq!(w.chunk_overlap, 1);
        assert_eq!(w.windows.len(), 10);
        let w = fixed_windows(13, 5, 5).expect("size ≥ 1");
        assert_eq!(
            w.windows.iter().map(|w| w.start).collect::<Vec<_>>(),
            (0..9).collect::<Vec<_>>()
        );
    }

    #[test]
    fn spec_worked_example_windows() {
        let w = fixed_windows(10_000, 512, 64).expect("size ≥ 1");
        assert_eq!(w.windows.len(), 23);
        assert_eq!(
            w.windows[22],
            Window {
                start: 9856,
                end: 10_000
            }
        );
        let total: usize = w.windows.iter().map(|w| w.len()).sum();
        assert_eq!(total, 11_408);
        let m = multiplicity(10_000, &w.windows);
        assert_eq!(m.iter().filter(|&&c| c == 2).count(), 1_408);
        assert_eq!(measured_overlaps(&w.windows)[1], 64);
    }

    #[test]
    fn zero_size_and_empty_document() {
        assert_eq!(fixed_windows(10, 0, 0), None);
        assert!(fixed_windows(0, 5, 1).expect("size ≥ 1").windows.is_empty());
        assert!(multiplicity(0, &[]).is_empty());
    }
}
