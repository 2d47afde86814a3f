//! The product's recursive splitter.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct Recursive {
    settings: Settings,
}

impl Recursive {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(Recursive {
            settings: *settings,
        })
    }
}

impl Chunker for Recursive {
    fn id(&self) -> StrategyId {
        StrategyId::Recursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("Recursive")
    }
}
