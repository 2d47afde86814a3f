//! Byte-pair merge of one pre-tokenized piece, with tiktoken's exact rule: repeatedly merge the
//! adjacent pair whose concatenation has the lowest rank, the leftmost such pair on ties, until
//! no adjacent pair is a token.
//!
//! Short pieces use tiktoken's vector scan (O(n·m), fast for the common case); long pieces use a
//! binary heap with lazy invalidation over a linked list of parts (O(n log n)), so that no input
//! is quadratic (edge case E14: a million spaces is one piece).

use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Rank lookup: token bytes → rank.
pub(crate) type Ranks = FxHashMap<&'static [u8], u32>;

/// Pieces at least this long (in bytes) take the heap path.
const HEAP_THRESHOLD: usize = 128;

/// Most distinct pieces remembered by one [`PieceEncoder`]; past it, new pieces are merged
/// without being remembered (memory stays bounded on any input).
const CACHE_LIMIT: usize = 1 << 16;

/// Encodes pieces of one text, remembering the merge of each piece that is not a token itself:
/// in real text the same words recur (Zipf's law), and a hit costs one hash lookup.
pub(crate) struct PieceEncoder<'r, 't> {
    ranks: &'r Ranks,
    /// piece → range in `store`.
    cache: FxHashMap<&'t [u8], (u32, u32)>,
    /// `(id, end relative to the piece start)` of cached pieces' tokens.
    store: Vec<(u32, u32)>,
}

impl<'r, 't> PieceEncoder<'r, 't> {
    pub(crate) fn new(ranks: &'r Ranks) -> Self {
        PieceEncoder {
            ranks,
            cache: FxHashMap::default(),
            store: Vec::new(),
        }
    }

    /// Appends the token ids of `piece` to `ids`, and for each token its end offset (the piece
    /// starts at byte `base`) to `ends`.
    ///
    /// Every single byte is a token in cl100k_base and o200k_base, so the merge always ends in
    /// tokens; a byte that is not (impossible for these tables) is reported as rank `u32::MAX`.
    pub(crate) fn encode(
        &mut self,
        piece: &'t [u8],
        base: usize,
        ids: &mut Vec<u32>,
        ends: &mut Vec<usize>,
    ) {
        if let Some(&rank) = self.ranks.get(piece) {
            ids.push(rank);
            ends.push(base + piece.len());
            return;
        }
        if let Some(&(from, to)) = self.cache.get(piece) {
            for &(id, end) in &self.store[from as usize..to as usize] {
                ids.push(id);
                ends.push(base + end as usize);
            }
            return;
        }
        let bounds = if piece.len() < HEAP_THRESHOLD {
            merge_scan(self.ranks, piece)
        } else {
            merge_heap(self.ranks, piece)
        };
        let remember = self.cache.len() < CACHE_LIMIT && piece.len() < HEAP_THRESHOLD;
        let from = self.store.len() as u32;
        for pair in bounds.windows(2) {
            let (s, e) = (pair[0], pair[1]);
            let id = self.ranks.get(&piece[s..e]).copied().unwrap_or(u32::MAX);
            ids.push(id);
            ends.push(base + e);
            if remember {
                self.store.push((id, e as u32));
            }
        }
        if remember {
            self.cache.insert(piece, (from, self.store.len() as u32));
        }
    }
}

/// tiktoken's `_byte_pair_merge`: returns the part boundaries (first 0, last `piece.len()`).
fn merge_scan(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
    // parts[i] = (start of part i, rank of merging part i with part i+1)
    let rank_of = |s: usize, e: usize| ranks.get(&piece[s..e]).copied().unwrap_or(u32::MAX);
    let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
    for i in 0..piece.len() - 1 {
        parts.push((i, rank_of(i, i + 2)));
    }
    parts.push((piece.len() - 1, u32::MAX));
    parts.push((piece.len(), u32::MAX));
    loop {
        let mut min = (u32::MAX, 0usize);
        for (i, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
            if r < min.0 {
                min = (r, i);
            }
        }
        if min.0 == u32::MAX {
            break;
        }
        let i = min.1;
        // Part i absorbs part i+1; the ranks of (i−1, i) and (i, i+2) change.
        let merged_rank = |parts: &Vec<(usize, u32)>, j: usize| {
            if j + 3 < parts.len() {
                rank_of(parts[j].0, parts[j + 3].0)
            } else {
                u32::MAX
            }
        };
        if i > 0 {
            parts[i - 1].1 = merged_rank(&parts, i - 1);
        }
        parts[i].1 = merged_rank(&parts, i);
        parts.remove(i + 1);
    }
    parts.into_iter().map(|(s, _)| s).collect()
}

/// The same merge with a min-heap keyed by (rank, start byte): the heap's minimum is exactly the
/// lowest-ranked, leftmost valid pair that the scan would pick. Stale entries are skipped.
fn merge_heap(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
    let n = piece.len();
    let rank_of = |s: usize, e: usize| ranks.get(&piece[s..e]).copied();
    // Linked list of parts, indexed by start byte: end[s] is the part's end (0 = removed),
    // prev[s] the previous part's start.
    let mut end: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    let mut heap: BinaryHeap<Reverse<(u32, usize, usize)>> = BinaryHeap::with_capacity(n);
    for i in 0..n - 1 {
        if let Some(r) = rank_of(i, i + 2) {
            heap.push(Reverse((r, i, i + 2)));
        }
    }
    while let Some(Reverse((_rank, s, pair_end))) = heap.pop() {
        // Valid only if part s is alive and its right neighbour still ends at pair_end.
        if !alive[s] {
            continue;
        }
        let right = end[s];
        if right >= n || end[right] != pair_end || !alive[right] {
            continue;
        }
        alive[right] = false;
        end[s] = pair_end;
        if pair_end < n {
            prev[pair_end] = s;
            if let Some(r) = rank_of(s, end[pair_end]) {
                heap.push(Reverse((r, s, end[pair_end])));
            }
        }
        let p = prev[s];
        if p != usize::MAX {
            if let Some(r) = rank_of(p, pair_end) {
                heap.push(Reverse((r, p, pair_end)));
            }
        }
    }
    let mut bounds = Vec::new();
    let mut s = 0;
    while s < n {
        bounds.push(s);
        s = end[s];
    }
    bounds.push(n);
    bounds
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy table where the heap and the scan must agree on ties and chains.
    fn toy() -> Ranks {
        let words: &[&'static [u8]] = &[
            b"a", b"b", b"c", b"ab", b"bc", b"abc", b"aa", b"aaaa", b"ca",
        ];
        words
            .iter()
            .enumerate()
            .map(|(i, w)| (*w, i as u32))
            .collect()
    }

    #[test]
    fn heap_and_scan_agree() {
        let ranks = toy();
        let inputs: &[&[u8]] = &[
            b"abc",
            b"aaaaaaa",
            b"abcabcab",
            b"cabca",
            b"aaabbbccc",
            b"a",
        ];
        for &input in inputs {
            if input.len() < 2 {
                continue;
            }
            assert_eq!(
                merge_scan(&ranks, input),
                merge_heap(&ranks, input),
                "{input:?}"
            );
        }
        assert_eq!(merge_scan(&ranks, b"aaaaaaa"), vec![0, 4, 6, 7]);
        assert_eq!(merge_heap(&ranks, b"abcab"), vec![0, 3, 5]);
    }
}
