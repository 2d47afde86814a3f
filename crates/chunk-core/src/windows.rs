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

/// One window as a chunk list shows it: its token range, the tokens it shares with the window
/// before it, and the byte ranges of the whole window and of its fresh part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSpan {
    /// 0-based window index.
    pub index: usize,
    /// Token range `[start, end)`.
    pub window: Window,
    /// Tokens shared with the previous window ([`measured_overlaps`], at most the window's
    /// length); 0 for the first window.
    pub overlap_tokens: usize,
    /// Byte range `[start, end)` of the window in the text.
    pub bytes: (usize, usize),
    /// Byte offset where the part not shared with the previous window begins (`bytes.0` when
    /// nothing is shared). The fresh parts `[fresh_from, bytes.1)` of all windows tile the
    /// text exactly once.
    pub fresh_from: usize,
}

/// The spans of `windows` over a text whose token boundaries are `offsets` (byte offsets,
/// `offsets.len() == n_tokens + 1`, as in [`crate::tokenizer::Encoded::offsets`]). Every
/// window must lie inside `0..n_tokens`.
///
/// Example: 10 one-byte tokens, size 4, overlap 1 → `[0,4)`, `[3,7)` sharing 1 token (fresh
/// from byte 4), `[6,10)` sharing 1 (fresh from byte 7).
pub fn window_spans(offsets: &[usize], windows: &[Window]) -> Vec<WindowSpan> {
    windows
        .iter()
        .zip(measured_overlaps(windows))
        .enumerate()
        .map(|(index, (&w, overlap))| {
            let overlap_tokens = overlap.min(w.len());
            WindowSpan {
                index,
                window: w,
                overlap_tokens,
                bytes: (offsets[w.start], offsets[w.end]),
                fresh_from: offsets[w.start + overlap_tokens],
            }
        })
        .collect()
}

/// For each of the first `n_tokens` tokens, the window that owns it for display: the last
/// window starting at or before it, so that ownership changes exactly where a window starts
/// (tokens before the first window's start belong to window 0; with no window every token is
/// given 0). `windows` must have strictly increasing starts, as every strategy gives. O(n + w).
///
/// Example: windows `[0,3)`, `[2,5)`, `[5,7)` → owners `0 0 1 1 1 2 2`.
pub fn token_owners(windows: &[Window], n_tokens: usize) -> Vec<usize> {
    let mut owners = Vec::with_capacity(n_tokens);
    let mut k = 0;
    for i in 0..n_tokens {
        while k + 1 < windows.len() && windows[k + 1].start <= i {
            k += 1;
        }
        owners.push(k);
    }
    owners
}

/// The indices of every window that holds token `token` (`start ≤ token < end`), in window
/// order: one index outside overlaps, two or more inside them, none in a gap between windows.
pub fn windows_holding(windows: &[Window], token: usize) -> Vec<usize> {
    windows
        .iter()
        .enumerate()
        .filter(|(_, w)| w.start <= token && token < w.end)
        .map(|(k, _)| k)
        .collect()
}

