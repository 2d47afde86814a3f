//! LlamaIndex's markdown ingestion chain (llama-index-core 0.14.25): `MarkdownNodeParser()`
//! then `SentenceSplitter(chunk_size, chunk_overlap, tokenizer)` over a `Document(text=…)`,
//! as `IngestionPipeline(transformations=[MarkdownNodeParser(), SentenceSplitter(…)])
//! .run(documents=[Document(text=text)])` (or the same two `get_nodes_from_documents` calls)
//! runs them.
//!
//! **The markdown step** (`MarkdownNodeParser.get_nodes_from_node`,
//! `node_parser/file/markdown.py`) reads the text line by line (`text.split("\n")`):
//! - a line whose `lstrip()` starts with ```` ``` ```` opens or closes a code block (`~~~`
//!   does not) and stays in the section;
//! - outside a code block, a line matching `^(#+)\s(.*)` is a heading: the section before it
//!   becomes a node if `strip()` leaves anything, headings of its level or deeper are popped
//!   from the heading stack, it is pushed, and a new section starts with the heading line
//!   written anew as `"#" * level + " " + header_text`: the one whitespace character after the
//!   marks (`\s`, Python's `str.isspace`: a tab, a non-breaking space, `\r` …) becomes a
//!   space, everything else of the line is kept;
//! - every node's text is its section `strip()`ped (Python's `str.strip`), so a heading line
//!   is kept at the start of its node, and a heading alone makes a node of one line;
//! - with `include_metadata` (the default) every node gets `metadata["header_path"]`: the
//!   texts of the headings **above** the section's own one (the stack without its last
//!   entry), joined by `header_path_separator` (`"/"`) and framed by it (`"/Setup/Linux/"`),
//!   or the separator alone when that join is empty (`"/"`: no heading above, or only empty
//!   ones). Heading texts are kept as they are (a CRLF document's keep their `\r`).
//!
//! **The splitting step** (`MetadataAwareTextSplitter._parse_nodes`, `node_parser/
//! interface.py`): each node's text goes through `SentenceSplitter.split_text_metadata_aware(
//! text, metadata_str)` with `metadata_str = "header_path: " + header_path` (the longer of the
//! node's embed-mode and LLM-mode metadata strings, equal here), so each node is split at
//! `chunk_size` minus that string's tokens ([`MetadataFit`]): the library raises
//! `ValueError("Metadata length (…) is longer than chunk size (…)…")` when nothing remains
//! ([`StrategyError::MetadataOverChunkSize`]) and prints "Metadata length (…) is close to
//! chunk size (…)…" when fewer than 50 tokens remain ([`MetadataFit::Close`], also for any
//! `chunk_size` under 50). The nodes are split in document order; the first node that raises
//! raises for the whole document.

use super::{
    check_settings, length_of, model_of, strip, LlamaindexSentenceSplitter, MetadataFit, LIBRARY,
    PIPELINE_MAX_DEPTH,
};
use crate::strategy::length::Length;
use crate::strategy::python::python_isspace;
use crate::strategy::{
    py_bool, py_str, Boundary, Chunker, Parameter, Piece, Settings, StrategyError, StrategyId,
};
use std::ops::Range;

/// One node of `MarkdownNodeParser` as the `SentenceSplitter` after it sees it
/// ([`LlamaindexMarkdownNodeParser::sections`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlamaindexMarkdownSection {
    /// The node's text in the document (its section, stripped).
    pub bytes: Range<usize>,
    /// The node's text where it is not `&document[bytes]`: its heading line's whitespace after
    /// the `#` marks is not a space, and the parser wrote a space there.
    pub text: Option<String>,
    /// The texts of the headings above the section's own heading, outermost first: the
    /// components of `header_path`.
    pub headings: Vec<String>,
    /// `metadata["header_path"]` (`"/"`, `"/Setup/Linux/"`); `None` without
    /// `include_metadata`.
    pub header_path: Option<String>,
    /// What the splitter does with the node's metadata string (its length in tokens, the
    /// chunk size the node is split at, the library's warning or error).
    pub fit: MetadataFit,
}

