"""The semantic chunkers' own speed, for make bench-semantic: chonkie 1.7.0 SemanticChunker,
langchain-experimental 0.4.2 SemanticChunker and llama-index-core 0.14.25
SemanticSplitterNodeParser, each with model2vec's potion-base-8M (fp32, the published weights,
loaded from the model folder offline) wrapped as that library's embedding object, at each
library's defaults and chunk_size 512 where it has one.

Usage: semantic.py MODEL_DIR TEXT_FILE... ; prints one JSON line per file and library:
  {"file", "bytes", "strategy", "chunks", "ms"}
where ms is the wall time of one chunking call from a loaded model (best of `RUNS`, default 3;
each call embeds every sentence window again, as a pipeline does).
"""

import json
import os
import sys
import time

os.environ["HF_HUB_OFFLINE"] = "1"

import numpy as np  # noqa: E402
from chonkie import SemanticChunker as ChonkieSemanticChunker  # noqa: E402
from chonkie.embeddings import Model2VecEmbeddings  # noqa: E402
from langchain_core.embeddings import Embeddings  # noqa: E402
from langchain_experimental.text_splitter import SemanticChunker as LangchainSemanticChunker  # noqa: E402
from llama_index.core import Document  # noqa: E402
from llama_index.core.base.embeddings.base import BaseEmbedding  # noqa: E402
from llama_index.core.node_parser import SemanticSplitterNodeParser  # noqa: E402
from model2vec import StaticModel  # noqa: E402
from pydantic import PrivateAttr  # noqa: E402

RUNS = int(os.environ.get("RUNS", "3"))


class LangchainModel2Vec(Embeddings):
    def __init__(self, model):
        self.model = model

    def embed_documents(self, texts):
        return [list(map(float, v)) for v in self.model.encode(texts)]

    def embed_query(self, text):
        return self.embed_documents([text])[0]


class LlamaindexModel2Vec(BaseEmbedding):
    _model: object = PrivateAttr()

    def __init__(self, model, **kwargs):
        super().__init__(**kwargs)
        self._model = model

    def _get_query_embedding(self, query):
        return list(map(float, self._model.encode([query])[0]))

    async def _aget_query_embedding(self, query):
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text):
        return self._get_query_embedding(text)

    def _get_text_embeddings(self, texts):
        return [list(map(float, v)) for v in self._model.encode(texts)]


def best(fn):
    times, out = [], None
    for _ in range(RUNS):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return out, min(times)


def main():
    model = StaticModel.from_pretrained(sys.argv[1])
    chonkie = ChonkieSemanticChunker(embedding_model=Model2VecEmbeddings(model), chunk_size=512)
    langchain = LangchainSemanticChunker(LangchainModel2Vec(model))
    llama = SemanticSplitterNodeParser.from_defaults(
        embed_model=LlamaindexModel2Vec(model, embed_batch_size=256), include_prev_next_rel=False
    )
    runs = {
        "chonkie-semantic": lambda text: chonkie.chunk(text),
        "langchain-semantic": lambda text: langchain.split_text(text),
        "llamaindex-semantic": lambda text: llama.get_nodes_from_documents([Document(text=text)]),
    }
    for path in sys.argv[2:]:
        text = open(path, encoding="utf-8").read()
        for name, run in runs.items():
            chunks, ms = best(lambda: run(text))
            line = {"file": os.path.basename(path), "bytes": len(text.encode()), "strategy": name,
                    "chunks": len(chunks), "ms": round(ms, 1)}
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
