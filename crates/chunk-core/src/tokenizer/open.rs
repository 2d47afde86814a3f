//! The open embedding models' tokenizers as one type: which vocabulary file each needs, how
//! it is read, and a [`TokenCounter`] over the loaded one. The page's comparison worker
//! fetches the file (same origin, `vocab/` next to the page) only when such a model is chosen,
//! so the default page does not carry it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::unigram::{Unigram, VocabError as UnigramError};
use super::wordpiece::{VocabError, WordPiece};
use crate::tokenizer::TokenCounter;

/// A vocabulary the page can load on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpenVocab {
    /// BERT uncased WordPiece (`vocab/bert-base-uncased.txt`, 30,522 entries, 231,508 bytes).
    BertUncased,
    /// XLM-RoBERTa SentencePiece Unigram (`vocab/xlm-roberta.unigram`, 250,002 pieces,
    /// 4,068,947 bytes; 1.93 MB gzipped).
    XlmRoberta,
}

impl OpenVocab {
    /// Every vocabulary, in declaration order.
    pub const ALL: [OpenVocab; 2] = [OpenVocab::BertUncased, OpenVocab::XlmRoberta];

    /// The vocabulary whose [`OpenVocab::code`] is `code`.
    pub fn from_code(code: &str) -> Option<OpenVocab> {
        OpenVocab::ALL.into_iter().find(|v| v.code() == code)
    }

    /// The file's path relative to the page (Trunk copies `crates/chunk-core/vocab/` to
    /// `vocab/`).
    pub const fn file(self) -> &'static str {
        match self {
            OpenVocab::BertUncased => "vocab/bert-base-uncased.txt",
            OpenVocab::XlmRoberta => "vocab/xlm-roberta.unigram",
        }
    }

    /// The file's size in bytes, for the page's progress line before it has arrived.
    pub const fn file_bytes(self) -> u64 {
        match self {
            OpenVocab::BertUncased => 231_508,
            OpenVocab::XlmRoberta => 4_068_947,
        }
    }

    /// The tokenizer of this vocabulary once [`OpenTokenizer::install`]ed in this process (the
    /// page's worker installs it when it loads the file); `None` before.
    pub fn loaded(self) -> Option<&'static OpenTokenizer> {
        INSTALLED[self as usize].get()
    }

    /// The tokenizer's name as the page shows it: `WordPiece (bert-base-uncased)`,
    /// `SentencePiece Unigram (XLM-RoBERTa)` (the same in every language).
    pub const fn label(self) -> &'static str {
        match self {
            OpenVocab::BertUncased => "WordPiece (bert-base-uncased)",
            OpenVocab::XlmRoberta => "SentencePiece Unigram (XLM-RoBERTa)",
        }
    }

    /// A stable name for messages and hooks: `bert-uncased`, `xlm-roberta`.
    pub const fn code(self) -> &'static str {
        match self {
            OpenVocab::BertUncased => "bert-uncased",
            OpenVocab::XlmRoberta => "xlm-roberta",
        }
    }
}

/// The tokenizers installed in this process, by [`OpenVocab`] (declaration order). A
/// vocabulary file never changes, so the first one installed stays.
static INSTALLED: [OnceLock<OpenTokenizer>; OpenVocab::ALL.len()] =
    [const { OnceLock::new() }; OpenVocab::ALL.len()];

/// A loaded open tokenizer.
#[derive(Debug, Clone)]
pub enum OpenTokenizer {
    /// BERT uncased WordPiece.
    WordPiece(WordPiece),
    /// XLM-RoBERTa Unigram (boxed: its tables are large, the enum stays small).
    Unigram(Box<Unigram>),
}

