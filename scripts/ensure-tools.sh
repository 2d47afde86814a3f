#!/usr/bin/env bash
# Installs the tools that building, serving and testing the page need, each only when it is
# missing. Every step first checks whether the tool is already there and says what it found.
#
# Usage: scripts/ensure-tools.sh STEP...
#   rust          cargo and rustup answer (cannot be installed here: fails with a message)
#   wasm-target   the wasm32-unknown-unknown target is installed for the active toolchain
#   trunk         `trunk --version` answers (else: cargo install trunk --version ^0.21 --locked)
#   wasm-bindgen  `wasm-bindgen --version` equals the wasm-bindgen version in Cargo.lock
#                 (else: cargo install wasm-bindgen-cli --version X, without --locked)
#   chromium      /usr/bin/chromium and /usr/bin/chromedriver exist
#                 (else: apt-get update && apt-get install -y chromium chromium-driver)
#   python-venv   python3 has its venv and ensurepip modules (else: apt-get install python3-venv;
#                 Debian's python3 comes without them)
#   java          java 17 or later answers, for Spark (else: apt-get install openjdk-17-jre-headless)
#   node          node >= 20 and npm answer (cannot be installed here: fails with a message)
#   wasm-opt      scripts/wasm-opt/node_modules holds binaryen as its package-lock.json pins it
#                 (else: npm ci there), for the release build's page-split hook (crates/page-split)
#   serve         = rust wasm-target trunk wasm-bindgen node wasm-opt
#   test          = serve chromium
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

say() { printf '[tools] %s\n' "$*"; }
die() {
    printf '[tools] ERROR: %s\n' "$*" >&2
    exit 1
}

# Waits while another `cargo install <crate>` is running, so that a second install of the same
# tool is never started (two installs of one crate race on ~/.cargo/bin).
wait_for_other_install() {
    local crate="$1" waited=0
    while pgrep -f "cargo install .*${crate}( |$)" >/dev/null 2>&1; do
        if ((waited % 60 == 0)); then
            say "another 'cargo install ${crate}' is running; waiting for it to finish (${waited}s so far)"
        fi
        sleep 10
        waited=$((waited + 10))
    done
}

step_rust() {
    command -v cargo >/dev/null 2>&1 \
        || die "cargo is not on PATH. Install the Rust toolchain with rustup (https://rustup.rs), then rerun."
    command -v rustup >/dev/null 2>&1 \
        || die "rustup is not on PATH; it is needed to add the wasm32-unknown-unknown target."
    say "ok: $(cargo --version)"
}

step_wasm_target() {
    if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
        say "ok: rust target wasm32-unknown-unknown is installed"
    else
        say "installing: rustup target add wasm32-unknown-unknown"
        rustup target add wasm32-unknown-unknown
    fi
}

step_trunk() {
    local version
    if ! version="$(trunk --version 2>/dev/null)"; then
        wait_for_other_install trunk
        if ! version="$(trunk --version 2>/dev/null)"; then
            say "installing: cargo install trunk --version ^0.21 --locked (compiles for several minutes)"
            cargo install trunk --version '^0.21' --locked
            version="$(trunk --version)"
        fi
    fi
    case "$version" in
        "trunk 0.21."*) say "ok: $version" ;;
        *) say "warning: found '$version'; this project is built with trunk 0.21" ;;
    esac
}

# The wasm-bindgen version the project is locked to, from Cargo.lock.
locked_wasm_bindgen() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$ROOT/Cargo.lock"
}

step_wasm_bindgen() {
    local want have
    want="$(locked_wasm_bindgen)"
    [[ -n "$want" ]] || die "no wasm-bindgen entry in $ROOT/Cargo.lock"
    have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
    if [[ "$have" != "$want" ]]; then
        wait_for_other_install wasm-bindgen-cli
        have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
    fi
    if [[ "$have" == "$want" ]]; then
        say "ok: wasm-bindgen $have (= Cargo.lock)"
    else
        say "installing: cargo install wasm-bindgen-cli --version $want (found '${have:-none}'; trunk needs exactly the locked version)"
        cargo install wasm-bindgen-cli --version "$want"
        have="$(wasm-bindgen --version | awk '{print $2}')"
        [[ "$have" == "$want" ]] || die "wasm-bindgen reports $have after installing $want"
    fi
    command -v wasm-bindgen-test-runner >/dev/null 2>&1 \
        || die "wasm-bindgen-test-runner is missing although wasm-bindgen-cli $want is installed"
}

