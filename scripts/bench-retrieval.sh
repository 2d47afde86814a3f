#!/usr/bin/env bash
# make bench-retrieval: only the retrieval part of make bench. Makes ready what it needs (Trunk,
# wasm-bindgen, Chromium, Node, bench/node_modules), builds the page (release) and runs
# bench/retrieval.mjs: the page's retrieval table and the sweep of one strategy on the fixture
# repeated to about 1 MB, with the 10 question/answer pairs of
# crates/chunk-core/examples/retrieval_sweep.rs. Speed is never a failure; a failed step is.
# PAGE_DIST (default target/bench/page-dist, as make bench-compare) is where the build goes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node
bench_npm
PAGE_DIST="${PAGE_DIST:-$ROOT/target/bench/page-dist}"
(cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST")
say "the retrieval check in the page: the table of every strategy and a 60-setting sweep on 1 MB (a few minutes)"
node "$BENCH/retrieval.mjs" "$PAGE_DIST"
