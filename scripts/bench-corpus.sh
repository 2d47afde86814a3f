#!/usr/bin/env bash
# make bench-corpus: the corpus tools' figures. Makes ready what they need (the corpus
# packages and the bench's 1 MB mixed text, the oracle venv, the release build of the Python
# package rag_chunk, the `native` build of rag-chunk, the Spark venv), then prints:
# - bench/python.py: every library strategy through rag_chunk against the library itself,
#   in one harness (the ratios, and the smallest);
# - bench/corpus_scale.py: rag-chunk on ≥ 200 MB of mixed files (MB/s per core for counting
#   and each strategy, the whole table at 1 and 2 threads, peak memory, 1 TB projected), and
#   the Spark job at local[1] and local[2].
# Exits non-zero when a chunk count differs from the library's or a step fails; speed is never
# a failure. About 12 minutes (the builds: 5 of them, once).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
# shellcheck source=bench-common.sh
. "$ROOT/scripts/bench-common.sh"

"$ROOT/scripts/ensure-tools.sh" rust node >&2
bench_corpus_packages
(cd "$BENCH" && node -e 'import("./lib/corpus.mjs").then((m) => m.assembleCorpus())')
MIXED="$ROOT/target/bench/mixed-1mb.txt"
bench_oracle
eval "$(PROFILE=release "$ROOT/scripts/ensure-python-package.sh")"
say "building rag-chunk (cargo build --profile native -p rag-chunk-cli)"
(cd "$ROOT" && cargo build --quiet --profile native -p rag-chunk-cli)
eval "$("$ROOT/scripts/ensure-spark.sh" "$RAG_CHUNK_WHEEL")"

status=0
say "every library strategy through rag_chunk (release) against the library (a few minutes)"
"$CHUNK_ORACLE_PYTHON" "$BENCH/python.py" "$ROOT/tests/fixtures/moonstone-short.txt" "$MIXED" || status=1
echo
say "rag-chunk on ≥ 200 MB of mixed files, then Spark at 1 and 2 cores (about 6 minutes)"
python3 "$BENCH/corpus_scale.py" "$ROOT/target/native/rag-chunk" "$MIXED" "$SPARK_PYTHON" || status=1
exit "$status"