/// A node before its metadata is measured.
struct Node {
    /// The stripped section in the document.
    range: Range<usize>,
    /// The heading's whitespace character after the marks, inside `range`, when it is not a
    /// space (the parser writes `" "` instead).
    space: Option<Range<usize>>,
    /// The texts of the headings above the section's own.
    headings: Vec<String>,
}

/// `^(#+)\s`: the number of marks when `line` is a heading, and the whitespace after them.
fn heading(line: &str) -> Option<(usize, char)> {
    let level = line.len() - line.trim_start_matches('#').len();
    let c = line[level..].chars().next()?;
    (level > 0 && python_isspace(c)).then_some((level, c))
}

/// `MarkdownNodeParser.get_nodes_from_node` on `text`: its nodes in document order.
fn nodes(text: &str) -> Vec<Node> {
    let mut out = Vec::new();
    // (level, header_text) of the open headings, outermost first.
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut code_block = false;
    let (mut start, mut space) = (0, None);
    let push =
        |out: &mut Vec<Node>, range, space: Option<Range<usize>>, stack: &[(usize, &str)]| {
            let range = strip(text, range);
            if range.is_empty() {
                return;
            }
            out.push(Node {
                space: space.filter(|s: &Range<usize>| s.start < range.end),
                range,
                headings: stack[..stack.len().saturating_sub(1)]
                    .iter()
                    .map(|&(_, h)| h.to_owned())
                    .collect(),
            });
        };
    let mut at = 0;
    for line in text.split('\n') {
        let line_start = at;
        at += line.len() + 1;
        if line.trim_start_matches(python_isspace).starts_with("```") {
            code_block = !code_block;
            continue;
        }
        if code_block {
            continue;
        }
        let Some((level, ws)) = heading(line) else {
            continue;
        };
        push(&mut out, start..line_start, space, &stack);
        while stack.last().is_some_and(|&(l, _)| l >= level) {
            stack.pop();
        }
        stack.push((level, &line[level + ws.len_utf8()..]));
        start = line_start;
        let ws_at = line_start + level;
        space = (ws != ' ').then(|| ws_at..ws_at + ws.len_utf8());
    }
    push(&mut out, start..text.len(), space, &stack);
    out
}

/// LlamaIndex's markdown ingestion chain (llama-index-core 0.14.25): `MarkdownNodeParser(
/// header_path_separator, include_metadata)` then [`Self::splitter`], a `SentenceSplitter`,
/// over `Document(text=text)` (module docs for the rules; sources: `MarkdownNodeParser.
/// get_nodes_from_node` in `node_parser/file/markdown.py`, `MetadataAwareTextSplitter.
/// _parse_nodes` and `_get_metadata_str` in `node_parser/interface.py`,
/// `SentenceSplitter.split_text_metadata_aware` in `node_parser/text/sentence.py`).
///
/// Sized in tokens of the splitter's tokenizer (tiktoken's `encode(…, allowed_special="all")`
/// of [`LlamaindexSentenceSplitter::encoding`], or an open model's ids), as the
/// sentence splitter is; not in characters.
///
/// Chunks: each is a node's chunk as `SentenceSplitter` cuts it, in document order, the nodes
/// one after another (no chunk spans two sections, and overlap never crosses a section). Its
/// byte range is where its text lies in the document; its text is the slice, except where it
/// holds a heading line whose whitespace after the marks is not a space (`"#\tTitle"`: the
/// chunk reads `"# Title"`; [`super::super::Keeps::AllButWhitespaceHeadingSpace`]). Its
/// `heading_path` is the node's `header_path` as a list: the headings above the section's own
/// heading (empty without `include_metadata`). A section's last chunk ends at
/// [`Boundary::Section`], the document's last at [`Boundary::EndOfText`]; others where the
/// sentence splitter cut. Empty or whitespace-only text gives no chunk (no node).
///
/// Refusals: [`StrategyError::MetadataOverChunkSize`] (a section's `header_path` is
/// `chunk_size` tokens or more), and the sentence splitter's own at the size the node is split
/// at ([`StrategyError::ParameterRefused`] for "Single token exceeded chunk size",
/// [`StrategyError::RecursionLimit`] past the pipeline's recursion depth), the first in
/// document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlamaindexMarkdownNodeParser {
    /// `MarkdownNodeParser(header_path_separator="/")`: joins and frames the heading path.
    pub header_path_separator: String,
    /// `MarkdownNodeParser(include_metadata=True)`: set `metadata["header_path"]`, whose
    /// `"header_path: …"` string the splitter subtracts from `chunk_size`. Without it the
    /// metadata string is `""` (0 tokens).
    pub include_metadata: bool,
    /// The `SentenceSplitter` the nodes go through.
    pub splitter: LlamaindexSentenceSplitter,
}

