#!/usr/bin/env bash
# make bench-compare / bench-retrieval / bench-documents / bench-network / bench-paste: one part
# of make bench that measures the built page. Makes ready what it needs (Trunk, wasm-bindgen,
# Chromium, Node, bench/node_modules; the corpus packages for compare and paste), builds the
# page (release) into PAGE_DIST (default target/bench/page-dist) and runs bench/PART.mjs on it:
#   compare    the comparison table of every strategy on the fixture, 1 MB and 10 MB
#   retrieval  the retrieval table and a 60-setting sweep of one strategy on 1 MB
#   documents  the PDF fixture and a 52 MB PDF read in the reader worker, the stop button
#   network    the first visit on Fast 4G and Slow 4G (paint, form, first count, files sent)
#   paste      paste -> exact count per MB (1 MB, 10 MB) against a gpt-tokenizer encode
#   semantic-page  the semantic rows with potion-base-8M on the fixture and 1 MB: what they add
# Speed is never a failure; a failed step is.
#
# Usage: scripts/bench-page.sh PART
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

part="${1:?usage: scripts/bench-page.sh compare|retrieval|documents|network|paste|semantic-page}"
[[ -f "$BENCH/$part.mjs" ]] || { say "no such part: bench/$part.mjs"; exit 2; }
"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node
[[ "$part" != compare && "$part" != paste && "$part" != semantic-page ]] || bench_corpus_packages
bench_npm
PAGE_DIST="${PAGE_DIST:-$ROOT/target/bench/page-dist}"
"$ROOT/scripts/ensure-models.sh" >/dev/null # the build writes the embedding model's file from them
(cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST")
say "bench/$part.mjs on the page built in $PAGE_DIST"
node "$BENCH/$part.mjs" "$PAGE_DIST"
