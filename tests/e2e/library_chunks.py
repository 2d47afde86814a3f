"""The libraries' own chunks of a text, for the end-to-end comparison test (compare.test.mjs).

Runs the differential tests' oracles (crates/chunk-core/tests/differential/oracle: each library
itself, at the pinned versions of its requirements.txt) and adds each chunk's token count by
tiktoken, the reference the page's "tokens embedded" must equal.

stdin: {"text": str, "cases": [{"strategy", "chunk_size", "chunk_overlap", "unit", "encoding"}]}
stdout: one JSON object: {"results": [{"strategy", "unit", "chunk_size", "chunk_overlap",
  "encoding", "chunks": [{"text", "tokens"}] } or {..., "error": "Type: message"}]}
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "..", "crates", "chunk-core", "tests", "differential", "oracle")
sys.path.insert(0, ORACLE)

import main as oracle  # noqa: E402  (the differential oracle)
import tiktoken  # noqa: E402


def run():
    request = json.load(sys.stdin)
    text = request["text"]
    oracle.init({"document": text})
    results = []
    for i, case in enumerate(request["cases"]):
        full = dict(case, id=i, doc="document")
        out = oracle.run_case(full)
        entry = dict(case)
        if "error" in out:
            entry["error"] = out["error"]
        else:
            enc = tiktoken.get_encoding(case["encoding"])
            entry["chunks"] = [
                {"text": c["text"], "tokens": len(enc.encode_ordinary(c["text"]))}
                for c in out["chunks"]
            ]
        results.append(entry)
    json.dump({"results": results}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    run()
