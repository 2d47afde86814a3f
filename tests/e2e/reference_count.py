"""The reference figures the documents e2e test compares the page with: the reference
extraction of a fixture (crates/doc-extract/tests/reference.py: BeautifulSoup with html5lib,
python-docx, pypdf) and its cl100k_base token count by Python's tiktoken, whitespace runs
written as one space (a PDF's line breaks kept). Prints one JSON object: {"tokens", "headings", "list_items", "tables"},
for HTML also "removed", "boilerplate" and "images" (what was left out), and for a PDF also "pages" (each page's text, as pypdf extracts it).
Usage: reference_count.py html|docx|pdf PATH (TIKTOKEN_CACHE_DIR must hold the encoding file).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../crates/doc-extract/tests"))

import tiktoken  # noqa: E402
from reference import reference  # noqa: E402

if __name__ == "__main__":
    found = reference(sys.argv[1], sys.argv[2])
    if sys.argv[1] == "pdf":
        # A PDF's lines are kept, as a pipeline's PDF loader keeps them (each line break is a
        # token the page counts too); runs of spaces inside a line, which justified text sets
        # as wide gaps, are one space, as the page writes them.
        lines = (" ".join(line.split()) for line in found["text"].split("\n"))
        text = "\n".join(line for line in lines if line)
    else:
        text = " ".join(found["text"].split())
    tokens = len(tiktoken.get_encoding("cl100k_base").encode(text, disallowed_special=()))
    out = {"tokens": tokens, "headings": found["headings"], "list_items": found["list_items"],
           "tables": found["tables"]}
    if "pages" in found:
        out["pages"] = found["pages"]
    for key in ("removed", "boilerplate", "images"):
        if key in found:
            out[key] = found[key]
    print(json.dumps(out))
