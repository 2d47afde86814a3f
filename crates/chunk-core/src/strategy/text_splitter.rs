//! text-splitter 0.33.1 (the Rust crate itself) sized by this project's tokenizer.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct TextSplitterTextSplitter {
    settings: Settings,
}

impl TextSplitterTextSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(TextSplitterTextSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for TextSplitterTextSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::TextSplitter
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("TextSplitter")
    }
}

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct TextSplitterMarkdownSplitter {
    settings: Settings,
}

impl TextSplitterMarkdownSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(TextSplitterMarkdownSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for TextSplitterMarkdownSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::TextSplitterMarkdown
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("TextSplitterMarkdown")
    }
}
