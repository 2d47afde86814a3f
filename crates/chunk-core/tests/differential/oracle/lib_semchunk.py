"""Oracle for semchunk 4.1.1: `semchunk.chunkerify(tiktoken.get_encoding(enc), chunk_size)` called
as `chunker(text, overlap=..., offsets=True)`.

semchunk returns its own offsets in characters, so they are compared too. An overlap of 0 is
passed as 0 (falsy: no overlap, the same as None); any other overlap is an int >= 1, which semchunk
takes as a number of tokens (a float below 1 would be a ratio of the chunk size).

Model tokens: the model's tokenizer is given as a token counter (hf_models.count), so semchunk
finds no vocabulary and uses no `max_token_chars` shortcut.
"""

import hf_models
import semchunk
import tiktoken

_CHUNKERS = {}


def _chunker(case):
    # chunkerify memoizes its token counter; a cached count never changes a result, so one
    # chunker per (tokenizer, size) is the same as a new one per case, and much faster.
    model = case["unit"] == "model"
    key = (case["vocab"] if model else case["encoding"], case["chunk_size"])
    if key not in _CHUNKERS:
        counter = hf_models.count(key[0]) if model else tiktoken.get_encoding(key[0])
        _CHUNKERS[key] = semchunk.chunkerify(counter, case["chunk_size"])
    return _CHUNKERS[key]


def semchunk_oracle(text, case):
    chunker = _chunker(case)
    chunks, offsets = chunker(text, overlap=case["chunk_overlap"], offsets=True)
    return [{"text": c, "start": s, "end": e} for c, (s, e) in zip(chunks, offsets)]


ORACLES = {"semchunk": semchunk_oracle}
