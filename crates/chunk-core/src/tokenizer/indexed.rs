//! One text tokenized once, so that the tokens of any slice of it cost only its edges.
//!
//! A slice's tokens are the BPE merges of the pieces the split step cuts the slice into. Far
//! from the slice's end, those pieces are the whole text's own pieces: the split step reads
//! forward only, so from a position where both the slice and the text start a piece, both cut
//! the same piece as long as everything the step reads to find that piece's end lies inside
//! the slice ([`pretokenize::piece_reach`] bounds it). So a slice's tokens are: its own pieces
//! from its start until one starts where a text piece starts (usually the first or second),
//! then the text's tokens for every text piece whose reach is inside the slice, then its own
//! pieces again from the first piece that reaches past its end (and re-synchronised the same
//! way when possible). A piece equal in bytes to a text piece takes that piece's tokens. Only
//! the own pieces are merged; the result is exactly `Bpe::encode` of the slice
//! (property-tested in `tests/tokenizer_slices.rs` and below).
//!
//! [`Active`] makes an index the one that [`super::Bpe::count`], [`super::Bpe::encode`] and
//! [`super::SliceCounter::count_at_most`] consult, for the current thread, while it lives: any
//! text they are given that lies inside the indexed text's memory (a `&str` slice of it, as the
//! strategies measure) is counted this way; any other text, the usual way.

use super::merge::{self, Ranks};
use super::pretokenize::{self, Pattern};
use super::{Bpe, Encoded};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;

/// Pieces per block of [`TokenIndex::block_max`].
const BLOCK: usize = 64;

/// The tokens of one text with its split-step pieces; see the module documentation.
#[derive(Debug)]
pub(crate) struct TokenIndex {
    split: Pattern,
    /// `Bpe::encode` of the whole text.
    encoded: Encoded,
    /// Byte start of every piece, then the text's length (one more entry than pieces).
    starts: Vec<usize>,
    /// Tokens before each piece, then the total (the same length as `starts`).
    before: Vec<usize>,
    /// For each piece: the bound of [`pretokenize::piece_reach`] (a slice that starts at the
    /// piece and ends at or after it cuts the piece the same).
    reach: Vec<usize>,
    /// The largest `reach` of each [`BLOCK`] consecutive pieces.
    block_max: Vec<usize>,
}

impl TokenIndex {
    /// Tokenizes `text` with `bpe` (one pass: split, merge with the piece cache, reach).
    pub(crate) fn new(bpe: &Bpe, text: &str) -> Self {
        let mut encoded = Encoded {
            ids: Vec::with_capacity(text.len() / 3),
            offsets: vec![0],
        };
        let (mut starts, mut before, mut reach) = (Vec::new(), Vec::new(), Vec::new());
        let mut encoder = merge::PieceEncoder::new(&bpe.ranks);
        for (s, e) in pretokenize::pieces(bpe.split, text, 0) {
            starts.push(s);
            before.push(encoded.ids.len());
            reach.push(pretokenize::piece_reach(bpe.split, text, s, e));
            encoder.encode(
                &text.as_bytes()[s..e],
                s,
                &mut encoded.ids,
                &mut encoded.offsets,
            );
        }
        starts.push(text.len());
        before.push(encoded.ids.len());
        let block_max = reach
            .chunks(BLOCK)
            .map(|b| b.iter().copied().max().unwrap_or(0))
            .collect();
        TokenIndex {
            split: bpe.split,
            encoded,
            starts,
            before,
            reach,
            block_max,
        }
    }

    /// The whole text's tokens.
    pub(crate) fn encoded(&self) -> &Encoded {
        &self.encoded
    }

