//! Chunking strategies behind one trait, [`Chunker`], with one output type, [`Chunks`].
//!
//! Two kinds of strategy live here, one file each:
//! - **library-exact** ones reproduce one pinned version of a popular library chunk for chunk,
//!   under that library's own parameter names and defaults (SPEC §5); the differential tests
//!   (`tests/differential`) run the library itself and compare every chunk;
//! - **the product's own**: fixed windows, sentence packing, recursive, markdown structure and
//!   token-budget section packing, guarded by reconstruction and an independent second
//!   implementation (SPEC §6).
//!
//! A strategy only cuts: [`Chunker::split`] returns [`Piece`]s (byte ranges, the library's own
//! text where it differs, why each ended). [`run`] then measures every chunk the same way for
//! all of them: its token count by encoding exactly the text shown, its token range in the
//! document's tokens where one exists, and its flags.
//!
//! Adding a strategy is one file, one [`StrategyId`] variant and one arm in [`chunker`].

#[cfg(feature = "strategies")]
mod chonkie;
pub mod curve;
mod defaults;
#[cfg(feature = "strategies")]
mod fixed;
#[cfg(feature = "strategies")]
mod langchain;
pub mod length;
#[cfg(feature = "strategies")]
mod llamaindex;
#[cfg(feature = "strategies")]
mod markdown;
mod python;
#[cfg(feature = "strategies")]
mod recursive;
pub mod refusal;
#[cfg(feature = "strategies")]
pub(crate) mod section_budget;
#[cfg(feature = "strategies")]
pub mod semantic;
#[cfg(feature = "strategies")]
mod semchunk;
#[cfg(feature = "strategies")]
mod sentence;
#[cfg(feature = "strategies")]
mod text_splitter;

use crate::segment::sentences::{CurrentSentences, SentenceCache};
use crate::strategy::length::Length;
use crate::tokenizer::indexed::{Active, TokenIndex};
use crate::tokenizer::TokenCounter;
use crate::tokenizer::{Encoded, Encoding};
use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

#[cfg(feature = "strategies")]
pub use chonkie::{ChonkieRecursiveChunker, ChonkieTokenChunker};
pub use defaults::LibraryDefaults;
#[cfg(feature = "strategies")]
pub use fixed::FixedWindows;
#[cfg(feature = "strategies")]
pub use langchain::{
    KeepSeparator, LangchainMarkdownHeaderTextSplitter, LangchainMarkdownLanguageSplitter,
    LangchainRecursiveCharacterTextSplitter, LangchainTokenTextSplitter, RuleMark, Separator,
};
#[cfg(feature = "strategies")]
pub use llamaindex::{
    punkt_sentence_starts, LlamaindexMarkdownNodeParser, LlamaindexMarkdownSection,
    LlamaindexSentenceSplitter, LlamaindexTokenTextSplitter, MetadataFit,
};
#[cfg(feature = "strategies")]
pub use markdown::MarkdownStructure;
pub use python::{python_isprintable, python_isspace};
#[cfg(feature = "strategies")]
pub use recursive::Recursive;
#[cfg(feature = "strategies")]
pub use section_budget::SectionBudget;
#[cfg(feature = "strategies")]
pub use semantic::SemanticChunker;
#[cfg(feature = "strategies")]
pub use semchunk::Semchunk;
#[cfg(feature = "strategies")]
pub use sentence::SentencePacking;
#[cfg(feature = "strategies")]
pub use text_splitter::{
    TextSplitterChunker, TextSplitterMarkdownSplitter, TextSplitterTextSplitter,
};

/// The stable id of every strategy, as the page's `data-strategy` and `strategy` select use it
/// (`"langchain-recursive"`, …).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumIter,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    serde::Serialize,
    serde::Deserialize,
)]
#[strum(serialize_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum StrategyId {
    /// Fixed token windows ([`FixedWindows`]).
    Fixed,
    /// Whole sentences packed up to the size ([`SentencePacking`]).
    Sentence,
    /// LangChain `TokenTextSplitter` ([`LangchainTokenTextSplitter`]).
    LangchainToken,
    /// LangChain `RecursiveCharacterTextSplitter` ([`LangchainRecursiveCharacterTextSplitter`]).
    LangchainRecursive,
    /// LangChain `MarkdownHeaderTextSplitter` then the recursive splitter per section
    /// ([`LangchainMarkdownHeaderTextSplitter`]).
    LangchainMarkdown,
    /// LangChain `RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN)`: markdown's
    /// regex separators ([`LangchainMarkdownLanguageSplitter`]).
    LangchainMarkdownLanguage,
    /// text-splitter `TextSplitter` ([`TextSplitterTextSplitter`]).
    TextSplitter,
    /// text-splitter `MarkdownSplitter` ([`TextSplitterMarkdownSplitter`]).
    TextSplitterMarkdown,
    /// semchunk `chunkerify(...)` ([`Semchunk`]).
    Semchunk,
    /// chonkie `RecursiveChunker` ([`ChonkieRecursiveChunker`]).
    ChonkieRecursive,
    /// chonkie `TokenChunker` ([`ChonkieTokenChunker`]).
    ChonkieToken,
    /// LlamaIndex `TokenTextSplitter` ([`LlamaindexTokenTextSplitter`]).
    LlamaindexToken,
    /// LlamaIndex `SentenceSplitter` ([`LlamaindexSentenceSplitter`]).
    LlamaindexSentence,
    /// LlamaIndex `MarkdownNodeParser` then `SentenceSplitter` per node, its `header_path`
    /// metadata counted against `chunk_size` ([`LlamaindexMarkdownNodeParser`]).
    LlamaindexMarkdown,
    /// The product's recursive splitter sized by true token counts ([`Recursive`]).
    Recursive,
    /// The product's markdown structure splitter ([`MarkdownStructure`]).
    Markdown,
    /// The product's token-budget section packing ([`SectionBudget`]).
    SectionBudget,
    /// chonkie `SemanticChunker` ([`semantic::ChonkieSemantic`]); needs embeddings.
    ChonkieSemantic,
    /// langchain-experimental `SemanticChunker` ([`semantic::LangchainSemantic`]); needs
    /// embeddings.
    LangchainSemantic,
    /// LlamaIndex `SemanticSplitterNodeParser` ([`semantic::LlamaindexSemantic`]); needs
    /// embeddings.
    LlamaindexSemantic,
    /// The product's semantic chunking under the size limit ([`semantic::OwnSemantic`]);
    /// needs embeddings.
    Semantic,
}

/// A library a strategy reproduces, at the version it reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Library {
    /// The package name as it is installed (`"langchain-text-splitters"`, the PyPI name; or
    /// the crate name for text-splitter).
    pub package: &'static str,
    /// The exact version reproduced, e.g. `"1.1.3"`.
    pub version: &'static str,
    /// The class or function reproduced, e.g. `"RecursiveCharacterTextSplitter"`.
    pub api: &'static str,
    /// True when the reproduction is chunk-for-chunk exact on the differential corpus; false
    /// when it is only close (the page labels such a strategy approximate).
    pub exact: bool,
}

impl Library {
    /// The library's usual name, as the page shows it before the class (`"LangChain ·
    /// TokenTextSplitter"`): `"LangChain"` for `langchain-text-splitters`, `"LlamaIndex"` for
    /// `llama-index-core`; text-splitter, semchunk and chonkie go by their package name.
    pub fn label(&self) -> &'static str {
        match self.package {
            "langchain-text-splitters" => "LangChain",
            "llama-index-core" => "LlamaIndex",
            "langchain-experimental" => "LangChain",
            package => package,
        }
    }
}

