"""The Python package against the libraries: every library strategy of `rag_chunk`, chunk for
chunk, against the library it reproduces, run here on the same texts and settings.

The libraries are called by the differential tests' own oracles
(crates/chunk-core/tests/differential/oracle/lib_*.py, pinned in its requirements.txt), so this
checks the package's wiring (settings, units, encodings, models, refusals, offsets) over the
core that tests/differential proves case by case. Run by `make test-python` in the venv of
scripts/ensure-oracle.sh with the wheel installed (scripts/ensure-python-package.sh).

Grid: each library strategy × the documents below × tokens (both encodings; chunk_size 64
and 512; chunk_overlap 0 and ~12 %; one overlap over the size, which libraries refuse),
characters (300 and 1000) where the strategy sizes in them, and an open model's tokens
(BERT WordPiece, XLM-R Unigram; 128) where it sizes in them. A case passes when the texts
are equal in order and, where the library reports them, so are the character offsets; or
when both refuse. A case the core refuses as not reproducible (`model-decode`) is counted
apart, as tests/differential counts it.
"""

import multiprocessing as mp
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
ORACLE = os.path.join(ROOT, "crates", "chunk-core", "tests", "differential", "oracle")
CORPUS = os.path.join(ROOT, "crates", "chunk-core", "tests", "differential", "corpus")
sys.path.insert(0, ORACLE)

import rag_chunk  # noqa: E402

# The open models whose tokenizers size "model" units, by vocabulary code.
MODEL_OF_VOCAB = {"bert-uncased": "all-minilm-l6-v2", "xlm-roberta": "multilingual-e5-large"}


