#!/usr/bin/env bash
# make bench-documents: only the documents part of make bench. Makes ready what it needs (Trunk,
# wasm-bindgen, Chromium, Node, bench/node_modules), builds the page (release) and runs
# bench/documents.mjs: the PDF fixture and a 50 MB PDF read in the page's reader worker, the
# longest main-thread task meanwhile, and the stop button. Speed is never a failure; a failed
# step is.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node
bench_npm
PAGE_DIST="$ROOT/target/bench/page-dist"
(cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST")
say "PDFs read in the page: the fixture and a 50 MB PDF (a minute)"
node "$BENCH/documents.mjs" "$PAGE_DIST"
