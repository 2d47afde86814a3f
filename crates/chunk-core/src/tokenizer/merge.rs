//! Byte-pair merge of one pre-tokenized piece, with tiktoken's exact rule: repeatedly merge the
//! adjacent pair whose concatenation has the lowest rank, the leftmost such pair on ties, until
//! no adjacent pair is a token.
//!
//! Short pieces use tiktoken's vector scan (O(n·m), fast for the common case); long pieces use
//! one bucket of candidate pairs per rank over a linked list of parts (O(n log n)), so that no
//! input is quadratic (edge case E14: a million spaces is one piece).

use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Rank lookup: token bytes → rank.
pub(crate) type Ranks = FxHashMap<&'static [u8], u32>;

/// Pieces at least this long (in bytes) take the long-piece path ([`merge_long`]).
pub(crate) const LONG_PIECE: usize = 128;

/// Most distinct pieces remembered by one [`PieceEncoder`]; past it, new pieces are merged
/// without being remembered (memory stays bounded on any input).
pub(crate) const CACHE_LIMIT: usize = 1 << 16;

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
        let bounds = if piece.len() < LONG_PIECE {
            merge_scan(self.ranks, piece)
        } else {
            merge_long(self.ranks, piece)
        };
        let remember = self.cache.len() < CACHE_LIMIT && piece.len() < LONG_PIECE;
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

