"""The Python side of the strategy bench (bench/strategies.mjs): times each library the
library-exact strategies reproduce, through the differential test's own oracle functions
(crates/chunk-core/tests/differential/oracle/lib_*.py), so the library calls are exactly the
ones our chunks are compared with.

Run with the oracle venv's python (scripts/ensure-oracle.sh prints CHUNK_ORACLE_PYTHON and
TIKTOKEN_CACHE_DIR; tiktoken reads its encodings from that cache, never the network):

    python bench/strategies.py SPEC.json [--oracle-dir DIR]

SPEC.json: {"texts": {name: path}, "runs": int, "cases": [{"strategy": id, "text": name,
"chunk_size": int, "chunk_overlap": int, "unit": "tokens" | "characters", "encoding": name,
"retry_without_overlap": bool}]}. Texts are read as bytes and decoded as UTF-8 (no newline
translation), so this reads exactly what the wasm side read.

Each case: one warm-up call on a short made-up text (imports, tiktoken's encoding and any lazy
set-up are then done), then at least `runs` timed calls on the real text (more for a short call:
as many as take about MIN_TIMED_MS, up to MAX_RUNS; 1 when the first took longer than SLOW_S),
wall-clock time.perf_counter; the median is reported. Each timed call runs in a
process forked from the warmed-up one, so no call sees what an earlier call on the same text
left in a cache (semchunk memoizes its token counter process-wide: a second call on the same
text would only look up its counts); the fork is not timed. The chunk count and the sum of the
chunks' tiktoken `encode_ordinary` lengths are taken after the timed call.
With retry_without_overlap (sent when our side has no overlap answer), a case whose library
raises with an overlap is run again with chunk_overlap 0.

Prints one JSON object on stdout: {"python": version, "packages": {name: version},
"oracle_dir": path, "oracles": [strategy ids], "results":
[{"strategy", "text", "chunk_overlap", "chunks", "tokens", "ms", "runs"} or
{"strategy", "text", "chunk_overlap", "error"}]}; progress goes to stderr.
"""

import argparse
import importlib.metadata
import importlib.util
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE_DIR = os.path.join(
    HERE, "..", "crates", "chunk-core", "tests", "differential", "oracle"
)
# A single timed run when the first took longer than this (seconds): the figure is a median of 1.
SLOW_S = 10.0
# bench/lib/measure.mjs's MIN_TIMED_MS and MAX_RUNS: more timed calls for a short call.
MIN_TIMED_MS = 250
MAX_RUNS = 25
# The Python distribution that holds a library when it differs from the Library::package name
# (text-splitter is a Rust crate; its Python binding is semantic-text-splitter).
DISTRIBUTION = {"text-splitter": "semantic-text-splitter"}


