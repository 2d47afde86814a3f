#!/usr/bin/env bash
# make bench-compare: only the comparison part of make bench. Makes ready what it needs (Trunk,
# wasm-bindgen, Chromium, Node, the corpus packages, bench/node_modules), builds the page
# (release) and runs bench/compare.mjs: the page's comparison table of every strategy on the
# fixture, 1 MB and 10 MB of mixed text. Speed is never a failure; a failed step is.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node
bench_corpus_packages
bench_npm
PAGE_DIST="$ROOT/target/bench/page-dist"
(cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST")
say "the comparison table of every strategy in the page: fixture, 1 MB, 10 MB (a few minutes)"
node "$BENCH/compare.mjs" "$PAGE_DIST"
