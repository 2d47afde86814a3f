//! The chunk-size histogram of one strategy: how many chunks fall in each token-count bin, the
//! embedding model's limit, and the smallest and last chunk (tiny chunks retrieve badly, so the
//! page calls them out).

use crate::strategy::Chunks;
use serde::{Deserialize, Serialize};

/// One bin: chunks of `from..=to` tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bin {
    /// Smallest token count in the bin.
    pub from: usize,
    /// Largest token count in the bin (inclusive).
    pub to: usize,
    /// Chunks whose token count is in `from..=to`.
    pub count: usize,
}

/// A chunk called out by index and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Called {
    /// 0-based chunk index.
    pub index: usize,
    /// Its token count.
    pub tokens: usize,
}

/// The histogram of chunk token counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// Equal-width bins from 0 tokens up to the largest chunk; every chunk is in exactly one.
    /// Empty without chunks. The limit line falls inside them only when a chunk is over it.
    pub bins: Vec<Bin>,
    /// Width of each bin, in tokens (≥ 1).
    pub bin_width: usize,
    /// The largest `count` of any bin (the height of the scale); 0 without chunks.
    pub max_count: usize,
    /// The embedding model's maximum input, in tokens (the limit line).
    pub limit: usize,
    /// Chunks over `limit` (the page draws the limit line only when there are some).
    pub over_limit: usize,
    /// The smallest chunk (the first of the smallest); `None` without chunks.
    pub smallest: Option<Called>,
    /// The last chunk; `None` without chunks.
    pub last: Option<Called>,
    /// Chunks under a quarter of the median chunk's tokens: "tiny" chunks, counted.
    pub tiny: usize,
}

/// The histogram of `chunks` in about `bins` equal-width bins (at least 1) over
/// `0..=largest chunk`; `limit` is the model's maximum input in tokens.
pub fn histogram(chunks: &Chunks, bins: usize, limit: usize) -> Histogram {
    let sizes: Vec<usize> = chunks.chunks.iter().map(|c| c.tokens).collect();
    of_sizes(&sizes, bins, limit)
}

/// [`histogram`] of plain token counts, in chunk order.
pub fn of_sizes(sizes: &[usize], bins: usize, limit: usize) -> Histogram {
    let bins = bins.max(1);
    let Some(&largest) = sizes.iter().max() else {
        return Histogram {
            bins: Vec::new(),
            bin_width: 1,
            max_count: 0,
            limit,
            over_limit: 0,
            smallest: None,
            last: None,
            tiny: 0,
        };
    };
    // The scale reaches the largest chunk; the limit line is drawn inside it only when some
    // chunk is over it (a limit of 8,191 would flatten 512-token chunks into one bar).
    let top = largest;
    let bin_width = (top + 1).div_ceil(bins).max(1);
    let n = (top / bin_width) + 1;
    let mut out: Vec<Bin> = (0..n)
        .map(|i| Bin {
            from: i * bin_width,
            to: (i + 1) * bin_width - 1,
            count: 0,
        })
        .collect();
    for &s in sizes {
        out[s / bin_width].count += 1;
    }
    let smallest = sizes
        .iter()
        .enumerate()
        .min_by_key(|&(i, &t)| (t, i))
        .map(|(index, &tokens)| Called { index, tokens });
    let last = sizes.last().map(|&tokens| Called {
        index: sizes.len() - 1,
        tokens,
    });
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    let median = sorted[(sorted.len() - 1) / 2];
    let tiny = sizes.iter().filter(|&&t| t * 4 < median).count();
    Histogram {
        max_count: out.iter().map(|b| b.count).max().unwrap_or(0),
        bins: out,
        bin_width,
        limit,
        over_limit: sizes.iter().filter(|&&t| t > limit).count(),
        smallest,
        last,
        tiny,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_is_in_one_bin_and_small_ones_are_called_out() {
        let sizes = [512, 510, 498, 512, 7, 300];
        let h = of_sizes(&sizes, 4, 8191);
        // top 512 → width ⌈513 / 4⌉ = 129: bins 0–128, 129–257, 258–386, 387–515.
        assert_eq!(h.bin_width, 129);
        let counts: Vec<usize> = h.bins.iter().map(|b| b.count).collect();
        assert_eq!(counts, [1, 0, 1, 4]);
        assert_eq!((h.bins[3].from, h.bins[3].to), (387, 515));
        assert_eq!(h.max_count, 4);
        assert_eq!(
            h.smallest,
            Some(Called {
                index: 4,
                tokens: 7
            })
        );
        assert_eq!(
            h.last,
            Some(Called {
                index: 5,
                tokens: 300
            })
        );
        // median (lower) of 7, 300, 498, 510, 512, 512 is 498: only 7 is under 124.5.
        assert_eq!(h.tiny, 1);
        assert_eq!((h.limit, h.over_limit), (8191, 0));
        assert_eq!(of_sizes(&sizes, 4, 500).over_limit, 3);
    }

    #[test]
    fn no_chunks_no_bins_and_zero_sized_chunks_fit() {
        let h = of_sizes(&[], 10, 100);
        assert!(h.bins.is_empty() && h.smallest.is_none() && h.last.is_none());
        let h = of_sizes(&[0, 0], 10, 100);
        assert_eq!(h.bins.len(), 1);
        assert_eq!(h.bins[0].count, 2);
        assert_eq!(h.tiny, 0);
    }
}
