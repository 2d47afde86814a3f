"""make bench, Python part: every library strategy through the Python package rag_chunk (a
release build, scripts/ensure-python-package.sh with PROFILE=release) against the library
itself, on the same texts, in the same harness (bench/strategies.py: one warm-up, each timed
call in a fresh fork, the median of RUNS): the libraries through the differential tests'
oracles, rag_chunk through bench/rag_chunk_oracle/. 512 / 64 tokens, cl100k_base.

    python bench/python.py TEXT...      (the oracle venv's python, with rag_chunk installed)

Prints one line per strategy and text (chunks, ms, the ratio library ÷ rag_chunk) and the
smallest ratio. Figures, not a test: exits 1 only when a chunk count differs from the
library's, or a side could not run.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = 5
GOAL = 10.0


def side(spec_path, oracle_dir=None):
    cmd = [sys.executable, os.path.join(HERE, "strategies.py"), spec_path]
    if oracle_dir:
        cmd += ["--oracle-dir", oracle_dir]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return {(r["strategy"], r["text"]): r for r in json.loads(out.stdout)["results"]}


def main():
    import rag_chunk

    paths = sys.argv[1:]
    if not paths:
        sys.exit(__doc__)
    texts = {os.path.basename(p): p for p in paths}
    strategies = [s for s in rag_chunk.strategies() if s["library"]]
    cases = [{"strategy": s["id"], "text": t, "chunk_size": 512, "chunk_overlap": 64,
              "unit": "tokens", "encoding": "cl100k_base", "retry_without_overlap": True}
             for t in texts for s in strategies]
    packages = sorted({s["library"] for s in strategies})
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump({"texts": texts, "runs": RUNS, "cases": cases, "packages": packages}, f)
        print(f"[bench:python] the libraries ({len(cases)} cases)", file=sys.stderr, flush=True)
        theirs = side(spec)
        print("[bench:python] rag_chunk", file=sys.stderr, flush=True)
        ours = side(spec, os.path.join(HERE, "rag_chunk_oracle"))
    sizes = {t: os.path.getsize(p) for t, p in texts.items()}
    print(f"rag_chunk {rag_chunk.__version__} (release) against the libraries, 512/64 tokens, "
          f"median of {RUNS} calls each in a fresh fork")
    print(f"{'strategy':<28} {'text':<20} {'chunks':>7} {'library ms':>11} {'rag_chunk ms':>13} "
          f"{'ratio':>7}")
    failed, ratios = False, {}
    for c in cases:
        key = (c["strategy"], c["text"])
        t, o = theirs.get(key, {}), ours.get(key, {})
        if "error" in t or "error" in o:
            same = ("error" in t) == ("error" in o)
            failed |= not same
            print(f"{key[0]:<28} {key[1]:<20} library: {t.get('error', 'cut')[:40]}; "
                  f"rag_chunk: {o.get('error', 'cut')[:40]}{'' if same else '  DIFFERENT'}")
            continue
        if t["chunks"] != o["chunks"] or t["tokens"] != o["tokens"]:
            failed = True
            print(f"{key[0]:<28} {key[1]:<20} DIFFERENT: library {t['chunks']} chunks "
                  f"{t['tokens']} tokens, rag_chunk {o['chunks']} chunks {o['tokens']} tokens")
            continue
        ratio = t["ms"] / o["ms"] if o["ms"] > 0 else float("inf")
        ratios.setdefault(key[0], []).append(ratio)
        print(f"{key[0]:<28} {key[1]:<20} {t['chunks']:>7} {t['ms']:>11.1f} {o['ms']:>13.2f} "
              f"{ratio:>6.1f}×  ({sizes[key[1]] / 1e6 / (o['ms'] / 1e3):.1f} MB/s)")
    if ratios:
        worst = min((min(r), s) for s, r in ratios.items())
        met = sum(min(r) >= GOAL for r in ratios.values())
        print(f"smallest ratio: {worst[0]:.1f}× ({worst[1]}); ≥ {GOAL:.0f}× on every text: "
              f"{met} of {len(ratios)} strategies")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