impl StrategyId {
    /// The library and version this strategy reproduces; `None` for the product's own.
    pub fn library(self) -> Option<Library> {
        let lib = |package, version, api, exact| {
            Some(Library {
                package,
                version,
                api,
                exact,
            })
        };
        const LANGCHAIN: &str = "langchain-text-splitters";
        const LANGCHAIN_V: &str = "1.1.3";
        const LLAMA: &str = "llama-index-core";
        const LLAMA_V: &str = "0.14.25";
        match self {
            StrategyId::Fixed
            | StrategyId::Sentence
            | StrategyId::Recursive
            | StrategyId::Markdown
            | StrategyId::SectionBudget
            | StrategyId::Semantic => None,
            StrategyId::LangchainToken => lib(LANGCHAIN, LANGCHAIN_V, "TokenTextSplitter", true),
            StrategyId::LangchainRecursive => lib(
                LANGCHAIN,
                LANGCHAIN_V,
                "RecursiveCharacterTextSplitter",
                true,
            ),
            StrategyId::LangchainMarkdown => lib(
                LANGCHAIN,
                LANGCHAIN_V,
                "MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter",
                true,
            ),
            StrategyId::LangchainMarkdownLanguage => lib(
                LANGCHAIN,
                LANGCHAIN_V,
                "RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN)",
                true,
            ),
            StrategyId::TextSplitter => lib("text-splitter", "0.33.1", "TextSplitter", true),
            StrategyId::TextSplitterMarkdown => {
                lib("text-splitter", "0.33.1", "MarkdownSplitter", true)
            }
            StrategyId::Semchunk => lib("semchunk", "4.1.1", "chunkerify", true),
            StrategyId::ChonkieRecursive => lib("chonkie", "1.7.0", "RecursiveChunker", true),
            StrategyId::ChonkieToken => lib("chonkie", "1.7.0", "TokenChunker", true),
            StrategyId::LlamaindexToken => lib(LLAMA, LLAMA_V, "TokenTextSplitter", true),
            StrategyId::LlamaindexSentence => lib(LLAMA, LLAMA_V, "SentenceSplitter", true),
            StrategyId::LlamaindexMarkdown => lib(
                LLAMA,
                LLAMA_V,
                "MarkdownNodeParser + SentenceSplitter",
                true,
            ),
            StrategyId::ChonkieSemantic => lib("chonkie", "1.7.0", "SemanticChunker", true),
            StrategyId::LangchainSemantic => {
                lib("langchain-experimental", "0.4.2", "SemanticChunker", true)
            }
            StrategyId::LlamaindexSemantic => {
                lib(LLAMA, LLAMA_V, "SemanticSplitterNodeParser", true)
            }
        }
    }

    /// What this strategy's chunks keep of the document ([`Keeps`]).
    pub fn keeps(self) -> Keeps {
        match self {
            StrategyId::Fixed | StrategyId::LangchainToken => Keeps::TokenWindows,
            StrategyId::ChonkieToken => Keeps::TokenWindowsUnlessBlank,
            StrategyId::ChonkieRecursive => Keeps::EverythingButCutCharacters,
            StrategyId::Sentence
            | StrategyId::Recursive
            | StrategyId::Markdown
            | StrategyId::SectionBudget
            | StrategyId::Semantic => Keeps::Everything,
            StrategyId::ChonkieSemantic => Keeps::EverythingUnlessBlank,
            StrategyId::LangchainSemantic => Keeps::SentencesJoinedWithSpace,
            StrategyId::LangchainMarkdown => Keeps::StrippedMarkdownLines,
            StrategyId::LlamaindexMarkdown => Keeps::AllButWhitespaceHeadingSpace,
            StrategyId::LangchainRecursive
            | StrategyId::LangchainMarkdownLanguage
            | StrategyId::TextSplitter
            | StrategyId::TextSplitterMarkdown
            | StrategyId::Semchunk
            | StrategyId::LlamaindexToken
            | StrategyId::LlamaindexSentence
            | StrategyId::LlamaindexSemantic => Keeps::AllButWhitespace,
        }
    }

    /// The stable id, e.g. `"langchain-recursive"`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every strategy that cuts from the text alone, in the order the page lists them: all but
    /// the semantic ones ([`StrategyId::semantic`]), which need embeddings first.
    pub fn all() -> impl Iterator<Item = StrategyId> {
        <StrategyId as strum::IntoEnumIterator>::iter().filter(|s| !s.needs_embeddings())
    }

    /// The semantic strategies ([`semantic`]): each needs the embeddings of its texts
    /// ([`SemanticChunker::embedding_texts`]) before it can cut.
    pub fn semantic() -> impl Iterator<Item = StrategyId> {
        <StrategyId as strum::IntoEnumIterator>::iter().filter(|s| s.needs_embeddings())
    }

    /// True for the semantic strategies, which cut by embedding similarity.
    pub fn needs_embeddings(self) -> bool {
        matches!(
            self,
            StrategyId::ChonkieSemantic
                | StrategyId::LangchainSemantic
                | StrategyId::LlamaindexSemantic
                | StrategyId::Semantic
        )
    }

    /// True when the strategy can size chunks in `unit` (every one can in tokens; characters
    /// only where the library or rule has a character length function; an open model's
    /// tokens only where the library takes any length function or tokenizer and never decodes
    /// token ids back to text: the model's tokenizer gives no byte offsets, and token windows
    /// decoded from WordPiece ids are lower-cased text, not the document's).
    pub fn supports(self, unit: SizeUnit) -> bool {
        match unit {
            SizeUnit::Tokens => true,
            SizeUnit::Model(_) => matches!(
                self,
                StrategyId::LangchainRecursive
                    | StrategyId::LangchainMarkdown
                    | StrategyId::LangchainMarkdownLanguage
                    | StrategyId::TextSplitter
                    | StrategyId::TextSplitterMarkdown
                    | StrategyId::Semchunk
                    | StrategyId::ChonkieRecursive
                    | StrategyId::LlamaindexToken
                    | StrategyId::LlamaindexSentence
                    | StrategyId::LlamaindexMarkdown
                    | StrategyId::ChonkieSemantic
                    | StrategyId::LangchainSemantic
                    | StrategyId::LlamaindexSemantic
            ),
            SizeUnit::Characters => !matches!(
                self,
                StrategyId::LangchainToken
                    | StrategyId::LlamaindexToken
                    | StrategyId::LlamaindexSentence
                    | StrategyId::LlamaindexMarkdown
                    | StrategyId::Semchunk
                    | StrategyId::SectionBudget
            ),
        }
    }
}