/// Appends the tokens of one piece as [`PieceEncoder::encode`] does, without a cache: for the
/// few pieces at a slice's edges that differ from the whole text's (`indexed`).
pub(crate) fn encode_once(
    ranks: &Ranks,
    piece: &[u8],
    base: usize,
    ids: &mut Vec<u32>,
    ends: &mut Vec<usize>,
) {
    if let Some(&rank) = ranks.get(piece) {
        ids.push(rank);
        ends.push(base + piece.len());
        return;
    }
    let bounds = if piece.len() < LONG_PIECE {
        merge_scan(ranks, piece)
    } else {
        merge_long(ranks, piece)
    };
    for pair in bounds.windows(2) {
        let (s, e) = (pair[0], pair[1]);
        ids.push(ranks.get(&piece[s..e]).copied().unwrap_or(u32::MAX));
        ends.push(base + e);
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

/// Longest token of cl100k_base and o200k_base, in bytes: no longer pair can be a token, so it
/// is not looked up.
const MAX_TOKEN_BYTES: usize = 128;

/// No part / no candidate pair.
const NONE: u32 = u32::MAX;

/// Queues a candidate pair: its start goes into the bucket of its rank; a bucket that becomes
/// non-empty is announced on the heap of ranks.
fn enqueue(
    buckets: &mut FxHashMap<u32, Vec<u32>>,
    active: &mut BinaryHeap<Reverse<u32>>,
    rank: u32,
    start: u32,
) {
    let bucket = buckets.entry(rank).or_default();
    if bucket.is_empty() {
        active.push(Reverse(rank));
    }
    bucket.push(start);
}

/// The same merge for long pieces, in O(n log n) with cache-friendly buckets.
///
/// Candidate pairs are kept in one bucket per rank; a small heap holds the ranks that have a
/// bucket. The lowest rank's bucket is sorted by start and worked through in order, which is
/// the scan's order (lowest rank, then leftmost), because a merge never creates a new pair of
/// the same rank (the new pair's bytes are longer than the merged token's). A merge that creates
/// a pair of a *lower* rank interrupts the bucket: its rest goes back, and the lower rank is
/// served first. `pair_rank[s]` is the rank of the pair starting at part `s` now, so stale
/// entries are skipped. Positions are `u32`: pieces are far below 4 GiB (the page's whole
/// text is limited to a few megabytes).
fn merge_long(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
    let n = piece.len();
    let rank_of = |s: u32, e: u32| {
        let (s, e) = (s as usize, e as usize);
        if e - s > MAX_TOKEN_BYTES {
            NONE
        } else {
            ranks.get(&piece[s..e]).copied().unwrap_or(NONE)
        }
    };
    // Linked list of parts, indexed by start byte: end[s] is the part's end, prev[s] the
    // previous part's start (NONE for the first).
    let mut end: Vec<u32> = (1..=n as u32).collect();
    let mut prev: Vec<u32> = (0..n as u32).map(|i| i.wrapping_sub(1)).collect();
    let mut pair_rank = vec![NONE; n];
    let mut buckets: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut active: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
    for i in 0..n as u32 - 1 {
        let r = rank_of(i, i + 2);
        pair_rank[i as usize] = r;
        if r != NONE {
            enqueue(&mut buckets, &mut active, r, i);
        }
    }
    while let Some(Reverse(rank)) = active.pop() {
        let Some(mut starts) = buckets.remove(&rank) else {
            continue; // announced twice; already served
        };
        starts.sort_unstable();
        starts.dedup();
        let mut next = 0;
        let mut lower_rank_queued = false;
        while next < starts.len() && !lower_rank_queued {
            let s = starts[next];
            next += 1;
            if pair_rank[s as usize] != rank {
                continue; // stale: the pair at s changed since it was queued
            }
            // Part s absorbs its right neighbour.
            let right = end[s as usize];
            let new_end = end[right as usize];
            pair_rank[right as usize] = NONE;
            end[s as usize] = new_end;
            let next_rank = if (new_end as usize) < n {
                prev[new_end as usize] = s;
                rank_of(s, end[new_end as usize])
            } else {
                NONE
            };
            pair_rank[s as usize] = next_rank;
            if next_rank != NONE {
                enqueue(&mut buckets, &mut active, next_rank, s);
                lower_rank_queued |= next_rank < rank;
            }
            let p = prev[s as usize];
            if p != NONE {
                let r = rank_of(p, new_end);
                pair_rank[p as usize] = r;
                if r != NONE {
                    enqueue(&mut buckets, &mut active, r, p);
                    lower_rank_queued |= r < rank;
                }
            }
        }
        if next < starts.len() {
            // Interrupted by a lower rank: the rest of this bucket waits its turn again.
            for &s in &starts[next..] {
                enqueue(&mut buckets, &mut active, rank, s);
            }
        }
    }
    let mut bounds = Vec::new();
    let mut s = 0;
    while s < n {
        bounds.push(s);
        s = end[s] as usize;
    }
    bounds.push(n);
    bounds
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy table where the long-piece path and the scan must agree on ties and chains.
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
    fn long_path_and_scan_agree_on_long_pieces_with_real_tables() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let alphabet: &[&[u8]] = &[
            b" ",
            b"  ",
            b"a",
            b"ab",
            b"\xE7\x8C\xAB",
            b"^",
            b"e",
            b"th",
            b"-",
        ];
        for encoding in crate::tokenizer::Encoding::ALL {
            let ranks = encoding.tokenizer().ranks();
            for _ in 0..300 {
                let mut piece = Vec::new();
                while piece.len() < 300 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    piece.extend_from_slice(alphabet[(x % alphabet.len() as u64) as usize]);
                }
                assert_eq!(merge_scan(ranks, &piece), merge_long(ranks, &piece));
            }
        }
    }

    /// A merge may create a pair of a lower rank than the one being served ("ab" then "aba"):
    /// the long-piece path must serve it before the rest of the current rank.
    #[test]
    fn a_lower_rank_created_by_a_merge_is_served_first() {
        let words: &[&'static [u8]] = &[b"a", b"b", b"aba", b"ab"];
        let ranks: Ranks = words
            .iter()
            .enumerate()
            .map(|(i, w)| (*w, i as u32))
            .collect();
        assert_eq!(merge_scan(&ranks, b"abab"), vec![0, 3, 4]);
        assert_eq!(merge_long(&ranks, b"abab"), vec![0, 3, 4]);
    }

    /// Random vocabularies with random rank orders over a three-letter alphabet, random pieces:
    /// the long-piece path equals tiktoken's scan on every one.
    #[test]
    fn long_piece_path_equals_the_scan_on_random_vocabularies() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let words: Vec<&'static [u8]> = {
            let mut all: Vec<Vec<u8>> = Vec::new();
            for len in 2..=4u32 {
                for code in 0..3u32.pow(len) {
                    let mut w = Vec::new();
                    let mut c = code;
                    for _ in 0..len {
                        w.push(b"abc"[(c % 3) as usize]);
                        c /= 3;
                    }
                    all.push(w);
                }
            }
            all.into_iter()
                .map(|w| &*Box::leak(w.into_boxed_slice()))
                .collect()
        };
        for _ in 0..400 {
            // Single letters are always tokens; a random third of the longer strings too, in a
            // random order.
            let mut vocab: Vec<&'static [u8]> =
                words.iter().copied().filter(|_| next(3) == 0).collect();
            for i in (1..vocab.len()).rev() {
                vocab.swap(i, next(i as u64 + 1) as usize);
            }
            let mut ranks: Ranks = [b"a" as &[u8], b"b", b"c"]
                .iter()
                .enumerate()
                .map(|(i, w)| (*w, i as u32))
                .collect();
            for (i, w) in vocab.iter().enumerate() {
                ranks.insert(w, 3 + i as u32);
            }
            let len = 2 + next(60) as usize;
            let piece: Vec<u8> = (0..len).map(|_| b"abc"[next(3) as usize]).collect();
            assert_eq!(
                merge_scan(&ranks, &piece),
                merge_long(&ranks, &piece),
                "{:?}",
                String::from_utf8_lossy(&piece)
            );
        }
    }

    #[test]
    fn long_path_and_scan_agree() {
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
                merge_long(&ranks, input),
                "{input:?}"
            );
        }
        assert_eq!(merge_scan(&ranks, b"aaaaaaa"), vec![0, 4, 6, 7]);
        assert_eq!(merge_long(&ranks, b"abcab"), vec![0, 3, 5]);
    }
}