/// Why a vocabulary file could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// A text vocabulary that is not UTF-8.
    #[error("the vocabulary file is not UTF-8 text (byte {0})")]
    NotUtf8(usize),
    /// The file was read but is not a usable vocabulary.
    #[error(transparent)]
    Vocab(#[from] VocabError),
    /// The file is not a usable Unigram data file.
    #[error(transparent)]
    Unigram(#[from] UnigramError),
}

/// The vocabulary files built into this binary (feature `vocab-files`): the native corpus
/// tools (`crates/cli`, `crates/python`) carry them instead of fetching them, as the page does.
#[cfg(feature = "vocab-files")]
impl OpenVocab {
    /// The content of [`OpenVocab::file`], built in.
    pub fn embedded_bytes(self) -> &'static [u8] {
        match self {
            OpenVocab::BertUncased => include_bytes!("../../vocab/bert-base-uncased.txt"),
            OpenVocab::XlmRoberta => include_bytes!("../../vocab/xlm-roberta.unigram"),
        }
    }

    /// Installs this vocabulary's tokenizer from the built-in file ([`OpenTokenizer::install`])
    /// unless it is already, and returns it.
    ///
    /// # Errors
    /// [`LoadError`], which only a corrupt build can give.
    pub fn install_embedded(self) -> Result<&'static OpenTokenizer, LoadError> {
        match self.loaded() {
            Some(t) => Ok(t),
            None => Ok(OpenTokenizer::load(self, self.embedded_bytes())?.install()),
        }
    }
}

impl OpenTokenizer {
    /// Reads `bytes`, the content of [`OpenVocab::file`].
    ///
    /// # Errors
    /// [`LoadError`] when the bytes are not such a file.
    pub fn load(vocab: OpenVocab, bytes: &[u8]) -> Result<OpenTokenizer, LoadError> {
        match vocab {
            OpenVocab::BertUncased => {
                let text =
                    std::str::from_utf8(bytes).map_err(|e| LoadError::NotUtf8(e.valid_up_to()))?;
                Ok(OpenTokenizer::WordPiece(WordPiece::from_vocab(text)?))
            }
            OpenVocab::XlmRoberta => Ok(OpenTokenizer::Unigram(Box::new(Unigram::from_bytes(
                bytes,
            )?))),
        }
    }

    /// Keeps this tokenizer for the rest of the process, where
    /// [`crate::strategy::length::Length::Model`] finds it ([`OpenVocab::loaded`]), and returns the one
    /// kept: this one, or the one installed before for the same vocabulary.
    pub fn install(self) -> &'static OpenTokenizer {
        INSTALLED[self.vocab() as usize].get_or_init(|| self)
    }

    /// Which vocabulary this is.
    pub fn vocab(&self) -> OpenVocab {
        match self {
            OpenTokenizer::WordPiece(_) => OpenVocab::BertUncased,
            OpenTokenizer::Unigram(_) => OpenVocab::XlmRoberta,
        }
    }

    /// Tokens of `text` without the model's special tokens.
    pub fn count(&self, text: &str) -> usize {
        match self {
            OpenTokenizer::WordPiece(w) => w.count(text),
            OpenTokenizer::Unigram(u) => u.count(text),
        }
    }
}

impl TokenCounter for OpenTokenizer {
    fn count(&self, text: &str) -> usize {
        OpenTokenizer::count(self, text)
    }
}

/// Installs BERT uncased's tokenizer from `crates/chunk-core/vocab/` for this test process
/// (the lib's unit tests that size chunks in a model's tokens share it).
#[cfg(test)]
pub(crate) fn install_bert_for_tests() -> &'static OpenTokenizer {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vocab/bert-base-uncased.txt");
    let bytes = std::fs::read(path).expect("the vocabulary file");
    OpenTokenizer::load(OpenVocab::BertUncased, &bytes)
        .expect("loads")
        .install()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every vocabulary's file is in `crates/chunk-core/vocab/` with the size the page
    /// announces, and loads.
    #[test]
    fn every_vocabulary_file_is_there_and_loads() {
        for vocab in OpenVocab::ALL {
            assert_eq!(OpenVocab::from_code(vocab.code()), Some(vocab));
            let name = vocab.file().trim_start_matches("vocab/");
            let path = format!("{}/vocab/{name}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(bytes.len() as u64, vocab.file_bytes(), "{path}");
            let t = OpenTokenizer::load(vocab, &bytes).expect("loads");
            assert_eq!(t.vocab(), vocab);
            assert!(t.count("Hello, world!") > 0);
        }
        assert_eq!(
            OpenTokenizer::load(OpenVocab::BertUncased, b"\xff").unwrap_err(),
            LoadError::NotUtf8(0)
        );
        assert_eq!(
            OpenTokenizer::load(OpenVocab::BertUncased, b"").unwrap_err(),
            LoadError::Vocab(VocabError::Empty)
        );
    }
}
