#!/usr/bin/env bash
# Makes the Spark example's test ready, installing only what is missing:
# - Java 17 or later (scripts/ensure-tools.sh java: openjdk-17-jre-headless from Debian);
# - a venv at target/spark-venv with exactly examples/spark/requirements.txt (PySpark, Arrow;
#   re-installed when that file changes: a stamp holds its hash);
# - the rag_chunk wheel given as $1 (scripts/ensure-python-package.sh builds it), installed.
# Prints the venv's python as a shell assignment on its last line: SPARK_PYTHON=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQ="$ROOT/examples/spark/requirements.txt"
VENV="$ROOT/target/spark-venv"
WHEEL="${1:?usage: $0 RAG_CHUNK_WHEEL}"
say() { printf '[spark] %s\n' "$*" >&2; }

"$ROOT/scripts/ensure-tools.sh" java python-venv >&2
want="$(cat "$REQ" <(python3 --version) | sha256sum | cut -d' ' -f1)"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements-sha256" 2>/dev/null)" = "$want" ]; then
    say "ok: venv $VENV matches examples/spark/requirements.txt"
else
    say "installing: python3 -m venv $VENV, then pip install -r examples/spark/requirements.txt (PySpark: ~430 MB, about a minute)"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$REQ" >&2
    echo "$want" > "$VENV/.requirements-sha256"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --force-reinstall --no-deps "$WHEEL" >&2
say "ok: $(basename "$WHEEL") installed in $VENV"
printf 'SPARK_PYTHON=%q\n' "$VENV/bin/python"
