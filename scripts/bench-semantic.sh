#!/usr/bin/env bash
# make bench-semantic: the semantic chunkers natively (crates/embed/examples/semantic_bench.rs,
# release) against chonkie, LangChain and LlamaIndex in Python (bench/semantic.py), each with
# potion-base-8M's published fp32 weights, on the fixture (114 KB) and 1 MB of the bench's
# mixed corpus (prose, code, ru, pl, vi, ja, zh; bench/lib/corpus.mjs, from Debian packages
# installed when missing). Prints per file and strategy: chunks, our time, the library's, and
# the ratio.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"
"$ROOT/scripts/ensure-tools.sh" node
bench_corpus_packages
eval "$("$ROOT/scripts/ensure-oracle.sh")"
eval "$("$ROOT/scripts/ensure-models.sh")"
export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR EMBED_MODELS_DIR
FIXTURE="$ROOT/tests/fixtures/moonstone-short.txt"
WORK="$ROOT/target/bench-semantic"
mkdir -p "$WORK"
cp "$FIXTURE" "$WORK/fixture-114k.txt"
(cd "$BENCH" && node -e 'import("./lib/corpus.mjs").then((m) => {
  const text = m.repeatTo(m.assembleCorpus().text, 1_000_000);
  require("node:fs").writeFileSync(process.argv[1], text);
})' "$WORK/mixed-1mb.txt")
FILES=("$WORK/fixture-114k.txt" "$WORK/mixed-1mb.txt")
cargo build --quiet --release -p embed-core --example semantic_bench
"$ROOT/target/release/examples/semantic_bench" "${FILES[@]}" > "$WORK/ours.jsonl"
"$CHUNK_ORACLE_PYTHON" "$ROOT/bench/semantic.py" "$EMBED_MODELS_DIR/potion-base-8m" "${FILES[@]}" > "$WORK/theirs.jsonl"
"$CHUNK_ORACLE_PYTHON" - "$WORK/ours.jsonl" "$WORK/theirs.jsonl" <<'PY'
import json, sys
ours = [json.loads(l) for l in open(sys.argv[1])]
theirs = {(r["file"], r["strategy"]): r for r in map(json.loads, open(sys.argv[2]))}
print(f"{'file':18} {'strategy':20} {'chunks':>13} {'ours ms':>9} {'embed ms':>9} {'library ms':>11} {'library/ours':>13}")
for r in ours:
    t = theirs.get((r["file"], r["strategy"]))
    lib = f"{t['ms']:11.1f}" if t else f"{'-':>11}"
    ratio = f"{t['ms'] / r['ms']:12.1f}x" if t else f"{'(own)':>13}"
    chunks = f"{r['chunks']}/{t['chunks']}" if t else str(r["chunks"])
    print(f"{r['file']:18} {r['strategy']:20} {chunks:>13} {r['ms']:9.1f} {r['embed_ms']:9.1f} {lib} {ratio}")
PY
