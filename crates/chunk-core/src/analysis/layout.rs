//! Where a strategy's chunks lie in the document, measured from their byte ranges rather than
//! from the nominal overlap (as ChunkViz shows them): the start each chunk shares with the one
//! before it ([`shared_prefix_bytes`]), and the document cut into spans by the chunks that
//! cover each byte ([`document_spans`]), for the page's whole-document view.
//!
//! A chunk's byte range is where its text comes from; for a strategy that rewrites its text
//! ([`crate::strategy::Chunk::text`] is `Some`: stripped markdown lines, decoded token windows)
//! the range still says which part of the document it covers.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::strategy::Chunk;

/// The most document bytes [`document_spans`] lays out for the page: the whole-document view
/// shows this much (128 KiB: a long article or a book chapter, a few hundred usual chunks; a
/// longer document is shown from its start, and says so).
pub const LAYOUT_BYTES: usize = 128 * 1024;

/// For each of `chunks` (in document order), how many bytes at its start the chunk before it
/// also covers: `min(previous.end, end) − start` when the previous chunk starts at or before
/// it and reaches into it, else 0 (always for the first; for a chunk starting before the one
/// before it, what they share is not its start). Measured, not nominal: a splitter that
/// overlaps only whole paragraphs may share nothing at an overlap of 200.
pub fn shared_prefix_bytes(chunks: &[Chunk]) -> Vec<usize> {
    let mut out = Vec::with_capacity(chunks.len());
    let mut previous: Option<&Range<usize>> = None;
    for c in chunks {
        let b = &c.bytes;
        let shared = match previous {
            Some(p) if p.start <= b.start => p.end.min(b.end).saturating_sub(b.start),
            _ => 0,
        };
        out.push(shared);
        previous = Some(b);
    }
    out
}

/// One stretch of the document covered by the same chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocSpan {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The first (lowest-index) chunk covering it; `None` when no chunk does (whitespace a
    /// splitter trimmed, a heading line kept as metadata, …).
    pub chunk: Option<usize>,
    /// How many chunks cover it: 0, 1, or 2 and more where chunks overlap.
    pub covers: usize,
}

