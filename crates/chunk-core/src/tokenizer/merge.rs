//! Byte-pair merge of one pre-tokenized piece, with tiktoken's exact rule: repeatedly merge the
//! adjacent pair whose concatenation has the lowest rank, the leftmost such pair on ties, until
//! no adjacent pair is a token.
//!
//! Three paths, equal in result (tested against each other), chosen by the piece's length:
//! - short pieces (under [`SCAN_PIECE`] bytes, most of them): tiktoken's scan for the lowest
//!   pair (O(n·m)), in arrays on the stack;
//! - medium pieces (a run of CJK, a long word): a binary heap of candidate pairs (O(n log n));
//!   the scan spent most of its time searching for the lowest pair there;
//! - long pieces ([`LONG_PIECE`] bytes or more): one bucket of candidate pairs per rank over a
//!   linked list of parts (O(n log n), cache-friendly), so that no input is quadratic (edge
//!   case E14: a million spaces is one piece).
//!
//! Each path returns every token's id with its end: a part's id is the rank of the pair that
//! made it, so the final tokens are not looked up again.

pub(crate) use super::ranks::Ranks;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pieces at least this long (in bytes) take the long-piece path ([`merge_long`]).
pub(crate) const LONG_PIECE: usize = 128;

/// Pieces shorter than this (in bytes) are merged by the scan ([`merge_scan`]), longer ones
/// below [`LONG_PIECE`] by the heap ([`merge_heap`]). Measured on the bench corpus (instructions
/// counted by cachegrind, both encodings): 12 → 523.7 M, 20 → 520.6 M, 32 → 526.7 M; with no
/// heap path (the scan up to 128 bytes), 563.1 M.
const SCAN_PIECE: usize = 20;

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
    /// The merge's output for the piece at hand (kept to spare an allocation per piece).
    parts: Vec<(u32, u32)>,
    /// The heap and bucket paths' buffers, kept from piece to piece.
    scratch: Scratch,
}

