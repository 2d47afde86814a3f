"""Oracles for chonkie's chunkers (chonkie 1.7.0, with chonkie-core 0.10.2).

Tokens: a `tiktoken.Encoding` object is passed as the tokenizer (chonkie wraps it in its
`TiktokenAutoTokenizer`, reading the local tiktoken cache). A name string such as "cl100k_base"
would go through `tokie.Tokenizer.from_pretrained`, which downloads. Characters: chonkie's
default tokenizer, "character".
"""

import hf_models
import tiktoken
from chonkie import RecursiveChunker, TokenChunker


def _tokenizer(case):
    if case["unit"] == "characters":
        return "character"
    if case["unit"] == "model":
        # chonkie wraps a `tokenizers.Tokenizer` in its TokenizersAutoTokenizer.
        return hf_models.tokenizer(case["vocab"])
    return tiktoken.get_encoding(case["encoding"])


def _chunks(text, chunks):
    # chonkie's start_index/end_index are running sums of len(chunk.text) (RecursiveChunker.
    # _make_chunks, TokenChunker._create_chunks), not searches in the text. They are true
    # positions unless a chunk is a decoded token window that cuts a character: its U+FFFD
    # makes len() differ from the characters it covers, and every later offset drifts. Such
    # a case's offsets are no positions to compare: None for all its chunks.
    true = all(text[c.start_index : c.end_index] == c.text for c in chunks)
    return [
        {
            "text": c.text,
            "start": c.start_index if true else None,
            "end": c.end_index if true else None,
        }
        for c in chunks
    ]


def recursive(text, case):
    # RecursiveChunker has no chunk_overlap parameter (its signature is tokenizer, chunk_size,
    # rules, min_characters_per_chunk): a chonkie user runs it without one, whatever overlap
    # the case asks for, and so does the page.
    chunker = RecursiveChunker(tokenizer=_tokenizer(case), chunk_size=case["chunk_size"])
    return _chunks(text, chunker.chunk(text))


def token(text, case):
    chunker = TokenChunker(
        tokenizer=_tokenizer(case),
        chunk_size=case["chunk_size"],
        chunk_overlap=case["chunk_overlap"],
    )
    return _chunks(text, chunker.chunk(text))


ORACLES = {"chonkie-recursive": recursive, "chonkie-token": token}
