#!/usr/bin/env bash
# make bench: builds the page's tokenizer alone to wasm (crates/tokenizer-wasm), installs the
# pinned npm peers (bench/package-lock.json) and the Debian packages the corpus is read from,
# then prints the figures in Node (bench/node.mjs) and headless Chromium (bench/browser.mjs);
# last, builds the page itself and measures it under 10 MB texts (bench/page.mjs).
# Not a test: no pass/fail on speed. Exits non-zero when a peer's token count differs from ours
# (or a step fails). Both runs always happen; see bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
say() { printf '[bench] %s\n' "$*"; }

# Tools: the wasm target, wasm-bindgen equal to Cargo.lock's, Chromium, Node (installed when missing).
"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node

# The Debian packages the corpus is assembled from (list: bench/lib/corpus.mjs).
read -r -a packages <<<"$(cd "$BENCH" && node -e 'import("./lib/corpus.mjs").then((m) => console.log(m.DEBIAN_PACKAGES.join(" ")))')"
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    say "installing corpus packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
else
    say "ok: corpus packages installed (${packages[*]})"
fi

# The wasm, for Node (CommonJS) and for the browser (ES module + init()).
say "building crates/tokenizer-wasm (release, wasm32-unknown-unknown)"
(cd "$ROOT" && cargo build --release --target wasm32-unknown-unknown -p tokenizer-wasm)
WASM="$ROOT/target/wasm32-unknown-unknown/release/tokenizer_wasm.wasm"
wasm-bindgen --target nodejs --out-dir "$BENCH/pkg-node" "$WASM"
wasm-bindgen --target web --out-dir "$BENCH/pkg-web" "$WASM"
# bench/package.json says "type": "module"; the nodejs target is CommonJS.
echo '{ "type": "commonjs" }' >"$BENCH/pkg-node/package.json"
bg="$BENCH/pkg-web/tokenizer_wasm_bg.wasm"
say "wasm (after wasm-bindgen): $(stat -c %s "$bg") bytes raw, $(gzip -9 -c "$bg" | wc -c) bytes gzip -9"

# npm ci only when node_modules is missing or older than the lock file.
if [[ ! -f "$BENCH/node_modules/.package-lock.json" || "$BENCH/package-lock.json" -nt "$BENCH/node_modules/.package-lock.json" ]]; then
    say "npm ci in bench/"
    (cd "$BENCH" && npm ci --no-audit --no-fund)
    touch "$BENCH/node_modules/.package-lock.json"
else
    say "ok: bench/node_modules is up to date"
fi

status=0
say "Node run (about 6 minutes, mostly peers' worst cases waiting for the 10 s cap)"
node "$BENCH/node.mjs" || status=1
echo
say "Chromium run (about 6 minutes)"
node "$BENCH/browser.mjs" || status=1
echo
say "the page under 10 MB texts: release build of the page, then headless Chromium (about 3 minutes)"
PAGE_DIST="$ROOT/target/bench/page-dist"
if (cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST"); then
    node "$BENCH/page.mjs" "$PAGE_DIST" || status=1
else
    say "FAILED: the release build of the page"
    status=1
fi
if ((status)); then
    say "FAILED: a token count differed from ours, or a run failed (see above)"
fi
exit "$status"
