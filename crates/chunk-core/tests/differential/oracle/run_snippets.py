"""Runs the page's code snippets (chunk_core::analysis::snippet) in the oracle venv.

stdin: one directory per line, each holding `snippet.py` and `document.txt`. For each, the
snippet runs with that directory as the working directory (its own output is swallowed) and
one JSON line goes to stdout: {"dir": ..., "chunks": [...]} with the snippet's `chunks` list,
or {"dir": ..., "error": "ExceptionType: message"}.

A snippet sized in an open model's own tokens loads the model's tokenizer with
`Tokenizer.from_pretrained(name)`, which would download it. Where the directory holds
`hub.json` ({name: vocabulary code}), a stand-in for the Hub answers instead, for those names
only: the pipeline over the repository's own vocabulary file (hf_models.py) with the
truncation and padding the models' tokenizer.json files carry (all-MiniLM-L6-v2: 128 tokens,
padded; multilingual-e5: truncated at 512), so a snippet that forgot to turn them off counts
wrong and fails.
"""

import contextlib
import io
import json
import os
import runpy
import sys

import tokenizers

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_models  # noqa: E402

REAL_TOKENIZER = tokenizers.Tokenizer
# What each vocabulary's models carry in their tokenizer.json: (truncation, padding).
HUB_SETTINGS = {
    "bert-uncased": (128, ("[PAD]", 0, 128)),
    "xlm-roberta": (512, None),
}


class HubStandIn:
    """`tokenizers.Tokenizer` as a snippet sees it, with `from_pretrained` served locally."""

    def __init__(self, names):
        self.names = names

    def from_pretrained(self, name, *args, **kwargs):
        if name not in self.names:
            raise OSError(f"the test Hub has no {name!r}")
        vocab = self.names[name]
        tok = REAL_TOKENIZER.from_str(hf_models.tokenizer(vocab).to_str())
        truncation, padding = HUB_SETTINGS[vocab]
        tok.enable_truncation(truncation)
        if padding:
            pad_token, pad_id, length = padding
            tok.enable_padding(pad_id=pad_id, pad_token=pad_token, length=length)
        return tok


@contextlib.contextmanager
def hub(directory):
    path = os.path.join(directory, "hub.json")
    if not os.path.exists(path):
        yield
        return
    with open(path, encoding="utf-8") as f:
        tokenizers.Tokenizer = HubStandIn(json.load(f))
    try:
        yield
    finally:
        tokenizers.Tokenizer = REAL_TOKENIZER


def main():
    out = sys.stdout
    for line in sys.stdin.read().splitlines():
        directory = line.strip()
        if not directory:
            continue
        os.chdir(directory)
        try:
            with contextlib.redirect_stdout(io.StringIO()), hub(directory):
                scope = runpy.run_path("snippet.py", run_name="__main__")
            result = {"dir": directory, "chunks": list(scope["chunks"])}
        except Exception as e:
            result = {"dir": directory, "error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