# Installs Debian packages with apt-get (as root, or with sudo).
apt_install() {
    local sudo=()
    if [[ "$(id -u)" != 0 ]]; then
        command -v sudo >/dev/null 2>&1 || die "not root and no sudo: apt-get install $* by hand"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "$@"
}

step_chromium() {
    if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
        say "ok: $(/usr/bin/chromium --version 2>/dev/null | head -n1), chromedriver at /usr/bin/chromedriver"
        return
    fi
    say "installing: chromium and chromium-driver with apt-get"
    apt_install chromium chromium-driver
    [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] \
        || die "apt-get finished but /usr/bin/chromium or /usr/bin/chromedriver is still missing"
}

step_python_venv() {
    command -v python3 >/dev/null 2>&1 || die "python3 is not on PATH (CPython 3.11 is needed)"
    if python3 -c 'import venv, ensurepip' 2>/dev/null; then
        say "ok: $(python3 --version) with its venv module"
        return
    fi
    say "installing: python3-venv with apt-get (python3 has no ensurepip)"
    apt_install python3-venv
    python3 -c 'import venv, ensurepip' 2>/dev/null \
        || die "python3 still has no venv/ensurepip module after installing python3-venv"
}

# The major version of the `java` on PATH, 0 when there is none.
java_major() {
    command -v java >/dev/null 2>&1 || { echo 0; return; }
    java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1
}

step_java() {
    local major
    major="$(java_major)"
    if ((${major:-0} >= 17)); then
        say "ok: java $major"
        return
    fi
    say "installing: openjdk-17-jre-headless with apt-get (found java ${major:-none}; Spark needs 17+)"
    apt_install openjdk-17-jre-headless
    major="$(java_major)"
    ((${major:-0} >= 17)) || die "apt-get finished but java 17 does not answer"
}

step_node() {
    command -v node >/dev/null 2>&1 \
        || die "node is not on PATH. Install Node.js 20 or later (with npm), then rerun."
    command -v npm >/dev/null 2>&1 || die "npm is not on PATH. Install npm (it comes with Node.js), then rerun."
    local major
    major="$(node -p 'process.versions.node.split(".")[0]')"
    ((major >= 20)) || die "node $(node --version) is too old: the end-to-end test needs Node.js 20 or later."
    say "ok: node $(node --version), npm $(npm --version)"
}

step_wasm_opt() {
    local dir="$ROOT/scripts/wasm-opt" want have
    want="$(node -p 'require(process.argv[1]).packages["node_modules/binaryen"].version' "$dir/package-lock.json")"
    have="$(node -p 'require(process.argv[1]).version' "$dir/node_modules/binaryen/package.json" 2>/dev/null || true)"
    if [[ "$have" == "$want" ]]; then
        say "ok: wasm-opt from binaryen $have (npm) in scripts/wasm-opt"
        return
    fi
    say "installing: npm ci in scripts/wasm-opt (binaryen $want: wasm-opt on Node; found '${have:-none}')"
    (cd "$dir" && npm ci --no-audit --no-fund)
    "$dir/node_modules/binaryen/bin/wasm-opt" --version >/dev/null \
        || die "binaryen $want is installed but its wasm-opt does not answer --version"
}

run_step() {
    case "$1" in
        rust) step_rust ;;
        wasm-target) step_wasm_target ;;
        trunk) step_trunk ;;
        wasm-bindgen) step_wasm_bindgen ;;
        chromium) step_chromium ;;
        python-venv) step_python_venv ;;
        java) step_java ;;
        node) step_node ;;
        wasm-opt) step_wasm_opt ;;
        serve) for s in rust wasm-target trunk wasm-bindgen node wasm-opt; do run_step "$s"; done ;;
        test) for s in rust wasm-target trunk wasm-bindgen node wasm-opt chromium; do run_step "$s"; done ;;
        *) die "unknown step '$1' (see the header of $0)" ;;
    esac
}

(($# > 0)) || die "usage: $0 STEP... (rust, wasm-target, trunk, wasm-bindgen, chromium, python-venv, java, node, wasm-opt, serve, test)"
for step in "$@"; do
    run_step "$step"
done
