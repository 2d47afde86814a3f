//! Writes the BPE tables the tokenizer's module fetches into a build: `tables/<encoding>.bin`
//! ([`Encoding::table_path`]) under the folder named on the command line, else under
//! `$TRUNK_STAGING_DIR` (run as Trunk's `post_build` hook, see `Trunk.toml`). The bytes are the
//! ones chunk-core's build embeds natively ([`Encoding::embedded_table`]), so their size and
//! checksum are the ones the module checks a fetched file against.

use std::path::PathBuf;
use std::process::ExitCode;

use chunk_core::tokenizer::Encoding;

fn main() -> ExitCode {
    let dir = match std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR"))
    {
        Some(dir) => PathBuf::from(dir),
        None => {
            eprintln!(
                "tables: name the build's folder, or run as a Trunk hook (TRUNK_STAGING_DIR)"
            );
            return ExitCode::FAILURE;
        }
    };
    for encoding in Encoding::ALL {
        let path = dir.join(encoding.table_path());
        let bytes = encoding.embedded_table();
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, bytes));
        if let Err(e) = written {
            eprintln!("tables: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!(
            "tables: {} ({} bytes, checksum {:016x})",
            path.display(),
            bytes.len(),
            encoding.table_facts().checksum
        );
    }
    ExitCode::SUCCESS
}
