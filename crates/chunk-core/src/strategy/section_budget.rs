//! The product's token-budget section packing.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct SectionBudget {
    settings: Settings,
}

impl SectionBudget {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(SectionBudget {
            settings: *settings,
        })
    }
}

impl Chunker for SectionBudget {
    fn id(&self) -> StrategyId {
        StrategyId::SectionBudget
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("SectionBudget")
    }
}
