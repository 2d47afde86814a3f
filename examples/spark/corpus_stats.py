"""The RAG Chunk Calculator's comparison table for a whole corpus, on Spark.

Reads a folder of documents (txt, md, html, docx, pdf; recursively) as binary files, and maps
`rag_chunk` over the partitions with Arrow (`mapInArrow`): each file is read as the page reads
it (`rag_chunk.read`), cut by every strategy (`rag_chunk.compare`, the page's rows), and cut
by one strategy into chunks (`rag_chunk.chunk`). Writes, under --output:

- chunks/     Parquet: path, strategy, chunk_index, byte_start, byte_end, char_start,
              char_end, tokens, page_start, page_end, text (one row per chunk);
- files/      Parquet: one row per file and strategy (the page's row for that file), and
              one row per file that could not be read (its reason in `skipped`);
- totals.json the corpus's row per strategy (sums; p95 over every chunk of every file,
              exactly: a histogram of chunk sizes), the files read and skipped, and the
              folder's other files by extension (not documents: `rag_chunk.document_extensions()`,
              matched in any case, as the command-line tool reads a folder).

Every figure is the page's: the files' rows sum to the corpus's, and equal what
`rag-chunk compare` prints for the same folder (examples/spark/test_corpus_stats.py checks
both in `make test`).

    python corpus_stats.py DOCS --output OUT --master 'local[2]'        # one machine
    spark-submit corpus_stats.py s3a://bucket/docs --output s3a://bucket/out   # a cluster

On a cluster, `rag_chunk` must be importable on every worker: install the wheel there
(`pip install rag_chunk-*.whl`, or a cluster's library setting), or ship it with
`--py-files rag_chunk-*.whl` only for pure-Python code; the wheel holds a native module, so
installing it on the workers' Python is the reliable way (README, "Spark").
"""

import argparse
import json
import os
import sys

import pyarrow as pa


# The numeric figures of a row, summed over the corpus.
SUMS = [
    "chunks", "document_tokens", "total_tokens", "repeated_tokens", "over_limit",
    "truncated_tokens", "sentences", "split_sentences", "structure_faults",
]

FILE_SCHEMA = pa.schema(
    [("path", pa.string()), ("format", pa.string()), ("text_bytes", pa.int64()),
     ("skipped", pa.string()), ("strategy", pa.string()), ("refused", pa.string())]
    + [(k, pa.int64()) for k in SUMS]
    + [("max_tokens", pa.int64()), ("model_max_tokens", pa.int64()),
       ("max_input_tokens", pa.int64()), ("cost", pa.float64()),
       ("chunk_tokens", pa.list_(pa.int64()))]
)

CHUNK_SCHEMA = pa.schema([
    ("path", pa.string()), ("strategy", pa.string()), ("chunk_index", pa.int64()),
    ("byte_start", pa.int64()), ("byte_end", pa.int64()), ("char_start", pa.int64()),
    ("char_end", pa.int64()), ("tokens", pa.int64()), ("page_start", pa.int64()),
    ("page_end", pa.int64()), ("text", pa.string()),
])


def spark_schema(schema):
    """The Spark DDL of an Arrow schema of the types above."""
    names = {pa.string(): "string", pa.int64(): "bigint", pa.float64(): "double",
             pa.list_(pa.int64()): "array<bigint>"}
    return ", ".join(f"{f.name} {names[f.type]}" for f in schema)


def settings_of(args):
    return dict(chunk_size=args.chunk_size, chunk_overlap=args.chunk_overlap, unit=args.unit,
                encoding=args.encoding, model=args.model)


def document_glob(extensions):
    """A Hadoop glob of file names ending in one of `extensions`, in any case (Hadoop's globs
    match case-sensitively: `md` becomes `[mM][dD]`)."""
    def any_case(ext):
        return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in ext)

    return "*.{" + ",".join(any_case(e) for e in extensions) + "}"


