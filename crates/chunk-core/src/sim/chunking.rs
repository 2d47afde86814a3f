//! The simulator's strategies behind one entry point, [`chunk`], and their common output.

use super::packing::{pack_sentences, DroppedChunk};
use crate::params::{ChunkParams, ParamsError};
use crate::windows::{fixed_windows, Window};

/// A chunking strategy of the simulator (SPEC §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Strategy {
    /// Fixed token windows ("hard cut"): [`crate::windows::fixed_windows`] over the token count.
    #[default]
    Fixed,
    /// Sentence packing: [`super::packing::pack_sentences`].
    Sentence,
}

impl Strategy {
    /// Every strategy, default first.
    pub const ALL: [Strategy; 2] = [Strategy::Fixed, Strategy::Sentence];
}

/// The chunks one strategy made of one document, as token ranges.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Chunking {
    /// Kept chunks `[start, end)` in token indices, in order; starts and ends strictly
    /// increase, the first starts at 0 and the last ends at the document's token count.
    pub chunks: Vec<Window>,
    /// Indices into `chunks` of the chunks longer than `chunk_size` tokens (sentence packing
    /// only: one sentence longer than the size).
    pub oversize: Vec<usize>,
    /// Chunks formed and dropped because they lie wholly inside the previous one (sentence
    /// packing only; fixed windows never form one, edge case E02).
    pub dropped: Vec<DroppedChunk>,
    /// Chunk size used, in tokens.
    pub chunk_size: usize,
    /// Overlap used, in tokens: the request, or `chunk_size − 1` when clamped. For sentence
    /// packing it is an upper bound; the real overlap is measured from the chunks.
    pub chunk_overlap: usize,
    /// True when the requested overlap was ≥ `chunk_size` and was lowered (SPEC §2); the page
    /// must say so.
    pub overlap_clamped: bool,
}

/// Chunks a document of `n_tokens` tokens whose sentences are the token ranges `sentences`
/// (tiling `[0, n_tokens)`; only sentence packing reads them) with `chunk_size` and
/// `chunk_overlap` in tokens. An overlap ≥ `chunk_size` is clamped to `chunk_size − 1` and
/// flagged, in both strategies.
///
/// # Errors
/// [`ParamsError::ZeroChunkSize`] when `chunk_size == 0`.
pub fn chunk(
    strategy: Strategy,
    n_tokens: usize,
    sentences: &[Window],
    chunk_size: usize,
    chunk_overlap: usize,
) -> Result<Chunking, ParamsError> {
    let params = ChunkParams::new(chunk_size, chunk_overlap)?;
    let overlap = params.chunk_overlap();
    let (chunks, dropped) = match strategy {
        Strategy::Fixed => {
            let w =
                fixed_windows(n_tokens, chunk_size, overlap).ok_or(ParamsError::ZeroChunkSize)?;
            (w.windows, Vec::new())
        }
        Strategy::Sentence => {
            let p = pack_sentences(sentences, chunk_size, overlap);
            (p.chunks, p.dropped)
        }
    };
    let oversize = chunks
        .iter()
        .enumerate()
        .filter(|(_, w)| w.len() > chunk_size)
        .map(|(i, _)| i)
        .collect();
    Ok(Chunking {
        chunks,
        oversize,
        dropped,
        chunk_size,
        chunk_overlap: overlap,
        overlap_clamped: params.overlap_clamped(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_size_is_an_error_and_big_overlap_is_clamped() {
        assert_eq!(
            chunk(Strategy::Fixed, 5, &[], 0, 0),
            Err(ParamsError::ZeroChunkSize)
        );
        assert_eq!(
            chunk(Strategy::Sentence, 5, &[], 0, 0),
            Err(ParamsError::ZeroChunkSize)
        );
        let s = [Window { start: 0, end: 11 }];
        let c = chunk(Strategy::Fixed, 11, &s, 2, 2).expect("size ≥ 1");
        assert!(c.overlap_clamped);
        assert_eq!((c.chunk_overlap, c.chunks.len()), (1, 10));
        let c = chunk(Strategy::Sentence, 11, &s, 2, 2).expect("size ≥ 1");
        assert!(c.overlap_clamped);
        assert_eq!(c.chunks, vec![Window { start: 0, end: 11 }]);
        assert_eq!(c.oversize, vec![0]);
    }
}
