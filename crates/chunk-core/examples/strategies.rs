//! Prints a table of every strategy on one UTF-8 file: chunks, tokens embedded, the largest
//! chunk and native time, for both encodings (and characters where the strategy sizes in them
//! when `--characters` is given). As the page's worker does, the file is prepared once per
//! encoding ([`Document`], its time printed first) and each strategy is run on it
//! ([`run_prepared`], column `ms`) and summarised ([`summary_prepared`], column `sum ms`); the
//! last line per encoding is the total of all three.
//!
//! Usage: `cargo run --release -p chunk-core --example strategies -- FILE [CHUNK_SIZE [CHUNK_OVERLAP]] [--characters] [--only=ID,ID…]`
//! (defaults 512 and 64, in tokens; with `--characters`, in characters; `--only` runs only the
//! strategies with those ids, e.g. for a profiler). A strategy that refuses
//! the setting prints its refusal instead of figures. Errors: an unreadable or non-UTF-8 file
//! prints a message on stderr and exits with status 2.

use chunk_core::analysis::summary_prepared;
use chunk_core::strategy::{chunker, run_prepared, Document, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::Encoding;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let characters = args.iter().any(|a| a == "--characters");
    let only: Option<Vec<&str>> = args
        .iter()
        .find_map(|a| a.strip_prefix("--only="))
        .map(|ids| ids.split(',').collect());
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(path) = rest.first() else {
        eprintln!("usage: strategies FILE [CHUNK_SIZE [CHUNK_OVERLAP]] [--characters]");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: usize| rest.get(i).map_or(Ok(default), |s| s.parse::<usize>());
    let (Ok(chunk_size), Ok(chunk_overlap)) = (number(1, 512), number(2, 64)) else {
        eprintln!("strategies: CHUNK_SIZE and CHUNK_OVERLAP must be whole numbers");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path.as_str()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("strategies: cannot read {path} as UTF-8 text: {e}");
            return ExitCode::from(2);
        }
    };
    let unit = if characters {
        SizeUnit::Characters
    } else {
        SizeUnit::Tokens
    };
    println!(
        "{path}: {} bytes; chunk_size {chunk_size}, chunk_overlap {chunk_overlap} ({})",
        text.len(),
        if characters { "characters" } else { "tokens" }
    );
    println!(
        "{:<27} {:<12} {:>7} {:>10} {:>7} {:>9} {:>7}",
        "strategy", "encoding", "chunks", "tokens", "max", "ms", "sum ms"
    );
    let ms_since = |t: Instant| t.elapsed().as_secs_f64() * 1000.0;
    for encoding in Encoding::ALL {
        encoding.tokenizer().count("warm up the tables");
        let all = Instant::now();
        let document = Document::new(&text, encoding);
        println!(
            "{:<27} {:<12} {:>7} {:>10} {:>7} {:>9.1}",
            "(prepare)",
            encoding.name(),
            "",
            document.tokens(),
            "",
            ms_since(all)
        );
        for id in StrategyId::all() {
            if only.as_ref().is_some_and(|o| !o.contains(&id.as_str())) {
                continue;
            }
            let settings = Settings {
                chunk_size,
                chunk_overlap,
                unit,
                encoding,
            };
            let started = Instant::now();
            let result = chunker(id, &settings).and_then(|c| run_prepared(c.as_ref(), &document));
            let ms = ms_since(started);
            match result {
                Ok(out) => {
                    let started = Instant::now();
                    let summary = summary_prepared(
                        &document,
                        &out,
                        &chunk_core::analysis::LimitCheck::within(8191),
                        0.02,
                    );
                    let sum_ms = ms_since(started);
                    assert_eq!(summary.chunks, out.chunks.len());
                    println!(
                        "{:<27} {:<12} {:>7} {:>10} {:>7} {:>9.1} {:>7.1}",
                        id.as_str(),
                        encoding.name(),
                        out.chunks.len(),
                        out.total_tokens(),
                        out.chunks.iter().map(|c| c.tokens).max().unwrap_or(0),
                        ms,
                        sum_ms
                    )
                }
                Err(e) => println!("{:<27} {:<12} refused: {e}", id.as_str(), encoding.name()),
            }
        }
        println!(
            "{:<27} {:<12} {:>7} {:>10} {:>7} {:>9.1}",
            "(total)",
            encoding.name(),
            "",
            "",
            "",
            ms_since(all)
        );
    }
    ExitCode::SUCCESS
}