def file_rows(settings, price, strategies):
    """The mapInArrow function: binary files -> one row per file and strategy."""

    def run(batches):
        import rag_chunk

        for batch in batches:
            out = {f.name: [] for f in FILE_SCHEMA}
            for path, content in zip(batch.column("path").to_pylist(),
                                     batch.column("content").to_pylist()):
                base = {"path": path, "format": None, "text_bytes": None, "skipped": None,
                        "strategy": None, "refused": None, "chunk_tokens": None}
                try:
                    doc = rag_chunk.read(content, os.path.basename(path))
                    found = rag_chunk.compare(doc["text"], price_per_million=price,
                                              strategies=strategies, **settings)
                except rag_chunk.Unreadable as e:
                    rows = [dict(base, skipped=f"{e.reason}: {e}")]
                except rag_chunk.InternalError as e:  # a bug: this file is reported, not the job
                    rows = [dict(base, skipped=f"internal-error: {e}")]
                else:
                    base.update(format=doc["format"],
                                text_bytes=len(doc["text"].encode("utf-8")))
                    rows = []
                    for r in found:
                        row = dict(base, strategy=r["strategy"])
                        if r["refused"]:
                            row["refused"] = r["refused"]["kind"]
                        else:
                            for k in SUMS + ["max_tokens", "model_max_tokens",
                                             "max_input_tokens", "cost", "chunk_tokens"]:
                                row[k] = r[k]
                        rows.append(row)
                for row in rows:
                    for f in FILE_SCHEMA:
                        out[f.name].append(row.get(f.name))
            yield pa.RecordBatch.from_pydict(out, schema=FILE_SCHEMA)

    return run


def chunk_rows(settings, strategy):
    """The mapInArrow function: binary files -> one row per chunk of `strategy`."""

    def run(batches):
        import rag_chunk

        for batch in batches:
            out = {f.name: [] for f in CHUNK_SCHEMA}
            for path, content in zip(batch.column("path").to_pylist(),
                                     batch.column("content").to_pylist()):
                try:
                    doc = rag_chunk.read(content, os.path.basename(path))
                    chunks = rag_chunk.chunk(doc["text"], strategy,
                                             page_starts=doc["page_starts"], **settings)
                except (rag_chunk.Unreadable, rag_chunk.Refused, rag_chunk.InternalError):
                    continue  # in files/ with its reason (main() puts the strategy among them)
                for c in chunks:
                    out["path"].append(path)
                    out["strategy"].append(strategy)
                    out["chunk_index"].append(c["index"])
                    for k in ("byte_start", "byte_end", "char_start", "char_end", "tokens",
                              "page_start", "page_end", "text"):
                        out[k].append(c[k])
            yield pa.RecordBatch.from_pydict(out, schema=CHUNK_SCHEMA)

    return run


