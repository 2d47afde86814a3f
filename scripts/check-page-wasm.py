#!/usr/bin/env python3
"""The first-paint guard: the page's own wasm module stays small and carries no BPE table, no
chunking strategy and no SIMD instruction (Python 3 standard library only).

Usage: scripts/check-page-wasm.py DIST_DIR [BUDGET_GZIP_BYTES] | --self-test

DIST_DIR is a Trunk release output (`dist/`, `dist-e2e/`): the page's module is the
`rag-chunk-calculator-<hash>_bg.wasm` file (the engines' modules are other files and may carry
both). It fails (exit 1, saying why) when:

- the module gzipped (level 9, as `gzip -9` and the Makefile's figures) is over the budget,
  BUDGET_GZIP_BYTES, default `DEFAULT_BUDGET` below (its history is in the comment there): the
  first module's gzip size plus about 1 %. It guards against a
  table or the strategies linked into the page (each adds hundreds of KB). The page is split in
  two (crates/page-split): the panels' module, `panels-<the page module's name>`, must be there,
  and passes the same checks with its own budget, `PANELS_BUDGET`;
- it contains a BPE table: the first tokens of the tables chunk-core's build writes
  (`crates/chunk-core/build.rs`: the token lengths, then the tokens' bytes in rank order;
  cl100k_base and o200k_base both start with the same 256 one-byte tokens, `!` … `~` first),
  so a table is found by its own bytes, not by a name (the earlier `[len][bytes]` records
  too);
- it contains a strategy: the marker string `STRATEGY_MARKER`, which `strategy::chunker_with`
  (through which the engines build every strategy; the strategies exist only with chunk-core's
  `strategies` feature, which the page does not take) keeps alive in any module that links it.
- a language bundle is missing (`i18n/vi.txt`, `id`, `ru`, `pl`, which the prerender hook
  writes), or the module carries one of their messages: the first `LANGUAGE_PROBES` templates
  of at least 16 bytes of each (the page's title first), found by their UTF-8 bytes. Those
  languages are compiled in only with the `linked-languages` feature, for the browser tests;
- it contains a wasm SIMD instruction (opcode prefix 0xFD, found by decoding every function
  body, not by searching bytes): the page must run in every browser with WebAssembly, SIMD or
  not; only the embedding worker's module (`embed-engine_bg.wasm`, crates/embed-engine's
  `simd128` feature) uses SIMD, and it must (a build of it without any SIMD instruction fails
  too: its feature was lost).

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
# import-circle work, + ~5 %: 734,000. Then 739,710 bytes with dense retrieval's controls (the
# retriever and model selects, the embedding model's status line and its messages in five
# languages) and the CSV import of question/answer pairs (the csv crate's reader), + ~3 %:
# 643,000. Then the page split in two (crates/page-split, 2026-12-06): the form's module
# 377,267 bytes (with the panels' status line, its button to try again and the hand-over), + ~1 %. The
# first-visit goal is 400 KB. Then (2026-12-07) the simulator's memos, the document reader's
# start and the float parser moved to the panels' module, the bundle's key names out of the
# module, and Leptos's crates built for size: 256,187 bytes, + ~1 %.
DEFAULT_BUDGET = 259_000
# The panels' module (`panels-<the page module's name>`, fetched once the form runs): 299,996
# bytes on 2026-12-06, 397,706 with the simulator's memos and the document reader's start
# (2026-12-07), + ~1 %. It carries no table, strategy, SIMD or fetched language either.
PANELS_BUDGET = 402_000

# The bytes of the first 188 tokens of both BPE tables, one byte each: `!` (0x21) to `~` (0x7e),
# then 0xa1–0xac and 0xae–0xff (GPT-2's byte order), as the table's blob starts.
TABLE_PREFIX = bytes(range(0x21, 0x7F)) + bytes(range(0xA1, 0xAD)) + bytes(range(0xAE, 0x100))
# The same tokens as the earlier `[len][bytes]` records (the first 94).
TABLE_RECORDS = b"".join(bytes([1, c]) for c in range(0x21, 0x7F))
# The tokenizer's module, which must carry no table either.
TOKENIZER_MODULE = "tokenize-engine_bg.wasm"

# Must equal `strategy::STRATEGIES_MARKER` in crates/chunk-core/src/strategy/mod.rs.
STRATEGY_MARKER = b"chunk-core:strategies-linked"
# The languages fetched as bundles (src/i18n/bundle.rs `FETCHED`) and how many of each one's
# templates are looked for in the page's module.
FETCHED_LANGUAGES = ("vi", "id", "ru", "pl")
LANGUAGE_PROBES = 5
# The embedding worker's module, built with wasm SIMD.
EMBED_MODULE = "embed-engine_bg.wasm"


class WasmError(Exception):
    """A module this decoder cannot read."""


def _leb(data, at):
    """The end of the LEB128 number starting at `at`, and its value as unsigned."""
    value = shift = 0
    while True:
        if at >= len(data):
            raise WasmError("a number runs past the end")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return at, value


# Opcodes by what follows them (WebAssembly 2.0 with the extensions rustc emits: sign extension,
# saturating conversions, bulk memory, reference types, multi-value, tail calls).
_NONE = set(range(0x45, 0xC5)) | {0x00, 0x01, 0x05, 0x0B, 0x0F, 0x1A, 0x1B, 0xD1}
_ONE_INDEX = {0x0C, 0x0D, 0x10, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x3F, 0x40, 0x41, 0x42, 0xD0, 0xD2}
_TWO_INDICES = {0x11, 0x13}
_BLOCKS = {0x02, 0x03, 0x04}
_MEMORY = set(range(0x28, 0x3F))
# 0xFC sub-opcodes: how many LEB immediates follow.
_FC_ARGS = {**{i: 0 for i in range(8)}, 8: 2, 9: 1, 10: 2, 11: 1, 12: 2, 13: 1, 14: 2, 15: 1, 16: 1, 17: 1}


def simd_count(data):
    """How many wasm SIMD instructions (prefix 0xFD) the code section of module `data` holds.
    Raises WasmError for a module it cannot decode (an opcode outside the set above)."""
    if data[:4] != b"\0asm":
        raise WasmError("not a wasm module")
    at, count = 8, 0
    while at < len(data):
        section = data[at]
        at, size = _leb(data, at + 1)
        end = at + size
        if section == 10:
            at, bodies = _leb(data, at)
            for _ in range(bodies):
                at, body = _leb(data, at)
                count += _simd_in_body(data, at, at + body)
                at += body
        at = end
    return count


def _simd_in_body(data, at, end):
    at, groups = _leb(data, at)
    for _ in range(groups):
        at, _n = _leb(data, at)
        at += 1  # the value type
    count = 0
    while at < end:
        op = data[at]
        at += 1
        if op in _NONE:
            continue
        if op in _ONE_INDEX:
            at, _ = _leb(data, at)
        elif op in _TWO_INDICES:
            at, _ = _leb(data, at)
            at, _ = _leb(data, at)
        elif op in _BLOCKS:
            at, _ = _leb(data, at)  # 0x40, a value type (one byte) or a type index
        elif op in _MEMORY:
            at, align = _leb(data, at)
            if align & 0x40:  # a memory index follows (multi-memory)
                at, _ = _leb(data, at)
            at, _ = _leb(data, at)
        elif op == 0x0E:  # br_table
            at, n = _leb(data, at)
            for _ in range(n + 1):
                at, _ = _leb(data, at)
        elif op == 0x1C:  # select with types
            at, n = _leb(data, at)
            at += n
        elif op == 0x43:
            at += 4
        elif op == 0x44:
            at += 8
        elif op == 0xFC:
            at, sub = _leb(data, at)
            if sub not in _FC_ARGS:
                raise WasmError(f"unknown instruction 0xFC {sub} at byte {at:,}")
            for _ in range(_FC_ARGS[sub]):
                at, _ = _leb(data, at)
        elif op == 0xFD:
            # The rest of this body is not decoded further: one is enough to fail the page,
            # and the embedding module is only counted as having some.
            return count + 1
        else:
            raise WasmError(f"unknown opcode 0x{op:02x} at byte {at - 1:,}")
    if at != end:
        raise WasmError(f"a function body's instructions end at byte {at:,}, not {end:,}")
    return count


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
    try:
        if simd_count(data):
            faults.append("it uses wasm SIMD instructions (only the embedding worker's module may)")
    except WasmError as e:
        faults.append(f"its code cannot be decoded to look for SIMD: {e}")
    return size, faults


def table_faults(data):
    """Why `data` (a module's bytes) carries a BPE table; empty when it does not."""
    faults = []
    for mark in (TABLE_PREFIX, TABLE_RECORDS):
        at = data.find(mark)
        if at >= 0:
            faults.append(f"a BPE table is linked (its first tokens at byte {at:,})")
    return faults


def language_probes(bundle):
    """The first `LANGUAGE_PROBES` templates of at least 16 bytes of a bundle's text (bytes):
    after its header line, templates each followed by a NUL byte."""
    _, _, body = bundle.partition(b"\n")
    return [t for t in body.split(b"\0") if len(t) >= 16][:LANGUAGE_PROBES]


def language_faults(data, bundles):
    """Why `data` (the page module's bytes) carries a fetched language's messages, or why the
    build lacks a bundle; `bundles` maps a language code to its bundle's bytes or None."""
    faults = []
    for code, bundle in bundles.items():
        if bundle is None:
            faults.append(f"i18n/{code}.txt is missing: that language's messages cannot be fetched")
            continue
        for probe in language_probes(bundle):
            at = data.find(probe)
            if at >= 0:
                faults.append(f"the {code} messages are compiled in (one at byte {at:,})")
                break
    return faults


def _uleb(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def self_test():
    """Shows that the guard can fail: a module with a table's first records, one with the
    strategies' marker, one over the budget fail; a clean one passes. 0 when all hold."""
    import random

    rng = random.Random(7)
    # A module of one custom section of random bytes (skipped by the decoder), so that the
    # table and marker cases are found by their bytes alone.
    noise = bytes(rng.randrange(256) for _ in range(4096))
    clean = b"\0asm\1\0\0\0" + bytes([0]) + _uleb(len(noise) + 1) + b"\0" + noise

    def code(body):
        """A module whose code section holds one function: no locals, then `body`."""
        func = b"\0" + body
        section = b"\x01" + _uleb(len(func)) + func
        return b"\0asm\1\0\0\0" + b"\x0a" + _uleb(len(section)) + section
    cases = [
        ("clean", clean, 10_000, 0),
        ("table", clean[:100] + TABLE_PREFIX + clean[100:], 10_000, 1),
        ("old table", clean[:100] + TABLE_RECORDS + clean[100:], 10_000, 1),
        ("strategy", clean + STRATEGY_MARKER, 10_000, 1),
        ("over budget", clean, 1_000, 1),
        # i32.const 253 (LEB 0xfd 0x01), drop, end: the byte 0xfd as an immediate is no SIMD.
        ("0xfd as a number", code(b"\x41\xfd\x01\x1a\x0b"), 10_000, 0),
        # v128.const (0xfd 0x0c, 16 bytes), drop, end.
        ("simd", code(b"\xfd\x0c" + bytes(16) + b"\x1a\x0b"), 10_000, 1),
        ("undecodable", code(b"\xfe\x00\x0b"), 10_000, 1),
    ]
    bundle = "header\nKalkulator chunków RAG\0krótki\0Widok chunków w tekście\0".encode()
    language_cases = [
        ("bundle absent from the module", clean, {"pl": bundle}, 0),
        ("a bundle's message in the module", clean + "Widok chunków w tekście".encode(), {"pl": bundle}, 1),
        ("a short template is no probe", clean + "krótki".encode(), {"pl": bundle}, 0),
        ("bundle missing", clean, {"pl": None}, 1),
    ]
    wrong = 0
    for label, data, budget, want in cases:
        _, faults = faults_of(data, budget)
        if len(faults) != want:
            wrong += 1
            print(f"self-test {label}: {faults}, expected {want} fault(s)")
    for label, data, bundles, want in language_cases:
        faults = language_faults(data, bundles)
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
    bundles = {}
    for code in FETCHED_LANGUAGES:
        file = os.path.join(argv[0], "i18n", f"{code}.txt")
        bundles[code] = open(file, "rb").read() if os.path.exists(file) else None
    name = os.path.basename(path)
    panels = os.path.join(argv[0], f"panels-{name}")
    if not os.path.exists(panels):
        print(f"panels-{name}: FAIL: missing (the page's split, crates/page-split, did not run)")
        return 1
    # The page's two modules: the form's, then the panels'.
    for module, module_budget in ((path, budget), (panels, PANELS_BUDGET)):
        with open(module, "rb") as f:
            data = f.read()
        size, faults = faults_of(data, module_budget)
        faults += language_faults(data, bundles)
        module_name = os.path.basename(module)
        for fault in faults:
            print(f"{module_name}: FAIL: {fault}")
        if faults:
            return 1
        print(f"{module_name}: ok: {len(data):,} bytes, gzip {size:,} of {module_budget:,}; no BPE table, no strategy, no SIMD, English only")
    engine = os.path.join(argv[0], TOKENIZER_MODULE)
    if os.path.exists(engine):
        with open(engine, "rb") as f:
            faults = table_faults(f.read())
        for fault in faults:
            print(f"{TOKENIZER_MODULE}: FAIL: {fault}")
        if faults:
            return 1
        print(f"{TOKENIZER_MODULE}: ok: no BPE table")
    embed = os.path.join(argv[0], EMBED_MODULE)
    if os.path.exists(embed):
        with open(embed, "rb") as f:
            try:
                simd = simd_count(f.read())
            except WasmError as e:
                print(f"{EMBED_MODULE}: FAIL: its code cannot be decoded: {e}")
                return 1
        if not simd:
            print(f"{EMBED_MODULE}: FAIL: no SIMD instruction (built without its simd128 feature?)")
            return 1
        print(f"{EMBED_MODULE}: ok: wasm SIMD in {simd} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
