//! The code that reproduces a library strategy's chunks with the library itself: Python that
//! reads `document.txt` (UTF-8, line endings kept as they are) and leaves the chunk texts in a
//! list named `chunks`. The differential tests run every snippet in the pinned venv and compare
//! its `chunks` with the strategy's own, chunk for chunk.

use crate::strategy::{Settings, SizeUnit, StrategyId};

/// The tiktoken version the snippets install: the one pinned in the differential tests'
/// `requirements.txt` (a test checks they agree).
pub const TIKTOKEN_VERSION: &str = "0.14.0";

/// A snippet: the install line and the program.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Snippet {
    /// The language of [`Snippet::code`] (`"python"`).
    pub language: String,
    /// The `pip install` line with exact versions.
    pub install: String,
    /// The program: reads `document.txt`, leaves the chunk texts in `chunks`, prints the count.
    pub code: String,
}

/// The snippet for `id` with `settings` (every other parameter at the library's default, as
/// [`crate::strategy::chunker`] builds it); `None` for the product's own strategies and for a
/// setting the strategy refuses (a unit it cannot size in, an overlap its library lacks).
pub fn snippet(id: StrategyId, settings: &Settings) -> Option<Snippet> {
    let lib = id.library()?;
    // A setting the strategy refuses (an overlap chonkie's RecursiveChunker does not have, a
    // size the library rejects) has no code that reproduces it.
    if !id.supports(settings.unit) || crate::strategy::chunker(id, settings).is_err() {
        return None;
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
                format!("chunker = RecursiveChunker(tokenizer={tokenizer}, chunk_size={size})\n")
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
        language: "python".to_owned(),
        install: format!("pip install {}", packages.join(" ")),
        code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Encoding;

    fn settings(size: usize, overlap: usize, unit: SizeUnit) -> Settings {
        Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit,
            encoding: Encoding::Cl100kBase,
        }
    }

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
    fn the_langchain_recursive_snippet_is_the_documented_call() {
        let s = snippet(
            StrategyId::LangchainRecursive,
            &settings(1000, 200, SizeUnit::Characters),
        )
        .expect("a library strategy");
        assert_eq!(s.install, "pip install langchain-text-splitters==1.1.3");
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
        assert_eq!(ts.install, "pip install semantic-text-splitter==0.33.1");
        assert!(t.code.contains("chunks = chunker(text)\n"));
    }
}