    /// The text's length in bytes.
    fn text_len(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// The first piece `j ≥ k` whose reach is past `b` (the number of pieces if none, which
    /// happens only when `b` is the text's end).
    fn first_reaching_past(&self, k: usize, b: usize) -> usize {
        let n = self.reach.len();
        let mut j = k;
        let block_end = ((k / BLOCK + 1) * BLOCK).min(n);
        while j < block_end {
            if self.reach[j] > b {
                return j;
            }
            j += 1;
        }
        let mut block = j / BLOCK;
        while block < self.block_max.len() && self.block_max[block] <= b {
            block += 1;
        }
        j = j.max(block * BLOCK);
        while j < n {
            if self.reach[j] > b {
                return j;
            }
            j += 1;
        }
        n
    }

    /// Walks the pieces of `slice`, which is the text's bytes `[at, at + slice.len())`, in
    /// order: [`Step::Shared`] for runs of the text's pieces that are the slice's pieces too,
    /// [`Step::Own`] for the slice's other pieces.
    fn walk(&self, slice: &str, at: usize, mut step: impl FnMut(Step)) {
        let b = at + slice.len();
        debug_assert!(b <= self.text_len());
        let n = self.reach.len();
        let mut k = self.starts.partition_point(|&s| s < at);
        let mut pos = 0;
        while pos < slice.len() {
            let abs = at + pos;
            while k < n && self.starts[k] < abs {
                k += 1;
            }
            let synced = k < n && self.starts[k] == abs;
            if synced {
                let j = self.first_reaching_past(k, b);
                if j > k {
                    step(Step::Shared(k, j));
                    k = j;
                    pos = self.starts[j] - at;
                    continue;
                }
            }
            let e = pretokenize::next_piece_end(self.split, slice, pos);
            if synced && self.starts[k + 1] == at + e {
                step(Step::Shared(k, k + 1)); // the same bytes: the same tokens
            } else {
                step(Step::Own(pos, e));
            }
            pos = e;
        }
    }

    /// Tokens of `slice`, the text's bytes from `at`: `Bpe::count(slice)`.
    pub(crate) fn count(&self, ranks: &Ranks, slice: &str, at: usize) -> usize {
        let mut n = 0;
        PIECE_COUNTS.with(|counts| {
            let mut counts = counts.borrow_mut();
            self.walk(slice, at, |step| match step {
                Step::Shared(k, j) => n += self.before[j] - self.before[k],
                Step::Own(s, e) => n += counts.count(self.split, ranks, &slice.as_bytes()[s..e]),
            });
        });
        n
    }

    /// `Bpe::encode(slice)` for `slice`, the text's bytes from `at`.
    pub(crate) fn encode(&self, ranks: &Ranks, slice: &str, at: usize) -> Encoded {
        let mut out = Encoded {
            ids: Vec::new(),
            offsets: vec![0],
        };
        self.walk(slice, at, |step| match step {
            Step::Shared(k, j) => {
                let (t0, t1) = (self.before[k], self.before[j]);
                out.ids.extend_from_slice(&self.encoded.ids[t0..t1]);
                out.offsets
                    .extend(self.encoded.offsets[t0 + 1..=t1].iter().map(|&o| o - at));
            }
            Step::Own(s, e) => merge::encode_once(
                ranks,
                &slice.as_bytes()[s..e],
                s,
                &mut out.ids,
                &mut out.offsets,
            ),
        });
        out
    }
}

/// Token counts of pieces met outside the shared tokens (a slice's edges, texts that are not
/// slices of the document, such as a chunk with its lines rewritten), kept while any index is
/// current on the thread: in real text the same words recur, and a hit is one lookup instead of
/// a merge. Bounded like the merge's own cache ([`merge::CACHE_LIMIT`] pieces), and long pieces
/// ([`merge::LONG_PIECE`] bytes or more) to [`LONG_PIECE_BYTES`] bytes in all; cleared when the
/// outermost [`Active`] ends. The counts are of one encoding at a time (`split`): asked for
/// another, it starts afresh.
///
/// Long pieces are kept because a chunker cuts a long run (a `'猫'` run, `\r\n` repeated, edge
/// case E14) into slices of the same few lengths again and again: each chunk's candidate ends
/// inside the run are the same bytes as the previous chunk's, and their merge is O(n log n) in
/// the slice's length where a lookup is one pass over its bytes. A run of one byte (line breaks
/// only, a `|` table rule) is not kept: its merge takes a few steps ([`merge::unit_period`] 1).
#[derive(Default)]
struct PieceCounts {
    split: Option<Pattern>,
    counts: FxHashMap<Box<[u8]>, usize>,
    /// Bytes of the long pieces in `counts`.
    long_bytes: usize,
    /// The merge of the pieces not in `counts`.
    counter: merge::PieceCounter,
}

/// Most bytes of long pieces (of [`merge::LONG_PIECE`] bytes or more) a [`PieceCounts`] keeps:
/// 16 MiB, more than the slices a chunker counts inside the runs of a text of several megabytes
/// (the page's largest), and a bound on what one thread holds whatever the text.
const LONG_PIECE_BYTES: usize = 16 << 20;

impl PieceCounts {
    /// Tokens of one split piece in the encoding of `split` and `ranks`.
    fn count(&mut self, split: Pattern, ranks: &Ranks, piece: &[u8]) -> usize {
        if self.split != Some(split) {
            self.counts.clear();
            self.long_bytes = 0;
            self.split = Some(split);
        }
        if ranks.contains_key(piece) {
            return 1;
        }
        let long = piece.len() >= merge::LONG_PIECE;
        if long && merge::unit_period(piece) == Some(1) {
            // One byte repeated: merged in a few steps (`merge::merge_run`), cheaper than
            // hashing and keeping its kilobytes.
            return self.counter.count_merged(ranks, piece);
        }
        if let Some(&n) = self.counts.get(piece) {
            return n;
        }
        let n = self.counter.count_merged(ranks, piece);
        if self.counts.len() < merge::CACHE_LIMIT
            && (!long || self.long_bytes + piece.len() <= LONG_PIECE_BYTES)
        {
            self.counts.insert(piece.into(), n);
            if long {
                self.long_bytes += piece.len();
            }
        }
        n
    }
}

thread_local! {
    static PIECE_COUNTS: RefCell<PieceCounts> = RefCell::new(PieceCounts::default());
}

/// The split pattern (the encoding) of the index current on this thread, if one is.
fn current_split() -> Option<Pattern> {
    CURRENT.with(|c| c.borrow().as_ref().map(|c| c.index.split))
}

/// Tokens of `text` when an index of `split`'s encoding is current on this thread (with the
/// shared piece counts of [`PieceCounts`]); `None` when none is.
pub(crate) fn count_with_current_cache(split: Pattern, ranks: &Ranks, text: &str) -> Option<usize> {
    (current_split() == Some(split)).then(|| {
        PIECE_COUNTS.with(|counts| {
            let mut counts = counts.borrow_mut();
            pretokenize::pieces(split, text, 0)
                .map(|(s, e)| counts.count(split, ranks, &text.as_bytes()[s..e]))
                .sum()
        })
    })
}

/// Tokens of one split piece of `split`'s encoding (its merge, no split step): through the
/// shared [`PieceCounts`] while an index of that encoding is current on this thread, else merged
/// once in buffers of its own (the rare case: [`Bpe::count_with_tail`]'s callers count on a
/// prepared document).
pub(crate) fn count_piece(split: Pattern, ranks: &Ranks, piece: &[u8]) -> usize {
    if current_split() == Some(split) {
        return PIECE_COUNTS.with(|counts| counts.borrow_mut().count(split, ranks, piece));
    }
    if ranks.contains_key(piece) {
        return 1;
    }
    merge::PieceCounter::default().count_merged(ranks, piece)
}

/// One step of [`TokenIndex::walk`].
enum Step {
    /// The text's pieces `[k, j)` (indices) are the slice's next pieces.
    Shared(usize, usize),
    /// The slice's next piece is its bytes `[start, end)`, not a text piece.
    Own(usize, usize),
}

/// The index the current thread's tokenizer calls consult: its text's address and length.
struct Current {
    address: usize,
    len: usize,
    index: Arc<TokenIndex>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// While it lives, `index` (of `text`) is the one this thread's [`Bpe`] calls consult for texts
/// inside `text` (see the module documentation); dropping it restores the previous one.
pub(crate) struct Active<'t> {
    previous: Option<Current>,
    _text: PhantomData<&'t str>,
}

impl<'t> Active<'t> {
    /// Makes `index`, built from `text`, the current one.
    pub(crate) fn new(index: &Arc<TokenIndex>, text: &'t str) -> Self {
        debug_assert_eq!(index.text_len(), text.len());
        let now = Current {
            address: text.as_ptr() as usize,
            len: text.len(),
            index: Arc::clone(index),
        };
        Active {
            previous: CURRENT.with(|c| c.replace(Some(now))),
            _text: PhantomData,
        }
    }
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        let previous = self.previous.take();
        if previous.is_none() {
            PIECE_COUNTS.with(|c| *c.borrow_mut() = PieceCounts::default());
        }
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// `f(index, at)` when `slice` lies inside the current index's text (at byte `at`) and the
/// index is of `split`'s encoding; `None` otherwise.
pub(crate) fn with_current<R>(
    split: Pattern,
    slice: &str,
    f: impl FnOnce(&TokenIndex, usize) -> R,
) -> Option<R> {
    CURRENT.with(|c| {
        let c = c.borrow();
        let c = c.as_ref()?;
        let at = (slice.as_ptr() as usize).wrapping_sub(c.address);
        (c.index.split == split && at <= c.len && slice.len() <= c.len - at)
            .then(|| f(&c.index, at))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Encoding;
    use proptest::prelude::*;

    /// Fragments of every shape the split step treats apart: scripts and letter cases (o200k's
    /// upper/lower runs), marks, digits of several scripts, contractions in both cases and
    /// `ſ`, apostrophes alone, whitespace runs with and without line breaks, CR, CRLF, non-ASCII
    /// spaces, punctuation runs with line breaks and `/`, emoji sequences, special-token strings.
    const FRAGMENTS: &[&str] = &[
        "Hello",
        " world",
        "a",
        "A",
        "ABC",
        "ABCdef",
        "abcDEF",
        " x",
        "  x",
        " ",
        "  ",
        "   ",
        "\t",
        "\n",
        "\n\n",
        "\r",
        "\r\n",
        "\r\n\r\n",
        " \n ",
        "   \n  \n ",
        "\u{a0}",
        "\u{2003}",
        "\u{3000}",
        "\u{85}",
        "don't",
        "'s",
        "'S",
        "'ll",
        "'LL",
        "'ve",
        "'Re",
        "'d",
        "'m",
        "'t",
        "'",
        "''",
        "ſ",
        "'ſ",
        "123",
        "4567",
        "1",
        "١٢٣",
        "Ⅻ",
        "½",
        "Привет",
        "ПРИВЕТ",
        "мир",
        "Zażółć",
        "GĘŚLĄ",
        "Tiếng Việt",
        "ĐẠI",
        "日本語",
        "漢字",
        "カタカナ",
        "ｶﾀｶﾅ",
        "中文，",
        "。",
        "😀",
        "👨\u{200d}👩\u{200d}👧",
        "🇵🇱",
        "e\u{301}",
        "\u{301}",
        "ǅ",
        "ʰ",
        "ß",
        "É",
        "…",
        "!!",
        "?",
        ".",
        ",",
        "/",
        "//",
        "/\n",
        "!\r\n",
        "fn main() {",
        "x+=1;",
        "}",
        "->",
        "<|endoftext|>",
        "#",
        "## ",
        "- ",
        "* ",
        "\"",
        "(",
        "[x]",
        "\u{feff}",
        "\u{200b}",
        "\u{7f}",
        "\0",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                8 => prop::sample::select(FRAGMENTS).prop_map(str::to_owned),
                1 => (1usize..40, prop::sample::select(&[" ", "\n", "\t", "\r\n", "\u{3000}"][..]))
                    .prop_map(|(n, w)| w.repeat(n)),
                1 => "\\PC{0,6}",
            ],
            0..60,
        )
        .prop_map(|v| v.concat())
    }

    fn boundaries(t: &str) -> Vec<usize> {
        (0..=t.len()).filter(|&i| t.is_char_boundary(i)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The reach bound: a prefix of the text ending at or after a piece's bound cuts that
        /// piece exactly as the whole text does.
        #[test]
        fn a_prefix_past_the_reach_cuts_the_same_piece(t in text(), pick in any::<u64>()) {
            let cuts = boundaries(&t);
            for pattern in [Pattern::Cl100k, Pattern::O200k] {
                for (s, e) in pretokenize::pieces(pattern, &t, 0).collect::<Vec<_>>() {
                    let r = pretokenize::piece_reach(pattern, &t, s, e);
                    prop_assert!(r >= e && r <= t.len());
                    let from = cuts.partition_point(|&b| b < r);
                    let later = &cuts[from..];
                    // Every boundary within 8 bytes of the bound, and one further at random.
                    let near = later.iter().take_while(|&&b| b < r + 8);
                    let far = later.get((pick as usize) % later.len().max(1));
                    for &b in near.chain(far) {
                        prop_assert_eq!(
                            pretokenize::next_piece_end(pattern, &t[..b], s),
                            e,
                            "{:?} piece at {} cut at {} (reach {})", pattern, s, b, r
                        );
                    }
                }
            }
        }

        /// Every slice's tokens from the index are its own encode, ids and offsets.
        #[test]
        fn slices_encode_and_count_as_alone(t in text(), cuts in prop::collection::vec((any::<u64>(), any::<u64>()), 12)) {
            let points = boundaries(&t);
            for encoding in Encoding::ALL {
                let bpe = encoding.tokenizer();
                let index = TokenIndex::new(bpe, &t);
                prop_assert_eq!(index.encoded(), &bpe.encode(&t));
                let mut ranges: Vec<(usize, usize)> = cuts
                    .iter()
                    .map(|&(x, y)| {
                        let a = points[(x as usize) % points.len()];
                        let b = points[(y as usize) % points.len()];
                        (a.min(b), a.max(b))
                    })
                    .collect();
                ranges.push((0, t.len()));
                for (a, b) in ranges {
                    let slice = &t[a..b];
                    let alone = bpe.encode(slice);
                    prop_assert_eq!(index.count(bpe.ranks(), slice, a), alone.len(), "{:?} {}..{}", encoding, a, b);
                    prop_assert_eq!(index.encode(bpe.ranks(), slice, a), alone.clone());
                    // Through the tokenizer while the index is current: the same numbers.
                    let active = Active::new(&Arc::new(TokenIndex::new(bpe, &t)), &t);
                    prop_assert_eq!(bpe.count(slice), alone.len());
                    // A copy is not inside the text: counted with the shared piece counts.
                    let copy = slice.to_owned();
                    prop_assert_eq!(bpe.count(&copy), alone.len());
                    prop_assert_eq!(bpe.counter().count_at_most(&copy, usize::MAX), Some(alone.len()));
                    prop_assert_eq!(bpe.encode(slice), alone);
                    drop(active);
                }
            }
        }

        /// A text whose bytes from some offset on are a slice of the current document (a
        /// rewritten line whose tail is the document's) counts as the text alone: with the
        /// index current, without it, and with its head made of other bytes than the
        /// document's (a join inserted before the slice).
        #[test]
        fn a_tail_from_the_document_counts_as_the_whole_text(
            t in text(),
            head in text(),
            x in any::<u64>(),
            y in any::<u64>(),
        ) {
            let points = boundaries(&t);
            let (a, b) = {
                let a = points[(x as usize) % points.len()];
                let b = points[(y as usize) % points.len()];
                (a.min(b), a.max(b))
            };
            for encoding in Encoding::ALL {
                let bpe = encoding.tokenizer();
                // The head is a prefix of the document's bytes or other bytes entirely.
                for joined in [t[..b].to_owned(), format!("{head}{}", &t[a..b])] {
                    let from = joined.len() - (b - a);
                    let alone = bpe.encode(&joined).len();
                    prop_assert_eq!(bpe.count_with_tail(&joined, from, &t[a..b]), alone);
                    let active = Active::new(&Arc::new(TokenIndex::new(bpe, &t)), &t);
                    prop_assert_eq!(
                        bpe.count_with_tail(&joined, from, &t[a..b]),
                        alone,
                        "{:?} {:?} from {}", encoding, joined, from
                    );
                    drop(active);
                }
            }
        }
    }

    /// Slices inside long runs of one character (each one long piece), counted twice with the
    /// index current: the first pass remembers the long pieces, the second counts from them;
    /// both equal a count without any index. Runs of one byte are merged in a few steps and
    /// not kept.
    #[test]
    fn long_pieces_are_remembered_and_count_as_alone() {
        for (unit, n) in [("\n", 6_000), ("\r\n", 3_000), ("|", 6_000), ("猫", 2_000)] {
            let t = unit.repeat(n);
            let ends: Vec<usize> = (130..t.len())
                .step_by(397)
                .filter(|&b| t.is_char_boundary(b))
                .collect();
            for encoding in Encoding::ALL {
                let bpe = encoding.tokenizer();
                let alone: Vec<usize> = ends.iter().map(|&b| bpe.count(&t[..b])).collect();
                let index = Arc::new(TokenIndex::new(bpe, &t));
                let _active = Active::new(&index, &t);
                // Each slice is one long piece of its own: after the first pass every one is
                // kept (a run of one byte: none), and the second pass, served from them, adds
                // none.
                let all: usize = if unit.len() == 1 {
                    0
                } else {
                    ends.iter().sum()
                };
                for pass in 0..2 {
                    let counted: Vec<usize> = ends.iter().map(|&b| bpe.count(&t[..b])).collect();
                    assert_eq!(counted, alone, "{unit:?} {encoding}, pass {pass}");
                    let kept = PIECE_COUNTS.with(|c| c.borrow().long_bytes);
                    assert_eq!(kept, all, "{unit:?} {encoding}, pass {pass}");
                }
            }
        }
    }

    /// Long runs (a reach far past the piece) and a slice inside one run.
    #[test]
    fn long_whitespace_and_capital_runs() {
        let t = format!(
            "word{}x{}end 漢字{}abc",
            " \n".repeat(300),
            " ".repeat(500),
            "ÉTÉ".repeat(200)
        );
        for encoding in Encoding::ALL {
            let bpe = encoding.tokenizer();
            let index = TokenIndex::new(bpe, &t);
            for (a, b) in [
                (0, t.len()),
                (1, 300),
                (5, 600),
                (600, 1200),
                (3, t.len() - 2),
            ] {
                let (a, b) = (a.min(t.len()), b.min(t.len()));
                let (a, b) = (
                    (a..).find(|&i| t.is_char_boundary(i)).unwrap_or(a),
                    (b..).find(|&i| t.is_char_boundary(i)).unwrap_or(b),
                );
                assert_eq!(index.encode(bpe.ranks(), &t[a..b], a), bpe.encode(&t[a..b]));
            }
        }
    }
}