def documents():
    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    fixture = read(os.path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"))
    guide = read(os.path.join(CORPUS, "guide.md"))
    return {
        "moonstone-40k.txt": fixture[:40_000],
        "guide.md": guide,
        "guide-crlf.md": guide.replace("\n", "\r\n"),
        "rules.md": read(os.path.join(CORPUS, "rules.md")),
        "source.py": read(os.path.join(CORPUS, "source.py")),
        "mixed_cjk.txt": read(os.path.join(CORPUS, "mixed_cjk.txt")),
        "empty": "",
        "one-line": "One short line, no newline",
    }


def supports(strategy, unit):
    """Whether `rag_chunk` sizes `strategy` in `unit` (it says so by refusing with ValueError
    before cutting; the libraries' refusals are `rag_chunk.Refused`)."""
    try:
        rag_chunk.split_text("x", strategy, 8, 0, unit, "cl100k_base",
                             MODEL_OF_VOCAB["bert-uncased"] if unit == "model" else None)
        return True
    except rag_chunk.Refused:
        return True
    except ValueError:
        return False


def grid(strategies, docs):
    cases = []
    for s in strategies:
        for doc in docs:
            def push(unit, encoding, size, overlaps, vocab=None):
                for o in overlaps:
                    cases.append({
                        "id": len(cases), "strategy": s, "doc": doc, "unit": unit,
                        "encoding": encoding, "chunk_size": size, "chunk_overlap": o,
                        "vocab": vocab,
                    })
            for encoding in ("cl100k_base", "o200k_base"):
                push("tokens", encoding, 64, (0, 8, 65))
                push("tokens", encoding, 512, (0, 64))
            if supports(s, "characters"):
                push("characters", "cl100k_base", 300, (0, 36, 301))
                push("characters", "cl100k_base", 1000, (0, 120))
            if supports(s, "model"):
                for vocab in MODEL_OF_VOCAB:
                    push("model", "cl100k_base", 128, (0, 16), vocab)
    return cases


DOCS = {}
ORACLES = {}


def init():
    global DOCS, ORACLES
    import importlib

    DOCS = documents()
    for name in sorted(os.listdir(ORACLE)):
        if name.startswith("lib_") and name.endswith(".py") and name != "lib_semantic.py":
            ORACLES.update(importlib.import_module(name[:-3]).ORACLES)


def char_offsets(text):
    """Byte offset -> character offset, for every character boundary."""
    out, b = {}, 0
    for i, ch in enumerate(text):
        out[b] = i
        b += len(ch.encode("utf-8"))
    out[b] = len(text)
    return out


def run(case):
    text = DOCS[case["doc"]]
    model = MODEL_OF_VOCAB.get(case["vocab"]) if case["unit"] == "model" else None
    try:
        ours = rag_chunk.chunk(text, case["strategy"], case["chunk_size"], case["chunk_overlap"],
                               case["unit"], case["encoding"], model)
        ours_error = None
    except rag_chunk.Refused as e:
        ours, ours_error = None, e.kind
    try:
        theirs = ORACLES[case["strategy"]](text, case)
        if isinstance(theirs, dict):
            theirs = theirs["chunks"]
        their_error = None
    except Exception as e:  # the library's refusal is a result to compare
        theirs, their_error = None, f"{type(e).__name__}: {e}"
    where = (f"{case['strategy']} on {case['doc']} at {case['chunk_size']}/{case['chunk_overlap']} "
             f"{case['unit']} {case['vocab'] or case['encoding']}")
    # The core says it cannot reproduce the library here (chonkie decodes a model's token ids
    # back to text, which WordPiece does not give back as written): shown on the page as a
    # refusal, counted apart, as tests/differential counts it.
    if ours_error == "model-decode":
        return (case["id"], "not-reproduced")
    if ours_error or their_error:
        if ours_error and their_error:
            return (case["id"], None)
        return (case["id"], f"{where}: rag_chunk {ours_error or 'cut it'}, library {their_error or 'cut it'}")
    if [c["text"] for c in ours] != [c["text"] for c in theirs]:
        n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a["text"] != b["text"]),
                 min(len(ours), len(theirs)))
        a = ours[n]["text"][:60] if n < len(ours) else None
        b = theirs[n]["text"][:60] if n < len(theirs) else None
        return (case["id"], f"{where}: {len(ours)} chunks vs the library's {len(theirs)}; "
                            f"chunk {n}: {a!r} vs {b!r}")
    offsets = char_offsets(text)
    for i, (o, t) in enumerate(zip(ours, theirs)):
        for key in ("start", "end"):
            if t.get(key) is not None:
                got = o["char_" + key]
                if got != t[key] or offsets.get(o["byte_" + key]) != got:
                    return (case["id"], f"{where}: chunk {i} {key} {got} vs the library's {t[key]}")
    return (case["id"], None)


def main():
    init()
    strategies = [s["id"] for s in rag_chunk.strategies() if s["library"] and s["exact"]]
    cases = grid(strategies, DOCS)
    # A grid that lost its strategies or documents must fail, not pass with nothing compared.
    if len(strategies) < 12 or len(cases) < 1000:
        sys.exit(f"only {len(strategies)} library strategies and {len(cases)} cases: the grid is broken")
    workers = int(os.environ.get("ORACLE_WORKERS", "2"))
    with mp.get_context("fork").Pool(workers, initializer=init) as pool:
        results = pool.map(run, cases, chunksize=8)
    failures = [msg for _, msg in results if msg and msg != "not-reproduced"]
    not_reproduced = sum(1 for _, msg in results if msg == "not-reproduced")
    per = {}
    for c in cases:
        per[c["strategy"]] = per.get(c["strategy"], 0) + 1
    for s in strategies:
        print(f"  {s:<28} {per.get(s, 0):>4} cases")
    if failures:
        for f in failures[:20]:
            print("DIFFERENT:", f)
        print(f"{len(failures)} of {len(cases)} cases differ from the libraries")
        sys.exit(1)
    print(f"rag_chunk equals its libraries on all {len(cases) - not_reproduced} cases "
          f"({len(strategies)} strategies, {len(DOCS)} documents); {not_reproduced} refused "
          f"as not reproducible (model-decode), as on the page")


if __name__ == "__main__":
    main()
