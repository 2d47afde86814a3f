#!/usr/bin/env bash
# make bench: builds the page's tokenizer module (crates/tokenize-engine, with its `bench` exports)
# and github/rust-gems' bpe-openai with the same exports (bench/peer-bpe-openai), installs the
# pinned npm peers (bench/package-lock.json) and the Debian packages the corpus is read from,
# then prints the figures in Node (bench/node.mjs) and headless Chromium (bench/browser.mjs);
# then the same tokenizer natively against tiktoken-rs and bpe-openai (bench_native, ids checked)
# and tiktoken's own encode from Python (bench/tiktoken_python.py);
# then builds the page itself and measures it under 10 MB texts (bench/page.mjs), paste -> exact
# count per MB against a gpt-tokenizer encode in the same browser (bench/paste.mjs), and its
# comparison table on 1 MB and 10 MB (bench/compare.mjs), its retrieval check on 1 MB
# (bench/retrieval.mjs), its PDF reader on a 50 MB PDF (bench/documents.mjs) and its first
# visit on Fast 4G and Slow 4G (bench/network.mjs); last, every chunking strategy in wasm
# (crates/strategies-wasm) against its library in Python (bench/strategies.mjs, with the
# differential tests' oracle venv), then
# sentence segmentation under every rule in the same wasm (bench/sentences.mjs), and the open
# models' WordPiece and Unigram tokenizers against @huggingface/tokenizers (bench/open-tokenizers.mjs),
# the semantic chunkers natively, and the corpus tools (scripts/bench-corpus.sh: the Python
# package against the libraries, rag-chunk on 200 MB of files, Spark at 1 and 2 cores).
# Not a test: no pass/fail on speed. Exits non-zero when a peer's token count differs from ours,
# when a strategy's chunk count differs from its library's, when a sentence call throws (or a
# step fails). Every run always happens; see bench/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

# Tools: the wasm target, wasm-bindgen equal to Cargo.lock's, Chromium, Node (installed when missing).
"$ROOT/scripts/ensure-tools.sh" rust wasm-target trunk wasm-bindgen chromium node

# The Debian packages the corpus is assembled from, the tokenizer's wasm for Node (CommonJS)
# and for the browser (ES module + init()), the npm packages (scripts/bench-common.sh).
bench_corpus_packages
bench_wasm tokenize-engine bench
peer=0
# A failed peer build leaves the tokenizer parts to run without it (bench/lib/adapters.mjs).
bench_peer_wasm || peer=1
bench_npm

status=$peer
((peer)) && say "FAILED: bench/peer-bpe-openai; the tokenizer parts run without bpe-openai"
say "Node run (about 6 minutes, mostly peers' worst cases waiting for the 10 s cap)"
node "$BENCH/node.mjs" || status=1
echo
say "Chromium run (about 6 minutes)"
node "$BENCH/browser.mjs" || status=1
echo
say "the same tokenizer natively against tiktoken-rs and bpe-openai, and tiktoken in Python, on the corpus (a few minutes the first time: a build at opt-level 3)"
# examples/bench_native.rs (feature bench-peers) exits 1 when a tokenizer's ids differ from
# tiktoken-rs's; every side at opt-level 3 (the native profile). bench/tiktoken_python.py times
# tiktoken's encode_ordinary in the oracle venv, where tiktoken is pinned.
(cd "$ROOT" && cargo run --profile native --locked -p chunk-core --features bench-peers --example bench_native -- "$ROOT/target/bench/corpus.txt") || status=1
if bench_oracle; then
    "$CHUNK_ORACLE_PYTHON" "$BENCH/tiktoken_python.py" "$ROOT/target/bench/corpus.txt" || status=1
else
    say "FAILED: the oracle venv (scripts/ensure-oracle.sh)"
    status=1
fi
echo
say "the page under 10 MB texts: release build of the page, then headless Chromium (about 3 minutes)"
PAGE_DIST="$ROOT/target/bench/page-dist"
"$ROOT/scripts/ensure-models.sh" >/dev/null # the build writes the embedding model's file from them
if (cd "$ROOT" && cargo fetch && TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist "$PAGE_DIST"); then
    node "$BENCH/page.mjs" "$PAGE_DIST" || status=1
    echo
    say "paste -> exact count per MB in the page against a gpt-tokenizer encode, 1 MB and 10 MB (a few minutes)"
    node "$BENCH/paste.mjs" "$PAGE_DIST" || status=1
    echo
    say "the comparison table of every strategy in the page: fixture, 1 MB, 10 MB (a few minutes)"
    node "$BENCH/compare.mjs" "$PAGE_DIST" || status=1
    echo
    say "the retrieval check in the page: the table of every strategy and a 60-setting sweep on 1 MB (a few minutes)"
    node "$BENCH/retrieval.mjs" "$PAGE_DIST" || status=1
    echo
    say "the semantic rows in the page with potion-base-8M: fixture and 1 MB (a minute)"
    node "$BENCH/semantic-page.mjs" "$PAGE_DIST" || status=1
    echo
    say "PDFs read in the page: the fixture and a 50 MB PDF (a minute)"
    node "$BENCH/documents.mjs" "$PAGE_DIST" || status=1
    echo
    say "the first visit under network emulation: Fast 4G and Slow 4G (a minute)"
    node "$BENCH/network.mjs" "$PAGE_DIST" || status=1
else
    say "FAILED: the release build of the page"
    status=1
fi
echo
say "chunking strategies: ours in wasm (Node, Chromium worker) against the libraries in Python (a few minutes)"
# The strategies' wasm and the libraries' venv are made ready here, so that a failure of either
# leaves the runs above untouched.
strategies_wasm=0
if bench_wasm strategies-wasm; then
    strategies_wasm=1
    if bench_oracle; then
        node "$BENCH/strategies.mjs" || status=1
    else
        say "FAILED: the oracle venv (scripts/ensure-oracle.sh)"
        status=1
    fi
else
    say "FAILED: building crates/strategies-wasm"
    status=1
fi
echo
say "sentence segmentation: every rule in wasm (Node, Chromium worker) on 1 MB texts (under a minute)"
# The same wasm as the strategy part (bench/pkg-node/, bench/pkg-web/), built above.
if ((strategies_wasm)); then
    node "$BENCH/sentences.mjs" || status=1
else
    say "skipped: crates/strategies-wasm did not build (see above)"
fi
echo
say "open models' tokenizers (WordPiece, Unigram): ours in wasm against @huggingface/tokenizers (Node, a few minutes)"
# The same wasm and venv as the strategy part.
if ((strategies_wasm)) && bench_oracle; then
    node "$BENCH/open-tokenizers.mjs" || status=1
else
    say "skipped: crates/strategies-wasm or the oracle venv is not ready (see above)"
fi
echo
say "semantic chunkers: ours natively against chonkie, LangChain and LlamaIndex with potion-base-8M (a few minutes)"
"$ROOT/scripts/bench-semantic.sh" || status=1
echo
say "the corpus tools: rag_chunk in Python against the libraries, rag-chunk on 200 MB, Spark (about 12 minutes)"
"$ROOT/scripts/bench-corpus.sh" || status=1
if ((status)); then
    say "FAILED: a token count differed from ours, a strategy's chunk count from its library's, a sentence call threw, or a run failed (see above)"
fi
exit "$status"
