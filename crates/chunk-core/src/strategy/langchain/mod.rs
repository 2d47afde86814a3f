//! LangChain's splitters (`langchain-text-splitters` 1.1.3, the PyPI package), reproduced chunk
//! for chunk:
//! - `TokenTextSplitter` (`base.py`), token windows: [`LangchainTokenTextSplitter`];
//! - `RecursiveCharacterTextSplitter` (`character.py`, merging by `TextSplitter._merge_splits`
//!   in `base.py`), sized by `len` or, as `from_tiktoken_encoder` builds it, by tiktoken
//!   tokens: [`LangchainRecursiveCharacterTextSplitter`];
//! - `MarkdownHeaderTextSplitter` (`markdown.py`), then the recursive splitter's
//!   `split_documents` on its sections: [`LangchainMarkdownHeaderTextSplitter`];
//! - `RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN)` (`character.py`), the
//!   recursive splitter with markdown's regex separators ([`Separator`]):
//!   [`LangchainMarkdownLanguageSplitter`].
//!
//! tiktoken's `encode`, as LangChain calls it (`allowed_special=set()`,
//! `disallowed_special="all"`), raises on any special-token string of the encoding; the
//! splitters here return [`StrategyError::TextRefused`] wherever the library measures such a
//! string.

mod markdown;

mod recursive;

mod separator;

pub use separator::{RuleMark, Separator};

use super::fixed::window_pieces;
use super::{Boundary, Chunker, Piece, Settings, SizeUnit, StrategyError, StrategyId};
use crate::strategy::length::Length;
use crate::strategy::{py_bool, py_list, py_str, Parameter};
use crate::tokenizer::{find_special_tokens_of, special_tokens_of, Encoding};
use recursive::{Cut, Measure, Params, Raised, Source};

const PACKAGE: &str = "langchain-text-splitters";

/// `TextSplitter.__init__`'s checks (`base.py`): `chunk_size > 0`, `chunk_overlap <=
/// chunk_size` (a negative overlap cannot be written in `usize`).
fn check_sizes(
    strategy: StrategyId,
    chunk_size: usize,
    chunk_overlap: usize,
) -> Result<(), StrategyError> {
    if chunk_size == 0 {
        return Err(StrategyError::Params(
            crate::params::ParamsError::ZeroChunkSize,
        ));
    }
    if chunk_overlap > chunk_size {
        return Err(StrategyError::OverlapRefused {
            strategy,
            library: PACKAGE,
            chunk_size,
            chunk_overlap,
        });
    }
    Ok(())
}

/// Marks the last piece as the end of the text.
fn end_last(mut pieces: Vec<Piece>) -> Vec<Piece> {
    if let Some(last) = pieces.last_mut() {
        last.reason = Boundary::EndOfText;
    }
    pieces
}

/// LangChain `TokenTextSplitter(encoding_name=…, chunk_size=…, chunk_overlap=…)`
/// (langchain-text-splitters 1.1.3, `base.py`: `TokenTextSplitter.split_text`,
/// `split_text_on_tokens`), in tokens only.
///
/// The whole text is encoded once; windows of `chunk_size` tokens start every `chunk_size −
/// chunk_overlap` tokens, the last one ending at the last token; each window is decoded with
/// tiktoken's `decode` (UTF-8 with `errors="replace"`: a window that cuts a character shows
/// U+FFFD for each cut part, as [`String::from_utf8_lossy`] does).
///
/// Errors: [`StrategyError::Params`] for `chunk_size` 0; [`StrategyError::OverlapRefused`]
/// when `chunk_overlap > chunk_size` (`TextSplitter.__init__` raises) or `== chunk_size`
/// (`split_text_on_tokens` raises "tokens_per_chunk must be greater than chunk_overlap");
/// [`StrategyError::TextRefused`] when the text holds a special-token string of the encoding
/// (tiktoken's `encode` raises).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LangchainTokenTextSplitter {
    /// `encoding_name`: the tiktoken encoding.
    pub encoding_name: Encoding,
    /// `chunk_size`: tokens per window (LangChain's default 4000).
    pub chunk_size: usize,
    /// `chunk_overlap`: tokens shared by consecutive windows (LangChain's default 200).
    pub chunk_overlap: usize,
}