/// What a strategy's chunks keep of the document: the exact statement of what it drops or
/// trims, checked on every corpus document by the differential tests (for library strategies
/// that is a statement about the library itself, since their chunks are equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keeps {
    /// Every chunk is the document slice at its byte range (`text` is `None`), chunks start
    /// and end in strictly increasing order, and with overlaps removed they rebuild the
    /// document exactly: nothing dropped (SPEC §6 reconstruction).
    Everything,
    /// [`Keeps::Everything`], except that a document that is empty or whitespace only
    /// (Python's `str.isspace`) gives no chunk at all (chonkie's `SemanticChunker.chunk`
    /// returns `[]` for `not text or text.isspace()`).
    EverythingUnlessBlank,
    /// LangChain's `SemanticChunker`: chunks in document order, each the document at its byte
    /// range with every run of whitespace (Python's `str.isspace`) that follows `.`, `?` or
    /// `!` written as one space (`text` is `Some` exactly where that changes something);
    /// what no chunk covers is such whitespace. One sentence alone is the whole text as it is.
    SentencesJoinedWithSpace,
    /// Every chunk is the document slice at its byte range and chunks are in document order;
    /// what no chunk covers is whitespace only (trimmed chunk edges, whitespace-only pieces),
    /// whitespace as Python's `str.isspace` has it (U+001C–U+001F included).
    AllButWhitespace,
    /// Chunks are decoded token windows: the bytes of consecutive windows rebuild the
    /// document, but a window that cuts a character shows U+FFFD for each cut part.
    TokenWindows,
    /// [`Keeps::TokenWindows`], except that a document that is empty or whitespace only
    /// (Python's `str.isspace`) gives no chunk at all (chonkie's `TokenChunker.chunk` returns
    /// `[]` when `not text.strip()`).
    TokenWindowsUnlessBlank,
    /// [`Keeps::Everything`] (whitespace-only chunks included), except that a chunk whose
    /// range starts or ends inside a character shows its bytes decoded with U+FFFD for each
    /// cut part: chonkie's `RecursiveChunker` ends with decoded token windows.
    EverythingButCutCharacters,
    /// LangChain's `MarkdownHeaderTextSplitter` rewrite. Chunks are in document order
    /// (starts and ends non-decreasing); each chunk's text is the document at its byte range
    /// with: every line (split at `\n`) stripped of surrounding whitespace (Python's
    /// `str.strip`, `\r` included) and then of its non-printable characters (Python's
    /// `str.isprintable`: controls such as tab, format characters, non-ASCII spaces);
    /// outside code fences (```` ``` ````, `~~~`), header lines (`#`, `##` or `###` followed
    /// by a space or nothing) and lines left empty removed; the remaining lines joined with
    /// `"\n"`, or with `"  \n"` where a removed line separated them. A chunk of whitespace
    /// only stands for whitespace. What no chunk covers is whitespace, non-printable
    /// characters and header lines (whose text is in `heading_path`).
    StrippedMarkdownLines,
    /// As [`Keeps::Everything`] for the byte ranges, but a chunk's text may add to the slice
    /// ([`Structure`]): first a heading prefix, `heading_path.join(" > ") + "\n\n"` or the last
    /// heading + `"\n\n"` ([`MarkdownStructure::heading_prefix`]); then, with fence repair, the
    /// opening fence line of the code block it starts inside (+ `"\n"`), the slice, and a
    /// closing fence line (+ `"\n"`, after a `"\n"` when the slice does not end a line) when it
    /// ends inside one. A chunk with none of them is the slice.
    EverythingAfterPrefix,
    /// LlamaIndex's `MarkdownNodeParser` then `SentenceSplitter`. As
    /// [`Keeps::AllButWhitespace`] (chunks in document order, starts and ends non-decreasing;
    /// what no chunk covers is whitespace only, as Python's `str.isspace` has it), except that
    /// a chunk's text is the document at its byte range with one character rewritten in each
    /// heading line it holds: outside ```` ``` ```` code blocks (a line whose `lstrip()`
    /// starts with ```` ``` ```` opens or closes one; `~~~` does not), a line of one or more
    /// `#` followed by a whitespace character (`^(#+)\s`, Python's `\s` being `str.isspace`)
    /// has that character written as a space. `text` is `Some` exactly for the chunks where
    /// that changes something (a tab or another non-space whitespace after the marks); its
    /// byte range is still the range of the document it stands for.
    AllButWhitespaceHeadingSpace,
}

/// The unit `chunk_size` and `chunk_overlap` are given in (`"tokens"` / `"characters"` /
/// `{"model": "bert-uncased"}` in serde; the page's `chunk-size-unit` select chooses tokens or
/// characters, and its `size-tokenizer` select whose tokens). Its code ([`SizeUnit::code`],
/// parsed back by `FromStr`) is the serde name: `"tokens"`, `"characters"` or `"model"`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumDiscriminants,
)]
#[serde(rename_all = "lowercase")]
#[strum_discriminants(
    name(SizeUnitKind),
    vis(pub(crate)),
    derive(strum::EnumString, strum::IntoStaticStr),
    strum(serialize_all = "lowercase")
)]
pub enum SizeUnit {
    /// Tokens of [`Settings::encoding`].
    #[default]
    Tokens,
    /// Unicode scalar values (Python's `len`): LangChain's, text-splitter's and chonkie's
    /// default length function.
    Characters,
    /// Tokens of an open embedding model's own tokenizer, without its special tokens
    /// ([`Length::Model`]): the libraries given a Hugging Face tokenizer
    /// ([`StrategyId::supports`] says which). Every chunk's `tokens` are still counted with
    /// [`Settings::encoding`].
    Model(crate::tokenizer::open::OpenVocab),
}

/// Parses a unit's code ([`SizeUnit::code`]): `"tokens"` or `"characters"`. `"model"` is
/// refused (`strum::ParseError::VariantNotFound`): the code does not say which model.
impl std::str::FromStr for SizeUnit {
    type Err = strum::ParseError;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        match code.parse::<SizeUnitKind>()? {
            SizeUnitKind::Tokens => Ok(SizeUnit::Tokens),
            SizeUnitKind::Characters => Ok(SizeUnit::Characters),
            SizeUnitKind::Model => Err(strum::ParseError::VariantNotFound),
        }
    }
}

impl SizeUnit {
    /// The unit's code, as in serde: `"tokens"`, `"characters"`, or `"model"` for any
    /// [`SizeUnit::Model`] (the vocabulary is [`crate::tokenizer::open::OpenVocab::code`]).
    pub fn code(self) -> &'static str {
        SizeUnitKind::from(self).into()
    }

    /// The unit the page's configuration sizes in: tokens become `model`'s own tokens when
    /// the user sizes with the model's tokenizer (`by_model`) and the model has an open one;
    /// characters and BPE tokens otherwise stay as they are.
    pub fn sized_by(
        self,
        model: Option<crate::tokenizer::open::OpenVocab>,
        by_model: bool,
    ) -> Self {
        match (self, model) {
            (SizeUnit::Tokens, Some(v)) if by_model => SizeUnit::Model(v),
            _ => self,
        }
    }

    /// The unit the page sizes `strategy`'s chunks in (its `size-tokenizer` select): the
    /// user's `choice` (`Some(true)`: the model's own tokens, `Some(false)`: the encoding's),
    /// or by default the model's own tokens exactly when the model has an open tokenizer and
    /// `strategy` can size in it, so that choosing an open model never leaves the chosen
    /// strategy refused ([`SizeUnit::sized_by`]).
    pub fn sized_for(
        self,
        model: Option<crate::tokenizer::open::OpenVocab>,
        choice: Option<bool>,
        strategy: StrategyId,
    ) -> Self {
        let by_model =
            choice.unwrap_or_else(|| model.is_some_and(|v| strategy.supports(SizeUnit::Model(v))));
        self.sized_by(model, by_model)
    }
}

/// The common setting every strategy starts from; library-specific options take the
/// library's defaults in [`chunker`] and can be set on each strategy's own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Maximum chunk size, in [`Settings::unit`].
    pub chunk_size: usize,
    /// Overlap between consecutive chunks, in [`Settings::unit`].
    pub chunk_overlap: usize,
    /// The unit of both sizes.
    pub unit: SizeUnit,
    /// The tokenizer: the unit when sizing in tokens, and always the one every chunk's token
    /// count is measured with.
    pub encoding: Encoding,
}

/// The settings most unit tests use: `chunk_size` and `chunk_overlap` in `unit`, cl100k_base.
#[cfg(test)]
pub(crate) fn test_settings(chunk_size: usize, chunk_overlap: usize, unit: SizeUnit) -> Settings {
    Settings {
        chunk_size,
        chunk_overlap,
        unit,
        encoding: Encoding::Cl100kBase,
    }
}

