//! Each library's own defaults for `chunk_size`, `chunk_overlap` and the length unit, as its
//! constructor has them (the page offers them when a library strategy is chosen).

use super::{SizeUnit, StrategyId};

/// A library's default size setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibraryDefaults {
    /// Default `chunk_size`, in `unit`.
    pub chunk_size: usize,
    /// Default `chunk_overlap`, in `unit`.
    pub chunk_overlap: usize,
    /// The unit the library measures in by default.
    pub unit: SizeUnit,
}

impl StrategyId {
    /// The library's defaults for this strategy; `None` for the product's own strategies and
    /// for libraries whose size parameter has no default (text-splitter's `ChunkConfig::new`,
    /// `semchunk.chunkerify`). Sources: langchain-text-splitters `TextSplitter.__init__`
    /// (4000 / 200, `len`); llama-index-core `SentenceSplitter` (`DEFAULT_CHUNK_SIZE` 1024,
    /// `SENTENCE_CHUNK_OVERLAP` 200; also the markdown chain's, whose `MarkdownNodeParser` has
    /// no size) and `TokenTextSplitter` (1024, `DEFAULT_CHUNK_OVERLAP`
    /// 20), in tokens; chonkie `RecursiveChunker` / `TokenChunker` (2048, overlap 0,
    /// tokenizer `"character"`).
    pub fn library_defaults(self) -> Option<LibraryDefaults> {
        let d = |chunk_size, chunk_overlap, unit| {
            Some(LibraryDefaults {
                chunk_size,
                chunk_overlap,
                unit,
            })
        };
        match self {
            StrategyId::LangchainRecursive
            | StrategyId::LangchainMarkdown
            | StrategyId::LangchainMarkdownLanguage => d(4000, 200, SizeUnit::Characters),
            // TokenTextSplitter inherits TextSplitter's defaults and counts in tokens.
            StrategyId::LangchainToken => d(4000, 200, SizeUnit::Tokens),
            // MarkdownNodeParser has no size: the chain's sizes are its SentenceSplitter's.
            StrategyId::LlamaindexSentence | StrategyId::LlamaindexMarkdown => {
                d(1024, 200, SizeUnit::Tokens)
            }
            StrategyId::LlamaindexToken => d(1024, 20, SizeUnit::Tokens),
            StrategyId::ChonkieRecursive | StrategyId::ChonkieToken => {
                d(2048, 0, SizeUnit::Characters)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{chunker, Settings};
    use crate::tokenizer::Encoding;

    #[test]
    fn library_strategies_list_their_own_parameters_with_the_setting_in_them() {
        let s = Settings {
            chunk_size: 300,
            chunk_overlap: 30,
            unit: SizeUnit::Characters,
            encoding: Encoding::O200kBase,
        };
        let params = |id: StrategyId| chunker(id, &s).map(|c| c.parameters()).unwrap_or_default();
        let recursive = params(StrategyId::LangchainRecursive);
        assert!(recursive.contains(&("separators", r#"["\n\n", "\n", " ", ""]"#.to_owned())));
        assert!(recursive.contains(&("keep_separator", "True".to_owned())));
        assert!(recursive.contains(&("length_function", "len".to_owned())));
        assert!(recursive.contains(&("chunk_size", "300".to_owned())));
        let ts = params(StrategyId::TextSplitter);
        assert_eq!(ts[0], ("capacity", "300".to_owned()));
        assert!(ts.contains(&("sizer", "Characters".to_owned())));
        for id in StrategyId::all() {
            let p = params(id);
            assert_eq!(
                p.is_empty(),
                id.library().is_none() || !id.supports(s.unit) || chunker(id, &s).is_err(),
                "{id}: {p:?}"
            );
        }
        let tokens = Settings {
            unit: SizeUnit::Tokens,
            chunk_overlap: 0,
            ..s
        };
        let sentence = chunker(StrategyId::LlamaindexSentence, &tokens)
            .unwrap()
            .parameters();
        assert!(sentence.contains(&("paragraph_separator", r#""\n\n\n""#.to_owned())));
        assert!(sentence.contains(&("tokenizer", r#"tiktoken "o200k_base""#.to_owned())));
    }

    #[test]
    fn python_literals_escape_what_python_escapes() {
        use crate::strategy::py_str;
        assert_eq!(py_str("a\"b\\c\n\r\t"), r#""a\"b\\c\n\r\t""#);
        assert_eq!(py_str("\u{0}\u{1f}\u{85}é"), r#""\x00\x1f\u0085é""#);
    }

    #[test]
    fn every_library_default_is_a_setting_its_strategy_accepts() {
        let mut with = 0;
        for id in StrategyId::all() {
            let Some(d) = id.library_defaults() else {
                continue;
            };
            with += 1;
            assert!(id.library().is_some(), "{id} has defaults but no library");
            assert!(
                id.supports(d.unit),
                "{id} cannot size in its own default unit"
            );
            let s = Settings {
                chunk_size: d.chunk_size,
                chunk_overlap: d.chunk_overlap,
                unit: d.unit,
                encoding: Encoding::Cl100kBase,
            };
            assert!(
                chunker(id, &s).is_ok(),
                "{id} refuses its library's defaults"
            );
        }
        assert_eq!(with, 9);
        assert_eq!(
            StrategyId::LlamaindexSentence.library_defaults(),
            Some(LibraryDefaults {
                chunk_size: 1024,
                chunk_overlap: 200,
                unit: SizeUnit::Tokens
            })
        );
    }
}
