"""Each library constructor's own defaults for chunk_size / chunk_overlap and the length unit,
read from the installed libraries' signatures (inspect), for the differential test
`library_defaults_are_the_libraries_own`. Prints one JSON object:
{strategy_id: {"chunk_size": int, "chunk_overlap": int, "unit": "tokens" | "characters"}}.
"""

import inspect
import json

from chonkie import RecursiveChunker, TokenChunker
from langchain_text_splitters import TextSplitter
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.node_parser import TokenTextSplitter as LlamaTokenTextSplitter


def defaults(fn, *names):
    params = inspect.signature(fn).parameters
    return [params[n].default for n in names]


def entry(size, overlap, unit):
    return {"chunk_size": size, "chunk_overlap": overlap, "unit": unit}


size, overlap, length = defaults(TextSplitter.__init__, "chunk_size", "chunk_overlap", "length_function")
# TextSplitter measures with len by default; TokenTextSplitter inherits the sizes, in tokens.
chars = "characters" if length is len else "unknown"
out = {
    "langchain-recursive": entry(size, overlap, chars),
    "langchain-markdown": entry(size, overlap, chars),
    # from_language(Language.MARKDOWN, **kwargs) passes the sizes on to TextSplitter.__init__.
    "langchain-markdown-language": entry(size, overlap, chars),
    "langchain-token": entry(size, overlap, "tokens"),
}
out["llamaindex-sentence"] = entry(*defaults(SentenceSplitter.__init__, "chunk_size", "chunk_overlap"), "tokens")
# MarkdownNodeParser has no size: the chain is sized by its SentenceSplitter.
out["llamaindex-markdown"] = out["llamaindex-sentence"]
out["llamaindex-token"] = entry(*defaults(LlamaTokenTextSplitter.__init__, "chunk_size", "chunk_overlap"), "tokens")
for sid, cls, has_overlap in (("chonkie-recursive", RecursiveChunker, False), ("chonkie-token", TokenChunker, True)):
    names = ["tokenizer", "chunk_size"] + (["chunk_overlap"] if has_overlap else [])
    values = defaults(cls.__init__, *names)
    unit = "characters" if values[0] == "character" else "unknown"
    out[sid] = entry(values[1], values[2] if has_overlap else 0, unit)
print(json.dumps(out))
