"""Oracles for the semantic chunkers, each run with an embedding object of its own library's
kind that returns the vectors the Rust side computed for exactly that text (the first input
line's "vectors": {text: [float, ...]}, the float64 values of the float32 vectors). A text the
library asks for that the Rust side did not embed raises KeyError: the texts embedded are part
of what is compared.

- chonkie 1.7.0 `SemanticChunker`: a `BaseEmbeddings` subclass; vectors as float64 arrays
  (chonkie's `similarity` computes in their dtype and returns `np.float32`). Its tokenizer
  (what `chunk_size` counts) is the case's unit, as for chonkie's other chunkers.
- langchain-experimental 0.4.2 `SemanticChunker`: an `Embeddings` subclass; `split_text`.
- llama-index-core 0.14.25 `SemanticSplitterNodeParser`: a `BaseEmbedding` subclass;
  `get_nodes_from_documents`, the nodes' text (their `start_char_idx` is `str.find` of the
  text from the previous node's start + 1, a search rather than a position: not compared).
"""

import numpy as np
from chonkie import SemanticChunker as ChonkieSemanticChunker
from chonkie.embeddings import BaseEmbeddings
from langchain_core.embeddings import Embeddings
from langchain_experimental.text_splitter import SemanticChunker as LangchainSemanticChunker
from llama_index.core import Document
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import SemanticSplitterNodeParser

import lib_chonkie

# Set by main.py from the first input line.
VECTORS = {}


def vector(text):
    try:
        return VECTORS[text]
    except KeyError:
        raise KeyError(f"no vector was sent for the text {text[:80]!r} ({len(text)} chars)")


class ChonkieLookup(BaseEmbeddings):
    def __init__(self, tokenizer):
        super().__init__()
        self._tokenizer = tokenizer

    def embed(self, text):
        return np.asarray(vector(text), dtype=np.float64)

    def embed_batch(self, texts):
        return [self.embed(t) for t in texts]

    @property
    def dimension(self):
        return len(next(iter(VECTORS.values())))

    def get_tokenizer(self):
        return self._tokenizer

    @classmethod
    def _is_available(cls):
        return True


class LangchainLookup(Embeddings):
    def embed_documents(self, texts):
        return [list(vector(t)) for t in texts]

    def embed_query(self, text):
        return list(vector(text))


class LlamaindexLookup(BaseEmbedding):
    def _get_query_embedding(self, query):
        return list(vector(query))

    async def _aget_query_embedding(self, query):
        return list(vector(query))

    def _get_text_embedding(self, text):
        return list(vector(text))


def chonkie_semantic(text, case):
    p = case.get("params", {})
    chunker = ChonkieSemanticChunker(
        embedding_model=ChonkieLookup(lib_chonkie._tokenizer(case)),
        chunk_size=case["chunk_size"],
        **p,
    )
    return lib_chonkie._chunks(text, chunker.chunk(text))


def langchain_semantic(text, case):
    chunker = LangchainSemanticChunker(LangchainLookup(), **case.get("params", {}))
    return [{"text": t, "start": None, "end": None} for t in chunker.split_text(text)]


def llamaindex_semantic(text, case):
    p = case.get("params", {})
    parser = SemanticSplitterNodeParser.from_defaults(
        embed_model=LlamaindexLookup(), include_prev_next_rel=False, **p
    )
    nodes = parser.get_nodes_from_documents([Document(text=text)])
    return [
        {"text": n.text, "start": None, "end": None} for n in nodes
    ]


ORACLES = {
    "chonkie-semantic": chonkie_semantic,
    "langchain-semantic": langchain_semantic,
    "llamaindex-semantic": llamaindex_semantic,
}
