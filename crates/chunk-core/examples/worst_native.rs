//! Native time of the E14 worst cases (prints figures; not a test).
use chunk_core::tokenizer::Encoding;
use std::time::Instant;
fn main() {
    let cases = [
        ("a", 100_000),
        ("^", 1_000_000),
        (" ", 100_000),
        (" ", 1_000_000),
        ("猫", 333_333),
    ];
    for e in Encoding::ALL {
        let bpe = e.tokenizer();
        for (s, n) in cases {
            let text = s.repeat(n);
            let t = Instant::now();
            let count = bpe.count(&text);
            println!(
                "{e} {s:?}x{n}: {count} tokens in {:.1} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
