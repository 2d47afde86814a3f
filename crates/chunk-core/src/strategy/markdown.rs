//! The product's markdown structure splitter.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct MarkdownStructure {
    settings: Settings,
}

impl MarkdownStructure {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(MarkdownStructure {
            settings: *settings,
        })
    }
}

impl Chunker for MarkdownStructure {
    fn id(&self) -> StrategyId {
        StrategyId::Markdown
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("Markdown")
    }
}
