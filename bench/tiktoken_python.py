"""make bench, tokenizer part: tiktoken's own encode (Rust compiled natively, called from
Python) on the bench corpus: the encoder Python's libraries (LangChain, chonkie …) call, set
beside ours in wasm (bench/node.mjs, bench/browser.mjs) and natively (bench_native, printed just
before this by scripts/bench.sh).

    python bench/tiktoken_python.py CORPUS [PASSES]   (the oracle venv's python)

Prints, per encoding, the token count (compare it with bench_native's line, which checks ours
against tiktoken-rs id for id) and MB/s (MB = 10^6 bytes of UTF-8) of the best of PASSES (5 by
default) `encode_ordinary` calls after one warm-up call, on one thread. Tables come from
$TIKTOKEN_CACHE_DIR, as in the differential tests. Exits 1 with a usage line when CORPUS is
missing.
"""

import sys
import time
from importlib.metadata import version

import tiktoken


def main():
    """Times both encodings on the corpus named by the first argument and prints a line each."""
    if len(sys.argv) < 2:
        sys.exit("usage: tiktoken_python.py CORPUS [PASSES]")
    # newline="": the bytes as they are (no \r\n → \n), as bench_native reads them.
    with open(sys.argv[1], encoding="utf-8", newline="") as f:
        text = f.read()
    passes = max(1, int(sys.argv[2])) if len(sys.argv) > 2 else 5
    mb = len(text.encode("utf-8")) / 1e6
    for name in ("cl100k_base", "o200k_base"):
        enc = tiktoken.get_encoding(name)
        tokens = len(enc.encode_ordinary(text))
        best = float("inf")
        for _ in range(passes):
            start = time.perf_counter()
            enc.encode_ordinary(text)
            best = min(best, time.perf_counter() - start)
        print(f"{name}: {tokens} tokens | tiktoken {version('tiktoken')} (Python): {mb / best:.1f} MB/s")


if __name__ == "__main__":
    main()
