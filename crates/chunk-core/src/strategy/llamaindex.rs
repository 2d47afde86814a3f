//! LlamaIndex (llama-index-core 0.14.25) node parsers, reproduced.

use super::{Chunker, Piece, Settings, StrategyError, StrategyId};
use crate::sizer::Length;

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct LlamaindexTokenTextSplitter {
    settings: Settings,
}

impl LlamaindexTokenTextSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(LlamaindexTokenTextSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for LlamaindexTokenTextSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("LlamaindexToken")
    }
}

/// Placeholder until the strategy lands (replaced in this change).
#[derive(Clone, Debug)]
pub struct LlamaindexSentenceSplitter {
    settings: Settings,
}

impl LlamaindexSentenceSplitter {
    /// Placeholder constructor.
    ///
    /// # Errors
    /// None yet.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        Ok(LlamaindexSentenceSplitter {
            settings: *settings,
        })
    }
}

impl Chunker for LlamaindexSentenceSplitter {
    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexSentence
    }

    fn budget(&self) -> (usize, Length) {
        (self.settings.chunk_size, self.settings.length())
    }

    fn split(&self, _text: &str) -> Result<Vec<Piece>, StrategyError> {
        todo!("LlamaindexSentence")
    }
}