/// The index of the window that starts at token `token`, if one does (`windows` with strictly
/// increasing starts, as every strategy gives): where a cut marker goes.
pub fn window_starting_at(windows: &[Window], token: usize) -> Option<usize> {
    windows.binary_search_by(|w| w.start.cmp(&token)).ok()
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

    #[test]
    fn spans_follow_the_windows_and_mark_the_shared_part() {
        // 10 tokens of 1 byte each, size 4, overlap 1 → [0,4) [3,7) [6,10).
        let offsets: Vec<usize> = (0..=10).collect();
        let ws = fixed_windows(10, 4, 1).expect("size ≥ 1").windows;
        let spans = window_spans(&offsets, &ws);
        assert_eq!(spans.len(), 3);
        assert_eq!((spans[0].overlap_tokens, spans[0].fresh_from), (0, 0));
        assert_eq!((spans[1].window.start, spans[1].window.end), (3, 7));
        assert_eq!(spans[1].overlap_tokens, 1);
        assert_eq!((spans[1].bytes, spans[1].fresh_from), ((3, 7), 4));
        assert_eq!((spans[2].bytes, spans[2].fresh_from), ((6, 10), 7));
        assert_eq!(spans.iter().map(|s| s.index).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn span_overlaps_are_the_measured_ones_in_tokens_and_bytes() {
        // Tokens of 1, 2, 3, … bytes: offsets 0, 1, 3, 6, 10, 15, 21, 28.
        let offsets: Vec<usize> = (0..=7).map(|i| i * (i + 1) / 2).collect();
        let ws = fixed_windows(7, 3, 2).expect("size ≥ 1").windows;
        let spans = window_spans(&offsets, &ws);
        let overlaps: Vec<usize> = spans.iter().map(|s| s.overlap_tokens).collect();
        assert_eq!(overlaps, measured_overlaps(&ws));
        assert_eq!(overlaps, [0, 2, 2, 2, 2]);
        // Window [2,5) shares tokens 2 and 3 with [1,4): fresh from token 4, byte 10.
        assert_eq!((spans[2].bytes, spans[2].fresh_from), ((3, 15), 10));
        // A window that ends inside the one before shares only its own length.
        let nested = [Window { start: 0, end: 6 }, Window { start: 2, end: 4 }];
        let spans = window_spans(&offsets, &nested);
        assert_eq!((spans[1].overlap_tokens, spans[1].fresh_from), (2, 10));
    }

    #[test]
    fn fresh_parts_tile_a_real_tokenized_text_exactly() {
        let text = "猫猫猫 cat 🐈 and Mèo. ".repeat(5);
        let enc = crate::tokenizer::Encoding::Cl100kBase
            .tokenizer()
            .encode(&text);
        let ws = fixed_windows(enc.len(), 7, 3).expect("size ≥ 1").windows;
        let mut rebuilt = Vec::new();
        for s in window_spans(&enc.offsets, &ws) {
            rebuilt.extend_from_slice(&text.as_bytes()[s.fresh_from..s.bytes.1]);
        }
        assert_eq!(rebuilt, text.as_bytes());
    }

    #[test]
    fn owners_change_exactly_where_a_window_starts() {
        let ws = [
            Window { start: 0, end: 3 },
            Window { start: 2, end: 5 },
            Window { start: 5, end: 7 },
        ];
        assert_eq!(token_owners(&ws, 7), [0, 0, 1, 1, 1, 2, 2]);
        assert_eq!(token_owners(&ws, 3), [0, 0, 1]);
        assert!(token_owners(&[], 0).is_empty());
        assert_eq!(token_owners(&[], 2), [0, 0]);
        // Fixed windows of 4 with overlap 2 over 9 tokens start at 0, 2, 4, 6.
        let fixed = fixed_windows(9, 4, 2).expect("size ≥ 1").windows;
        assert_eq!(token_owners(&fixed, 9), [0, 0, 1, 1, 2, 2, 3, 3, 3]);
    }

    #[test]
    fn holders_are_every_window_around_a_token() {
        let ws = fixed_windows(10, 4, 2).expect("size ≥ 1").windows; // [0,4) [2,6) [4,8) [6,10)
        assert_eq!(windows_holding(&ws, 0), [0]);
        assert_eq!(windows_holding(&ws, 3), [0, 1]);
        assert_eq!(windows_holding(&ws, 9), [3]);
        assert!(windows_holding(&ws, 10).is_empty());
        // Agrees with the multiplicity count on every token.
        let m = multiplicity(10, &ws);
        for (i, &c) in m.iter().enumerate() {
            assert_eq!(windows_holding(&ws, i).len(), c as usize, "token {i}");
        }
        let gap = [Window { start: 0, end: 2 }, Window { start: 3, end: 5 }];
        assert!(windows_holding(&gap, 2).is_empty());
    }

    #[test]
    fn the_window_starting_at_a_token_is_found() {
        let ws = fixed_windows(10, 4, 1).expect("size ≥ 1").windows; // starts 0, 3, 6
        let found: Vec<Option<usize>> = (0..8).map(|i| window_starting_at(&ws, i)).collect();
        assert_eq!(
            found,
            [Some(0), None, None, Some(1), None, None, Some(2), None]
        );
        assert_eq!(window_starting_at(&[], 0), None);
    }
}
