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
//!   case E14: a million spaces is one piece); a long piece that is one byte repeated is merged
//!   on its parts grouped by length instead ([`merge_run`]), in a few steps per doubling, and
//!   one that is a unit of two to four bytes repeated (`'猫'`×n, `"\r\n"`×n) from the unit's
//!   own merge when no merge can cross between two copies but whole ones ([`merge_unit_run`]).
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

/// Counts the tokens of pieces one at a time, in buffers kept from piece to piece (as
/// [`PieceEncoder`] keeps them): for [`indexed`](super::indexed)'s counts of pieces met outside
/// a prepared document's shared tokens, where a fresh buffer per piece was a quarter of the
/// cost (measured on the bench's mixed megabyte, LangChain's markdown splitter).
#[derive(Default)]
pub(crate) struct PieceCounter {
    /// The merge's output for the piece at hand.
    parts: Vec<(u32, u32)>,
    /// The heap path's buffers.
    scratch: Scratch,
}

impl PieceCounter {
    /// Tokens of one split piece that is not a token itself (the caller looked it up): the
    /// length of [`encode_once`]'s output for it.
    pub(crate) fn count_merged(&mut self, ranks: &Ranks, piece: &[u8]) -> usize {
        self.parts.clear();
        merge(ranks, piece, &mut self.parts, &mut self.scratch);
        self.parts.len()
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
        if unit_period(piece).is_some_and(|k| merge_unit_run(ranks, piece, k, out)) {
            return;
        }
        // Not in `scratch`: it would keep a long piece's buffers (16 bytes a byte) for good.
        merge_long(ranks, piece, out, &mut Scratch::default())
    }
}

/// The length of the shortest unit of 1 to 4 bytes that `piece` repeats (two times or more),
/// if it is one: a run of one byte (line breaks only, a table rule), `'猫'`×n, `"\r\n"`×n. The
/// comparison of the piece with itself shifted stops at the first difference, so a piece that
/// is not such a run costs a few bytes' reads.
pub(crate) fn unit_period(piece: &[u8]) -> Option<usize> {
    (1..=4).find(|&k| {
        piece.len() >= 2 * k
            && piece.len().is_multiple_of(k)
            && piece[k..] == piece[..piece.len() - k]
    })
}

