#!/usr/bin/env bash
# make bench-network: only the first-load part of make bench. Makes ready what it needs (Trunk,
# wasm-bindgen, Chromium, Node, bench/node_modules), builds the page (release) and runs
# bench/network.mjs: the first visit on "Fast 4G" and "Slow 4G" (first contentful paint, the
# calculator's form, the first exact count, every file sent). Speed is never a failure; a
# failed step is.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node
bench_npm
PAGE_DIST="$ROOT/target/bench/page-dist"
(cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST")
say "the first visit under network emulation: Fast 4G and Slow 4G (a minute)"
node "$BENCH/network.mjs" "$PAGE_DIST"
