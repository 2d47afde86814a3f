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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// The page's whole-document view is laid out in blocks of about this many bytes
/// ([`view_blocks`]), each only when it nears the viewport: laying out 128 KiB of text at once
/// took 48–77 ms in headless Chromium 156, blocks of 8 KiB 1.2–1.5 ms (the first one or two).
pub const VIEW_BLOCK_BYTES: usize = 8 * 1024;

/// `spans` (in order and contiguous, as [`document_spans`] gives them) grouped into display
/// blocks: a block closes right after the first line break at least `block_bytes` bytes into
/// it, so that a block boundary is a line boundary and stacking the blocks shows the text as one
/// flow. A block with no such line break before four times `block_bytes` (a minified page, a
/// run of one character) closes at the first character boundary that far into it, or, when a
/// span ends inside a character there, at the next span's start; the page then shows a line
/// break the text does not have (copying the view copies it too). A span across a block's end
/// is cut in two there, both parts with its chunk and cover count; the blocks' spans, in order,
/// tile exactly the bytes `spans` tile. `block_bytes` 0 counts as 1.
pub fn view_blocks(spans: &[DocSpan], text: &str, block_bytes: usize) -> Vec<Vec<DocSpan>> {
    let block_bytes = block_bytes.max(1);
    let long = block_bytes.saturating_mul(4);
    let mut blocks = Vec::new();
    let mut block: Vec<DocSpan> = Vec::new();
    let mut block_start = spans.first().map_or(0, |s| s.start);
    // Where the block that started at `from` closes inside `span`, if it does.
    let close_in = |span: &DocSpan, from: usize| -> Option<usize> {
        let forced = from.saturating_add(long);
        let look = span.start.max(from.saturating_add(block_bytes));
        let stop = span.end.min(forced).min(text.len());
        if look < stop {
            if let Some(i) = text.as_bytes()[look..stop].iter().position(|&b| b == b'\n') {
                return Some(look + i + 1);
            }
        }
        (forced > span.start && forced < span.end)
            .then(|| (forced..span.end).find(|&i| text.is_char_boundary(i)))
            .flatten()
    };
    for &span in spans {
        let mut rest = span;
        if !block.is_empty() && rest.start - block_start >= long {
            blocks.push(std::mem::take(&mut block));
            block_start = rest.start;
        }
        while let Some(at) = close_in(&rest, block_start) {
            block.push(DocSpan { end: at, ..rest });
            blocks.push(std::mem::take(&mut block));
            block_start = at;
            rest.start = at;
            if at == rest.end {
                break;
            }
        }
        if rest.start < rest.end {
            block.push(rest);
        }
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{Boundary, ChunkFlags};
    use proptest::prelude::*;

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

    /// The blocks of `spans` as `(start, end)` per block, checking the invariants on the way:
    /// the parts tile the spans' bytes, each part lies in one span with its chunk and covers,
    /// and every block but the last ends after a line break or is long.
    fn checked_blocks(spans: &[DocSpan], text: &str, block_bytes: usize) -> Vec<(usize, usize)> {
        let blocks = view_blocks(spans, text, block_bytes);
        let parts: Vec<DocSpan> = blocks.iter().flatten().copied().collect();
        let mut at = spans.first().map_or(0, |s| s.start);
        for p in &parts {
            assert_eq!(p.start, at, "the parts tile the text");
            assert!(p.start < p.end, "no empty part");
            let whole = spans
                .iter()
                .find(|s| s.start <= p.start && p.end <= s.end)
                .expect("a part lies in one span");
            assert_eq!((p.chunk, p.covers), (whole.chunk, whole.covers));
            at = p.end;
        }
        assert_eq!(at, spans.last().map_or(0, |s| s.end));
        let ranges: Vec<(usize, usize)> = blocks
            .iter()
            .map(|b| (b[0].start, b[b.len() - 1].end))
            .collect();
        for &(s, e) in ranges.iter().take(ranges.len().saturating_sub(1)) {
            assert!(
                e - s >= block_bytes.max(1),
                "a block but the last is full: {s}..{e}"
            );
            assert!(
                text.as_bytes()[e - 1] == b'\n' || e - s >= 4 * block_bytes.max(1),
                "a block ends a line, or is a long line's part: {s}..{e}"
            );
        }
        ranges
    }

    #[test]
    fn view_blocks_close_after_a_line_break_and_cut_a_span_there() {
        // Lines of 10 bytes ("xxxxxxxxx\n"), one span per 25 bytes, blocks of 15 bytes: each
        // block closes after the first line break 15 bytes in, at 20, 40, ...
        let text = "xxxxxxxxx\n".repeat(10);
        let spans: Vec<DocSpan> = (0..4)
            .map(|i| DocSpan {
                start: i * 25,
                end: (i + 1) * 25,
                chunk: Some(i),
                covers: 1,
            })
            .collect();
        let blocks = checked_blocks(&spans, &text, 15);
        assert_eq!(
            blocks,
            vec![(0, 20), (20, 40), (40, 60), (60, 80), (80, 100)]
        );
        // The span 0..25 is cut at 20; its two parts keep chunk 0.
        let parts = view_blocks(&spans, &text, 15);
        assert_eq!(
            parts[0],
            vec![DocSpan {
                start: 0,
                end: 20,
                chunk: Some(0),
                covers: 1
            }]
        );
        assert_eq!(
            parts[1][0],
            DocSpan {
                start: 20,
                end: 25,
                chunk: Some(0),
                covers: 1
            }
        );
        // A text of one long line: blocks of four times the size, at character boundaries.
        let line = "猫".repeat(30); // 90 bytes, no line break
        let one = [DocSpan {
            start: 0,
            end: 90,
            chunk: None,
            covers: 0,
        }];
        assert_eq!(
            checked_blocks(&one, &line, 10),
            vec![(0, 42), (42, 84), (84, 90)]
        );
        // Nothing to group; one short block.
        assert!(view_blocks(&[], "", 10).is_empty());
        assert_eq!(checked_blocks(&one, &line, 1000), vec![(0, 90)]);
    }

    proptest! {
        #[test]
        fn view_blocks_tile_the_spans(
            lines in prop::collection::vec(("[a-z猫 ]{0,30}", any::<bool>()), 0..40),
            cuts in prop::collection::vec(any::<u16>(), 0..20),
            block_bytes in 0usize..64,
        ) {
            let text: String = lines.iter().map(|(l, nl)| format!("{l}{}", if *nl { "\n" } else { "" })).collect();
            let mut points: Vec<usize> = cuts
                .iter()
                .map(|&c| usize::from(c) % (text.len() + 1))
                .chain([0, text.len()])
                .collect();
            points.sort_unstable();
            points.dedup();
            let spans: Vec<DocSpan> = points
                .windows(2)
                .enumerate()
                .map(|(i, w)| DocSpan { start: w[0], end: w[1], chunk: Some(i), covers: i % 3 })
                .collect();
            checked_blocks(&spans, &text, block_bytes);
        }
    }
}
