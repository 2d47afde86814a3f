//! The text-splitter crate 0.33.1 itself (`TextSplitter`, `MarkdownSplitter`), sized by this
//! project's tokenizer or by the crate's own `Characters` sizer.
//!
//! The crate is a copy (`crates/text-splitter`) that differs from the published one only in how
//! it searches its semantic ranges: by index, where the published crate sorts every range left
//! in the text once per chunk and scans them for each level's first range and for the ranges
//! of a level or higher, which is quadratic in the text's length (1 MB of mixed text,
//! natively: 151 → 8 ms, and 235 → 28 ms as markdown). It stays quadratic where the crate's
//! own word segmentation is: a long run without spaces or punctuation is segmented again from
//! each chunk's start to the run's end (256 KB of one CJK character: 16.7 s natively).
//! `tests/text_splitter_copy.rs` checks its chunks equal to the published crate's.
//!
//! Nothing of the crate is reimplemented here: the chunks are its `chunk_indices` (byte
//! offsets of trimmed chunks). In tokens the crate is given a [`ChunkSizer`] that counts with
//! [`Bpe::count`], which equals the crate's own tiktoken sizer (`impl ChunkSizer for CoreBPE`
//! in `src/chunk_size/tiktoken.rs`: `encode_ordinary(chunk).len()`, so special-token strings
//! are ordinary text), and the Python binding `semantic-text-splitter` 0.33.1
//! (`from_tiktoken_model`) uses that same sizer.
//!
//! The crate does not report the semantic level it cut at, so each piece's `reason` is
//! *derived* from the text at the cut ([`boundary_at`]), not read from the crate.