/// The merge of `piece`, a unit of `k` bytes (1 to 4) repeated, appended to `out` as [`merge`]
/// gives it, from the unit's own merge; `false` (nothing appended) when the conditions below do
/// not hold, or [`merge_run`] gives up. (A unit of one byte has no merge of its own: its run is
/// [`merge_run`]'s, or the byte repeated when two of it are not a token.)
///
/// The unit `u` is merged alone, and every partition it passes through is kept. If no pair made
/// of the last part of one of them and the first part of another (the two sides of the border
/// between two copies of `u`, each at any point of its own merge) is a token, no merge ever
/// crosses a border: each copy merges as `u` alone, whatever the order the copies are served
/// in, and the piece's tokens are `u`'s, repeated. The one pair allowed across is `u`+`u`
/// itself, when `u` is one token `t` and that pair ranks above every merge inside `u`: then
/// every copy is `t` before any two copies meet (a copy not yet merged always offers a pair
/// ranked below), and from there the piece is `t`×n, whose merge is [`merge_run`]'s on units.
/// Tested equal to the long-piece path on both tables' characters of two and three bytes,
/// `\r\n` and emoji, and to tiktoken's scan on random tables.
fn merge_unit_run(ranks: &Ranks, piece: &[u8], k: usize, out: &mut Vec<(u32, u32)>) -> bool {
    let unit = &piece[..k];
    let n = piece.len() / k;
    let rank = |a: &[u8]| ranks.get(a).unwrap_or(NONE);
    // The unit's merge alone (tiktoken's rule on at most four parts), each partition kept as
    // part ends, and the highest rank it merges with (none for a unit that does not merge).
    let mut ends: Vec<usize> = (1..=k).collect();
    let mut states = vec![ends.clone()];
    let mut inside: Option<u32> = None;
    loop {
        let pair = |i: usize| rank(&unit[if i == 0 { 0 } else { ends[i - 1] }..ends[i + 1]]);
        let Some((r, i)) = (0..ends.len() - 1)
            .map(|i| (pair(i), i))
            .filter(|&(r, _)| r != NONE)
            .min()
        else {
            break;
        };
        inside = inside.max(Some(r));
        ends.remove(i);
        states.push(ends.clone());
    }
    // The unit's tokens (a byte that is not one cannot be emitted: never with these tables).
    let parts: Vec<(u32, u32)> = ends
        .iter()
        .scan(0, |start, &e| {
            let part = (rank(&unit[*start..e]), e as u32);
            *start = e;
            Some(part)
        })
        .collect();
    if parts.iter().any(|&(id, _)| id == NONE) {
        return false;
    }
    let whole = ends.len() == 1;
    let mut across = [0u8; 8];
    for (a, left) in states.iter().enumerate() {
        for (b, right) in states.iter().enumerate() {
            let last = left.len().checked_sub(2).map_or(0, |i| left[i]);
            let first = right[0];
            let len = (k - last) + first;
            across[..k - last].copy_from_slice(&unit[last..]);
            across[k - last..len].copy_from_slice(&unit[..first]);
            let r = rank(&across[..len]);
            let both_whole = whole && a == states.len() - 1 && b == states.len() - 1;
            if r != NONE && !(both_whole && inside.is_none_or(|m| r > m)) {
                return false;
            }
        }
    }
    if whole && rank(&piece[..2 * k]) != NONE {
        // `u`+`u` is a token ranked above the merges inside `u`: runs of `t`.
        return merge_run(ranks, unit, n, out);
    }
    // No merge crosses a border: `u`'s tokens, repeated.
    for copy in 0..n {
        let base = (copy * k) as u32;
        out.extend(parts.iter().map(|&(id, e)| (id, base + e)));
    }
    true
}

/// Most steps [`merge_run`] takes before it leaves the piece to [`merge_long`]: far more than
/// the real tables need (a few per doubling of the run's length), a bound on any table.
const RUN_STEPS: usize = 4096;

