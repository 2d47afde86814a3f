//! LangChain (langchain-text-splitters 1.1.3) splitters, reproduced exactly.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct LangchainTokenTextSplitter {
    settings: Settings,
}

impl LangchainTokenTextSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(LangchainTokenTextSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for LangchainTokenTextSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::LangchainToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("LangchainToken")
    }
}

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct LangchainRecursiveCharacterTextSplitter {
    settings: Settings,
}

impl LangchainRecursiveCharacterTextSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(LangchainRecursiveCharacterTextSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for LangchainRecursiveCharacterTextSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::LangchainRecursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("LangchainRecursive")
    }
}

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct LangchainMarkdownHeaderTextSplitter {
    settings: Settings,
}

impl LangchainMarkdownHeaderTextSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(LangchainMarkdownHeaderTextSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for LangchainMarkdownHeaderTextSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::LangchainMarkdown
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("LangchainMarkdown")
    }
}