impl LangchainTokenTextSplitter {
    /// The splitter with `settings`' size, overlap and encoding.
    ///
    /// # Errors
    /// [`StrategyError::UnitUnsupported`] for characters, and the library's refusals of the
    /// sizes (see the type).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        if settings.unit != SizeUnit::Tokens {
            return Err(StrategyError::UnitUnsupported {
                strategy: StrategyId::LangchainToken,
                unit: settings.unit,
            });
        }
        let splitter = LangchainTokenTextSplitter {
            encoding_name: settings.encoding,
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
        };
        check_sizes(
            StrategyId::LangchainToken,
            splitter.chunk_size,
            splitter.chunk_overlap,
        )?;
        Ok(splitter)
    }

    /// The refusals of `split_text`: `TextSplitter.__init__` raises for the sizes, then
    /// `split_text_on_tokens` encodes the text (tiktoken raises on a special-token string) and
    /// only then raises for `chunk_overlap == chunk_size`, so a text refusal comes first.
    fn check(&self, text: &str) -> Result<(), StrategyError> {
        check_sizes(
            StrategyId::LangchainToken,
            self.chunk_size,
            self.chunk_overlap,
        )?;
        if let Some(&(byte_offset, found)) =
            find_special_tokens_of(text, self.encoding_name).first()
        {
            return Err(StrategyError::TextRefused {
                strategy: StrategyId::LangchainToken,
                library: PACKAGE,
                byte_offset,
                found,
            });
        }
        if self.chunk_overlap == self.chunk_size {
            return Err(StrategyError::OverlapRefused {
                strategy: StrategyId::LangchainToken,
                library: PACKAGE,
                chunk_size: self.chunk_size,
                chunk_overlap: self.chunk_overlap,
            });
        }
        Ok(())
    }
}

impl Chunker for LangchainTokenTextSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        vec![
            ("encoding_name", py_str(self.encoding_name.name())),
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
            ("allowed_special", "set()".to_owned()),
            ("disallowed_special", py_str("all")),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::LangchainToken
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, Length::Tokens(self.encoding_name))
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        self.check(text)?;
        let offsets = self.encoding_name.tokenizer().encode(text).offsets;
        Ok(window_pieces(
            text,
            &offsets,
            self.chunk_size,
            self.chunk_overlap,
        ))
    }
}

/// LangChain's `keep_separator`: where a split keeps the separator it was split at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KeepSeparator {
    /// `False`: separators are dropped, and put back between merged splits.
    False,
    /// `True` or `"start"` (the recursive splitter's default): each split starts with the
    /// separator before it.
    #[default]
    Start,
    /// `"end"`: each split ends with the separator after it.
    End,
}

