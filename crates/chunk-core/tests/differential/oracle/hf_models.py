"""The open models' tokenizers for the strategy oracles: Hugging Face `tokenizers` pipelines over
the vocabulary files the repository ships (crates/chunk-core/vocab/), the same ones
tests/wordpiece.rs and tests/unigram.rs check our tokenizers against (hf_wordpiece.py,
hf_unigram.py). A case with "unit": "model" names one by its code in "vocab".

`count(vocab)` is the length function every library is given: the model's tokens without its
special tokens, `len(tokenizer.encode(text, add_special_tokens=False).ids)`. It is what
LangChain's `from_huggingface_tokenizer` measures (`len(tokenizer.tokenize(text))`, which for a
fast tokenizer is that encoding's tokens), what text-splitter's `ChunkSizer` for a `Tokenizer`
counts (`encode(chunk, false)`), and what chonkie's `TokenizersAutoTokenizer` counts.
"""

import functools
import os

import hf_unigram
import hf_wordpiece

VOCAB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vocab")
FILES = {
    "bert-uncased": ("bert-base-uncased.txt", hf_wordpiece.build),
    "xlm-roberta": ("xlm-roberta.unigram", hf_unigram.build),
}


@functools.lru_cache(maxsize=None)
def tokenizer(vocab):
    """The `tokenizers.Tokenizer` of a vocabulary code."""
    name, build = FILES[vocab]
    return build(os.path.join(VOCAB, name))


@functools.lru_cache(maxsize=None)
def count(vocab):
    """The length function: tokens without special tokens."""
    tok = tokenizer(vocab)
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def ids(vocab):
    """LlamaIndex's `tokenizer` callable: the ids without special tokens."""
    tok = tokenizer(vocab)
    return lambda text: tok.encode(text, add_special_tokens=False).ids
