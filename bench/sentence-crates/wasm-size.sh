#!/usr/bin/env bash
# The wasm size of each segmenter: the cdylib for wasm32-unknown-unknown (profile `wasm`), built
# with no segmenter (`none`, the baseline) and with each one alone; what a segmenter adds is its
# size minus the baseline's. Usage: ./wasm-size.sh [FEATURE...] (default: all but srx, whose
# rules are read from a file at run time: without a file system the build drops its code).
# Needs the target (rustup target add wasm32-unknown-unknown); honours CARGO_TARGET_DIR and
# CARGO_BUILD_JOBS.
set -uo pipefail
cd "$(dirname "$0")"
target=${CARGO_TARGET_DIR:-target}
features=("$@")
[ ${#features[@]} -gt 0 ] ||
  features=(none useg icu sentencex sentence_segmentation sentencize cutters anyseg pragmatic)
for f in "${features[@]}"; do
  flags=(--locked --profile wasm --target wasm32-unknown-unknown --lib)
  [ "$f" = none ] || flags+=(--features "$f")
  if log=$(cargo build "${flags[@]}" 2>&1); then
    echo "$f: $(stat -c %s "$target/wasm32-unknown-unknown/wasm/sentence_crates.wasm") bytes"
  else
    echo "$f: build failed: $(grep -m1 -E '^error' <<<"$log")"
  fi
done
