//! semchunk 4.1.1, reproduced exactly.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct Semchunk {
    settings: Settings,
}

impl Semchunk {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(Semchunk {
            settings: *settings,
        })
    }
}

impl Chunker for Semchunk {
    fn id(&self) -> StrategyId {
        StrategyId::Semchunk
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("Semchunk")
    }
}
