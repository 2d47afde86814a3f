//! Prints the exact token count of a UTF-8 text file in every bundled encoding, as one line of
//! JSON, e.g. `{"bytes":114033,"chars":114033,"cl100k_base":25000,"o200k_base":24900}`.
//! Units: `bytes` = UTF-8 bytes, `chars` = Unicode scalar values, the rest = tokens.
//!
//! The end-to-end test (tests/e2e) runs it to get the native core's counts and checks that the
//! page shows the same numbers for the same text.
//!
//! Usage: `cargo run --release -p chunk-core --example count -- FILE`
//! Errors: a missing argument, an unreadable file or a file that is not UTF-8 prints a message
//! on stderr and exits with status 2.

use chunk_core::tokenizer::Encoding;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: count FILE   (prints the token counts of FILE as JSON)");
        return ExitCode::from(2);
    };
    let text = match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                eprintln!(
                    "count: {} is not valid UTF-8: {err}",
                    path.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        },
        Err(err) => {
            eprintln!("count: cannot read {}: {err}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let mut line = format!(
        "{{\"bytes\":{},\"chars\":{}",
        text.len(),
        text.chars().count()
    );
    for encoding in Encoding::ALL {
        let tokens = encoding.tokenizer().count(&text);
        line.push_str(&format!(",\"{}\":{tokens}", encoding.name()));
    }
    line.push('}');
    println!("{line}");
    ExitCode::SUCCESS
}
