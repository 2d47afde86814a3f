"""The Spark job against the command-line tool and the page's per-file figures.

Runs corpus_stats.py in local[2] mode on a folder of the repository's fixtures (text, HTML,
DOCX, PDF, and files it must skip), then checks:
- the corpus's rows (totals.json) equal `rag-chunk compare --format json` on the same folder,
  figure for figure, with the same files read and skipped;
- each file's rows (files/) equal `rag_chunk.compare` on that file's text, which are the page's
  rows, and sum to the corpus's;
- the chunks (chunks/) are `rag_chunk.chunk`'s for each file, in order, and as many as the
  corpus row says.

Environment: RAG_CHUNK_BIN (the command-line tool), and the venv of scripts/ensure-spark.sh
(`make test-python` sets both). Prints the run's timings.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
sys.path.insert(0, HERE)

import corpus_stats  # noqa: E402
import rag_chunk  # noqa: E402

SETTINGS = ["--chunk-size", "256", "--chunk-overlap", "32", "--model", "all-minilm-l6-v2"]
FILES = ["moonstone-short.txt", "docs-page.html", "rust-book-ownership.html", "moonstone.docx",
         "moonstone.pdf", "word-features.docx", "scanned.pdf", "locked.pdf"]


def corpus_folder(tmp):
    docs = os.path.join(tmp, "docs")
    os.makedirs(os.path.join(docs, "nested"))
    for i, name in enumerate(FILES):
        where = docs if i % 2 == 0 else os.path.join(docs, "nested")
        shutil.copy(os.path.join(FIXTURES, name), where)
    with open(os.path.join(docs, "nested", "latin1.md"), "wb") as f:
        f.write(b"caf\xe9 au lait")
    with open(os.path.join(docs, "NOTES.MD"), "w", encoding="utf-8") as f:
        f.write("# Notes\n\n" + "A line of notes, short and plain.\n" * 200)
    for name in ("logo.png", os.path.join("nested", "data.json"), "README"):
        with open(os.path.join(docs, name), "wb") as f:
            f.write(b"\x89PNG not a document")
    return docs


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def main():
    tmp = tempfile.mkdtemp(prefix="rag-chunk-spark-")
    try:
        docs = corpus_folder(tmp)
        out = os.path.join(tmp, "out")
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        started = time.time()
        result = corpus_stats.main([docs, "--output", out, "--master", "local[2]",
                                    "--partitions", "2", *SETTINGS])
        spark_secs = time.time() - started

        started = time.time()
        cli = subprocess.run([os.environ["RAG_CHUNK_BIN"], "compare", docs, "--format", "json",
                              "--no-progress", *SETTINGS], capture_output=True, text=True)
        cli_secs = time.time() - started
        check(cli.returncode == 1, f"rag-chunk skips two files, status 1: {cli.stderr}")
        cli = json.loads(cli.stdout)

        # Files read and skipped: the same.
        check(result["files"] == cli["corpus"]["files"] == 7,
              f"files read: Spark {result['files']}, rag-chunk {cli['corpus']['files']}")
        reasons = lambda pairs: sorted((os.path.basename(p), r) for p, r in pairs)  # noqa: E731
        spark_skipped = reasons((s["path"], s["skipped"].split(":")[0]) for s in result["skipped"])
        cli_skipped = reasons((s["path"], s["reason"]) for s in cli["skipped"])
        check(spark_skipped == cli_skipped == [("latin1.md", "not-utf8"),
                                               ("locked.pdf", "password"),
                                               ("scanned.pdf", "no-text-layer")],
              f"skipped: Spark {spark_skipped}, rag-chunk {cli_skipped}")

        check(result["ignored"] == cli["ignored"] == {"png": 1, "json": 1, "": 1},
              f"ignored: Spark {result['ignored']}, rag-chunk {cli['ignored']}")

        # The corpus's rows: the CLI's, figure for figure.
        keys = ["files", "refused_files", "chunks", "document_tokens", "total_tokens",
                "repeated_tokens", "over_limit", "truncated_tokens", "sentences",
                "split_sentences", "structure_faults", "max_tokens", "model_max_tokens",
                "p95_tokens"]
        check(len(cli["corpus"]["rows"]) == len(result["rows"]) == 17, "17 strategies")
        for row in cli["corpus"]["rows"]:
            mine = result["rows"][row["strategy"]]
            for k in keys:
                check(mine[k] == row[k], f"{row['strategy']} {k}: Spark {mine[k]}, rag-chunk {row[k]}")
            check(abs(mine["cost"] - row["cost"]) <= 1e-12, f"{row['strategy']} cost")
            check(mine["mean_tokens"] == row["mean_tokens"], f"{row['strategy']} mean")
            check(set(mine) >= set(keys), f"{row['strategy']}: a row of every figure")

        # Each file's rows: the page's (rag_chunk.compare on the file's text), summed.
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.master("local[1]").getOrCreate()
        files = [r.asDict() for r in spark.read.parquet(os.path.join(out, "files")).collect()]
        chunks = spark.read.parquet(os.path.join(out, "chunks")).collect()
        spark.stop()
        sums = {}
        texts = {}
        for path in sorted({f["path"] for f in files if f["skipped"] is None}):
            local = path.replace("file://", "", 1).replace("file:", "", 1)
            with open(local, "rb") as fh:
                doc = rag_chunk.read(fh.read(), os.path.basename(local))
            texts[path] = doc
            page = {r["strategy"]: r for r in rag_chunk.compare(
                doc["text"], chunk_size=256, chunk_overlap=32, model="all-minilm-l6-v2")}
            for f in (f for f in files if f["path"] == path):
                want = page[f["strategy"]]
                for k in corpus_stats.SUMS + ["max_tokens", "chunk_tokens"]:
                    check(f[k] == want[k], f"{path} {f['strategy']} {k}: {f[k]} vs {want[k]}")
                for k in corpus_stats.SUMS:
                    sums[(f["strategy"], k)] = sums.get((f["strategy"], k), 0) + f[k]
        for (strategy, k), v in sums.items():
            check(result["rows"][strategy][k] == v, f"{strategy} {k}: the files sum to {v}")

        # The chunks: rag_chunk.chunk's for each file, as many as the corpus row counts.
        strategy = result["settings"]["chunks_strategy"]
        check(len(chunks) == result["rows"][strategy]["chunks"],
              f"{len(chunks)} chunk rows, the corpus counts {result['rows'][strategy]['chunks']}")
        for path, doc in texts.items():
            want = rag_chunk.chunk(doc["text"], strategy, 256, 32, model="all-minilm-l6-v2",
                                   page_starts=doc["page_starts"])
            got = sorted((c for c in chunks if c["path"] == path), key=lambda c: c["chunk_index"])
            check([c["text"] for c in got] == [c["text"] for c in want], f"{path}: chunk texts")
            check([(c["byte_start"], c["tokens"], c["page_start"]) for c in got]
                  == [(c["byte_start"], c["tokens"], c["page_start"]) for c in want],
                  f"{path}: offsets, tokens, pages")
        pdf_pages = {c["page_start"] for c in chunks if c["path"].endswith("moonstone.pdf")}
        check(len(pdf_pages) > 1 and None not in pdf_pages, f"PDF chunks name pages: {pdf_pages}")
        print(f"Spark local[2] equals rag-chunk and the page's per-file rows: "
              f"{result['files']} files, {len(chunks)} chunks of {strategy}, "
              f"{len(result['skipped'])} skipped; Spark {spark_secs:.1f} s "
              f"(JVM start included), rag-chunk {cli_secs:.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
