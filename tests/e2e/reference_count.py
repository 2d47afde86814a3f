"""The reference figures the documents e2e test compares the page with: the reference
extraction of a fixture (crates/doc-extract/tests/reference.py: BeautifulSoup with html5lib,
python-docx) and its cl100k_base token count by Python's tiktoken, whitespace runs written as
one space. Prints one JSON object: {"tokens", "headings", "list_items", "tables"}.
Usage: reference_count.py html|docx PATH (TIKTOKEN_CACHE_DIR must hold the encoding file).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../crates/doc-extract/tests"))

import tiktoken  # noqa: E402
from reference import reference  # noqa: E402

if __name__ == "__main__":
    found = reference(sys.argv[1], sys.argv[2])
    text = " ".join(found["text"].split())
    tokens = len(tiktoken.get_encoding("cl100k_base").encode(text, disallowed_special=()))
    print(json.dumps({"tokens": tokens, "headings": found["headings"],
                      "list_items": found["list_items"], "tables": found["tables"]}))