/// LangChain `RecursiveCharacterTextSplitter` (langchain-text-splitters 1.1.3,
/// `character.py`): characters as `RecursiveCharacterTextSplitter(chunk_size=…,
/// chunk_overlap=…)` (`length_function=len`), tokens as
/// `RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name=…, chunk_size=…,
/// chunk_overlap=…)`.
///
/// Rules, from the library's source:
/// - `_split_text`: the first separator found in the text is used (`""` always matches);
///   splits shorter than `chunk_size` are merged, longer ones are split again with the finer
///   separators, or kept whole (unstripped) when none is left;
/// - `_split_text_with_regex`: non-empty pieces, each keeping its separator per
///   [`KeepSeparator`]; `""` splits into characters;
/// - `_merge_splits`: splits are added while `total + len + separator_len ≤ chunk_size`, where
///   every split and the separator (`""` when the separator is kept) are measured on their
///   own; at a cut the chunk is emitted and splits are dropped from its start while more than
///   `chunk_overlap` is kept or the next split would not fit; `_join_docs` strips the chunk
///   (`strip_whitespace`) and drops it when empty.
///
/// Because lengths are summed over separate splits, a chunk's own token count can exceed
/// `chunk_size` (and a split kept whole is longer than it): [`super::run`] flags such chunks
/// oversize.
///
/// Chunk byte ranges are where each chunk's text lies in the document (LangChain's
/// `add_start_index` finds the same place by searching, and reports -1 when its guess of the
/// search start overshoots).
///
/// Errors: [`StrategyError::Params`] for `chunk_size` 0, [`StrategyError::OverlapRefused`]
/// when `chunk_overlap > chunk_size` (`TextSplitter.__init__` raises `ValueError`);
/// [`StrategyError::TextRefused`] in tokens when a measured split holds a special-token string
/// of the encoding (tiktoken's `encode` raises; a text cut into characters is not refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangchainRecursiveCharacterTextSplitter {
    /// `chunk_size`, in `length_function`'s unit (LangChain's default 4000).
    pub chunk_size: usize,
    /// `chunk_overlap`, in `length_function`'s unit (LangChain's default 200).
    pub chunk_overlap: usize,
    /// `length_function`: `len` ([`Length::Characters`]) or the tiktoken encoder of
    /// `from_tiktoken_encoder(encoding_name=…)` ([`Length::Tokens`]).
    pub length_function: Length,
    /// `separators`, coarsest first (default `["\n\n", "\n", " ", ""]`; an empty list means
    /// the default, as `separators or […]` does). Literal strings (`is_separator_regex=False`).
    pub separators: Vec<String>,
    /// `keep_separator` (default `True`, i.e. [`KeepSeparator::Start`]).
    pub keep_separator: KeepSeparator,
    /// `strip_whitespace` (default `True`): strip each chunk (Python's `str.strip()`).
    pub strip_whitespace: bool,
}

impl LangchainRecursiveCharacterTextSplitter {
    /// The splitter with `settings`' size, overlap and unit, and LangChain's defaults.
    ///
    /// # Errors
    /// The library's refusals of the sizes (see the type).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_sizes(
            StrategyId::LangchainRecursive,
            settings.chunk_size,
            settings.chunk_overlap,
        )?;
        Ok(LangchainRecursiveCharacterTextSplitter {
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
            length_function: settings.length(),
            separators: recursive::DEFAULT_SEPARATORS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            keep_separator: KeepSeparator::Start,
            strip_whitespace: true,
        })
    }

    /// `split_text(text)` as cuts of `text` ending at `end`; `Err` with where tiktoken raised.
    /// `source`: the document `text` was rewritten from, if any (see [`Source`]).
    fn cuts(
        &self,
        text: &str,
        end: Boundary,
        source: Option<Source<'_>>,
    ) -> Result<Vec<Cut>, Raised> {
        let separators: Vec<Separator> = self
            .separators
            .iter()
            .map(|s| Separator::Literal(s.clone()))
            .collect();
        let params = Params {
            chunk_size: self.chunk_size,
            chunk_overlap: self.chunk_overlap,
            separators: &separators,
            keep_separator: self.keep_separator,
            strip_whitespace: self.strip_whitespace,
        };
        recursive_cuts(text, &params, self.length_function, end, source)
    }
}

/// `RecursiveCharacterTextSplitter.split_text(text)` with `params` and `length_function`, as
/// cuts of `text` ending at `end`; `Err` with where tiktoken raised. `source`: the document
/// `text` was rewritten from, if any (see [`Source`]).
fn recursive_cuts(
    text: &str,
    params: &Params<'_>,
    length_function: Length,
    end: Boundary,
    source: Option<Source<'_>>,
) -> Result<Vec<Cut>, Raised> {
    let special;
    let mut measure = match length_function {
        Length::Characters => Measure::Characters,
        // Never reached without the tokenizer: `split` refuses first.
        Length::Model(vocab) => match vocab.loaded() {
            Some(tokenizer) => Measure::Model {
                tokenizer,
                chars: Default::default(),
            },
            None => Measure::Characters,
        },
        Length::Tokens(encoding) => {
            special = find_special_tokens_of(text, encoding);
            Measure::Tokens {
                bpe: encoding.tokenizer(),
                disallowed: special_tokens_of(encoding),
                special: &special,
                chars: Default::default(),
                source,
            }
        }
    };
    recursive::split_text(text, params, &mut measure, end)
}