/// The merge of `unit`×`n` (n ≥ 2), appended to `out` as [`merge`] gives it, done on the run's
/// parts grouped by length (in units); `false` (nothing appended) when it would take more than
/// [`RUN_STEPS`] steps, or when `unit` alone is not a token (never with these tables for a
/// byte). Called from [`merge_unit_run`]: `unit` is one byte, or a token of several bytes whose
/// copies are all merged before any two of them meet, which makes the piece `unit`×`n` in
/// tokens, as a byte run is at the start.
///
/// A run of one byte is the worst case of every chunker that counts slices of a long piece
/// (line breaks only, a table rule, edge case E14): the slices are new lengths chunk after
/// chunk, and each was merged anew in O(n log n). Here the parts are kept as groups `(length,
/// count)` of equal neighbours; the rank of two neighbouring parts depends only on the sum of
/// their lengths. Each step takes the lowest-ranked pair, leftmost on ties, as tiktoken's rule
/// does: inside a group, its first two parts; between two groups, the last part of the first
/// and the first of the second. A group's parts are then merged two by two in one step (`h`×`c`
/// becomes `2h`×`c/2`, plus `h` when `c` is odd) when that is what merging them one at a time
/// would do: when no pair made on the way (`h+h` with the part before, `2h+2h`, `2h+h`) ranks
/// below theirs (each new pair's length differs from `2h`, so none ties with them). Otherwise
/// the step merges that one pair, and the rule goes on. (From the one group a run starts as,
/// the part before a group that merges was made by pairs ranked below, so the first condition
/// has not been seen to decide; it is kept because the one-at-a-time argument needs it.)
/// Tested equal to the other paths on every run of both tables' bytes and on random tables.
fn merge_run(ranks: &Ranks, unit: &[u8], n: usize, out: &mut Vec<(u32, u32)>) -> bool {
    // rank[k]: the rank of `unit`×k, for k up to the longest token (or n).
    let width = unit.len().max(1);
    let longest = n.min(MAX_TOKEN_BYTES / width);
    let run: Vec<u8> = unit.repeat(longest);
    let table: Vec<u32> = (0..=longest)
        .map(|k| match k {
            0 => NONE,
            k => ranks.get(&run[..k * width]).unwrap_or(NONE),
        })
        .collect();
    let rank = |k: usize| table.get(k).copied().unwrap_or(NONE);
    if rank(1) == NONE {
        return false; // not reached with these tables: every byte is a token
    }
    // The parts, as groups (length, count) in order; neighbouring groups differ in length.
    let mut groups: Vec<(usize, usize)> = vec![(1, n)];
    let mut steps = 0;
    loop {
        steps += 1;
        if steps > RUN_STEPS {
            return false;
        }
        // (rank, position of the pair's first part, group, inside the group)
        let mut best: Option<(u32, usize, usize, bool)> = None;
        let mut at = 0;
        for (i, &(h, c)) in groups.iter().enumerate() {
            let mut offer = |r: u32, pos: usize, inside: bool| {
                if r != NONE && best.is_none_or(|(br, bp, ..)| (r, pos) < (br, bp)) {
                    best = Some((r, pos, i, inside));
                }
            };
            if c >= 2 {
                offer(rank(2 * h), at, true);
            }
            if let Some(&(next, _)) = groups.get(i + 1) {
                offer(rank(h + next), at + c - 1, false);
            }
            at += c;
        }
        let Some((rho, _, i, inside)) = best else {
            break;
        };
        let (h, c) = groups[i];
        let mut with: Vec<(usize, usize)> = Vec::with_capacity(3);
        if inside {
            // Ranks above `rho` (or no token): such a pair waits until the group is done.
            let later = |k: usize| rank(k) > rho;
            let pairwise = (i == 0 || later(groups[i - 1].0 + 2 * h))
                && (c < 3 || later(3 * h))
                && (c < 4 || later(4 * h));
            if pairwise {
                with.push((2 * h, c / 2));
                with.push((h, c % 2));
            } else {
                with.push((2 * h, 1));
                with.push((h, c - 2));
            }
            groups.splice(i..=i, with);
        } else {
            let (next, d) = groups[i + 1];
            with.extend([(h, c - 1), (h + next, 1), (next, d - 1)]);
            groups.splice(i..=i + 1, with);
        }
        // Empty groups out, equal neighbours joined.
        groups.retain(|&(_, c)| c > 0);
        groups.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
    }
    let mut end = 0u32;
    for (h, c) in groups {
        for _ in 0..c {
            end += (h * width) as u32;
            out.push((rank(h), end));
        }
    }
    true
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

    /// A xorshift generator from `seed`: each call steps it and returns the state modulo `m`.
    fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed;
        move |m| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        }
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
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
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
                    piece.extend_from_slice(alphabet[next(alphabet.len() as u64) as usize]);
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

    fn run(ranks: &Ranks, piece: &[u8]) -> Option<Vec<usize>> {
        let mut done = true;
        let b = bounds(
            &mut |r, p, o| done = merge_run(r, &p[..1], p.len(), o),
            ranks,
            piece,
        );
        done.then_some(b)
    }

    /// Every byte's runs in both tables, of every length from 2 to 300 and some long ones: the
    /// grouped path gives what the long-piece path gives (and the scan, up to 128 bytes).
    #[test]
    fn runs_of_one_byte_merge_as_the_other_paths_in_both_tables() {
        for encoding in crate::tokenizer::Encoding::ALL {
            let ranks = encoding.tokenizer().ranks();
            for byte in 0..=255u8 {
                // Bytes with no run token of two are merged by no step: a few lengths suffice.
                let lengths: Vec<usize> = if ranks.get(&[byte, byte]).is_some() {
                    (2..=300).chain([511, 1000, 4097]).collect()
                } else {
                    vec![2, 3, 200]
                };
                for n in lengths {
                    let piece = vec![byte; n];
                    let want = long(ranks, &piece);
                    assert_eq!(
                        run(ranks, &piece).as_ref(),
                        Some(&want),
                        "{encoding} {byte} x{n}"
                    );
                    if n < LONG_PIECE {
                        assert_eq!(scan(ranks, &piece), want);
                    }
                }
            }
            // The cases of the bench and the tests: the run path (within its steps) and
            // `merge`, which takes it, give the long path's tokens.
            for (byte, n) in [
                (b' ', 1_000_000),
                (b'\n', 262_144),
                (b'a', 100_000),
                (b'^', 65_537),
            ] {
                let piece = vec![byte; n];
                let mut by_long = Vec::new();
                merge_long(ranks, &piece, &mut by_long, &mut Scratch::default());
                let mut by_run = Vec::new();
                assert!(
                    merge_run(ranks, &[byte], n, &mut by_run),
                    "{encoding} {byte} x{n}"
                );
                assert_eq!(by_run, by_long, "{encoding} {byte} x{n}");
                let mut by_merge = Vec::new();
                merge(ranks, &piece, &mut by_merge, &mut Scratch::default());
                assert_eq!(by_merge, by_long, "{encoding} {byte} x{n}");
            }
        }
    }

    /// Random tables of runs of one letter, the lengths' ranks in random order (so that a pair
    /// made inside a group may rank below the group's, and the step falls back to one pair):
    /// the grouped path equals tiktoken's scan on every run.
    #[test]
    fn runs_merge_as_the_scan_on_random_tables() {
        let mut next = xorshift(0xD1B5_4A32_D192_ED03);
        const WORDS: [&[u8]; 12] = [
            b"aa",
            b"aaa",
            b"aaaa",
            b"aaaaa",
            b"aaaaaa",
            b"aaaaaaa",
            b"aaaaaaaa",
            b"aaaaaaaaa",
            b"aaaaaaaaaa",
            b"aaaaaaaaaaa",
            b"aaaaaaaaaaaa",
            b"aaaaaaaaaaaaaaaa",
        ];
        for _ in 0..3000 {
            let mut vocab: Vec<&'static [u8]> =
                WORDS.iter().copied().filter(|_| next(2) == 0).collect();
            for i in (1..vocab.len()).rev() {
                vocab.swap(i, next(i as u64 + 1) as usize);
            }
            let mut ranks: Ranks = [(b"a" as &'static [u8], 0)].into_iter().collect();
            for (i, w) in vocab.iter().enumerate() {
                ranks.insert(w, 1 + i as u32);
            }
            let piece = vec![b'a'; 2 + next(400) as usize];
            assert_eq!(
                run(&ranks, &piece),
                Some(scan(&ranks, &piece)),
                "{} with {vocab:?}",
                piece.len()
            );
        }
    }

    /// The tokens of `unit`×`n` by [`merge_unit_run`], `None` when it declines.
    fn unit_run(ranks: &Ranks, unit: &[u8], n: usize) -> Option<Vec<(u32, u32)>> {
        let mut out = Vec::new();
        merge_unit_run(ranks, &unit.repeat(n), unit.len(), &mut out).then_some(out)
    }

    /// Counts a run the unit path took by its way: `u`+`u` a token (its copies grouped, as
    /// [`merge_run`] does) or not (`u`'s tokens repeated).
    fn tally(ranks: &Ranks, unit: &[u8], repeated: &mut usize, grouped: &mut usize) {
        if ranks.get(&unit.repeat(2)).is_some() {
            *grouped += 1;
        } else {
            *repeated += 1;
        }
    }

    /// Characters of two, three and four bytes and `\r\n`, repeated, in both tables: where the
    /// unit path takes a run, it gives the long-piece path's tokens; it takes the bench's
    /// worst cases (`猫` in both, `\r\n` in cl100k_base), by both of its ways.
    #[test]
    fn runs_of_one_character_merge_as_the_long_path_in_both_tables() {
        let mut units: Vec<Vec<u8>> = (0x80..0x800u32)
            .chain((0x800..0x1_0000).step_by(97))
            .chain((0x1_0000..0x2_0000).step_by(1009))
            .filter_map(char::from_u32)
            .map(|c| c.to_string().into_bytes())
            .collect();
        units.extend(
            [
                &b"\r\n"[..],
                "猫".as_bytes(),
                "—".as_bytes(),
                "…".as_bytes(),
            ]
            .map(<[u8]>::to_vec),
        );
        for encoding in crate::tokenizer::Encoding::ALL {
            let ranks = encoding.tokenizer().ranks();
            let (mut repeated, mut grouped) = (0, 0);
            for unit in &units {
                for n in [2, 3, 5, 43, 64, 130] {
                    let piece = unit.repeat(n);
                    let Some(got) = unit_run(ranks, unit, n) else {
                        continue;
                    };
                    let mut want = Vec::new();
                    merge_long(ranks, &piece, &mut want, &mut Scratch::default());
                    assert_eq!(
                        got,
                        want,
                        "{encoding} {:?} x{n}",
                        String::from_utf8_lossy(unit)
                    );
                    tally(ranks, unit, &mut repeated, &mut grouped);
                }
            }
            assert!(
                repeated > 5000 && grouped > 10,
                "{encoding}: {repeated} repeated, {grouped} grouped"
            );
            // The worst cases of the bench, through `merge`.
            let taken: &[&str] = match encoding {
                crate::tokenizer::Encoding::Cl100kBase => &["猫", "\r\n", "—"],
                crate::tokenizer::Encoding::O200kBase => &["猫", "é", "—"],
            };
            for u in taken {
                let piece = u.repeat(20_000);
                assert!(
                    unit_run(ranks, u.as_bytes(), piece.len() / u.len()).is_some(),
                    "{encoding} {u:?}"
                );
                let (mut by_merge, mut by_long) = (Vec::new(), Vec::new());
                merge(
                    ranks,
                    piece.as_bytes(),
                    &mut by_merge,
                    &mut Scratch::default(),
                );
                merge_long(
                    ranks,
                    piece.as_bytes(),
                    &mut by_long,
                    &mut Scratch::default(),
                );
                assert_eq!(by_merge, by_long, "{encoding} {u:?}");
            }
        }
    }

    /// Random tables over three letters: a unit of two to four letters (of no shorter period)
    /// repeated, the vocabulary random pieces of the run in a random rank order after the
    /// letters. Where the unit path takes the run, it equals tiktoken's scan; it takes runs by
    /// both of its ways.
    #[test]
    fn runs_of_a_unit_merge_as_the_scan_on_random_tables() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let (mut repeated, mut grouped) = (0, 0);
        for _ in 0..4000 {
            let k = 2 + next(3) as usize;
            let unit: Vec<u8> = (0..k).map(|_| b"abc"[next(3) as usize]).collect();
            if unit_period(&unit.repeat(2)) != Some(k) {
                continue; // the unit repeats a shorter one
            }
            let long = unit.repeat(6);
            let mut vocab: Vec<&'static [u8]> = Vec::new();
            for _ in 0..next(12) {
                let start = next(long.len() as u64 - 1) as usize;
                let len = 2 + next((long.len() - start - 1) as u64) as usize;
                let word = long[start..(start + len).min(long.len())].to_vec();
                if word.len() >= 2 && !vocab.contains(&word.as_slice()) {
                    vocab.push(Box::leak(word.into_boxed_slice()));
                }
            }
            let mut ranks: Ranks = [(b"a" as &'static [u8], 0), (b"b", 1), (b"c", 2)]
                .into_iter()
                .collect();
            for (i, w) in vocab.iter().enumerate() {
                ranks.insert(w, 3 + i as u32);
            }
            let n = 2 + next(40) as usize;
            let piece = unit.repeat(n);
            if let Some(got) = unit_run(&ranks, &unit, n) {
                let bounds: Vec<usize> = std::iter::once(0)
                    .chain(got.iter().map(|&(_, e)| e as usize))
                    .collect();
                assert_eq!(
                    bounds,
                    scan(&ranks, &piece),
                    "{:?} x{n} with {vocab:?}",
                    String::from_utf8_lossy(&unit)
                );
                tally(&ranks, &unit, &mut repeated, &mut grouped);
            }
        }
        assert!(
            repeated > 200 && grouped > 20,
            "{repeated} repeated, {grouped} grouped"
        );
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
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
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