use super::Parameter;
use super::{Boundary, Chunker, Piece, Settings, SizeUnit, StrategyError, StrategyId};
use crate::strategy::length::Length;
use crate::tokenizer::open::OpenTokenizer;
use crate::tokenizer::Bpe;
use std::ops::Range;
use text_splitter::{ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

const PACKAGE: &str = "text-splitter";

/// The crate's `ChunkSizer` over this project's BPE (`encode_ordinary` length).
struct BpeSizer(&'static Bpe);

impl ChunkSizer for BpeSizer {
    fn size(&self, chunk: &str) -> usize {
        self.0.count(chunk)
    }
}

/// The crate's `ChunkSizer` for a Hugging Face `Tokenizer`: `encode(chunk, false)` ids (no
/// special tokens), padding aside (the models' tokenizers pad nothing here).
struct ModelSizer(&'static OpenTokenizer);

impl ChunkSizer for ModelSizer {
    fn size(&self, chunk: &str) -> usize {
        self.0.count(chunk)
    }
}

/// One of the crate's two splitters with the parameters of its `ChunkConfig`, under the
/// crate's own names: [`TextSplitterTextSplitter`] (`MARKDOWN = false`) or
/// [`TextSplitterMarkdownSplitter`] (`MARKDOWN = true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextSplitterChunker<const MARKDOWN: bool> {
    /// `ChunkConfig::new(capacity)`: the maximum chunk size, in `sizer` units.
    pub capacity: usize,
    /// `ChunkConfig::with_overlap`: the overlap between chunks, in `sizer` units (default 0;
    /// must be below `capacity`).
    pub overlap: usize,
    /// `ChunkConfig::with_trim`: trim whitespace off each chunk (default true).
    pub trim: bool,
    /// `ChunkConfig::with_sizer`: `Characters` (the crate's default) or tokens.
    pub sizer: Length,
}

/// text-splitter 0.33.1's `TextSplitter` (the crate itself, `src/splitter/text.rs`): Unicode
/// text levels (line breaks by run length, sentences, words, graphemes, characters) merged up
/// to `capacity`. Sized by the crate's `Characters` (Unicode scalar values) or by tokens of
/// this project's BPE, the crate's tiktoken sizing (`encode_ordinary`). Chunks are trimmed
/// (`trim`).
pub type TextSplitterTextSplitter = TextSplitterChunker<false>;

/// text-splitter 0.33.1's `MarkdownSplitter` (the crate itself, `src/splitter/markdown.rs`):
/// CommonMark structure levels (headings by level, thematic breaks, blocks, inline elements,
/// soft breaks) above the text levels, merged up to `capacity`. Chunks are trimmed keeping
/// indentation when they span lines (the crate's `Trim::PreserveIndentation`).
pub type TextSplitterMarkdownSplitter = TextSplitterChunker<true>;

impl<const MARKDOWN: bool> TextSplitterChunker<MARKDOWN> {
    /// The splitter with `capacity = chunk_size`, `overlap = chunk_overlap`, `trim = true`, and
    /// the sizer of `settings.unit`.
    ///
    /// # Errors
    /// [`StrategyError::Params`] for capacity 0 and [`StrategyError::OverlapRefused`]
    /// when `overlap >= capacity` (the crate's `ChunkConfigError`).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        let c = TextSplitterChunker {
            capacity: settings.chunk_size,
            overlap: settings.chunk_overlap,
            trim: true,
            sizer: match settings.unit {
                SizeUnit::Tokens => Length::Tokens(settings.encoding),
                SizeUnit::Characters => Length::Characters,
                SizeUnit::Model(v) => Length::Model(v),
            },
        };
        c.check()?;
        Ok(c)
    }

    fn strategy(&self) -> StrategyId {
        if MARKDOWN {
            StrategyId::TextSplitterMarkdown
        } else {
            StrategyId::TextSplitter
        }
    }

    /// `ChunkConfig::new(capacity).with_overlap(overlap)`: the crate refuses an overlap not
    /// below the capacity (`ChunkConfigError`, "The overlap is larger than or equal to the
    /// desired chunk capacity"; the Python binding raises `ValueError` with it).
    fn check(&self) -> Result<(), StrategyError> {
        let strategy = self.strategy();
        if self.capacity == 0 {
            return Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize,
            ));
        }
        ChunkConfig::new(self.capacity)
            .with_overlap(self.overlap)
            .map(drop)
            .map_err(|_| StrategyError::OverlapRefused {
                strategy,
                library: PACKAGE,
                chunk_size: self.capacity,
                chunk_overlap: self.overlap,
            })
    }

    /// Byte ranges of the crate's chunks of `text`.
    fn chunk(&self, text: &str) -> Result<Vec<Range<usize>>, StrategyError> {
        self.check()?;
        let (strategy, markdown) = (self.strategy(), MARKDOWN);
        // Trimmed, a whitespace-only text has no chunk. The crate finds that out in time
        // quadratic in the text when the overlap is above 0 (100 KB of line breaks: minutes,
        // in the Python binding too), so say it at once; the settings are still checked.
        let blank = self.trim && text.trim().is_empty();
        let base = ChunkConfig::new(self.capacity).with_trim(self.trim);
        let refused = |_| StrategyError::OverlapRefused {
            strategy,
            library: PACKAGE,
            chunk_size: self.capacity,
            chunk_overlap: self.overlap,
        };
        let text = if blank { "" } else { text };
        Ok(match self.sizer {
            Length::Characters => run(
                base.with_overlap(self.overlap).map_err(refused)?,
                markdown,
                text,
            ),
            Length::Tokens(e) => run(
                base.with_sizer(BpeSizer(e.tokenizer()))
                    .with_overlap(self.overlap)
                    .map_err(refused)?,
                markdown,
                text,
            ),
            Length::Model(vocab) => match self.sizer.model_tokenizer()? {
                Some(tokenizer) => run(
                    base.with_sizer(ModelSizer(tokenizer))
                        .with_overlap(self.overlap)
                        .map_err(refused)?,
                    markdown,
                    text,
                ),
                None => return Err(StrategyError::TokenizerNotLoaded { vocab }),
            },
        })
    }
}

