//! Native throughput of the core tokenizer against tiktoken-rs and, with the feature
//! `bench-peers`, github/rust-gems' `bpe-openai` (a linear-time backtracking encoder with its own
//! split step), on one corpus in one run, as MB/s and ratios. Not a test: it prints figures, and
//! exits with status 1 naming the tokenizer whose ids differ from tiktoken-rs's (the reference),
//! or 2 when the corpus cannot be read as UTF-8.
//!
//! Usage: `cargo run --release -p chunk-core --features bench-peers --example bench_native --
//! [corpus file] [passes]` (without a file, a mixed built-in sample repeated to ~1 MB; 5 passes
//! when `passes` is missing or not a whole number). `make bench` runs it with `--profile native`,
//! every side at opt-level 3. Each figure is the best of the passes, which alternate between the
//! tokenizers; set-up is building the tables (ours and bpe-openai's with a first call, which
//! builds them; tiktoken-rs's constructor). MB = 10^6 bytes of UTF-8; a ratio is the peer's time
//! over ours (above 1: ours is faster).

use chunk_core::tokenizer::Encoding;
use std::time::Instant;

/// Seconds taken by `f`, with its result.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let out = f();
    (t.elapsed().as_secs_f64(), out)
}

/// A peer: its name and version, set-up seconds, and its encode.
type Peer = (&'static str, f64, Box<dyn Fn(&str) -> Vec<u32>>);

/// The peers of `e`, each built (and timed) now.
fn peers(e: Encoding) -> Vec<Peer> {
    let (setup, tiktoken) = timed(|| {
        match e {
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base(),
            Encoding::O200kBase => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs's tables")
    });
    #[allow(unused_mut)]
    let mut out: Vec<Peer> = vec![(
        "tiktoken-rs 0.12.1",
        setup,
        Box::new(move |t| tiktoken.encode_ordinary(t)),
    )];
    #[cfg(feature = "bench-peers")]
    {
        let (setup, bpe_openai) = timed(|| {
            let t = match e {
                Encoding::Cl100kBase => bpe_openai::cl100k_base(),
                Encoding::O200kBase => bpe_openai::o200k_base(),
            };
            t.count("warm");
            t
        });
        out.push((
            "bpe-openai 0.3.2",
            setup,
            Box::new(move |t| bpe_openai.encode(t)),
        ));
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let corpus = match args.next() {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2)
        }),
        None => "The device runs from −10 to 50 °C. Thiết bị hoạt động ổn định. Устройство работает. Urządzenie działa. 猫は可愛い。 fn main() { println!(\"{}\", 42); }\n".repeat(7000),
    };
    let passes: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(5).max(1);
    let mb = corpus.len() as f64 / 1e6;
    println!("corpus: {mb:.2} MB, best of {passes} passes");
    if cfg!(not(feature = "bench-peers")) {
        println!("(bpe-openai left out: build with --features bench-peers)");
    }
    let mut differ = false;
    for e in Encoding::ALL {
        // Names already reported for this encoding (each once, not once per pass).
        let mut reported: Vec<&str> = Vec::new();
        let (setup, ours) = timed(|| {
            let t = e.tokenizer();
            t.count("warm");
            t
        });
        let peers = peers(e);
        let mut best_ours = f64::MAX;
        let mut best = vec![f64::MAX; peers.len()];
        let mut tokens = 0;
        for _ in 0..passes {
            let (s, ids) = timed(|| ours.encode(&corpus).ids);
            best_ours = best_ours.min(s);
            let outputs: Vec<Vec<u32>> = (peers.iter().zip(&mut best))
                .map(|((_, _, encode), best)| {
                    let (s, theirs) = timed(|| encode(&corpus));
                    *best = best.min(s);
                    theirs
                })
                .collect();
            // tiktoken-rs (the first peer) is the reference of ours and of the other peers.
            let reference = &outputs[0];
            let others = peers.iter().map(|p| p.0).zip(&outputs).skip(1);
            for (who, got) in std::iter::once(("ours", &ids)).chain(others) {
                if got != reference && !reported.contains(&who) {
                    eprintln!("{e}: {who} ids differ from {}'s", peers[0].0);
                    reported.push(who);
                    differ = true;
                }
            }
            tokens = ids.len();
        }
        let mut line = format!(
            "{e}: {tokens} tokens | ours: set-up {:.0} ms, {:.1} MB/s",
            setup * 1e3,
            mb / best_ours
        );
        for ((name, setup, _), s) in peers.iter().zip(&best) {
            line += &format!(
                " | {name}: set-up {:.0} ms, {:.1} MB/s, ratio {:.2}",
                setup * 1e3,
                mb / s,
                s / best_ours
            );
        }
        println!("{line}");
    }
    if differ {
        std::process::exit(1);
    }
}