impl Settings {
    /// The length function of [`Settings::unit`].
    pub fn length(&self) -> Length {
        match self.unit {
            SizeUnit::Tokens => Length::Tokens(self.encoding),
            SizeUnit::Characters => Length::Characters,
            SizeUnit::Model(v) => Length::Model(v),
        }
    }
}

/// [`StrategyError::UnitUnsupported`] unless `id` can size chunks in `unit`
/// ([`StrategyId::supports`]); every constructor checks it, so that no strategy runs with a
/// unit it was not made for.
pub(crate) fn check_unit(id: StrategyId, unit: SizeUnit) -> Result<(), StrategyError> {
    if id.supports(unit) {
        Ok(())
    } else {
        Err(StrategyError::UnitUnsupported { strategy: id, unit })
    }
}

/// A Hugging Face tokenizer as a parameter value: `tokenizers.Tokenizer "bert-uncased"`
/// (the vocabulary's code; several models share one).
pub(crate) fn py_hf_tokenizer(vocab: crate::tokenizer::open::OpenVocab) -> String {
    format!("tokenizers.Tokenizer {}", py_str(vocab.code()))
}

/// Why a strategy refused a setting or a text. Each variant carries what the page needs to word
/// it in every language; `Display` is an English sentence for logs and tests.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum StrategyError {
    /// The size and overlap cannot be chunk parameters ([`ParamsError::ZeroChunkSize`](crate::params::ParamsError::ZeroChunkSize): a
    /// `chunk_size` of 0).
    #[error(transparent)]
    Params(#[from] crate::params::ParamsError),
    /// The library itself refuses this overlap (LangChain raises `ValueError` when
    /// `chunk_overlap > chunk_size`).
    #[error("{library} refuses chunk_overlap {chunk_overlap} with chunk_size {chunk_size}")]
    OverlapRefused {
        /// The strategy whose library refuses it.
        strategy: StrategyId,
        /// The library's package name.
        library: &'static str,
        /// The requested size.
        chunk_size: usize,
        /// The requested overlap.
        chunk_overlap: usize,
    },
    /// The strategy cannot size in this unit.
    #[error("{strategy} cannot size chunks in {unit:?}")]
    UnitUnsupported {
        /// The strategy.
        strategy: StrategyId,
        /// The unit asked for.
        unit: SizeUnit,
    },
    /// The library itself raises on this text (e.g. tiktoken's `encode` on a special-token
    /// string such as `<|endoftext|>`, which LangChain's token splitters do not allow).
    #[error("{library} raises on the text at byte {byte_offset}: it contains {found:?}")]
    TextRefused {
        /// The strategy whose library raises.
        strategy: StrategyId,
        /// The library's package name.
        library: &'static str,
        /// Byte offset of the offending string.
        byte_offset: usize,
        /// The offending string.
        found: &'static str,
    },
    /// The library fails on this text: one character is more tokens than the chunk size it
    /// works at (semchunk then recurses without end and Python raises `RecursionError`).
    #[error(
        "{library} fails on the character at byte {byte_offset}: it is {tokens} tokens, over the chunk size {chunk_size}"
    )]
    CharacterOverChunkSize {
        /// The strategy whose library fails.
        strategy: StrategyId,
        /// The library's package name.
        library: &'static str,
        /// Byte offset of the character.
        byte_offset: usize,
        /// Its token count.
        tokens: usize,
        /// The chunk size the library was working at when it met it.
        chunk_size: usize,
    },
    /// The library recurses deeper than Python's recursion limit on this text and raises
    /// `RecursionError` (LlamaIndex's `SentenceSplitter` re-splits a long run of sentence marks
    /// such as `!!!!…` one sentence per level).
    #[error("{library} exceeds Python's recursion limit on the text at byte {byte_offset}")]
    RecursionLimit {
        /// The strategy whose library raises.
        strategy: StrategyId,
        /// The library's package name.
        library: &'static str,
        /// Byte offset of the piece being split when the limit was passed.
        byte_offset: usize,
    },
    /// Chunks are to be sized with an open model's tokenizer whose vocabulary file is not
    /// loaded yet ([`crate::tokenizer::open::OpenTokenizer::install`]).
    #[error("the tokenizer {vocab:?} is not loaded")]
    TokenizerNotLoaded {
        /// The vocabulary needed.
        vocab: crate::tokenizer::open::OpenVocab,
    },
    /// The library would decode the model's token ids back to text here (chonkie's
    /// `RecursiveChunker` cuts a piece longer than `chunk_size` into token windows at its last
    /// level and decodes them), which for an open model's tokenizer is not the document's
    /// text (WordPiece lower-cases it and joins its pieces with spaces); that decoding is not
    /// reproduced.
    #[error("{strategy} decodes the model's tokens back to text at byte {byte_offset}")]
    ModelDecode {
        /// The strategy.
        strategy: StrategyId,
        /// Byte offset of the piece the library would decode.
        byte_offset: usize,
    },
    /// A library-specific parameter is out of the range the library accepts.
    #[error("{strategy}: {parameter} is out of range ({detail})")]
    ParameterRefused {
        /// The strategy.
        strategy: StrategyId,
        /// The library's parameter name.
        parameter: &'static str,
        /// What the library requires, in English.
        detail: &'static str,
    },
    /// The library raises because a node's metadata string is at least `chunk_size` tokens:
    /// LlamaIndex's `SentenceSplitter.split_text_metadata_aware` (`node_parser/text/
    /// sentence.py`) subtracts the metadata's tokens from `chunk_size` and raises
    /// `ValueError("Metadata length (…) is longer than chunk size (…). …")` when nothing
    /// remains (llama_index issues 7980 and 12200); for `llamaindex-markdown` the metadata is
    /// the section's `header_path`, so a deep heading path at a small size does it.
    #[error(
        "{library} raises on the section at byte {byte_offset}: Metadata length ({metadata_length}) is longer than chunk size ({chunk_size})"
    )]
    MetadataOverChunkSize {
        /// The strategy whose library raises.
        strategy: StrategyId,
        /// The library's package name.
        library: &'static str,
        /// Tokens of the node's metadata string.
        metadata_length: usize,
        /// The `chunk_size` set.
        chunk_size: usize,
        /// Byte offset of the node (the markdown section) whose metadata is too long.
        byte_offset: usize,
    },
    /// A semantic strategy cuts by the embeddings of its texts, and not all of them are
    /// held ([`SemanticChunker::embedding_texts`] lists them).
    #[error("{strategy} needs the embeddings of its sentences")]
    EmbeddingsNeeded {
        /// The strategy.
        strategy: StrategyId,
    },
    /// The product's markdown strategy with a heading prefix ([`Structure::heading_prefix`]):
    /// the prefix alone of every chunk under a heading is at least `chunk_size`, so none could
    /// carry it.
    /// (When only some chunks are affected, they are cut without it and flagged instead:
    /// [`ChunkFlags::prefix_over_budget`].)
    #[error(
        "the heading prefix alone is {prefix_length} units (at byte {byte_offset}), at least chunk_size {chunk_size}"
    )]
    PrefixOverBudget {
        /// The shortest prefix over the budget, in the strategy's unit.
        prefix_length: usize,
        /// The `chunk_size` set.
        chunk_size: usize,
        /// Byte offset of the first chunk whose prefix is over the budget.
        byte_offset: usize,
    },
}

