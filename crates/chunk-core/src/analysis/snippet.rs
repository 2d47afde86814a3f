//! The code that reproduces a library strategy's chunks with the library itself, as the page
//! shows it (copyable): an install line and a program that reads `document.txt` (UTF-8, line
//! endings kept as they are).
//!
//! - Python for the Python libraries ([`python`]): the program leaves the chunk texts in a list
//!   named `chunks`.
//! - Rust for text-splitter ([`rust`]): the crate itself (`text-splitter` 0.33.1, with
//!   `tiktoken-rs` when sized in tokens), a complete `main.rs` that prints the chunk texts as a
//!   JSON array. text-splitter also has its Python binding `semantic-text-splitter`, whose
//!   snippet [`snippets`] returns after the Rust one.
//!
//! Sized in an open model's own tokens ([`SizeUnit::Model`]), the Python snippet loads the
//! chosen model's tokenizer with Hugging Face `tokenizers` ([`TOKENIZERS_VERSION`]), turns off
//! the truncation and padding its `tokenizer.json` may carry (all-MiniLM-L6-v2's pads and
//! truncates to 128 tokens, which would cap every count), and gives each library what it takes:
//! LangChain a `length_function` (the count `from_huggingface_tokenizer` makes, without
//! needing transformers), text-splitter `from_huggingface_tokenizer`, semchunk a token counter,
//! chonkie the tokenizer, LlamaIndex a `tokenizer` returning the ids; no special tokens are
//! counted. There is no Rust snippet then (the crate's `tokenizers` feature would fetch the
//! file at run time too; the binding gives the same chunks).
//!
//! [`snippet`] is the one the page shows (Rust for text-splitter, Python otherwise). The
//! differential tests run every snippet (the Python ones in the pinned venv, the Rust ones
//! built offline against the workspace's `Cargo.lock`) and compare its chunks with the
//! strategy's own, chunk for chunk.

use crate::models::EmbeddingModel;
use crate::strategy::{Settings, SizeUnit, StrategyId};

/// The tiktoken version the snippets install: the one pinned in the differential tests'
/// `requirements.txt` (a test checks they agree).
pub const TIKTOKEN_VERSION: &str = "0.14.0";

/// The Hugging Face `tokenizers` version the model-sized snippets install: the one pinned in
/// the differential tests' `requirements.txt` (a test checks they agree).
pub const TOKENIZERS_VERSION: &str = "0.23.3";

/// The tiktoken-rs version the Rust snippets add: the one in the workspace's `Cargo.lock`,
/// which text-splitter's `tiktoken-rs` feature uses (a test checks they agree).
pub const TIKTOKEN_RS_VERSION: &str = "0.12.1";

/// The language of a Python snippet ([`Snippet::language`]).
pub const PYTHON: &str = "python";
/// The language of a Rust snippet ([`Snippet::language`]).
pub const RUST: &str = "rust";

/// A snippet: the install line and the program.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Snippet {
    /// The language of [`Snippet::code`]: [`PYTHON`] or [`RUST`].
    pub language: String,
    /// What installs the library at the exact version: a `pip install` line (Python), or one
    /// `cargo add` command a line (Rust, run in a `cargo new` project).
    pub install: String,
    /// The program: reads `document.txt`; in Python it leaves the chunk texts in `chunks` and
    /// prints their count; in Rust (a whole `main.rs`) it prints the count to stderr and the
    /// chunk texts to stdout as one JSON array of strings.
    pub code: String,
}

impl Snippet {
    /// The whole file the page shows and copies: the install commands as comments of the
    /// program's language (`# ` in Python, `// ` in Rust), a blank line, then the program, so
    /// that a pasted copy runs as it is.
    pub fn file_text(&self) -> String {
        let mark = if self.language == RUST { "// " } else { "# " };
        let mut out = String::with_capacity(self.install.len() + self.code.len() + 16);
        for line in self.install.lines() {
            out.push_str(mark);
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&self.code);
        out
    }
}

#[cfg(feature = "strategies")]
/// The snippet the page shows for `id` with `settings` (every other parameter at the
/// library's default, as [`crate::strategy::chunker`] builds it): [`rust`] for the
/// text-splitter strategies, [`python`] for the others; `None` for the product's own
/// strategies and for a setting the strategy refuses (a unit it cannot size in, an overlap
/// its library lacks).
pub fn snippet(id: StrategyId, settings: &Settings) -> Option<Snippet> {
    snippet_for(id, settings, None)
}

