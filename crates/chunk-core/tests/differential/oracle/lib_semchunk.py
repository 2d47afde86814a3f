"""Oracle for semchunk 4.1.1: `semchunk.chunkerify(tiktoken.get_encoding(enc), chunk_size)` called
as `chunker(text, overlap=..., offsets=True)`.

semchunk returns its own offsets in characters, so they are compared too. An overlap of 0 is
passed as 0 (falsy: no overlap, the same as None); any other overlap is an int >= 1, which semchunk
takes as a number of tokens (a float below 1 would be a ratio of the chunk size).
"""

import semchunk
import tiktoken

_CHUNKERS = {}


def _chunker(encoding, chunk_size):
    # chunkerify memoizes its token counter; a cached count never changes a result, so one
    # chunker per (encoding, size) is the same as a new one per case, and much faster.
    key = (encoding, chunk_size)
    if key not in _CHUNKERS:
        _CHUNKERS[key] = semchunk.chunkerify(tiktoken.get_encoding(encoding), chunk_size)
    return _CHUNKERS[key]


def semchunk_oracle(text, case):
    chunker = _chunker(case["encoding"], case["chunk_size"])
    chunks, offsets = chunker(text, overlap=case["chunk_overlap"], offsets=True)
    return [{"text": c, "start": s, "end": e} for c, (s, e) in zip(chunks, offsets)]


ORACLES = {"semchunk": semchunk_oracle}
