//! Native throughput of the core tokenizer against tiktoken-rs on one corpus, as ratios.
//! Not a test: it prints figures. Usage: `cargo run --release -p chunk-core --example
//! bench_native -- [corpus file]` (without a file, a mixed built-in sample repeated to ~1 MB).

use chunk_core::tokenizer::Encoding;
use std::time::Instant;

fn main() {
    let corpus = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2)
        }),
        None => "The device runs from −10 to 50 °C. Thiết bị hoạt động ổn định. Устройство работает. Urządzenie działa. 猫は可愛い。 fn main() { println!(\"{}\", 42); }\n".repeat(7000),
    };
    let mb = corpus.len() as f64 / 1e6;
    println!("corpus: {:.2} MB", mb);
    for e in Encoding::ALL {
        let t = Instant::now();
        let ours = e.tokenizer();
        let setup_ours = t.elapsed().as_secs_f64();
        let _ = ours.count("warm");
        let t = Instant::now();
        let theirs = match e {
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base(),
            Encoding::O200kBase => tiktoken_rs::o200k_base(),
        }
        .expect("reference tables");
        let setup_theirs = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let a = ours.encode(&corpus);
        let ours_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let b = theirs.encode_ordinary(&corpus);
        let theirs_s = t.elapsed().as_secs_f64();
        assert_eq!(a.ids, b, "ids differ");
        println!(
            "{e}: {} tokens | core: set-up {:.0} ms, {:.1} MB/s | tiktoken-rs: set-up {:.0} ms, {:.1} MB/s | ratio {:.2}x",
            a.len(),
            setup_ours * 1e3,
            mb / ours_s,
            setup_theirs * 1e3,
            mb / theirs_s,
            theirs_s / ours_s
        );
    }
}