#[cfg(feature = "strategies")]
/// [`snippet`] with the chosen embedding model, whose own tokenizer a setting sized in its
/// tokens ([`SizeUnit::Model`]) loads by the model's Hugging Face name; `None` for such a
/// setting without a model of that vocabulary.
pub fn snippet_for(
    id: StrategyId,
    settings: &Settings,
    model: Option<&EmbeddingModel>,
) -> Option<Snippet> {
    rust(id, settings).or_else(|| python_for(id, settings, model))
}

#[cfg(feature = "strategies")]
/// Every snippet for `id` with `settings`, the one [`snippet`] shows first: for text-splitter
/// the Rust crate then its Python binding, for the other libraries the Python one; empty where
/// [`snippet`] is `None`.
pub fn snippets(id: StrategyId, settings: &Settings) -> Vec<Snippet> {
    snippets_for(id, settings, None)
}

#[cfg(feature = "strategies")]
/// [`snippets`] with the chosen embedding model (see [`snippet_for`]).
pub fn snippets_for(
    id: StrategyId,
    settings: &Settings,
    model: Option<&EmbeddingModel>,
) -> Vec<Snippet> {
    rust(id, settings)
        .into_iter()
        .chain(python_for(id, settings, model))
        .collect()
}

/// Whether the library reproduces `id` with `settings`: a library strategy, and a setting it
/// accepts. A setting the strategy refuses (an overlap chonkie's RecursiveChunker does not
/// have, a size the library rejects) has no code that reproduces it.
#[cfg(feature = "strategies")]
fn reproducible(id: StrategyId, settings: &Settings) -> bool {
    id.library().is_some()
        && id.supports(settings.unit)
        && crate::strategy::chunker(id, settings).is_ok()
}

#[cfg(feature = "strategies")]
/// The Rust snippet: the text-splitter crate itself for [`StrategyId::TextSplitter`] and
/// [`StrategyId::TextSplitterMarkdown`] (`ChunkConfig::new(size).with_overlap(overlap)?`, then
/// `.with_sizer(tiktoken_rs::cl100k_base()?)` or `o200k_base` in tokens; characters are the
/// crate's default sizer); `None` for every other strategy and where [`snippet`] is `None`.
pub fn rust(id: StrategyId, settings: &Settings) -> Option<Snippet> {
    let class = match id {
        StrategyId::TextSplitter => "TextSplitter",
        StrategyId::TextSplitterMarkdown => "MarkdownSplitter",
        _ => return None,
    };
    if !reproducible(id, settings) || matches!(settings.unit, SizeUnit::Model(_)) {
        return None;
    }
    let lib = id.library()?;
    let (size, overlap) = (settings.chunk_size, settings.chunk_overlap);
    let tokens = settings.unit == SizeUnit::Tokens;
    let mut features = Vec::new();
    if id == StrategyId::TextSplitterMarkdown {
        features.push("markdown");
    }
    let config = if tokens {
        features.push("tiktoken-rs");
        let enc = settings.encoding.name();
        format!(
            "    // Tokens of tiktoken-rs's {enc}, counted as text-splitter does (encode_ordinary).\n    let config = ChunkConfig::new({size})\n        .with_overlap({overlap})?\n        .with_sizer(tiktoken_rs::{enc}()?);\n"
        )
    } else {
        format!(
            "    // Characters (Unicode scalar values) are the crate's default sizer.\n    let config = ChunkConfig::new({size}).with_overlap({overlap})?;\n"
        )
    };
    let features = if features.is_empty() {
        String::new()
    } else {
        format!(" --features {}", features.join(","))
    };
    let tiktoken = if tokens {
        format!(" tiktoken-rs@={TIKTOKEN_RS_VERSION}")
    } else {
        String::new()
    };
    let install = format!(
        "cargo add {package}@={version}{features}\ncargo add{tiktoken} serde_json@1",
        package = lib.package,
        version = lib.version,
    );
    let code = format!(
        "// {class} from {package} {version}, as the RAG Chunk Calculator set it.\nuse text_splitter::{{ChunkConfig, {class}}};\n\nfn main() -> Result<(), Box<dyn std::error::Error>> {{\n    // The bytes as they are (UTF-8): Windows line endings are kept, as the page does.\n    let text = std::fs::read_to_string(\"document.txt\")?;\n\n{config}    let splitter = {class}::new(config);\n    let chunks: Vec<&str> = splitter.chunks(&text).collect();\n\n    eprintln!(\"{{}} chunks\", chunks.len());\n    println!(\"{{}}\", serde_json::to_string(&chunks)?);\n    Ok(())\n}}\n",
        package = lib.package,
        version = lib.version,
    );
    Some(Snippet {
        language: RUST.to_owned(),
        install,
        code,
    })
}

