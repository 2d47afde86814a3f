#!/usr/bin/env bash
# Makes the Python oracles of the differential tests ready, installing only what is missing:
# - a venv at target/oracle-venv with exactly crates/chunk-core/tests/differential/requirements.txt
#   (re-installed when that file changes; a stamp holds its hash);
# - tiktoken's cache directory target/tiktoken-cache filled from tiktoken-rs's own assets in the
#   cargo registry, so that tiktoken never downloads an encoding (it checks each file's sha256).
# Prints the two paths as shell assignments on its last lines:
#   CHUNK_ORACLE_PYTHON=...   TIKTOKEN_CACHE_DIR=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQ="$ROOT/crates/chunk-core/tests/differential/requirements.txt"
VENV="$ROOT/target/oracle-venv"
CACHE="$ROOT/target/tiktoken-cache"
say() { printf '[oracle] %s\n' "$*" >&2; }

# The pinned wheels and the strategies' Python rules (str.isspace, str.isprintable: CPython
# 3.11's Unicode 14.0.0 tables, crates/chunk-core/src/strategy/python.rs) are those of 3.11.
command -v python3 >/dev/null 2>&1 || { say "ERROR: python3 is not on PATH (Python 3.11 is needed)"; exit 1; }
pyver="$(python3 -c 'import sys, unicodedata; print("%d.%d unicode %s" % (sys.version_info[:2] + (unicodedata.unidata_version,)))')"
case "$pyver" in
    "3.11 unicode 14.0.0") ;;
    *) say "ERROR: python3 is $pyver; the differential tests need CPython 3.11 (Unicode 14.0.0)"; exit 1 ;;
esac
# Debian's own python3 (3.11.2 on Debian 12) comes without ensurepip until python3-venv is
# installed (scripts/ensure-tools.sh python-venv). Every pin of requirements.txt installs on
# 3.11.2 and later 3.11 releases (soupsieve 2.8.3, not the 4.x series, which needs 3.11.5).
"$ROOT/scripts/ensure-tools.sh" python-venv >&2

want="$(cat "$REQ" <(echo "$pyver") | sha256sum | cut -d' ' -f1)"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements-sha256" 2>/dev/null)" = "$want" ]; then
    say "ok: venv $VENV matches requirements.txt"
else
    say "installing: python3 -m venv $VENV, then pip install -r requirements.txt (about a minute)"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$REQ"
    echo "$want" > "$VENV/.requirements-sha256"
fi

# The encodings' files, from the tiktoken-rs crate the build already fetched.
cargo fetch --manifest-path "$ROOT/Cargo.toml" >/dev/null 2>&1 || true
assets="$(cargo metadata --manifest-path "$ROOT/Cargo.toml" --format-version 1 2>/dev/null \
    | "$VENV/bin/python" -c 'import json,sys,os
m=json.load(sys.stdin)
p=[x["manifest_path"] for x in m["packages"] if x["name"]=="tiktoken-rs"]
print(os.path.join(os.path.dirname(p[0]),"assets") if p else "")')"
[ -d "$assets" ] || { say "ERROR: tiktoken-rs assets not found (cargo fetch first)"; exit 1; }
mkdir -p "$CACHE"
# tiktoken names a cached file sha1(<its download address>); the address is read from the
# installed tiktoken itself, so it is written nowhere in this repository.
TIKTOKEN_CACHE_DIR="$CACHE" ASSETS="$assets" "$VENV/bin/python" - <<'PY'
import hashlib, os, shutil
import tiktoken.load as load
import tiktoken_ext.openai_public as pub
cache, assets = os.environ["TIKTOKEN_CACHE_DIR"], os.environ["ASSETS"]
for name in ("cl100k_base", "o200k_base"):
    seen = {}
    def capture(path, expected_hash=None):
        seen["path"], seen["hash"] = path, expected_hash
        raise StopIteration
    real = pub.load_tiktoken_bpe
    pub.load_tiktoken_bpe = capture
    try:
        getattr(pub, name)()
    except StopIteration:
        pass
    finally:
        pub.load_tiktoken_bpe = real
    dest = os.path.join(cache, hashlib.sha1(seen["path"].encode()).hexdigest())
    src = os.path.join(assets, name + ".tiktoken")
    data = open(src, "rb").read()
    if hashlib.sha256(data).hexdigest() != seen["hash"]:
        raise SystemExit(f"[oracle] ERROR: {src} is not the file tiktoken expects for {name}")
    if not os.path.exists(dest) or open(dest, "rb").read() != data:
        shutil.copyfile(src, dest)
    print(f"[oracle] ok: {name} in tiktoken's cache", file=__import__("sys").stderr)
PY
printf 'CHUNK_ORACLE_PYTHON=%q\n' "$VENV/bin/python"
printf 'TIKTOKEN_CACHE_DIR=%q\n' "$CACHE"