/// What the product's markdown strategy puts in a chunk besides the document's text
/// (`heading-prefix` on the page): nothing, the heading path, or the nearest heading.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumIter,
    strum::EnumString,
    serde::Serialize,
    serde::Deserialize,
)]
#[strum(serialize_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum HeadingPrefix {
    /// No prefix (the default).
    #[default]
    Off,
    /// `"<H1> > <H2> > …\n\n"`: every heading the chunk is under.
    Path,
    /// `"<nearest heading>\n\n"`: the last heading of the path only.
    Title,
}

impl HeadingPrefix {
    /// The stable name (`"off"`, `"path"`, `"title"`).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Options of the product's own structure-aware strategy ([`MarkdownStructure`]) that change
/// what a chunk holds; every other strategy ignores them. Both count against the budget.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Structure {
    /// The heading prefix of each chunk (`heading-prefix`); default off.
    #[serde(default)]
    pub heading_prefix: HeadingPrefix,
    /// `fence-repair`: a piece of a code block cut at lines gets its fence closed and re-opened
    /// in its own text, so that each piece is valid markdown; default off (it changes the text,
    /// and [`ChunkFlags::text_changed`] says so).
    #[serde(default)]
    pub fence_repair: bool,
}

/// The thresholds of the semantic strategies a user can try, each the library's own
/// parameter at the library's default. They decide only where the similarity curve is cut:
/// the texts embedded do not depend on them, so a new threshold cuts again from the same
/// embeddings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Breakpoints {
    /// The percentile of the distances between neighbouring windows above which a topic shift
    /// is cut (0–100, default 95): LangChain's `breakpoint_threshold_amount` (its
    /// `percentile` type), LlamaIndex's `breakpoint_percentile_threshold`, and the product's
    /// own.
    pub percentile: f64,
    /// chonkie's `threshold` (0–1 exclusive, default 0.8): the quantile of the similarity
    /// minima at or under which chonkie cuts.
    pub chonkie_threshold: f64,
}

impl Breakpoints {
    /// Whether each threshold is one its strategies take: the percentile within 0–100 (NumPy's
    /// `percentile` raises outside it) and chonkie's threshold strictly between 0 and 1
    /// (chonkie's own check); the strategies refuse the others
    /// ([`StrategyError::ParameterRefused`]).
    pub fn in_range(&self) -> [bool; 2] {
        [
            (0.0..=100.0).contains(&self.percentile),
            self.chonkie_threshold > 0.0 && self.chonkie_threshold < 1.0,
        ]
    }
}

impl Default for Breakpoints {
    fn default() -> Self {
        Breakpoints {
            percentile: 95.0,
            chonkie_threshold: 0.8,
        }
    }
}

/// Why a chunk ends where it does: the structure level of the cut, the size limit when no
/// structure fitted, or the end of the text.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumIter,
    serde::Serialize,
    serde::Deserialize,
)]
#[strum(serialize_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum Boundary {
    /// At a section boundary (a markdown heading).
    Section,
    /// Where the embeddings of neighbouring sentences move apart (a semantic strategy's
    /// topic shift).
    TopicShift,
    /// At a paragraph break (a blank line).
    Paragraph,
    /// At a line break.
    Line,
    /// At a line break inside a fenced code block too long for one chunk: the chunk is one
    /// piece of the block, cut between two lines of code ([`Piece::code_info`] holds the
    /// fence's info string).
    CodeBlockPart,
    /// At a sentence end.
    Sentence,
    /// At a clause mark inside a sentence (`,` `;` `:` …).
    Clause,
    /// Between words (whitespace).
    Word,
    /// Between two characters, no structure fitting.
    Character,
    /// At a token boundary because the size limit was reached (fixed windows; any cut below
    /// the character level).
    SizeLimit,
    /// The text ends here.
    EndOfText,
}

impl Boundary {
    /// The stable name used in `data-reason` and exports, e.g. `"paragraph"`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One chunk as a strategy cut it, before measuring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Byte range `[start, end)` in the document that the chunk comes from. On char
    /// boundaries unless `text` is `Some` (a token window may end inside a character).
    pub bytes: Range<usize>,
    /// The chunk's own text when the strategy changes it (a joined separator, a heading-path
    /// prefix, U+FFFD for a cut character…); `None` when it is exactly `&document[bytes]`.
    pub text: Option<String>,
    /// Why the chunk ends here.
    pub reason: Boundary,
    /// The markdown headings the chunk is under, outermost first (`["Setup", "Linux"]`).
    pub heading_path: Vec<String>,
    /// True when a heading-path prefix alone would not fit the budget and was left out.
    pub prefix_over_budget: bool,
    /// The info string of the fenced code block the chunk is a piece of (`"rust"`; empty for a
    /// fence without one), when the chunk starts or ends inside the block's code; `None`
    /// otherwise. Set by the product's `recursive`, `sentence` and `markdown`.
    pub code_info: Option<String>,
}

impl Piece {
    /// A piece that is exactly `&document[bytes]`, with no heading path.
    pub fn slice(bytes: Range<usize>, reason: Boundary) -> Self {
        Piece {
            bytes,
            text: None,
            reason,
            heading_path: Vec::new(),
            prefix_over_budget: false,
            code_info: None,
        }
    }
}

/// A chunking strategy with all its parameters. One implementation per file in this module.
pub trait Chunker {
    /// The strategy's stable id.
    fn id(&self) -> StrategyId;

    /// The size each chunk is packed to and the length function it is measured with (a chunk
    /// longer than this is flagged oversize).
    fn budget(&self) -> (usize, Length);

    /// Cuts `text` into pieces, in document order.
    ///
    /// # Errors
    /// A [`StrategyError`] when the setting or the text is refused (the library's own
    /// refusals included); nothing is computed then.
    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError>;

    /// What this strategy, as configured, keeps of the document (default: its id's statement,
    /// [`StrategyId::keeps`]; an option such as a heading-path prefix can change it).
    fn keeps(&self) -> Keeps {
        self.id().keeps()
    }

    /// The library's own parameters as this strategy runs them, by the library's names, each
    /// value written as a Python (or, for text-splitter, Rust) literal: what the page lists
    /// beside the chunks. Default: none (the product's own strategies).
    fn parameters(&self) -> Vec<Parameter> {
        Vec::new()
    }

    /// True when the requested overlap was ≥ `chunk_size` and this strategy lowered it to
    /// `chunk_size − 1` ([`crate::params::ChunkParams`]); the page must say so. Library
    /// strategies never clamp: they refuse what their library refuses.
    fn overlap_clamped(&self) -> bool {
        false
    }

    /// True when an overlap above 0 was asked for and the library has no overlap parameter, so
    /// the chunks are the library's without one (chonkie's `RecursiveChunker`); the page must
    /// say so beside them.
    fn overlap_ignored(&self) -> bool {
        false
    }
}

/// One library parameter: its name in the library and its value as a literal of the library's
/// language (`("separators", "[\"\\n\\n\", \"\\n\", \" \", \"\"]")`).
pub type Parameter = (&'static str, String);

/// `s` as a Python string literal in double quotes (`\n`, `\r`, `\t`, `\\`, `\"` escaped,
/// other control characters as `\xNN` / `\uNNNN`); also a valid Rust literal for these.
pub fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A list of strings as a Python list literal.
pub(crate) fn py_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| py_str(s)).collect();
    format!("[{}]", parts.join(", "))
}

/// A tiktoken encoding as a parameter value: `tiktoken "cl100k_base"`.
pub(crate) fn py_tiktoken(encoding: Encoding) -> String {
    format!("tiktoken {}", py_str(encoding.name()))
}

/// Python's `True` / `False`.
pub(crate) fn py_bool(b: bool) -> String {
    if b { "True" } else { "False" }.to_owned()
}

