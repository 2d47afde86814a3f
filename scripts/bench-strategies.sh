#!/usr/bin/env bash
# make bench-strategies: only the strategy part of make bench. Makes ready what it needs (the
# wasm target, wasm-bindgen, Chromium, Node, the corpus packages, crates/strategies-wasm built
# and bound into bench/pkg-node/ and bench/pkg-web/, bench/node_modules, the oracle venv), then
# runs bench/strategies.mjs: every chunking strategy in wasm (Node and a Web Worker of headless
# Chromium) against its library in Python. Exits non-zero when a chunk count differs from the
# library's, or a step fails; speed is never a failure. See bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target wasm-bindgen chromium node
bench_corpus_packages
bench_wasm strategies-wasm
bench_npm
bench_oracle
say "strategies: ours in wasm (Node, Chromium worker) against the libraries in Python (a few minutes)"
node "$BENCH/strategies.mjs"
