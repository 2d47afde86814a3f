#!/usr/bin/env bash
# make bench-embed: the embedding worker's module (crates/embed-engine) in Node's wasm, with and
# without wasm SIMD. Makes ready what it needs (the wasm target, wasm-bindgen, Node, the model
# folder of scripts/ensure-models.sh), builds the module twice (release, wasm32-unknown-unknown:
# the default features, which take `simd128`, into DIR/pkg-simd/, and --no-default-features into
# DIR/pkg-scalar/; wasm-bindgen --target web, as Trunk builds it), writes the site's int8 model
# file and its fp32 twin into DIR/models/ (crates/embed-engine/examples/site_model.rs), then runs
# bench/embed.mjs DIR (DIR: target/bench/embed). Exits non-zero when a step fails or the two
# builds' vectors differ; speed is never a failure. See bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target wasm-bindgen node
"$ROOT/scripts/ensure-models.sh" >/dev/null
DIR="$ROOT/target/bench/embed"
wasm="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release/embed_engine.wasm"
for build in simd scalar; do
    flags=()
    [[ "$build" == scalar ]] && flags=(--no-default-features)
    say "building crates/embed-engine ($build: release, wasm32-unknown-unknown ${flags[*]:-with simd128})"
    (cd "$ROOT" && cargo build --release --target wasm32-unknown-unknown -p embed-engine "${flags[@]}")
    wasm-bindgen --target web --out-dir "$DIR/pkg-$build" "$wasm"
    say "embed-engine ($build): $(stat -c %s "$DIR/pkg-$build/embed_engine_bg.wasm") bytes raw, $(gzip -9 -c "$DIR/pkg-$build/embed_engine_bg.wasm" | wc -c) bytes gzip -9"
done
for weights in "" --fp32; do
    (cd "$ROOT" && cargo run --quiet -p embed-engine --example site_model -- $weights "$DIR")
done
say "all-MiniLM-L6-v2 in Node's wasm, with and without SIMD, int8 and fp32 (a few minutes)"
node "$BENCH/embed.mjs" "$DIR"