/// Flags of one measured chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChunkFlags {
    /// Longer than the strategy's budget in its own unit ([`Chunker::budget`]).
    pub oversize: bool,
    /// A heading-path prefix was over the budget and left out ([`Piece::prefix_over_budget`]).
    pub prefix_over_budget: bool,
    /// The chunk's text is empty or whitespace only.
    pub whitespace_only: bool,
    /// The chunk's text is not `&document[bytes]` ([`Chunk::text`] is `Some`).
    pub text_changed: bool,
}

/// One measured chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Byte range `[start, end)` in the document (see [`Piece::bytes`]).
    pub bytes: Range<usize>,
    /// The chunk's own text when it differs from `&document[bytes]` (see [`Piece::text`]).
    pub text: Option<String>,
    /// Tokens of exactly the chunk's text, by encoding it with [`Chunks::encoding`].
    pub tokens: usize,
    /// The chunk's range in the whole document's tokens `[first, last)`, when its bytes start
    /// and end on document token boundaries and its text is unchanged; `None` otherwise.
    pub token_range: Option<Range<usize>>,
    /// The chunk's length in the strategy's own unit ([`Chunker::budget`]).
    pub length: usize,
    /// Headings the chunk is under, outermost first.
    pub heading_path: Vec<String>,
    /// The info string of the fenced code block the chunk is a piece of ([`Piece::code_info`]).
    pub code_info: Option<String>,
    /// Why the chunk ends here.
    pub reason: Boundary,
    /// Flags.
    pub flags: ChunkFlags,
}

impl Chunk {
    /// The chunk's text: its own when changed, else the document slice. `document` must be the
    /// text the chunk was cut from; a range that does not fit it gives an empty string.
    pub fn text<'a>(&'a self, document: &'a str) -> Cow<'a, str> {
        match &self.text {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Borrowed(document.get(self.bytes.clone()).unwrap_or("")),
        }
    }
}

/// What [`run`] returns: the measured chunks of one strategy on one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// The strategy.
    pub strategy: StrategyId,
    /// The chunks, in document order.
    pub chunks: Vec<Chunk>,
    /// The encoding every `tokens` figure is measured with.
    pub encoding: Encoding,
    /// Tokens of the whole document (not a sum of chunk counts).
    pub document_tokens: usize,
    /// The budget and its length function ([`Chunker::budget`]).
    pub budget: (usize, Length),
    /// What the chunks keep of the document ([`Chunker::keeps`]).
    pub keeps: Keeps,
    /// The requested overlap was lowered below the size ([`Chunker::overlap_clamped`]).
    pub overlap_clamped: bool,
    /// The requested overlap was ignored: the library has none ([`Chunker::overlap_ignored`]).
    pub overlap_ignored: bool,
}

impl Chunks {
    /// Tokens embedded: the sum of every chunk's own token count.
    pub fn total_tokens(&self) -> usize {
        self.chunks.iter().map(|c| c.tokens).sum()
    }
}

#[cfg(feature = "strategies")]
/// A document prepared once for any number of strategy runs and summaries on it: the text, its
/// tokens in one encoding with the split-step index that makes any slice's token count cost
/// only its edges, and (on first use) its sentences. Build one per text and encoding, then call
/// [`run_prepared`] and [`crate::analysis::compare::summary_prepared`] once per strategy: the
/// whole text is encoded once instead of once per strategy, and every chunk, repeat and
/// candidate a strategy measures (a `&str` slice of the text) is counted from the shared tokens,
/// exactly as encoding it alone would count it.
///
/// Memory: the token ids and byte offsets plus three offsets per split piece, about 20 bytes
/// per token in wasm32 and twice that natively (10 MB of mixed text, 3 million tokens: about
/// 60 MB in wasm32), plus a bounded cache of piece counts while a run uses it.
///
/// A `Document` is tied to one encoding: a strategy run with [`run_prepared`] is measured in
/// [`Document::encoding`], so make one per encoding the user picks.
///
/// ```
/// use chunk_core::analysis::{summary_prepared, LimitCheck};
/// use chunk_core::strategy::{chunker, run_prepared, Document, Settings, SizeUnit, StrategyId};
/// use chunk_core::tokenizer::Encoding;
///
/// let text = "# Notes\n\nCats sleep a lot. Dogs bark at night.\n\nBirds sing.";
/// let encoding = Encoding::Cl100kBase;
/// let settings = Settings { chunk_size: 8, chunk_overlap: 2, unit: SizeUnit::Tokens, encoding };
/// let document = Document::new(text, settings.encoding); // the one full encode
/// for id in StrategyId::all() {
///     let row = chunker(id, &settings)
///         .and_then(|c| run_prepared(c.as_ref(), &document))
///         .map(|chunks| summary_prepared(&document, &chunks, &LimitCheck::within(8191), 0.02));
///     match row {
///         Ok(s) => assert_eq!(s.document_tokens, document.tokens()),
///         Err(refused) => println!("{id}: {refused}"), // e.g. no chunk_overlap
///     }
/// }
/// ```
pub struct Document<'t> {
    text: &'t str,
    encoding: Encoding,
    index: Arc<TokenIndex>,
    sentences: OnceLock<Vec<(usize, usize)>>,
    sentence_spans: SentenceCache,
    outline: OnceLock<crate::segment::markdown::Outline>,
}

/// What [`Document::activate`] makes current on the thread while it lives.
pub(crate) struct Current<'t> {
    _tokens: Active<'t>,
    _sentences: CurrentSentences<'t>,
}

#[cfg(feature = "strategies")]
impl<'t> Document<'t> {
    /// Tokenizes `text` with `encoding` (one full encode: about 55 ms per MB natively).
    pub fn new(text: &'t str, encoding: Encoding) -> Self {
        Document {
            text,
            encoding,
            index: Arc::new(TokenIndex::new(encoding.tokenizer(), text)),
            sentences: OnceLock::new(),
            sentence_spans: SentenceCache::default(),
            outline: OnceLock::new(),
        }
    }

    /// The text.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The encoding of [`Document::encoded`].
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The whole text's tokens, `encoding().tokenizer().encode(text())`.
    pub fn encoded(&self) -> &Encoded {
        self.index.encoded()
    }

    /// Tokens of the whole text.
    pub fn tokens(&self) -> usize {
        self.index.encoded().len()
    }

    /// Tokens of `&text()[bytes]`, exactly `encoding().tokenizer().count(&text()[bytes])`, from
    /// the shared tokens: the cost is that of the range's first and last few split pieces.
    /// A range that is not on char boundaries is counted as its bytes decoded with U+FFFD for
    /// each cut character (tiktoken's `decode`), by a full encode of that text.
    ///
    /// # Panics
    /// If `bytes` is not inside the text.
    pub fn count(&self, bytes: Range<usize>) -> usize {
        let bpe = self.encoding.tokenizer();
        match self.text.get(bytes.clone()) {
            Some(slice) => self.index.count(bpe.ranks(), slice, bytes.start),
            None => bpe.count(&String::from_utf8_lossy(&self.text.as_bytes()[bytes])),
        }
    }

    /// Makes this document the one the current thread's tokenizer consults while the guard
    /// lives (see `tokenizer::indexed`), and the text whose sentence spans are computed once
    /// ([`crate::segment::sentences::sentence_bytes`]).
    pub(crate) fn activate(&self) -> Current<'t> {
        Current {
            _tokens: Active::new(&self.index, self.text),
            _sentences: CurrentSentences::new(&self.sentence_spans, self.text),
        }
    }

    /// The text's code blocks and headings for the structure report, parsed on first use.
    pub(crate) fn outline(&self) -> &crate::segment::markdown::Outline {
        self.outline
            .get_or_init(|| crate::segment::markdown::Outline::new(self.text))
    }

    /// The text's sentences without surrounding whitespace, computed on first use
    /// ([`crate::analysis::compare`]).
    pub(crate) fn trimmed_sentences(&self) -> &[(usize, usize)] {
        self.sentences.get_or_init(|| {
            let _current = self.activate();
            crate::segment::sentences::trimmed_sentences(self.text)
        })
    }
}