impl LlamaindexMarkdownNodeParser {
    /// `MarkdownNodeParser()` then `SentenceSplitter(chunk_size, chunk_overlap, tokenizer=…)`,
    /// every other parameter at the library's default.
    ///
    /// # Errors
    /// [`StrategyError::UnitUnsupported`] for characters (the splitter counts tokens only),
    /// [`StrategyError::Params`] (pydantic `gt=0`), and
    /// [`StrategyError::OverlapRefused`] when `chunk_overlap > chunk_size` (the splitter's
    /// `ValueError`).
    pub fn new(settings: &Settings) -> Result<Self, StrategyError> {
        check_settings(settings, StrategyId::LlamaindexMarkdown)?;
        Ok(LlamaindexMarkdownNodeParser {
            header_path_separator: "/".to_owned(),
            include_metadata: true,
            splitter: LlamaindexSentenceSplitter {
                chunk_size: settings.chunk_size,
                chunk_overlap: settings.chunk_overlap,
                separator: " ".to_string(),
                paragraph_separator: "\n\n\n".to_string(),
                secondary_chunking_regex: true,
                encoding: settings.encoding,
                model: model_of(settings),
            },
        })
    }

    /// `metadata["header_path"]` of a node under `headings` (`_build_node_from_split`).
    pub fn header_path(&self, headings: &[String]) -> String {
        let sep = &self.header_path_separator;
        let joined = headings.join(sep);
        if joined.is_empty() {
            sep.clone()
        } else {
            format!("{sep}{joined}{sep}")
        }
    }

    /// The node's metadata string as the splitter measures it.
    fn metadata_str(&self, headings: &[String]) -> String {
        if self.include_metadata {
            format!("header_path: {}", self.header_path(headings))
        } else {
            String::new()
        }
    }

    /// The nodes `MarkdownNodeParser` makes of `text`, each with what the splitter does with
    /// its metadata: where the library prints its "close to chunk size" line
    /// ([`MetadataFit::Close`]) or raises ([`MetadataFit::TooLong`]).
    ///
    /// # Errors
    /// [`StrategyError::TokenizerNotLoaded`] when sized in a model's tokens not installed.
    pub fn sections(&self, text: &str) -> Result<Vec<LlamaindexMarkdownSection>, StrategyError> {
        nodes(text)
            .into_iter()
            .map(|node| {
                let fit = self
                    .splitter
                    .metadata_fit(&self.metadata_str(&node.headings))?;
                Ok(LlamaindexMarkdownSection {
                    text: node
                        .space
                        .as_ref()
                        .map(|_| node_text(text, &node).into_owned()),
                    header_path: self
                        .include_metadata
                        .then(|| self.header_path(&node.headings)),
                    bytes: node.range,
                    headings: node.headings,
                    fit,
                })
            })
            .collect()
    }
}

/// A node's text: the document slice, or with its heading's whitespace written as a space.
fn node_text<'t>(text: &'t str, node: &Node) -> std::borrow::Cow<'t, str> {
    let r = &node.range;
    match &node.space {
        None => text[r.clone()].into(),
        Some(sp) => format!("{} {}", &text[r.start..sp.start], &text[sp.end..r.end]).into(),
    }
}

impl Chunker for LlamaindexMarkdownNodeParser {
    fn parameters(&self) -> Vec<Parameter> {
        let mut out = vec![
            ("header_path_separator", py_str(&self.header_path_separator)),
            ("include_metadata", py_bool(self.include_metadata)),
        ];
        out.extend(self.splitter.parameters());
        out
    }