def load_oracles(oracle_dir):
    """{strategy_id: fn(text, case)} from the oracle's own main.load_oracles()."""
    oracle_dir = os.path.abspath(oracle_dir)
    sys.path.insert(0, oracle_dir)
    spec = importlib.util.spec_from_file_location(
        "differential_oracle", os.path.join(oracle_dir, "main.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.load_oracles()


def shown_path(path):
    """`path` relative to the repository when inside it, else absolute."""
    path = os.path.normpath(os.path.abspath(path))
    root = os.path.normpath(os.path.join(HERE, ".."))
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else path


def installed(package):
    name = DISTRIBUTION.get(package, package)
    try:
        return f"{name} {importlib.metadata.version(name)}"
    except importlib.metadata.PackageNotFoundError:
        return None


# The warm-up text: a few paragraphs, headings and sentences, in no text of the bench.
WARMUP = "\n\n".join(
    f"## Warm-up {i}\n\nSentence {i} of the warm-up, with a clause; and a few words. "
    f"Another one follows it! Does a question? Здесь тоже, 这里也是。"
    for i in range(40)
)


class LibraryRaised(Exception):
    """The library raised in the timed call; the message is its "Type: message"."""


class NotDeterministic(Exception):
    """Two calls on the same case gave different chunk counts."""


def timed_call(fn, text, case, count_tokens):
    """One timed call, in a forked child: {"ms", "chunks", "tokens"} or {"error"}."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)

    def body():
        try:
            t = time.perf_counter()
            chunks = fn(text, case)
            ms = (time.perf_counter() - t) * 1e3
            if isinstance(chunks, dict):  # chunks and more of what the library did
                chunks = chunks["chunks"]
            tokens = sum(count_tokens(case["encoding"], c["text"]) for c in chunks)
            child.send({"ms": ms, "chunks": len(chunks), "tokens": tokens})
        except Exception as e:  # the library's refusal is a figure too
            child.send({"error": f"{type(e).__name__}: {e}"})

    proc = ctx.Process(target=body)
    proc.start()
    child.close()
    try:
        out = parent.recv()
    except EOFError:
        out = None
    proc.join()
    return out or {"error": f"the timing process died (exit code {proc.exitcode})"}


def run_case(fn, text, case, runs, count_tokens):
    """Warm-up, then timed runs; the result dict (without strategy/text). Raises the
    library's exception when it refuses the case."""
    fn(WARMUP, case)
    count_tokens(case["encoding"], WARMUP)  # loads the encoding before the forks
    first = timed_call(fn, text, case, count_tokens)
    if "error" in first:
        raise LibraryRaised(first["error"])
    done = [first]
    # As bench/lib/measure.mjs timedRuns: at least `runs`, for a short call as many as take
    # about MIN_TIMED_MS in all, up to MAX_RUNS.
    n = (
        1
        if first["ms"] > SLOW_S * 1e3
        else max(runs, min(MAX_RUNS, math.ceil(MIN_TIMED_MS / max(first["ms"], 0.01))))
    )
    while len(done) < n:
        again = timed_call(fn, text, case, count_tokens)
        if "error" in again or again["chunks"] != first["chunks"]:
            raise NotDeterministic(f"{first} then {again}")
        done.append(again)
    return {
        "chunk_overlap": case["chunk_overlap"],
        "chunks": first["chunks"],
        "tokens": first["tokens"],
        "ms": statistics.median(d["ms"] for d in done),
        "runs": n,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="the cases, as JSON (see the module docstring)")
    ap.add_argument(
        "--oracle-dir",
        default=ORACLE_DIR,
        help="the differential oracle directory (default: the repository's)",
    )
    args = ap.parse_args()
    with open(args.spec, "rb") as f:
        spec = json.loads(f.read().decode("utf-8"))
    texts = {}
    for name, path in spec["texts"].items():
        with open(path, "rb") as f:
            texts[name] = f.read().decode("utf-8")
    oracles = load_oracles(args.oracle_dir)

    import tiktoken

    encodings = {}

    def count_tokens(encoding, s):
        if encoding not in encodings:
            encodings[encoding] = tiktoken.get_encoding(encoding)
        return len(encodings[encoding].encode_ordinary(s))

    results = []
    for i, c in enumerate(spec["cases"]):
        out = {"strategy": c["strategy"], "text": c["text"]}
        fn = oracles.get(c["strategy"])
        if fn is None:
            results.append({**out, "chunk_overlap": c["chunk_overlap"], "error": "no oracle"})
            continue
        case = {
            "id": i,
            "strategy": c["strategy"],
            "doc": c["text"],
            "chunk_size": c["chunk_size"],
            "chunk_overlap": c["chunk_overlap"],
            "unit": c["unit"],
            "encoding": c["encoding"],
        }
        print(f"[bench:python] {c['strategy']} on {c['text']}", file=sys.stderr, flush=True)
        try:
            try:
                r = run_case(fn, texts[c["text"]], case, spec["runs"], count_tokens)
            except NotDeterministic:
                raise
            except Exception:
                if not (c.get("retry_without_overlap") and case["chunk_overlap"] > 0):
                    raise
                case["chunk_overlap"] = 0
                r = run_case(fn, texts[c["text"]], case, spec["runs"], count_tokens)
            results.append({**out, **r})
        except Exception as e:  # the library's refusal is a figure too
            error = str(e) if isinstance(e, LibraryRaised) else f"{type(e).__name__}: {e}"
            results.append({**out, "chunk_overlap": case["chunk_overlap"], "error": error})

    packages = {}
    for p in spec.get("packages", []):
        packages[p] = installed(p)
    json.dump(
        {
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "packages": packages,
            "oracle_dir": shown_path(args.oracle_dir),
            "oracles": sorted(oracles),
            "results": results,
        },
        sys.stdout,
        ensure_ascii=False,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