#[cfg(feature = "strategies")]
/// Runs `chunker` on `text` and measures every chunk with `encoding`: [`run_prepared`] on a
/// [`Document`] made for this one run.
///
/// # Errors
/// Whatever [`Chunker::split`] refuses.
pub fn run(chunker: &dyn Chunker, text: &str, encoding: Encoding) -> Result<Chunks, StrategyError> {
    run_prepared(chunker, &Document::new(text, encoding))
}

#[cfg(feature = "strategies")]
/// Runs `chunker` on the prepared `document` and measures every chunk with the document's
/// encoding: each chunk's token count is that of exactly the text shown (counted from the
/// document's tokens when the text is the document slice), its token range in the document's
/// tokens where its bytes start and end on token boundaries. While the strategy cuts, every
/// token count it asks of a slice of the document is served from the document's tokens (the
/// same numbers, see [`Document`]). The result equals [`run`]`(chunker, document.text(),
/// document.encoding())`.
///
/// # Errors
/// Whatever [`Chunker::split`] refuses.
pub fn run_prepared(chunker: &dyn Chunker, document: &Document) -> Result<Chunks, StrategyError> {
    let _active = document.activate();
    let pieces = chunker.split(document.text)?;
    Ok(measure(chunker, document, pieces))
}

#[cfg(feature = "strategies")]
/// The chunks of `pieces`, which `chunker` cut from `document`'s text, each measured in the
/// document's encoding (the second half of [`run_prepared`]; the caller has the document
/// active).
pub(crate) fn measure(chunker: &dyn Chunker, document: &Document, pieces: Vec<Piece>) -> Chunks {
    let (text, encoding) = (document.text, document.encoding);
    let bpe = encoding.tokenizer();
    let offsets = &document.encoded().offsets;
    let budget = chunker.budget();
    let token_at = |byte: usize| offsets.binary_search(&byte).ok();
    let chunks = pieces
        .into_iter()
        .map(|p| {
            let own: &str = match &p.text {
                Some(t) => t,
                None => text.get(p.bytes.clone()).unwrap_or(""),
            };
            let tokens = bpe.count(own);
            // Sized in the same encoding: the length is that count (no second encode).
            let length = if budget.1 == Length::Tokens(encoding) {
                tokens
            } else {
                budget.1.count(own)
            };
            let token_range = match (&p.text, token_at(p.bytes.start), token_at(p.bytes.end)) {
                (None, Some(a), Some(b)) => Some(a..b),
                _ => None,
            };
            let flags = ChunkFlags {
                oversize: length > budget.0,
                prefix_over_budget: p.prefix_over_budget,
                whitespace_only: own.trim().is_empty(),
                text_changed: p.text.is_some(),
            };
            Chunk {
                bytes: p.bytes,
                tokens,
                token_range,
                length,
                text: p.text,
                heading_path: p.heading_path,
                code_info: p.code_info,
                reason: p.reason,
                flags,
            }
        })
        .collect();
    Chunks {
        strategy: chunker.id(),
        chunks,
        encoding,
        document_tokens: offsets.len() - 1,
        budget,
        keeps: chunker.keeps(),
        overlap_clamped: chunker.overlap_clamped(),
        overlap_ignored: chunker.overlap_ignored(),
    }
}

#[cfg(feature = "strategies")]
/// The strategy `id` with `settings` and every other parameter at the library's (or the
/// product's) default.
///
/// # Errors
/// [`StrategyError::Params`], [`StrategyError::UnitUnsupported`],
/// [`StrategyError::TokenizerNotLoaded`] (sized in a model's tokens before its tokenizer is
/// installed), or the library's own refusal of the setting ([`StrategyError::OverlapRefused`]
/// …).
pub fn chunker(id: StrategyId, settings: &Settings) -> Result<Box<dyn Chunker>, StrategyError> {
    chunker_with(id, settings, Structure::default())
}

#[cfg(feature = "strategies")]
/// A marker string in every wasm module that links the strategies ([`chunker`] keeps it): the
/// first-paint guard (`scripts/check-page-wasm.py`) fails the page's module if it holds it.
pub static STRATEGIES_MARKER: &str = "chunk-core:strategies-linked";

