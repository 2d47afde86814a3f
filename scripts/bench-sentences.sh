#!/usr/bin/env bash
# make bench-sentences: only the sentence part of make bench. Makes ready what it needs (the
# wasm target, wasm-bindgen, Chromium, Node, the corpus packages, crates/strategies-wasm built
# and bound into bench/pkg-node/ and bench/pkg-web/, bench/node_modules), then runs
# bench/sentences.mjs: chunk-core's sentence segmentation under every rule, in wasm (Node and a
# Web Worker of headless Chromium), on 1 MB of the mixed corpus and 1 MB of its English prose.
# Exits non-zero when a call throws or a step fails; speed is never a failure. See bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target wasm-bindgen chromium node
bench_corpus_packages
bench_wasm strategies-wasm
bench_npm
say "sentences: every sentence rule in wasm (Node, Chromium worker) on 1 MB texts (under a minute)"
node "$BENCH/sentences.mjs"
