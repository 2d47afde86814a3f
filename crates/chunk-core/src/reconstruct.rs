//! The reconstruction invariant (SPEC §6): the chunks in order, with overlaps removed, rebuild
//! the document exactly — every unit (token or byte) exactly once.
//!
//! This module reads only each chunk's `[start, end)`; it never calls a chunker, so it checks
//! chunkers independently of how they work.

use std::fmt;

/// Why a list of chunk spans does not rebuild the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReconstructionError {
    /// A non-empty document has no chunk.
    NoChunks,
    /// An empty document has chunks.
    ChunksOfEmptyDocument,
    /// Chunk `index` has `end ≤ start` or ends past the document.
    BadSpan {
        /// Chunk index.
        index: usize,
    },
    /// Chunk 0 does not start at 0.
    MissingStart {
        /// Start of chunk 0.
        start: usize,
    },
    /// Chunk `index` starts after the previous chunk ended: units in between are lost.
    Gap {
        /// Chunk index.
        index: usize,
    },
    /// Chunk `index` does not start after the previous chunk's start, or ends inside it: it
    /// adds nothing new (the loop did not advance).
    NoProgress {
        /// Chunk index.
        index: usize,
    },
    /// The last chunk does not reach the document's end.
    MissingEnd {
        /// End of the last chunk.
        end: usize,
    },
}

impl fmt::Display for ReconstructionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoChunks => f.write_str("a non-empty document produced no chunk"),
            Self::ChunksOfEmptyDocument => f.write_str("an empty document produced chunks"),
            Self::BadSpan { index } => {
                write!(f, "chunk {index} is empty or ends past the document")
            }
            Self::MissingStart { start } => write!(f, "the first chunk starts at {start}, not 0"),
            Self::Gap { index } => write!(f, "units before chunk {index} are in no chunk"),
            Self::NoProgress { index } => write!(f, "chunk {index} adds nothing new"),
            Self::MissingEnd { end } => write!(f, "the last chunk ends at {end}, before the end"),
        }
    }
}

impl std::error::Error for ReconstructionError {}

/// Checks that `spans` (half-open `[start, end)` in any unit: tokens or bytes) rebuild a document
/// of `len` units: the first starts at 0, each starts after the previous start and no later than
/// the previous end, each ends after the previous end, and the last ends at `len`.
///
/// On success returns the total units in all chunks (document + repeats), which the caller
/// compares with the total it reports, so that no duplicate goes uncounted.
///
/// # Errors
/// The first violation found, as a [`ReconstructionError`].
pub fn check_reconstruction(
    len: usize,
    spans: &[(usize, usize)],
) -> Result<usize, ReconstructionError> {
    if len == 0 {
        return if spans.is_empty() {
            Ok(0)
        } else {
            Err(ReconstructionError::ChunksOfEmptyDocument)
        };
    }
    let Some(&(first, _)) = spans.first() else {
        return Err(ReconstructionError::NoChunks);
    };
    if first != 0 {
        return Err(ReconstructionError::MissingStart { start: first });
    }
    let mut total = 0usize;
    let mut rebuilt = 0usize; // units covered so far: the prefix [0, rebuilt)
    let mut prev_start: Option<usize> = None;
    for (index, &(start, end)) in spans.iter().enumerate() {
        if end <= start || end > len {
            return Err(ReconstructionError::BadSpan { index });
        }
        if start > rebuilt {
            return Err(ReconstructionError::Gap { index });
        }
        if prev_start.is_some_and(|p| start <= p) || end <= rebuilt {
            return Err(ReconstructionError::NoProgress { index });
        }
        total += end - start;
        rebuilt = end;
        prev_start = Some(start);
    }
    if rebuilt != len {
        return Err(ReconstructionError::MissingEnd { end: rebuilt });
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_exact_covers() {
        assert_eq!(check_reconstruction(10, &[(0, 8), (4, 10)]), Ok(14));
        assert_eq!(check_reconstruction(0, &[]), Ok(0));
        assert_eq!(check_reconstruction(3, &[(0, 1), (1, 2), (2, 3)]), Ok(3));
    }

    #[test]
    fn rejects_each_fault() {
        use ReconstructionError::*;
        assert_eq!(check_reconstruction(5, &[]), Err(NoChunks));
        assert_eq!(
            check_reconstruction(0, &[(0, 1)]),
            Err(ChunksOfEmptyDocument)
        );
        assert_eq!(
            check_reconstruction(5, &[(1, 5)]),
            Err(MissingStart { start: 1 })
        );
        assert_eq!(
            check_reconstruction(5, &[(0, 2), (3, 5)]),
            Err(Gap { index: 1 })
        );
        assert_eq!(
            check_reconstruction(10, &[(0, 8), (4, 10), (8, 10)]),
            Err(NoProgress { index: 2 })
        );
        assert_eq!(
            check_reconstruction(5, &[(0, 2), (0, 5)]),
            Err(NoProgress { index: 1 })
        );
        assert_eq!(
            check_reconstruction(5, &[(0, 3)]),
            Err(MissingEnd { end: 3 })
        );
        assert_eq!(
            check_reconstruction(5, &[(0, 6)]),
            Err(BadSpan { index: 0 })
        );
        assert_eq!(
            check_reconstruction(5, &[(0, 3), (3, 3)]),
            Err(BadSpan { index: 1 })
        );
    }
}