#[cfg(feature = "strategies")]
/// [`chunker`] with the [`Structure`] options, which only [`StrategyId::Markdown`] reads.
///
/// # Errors
/// As [`chunker`].
pub fn chunker_with(
    id: StrategyId,
    settings: &Settings,
    structure: Structure,
) -> Result<Box<dyn Chunker>, StrategyError> {
    // Keeps the marker in every module that links the strategies (the first-paint guard).
    std::hint::black_box(STRATEGIES_MARKER);
    if settings.chunk_size == 0 {
        return Err(StrategyError::Params(
            crate::params::ParamsError::ZeroChunkSize,
        ));
    }
    if !id.supports(settings.unit) {
        return Err(StrategyError::UnitUnsupported {
            strategy: id,
            unit: settings.unit,
        });
    }
    if let SizeUnit::Model(vocab) = settings.unit {
        if vocab.loaded().is_none() {
            return Err(StrategyError::TokenizerNotLoaded { vocab });
        }
    }
    Ok(match id {
        StrategyId::Fixed => Box::new(FixedWindows::new(settings)?),
        StrategyId::Sentence => Box::new(SentencePacking::new(settings)?),
        StrategyId::LangchainToken => Box::new(LangchainTokenTextSplitter::new(settings)?),
        StrategyId::LangchainRecursive => {
            Box::new(LangchainRecursiveCharacterTextSplitter::new(settings)?)
        }
        StrategyId::LangchainMarkdown => {
            Box::new(LangchainMarkdownHeaderTextSplitter::new(settings)?)
        }
        StrategyId::LangchainMarkdownLanguage => {
            Box::new(LangchainMarkdownLanguageSplitter::new(settings)?)
        }
        StrategyId::TextSplitter => Box::new(TextSplitterTextSplitter::new(settings)?),
        StrategyId::TextSplitterMarkdown => Box::new(TextSplitterMarkdownSplitter::new(settings)?),
        StrategyId::Semchunk => Box::new(Semchunk::new(settings)?),
        StrategyId::ChonkieRecursive => Box::new(ChonkieRecursiveChunker::new(settings)?),
        StrategyId::ChonkieToken => Box::new(ChonkieTokenChunker::new(settings)?),
        StrategyId::LlamaindexToken => Box::new(LlamaindexTokenTextSplitter::new(settings)?),
        StrategyId::LlamaindexSentence => Box::new(LlamaindexSentenceSplitter::new(settings)?),
        StrategyId::LlamaindexMarkdown => Box::new(LlamaindexMarkdownNodeParser::new(settings)?),
        StrategyId::Recursive => Box::new(Recursive::new(settings)?),
        StrategyId::Markdown => Box::new(MarkdownStructure {
            heading_prefix: structure.heading_prefix,
            fence_repair: structure.fence_repair,
            ..MarkdownStructure::new(settings)?
        }),
        StrategyId::SectionBudget => Box::new(SectionBudget::new(settings)?),
        StrategyId::ChonkieSemantic
        | StrategyId::LangchainSemantic
        | StrategyId::LlamaindexSemantic
        | StrategyId::Semantic => {
            Box::new(SemanticChunker::new(id, settings).expect("a semantic strategy id")?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_unit_codes_are_the_serde_names_and_parse_back() {
        use crate::tokenizer::open::OpenVocab;
        for (unit, code) in [
            (SizeUnit::Tokens, "tokens"),
            (SizeUnit::Characters, "characters"),
            (SizeUnit::Model(OpenVocab::BertUncased), "model"),
        ] {
            assert_eq!(unit.code(), code);
            let json = serde_json::to_value(unit).unwrap();
            let serde_name = json
                .as_str()
                .map(str::to_owned)
                .or_else(|| json.as_object().and_then(|o| o.keys().next().cloned()));
            assert_eq!(serde_name.as_deref(), Some(code));
        }
        assert_eq!("tokens".parse::<SizeUnit>(), Ok(SizeUnit::Tokens));
        assert_eq!("characters".parse::<SizeUnit>(), Ok(SizeUnit::Characters));
        assert_eq!(
            "model".parse::<SizeUnit>(),
            Err(strum::ParseError::VariantNotFound)
        );
        assert!("Tokens".parse::<SizeUnit>().is_err());
    }

    #[test]
    fn library_labels_are_the_usual_names() {
        let label = |id: StrategyId| id.library().map(|l| l.label());
        assert_eq!(label(StrategyId::LangchainRecursive), Some("LangChain"));
        assert_eq!(label(StrategyId::LlamaindexSentence), Some("LlamaIndex"));
        assert_eq!(
            label(StrategyId::TextSplitterMarkdown),
            Some("text-splitter")
        );
        assert_eq!(label(StrategyId::Semchunk), Some("semchunk"));
        assert_eq!(label(StrategyId::ChonkieToken), Some("chonkie"));
        assert_eq!(label(StrategyId::SectionBudget), None);
    }

    #[test]
    fn ids_round_trip_and_are_the_issue_names() {
        let ids: Vec<&str> = StrategyId::all().map(StrategyId::as_str).collect();
        assert_eq!(
            ids,
            [
                "fixed",
                "sentence",
                "langchain-token",
                "langchain-recursive",
                "langchain-markdown",
                "langchain-markdown-language",
                "text-splitter",
                "text-splitter-markdown",
                "semchunk",
                "chonkie-recursive",
                "chonkie-token",
                "llamaindex-token",
                "llamaindex-sentence",
                "llamaindex-markdown",
                "recursive",
                "markdown",
                "section-budget"
            ]
        );
        for id in StrategyId::all() {
            assert_eq!(id.as_str().parse::<StrategyId>(), Ok(id));
        }
        assert!("nope".parse::<StrategyId>().is_err());
    }

    /// Sized in a model's own tokens: which strategies can, the unit the page's choice
    /// gives, the refusals, and a chunk list measured in the model's tokens.
    #[test]
    fn model_tokens_size_the_strategies_that_take_a_length_function() {
        use crate::tokenizer::open::OpenVocab;
        let bert = SizeUnit::Model(OpenVocab::BertUncased);
        let sizers: Vec<StrategyId> = StrategyId::all().filter(|s| s.supports(bert)).collect();
        assert_eq!(
            sizers.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            [
                "langchain-recursive",
                "langchain-markdown",
                "langchain-markdown-language",
                "text-splitter",
                "text-splitter-markdown",
                "semchunk",
                "chonkie-recursive",
                "llamaindex-token",
                "llamaindex-sentence",
                "llamaindex-markdown"
            ]
        );
        // The page's choice: tokens of an open model only when it sizes by the model.
        let v = Some(OpenVocab::BertUncased);
        assert_eq!(SizeUnit::Tokens.sized_by(v, true), bert);
        assert_eq!(SizeUnit::Tokens.sized_by(v, false), SizeUnit::Tokens);
        assert_eq!(SizeUnit::Tokens.sized_by(None, true), SizeUnit::Tokens);
        // By default the model's tokens exactly where the chosen strategy can size in them.
        let auto = |s| SizeUnit::Tokens.sized_for(v, None, s);
        assert_eq!(auto(StrategyId::LangchainRecursive), bert);
        assert_eq!(auto(StrategyId::Fixed), SizeUnit::Tokens);
        assert_eq!(
            SizeUnit::Tokens.sized_for(v, Some(true), StrategyId::Fixed),
            bert,
            "the user's choice stands, and the strategy says it cannot"
        );
        assert_eq!(
            SizeUnit::Tokens.sized_for(v, Some(false), StrategyId::Semchunk),
            SizeUnit::Tokens
        );
        assert_eq!(
            SizeUnit::Characters.sized_for(v, None, StrategyId::Semchunk),
            SizeUnit::Characters
        );
        assert_eq!(SizeUnit::Characters.sized_by(v, true), SizeUnit::Characters);
        assert_eq!(
            serde_json::to_string(&bert).unwrap(),
            r#"{"model":"bert-uncased"}"#
        );
        let s = |unit| test_settings(24, 0, unit);
        // Every constructor refuses a unit its strategy cannot size in, not only `chunker`.
        assert_eq!(
            FixedWindows::new(&s(bert)).unwrap_err(),
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Fixed,
                unit: bert
            }
        );
        assert!(Recursive::new(&s(bert)).is_err());
        assert!(ChonkieTokenChunker::new(&s(bert)).is_err());
        // (A vocabulary not installed: `tests/model_not_loaded.rs`, a process of its own.)
        // Installed, each chunk is at most 24 of the model's tokens, while its `tokens` stay
        // cl100k_base's.
        let t = crate::tokenizer::open::install_bert_for_tests();
        let text = "Unaffable CAFÉ owners, naïvely: [CLS] tokens stay whole. ".repeat(10);
        for id in sizers {
            let c = chunker(id, &s(bert)).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(
                c.budget(),
                (24, Length::Model(OpenVocab::BertUncased)),
                "{id}"
            );
            let chunks = run(c.as_ref(), &text, Encoding::Cl100kBase)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(chunks.chunks.len() >= 5, "{id}: {}", chunks.chunks.len());
            // The budget holds in the model's tokens: at most 24 WordPiece tokens each, counted
            // here with the tokenizer itself.
            for ch in &chunks.chunks {
                let own = ch.text(&text);
                assert!(t.count(&own) <= 24 && !ch.flags.oversize, "{id}: {own:?}");
            }
        }
        assert_eq!(
            t.count("[CLS]"),
            1,
            "a special token in the text is one token"
        );
    }

    /// chonkie's RecursiveChunker decodes token windows at its last level: sized in a model's
    /// tokens, a sentence longer than the size is refused there, in words, not cut otherwise.
    #[test]
    fn chonkie_recursive_in_model_tokens_refuses_where_it_would_decode() {
        use crate::tokenizer::open::OpenVocab;
        crate::tokenizer::open::install_bert_for_tests();
        let s = test_settings(6, 0, SizeUnit::Model(OpenVocab::BertUncased));
        let c = chunker(StrategyId::ChonkieRecursive, &s).expect("accepted");
        let short = "One two.\n\nThree four.";
        assert!(run(c.as_ref(), short, Encoding::Cl100kBase).is_ok());
        // chonkie joins pieces under 24 bytes to the next: the introduction is 28 bytes.
        let long = "An introduction line here.\n\nThis one sentence runs on well past six tokens.";
        assert_eq!(
            run(c.as_ref(), long, Encoding::Cl100kBase).unwrap_err(),
            StrategyError::ModelDecode {
                strategy: StrategyId::ChonkieRecursive,
                byte_offset: 28
            }
        );
    }
}
