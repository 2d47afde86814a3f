#!/usr/bin/env bash
# make bench-open-tokenizers: only the open models' tokenizer part of make bench. Makes ready what it needs (the
# wasm target, wasm-bindgen, Node, the corpus packages, crates/strategies-wasm built and bound
# into bench/pkg-node/, bench/node_modules, the oracle venv), then runs bench/open-tokenizers.mjs:
# the core's WordPiece and Unigram tokenizers in wasm against @huggingface/tokenizers in Node. Exits non-zero
# when the two counts differ or a step fails; speed is never a failure. See bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target wasm-bindgen node
bench_corpus_packages
bench_wasm strategies-wasm
bench_npm
bench_oracle
say "open models' tokenizers (WordPiece, Unigram): ours in wasm against @huggingface/tokenizers (Node, a few minutes)"
node "$BENCH/open-tokenizers.mjs"
