"""Oracles for LlamaIndex's node parsers (llama-index-core 0.14.25).

Both splitters count tokens with tiktoken's ``encode(..., allowed_special="all")``, which is what
llama-index's default ``get_tokenizer()`` builds (for gpt-3.5-turbo, i.e. cl100k_base); the same
call is made for o200k_base. Chunks are ``split_text(text)``. Offsets are left None: llama-index
only finds them by ``str.find`` of the chunk text from the previous chunk's start + 1
(``NodeParser._postprocess_parsed_nodes``), which is a text search, not the chunk's position.

The markdown chain (``llamaindex-markdown``) is ``MarkdownNodeParser()`` then the same
``SentenceSplitter`` in an ``IngestionPipeline`` over one ``Document``: each node's text, with its
``header_path`` metadata.
"""

import contextlib
import functools
import io
import re

import hf_models
import tiktoken
from llama_index.core import Document
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import MarkdownNodeParser, SentenceSplitter, TokenTextSplitter


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


# What SentenceSplitter.split_text_metadata_aware prints when under 50 tokens remain.
CLOSE = re.compile(r"^Metadata length \((\d+)\) is close to chunk size \((\d+)\)\.")


def markdown(text, case):
    """MarkdownNodeParser then SentenceSplitter as an ingestion pipeline runs them. Each chunk
    carries its node's header_path metadata; "close" lists the metadata lengths of the nodes
    for which the splitter printed its "close to chunk size" line, in order (captured: the
    print would otherwise go into this oracle's output)."""
    pipeline = IngestionPipeline(
        transformations=[
            MarkdownNodeParser(),
            SentenceSplitter(
                chunk_size=case["chunk_size"],
                chunk_overlap=case["chunk_overlap"],
                tokenizer=_tokenizer_of(case),
            ),
        ]
    )
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        nodes = pipeline.run(documents=[Document(text=text)])
    close = []
    for line in printed.getvalue().splitlines():
        m = CLOSE.match(line)
        if m is None:
            raise AssertionError(f"unexpected output of the library: {line!r}")
        close.append(int(m.group(1)))
    chunks = [
        {"text": n.text, "start": None, "end": None, "header_path": n.metadata["header_path"]}
        for n in nodes
    ]
    return {"chunks": chunks, "close": close}


ORACLES = {
    "llamaindex-token": token,
    "llamaindex-sentence": sentence,
    "llamaindex-markdown": markdown,
}