#[cfg(feature = "strategies")]
/// The Python snippet: the library for every library strategy (for text-splitter, its Python
/// binding `semantic-text-splitter`); `None` where [`snippet`] is `None`.
pub fn python(id: StrategyId, settings: &Settings) -> Option<Snippet> {
    python_for(id, settings, None)
}

#[cfg(feature = "strategies")]
/// [`python`] with the chosen embedding model (see [`snippet_for`]).
pub fn python_for(
    id: StrategyId,
    settings: &Settings,
    model: Option<&EmbeddingModel>,
) -> Option<Snippet> {
    let lib = id.library()?;
    if !reproducible(id, settings) {
        return None;
    }
    if let SizeUnit::Model(vocab) = settings.unit {
        let model = model.filter(|m| m.tokenizer.open_vocab() == Some(vocab))?;
        return python_model(id, settings, model);
    }
    let (size, overlap) = (settings.chunk_size, settings.chunk_overlap);
    let enc = settings.encoding.name();
    let chars = settings.unit == SizeUnit::Characters;
    let mut packages = vec![format!("{}=={}", lib.package, lib.version)];
    let mut imports = Vec::new();
    let body = match id {
        StrategyId::LangchainToken => {
            imports.push("from langchain_text_splitters import TokenTextSplitter".to_string());
            format!(
                "splitter = TokenTextSplitter(\n    encoding_name=\"{enc}\", chunk_size={size}, chunk_overlap={overlap}\n)\nchunks = splitter.split_text(text)\n"
            )
        }
        StrategyId::LangchainRecursive | StrategyId::LangchainMarkdown => {
            imports.push(if id == StrategyId::LangchainMarkdown {
                "from langchain_text_splitters import (\n    MarkdownHeaderTextSplitter,\n    RecursiveCharacterTextSplitter,\n)".to_string()
            } else {
                "from langchain_text_splitters import RecursiveCharacterTextSplitter".to_string()
            });
            let splitter = if chars {
                format!("splitter = RecursiveCharacterTextSplitter(chunk_size={size}, chunk_overlap={overlap})\n")
            } else {
                format!(
                    "splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(\n    encoding_name=\"{enc}\", chunk_size={size}, chunk_overlap={overlap}\n)\n"
                )
            };
            if id == StrategyId::LangchainMarkdown {
                format!(
                    "headers = MarkdownHeaderTextSplitter(\n    headers_to_split_on=[(\"#\", \"Header 1\"), (\"##\", \"Header 2\"), (\"###\", \"Header 3\")]\n)\n{splitter}sections = headers.split_text(text)\nchunks = [doc.page_content for doc in splitter.split_documents(sections)]\n"
                )
            } else {
                format!("{splitter}chunks = splitter.split_text(text)\n")
            }
        }
        StrategyId::LangchainMarkdownLanguage => {
            imports.push(
                "from langchain_text_splitters import Language, RecursiveCharacterTextSplitter"
                    .to_string(),
            );
            let splitter = if chars {
                format!(
                    "splitter = RecursiveCharacterTextSplitter.from_language(\n    Language.MARKDOWN, chunk_size={size}, chunk_overlap={overlap}\n)\n"
                )
            } else {
                format!(
                    "# What from_language(Language.MARKDOWN) sets, on the splitter sized in tokens.\nsplitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(\n    encoding_name=\"{enc}\",\n    chunk_size={size},\n    chunk_overlap={overlap},\n    separators=RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN),\n    is_separator_regex=True,\n)\n"
                )
            };
            format!("{splitter}chunks = splitter.split_text(text)\n")
        }
        StrategyId::TextSplitter | StrategyId::TextSplitterMarkdown => {
            // The crate's Python build has the same version number as the crate.
            packages[0] = format!("semantic-text-splitter=={}", lib.version);
            let class = if id == StrategyId::TextSplitter {
                "TextSplitter"
            } else {
                "MarkdownSplitter"
            };
            imports.push(format!("from semantic_text_splitter import {class}"));
            let model = match settings.encoding {
                crate::tokenizer::Encoding::Cl100kBase => "gpt-4",
                crate::tokenizer::Encoding::O200kBase => "gpt-4o",
            };
            let make = if chars {
                format!("splitter = {class}({size}, overlap={overlap})\n")
            } else {
                format!(
                    "# tiktoken-rs maps \"{model}\" to {enc}.\nsplitter = {class}.from_tiktoken_model(\"{model}\", {size}, overlap={overlap})\n"
                )
            };
            format!("{make}chunks = splitter.chunks(text)\n")
        }
        StrategyId::Semchunk => {
            imports.push("import semchunk".to_string());
            imports.push("import tiktoken".to_string());
            let call = if overlap == 0 {
                "chunker(text)".to_string()
            } else {
                format!("chunker(text, overlap={overlap})")
            };
            format!(
                "chunker = semchunk.chunkerify(tiktoken.get_encoding(\"{enc}\"), {size})\nchunks = {call}\n"
            )
        }
        StrategyId::ChonkieRecursive | StrategyId::ChonkieToken => {
            let tokenizer = if chars {
                "\"character\"".to_string()
            } else {
                imports.push("import tiktoken".to_string());
                format!("tiktoken.get_encoding(\"{enc}\")")
            };
            let make = if id == StrategyId::ChonkieRecursive {
                imports.push("from chonkie import RecursiveChunker".to_string());
                format!(
                    "{}chunker = RecursiveChunker(tokenizer={tokenizer}, chunk_size={size})\n",
                    no_overlap_comment(overlap)
                )
            } else {
                imports.push("from chonkie import TokenChunker".to_string());
                format!(
                    "chunker = TokenChunker(\n    tokenizer={tokenizer}, chunk_size={size}, chunk_overlap={overlap}\n)\n"
                )
            };
            format!("{make}chunks = [chunk.text for chunk in chunker.chunk(text)]\n")
        }
        StrategyId::LlamaindexToken | StrategyId::LlamaindexSentence => {
            let class = if id == StrategyId::LlamaindexToken {
                "TokenTextSplitter"
            } else {
                "SentenceSplitter"
            };
            imports.push("from functools import partial".to_string());
            imports.push("import tiktoken".to_string());
            imports.push(format!("from llama_index.core.node_parser import {class}"));
            format!(
                "# llama-index's own default tokenizer: tiktoken with allowed_special=\"all\".\ntokenizer = partial(tiktoken.get_encoding(\"{enc}\").encode, allowed_special=\"all\")\nsplitter = {class}(chunk_size={size}, chunk_overlap={overlap}, tokenizer=tokenizer)\nchunks = splitter.split_text(text)\n"
            )
        }
        StrategyId::LlamaindexMarkdown => {
            imports.push("from functools import partial".to_string());
            imports.push("import tiktoken".to_string());
            imports.extend(llamaindex_pipeline_imports());
            format!(
                "# llama-index's own default tokenizer: tiktoken with allowed_special=\"all\".\ntokenizer = partial(tiktoken.get_encoding(\"{enc}\").encode, allowed_special=\"all\")\n{}",
                llamaindex_pipeline(size, overlap, "tokenizer")
            )
        }
        _ => return None,
    };
    // Every tokens-sized library counts with Python's tiktoken except text-splitter, whose
    // binding carries tiktoken-rs; LangChain imports it only inside from_tiktoken_encoder.
    let text_splitter = matches!(
        id,
        StrategyId::TextSplitter | StrategyId::TextSplitterMarkdown
    );
    if !chars && !text_splitter {
        packages.push(format!("tiktoken=={TIKTOKEN_VERSION}"));
    }
    imports.sort_by_key(|i| !i.starts_with("import "));
    let code = format!(
        "# {api} from {package}=={version}, as the RAG Chunk Calculator set it.\n{imports}\n\n# newline=\"\" keeps Windows line endings as they are, as the page does.\nwith open(\"document.txt\", encoding=\"utf-8\", newline=\"\") as f:\n    text = f.read()\n\n{body}print(len(chunks), \"chunks\")\n",
        api = lib.api,
        package = packages[0].split("==").next().unwrap_or(lib.package),
        version = lib.version,
        imports = imports.join("\n"),
    );
    Some(Snippet {
        language: PYTHON.to_owned(),
        install: format!("pip install {}", packages.join(" ")),
        code,
    })
}