fn run<S: ChunkSizer>(config: ChunkConfig<S>, markdown: bool, text: &str) -> Vec<Range<usize>> {
    let range = |(at, chunk): (usize, &str)| at..at + chunk.len();
    if markdown {
        MarkdownSplitter::new(config)
            .chunk_indices(text)
            .map(range)
            .collect()
    } else {
        TextSplitter::new(config)
            .chunk_indices(text)
            .map(range)
            .collect()
    }
}

/// Pieces for `ranges`, each with the boundary derived from the text at its end.
fn pieces(text: &str, ranges: Vec<Range<usize>>, markdown: bool) -> Vec<Piece> {
    let n = ranges.len();
    ranges
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let why = if i + 1 == n {
                Boundary::EndOfText
            } else {
                boundary_at(text, r.end, markdown)
            };
            Piece::slice(r, why)
        })
        .collect()
}

/// The structure level of a cut at byte `end`, derived from the text (the crate does not say):
/// a markdown ATX heading next → [`Boundary::Section`]; two or more line breaks in the
/// whitespace that follows → [`Boundary::Paragraph`], one → [`Boundary::Line`]; a sentence
/// terminator before it (`.` `!` `?` followed by whitespace, or `。` `！` `？`) →
/// [`Boundary::Sentence`]; whitespace after it → [`Boundary::Word`]; otherwise between two
/// characters → [`Boundary::Character`].
fn boundary_at(text: &str, end: usize, markdown: bool) -> Boundary {
    let after = &text[end..];
    let rest = after.trim_start();
    let gap = &after[..after.len() - rest.len()];
    let breaks =
        gap.matches('\n').count() + gap.matches('\r').count() - gap.matches("\r\n").count();
    if markdown && (breaks > 0 || end == 0) && is_atx_heading(rest) {
        return Boundary::Section;
    }
    match breaks {
        0 => {}
        1 => return Boundary::Line,
        _ => return Boundary::Paragraph,
    }
    let last = text[..end]
        .trim_end_matches(['"', '\'', ')', ']', '\u{201d}', '\u{2019}'])
        .chars()
        .next_back();
    match last {
        Some('。' | '！' | '？') => Boundary::Sentence,
        Some('.' | '!' | '?') if !gap.is_empty() => Boundary::Sentence,
        _ if !gap.is_empty() => Boundary::Word,
        _ => Boundary::Character,
    }
}

/// True when `line` starts with an ATX heading: 1–6 `#` then a space, a tab or the line end.
fn is_atx_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes)
        && matches!(
            line.as_bytes().get(hashes),
            None | Some(b' ' | b'\t' | b'\n' | b'\r')
        )
}

impl<const MARKDOWN: bool> Chunker for TextSplitterChunker<MARKDOWN> {
    fn parameters(&self) -> Vec<Parameter> {
        let sizer = match self.sizer {
            Length::Characters => "Characters".to_owned(),
            Length::Tokens(e) => format!("tiktoken_rs::{}()", e.name()),
            Length::Model(v) => format!("tokenizers::Tokenizer {:?}", v.code()),
        };
        vec![
            ("capacity", self.capacity.to_string()),
            ("overlap", self.overlap.to_string()),
            ("trim", self.trim.to_string()),
            ("sizer", sizer),
        ]
    }

    fn id(&self) -> StrategyId {
        self.strategy()
    }

