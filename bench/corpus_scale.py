"""make bench, corpus part: the command-line tool `rag-chunk` (profile `native`) on a generated
corpus of mixed files, and the Spark job at 1 and 2 cores.

    python bench/corpus_scale.py RAG_CHUNK_BIN MIXED_TEXT [SPARK_PYTHON]

The corpus (target/bench/scale-corpus/, ≥ 200 MB, rebuilt only when missing): plain text and
markdown cut from MIXED_TEXT (the bench's 1 MB of English, Rust, Russian, Polish, Vietnamese,
Japanese and Chinese) at varied offsets and sizes, HTML pages wrapping such cuts, and copies of
the repository's DOCX and PDF fixtures. Figures:
- counting (`rag-chunk count`) and each strategy (`rag-chunk compare --strategy S`) in MB/s per
  core, with 2 threads over the whole corpus (MB/s ÷ 2);
- the whole table (every strategy) on a 50 MB sample with 1 thread and with 2: the scaling
  from 1 to 2 cores, and peak memory (the process's maximum resident set);
- the time 1 TB would take on one 64-core node and on ten, from the whole table's rate per
  core and the measured 1 → 2 core scaling, assumed to hold to 64 cores (the reading and
  writing of files not counted: a local disk or object store read at ≥ 1 GB/s per node keeps
  up with these rates);
- Spark local[1] and local[2] on a 50 MB sample (the job's JVM start included).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
OUT = os.path.join(ROOT, "target", "bench", "scale-corpus")
CORPUS_MB = 200
SAMPLE_MB = 50
SPARK_MB = 50
STAMP = "recipe 1"


def build_corpus(mixed):
    """The corpus, deterministic: (folder, bytes)."""
    stamp = os.path.join(OUT, ".stamp")
    if os.path.exists(stamp) and open(stamp).read() == STAMP:
        return OUT
    shutil.rmtree(OUT, ignore_errors=True)
    data = open(mixed, "rb").read().decode("utf-8")
    n = len(data)
    total, i = 0, 0
    while total < CORPUS_MB * 1_000_000:
        size = [20_000, 80_000, 250_000, 600_000, 1_000_000][i % 5]
        start = (i * 7919 * 13) % n
        text = (data + data)[start:start + size]
        kind = i % 10
        folder = os.path.join(OUT, f"part-{i % 16:02d}")
        os.makedirs(folder, exist_ok=True)
        if kind < 6:
            name, body = f"doc-{i:05d}.txt", text
        elif kind < 8:
            name, body = f"notes-{i:05d}.md", "# Notes " + str(i) + "\n\n" + text.replace("\n\n", "\n\n## Part\n\n", 3)
        else:
            paras = "".join(f"<p>{p}</p>\n" for p in text.replace("&", "&amp;").replace("<", "&lt;").split("\n\n"))
            name, body = f"page-{i:05d}.html", f"<!doctype html><html><head><title>Page {i}</title></head><body><main>{paras}</main></body></html>"
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(body)
        total += len(body.encode("utf-8"))
        if i % 25 == 0:
            for fx in ("moonstone.docx", "moonstone.pdf", "word-features.docx"):
                shutil.copy(os.path.join(FIXTURES, fx), os.path.join(folder, f"{i:05d}-{fx}"))
                total += os.path.getsize(os.path.join(FIXTURES, fx))
        i += 1
    open(stamp, "w").write(STAMP)
    return OUT


def sample(folder, mb, dest):
    """The first files of the corpus (in sorted order) up to `mb` MB, hard-linked into `dest`
    (the tool does not follow symbolic links in folders)."""
    os.makedirs(dest, exist_ok=True)
    total = 0
    for root, _, files in sorted(os.walk(folder)):
        for f in sorted(files):
            if f.startswith(".") or total >= mb * 1_000_000:
                continue
            src = os.path.join(root, f)
            os.link(src, os.path.join(dest, f))
            total += os.path.getsize(src)
    return dest


def run(cmd, env=None, ok=(0, 1)):
    """Runs `cmd`: (seconds, peak resident MB, stderr). An exit status outside `ok` stops the
    bench (1 is rag-chunk's "some files skipped")."""
    started = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(p.pid, 0)
    secs = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({code}): {err[-2000:]}")
    return secs, usage.ru_maxrss / 1024, err


def text_mb(err):
    """The MB of text read, from the summary line (`Read N files (X MB) ...`)."""
    line = next(l for l in err.splitlines() if l.startswith("Read "))
    amount, unit = line.split("(")[1].split(")")[0].split()
    return float(amount) * (1 if unit == "MB" else 0.001)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, mixed = sys.argv[1], sys.argv[2]
    spark_python = sys.argv[3] if len(sys.argv) > 3 else None
    folder = build_corpus(mixed)
    tmp = tempfile.mkdtemp(prefix="rag-chunk-scale-")
    try:
        small = sample(folder, SAMPLE_MB, os.path.join(tmp, "sample"))
        strategies = json.loads(subprocess.run(
            [cli, "compare", os.path.join(FIXTURES, "moonstone-short.txt"), "--format", "json"],
            capture_output=True, text=True, check=True).stdout)["settings"]["strategies"]
        print(f"rag-chunk on {folder} (≥ {CORPUS_MB} MB of mixed files), 512/64 tokens, cl100k_base")
        secs, rss, err = run([cli, "count", folder, "--jobs", "2", "--no-progress"])
        mb = text_mb(err)
        print(f"{'count':<28} {mb / secs / 2:>8.1f} MB/s per core  ({mb:.0f} MB of text in {secs:.1f} s on 2 threads, peak {rss:.0f} MB)")
        for s in strategies if not os.environ.get("BENCH_ONLY_TABLE") else []:
            secs, rss, err = run([cli, "compare", folder, "--jobs", "2", "--no-progress",
                                  "--format", "csv", "--strategy", s])
            print(f"{s:<28} {mb / secs / 2:>8.1f} MB/s per core  ({secs:.1f} s on 2 threads, peak {rss:.0f} MB)")
        rates = {}
        for jobs in (1, 2):
            secs, rss, err = run([cli, "compare", small, "--jobs", str(jobs), "--no-progress",
                                  "--format", "csv"])
            smb = text_mb(err)
            rates[jobs] = smb / secs
            print(f"whole table ({len(strategies)} strategies), {jobs} thread{'s' if jobs > 1 else ''}: "
                  f"{smb / secs:.2f} MB/s ({smb:.0f} MB in {secs:.1f} s), peak memory {rss:.0f} MB")
        scaling = rates[2] / (2 * rates[1])
        per_core = rates[1]
        tb = 1_000_000  # MB
        node = tb / (per_core * 64 * scaling) / 3600
        print(f"scaling 1 → 2 cores: {scaling * 100:.0f} % of linear; the whole table at "
              f"{per_core:.2f} MB/s per core: 1 TB in {node:.1f} h on one 64-core node, "
              f"{node / 10 * 60:.0f} min on ten (the 1 → 2 scaling assumed to hold to 64 cores)")
        if spark_python:
            spark_sample = sample(folder, SPARK_MB, os.path.join(tmp, "spark"))
            for cores in (1, 2):
                env = dict(os.environ, PYSPARK_PYTHON=spark_python, SPARK_LOCAL_IP="127.0.0.1")
                secs, _, err = run([spark_python, os.path.join(ROOT, "examples", "spark", "corpus_stats.py"),
                                    spark_sample, "--output", os.path.join(tmp, f"spark-out-{cores}"),
                                    "--master", f"local[{cores}]", "--partitions", str(4 * cores)], env, ok=(0,))
                print(f"Spark local[{cores}]: {SPARK_MB} MB of files in {secs:.1f} s "
                      f"({SPARK_MB / secs:.2f} MB/s, JVM start and both outputs included)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