/// The `length_function` parameter as the page lists it: `len`, the tiktoken encoder of
/// `from_tiktoken_encoder(encoding_name=…)`, or the count of an open model's tokens.
fn length_parameter(length_function: Length) -> String {
    match length_function {
        Length::Characters => "len".to_owned(),
        // What `from_huggingface_tokenizer` measures, given as the length function (the
        // snippet's `count`): the model's tokens without its special tokens.
        Length::Model(v) => format!(
            "count: len({}.encode(text, add_special_tokens=False).ids)",
            crate::strategy::py_hf_tokenizer(v)
        ),
        Length::Tokens(e) => {
            format!("from_tiktoken_encoder(encoding_name={})", py_str(e.name()))
        }
    }
}

/// Cuts of the whole text as pieces, the last one ending the text.
fn cut_pieces(cuts: Vec<Cut>) -> Vec<Piece> {
    end_last(
        cuts.into_iter()
            .map(|c| Piece {
                text: c.text,
                ..Piece::slice(c.range, c.reason)
            })
            .collect(),
    )
}

fn refused(strategy: StrategyId, byte_offset: usize, found: &'static str) -> StrategyError {
    StrategyError::TextRefused {
        strategy,
        library: PACKAGE,
        byte_offset,
        found,
    }
}

impl Chunker for LangchainRecursiveCharacterTextSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        let length = length_parameter(self.length_function);
        let keep = match self.keep_separator {
            KeepSeparator::False => "False".to_owned(),
            KeepSeparator::Start => "True".to_owned(),
            KeepSeparator::End => py_str("end"),
        };
        vec![
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
            ("length_function", length),
            ("separators", py_list(&self.separators)),
            ("keep_separator", keep),
            ("is_separator_regex", "False".to_owned()),
            ("strip_whitespace", py_bool(self.strip_whitespace)),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::LangchainRecursive
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, self.length_function)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        check_sizes(self.id(), self.chunk_size, self.chunk_overlap)?;
        self.length_function.model_tokenizer()?;
        let cuts = self
            .cuts(text, Boundary::EndOfText, None)
            .map_err(|r| refused(self.id(), r.at, r.found))?;
        Ok(cut_pieces(cuts))
    }
}

