//! Native figures of the XLM-RoBERTa Unigram tokenizer: the time to build its tables from the
//! committed data file, and the throughput of `count` and `encode` on a corpus. Not a test: it
//! prints figures. Usage: `cargo run --release -p chunk-core --example bench_unigram -- [corpus
//! file]` (without a file: the differential corpus's moonstone fixture and `docs/*.txt`).

use chunk_core::tokenizer::unigram::Unigram;
use std::time::Instant;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2)
        }),
        None => {
            let mut text =
                std::fs::read_to_string(format!("{root}/../../tests/fixtures/moonstone-short.txt"))
                    .expect("the fixture");
            let mut docs: Vec<_> = std::fs::read_dir(format!("{root}/docs"))
                .expect("docs/")
                .map(|e| e.expect("entry").path())
                .collect();
            docs.sort();
            for d in docs {
                text.push_str(&std::fs::read_to_string(d).expect("a doc"));
                text.push('\n');
            }
            text
        }
    };
    let data = std::fs::read(format!("{root}/vocab/xlm-roberta.unigram")).expect("the data file");
    let mut builds = Vec::new();
    let mut u = None;
    for _ in 0..5 {
        let t = Instant::now();
        u = Some(Unigram::from_bytes(&data).expect("loads"));
        builds.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let u = u.expect("built");
    builds.sort_by(f64::total_cmp);
    println!(
        "build from {} bytes: min {:.0} ms, median {:.0} ms",
        data.len(),
        builds[0],
        builds[2]
    );
    let mb = corpus.len() as f64 / 1e6;
    let n = u.count(&corpus);
    for (name, run) in [
        ("count", &(|| u.count(&corpus)) as &dyn Fn() -> usize),
        ("encode", &|| u.encode(&corpus).len()),
    ] {
        let mut best = f64::INFINITY;
        for _ in 0..20 {
            let t = Instant::now();
            assert_eq!(run(), n);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name}: {:.2} MB, {n} tokens, {:.1} MB/s (best of 20)",
            mb,
            mb / best
        );
    }
    // Many small calls, as when chunks are counted one by one: each line on its own.
    let lines: Vec<&str> = corpus.split('\n').collect();
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let t = Instant::now();
        let total: usize = lines.iter().map(|l| u.count(l)).sum();
        std::hint::black_box(total);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "count per line ({} lines): {:.1} MB/s (best of 20)",
        lines.len(),
        mb / best
    );
}
