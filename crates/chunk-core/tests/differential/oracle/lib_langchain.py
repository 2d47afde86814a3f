"""Oracles for LangChain's splitters (langchain-text-splitters 1.1.3)."""

import hf_models
from langchain_text_splitters import (
    Language,
    MarkdownHeaderTextSplitter,
    RecursiveCharacterTextSplitter,
    TokenTextSplitter,
)

HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]


def token(text, case):
    splitter = TokenTextSplitter(
        encoding_name=case["encoding"],
        chunk_size=case["chunk_size"],
        chunk_overlap=case["chunk_overlap"],
    )
    return [{"text": t, "start": None, "end": None} for t in splitter.split_text(text)]


def recursive_splitter(case, add_start_index, language=None):
    """The recursive splitter of a case: `len` for characters, tiktoken for tokens, the model's
    tokenizer as the length function for model tokens (what `from_huggingface_tokenizer`
    builds from a transformers tokenizer over the same pipeline; hf_models.py). With a
    `language`, `from_language(language, ...)`; in tokens, the same separators and
    `is_separator_regex=True` that `from_language` passes, given to `from_tiktoken_encoder`."""
    sizes = {
        "chunk_size": case["chunk_size"],
        "chunk_overlap": case["chunk_overlap"],
        "add_start_index": add_start_index,
    }
    if case["unit"] == "model":
        sizes["length_function"] = hf_models.count(case["vocab"])
    if language is not None:
        if case["unit"] == "tokens":
            separators = RecursiveCharacterTextSplitter.get_separators_for_language(language)
            return RecursiveCharacterTextSplitter.from_tiktoken_encoder(
                encoding_name=case["encoding"],
                separators=separators,
                is_separator_regex=True,
                **sizes,
            )
        return RecursiveCharacterTextSplitter.from_language(language, **sizes)
    if case["unit"] in ("characters", "model"):
        return RecursiveCharacterTextSplitter(**sizes)
    return RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=case["encoding"], **sizes
    )


def start_of(doc, text):
    # `create_documents` finds start_index with `str.find` from a guessed offset: -1 when it
    # misses, and an earlier copy when the chunk's text occurs more than once (猫×200). Only
    # the start of a chunk whose text occurs once in the document is a true position.
    start = doc.metadata["start_index"]
    chunk = doc.page_content
    unique = text.find(chunk) == text.rfind(chunk)
    return start if start >= 0 and unique else None


def recursive(text, case):
    docs = recursive_splitter(case, True).create_documents([text])
    return [{"text": d.page_content, "start": start_of(d, text), "end": None} for d in docs]


def markdown_language(text, case):
    # RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN, ...): regex separators.
    docs = recursive_splitter(case, True, Language.MARKDOWN).create_documents([text])
    return [{"text": d.page_content, "start": start_of(d, text), "end": None} for d in docs]


def markdown(text, case):
    # start_index would be relative to each header section's rewritten text, not to the
    # document: not compared.
    sections = MarkdownHeaderTextSplitter(headers_to_split_on=HEADERS).split_text(text)
    docs = recursive_splitter(case, False).split_documents(sections)
    return [
        {
            "text": d.page_content,
            "start": None,
            "end": None,
            # The headers a chunk is under, outermost first (metadata keys in HEADERS order).
            "heading_path": [d.metadata[name] for _, name in HEADERS if name in d.metadata],
        }
        for d in docs
    ]


ORACLES = {
    "langchain-token": token,
    "langchain-recursive": recursive,
    "langchain-markdown": markdown,
    "langchain-markdown-language": markdown_language,
}
