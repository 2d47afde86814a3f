//! Sentence packing (SPEC §4): whole sentences per chunk, measured in tokens.
//!
//! - A chunk takes whole sentences while it stays within `chunk_size` tokens; it always takes
//!   at least one, so a sentence longer than `chunk_size` becomes a chunk of its own, flagged
//!   oversize.
//! - The next chunk starts by stepping back over whole sentences whose tokens add up to at most
//!   the overlap, so the real overlap is never more than the requested one; it always starts at
//!   least one sentence after the previous chunk's start, so the loop advances on every input.
//! - A chunk that ends no later than the previous one lies wholly inside it: it adds nothing,
//!   is dropped and is reported (this happens when the stepped-back sentences and the next
//!   sentence together do not fit; the step-back then shrinks one sentence at a time).

use crate::windows::Window;

/// A chunk that sentence packing formed and dropped because it lies wholly inside the chunk
/// before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DroppedChunk {
    /// The dropped token range `[start, end)`.
    pub window: Window,
    /// Index (in the kept chunks) of the chunk that holds it.
    pub inside: usize,
}

/// The result of [`pack_sentences`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Packed {
    /// Kept chunks as token ranges, in order; starts and ends strictly increase.
    pub chunks: Vec<Window>,
    /// Chunks dropped as wholly inside the previous kept chunk, in the order they were formed.
    pub dropped: Vec<DroppedChunk>,
}

/// Packs `sentences` (token ranges that tile `[0, n_tokens)`, e.g. from
/// [`crate::segment::sentences::sentence_tokens`]) into chunks of at most `chunk_size` tokens (or one
/// oversize sentence) with at most `chunk_overlap` tokens of whole-sentence overlap.
///
/// `chunk_size` must be ≥ 1 (the caller, [`super::chunking::chunk`], rejects 0). Runs in
/// O(sentences²) in the worst case; every iteration moves the start one sentence on at least.
pub fn pack_sentences(sentences: &[Window], chunk_size: usize, chunk_overlap: usize) -> Packed {
    let mut out = Packed::default();
    let n = sentences.len();
    let mut first = 0; // index of the chunk's first sentence
    while first < n {
        // Take whole sentences while they fit; always at least one.
        let start = sentences[first].start;
        let mut last = first + 1; // one past the chunk's last sentence
        while last < n && sentences[last].end - start <= chunk_size {
            last += 1;
        }
        let window = Window {
            start,
            end: sentences[last - 1].end,
        };
        match out.chunks.last() {
            Some(prev) if window.end <= prev.end => out.dropped.push(DroppedChunk {
                window,
                inside: out.chunks.len() - 1,
            }),
            _ => out.chunks.push(window),
        }
        if last == n {
            break;
        }
        // Step back over whole sentences that fit in the overlap, but start after `first`.
        let end = sentences[last - 1].end;
        let mut next = last;
        while next - 1 > first && end - sentences[next - 1].start <= chunk_overlap {
            next -= 1;
        }
        first = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sentences of the given token lengths, back to back.
    fn sentences(lengths: &[usize]) -> Vec<Window> {
        let mut at = 0;
        lengths
            .iter()
            .map(|&l| {
                at += l;
                Window {
                    start: at - l,
                    end: at,
                }
            })
            .collect()
    }

    fn ranges(p: &Packed) -> Vec<(usize, usize)> {
        p.chunks.iter().map(|w| (w.start, w.end)).collect()
    }

    #[test]
    fn packs_whole_sentences_and_keeps_an_oversize_one_alone() {
        let p = pack_sentences(&sentences(&[19, 72, 18, 49]), 60, 0);
        assert_eq!(ranges(&p), vec![(0, 19), (19, 91), (91, 109), (109, 158)]);
        assert!(p.dropped.is_empty());
    }

    #[test]
    fn overlap_steps_back_whole_sentences_within_the_request() {
        // 5+5 fits an overlap of 10; the third chunk starts two sentences back.
        let p = pack_sentences(&sentences(&[5, 5, 5, 5, 5, 5]), 15, 10);
        assert_eq!(ranges(&p), vec![(0, 15), (5, 20), (10, 25), (15, 30)]);
        let p = pack_sentences(&sentences(&[5, 5, 5, 5, 5, 5]), 15, 9);
        assert_eq!(ranges(&p), vec![(0, 15), (10, 25), (20, 30)]);
    }

    #[test]
    fn a_chunk_inside_the_previous_one_is_dropped_and_reported() {
        // After [0, 10) the step-back gives sentence 1 ([4, 10)), which cannot take the
        // 8-token sentence 2: [4, 10) lies inside [0, 10) and is dropped; then sentence 2 starts.
        let p = pack_sentences(&sentences(&[4, 6, 8]), 10, 6);
        assert_eq!(ranges(&p), vec![(0, 10), (10, 18)]);
        assert_eq!(
            p.dropped,
            vec![DroppedChunk {
                window: Window { start: 4, end: 10 },
                inside: 0
            }]
        );
    }

    #[test]
    fn always_advances_even_when_overlap_exceeds_size() {
        let p = pack_sentences(&sentences(&[3, 3, 3, 3]), 6, 100);
        assert_eq!(ranges(&p), vec![(0, 6), (3, 9), (6, 12)]);
        let p = pack_sentences(&sentences(&[44]), 10, 5);
        assert_eq!(ranges(&p), vec![(0, 44)]);
        assert!(pack_sentences(&[], 10, 0).chunks.is_empty());
    }
}
