"""Oracles for the text-splitter crate 0.33.1 through its Python binding, semantic-text-splitter
0.33.1 (`TextSplitter`, `MarkdownSplitter`).

Characters: `Splitter(capacity, overlap=...)` (the crate's default `Characters` sizer). Tokens:
`Splitter.from_tiktoken_model(model, capacity, overlap=...)`, with a model name that tiktoken-rs
maps to the encoding ("gpt-4" -> cl100k_base, "gpt-4o" -> o200k_base). `chunk_indices` gives the
character offset of every (trimmed) chunk, so offsets are compared.
"""

import hf_models
from semantic_text_splitter import MarkdownSplitter, TextSplitter

MODEL_FOR_ENCODING = {"cl100k_base": "gpt-4", "o200k_base": "gpt-4o"}


def _make(cls, case):
    if case["unit"] == "characters":
        return cls(case["chunk_size"], overlap=case["chunk_overlap"])
    if case["unit"] == "model":
        return cls.from_huggingface_tokenizer(
            hf_models.tokenizer(case["vocab"]), case["chunk_size"], overlap=case["chunk_overlap"]
        )
    return cls.from_tiktoken_model(
        MODEL_FOR_ENCODING[case["encoding"]], case["chunk_size"], overlap=case["chunk_overlap"]
    )


def _run(cls):
    def oracle(text, case):
        splitter = _make(cls, case)
        return [
            {"text": t, "start": s, "end": s + len(t)} for s, t in splitter.chunk_indices(text)
        ]

    return oracle


ORACLES = {
    "text-splitter": _run(TextSplitter),
    "text-splitter-markdown": _run(MarkdownSplitter),
}
