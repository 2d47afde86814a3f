#!/usr/bin/env bash
# Builds the Python package rag_chunk (crates/python) with maturin and installs it into the
# differential tests' venv (target/oracle-venv, whose requirements.txt pins maturin; run
# scripts/ensure-oracle.sh first). It builds in the workspace's target/, sharing the
# dependencies `cargo test --workspace` compiled (the same dev profile), and Cargo rebuilds only
# what changed.
#
#   PROFILE=dev      (default) the build `make test` uses: the core optimised, the rest not
#   PROFILE=release  optimised, for `make bench`'s speed figures
#
# Prints the wheel's path as a shell assignment on its last line: RAG_CHUNK_WHEEL=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/target/oracle-venv"
PROFILE="${PROFILE:-dev}"
OUT="$ROOT/target/wheels/$PROFILE"
say() { printf '[python] %s\n' "$*" >&2; }

[ -x "$VENV/bin/maturin" ] || { say "ERROR: $VENV has no maturin: run scripts/ensure-oracle.sh first"; exit 1; }
say "building: rag_chunk ($PROFILE) with maturin $("$VENV/bin/maturin" --version | cut -d' ' -f2)"
rm -rf "$OUT"
# --auditwheel skip: the wheel is for this machine (the tests and the Spark venv); a wheel for
# other machines is built with maturin's defaults (README, "Python").
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}" "$VENV/bin/maturin" build --quiet --locked \
    --profile "$PROFILE" --auditwheel skip -m "$ROOT/crates/python/Cargo.toml" -o "$OUT" >&2
wheel="$(ls "$OUT"/rag_chunk-*.whl)"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --force-reinstall --no-deps "$wheel" >&2
say "ok: $(basename "$wheel") installed in $VENV"
printf 'RAG_CHUNK_WHEEL=%q\n' "$wheel"