/// LangChain `RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN, chunk_size=…,
/// chunk_overlap=…)` (langchain-text-splitters 1.1.3, `character.py`: `from_language`,
/// `get_separators_for_language`, `_split_text`, `_split_text_with_regex`; `base.py`:
/// `_merge_splits`, `_join_docs`): the recursive splitter with markdown's separators as
/// regular expressions (`is_separator_regex=True`), sized by `len` in characters, by tiktoken
/// tokens as `from_tiktoken_encoder(encoding_name=…, separators=…, is_separator_regex=True)`
/// builds it, or by an open model's tokens given as `length_function`.
///
/// The rules are [`LangchainRecursiveCharacterTextSplitter`]'s, with the separators
/// [`Separator::markdown`]: headings `\n#{1,6} `, the end of a code block ```` ```\n ````,
/// horizontal rules `\n\*\*\*+\n`, `\n---+\n`, `\n___+\n`, then `"\n\n"`, `"\n"`,
/// `" "`, `""`. The first separator with a match in a piece (`re.search`) splits it
/// (`re.split` with a capture group: leftmost, non-overlapping matches); each split starts with
/// the match before it (`keep_separator=True`, the only value here), so splits are merged with
/// `""` and every chunk is a slice of the document, stripped (`strip_whitespace`). A heading
/// thus starts the chunk it is in unless the merge packs it after shorter splits; a split at a
/// heading or a rule ends a chunk at [`Boundary::Section`].
///
/// Chunk byte ranges are where each chunk's text lies in the document.
///
/// Errors: [`StrategyError::Params`] for `chunk_size` 0, [`StrategyError::OverlapRefused`]
/// when `chunk_overlap > chunk_size` (`TextSplitter.__init__` raises `ValueError`);
/// [`StrategyError::TextRefused`] in tokens when a measured split holds a special-token string
/// of the encoding (tiktoken's `encode` raises); [`StrategyError::TokenizerNotLoaded`] in a
/// model's tokens before its tokenizer is installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangchainMarkdownLanguageSplitter {
    /// `chunk_size`, in `length_function`'s unit (LangChain's default 4000).
    pub chunk_size: usize,
    /// `chunk_overlap`, in `length_function`'s unit (LangChain's default 200).
    pub chunk_overlap: usize,
    /// `length_function`: `len` ([`Length::Characters`]), the tiktoken encoder of
    /// `from_tiktoken_encoder(encoding_name=…)` ([`Length::Tokens`]), or an open model's
    /// tokens ([`Length::Model`]).
    pub length_function: Length,
    /// `separators`, coarsest first: `get_separators_for_language(Language.MARKDOWN)`
    /// ([`Separator::markdown`]). A [`Separator::Literal`] is matched as the fixed string it
    /// is, which is what the library's regex does for a pattern without metacharacters.
    pub separators: Vec<Separator>,
    /// `strip_whitespace` (default `True`): strip each chunk (Python's `str.strip()`).
    pub strip_whitespace: bool,
}

impl LangchainMarkdownLanguageSplitter {
    /// The splitter with `settings`' size, overlap and unit, markdown's separators and
    /// LangChain's defaults.
    ///
    /// # Errors
    /// The library's refusals of the sizes (see the type).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_sizes(
            StrategyId::LangchainMarkdownLanguage,
            settings.chunk_size,
            settings.chunk_overlap,
        )?;
        Ok(LangchainMarkdownLanguageSplitter {
            chunk_size: settings.chunk_size,
            chunk_overlap: settings.chunk_overlap,
            length_function: settings.length(),
            separators: Separator::markdown(),
            strip_whitespace: true,
        })
    }
}

impl Chunker for LangchainMarkdownLanguageSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        let separators: Vec<String> = self
            .separators
            .iter()
            .map(|s| s.pattern().into_owned())
            .collect();
        vec![
            ("language", "Language.MARKDOWN".to_owned()),
            ("chunk_size", self.chunk_size.to_string()),
            ("chunk_overlap", self.chunk_overlap.to_string()),
            ("length_function", length_parameter(self.length_function)),
            ("separators", py_list(&separators)),
            ("keep_separator", "True".to_owned()),
            ("is_separator_regex", "True".to_owned()),
            ("strip_whitespace", py_bool(self.strip_whitespace)),
        ]
    }

    fn id(&self) -> StrategyId {
        StrategyId::LangchainMarkdownLanguage
    }

    fn budget(&self) -> (usize, Length) {
        (self.chunk_size, self.length_function)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        check_sizes(self.id(), self.chunk_size, self.chunk_overlap)?;
        self.length_function.model_tokenizer()?;
        let params = Params {
            chunk_size: self.chunk_size,
            chunk_overlap: self.chunk_overlap,
            separators: &self.separators,
            keep_separator: KeepSeparator::Start,
            strip_whitespace: self.strip_whitespace,
        };
        let cuts = recursive_cuts(
            text,
            &params,
            self.length_function,
            Boundary::EndOfText,
            None,
        )
        .map_err(|r| refused(self.id(), r.at, r.found))?;
        Ok(cut_pieces(cuts))
    }
}