/// The first `upto` bytes of `text` (down to a character boundary) cut into maximal spans, each
/// covered by the same set of `chunks` (byte ranges, in any order; ranges past the text are
/// cut at its end). Spans are in order, non-empty, and tile `0..end` exactly, `end` being
/// `upto.min(text.len())` moved back to a character boundary; a span never starts inside a
/// character when the chunks' ranges do not (a range may: a token window can cut a
/// character, and the page shows such a span's bytes as they are). Cost: O(n log n) in the
/// number of chunks.
pub fn document_spans(chunks: &[Chunk], text: &str, upto: usize) -> Vec<DocSpan> {
    let len = text.len();
    let mut end = upto.min(len);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // (offset, +1 start of chunk i / -1 end of chunk i)
    let mut events: Vec<(usize, bool, usize)> = Vec::with_capacity(chunks.len() * 2);
    for (i, c) in chunks.iter().enumerate() {
        let (s, e) = (c.bytes.start.min(len), c.bytes.end.min(len));
        if s < e && s < end {
            events.push((s, true, i));
            events.push((e, false, i));
        }
    }
    // Ends before starts at one offset: a chunk ending where the next starts shares nothing.
    events.sort_unstable_by_key(|&(at, starts, i)| (at, starts, i));
    let mut active = std::collections::BTreeSet::new();
    let mut spans = Vec::new();
    let mut at = 0;
    let mut push = |from: usize, to: usize, active: &std::collections::BTreeSet<usize>| {
        if from < to {
            spans.push(DocSpan {
                start: from,
                end: to,
                chunk: active.first().copied(),
                covers: active.len(),
            });
        }
    };
    for (offset, starts, i) in events {
        let offset = offset.min(end);
        push(at, offset, &active);
        at = at.max(offset);
        if starts {
            active.insert(i);
        } else {
            active.remove(&i);
        }
    }
    push(at, end, &active);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{Boundary, ChunkFlags};

    fn chunk(bytes: Range<usize>) -> Chunk {
        Chunk {
            bytes,
            text: None,
            tokens: 0,
            token_range: None,
            length: 0,
            heading_path: Vec::new(),
            code_info: None,
            reason: Boundary::EndOfText,
            flags: ChunkFlags::default(),
        }
    }

    #[test]
    fn a_chunk_shares_the_start_the_previous_one_covers() {
        let chunks = [
            chunk(0..10),
            chunk(6..20),
            chunk(20..25),
            chunk(22..24),
            chunk(21..30),
        ];
        // 6..10 shared; adjacent: none; inside the previous: all of it; starting before the
        // previous one: not its start.
        assert_eq!(shared_prefix_bytes(&chunks), vec![0, 4, 0, 2, 0]);
        assert!(shared_prefix_bytes(&[]).is_empty());
    }

    #[test]
    fn spans_tile_the_document_and_count_the_chunks_over_each_byte() {
        // "  " trimmed at 0..2, chunk 0 at 2..10, chunk 1 at 6..14, a gap 14..15, chunk 2 at
        // 15..30 of a 40-byte text laid out up to byte 20.
        let chunks = [chunk(2..10), chunk(6..14), chunk(15..30)];
        let spans = document_spans(&chunks, &"x".repeat(40), 20);
        let got: Vec<(usize, usize, Option<usize>, usize)> = spans
            .iter()
            .map(|s| (s.start, s.end, s.chunk, s.covers))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 2, None, 0),
                (2, 6, Some(0), 1),
                (6, 10, Some(0), 2),
                (10, 14, Some(1), 1),
                (14, 15, None, 0),
                (15, 20, Some(2), 1),
            ]
        );
        // Adjacent chunks share nothing; the whole text when `upto` is past it.
        let adjacent = document_spans(&[chunk(0..5), chunk(5..9)], &"x".repeat(9), LAYOUT_BYTES);
        assert_eq!(adjacent.len(), 2);
        assert!(adjacent.iter().all(|s| s.covers == 1));
        assert_eq!(adjacent.last().map(|s| s.end), Some(9));
        assert!(document_spans(&[], "", 10).is_empty());
        // Laid out up to a character boundary: "é" is bytes 2..4, a cut at 3 moves back to 2.
        let cut = document_spans(&[chunk(0..5)], "abéd", 3);
        assert_eq!(cut.last().map(|s| s.end), Some(2));
        assert_eq!(
            document_spans(&[], "abc", 10),
            vec![DocSpan {
                start: 0,
                end: 3,
                chunk: None,
                covers: 0
            }]
        );
    }

    proptest::proptest! {
        /// Any chunk ranges: the spans tile the laid-out prefix, and each span's count is the
        /// number of chunks whose range holds its first byte.
        #[test]
        fn spans_tile_and_count(
            ranges in proptest::collection::vec((0usize..60, 0usize..30), 0..12),
            len in 0usize..80,
            upto in 0usize..90,
        ) {
            let chunks: Vec<Chunk> = ranges.iter().map(|&(s, l)| chunk(s..s + l)).collect();
            let spans = document_spans(&chunks, &"x".repeat(len), upto);
            let mut at = 0;
            for s in &spans {
                proptest::prop_assert_eq!(s.start, at);
                proptest::prop_assert!(s.end > s.start);
                let over: Vec<usize> = (0..chunks.len())
                    .filter(|&i| chunks[i].bytes.contains(&s.start) && s.start < len)
                    .collect();
                proptest::prop_assert_eq!(s.covers, over.len());
                proptest::prop_assert_eq!(s.chunk, over.first().copied());
                at = s.end;
            }
            proptest::prop_assert_eq!(at, upto.min(len));
        }
    }
}