    fn budget(&self) -> (usize, Length) {
        (self.capacity, self.sizer)
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let ranges = self.chunk(text)?;
        Ok(pieces(text, ranges, MARKDOWN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Encoding;

    fn settings(size: usize, overlap: usize, unit: SizeUnit, encoding: Encoding) -> Settings {
        Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit,
            encoding,
        }
    }

    /// `(char offset, text, reason)` of every chunk.
    #[test]
    fn a_blank_text_has_no_chunk_at_once_even_with_overlap() {
        let s = settings(64, 16, SizeUnit::Tokens, Encoding::Cl100kBase);
        let blank = "\n".repeat(100_000);
        for c in [
            Box::new(TextSplitterTextSplitter::new(&s).expect("valid")) as Box<dyn Chunker>,
            Box::new(TextSplitterMarkdownSplitter::new(&s).expect("valid")),
        ] {
            assert_eq!(c.split(&blank).expect("ok"), Vec::new());
            assert_eq!(c.split(" \u{2028}\t").expect("ok"), Vec::new());
        }
        // The settings are still the crate's to refuse.
        let bad = TextSplitterTextSplitter {
            overlap: 64,
            ..TextSplitterTextSplitter::new(&s).expect("valid")
        };
        assert!(matches!(
            bad.split(&blank),
            Err(StrategyError::OverlapRefused { .. })
        ));
    }

    fn chunks(c: &dyn Chunker, text: &str) -> Vec<(usize, String, Boundary)> {
        c.split(text)
            .unwrap()
            .into_iter()
            .map(|p| {
                (
                    text[..p.bytes.start].chars().count(),
                    text[p.bytes].to_string(),
                    p.reason,
                )
            })
            .collect()
    }

    fn owned(v: &[(usize, &str, Boundary)]) -> Vec<(usize, String, Boundary)> {
        v.iter().map(|(a, t, b)| (*a, t.to_string(), *b)).collect()
    }

    // Expected chunks and char offsets below are semantic-text-splitter 0.33.1's own output
    // (`chunk_indices`); the reasons are this module's derivation.

    #[test]
    fn characters_split_at_paragraphs_then_lines() {
        let s = settings(10, 0, SizeUnit::Characters, Encoding::Cl100kBase);
        let c = TextSplitterTextSplitter::new(&s).unwrap();
        assert_eq!(c.sizer, Length::Characters);
        assert!(c.trim);
        assert_eq!(
            chunks(&c, "Some text\n\nfrom a\ndocument"),
            owned(&[
                (0, "Some text", Boundary::Paragraph),
                (11, "from a", Boundary::Line),
                (18, "document", Boundary::EndOfText),
            ])
        );
    }

    #[test]
    fn tokens_with_overlap_and_crlf() {
        let s = settings(8, 2, SizeUnit::Tokens, Encoding::Cl100kBase);
        let c = TextSplitterTextSplitter::new(&s).unwrap();
        assert_eq!(
            chunks(
                &c,
                "One sentence here. Another one follows, then a third.\r\n\r\nNew paragraph."
            ),
            owned(&[
                (0, "One sentence here.", Boundary::Sentence),
                (
                    19,
                    "Another one follows, then a third.",
                    Boundary::Paragraph
                ),
                (57, "New paragraph.", Boundary::EndOfText),
            ])
        );
        // Special-token strings are ordinary text (o200k_base, 10 tokens, overlap 3).
        let s = settings(10, 3, SizeUnit::Tokens, Encoding::O200kBase);
        let c = TextSplitterTextSplitter::new(&s).unwrap();
        let text = "Docs end with <|endoftext|> here. A second sentence follows it, and a third one mentions <|fim_prefix|> too.\n\nThen a last paragraph.";
        let got: Vec<(usize, String)> = chunks(&c, text)
            .into_iter()
            .map(|(a, t, _)| (a, t))
            .collect();
        let want = [
            (0, "Docs end with <|endoftext|>"),
            (25, "|> here."),
            (34, "A second sentence follows it, and a third one"),
            (68, "a third one mentions <|fim_prefix|>"),
            (101, "|> too.\n\nThen a last paragraph."),
        ];
        assert_eq!(
            got,
            want.map(|(a, t)| (a, t.to_string())).to_vec(),
            "the crate's own chunks"
        );
    }

    #[test]
    fn markdown_cuts_before_headings_are_sections() {
        let s = settings(10, 0, SizeUnit::Characters, Encoding::Cl100kBase);
        let c = TextSplitterMarkdownSplitter::new(&s).unwrap();
        assert_eq!(
            chunks(
                &c,
                "# Header\n\nfrom a\ndocument\n\n## Next\n\nMore text that is here."
            ),
            owned(&[
                (0, "# Header", Boundary::Paragraph),
                (10, "from a", Boundary::Line),
                (17, "document", Boundary::Section),
                (27, "## Next", Boundary::Paragraph),
                (36, "More text", Boundary::Word),
                (46, "that is", Boundary::Word),
                (54, "here.", Boundary::EndOfText),
            ])
        );
        let s = settings(8, 2, SizeUnit::Tokens, Encoding::O200kBase);
        let c = TextSplitterMarkdownSplitter::new(&s).unwrap();
        assert_eq!(
            chunks(
                &c,
                "# Header\n\nSome *emphasis* and `code` in a paragraph.\n\n## Next\n\nMore text."
            ),
            owned(&[
                (0, "# Header", Boundary::Paragraph),
                (10, "Some *emphasis* and", Boundary::Word),
                (26, "and `code` in a paragraph.", Boundary::Section),
                (54, "## Next\n\nMore text.", Boundary::EndOfText),
            ])
        );
    }

    #[test]
    fn overlap_not_below_capacity_is_refused_as_the_crate_does() {
        for (size, overlap) in [(8, 8), (8, 9), (1, 1)] {
            let s = settings(size, overlap, SizeUnit::Tokens, Encoding::Cl100kBase);
            let want = |strategy| StrategyError::OverlapRefused {
                strategy,
                library: "text-splitter",
                chunk_size: size,
                chunk_overlap: overlap,
            };
            assert_eq!(
                TextSplitterTextSplitter::new(&s).unwrap_err(),
                want(StrategyId::TextSplitter)
            );
            assert_eq!(
                TextSplitterMarkdownSplitter::new(&s).unwrap_err(),
                want(StrategyId::TextSplitterMarkdown)
            );
        }
        let s = settings(0, 0, SizeUnit::Characters, Encoding::Cl100kBase);
        assert_eq!(
            TextSplitterTextSplitter::new(&s),
            Err(StrategyError::Params(
                crate::params::ParamsError::ZeroChunkSize
            ))
        );
        // A field changed after `new` is checked again when splitting.
        let mut c = TextSplitterTextSplitter::new(&settings(
            8,
            0,
            SizeUnit::Characters,
            Encoding::Cl100kBase,
        ))
        .unwrap();
        c.overlap = 8;
        assert!(matches!(
            c.split("text"),
            Err(StrategyError::OverlapRefused { .. })
        ));
    }

    #[test]
    fn edge_inputs_do_not_panic() {
        for unit in [SizeUnit::Tokens, SizeUnit::Characters] {
            for (size, overlap) in [(1, 0), (usize::MAX, 5), (3, 2)] {
                let s = settings(size, overlap, unit, Encoding::Cl100kBase);
                let t = TextSplitterTextSplitter::new(&s).unwrap();
                let m = TextSplitterMarkdownSplitter::new(&s).unwrap();
                for text in [
                    "",
                    "   \n\n ",
                    "猫猫猫",
                    "a<|endoftext|>b",
                    "# h\n\n- x\n- y",
                ] {
                    for c in [&t as &dyn Chunker, &m] {
                        let p = c.split(text).unwrap();
                        if text.trim().is_empty() {
                            assert!(p.is_empty(), "{text:?}");
                        }
                    }
                }
            }
        }
        // Size 1 in characters: one character a chunk, whitespace trimmed away.
        let s = settings(1, 0, SizeUnit::Characters, Encoding::Cl100kBase);
        let c = TextSplitterTextSplitter::new(&s).unwrap();
        let got: Vec<String> = chunks(&c, "ab c").into_iter().map(|x| x.1).collect();
        assert_eq!(got, ["a", "b", "c"]);
    }
}
