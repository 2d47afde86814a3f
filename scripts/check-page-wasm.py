#!/usr/bin/env python3
"""The first-paint guard: the page's own wasm module stays small and carries no BPE table and
no chunking strategy (Python 3 standard library only).

Usage: scripts/check-page-wasm.py DIST_DIR [BUDGET_GZIP_BYTES] | --self-test

DIST_DIR is a Trunk release output (`dist/`, `dist-e2e/`): the page's module is the
`rag-chunk-calculator-<hash>_bg.wasm` file (the engines' modules are other files and may carry
both). It fails (exit 1, saying why) when:

- the module gzipped (level 9, as `gzip -9` and the Makefile's figures) is over the budget,
  BUDGET_GZIP_BYTES, default `DEFAULT_BUDGET` below: the page's gzip size on 2026-12-05 plus
  about 5 %;
- it contains a BPE table: the first tokens of the tables chunk-core's build writes
  (`crates/chunk-core/build.rs`: the token lengths, then the tokens' bytes in rank order;
  cl100k_base and o200k_base both start with the same 256 one-byte tokens, `!` … `~` first),
  so a table is found by its own bytes, not by a name (the earlier `[len][bytes]` records
  too);
- it contains a strategy: the marker string `STRATEGY_MARKER`, which `strategy::chunker_with`
  (through which the engines build every strategy; the strategies exist only with chunk-core's
  `strategies` feature, which the page does not take) keeps alive in any module that links it.

The tokenizer's module (`tokenize-engine_bg.wasm`) is checked for a table too: it fetches
each table as a file of its own (`tables/<encoding>.bin`), so that the first count waits only
for the table of its encoding.

Exit 0 with the figures when the module passes; 2 on a usage error.
"""

import glob
import gzip
import os
import sys

# The page's module, gzip -9: 698,879 bytes (1,990,404 raw) on 2026-12-05 at commit c0c55b6 + the
# import-circle work, + ~5 %.
DEFAULT_BUDGET = 734_000

# The bytes of the first 188 tokens of both BPE tables, one byte each: `!` (0x21) to `~` (0x7e),
# then 0xa1–0xac and 0xae–0xff (GPT-2's byte order), as the table's blob starts.
TABLE_PREFIX = bytes(range(0x21, 0x7F)) + bytes(range(0xA1, 0xAD)) + bytes(range(0xAE, 0x100))
# The same tokens as the earlier `[len][bytes]` records (the first 94).
TABLE_RECORDS = b"".join(bytes([1, c]) for c in range(0x21, 0x7F))
# The tokenizer's module, which must carry no table either.
TOKENIZER_MODULE = "tokenize-engine_bg.wasm"

# Must equal `strategy::STRATEGIES_MARKER` in crates/chunk-core/src/strategy/mod.rs.
STRATEGY_MARKER = b"chunk-core:strategies-linked"


def page_module(dist):
    found = [
        path
        for path in glob.glob(os.path.join(dist, "rag-chunk-calculator-*_bg.wasm"))
        + glob.glob(os.path.join(dist, "rag_chunk_calculator-*_bg.wasm"))
    ]
    if len(found) != 1:
        raise SystemExit(f"{dist}: expected one page module rag-chunk-calculator-*_bg.wasm, found {found}")
    return found[0]


def faults_of(data, budget):
    """The reasons `data` (a page module's bytes) fails the guard; empty when it passes."""
    size = len(gzip.compress(data, compresslevel=9, mtime=0))
    faults = []
    if size > budget:
        faults.append(f"gzip size {size:,} bytes is over the budget of {budget:,} bytes")
    faults += table_faults(data)
    at = data.find(STRATEGY_MARKER)
    if at >= 0:
        faults.append(f"the chunking strategies are linked (their marker at byte {at:,})")
    return size, faults


def table_faults(data):
    """Why `data` (a module's bytes) carries a BPE table; empty when it does not."""
    faults = []
    for mark in (TABLE_PREFIX, TABLE_RECORDS):
        at = data.find(mark)
        if at >= 0:
            faults.append(f"a BPE table is linked (its first tokens at byte {at:,})")
    return faults


def self_test():
    """Shows that the guard can fail: a module with a table's first records, one with the
    strategies' marker, one over the budget fail; a clean one passes. 0 when all hold."""
    import random

    rng = random.Random(7)
    clean = bytes(rng.randrange(256) for _ in range(4096))
    cases = [
        ("clean", clean, 10_000, 0),
        ("table", clean[:100] + TABLE_PREFIX + clean[100:], 10_000, 1),
        ("old table", clean[:100] + TABLE_RECORDS + clean[100:], 10_000, 1),
        ("strategy", clean + STRATEGY_MARKER, 10_000, 1),
        ("over budget", clean, 1_000, 1),
    ]
    wrong = 0
    for label, data, budget, want in cases:
        _, faults = faults_of(data, budget)
        if len(faults) != want:
            wrong += 1
            print(f"self-test {label}: {faults}, expected {want} fault(s)")
    print("self-test: " + ("ok" if not wrong else f"{wrong} case(s) wrong"))
    return 1 if wrong else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) not in (1, 2) or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    budget = int(argv[1]) if len(argv) == 2 else DEFAULT_BUDGET
    path = page_module(argv[0])
    with open(path, "rb") as f:
        data = f.read()
    size, faults = faults_of(data, budget)
    name = os.path.basename(path)
    if faults:
        for fault in faults:
            print(f"{name}: FAIL: {fault}")
        return 1
    print(f"{name}: ok: {len(data):,} bytes, gzip {size:,} of {budget:,}; no BPE table, no strategy")
    engine = os.path.join(argv[0], TOKENIZER_MODULE)
    if os.path.exists(engine):
        with open(engine, "rb") as f:
            faults = table_faults(f.read())
        for fault in faults:
            print(f"{TOKENIZER_MODULE}: FAIL: {fault}")
        if faults:
            return 1
        print(f"{TOKENIZER_MODULE}: ok: no BPE table")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