def p95(histogram):
    """Nearest-rank 95th percentile of a {size: count} histogram (the page's rule)."""
    n = sum(histogram.values())
    rank = -(-95 * n // 100)
    seen = 0
    for size in sorted(histogram):
        seen += histogram[size]
        if rank and seen >= rank:
            return size
    return 0


def totals(files_df, price_per_million):
    """The corpus's row per strategy, from the files' rows (computed by Spark)."""
    from pyspark.sql import functions as F

    cut = files_df.where(F.col("strategy").isNotNull() & F.col("refused").isNull())
    sums = cut.groupBy("strategy").agg(
        F.count("*").alias("files"),
        *[F.sum(k).alias(k) for k in SUMS],
        F.max("max_tokens").alias("max_tokens"),
        F.max("model_max_tokens").alias("model_max_tokens"),
    ).collect()
    refused = dict(
        files_df.where(F.col("refused").isNotNull()).groupBy("strategy").count().collect())
    sizes = {}
    for r in (cut.select("strategy", F.explode("chunk_tokens").alias("tokens"))
              .groupBy("strategy", "tokens").count().collect()):
        sizes.setdefault(r["strategy"], {})[r["tokens"]] = r["count"]
    rows = {}
    for r in sums:
        row = r.asDict()
        row["refused_files"] = refused.get(r["strategy"], 0)
        row["p95_tokens"] = p95(sizes.get(r["strategy"], {}))
        row["mean_tokens"] = row["total_tokens"] / row["chunks"] if row["chunks"] else None
        row["cost"] = row["total_tokens"] * price_per_million / 1_000_000
        rows[r["strategy"]] = row
    for s, n in refused.items():  # refused on every file: a row of zeros, as the CLI's
        rows.setdefault(s, {"strategy": s, "files": 0, "refused_files": n, **{k: 0 for k in SUMS},
                            "max_tokens": 0, "model_max_tokens": 0, "p95_tokens": 0,
                            "mean_tokens": None, "cost": 0.0})
    read = files_df.where(F.col("skipped").isNull()).select("path").distinct().count()
    skipped = [r.asDict() for r in
               files_df.where(F.col("skipped").isNotNull()).select("path", "skipped").collect()]
    return {"files": read, "skipped": skipped, "rows": rows}


def ignored_files(spark, folder, extensions):
    """The folder's files that are not documents, by lower-case extension ("" for none), as
    the command-line tool counts them; only their paths are listed (no content is read)."""
    from pyspark.sql import functions as F

    name = F.regexp_extract(F.col("path"), r"([^/]*)$", 1)
    ext = F.lower(F.regexp_extract(name, r"\.([^.]*)$", 1))
    listed = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
              .load(folder).select("path"))
    counts = (listed.select(ext.alias("ext")).where(~F.col("ext").isin(list(extensions)))
              .groupBy("ext").count().collect())
    return {r["ext"]: r["count"] for r in counts}


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="a folder of documents (read recursively)")
    p.add_argument("--output", required=True, help="a folder for chunks/, files/, totals.json")
    p.add_argument("--chunk-size", type=int, default=512)
    p.add_argument("--chunk-overlap", type=int, default=64)
    p.add_argument("--unit", default="tokens", choices=["tokens", "characters", "model"])
    p.add_argument("--encoding", default="cl100k_base", choices=["cl100k_base", "o200k_base"])
    p.add_argument("--model", help="embedding model id (its limit is checked)")
    p.add_argument("--price", type=float, help="USD per 1,000,000 tokens")
    p.add_argument("--strategy", action="append", dest="strategies",
                   help="a strategy for the table (repeat; default: every one)")
    p.add_argument("--chunks-strategy", default="langchain-recursive",
                   help="the strategy whose chunks are written to chunks/")
    p.add_argument("--master", help="e.g. local[2]; omit under spark-submit")
    p.add_argument("--partitions", type=int, default=0,
                   help="files are spread over this many partitions (default: Spark's)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    import rag_chunk
    from pyspark.sql import SparkSession

    settings = settings_of(args)
    # The settings are checked once on the driver: a bad one stops here, with its reason. The
    # chunks' strategy is among the table's, so that its refusals are in files/.
    strategies = args.strategies
    if strategies and args.chunks_strategy not in strategies:
        strategies = strategies + [args.chunks_strategy]
    checked = rag_chunk.settings(price_per_million=args.price, strategies=strategies, **settings)
    rag_chunk.settings(strategies=[args.chunks_strategy], **settings)
    extensions = rag_chunk.document_extensions()
    # No console progress bar: the job prints its table when it ends.
    builder = (SparkSession.builder.appName("rag-chunk corpus stats")
               .config("spark.ui.showConsoleProgress", "false"))
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        files = (spark.read.format("binaryFile")
                 .option("recursiveFileLookup", "true")
                 .option("pathGlobFilter", document_glob(extensions))
                 .load(args.input)
                 .select("path", "content"))
        ignored = ignored_files(spark, args.input, extensions)
        if args.partitions:
            files = files.repartition(args.partitions)
        files_df = files.mapInArrow(file_rows(settings, args.price, strategies),
                                    spark_schema(FILE_SCHEMA)).cache()
        files_df.write.mode("overwrite").parquet(os.path.join(args.output, "files"))
        (files.mapInArrow(chunk_rows(settings, args.chunks_strategy), spark_schema(CHUNK_SCHEMA))
         .write.mode("overwrite").parquet(os.path.join(args.output, "chunks")))
        result = totals(files_df, checked["price_per_million"])
        result["ignored"] = ignored
        result["settings"] = dict(checked, chunks_strategy=args.chunks_strategy)
        text = json.dumps(result, indent=1, sort_keys=True)
        if "://" in args.output:
            spark.sparkContext.parallelize([text], 1).saveAsTextFile(
                os.path.join(args.output, "totals.json"))
        else:
            with open(os.path.join(args.output, "totals.json"), "w") as f:
                f.write(text)
        print_table(result)
        return result
    finally:
        spark.stop()


def print_table(result):
    print(f"{result['files']} files read, {len(result['skipped'])} skipped")
    print(f"{'strategy':<28} {'chunks':>9} {'tokens':>12} {'p95':>6} {'max':>6} "
          f"{'over limit':>10} {'cost':>10}")
    for s, r in sorted(result["rows"].items()):
        if not r.get("files"):
            print(f"{s:<28} refused on {r['refused_files']} files")
            continue
        print(f"{s:<28} {r['chunks']:>9,} {r['total_tokens']:>12,} {r['p95_tokens']:>6} "
              f"{r['max_tokens']:>6} {r['over_limit']:>10,} {r['cost']:>10.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