/// The imports of [`llamaindex_pipeline`].
fn llamaindex_pipeline_imports() -> [String; 3] {
    [
        "from llama_index.core import Document".to_string(),
        "from llama_index.core.ingestion import IngestionPipeline".to_string(),
        "from llama_index.core.node_parser import MarkdownNodeParser, SentenceSplitter".to_string(),
    ]
}

/// LlamaIndex's markdown chain as an ingestion pipeline over one `Document`, the splitter
/// counting with the callable named `tokenizer`; the chunks are the nodes' texts.
fn llamaindex_pipeline(size: usize, overlap: usize, tokenizer: &str) -> String {
    format!(
        "# Each node's metadata, \"header_path: /…/\" (the headings above its section), is counted\n# against chunk_size; the library prints a line when under 50 tokens remain.\npipeline = IngestionPipeline(\n    transformations=[\n        MarkdownNodeParser(),\n        SentenceSplitter(chunk_size={size}, chunk_overlap={overlap}, tokenizer={tokenizer}),\n    ]\n)\nchunks = [node.text for node in pipeline.run(documents=[Document(text=text)])]\n"
    )
}

/// The comment before chonkie's `RecursiveChunker` when an overlap was asked for: it has no
/// `chunk_overlap`, so its chunks do not overlap.
fn no_overlap_comment(overlap: usize) -> &'static str {
    if overlap > 0 {
        "# RecursiveChunker has no chunk_overlap: its chunks do not overlap.\n"
    } else {
        ""
    }
}