/// LangChain `MarkdownHeaderTextSplitter(headers_to_split_on=[("#", "Header 1"), ("##",
/// "Header 2"), ("###", "Header 3")])` (langchain-text-splitters 1.1.3, `markdown.py`;
/// `strip_headers=True`, `return_each_line=False`, no custom header patterns), then
/// [`LangchainRecursiveCharacterTextSplitter`] with the same size and unit
/// `.split_documents(…)` on its sections.
///
/// The header splitter rewrites the text: every line is stripped and loses its non-printable
/// characters (Python's `str.isprintable`), header lines and blank lines outside code fences
/// are dropped, a block's lines are joined with `"\n"` and blocks of one section with
/// `"  \n"` (see [`super::Keeps::StrippedMarkdownLines`]). Each chunk's `text` is therefore
/// its own where it differs from the document, and its byte range runs from the source of its
/// first character to the source of its last. `heading_path` is the section's metadata
/// (outermost header first).
///
/// Errors: those of the recursive splitter, on the sections' rewritten text (a header's text
/// is never measured).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangchainMarkdownHeaderTextSplitter {
    /// `headers_to_split_on`: `(mark, metadata name)` pairs (longest mark tried first; the
    /// level is the number of `#` in the mark).
    pub headers_to_split_on: Vec<(String, String)>,
    /// The splitter run on each section (`split_documents`).
    pub text_splitter: LangchainRecursiveCharacterTextSplitter,
}

impl LangchainMarkdownHeaderTextSplitter {
    /// Headers `#`, `##`, `###` and the recursive splitter of `settings`.
    ///
    /// # Errors
    /// The recursive splitter's refusals of the sizes.
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_sizes(
            StrategyId::LangchainMarkdown,
            settings.chunk_size,
            settings.chunk_overlap,
        )?;
        Ok(LangchainMarkdownHeaderTextSplitter {
            headers_to_split_on: [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
                .iter()
                .map(|(mark, name)| (mark.to_string(), name.to_string()))
                .collect(),
            text_splitter: LangchainRecursiveCharacterTextSplitter::new(settings)?,
        })
    }
}

impl Chunker for LangchainMarkdownHeaderTextSplitter {
    fn parameters(&self) -> Vec<Parameter> {
        let headers: Vec<String> = self
            .headers_to_split_on
            .iter()
            .map(|(mark, name)| format!("({}, {})", py_str(mark), py_str(name)))
            .collect();
        let mut out = vec![
            ("headers_to_split_on", format!("[{}]", headers.join(", "))),
            ("strip_headers", "True".to_owned()),
            ("return_each_line", "False".to_owned()),
        ];
        out.extend(self.text_splitter.parameters());
        out
    }

    fn id(&self) -> StrategyId {
        StrategyId::LangchainMarkdown
    }

    fn budget(&self) -> (usize, Length) {
        self.text_splitter.budget()
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let splitter = &self.text_splitter;
        check_sizes(self.id(), splitter.chunk_size, splitter.chunk_overlap)?;
        splitter.length_function.model_tokenizer()?;
        let mut pieces = Vec::new();
        for section in markdown::sections(text, &self.headers_to_split_on) {
            let content = section.content.as_str();
            // Only token counts go through the document (characters are counted as they are).
            let same = match splitter.length_function {
                Length::Tokens(_) => section.same_as_document(text),
                _ => Vec::new(),
            };
            let source = Source {
                doc: text,
                same: &same,
            };
            let cuts = splitter
                .cuts(content, Boundary::Section, Some(source))
                .map_err(|r| {
                    let at = r.at.min(content.len());
                    let doc = section.to_doc(at..(at + r.found.len()).min(content.len()));
                    refused(self.id(), doc.start, r.found)
                })?;
            for cut in cuts {
                let bytes = section.to_doc(cut.range.clone());
                let own = cut.text.unwrap_or_else(|| content[cut.range].to_string());
                pieces.push(Piece {
                    text: (text.get(bytes.clone()) != Some(own.as_str())).then_some(own),
                    bytes,
                    reason: cut.reason,
                    heading_path: section.headings.clone(),
                    prefix_over_budget: false,
                    code_info: None,
                });
            }
        }
        Ok(end_last(pieces))
    }
}

#[cfg(test)]
mod tests;
