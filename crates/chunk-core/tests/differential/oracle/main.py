"""The differential tests' oracle: runs the real libraries on the cases the Rust test sends.

Protocol (one JSON object per line):
- stdin, first line: {"docs": {name: text, ...}, "vectors": {text: [float, ...], ...}} (the
  vectors only for the semantic chunkers, lib_semantic.py); then one case per line:
  {"id": int, "strategy": str, "doc": name, "chunk_size": int, "chunk_overlap": int,
   "unit": "tokens" | "characters", "encoding": "cl100k_base" | "o200k_base"}
- stdout, one line per case, in any order:
  {"id": int, "chunks": [{"text": str, "start": int | null, "end": int | null}, ...]}
  where start/end are the library's own offsets in characters (code points) when it reports
  them, or {"id": int, "error": "ExceptionType: message"} when the library raises.

Each lib_*.py module beside this file maps strategy ids to functions (text, case) -> chunks, or
-> {"chunks": chunks, ...} with more of what the library did, passed on in the result line.
Cases run in two worker processes (the CI machine has two cores).
"""

import json
import multiprocessing as mp
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

DOCS = {}
ORACLES = {}


def load_oracles():
    import importlib

    table = {}
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.startswith("lib_") and name.endswith(".py"):
            module = importlib.import_module(name[:-3])
            table.update(module.ORACLES)
    return table


def init(docs, vectors=None):
    global DOCS, ORACLES
    DOCS = docs
    ORACLES = load_oracles()
    if vectors:
        import lib_semantic

        lib_semantic.VECTORS = vectors


def run_case(case):
    try:
        fn = ORACLES[case["strategy"]]
    except KeyError:
        return {"id": case["id"], "error": f"NoOracle: no oracle for {case['strategy']}"}
    try:
        result = fn(DOCS[case["doc"]], case)
    except Exception as e:  # the library's own refusal is a result to compare
        return {"id": case["id"], "error": f"{type(e).__name__}: {e}"}
    if isinstance(result, dict):  # chunks and more of what the library did
        return {"id": case["id"], **result}
    return {"id": case["id"], "chunks": result}


def main():
    # split("\n"), not splitlines(): JSON leaves U+0085, U+2028 and U+2029 unescaped.
    lines = sys.stdin.read().split("\n")
    first = json.loads(lines[0])
    docs, vectors = first["docs"], first.get("vectors", {})
    cases = [json.loads(line) for line in lines[1:] if line.strip()]
    workers = int(os.environ.get("ORACLE_WORKERS", "2"))
    out = sys.stdout
    if workers <= 1:
        init(docs, vectors)
        results = map(run_case, cases)
        for r in results:
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
    else:
        with mp.get_context("fork").Pool(workers, initializer=init, initargs=(docs, vectors)) as pool:
            for r in pool.imap_unordered(run_case, cases, chunksize=4):
                out.write(json.dumps(r, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
