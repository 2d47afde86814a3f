//! `rag-chunk`: see the library ([`rag_chunk_cli`]) and `rag-chunk --help`.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use rag_chunk_cli::{run, strategies_help, Cli};

fn main() -> ExitCode {
    let help = strategies_help();
    let command = Cli::command()
        .after_help(help.clone())
        .mut_subcommand("compare", |c| c.after_help(help.clone()))
        .mut_subcommand("chunks", |c| c.after_help(help.clone()));
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let exit = run(&cli, &mut out, &mut std::io::stderr());
    ExitCode::from(exit.code())
}