impl<'r, 't> PieceEncoder<'r, 't> {
    /// An encoder with an empty cache, over `ranks`.
    pub(crate) fn new(ranks: &'r Ranks) -> Self {
        PieceEncoder {
            ranks,
            cache: FxHashMap::default(),
            store: Vec::new(),
            parts: Vec::new(),
            scratch: Scratch::default(),
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
        if let Some(rank) = self.ranks.get(piece) {
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
        self.parts.clear();
        merge(self.ranks, piece, &mut self.parts, &mut self.scratch);
        let remember = self.cache.len() < CACHE_LIMIT && piece.len() < LONG_PIECE;
        let from = self.store.len() as u32;
        for &(id, e) in &self.parts {
            ids.push(id);
            ends.push(base + e as usize);
        }
        if remember {
            self.store.extend_from_slice(&self.parts);
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
    if let Some(rank) = ranks.get(piece) {
        ids.push(rank);
        ends.push(base + piece.len());
        return;
    }
    let mut parts = Vec::new();
    merge(ranks, piece, &mut parts, &mut Scratch::default());
    for (id, e) in parts {
        ids.push(id);
        ends.push(base + e as usize);
    }
}

/// The merge of one piece that is not a token itself: appends
/// `(id, end relative to the piece start)` of each of its tokens to `out`, by the scan, the
/// heap or the bucket path according to its length (see the module's documentation), the heap
/// path in `scratch`'s buffers.
fn merge(ranks: &Ranks, piece: &[u8], out: &mut Vec<(u32, u32)>, scratch: &mut Scratch) {
    if piece.len() < 2 {
        // Not reached from the scanner (its pieces are not empty, and every byte is a token);
        // kept total for any caller.
        out.extend(piece.first().map(|&b| (ranks.byte(b), 1)));
    } else if piece.len() < SCAN_PIECE {
        merge_scan(ranks, piece, out)
    } else if piece.len() < LONG_PIECE {
        merge_heap(ranks, piece, out, scratch)
    } else {
        // Not in `scratch`: it would keep a long piece's buffers (16 bytes a byte) for good.
        merge_long(ranks, piece, out, &mut Scratch::default())
    }
}

/// The buffers of [`Parts`] and of the heap path's queue, kept by a [`PieceEncoder`] from piece
/// to piece: a medium piece otherwise costs five allocations (measured: 4 % of the encode's
/// instructions on the bench's mixed megabyte).
///
/// Each buffer keeps the capacity of the longest piece it held; the bucket path (pieces of
/// [`LONG_PIECE`] bytes or more, a million spaces) merges in buffers of its own, so what a
/// `PieceEncoder` keeps is bounded by the heap path's pieces (under [`LONG_PIECE`] bytes): four
/// `u32` buffers of one entry a byte and a queue of at most three entries a byte (the first
/// pairs, then at most two a merge), each at most twice that in capacity: under 10 KB.
#[derive(Default)]
struct Scratch {
    /// [`Parts::end`]'s buffer.
    end: Vec<u32>,
    /// [`Parts::prev`]'s buffer.
    prev: Vec<u32>,
    /// [`Parts::id`]'s buffer.
    id: Vec<u32>,
    /// [`Parts::pair`]'s buffer.
    pair: Vec<u32>,
    /// The heap path's queue of candidate pairs `(rank, start)`.
    heap: Vec<Reverse<(u32, u32)>>,
}

/// `buffer`, taken out of its place and filled with `items`.
#[inline(always)]
fn refill(buffer: &mut Vec<u32>, items: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut v = std::mem::take(buffer);
    v.clear();
    v.extend(items);
    v
}

/// The parts of one piece as a linked list indexed by start byte, for the heap and bucket
/// paths, which differ only in how they queue candidate pairs.
struct Parts<'a> {
    ranks: &'a Ranks,
    piece: &'a [u8],
    /// `end[s]`: the end of the part starting at `s`.
    end: Vec<u32>,
    /// `prev[s]`: the start of the part before the one at `s` (`NONE` for the first).
    prev: Vec<u32>,
    /// `id[s]`: the token id of the part at `s` (the rank of the pair that made it).
    id: Vec<u32>,
    /// `pair[s]`: the rank of the part at `s` joined with the next (`NONE` if not a token,
    /// if there is no next part, or if `s` is no longer a part's start).
    pair: Vec<u32>,
}

impl<'a> Parts<'a> {
    /// One part per byte of `piece` (at least two bytes), in `scratch`'s buffers (given back
    /// by [`Parts::emit`]); every adjacent pair that is a token is handed to `queue` as
    /// `(rank, start)`, in order of start.
    fn new(
        ranks: &'a Ranks,
        piece: &'a [u8],
        scratch: &mut Scratch,
        mut queue: impl FnMut(u32, u32),
    ) -> Self {
        let n = piece.len() as u32;
        let mut parts = Parts {
            ranks,
            piece,
            end: refill(&mut scratch.end, 1..=n),
            prev: refill(&mut scratch.prev, (0..n).map(|i| i.wrapping_sub(1))),
            id: refill(&mut scratch.id, piece.iter().map(|&b| ranks.byte(b))),
            pair: refill(&mut scratch.pair, std::iter::repeat_n(NONE, n as usize)),
        };
        for i in 0..n - 1 {
            let r = parts.rank_of(i, i + 2);
            parts.pair[i as usize] = r;
            if r != NONE {
                queue(r, i);
            }
        }
        parts
    }

    /// The rank of `piece[s..e]`, `NONE` if it is not a token (longer than any token, or not
    /// in the table).
    fn rank_of(&self, s: u32, e: u32) -> u32 {
        let (s, e) = (s as usize, e as usize);
        if e - s > MAX_TOKEN_BYTES {
            NONE
        } else {
            self.ranks.get(&self.piece[s..e]).unwrap_or(NONE)
        }
    }

    /// Whether a queued `(rank, s)` is still the pair at `s`. A pair's rank names its bytes,
    /// so an entry whose rank still matches is the current pair; any other is stale.
    fn is_current(&self, rank: u32, s: u32) -> bool {
        self.pair[s as usize] == rank
    }

    /// The part at `s` absorbs its right neighbour (their pair, of rank `rank`, is current);
    /// the pairs this creates on either side that are tokens go to `queue` as `(rank, start)`.
    fn absorb(&mut self, s: u32, rank: u32, mut queue: impl FnMut(u32, u32)) {
        let su = s as usize;
        let right = self.end[su] as usize;
        let new_end = self.end[right];
        self.pair[right] = NONE;
        self.end[su] = new_end;
        self.id[su] = rank;
        let next = if (new_end as usize) < self.piece.len() {
            self.prev[new_end as usize] = s;
            self.rank_of(s, self.end[new_end as usize])
        } else {
            NONE
        };
        self.pair[su] = next;
        if next != NONE {
            queue(next, s);
        }
        let p = self.prev[su];
        if p != NONE {
            let r = self.rank_of(p, new_end);
            self.pair[p as usize] = r;
            if r != NONE {
                queue(r, p);
            }
        }
    }

    /// Appends `(id, end)` of every part, in order, to `out`, and gives the buffers back to
    /// `scratch`.
    fn emit(self, out: &mut Vec<(u32, u32)>, scratch: &mut Scratch) {
        let mut s = 0;
        while s < self.piece.len() {
            out.push((self.id[s], self.end[s]));
            s = self.end[s] as usize;
        }
        scratch.end = self.end;
        scratch.prev = self.prev;
        scratch.id = self.id;
        scratch.pair = self.pair;
    }
}

/// The merge with a binary heap of candidate pairs `(rank, start)`, for medium pieces, where
/// the scan's search for the lowest pair over every part (O(n) per merge) dominates.
///
/// The heap pops the lowest rank, the leftmost on ties: the scan's choice. Stale entries
/// ([`Parts::is_current`]) are skipped.
fn merge_heap(ranks: &Ranks, piece: &[u8], out: &mut Vec<(u32, u32)>, scratch: &mut Scratch) {
    let mut initial = std::mem::take(&mut scratch.heap);
    initial.clear();
    let mut parts = Parts::new(ranks, piece, scratch, |r, s| initial.push(Reverse((r, s))));
    let mut heap = BinaryHeap::from(initial);
    while let Some(Reverse((rank, s))) = heap.pop() {
        if parts.is_current(rank, s) {
            parts.absorb(s, rank, |r, p| heap.push(Reverse((r, p))));
        }
    }
    parts.emit(out, scratch);
    scratch.heap = heap.into_vec();
}

/// tiktoken's `_byte_pair_merge` for pieces shorter than [`SCAN_PIECE`] (the tests also run it
/// on longer ones): appends `(id, end)` of the piece's tokens to `out`.
///
/// The parts' starts and ids and the ranks of adjacent pairs are kept in arrays of their own on
/// the stack (no allocation per piece), so the search for the lowest rank (leftmost on ties) is
/// a scan over contiguous `u32`s, and a part's id is the rank that made it (no lookup of the
/// final tokens).
fn merge_scan(ranks: &Ranks, piece: &[u8], out: &mut Vec<(u32, u32)>) {
    let n = piece.len();
    if n < SCAN_PIECE {
        let mut starts = [0u32; SCAN_PIECE + 1];
        let mut id = [NONE; SCAN_PIECE];
        let mut pair = [NONE; SCAN_PIECE];
        scan_in(ranks, piece, &mut starts, &mut id, &mut pair, out);
    } else {
        // Only the tests scan longer pieces (against the heap and bucket paths).
        let (mut starts, mut id, mut pair) = (vec![0; n + 1], vec![NONE; n], vec![NONE; n]);
        scan_in(ranks, piece, &mut starts, &mut id, &mut pair, out);
    }
}

/// [`merge_scan`] in the arrays it is given: `starts` at least `piece.len() + 1` long, `id` and
/// `pair` at least `piece.len()`.
/// `starts[i]`: start of part `i`, then one more entry, the piece's end; `id[i]`: token id of
/// part `i`; `pair[i]`: rank of part `i` joined with part `i + 1`.
#[inline(always)]
fn scan_in(
    ranks: &Ranks,
    piece: &[u8],
    starts: &mut [u32],
    id: &mut [u32],
    pair: &mut [u32],
    out: &mut Vec<(u32, u32)>,
) {
    let n = piece.len();
    for i in 0..n {
        starts[i] = i as u32;
        id[i] = ranks.byte(piece[i]);
    }
    let rank_of = |s: u32, e: u32| ranks.get(&piece[s as usize..e as usize]).unwrap_or(NONE);
    starts[n] = n as u32;
    for (i, p) in pair[..n - 1].iter_mut().enumerate() {
        *p = rank_of(i as u32, i as u32 + 2);
    }
    let mut parts = n;
    loop {
        let pairs = &pair[..parts - 1];
        let min = pairs.iter().copied().fold(NONE, u32::min);
        if min == NONE {
            break;
        }
        let i = pairs.iter().position(|&r| r == min).unwrap_or(0);
        // Part i absorbs part i + 1; the pairs on either side of it change.
        // One pass over the three arrays (a few entries: three `copy_within` calls cost more).
        for k in i + 1..parts - 1 {
            starts[k] = starts[k + 1];
            id[k] = id[k + 1];
            pair[k - 1] = pair[k];
        }
        starts[parts - 1] = starts[parts];
        id[i] = min;
        parts -= 1;
        if i + 1 < parts {
            pair[i] = rank_of(starts[i], starts[i + 2]);
        }
        if i > 0 {
            pair[i - 1] = rank_of(starts[i - 1], starts[i + 1]);
        }
    }
    out.extend((0..parts).map(|i| (id[i], starts[i + 1])));
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
/// served first. Stale entries ([`Parts::is_current`]) are skipped. Positions are `u32`: pieces
/// are far below 4 GiB (the page's whole text is limited to a few megabytes).
fn merge_long(ranks: &Ranks, piece: &[u8], out: &mut Vec<(u32, u32)>, scratch: &mut Scratch) {
    let mut buckets: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut active: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
    let mut parts = Parts::new(ranks, piece, scratch, |r, s| {
        enqueue(&mut buckets, &mut active, r, s)
    });
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
            if !parts.is_current(rank, s) {
                continue; // stale: the pair at s changed since it was queued
            }
            parts.absorb(s, rank, |r, p| {
                enqueue(&mut buckets, &mut active, r, p);
                lower_rank_queued |= r < rank;
            });
        }
        if next < starts.len() {
            // Interrupted by a lower rank: the rest of this bucket waits its turn again.
            for &s in &starts[next..] {
                enqueue(&mut buckets, &mut active, rank, s);
            }
        }
    }
    parts.emit(out, scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of the merge paths.
    type Merge<'m> = &'m mut dyn FnMut(&Ranks, &[u8], &mut Vec<(u32, u32)>);

    /// The part boundaries (first 0, last the piece's length) of one merge of `piece`,
    /// checking on the way that each part's id is the rank of its bytes.
    fn bounds(merge: Merge, ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
        let mut out = Vec::new();
        merge(ranks, piece, &mut out);
        let mut bounds = vec![0];
        for (id, end) in out {
            let start = *bounds.last().unwrap();
            let part = &piece[start..end as usize];
            assert_eq!(ranks.get(part).unwrap_or(NONE), id, "{part:?}");
            bounds.push(end as usize);
        }
        bounds
    }

    fn scan(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
        bounds(&mut merge_scan, ranks, piece)
    }

    fn long(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
        bounds(
            &mut |r, p, o| merge_long(r, p, o, &mut Scratch::default()),
            ranks,
            piece,
        )
    }

    fn heap(ranks: &Ranks, piece: &[u8]) -> Vec<usize> {
        bounds(
            &mut |r, p, o| merge_heap(r, p, o, &mut Scratch::default()),
            ranks,
            piece,
        )
    }

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
    fn the_three_paths_agree_on_pieces_of_every_length_with_real_tables() {
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
        // One set of buffers for every piece of every length, as a `PieceEncoder` reuses them.
        let mut shared = Scratch::default();
        for encoding in crate::tokenizer::Encoding::ALL {
            let ranks = encoding.tokenizer().ranks();
            for case in 0..600 {
                // Every length from 2 to 301 bytes, twice: each side of each path's threshold.
                let len = 2 + case % 300;
                let mut piece = Vec::new();
                while piece.len() < len {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    piece.extend_from_slice(alphabet[(x % alphabet.len() as u64) as usize]);
                }
                piece.truncate(len);
                let by_scan = scan(ranks, &piece);
                assert_eq!(by_scan, long(ranks, &piece));
                assert_eq!(by_scan, heap(ranks, &piece));
                let reusing = &mut |r: &Ranks, p: &[u8], o: &mut Vec<(u32, u32)>| {
                    if case % 2 == 0 {
                        merge_heap(r, p, o, &mut shared)
                    } else {
                        merge_long(r, p, o, &mut shared)
                    }
                };
                assert_eq!(by_scan, bounds(reusing, ranks, &piece), "{len} bytes");
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
        assert_eq!(scan(&ranks, b"abab"), vec![0, 3, 4]);
        assert_eq!(long(&ranks, b"abab"), vec![0, 3, 4]);
        assert_eq!(heap(&ranks, b"abab"), vec![0, 3, 4]);
    }

    /// Random vocabularies with random rank orders over a three-letter alphabet, random pieces:
    /// the heap and bucket paths equal tiktoken's scan on every one.
    #[test]
    fn long_piece_and_heap_paths_equal_the_scan_on_random_vocabularies() {
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
            let by_scan = scan(&ranks, &piece);
            let text = String::from_utf8_lossy(&piece);
            assert_eq!(by_scan, long(&ranks, &piece), "{text:?}");
            assert_eq!(by_scan, heap(&ranks, &piece), "{text:?}");
        }
    }

    #[test]
    fn empty_and_one_byte_pieces_are_total() {
        let ranks = toy();
        let mut out = Vec::new();
        merge(&ranks, b"", &mut out, &mut Scratch::default());
        assert!(out.is_empty());
        merge(&ranks, b"c", &mut out, &mut Scratch::default());
        assert_eq!(out, vec![(2, 1)]);
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
            assert_eq!(scan(&ranks, input), long(&ranks, input), "{input:?}");
            assert_eq!(scan(&ranks, input), heap(&ranks, input), "{input:?}");
        }
        assert_eq!(scan(&ranks, b"aaaaaaa"), vec![0, 4, 6, 7]);
        assert_eq!(long(&ranks, b"abcab"), vec![0, 3, 5]);
    }
}
