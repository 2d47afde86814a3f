"""Runs the page's code snippets (chunk_core::analysis::snippet) in the oracle venv.

stdin: one directory per line, each holding `snippet.py` and `document.txt`. For each, the
snippet runs with that directory as the working directory (its own output is swallowed) and
one JSON line goes to stdout: {"dir": ..., "chunks": [...]} with the snippet's `chunks` list,
or {"dir": ..., "error": "ExceptionType: message"}.
"""

import contextlib
import io
import json
import os
import runpy
import sys


def main():
    out = sys.stdout
    for line in sys.stdin.read().splitlines():
        directory = line.strip()
        if not directory:
            continue
        os.chdir(directory)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                scope = runpy.run_path("snippet.py", run_name="__main__")
            result = {"dir": directory, "chunks": list(scope["chunks"])}
        except Exception as e:
            result = {"dir": directory, "error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
