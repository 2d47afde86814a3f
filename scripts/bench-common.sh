# Steps shared by scripts/bench.sh and scripts/bench-strategies.sh (sourced, not run): each
# makes one thing ready and skips what is already there, and returns non-zero when it fails
# (also where `set -e` does not apply, as in `if bench_wasm …`). Expects ROOT and BENCH set.

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
say() { printf '[bench] %s\n' "$*"; }

# The Debian packages the corpus is assembled from (list: bench/lib/corpus.mjs).
bench_corpus_packages() {
    local packages missing=() p
    read -r -a packages <<<"$(cd "$BENCH" && node -e 'import("./lib/corpus.mjs").then((m) => console.log(m.DEBIAN_PACKAGES.join(" ")))')"
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
}

# bench_wasm CRATE [FEATURES]: builds the crate (release, wasm32-unknown-unknown; the page's
# profile) with FEATURES (comma-separated, none by default), then bench_bindgen.
bench_wasm() {
    local crate="$1" name="${1//-/_}" features="${2:-}"
    say "building crates/$crate (release, wasm32-unknown-unknown${features:+, features $features})"
    (cd "$ROOT" && cargo build --release --target wasm32-unknown-unknown -p "$crate" ${features:+--features "$features"}) || return 1
    bench_bindgen "${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release/$name.wasm" "$crate"
}

# bench_bindgen WASM LABEL: wasm-bindgen of WASM for Node (CommonJS, bench/pkg-node/) and for the
# browser (ES module + init(), bench/pkg-web/); says its size as LABEL.
bench_bindgen() {
    local wasm="$1" label="$2"
    wasm-bindgen --target nodejs --out-dir "$BENCH/pkg-node" "$wasm" || return 1
    wasm-bindgen --target web --out-dir "$BENCH/pkg-web" "$wasm" || return 1
    # bench/package.json says "type": "module"; the nodejs target is CommonJS.
    echo '{ "type": "commonjs" }' >"$BENCH/pkg-node/package.json"
    local bg
    bg="$BENCH/pkg-web/$(basename "$wasm" .wasm)_bg.wasm"
    say "$label wasm (after wasm-bindgen): $(stat -c %s "$bg") bytes raw, $(gzip -9 -c "$bg" | wc -c) bytes gzip -9"
}

# bench_peer_wasm: builds bench/peer-bpe-openai (github/rust-gems' bpe-openai with our bench
# module's exports; its own Cargo.lock, outside the workspace) for wasm32-unknown-unknown into
# $CARGO_TARGET_DIR or target/, then bench_bindgen beside ours.
bench_peer_wasm() {
    local dir="$BENCH/peer-bpe-openai" target="${CARGO_TARGET_DIR:-$ROOT/target}/peer" ours theirs
    # One wasm-bindgen command serves both modules: their wasm-bindgen crates must be equal.
    ours="$(grep -A1 '^name = "wasm-bindgen"$' "$ROOT/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')"
    theirs="$(grep -A1 '^name = "wasm-bindgen"$' "$dir/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')"
    if [[ "$ours" != "$theirs" ]]; then
        say "bench/peer-bpe-openai pins wasm-bindgen $theirs, the workspace $ours: set its Cargo.toml to =$ours and run cargo update there"
        return 1
    fi
    say "building bench/peer-bpe-openai (bpe-openai 0.3.2, release, wasm32-unknown-unknown)"
    (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build --release --locked --target wasm32-unknown-unknown) || return 1
    bench_bindgen "$target/wasm32-unknown-unknown/release/peer_bpe_openai.wasm" "bpe-openai"
}

# npm ci only when node_modules is missing or older than the lock file.
bench_npm() {
    if [[ ! -f "$BENCH/node_modules/.package-lock.json" || "$BENCH/package-lock.json" -nt "$BENCH/node_modules/.package-lock.json" ]]; then
        say "npm ci in bench/"
        (cd "$BENCH" && npm ci --no-audit --no-fund)
        touch "$BENCH/node_modules/.package-lock.json"
    else
        say "ok: bench/node_modules is up to date"
    fi
}

# The differential tests' Python venv and tiktoken cache (installed when missing); exports
# CHUNK_ORACLE_PYTHON and TIKTOKEN_CACHE_DIR for bench/strategies.mjs. When both are set
# already (and the python runs), they are used as they are.
bench_oracle() {
    local assignments
    if [[ -n "${CHUNK_ORACLE_PYTHON:-}" && -n "${TIKTOKEN_CACHE_DIR:-}" ]] && "$CHUNK_ORACLE_PYTHON" -c '' 2>/dev/null; then
        say "ok: using CHUNK_ORACLE_PYTHON=$CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR=$TIKTOKEN_CACHE_DIR"
        export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR
        return 0
    fi
    assignments="$("$ROOT/scripts/ensure-oracle.sh")" || return 1
    eval "$assignments"
    export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR
}
