//! chonkie 1.7.0 chunkers, reproduced exactly.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct ChonkieRecursiveChunker {
    settings: Settings,
}

impl ChonkieRecursiveChunker {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(ChonkieRecursiveChunker {
            settings: *settings,
        })
    }
}

impl Chunker for ChonkieRecursiveChunker {
    fn id(&self) -> StrategyId {
        StrategyId::ChonkieRecursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("ChonkieRecursive")
    }
}

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct ChonkieTokenChunker {
    settings: Settings,
}

impl ChonkieTokenChunker {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(ChonkieTokenChunker {
            settings: *settings,
        })
    }
}

impl Chunker for ChonkieTokenChunker {
    fn id(&self) -> StrategyId {
        StrategyId::ChonkieToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("ChonkieToken")
    }
}