/// The Python snippet of a setting sized in `model`'s own tokens (module docs).
fn python_model(id: StrategyId, settings: &Settings, model: &EmbeddingModel) -> Option<Snippet> {
    let lib = id.library()?;
    let (size, overlap) = (settings.chunk_size, settings.chunk_overlap);
    let mut package = lib.package.to_owned();
    let mut imports = vec!["from tokenizers import Tokenizer".to_string()];
    let count = "def count(text):\n    return len(tokenizer.encode(text, add_special_tokens=False).ids)\n\n\n";
    let body = match id {
        StrategyId::LangchainRecursive | StrategyId::LangchainMarkdown => {
            imports.push(if id == StrategyId::LangchainMarkdown {
                "from langchain_text_splitters import (\n    MarkdownHeaderTextSplitter,\n    RecursiveCharacterTextSplitter,\n)".to_string()
            } else {
                "from langchain_text_splitters import RecursiveCharacterTextSplitter".to_string()
            });
            let splitter = format!(
                "{count}# The count RecursiveCharacterTextSplitter.from_huggingface_tokenizer makes (it\n# needs transformers; this needs only tokenizers).\nsplitter = RecursiveCharacterTextSplitter(\n    chunk_size={size}, chunk_overlap={overlap}, length_function=count\n)\n"
            );
            if id == StrategyId::LangchainMarkdown {
                format!(
                    "headers = MarkdownHeaderTextSplitter(\n    headers_to_split_on=[(\"#\", \"Header 1\"), (\"##\", \"Header 2\"), (\"###\", \"Header 3\")]\n)\n{splitter}sections = headers.split_text(text)\nchunks = [doc.page_content for doc in splitter.split_documents(sections)]\n"
                )
            } else {
                format!("{splitter}chunks = splitter.split_text(text)\n")
            }
        }
        StrategyId::LangchainMarkdownLanguage => {
            imports.push(
                "from langchain_text_splitters import Language, RecursiveCharacterTextSplitter"
                    .to_string(),
            );
            format!(
                "{count}# The count RecursiveCharacterTextSplitter.from_huggingface_tokenizer makes (it\n# needs transformers; this needs only tokenizers).\nsplitter = RecursiveCharacterTextSplitter.from_language(\n    Language.MARKDOWN,\n    chunk_size={size},\n    chunk_overlap={overlap},\n    length_function=count,\n)\nchunks = splitter.split_text(text)\n"
            )
        }
        StrategyId::TextSplitter | StrategyId::TextSplitterMarkdown => {
            package = "semantic-text-splitter".to_owned();
            let class = if id == StrategyId::TextSplitter {
                "TextSplitter"
            } else {
                "MarkdownSplitter"
            };
            imports.push(format!("from semantic_text_splitter import {class}"));
            format!(
                "splitter = {class}.from_huggingface_tokenizer(tokenizer, {size}, overlap={overlap})\nchunks = splitter.chunks(text)\n"
            )
        }
        StrategyId::Semchunk => {
            imports.push("import semchunk".to_string());
            let call = if overlap == 0 {
                "chunker(text)".to_string()
            } else {
                format!("chunker(text, overlap={overlap})")
            };
            format!(
                "{count}# A token counter: no special tokens, and no shortcut on long texts.\nchunker = semchunk.chunkerify(count, {size})\nchunks = {call}\n"
            )
        }
        StrategyId::ChonkieRecursive => {
            imports.push("from chonkie import RecursiveChunker".to_string());
            format!(
                "{}chunker = RecursiveChunker(tokenizer=tokenizer, chunk_size={size})\nchunks = [chunk.text for chunk in chunker.chunk(text)]\n",
                no_overlap_comment(overlap)
            )
        }
        StrategyId::LlamaindexToken | StrategyId::LlamaindexSentence => {
            let class = if id == StrategyId::LlamaindexToken {
                "TokenTextSplitter"
            } else {
                "SentenceSplitter"
            };
            imports.push(format!("from llama_index.core.node_parser import {class}"));
            format!(
                "def ids(text):\n    return tokenizer.encode(text, add_special_tokens=False).ids\n\n\nsplitter = {class}(chunk_size={size}, chunk_overlap={overlap}, tokenizer=ids)\nchunks = splitter.split_text(text)\n"
            )
        }
        StrategyId::LlamaindexMarkdown => {
            imports.extend(llamaindex_pipeline_imports());
            format!(
                "def ids(text):\n    return tokenizer.encode(text, add_special_tokens=False).ids\n\n\n{}",
                llamaindex_pipeline(size, overlap, "ids")
            )
        }
        _ => return None,
    };
    imports.sort_by_key(|i| !i.starts_with("import "));
    let code = format!(
        "# {api} from {package}=={version}, sized in {name}'s own tokens, as the RAG Chunk\n# Calculator set it.\n{imports}\n\n# newline=\"\" keeps Windows line endings as they are, as the page does.\nwith open(\"document.txt\", encoding=\"utf-8\", newline=\"\") as f:\n    text = f.read()\n\n# The model's own tokenizer, counting every token: its tokenizer.json may truncate and pad.\ntokenizer = Tokenizer.from_pretrained(\"{name}\")\ntokenizer.no_truncation()\ntokenizer.no_padding()\n\n{body}print(len(chunks), \"chunks\")\n",
        api = lib.api,
        version = lib.version,
        name = model.name,
        imports = imports.join("\n"),
    );
    Some(Snippet {
        language: PYTHON.to_owned(),
        install: format!(
            "pip install {package}=={} tokenizers=={TOKENIZERS_VERSION}",
            lib.version
        ),
        code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::strategy::test_settings as settings;

    #[test]
    fn every_library_strategy_has_one_and_own_strategies_have_none() {
        let s = settings(512, 0, SizeUnit::Tokens);
        for id in StrategyId::all() {
            assert_eq!(snippet(id, &s).is_some(), id.library().is_some(), "{id}");
        }
        assert!(snippet(
            StrategyId::LangchainToken,
            &settings(512, 64, SizeUnit::Characters)
        )
        .is_none());
    }

    #[test]
    fn the_markdown_language_snippet_calls_from_language() {
        let chars = snippet(
            StrategyId::LangchainMarkdownLanguage,
            &settings(1000, 200, SizeUnit::Characters),
        )
        .expect("a library strategy");
        assert_eq!(chars.install, "pip install langchain-text-splitters==1.1.3");
        assert!(chars.code.contains(
            "RecursiveCharacterTextSplitter.from_language(\n    Language.MARKDOWN, chunk_size=1000, chunk_overlap=200\n)"
        ));
        // In tokens: from_language's separators, given to from_tiktoken_encoder as regexes.
        let tokens = snippet(
            StrategyId::LangchainMarkdownLanguage,
            &settings(512, 64, SizeUnit::Tokens),
        )
        .expect("a library strategy");
        assert_eq!(
            tokens.install,
            "pip install langchain-text-splitters==1.1.3 tiktoken==0.14.0"
        );
        assert!(tokens
            .code
            .contains("get_separators_for_language(Language.MARKDOWN)"));
        assert!(tokens.code.contains("is_separator_regex=True"));
        assert!(rust(
            StrategyId::LangchainMarkdownLanguage,
            &settings(512, 64, SizeUnit::Tokens)
        )
        .is_none());
    }

    #[test]
    fn the_langchain_recursive_snippet_is_the_documented_call() {
        let s = snippet(
            StrategyId::LangchainRecursive,
            &settings(1000, 200, SizeUnit::Characters),
        )
        .expect("a library strategy");
        assert_eq!(s.install, "pip install langchain-text-splitters==1.1.3");
        // The file the page shows and copies: the install line commented out.
        assert!(
            s.file_text()
                .starts_with("# pip install langchain-text-splitters==1.1.3\n\n"),
            "{}",
            s.file_text()
        );
        assert!(s.file_text().ends_with(&s.code));
        assert!(s
            .code
            .contains("RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)"));
        assert!(s.code.contains("newline=\"\""));
        let t = snippet(StrategyId::Semchunk, &settings(512, 0, SizeUnit::Tokens)).expect("lib");
        assert_eq!(t.install, "pip install semchunk==4.1.1 tiktoken==0.14.0");
        let l = snippet(
            StrategyId::LangchainToken,
            &settings(512, 64, SizeUnit::Tokens),
        )
        .expect("lib");
        assert_eq!(
            l.install,
            "pip install langchain-text-splitters==1.1.3 tiktoken==0.14.0"
        );
        let ts = snippet(
            StrategyId::TextSplitter,
            &settings(512, 64, SizeUnit::Tokens),
        )
        .expect("lib");
        assert_eq!(ts.language, RUST);
        // Every cargo line commented out as Rust comments, the program whole after them.
        let file = ts.file_text();
        let head: Vec<&str> = file.lines().take(3).collect();
        assert!(
            head[0].starts_with("// cargo add text-splitter@=0.33.1"),
            "{file}"
        );
        assert!(head[1].starts_with("// cargo add"), "{file}");
        assert_eq!(head[2], "");
        assert!(t.code.contains("chunks = chunker(text)\n"));
    }

    #[test]
    fn text_splitter_shows_the_crate_and_keeps_the_python_binding() {
        let tokens = settings(512, 64, SizeUnit::Tokens);
        for id in [StrategyId::TextSplitter, StrategyId::TextSplitterMarkdown] {
            let all = snippets(id, &tokens);
            let langs: Vec<&str> = all.iter().map(|s| s.language.as_str()).collect();
            assert_eq!(langs, [RUST, PYTHON], "{id}");
            assert_eq!(snippet(id, &tokens).as_ref(), all.first(), "{id}");
            assert_eq!(all[1].install, "pip install semantic-text-splitter==0.33.1");
            // Refused where the strategy refuses: overlap not below the size.
            assert!(snippets(id, &settings(64, 64, SizeUnit::Tokens)).is_empty());
        }
        let ts = snippet(StrategyId::TextSplitter, &tokens).expect("lib");
        assert_eq!(
            ts.install,
            "cargo add text-splitter@=0.33.1 --features tiktoken-rs\ncargo add tiktoken-rs@=0.12.1 serde_json@1"
        );
        assert!(ts.code.contains(
            "ChunkConfig::new(512)\n        .with_overlap(64)?\n        .with_sizer(tiktoken_rs::cl100k_base()?);"
        ));
        assert!(ts.code.contains("TextSplitter::new(config)"));
        let md = snippet(
            StrategyId::TextSplitterMarkdown,
            &settings(1000, 200, SizeUnit::Characters),
        )
        .expect("lib");
        assert_eq!(
            md.install,
            "cargo add text-splitter@=0.33.1 --features markdown\ncargo add serde_json@1"
        );
        assert!(md
            .code
            .contains("let config = ChunkConfig::new(1000).with_overlap(200)?;"));
        assert!(md.code.contains("MarkdownSplitter::new(config)"));
        // The other libraries have one snippet, in Python.
        let lc = snippets(StrategyId::LangchainToken, &tokens);
        assert_eq!(lc.len(), 1);
        assert_eq!(lc[0].language, PYTHON);
        assert!(rust(StrategyId::LangchainToken, &tokens).is_none());
    }

    /// Sized in a model's own tokens: the Python snippet loads that model's tokenizer by its
    /// Hugging Face name, turns off truncation and padding, and pins `tokenizers`; without the
    /// model (or with a model of another vocabulary) there is none, and never a Rust one.
    #[test]
    fn model_sized_snippets_load_the_models_own_tokenizer() {
        use crate::models::model;
        use crate::tokenizer::open::OpenVocab;
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let e5 = model("multilingual-e5-large").expect("in the table");
        let s = settings(256, 32, SizeUnit::Model(OpenVocab::BertUncased));
        // `reproducible` builds the chunker, which needs the tokenizer installed.
        crate::tokenizer::open::install_bert_for_tests();
        let lc = snippet_for(StrategyId::LangchainRecursive, &s, Some(bge)).expect("a snippet");
        assert_eq!(lc.language, PYTHON);
        assert_eq!(
            lc.install,
            format!("pip install langchain-text-splitters==1.1.3 tokenizers=={TOKENIZERS_VERSION}")
        );
        for line in [
            "tokenizer = Tokenizer.from_pretrained(\"BAAI/bge-small-en-v1.5\")",
            "tokenizer.no_truncation()",
            "tokenizer.no_padding()",
            "length_function=count",
            "add_special_tokens=False",
        ] {
            assert!(lc.code.contains(line), "{line}\n{}", lc.code);
        }
        let ts = snippets_for(StrategyId::TextSplitter, &s, Some(bge));
        assert_eq!(ts.len(), 1, "no Rust snippet in a model's tokens");
        assert!(ts[0]
            .code
            .contains("TextSplitter.from_huggingface_tokenizer(tokenizer, 256"));
        assert!(ts[0]
            .install
            .starts_with("pip install semantic-text-splitter==0.33.1"));
        let sc = snippet_for(StrategyId::Semchunk, &s, Some(bge)).expect("a snippet");
        assert!(sc.code.contains("semchunk.chunkerify(count, 256)"));
        assert!(
            snippet(StrategyId::LangchainRecursive, &s).is_none(),
            "no model"
        );
        assert!(snippet_for(StrategyId::LangchainRecursive, &s, Some(e5)).is_none());
        assert!(snippet_for(StrategyId::LangchainToken, &s, Some(bge)).is_none());
    }

    /// LlamaIndex's markdown chain: an ingestion pipeline of the two transformations over one
    /// Document, in tiktoken's tokens or the model's.
    #[test]
    fn the_llamaindex_markdown_snippet_runs_the_pipeline() {
        use crate::models::model;
        use crate::tokenizer::open::OpenVocab;
        let t = snippet(
            StrategyId::LlamaindexMarkdown,
            &settings(512, 64, SizeUnit::Tokens),
        )
        .expect("a library strategy");
        assert_eq!(
            t.install,
            "pip install llama-index-core==0.14.25 tiktoken==0.14.0"
        );
        for line in [
            "from llama_index.core.ingestion import IngestionPipeline",
            "        MarkdownNodeParser(),\n        SentenceSplitter(chunk_size=512, chunk_overlap=64, tokenizer=tokenizer),",
            "chunks = [node.text for node in pipeline.run(documents=[Document(text=text)])]",
        ] {
            assert!(t.code.contains(line), "{line}\n{}", t.code);
        }
        assert!(t
            .code
            .starts_with("# MarkdownNodeParser + SentenceSplitter from llama-index-core==0.14.25"));
        assert!(snippet(
            StrategyId::LlamaindexMarkdown,
            &settings(512, 64, SizeUnit::Characters)
        )
        .is_none());
        crate::tokenizer::open::install_bert_for_tests();
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let m = snippet_for(
            StrategyId::LlamaindexMarkdown,
            &settings(256, 32, SizeUnit::Model(OpenVocab::BertUncased)),
            Some(bge),
        )
        .expect("a snippet");
        assert!(m.code.contains("tokenizer=ids)"), "{}", m.code);
        assert!(m
            .code
            .contains("Tokenizer.from_pretrained(\"BAAI/bge-small-en-v1.5\")"));
    }
}