    fn id(&self) -> StrategyId {
        StrategyId::LlamaindexMarkdown
    }

    fn budget(&self) -> (usize, Length) {
        (
            self.splitter.chunk_size,
            length_of(self.splitter.encoding, self.splitter.model),
        )
    }

    fn split(&self, text: &str) -> Result<Vec<Piece>, StrategyError> {
        let strategy = StrategyId::LlamaindexMarkdown;
        let nodes = nodes(text);
        let mut pieces = Vec::new();
        let fns = self.splitter.split_fns();
        // The fit of the previous node's headings: neighbours mostly share them, and the fit
        // is a function of the headings alone (one count of the metadata string each).
        let mut last_fit: Option<(&[String], MetadataFit)> = None;
        for (i, node) in nodes.iter().enumerate() {
            let fit = match last_fit {
                Some((headings, fit)) if headings == node.headings.as_slice() => fit,
                _ => self
                    .splitter
                    .metadata_fit(&self.metadata_str(&node.headings))?,
            };
            last_fit = Some((&node.headings, fit));
            let Some(chunk_size) = fit.effective_chunk_size() else {
                return Err(StrategyError::MetadataOverChunkSize {
                    strategy,
                    library: LIBRARY,
                    metadata_length: fit.metadata_length(),
                    chunk_size: self.splitter.chunk_size,
                    byte_offset: node.range.start,
                });
            };
            let own = node_text(text, node);
            // A byte offset in the node's text to one in the document: past the written space,
            // by the length of the character it stands for.
            let to_doc = |b: usize| {
                node.range.start
                    + match &node.space {
                        Some(sp) if node.range.start + b > sp.start => b + sp.len() - 1,
                        _ => b,
                    }
            };
            let split = self
                .splitter
                .split_sized_with(&own, chunk_size, strategy, PIPELINE_MAX_DEPTH, &fns)
                .map_err(|e| match e {
                    StrategyError::RecursionLimit {
                        strategy,
                        library,
                        byte_offset,
                    } => StrategyError::RecursionLimit {
                        strategy,
                        library,
                        byte_offset: to_doc(byte_offset),
                    },
                    e => e,
                })?;
            let last = split.len().saturating_sub(1);
            for (j, p) in split.into_iter().enumerate() {
                let bytes = to_doc(p.bytes.start)..to_doc(p.bytes.end);
                let changed = node
                    .space
                    .as_ref()
                    .is_some_and(|sp| bytes.start <= sp.start && sp.start < bytes.end);
                pieces.push(Piece {
                    text: changed.then(|| own[p.bytes.clone()].to_owned()),
                    reason: if j == last && i + 1 < nodes.len() {
                        Boundary::Section
                    } else {
                        p.reason
                    },
                    heading_path: if self.include_metadata {
                        node.headings.clone()
                    } else {
                        Vec::new()
                    },
                    bytes,
                    ..p
                });
            }
        }
        Ok(pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{run, SizeUnit};
    use crate::tokenizer::Encoding;

    fn parser(chunk_size: usize, chunk_overlap: usize) -> LlamaindexMarkdownNodeParser {
        LlamaindexMarkdownNodeParser::new(&crate::strategy::test_settings(
            chunk_size,
            chunk_overlap,
            SizeUnit::Tokens,
        ))
        .unwrap()
    }

    /// (chunk text, header_path) of every chunk.
    fn chunks(p: &LlamaindexMarkdownNodeParser, text: &str) -> Vec<(String, String)> {
        run(p, text, Encoding::Cl100kBase)
            .unwrap()
            .chunks
            .iter()
            .map(|c| (c.text(text).into_owned(), p.header_path(&c.heading_path)))
            .collect()
    }

    // Every expected value below is llama-index-core 0.14.25's
    // `IngestionPipeline(transformations=[MarkdownNodeParser(), SentenceSplitter(chunk_size,
    // chunk_overlap, tokenizer=partial(tiktoken.get_encoding("cl100k_base").encode,
    // allowed_special="all"))]).run(documents=[Document(text=text)])`: each node's `text` and
    // `metadata["header_path"]`.

    const MIXED: &str = "Intro text.\n\n# A\n\nPara one. Sentence two.\n\n## B/C\n\nx y z\n\n```\n# not a header\n```\n#\tTabbed\nbody\n### \n\nlast";

    #[test]
    fn headings_start_nodes_and_name_the_headings_above() {
        let got = chunks(&parser(30, 5), MIXED);
        let want = [
            ("Intro text.", "/"),
            ("# A\n\nPara one. Sentence two.", "/"),
            // A heading text may hold the separator; a comment in a fence is no heading.
            ("## B/C\n\nx y z\n\n```\n# not a header\n```", "/A/"),
            // The tab after the marks is written as a space.
            ("# Tabbed\nbody", "/"),
            ("### \n\nlast", "/Tabbed/"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(t, h)| (t.to_string(), h.to_string()))
            .collect();
        assert_eq!(got, want);
        let c = run(&parser(30, 5), MIXED, Encoding::Cl100kBase).unwrap();
        // Only the tabbed heading's chunk is not the document slice; its range is where it
        // lies.
        let changed: Vec<usize> = (0..c.chunks.len())
            .filter(|&i| c.chunks[i].text.is_some())
            .collect();
        assert_eq!(changed, [3]);
        assert_eq!(&MIXED[c.chunks[3].bytes.clone()], "#\tTabbed\nbody");
        let reasons: Vec<Boundary> = c.chunks.iter().map(|c| c.reason).collect();
        assert_eq!(
            reasons,
            [
                Boundary::Section,
                Boundary::Section,
                Boundary::Section,
                Boundary::Section,
                Boundary::EndOfText
            ]
        );
        assert_eq!(c.chunks[2].heading_path, ["A"]);
        // Empty heading texts join to nothing: "/" (the library's `if header_path`).
        let text = "# \n## B\ntext\n#\u{3000}\n";
        let want: Vec<(String, String)> = [("#", "/"), ("## B\ntext", "/"), ("#", "/")]
            .iter()
            .map(|(t, h)| (t.to_string(), h.to_string()))
            .collect();
        assert_eq!(chunks(&parser(60, 0), text), want);
        // No node, no chunk.
        for blank in ["", "  \n\n "] {
            assert!(run(&parser(24, 0), blank, Encoding::Cl100kBase)
                .unwrap()
                .chunks
                .is_empty());
        }
    }

    const DEEP: &str = "# Installation guide for every platform\n\n## Linux distributions and their package managers\n\n### Debian, Ubuntu and derivatives using apt\n\n#### Installing from the official repository with signed keys\n\nRun the command.\n";

    /// llama_index issues 7980 and 12200 ("Metadata length (…) is longer than chunk size
    /// (…)"): a deep heading path at a small chunk_size. The fourth section's metadata,
    /// "header_path: /Installation guide for every platform/Linux distributions and their
    /// package managers/Debian, Ubuntu and derivatives using apt/", is 25 tokens.
    #[test]
    fn a_deep_heading_path_is_counted_against_chunk_size_and_can_be_refused() {
        let fourth = DEEP.find("####").unwrap();
        // chunk_size=24: ValueError: Metadata length (25) is longer than chunk size (24).
        let refused = run(&parser(24, 0), DEEP, Encoding::Cl100kBase).unwrap_err();
        assert_eq!(
            refused,
            StrategyError::MetadataOverChunkSize {
                strategy: StrategyId::LlamaindexMarkdown,
                library: "llama-index-core",
                metadata_length: 25,
                chunk_size: 24,
                byte_offset: fourth,
            }
        );
        assert!(refused
            .to_string()
            .contains("Metadata length (25) is longer than chunk size (24)"));
        // Equal is refused too (effective_chunk_size <= 0).
        assert!(matches!(
            run(&parser(25, 0), DEEP, Encoding::Cl100kBase),
            Err(StrategyError::MetadataOverChunkSize {
                metadata_length: 25,
                ..
            })
        ));
        // chunk_size=30: the fourth section is split at 30 − 25 = 5 tokens; the library
        // printed "Metadata length (N) is close to chunk size (30)" for N = 4, 10, 16, 25.
        let p = parser(30, 0);
        let lengths: Vec<(usize, Option<usize>)> = p
            .sections(DEEP)
            .unwrap()
            .iter()
            .map(|s| (s.fit.metadata_length(), s.fit.effective_chunk_size()))
            .collect();
        assert_eq!(
            lengths,
            [(4, Some(26)), (10, Some(20)), (16, Some(14)), (25, Some(5))]
        );
        assert!(p
            .sections(DEEP)
            .unwrap()
            .iter()
            .all(|s| matches!(s.fit, MetadataFit::Close { .. })));
        let deep = "/Installation guide for every platform/Linux distributions and their package managers/Debian, Ubuntu and derivatives using apt/";
        let texts: Vec<(String, String)> = chunks(&p, DEEP);
        let want = [
            "# Installation guide for every platform",
            "## Linux distributions and their package managers",
            "### Debian, Ubuntu and derivatives using apt",
            "#### Installing from the official",
            "repository with signed",
            "keys\n\nRun the",
            "command.",
        ];
        assert_eq!(
            texts.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            want
        );
        assert!(texts[3..].iter().all(|(_, h)| h == deep));
        // chunk_size=64: only the two deepest sections print the warning (64 − 16, 64 − 25).
        let close: Vec<bool> = parser(64, 0)
            .sections(DEEP)
            .unwrap()
            .iter()
            .map(|s| matches!(s.fit, MetadataFit::Close { .. }))
            .collect();
        assert_eq!(close, [false, false, true, true]);
        assert_eq!(chunks(&parser(64, 0), DEEP).len(), 4);
        // Without include_metadata nothing is subtracted (and no header_path is set).
        let bare = LlamaindexMarkdownNodeParser {
            include_metadata: false,
            ..parser(24, 0)
        };
        let c = run(&bare, DEEP, Encoding::Cl100kBase).unwrap();
        assert!(c.chunks.iter().all(|c| c.heading_path.is_empty()));
        assert_eq!(
            bare.sections(DEEP).unwrap()[3].fit,
            MetadataFit::Close {
                metadata_length: 0,
                effective_chunk_size: 24
            }
        );
    }

    #[test]
    fn the_splitter_refusals_name_this_strategy() {
        // 猫 is 3 tokens; "header_path: /" is 4: at chunk_size 6 the node is split at 2 and
        // the library raises ValueError("Single token exceeded chunk size").
        assert!(matches!(
            run(&parser(6, 0), "猫 a", Encoding::Cl100kBase),
            Err(StrategyError::ParameterRefused {
                strategy: StrategyId::LlamaindexMarkdown,
                parameter: "chunk_size",
                ..
            })
        ));
        // The pipeline nests _split twelve levels less deep than split_text at a script's top
        // level: at chunk_size 28 (24 after "header_path: /"), "!" * 2122 passes and 2123
        // raises RecursionError.
        let p = parser(28, 0);
        assert!(run(&p, &"!".repeat(2122), Encoding::Cl100kBase).is_ok());
        assert!(matches!(
            run(&p, &"!".repeat(2123), Encoding::Cl100kBase),
            Err(StrategyError::RecursionLimit {
                strategy: StrategyId::LlamaindexMarkdown,
                ..
            })
        ));
        assert_eq!(
            LlamaindexMarkdownNodeParser::new(&crate::strategy::test_settings(
                10,
                11,
                SizeUnit::Tokens
            )),
            Err(StrategyError::OverlapRefused {
                strategy: StrategyId::LlamaindexMarkdown,
                library: "llama-index-core",
                chunk_size: 10,
                chunk_overlap: 11
            })
        );
        assert!(
            LlamaindexMarkdownNodeParser::new(&crate::strategy::test_settings(
                10,
                0,
                SizeUnit::Characters
            ))
            .is_err()
        );
        let params = parser(1024, 200).parameters();
        assert_eq!(params[0], ("header_path_separator", "\"/\"".to_owned()));
        assert!(params.contains(&("tokenizer", r#"tiktoken "cl100k_base""#.to_owned())));
    }
}
