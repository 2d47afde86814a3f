"""Oracles for LlamaIndex's node parsers (llama-index-core 0.14.25).

Both splitters count tokens with tiktoken's ``encode(..., allowed_special="all")``, which is what
llama-index's default ``get_tokenizer()`` builds (for gpt-3.5-turbo, i.e. cl100k_base); the same
call is made for o200k_base. Chunks are ``split_text(text)``. Offsets are left None: llama-index
only finds them by ``str.find`` of the chunk text from the previous chunk's start + 1
(``NodeParser._postprocess_parsed_nodes``), which is a text search, not the chunk's position.
"""

import functools

import hf_models
import tiktoken
from llama_index.core.node_parser import SentenceSplitter, TokenTextSplitter


@functools.lru_cache(maxsize=None)
def _tokenizer(encoding):
    return functools.partial(tiktoken.get_encoding(encoding).encode, allowed_special="all")


def _tokenizer_of(case):
    if case["unit"] == "model":
        return hf_models.ids(case["vocab"])
    return _tokenizer(case["encoding"])


def _chunks(texts):
    return [{"text": t, "start": None, "end": None} for t in texts]


def token(text, case):
    splitter = TokenTextSplitter(
        chunk_size=case["chunk_size"],
        chunk_overlap=case["chunk_overlap"],
        tokenizer=_tokenizer_of(case),
    )
    return _chunks(splitter.split_text(text))


def sentence(text, case):
    splitter = SentenceSplitter(
        chunk_size=case["chunk_size"],
        chunk_overlap=case["chunk_overlap"],
        tokenizer=_tokenizer_of(case),
    )
    return _chunks(splitter.split_text(text))


ORACLES = {"llamaindex-token": token, "llamaindex-sentence": sentence}
