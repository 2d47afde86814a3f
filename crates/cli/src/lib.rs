//! `rag-chunk`: the page's comparison table and chunks for a whole corpus, on every core.
//!
//! - `rag-chunk compare PATH...`: every strategy's row (the page's columns) for the corpus and
//!   per file, as a table, JSON or CSV ([`output`]).
//! - `rag-chunk chunks PATH... --strategy ID`: the chunks as JSON Lines, the page's export
//!   fields plus `path` and `strategy`.
//!
//! Every figure is [`corpus_core`]'s, which is the page's core: a file's row equals the page's
//! row for the same text and settings. Files are read in parallel (rayon, `--jobs` threads) in
//! batches of four per thread and written in the order listed, so memory holds one batch of
//! files, never the corpus. A file that cannot be read is reported with its reason and
//! skipped, and the exit status says so ([`Exit`]).

// A file that panics a reader or a strategy is skipped with its reason only where panics
// unwind: build with `--profile native`, not the page's `release` profile (which aborts).
#[cfg(panic = "abort")]
compile_error!(
    "rag-chunk must unwind on panic: build it with `cargo build --profile native -p rag-chunk-cli`"
);

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

use chunk_core::strategy::StrategyId;
use clap::{Args, Parser, Subcommand, ValueEnum};
use corpus_core::{chunk_rows, compare_text, Config, Corpus, TextReport};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

pub mod files;
pub mod output;

use files::{list, Listing, Skipped};

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "rag-chunk",
    version,
    about = "How chunk_size and chunk_overlap cut a whole corpus for RAG: the RAG Chunk \
             Calculator's comparison table and chunks, computed locally on every core.",
    long_about = None
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The comparison table (chunks, tokens embedded, repeats, mean/p95/max chunk tokens,
    /// chunks over the model's limit, split sentences, structure faults, cost, storage) for
    /// the whole corpus, then per file.
    Compare {
        /// The run's settings and paths.
        #[command(flatten)]
        common: Common,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
        format: OutputFormat,
    },
    /// Each file's chunks as JSON Lines: the page's export fields (text, byte and character
    /// offsets, lines, tokens, heading path, why the chunk ended, page) plus `path` and
    /// `strategy`.
    Chunks {
        /// The run's settings and paths (at least one --strategy).
        #[command(flatten)]
        common: Common,
        /// Write the lines to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Each file's tokens (tiktoken's count of the whole text), then the total: the
    /// document's length in tokens, without chunking.
    Count {
        /// The files.
        #[command(flatten)]
        files: Files,
        /// The encoding counted.
        #[arg(long, default_value = "cl100k_base", value_parser = ["cl100k_base", "o200k_base"])]
        encoding: String,
    },
}

/// Output formats of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Aligned columns for reading.
    Table,
    /// One JSON document: settings, files (each with the page's rows), skipped, corpus.
    Json,
    /// CSV: one line per file and strategy (scope `file`), then per strategy (scope `corpus`).
    Csv,
}

/// The files and how to read them, shared by the subcommands.
#[derive(Debug, Args)]
pub struct Files {
    /// Files (read whatever their name), folders (walked recursively, following links; their
    /// .txt .text .md .markdown .mdx .rst .html .htm .xhtml .docx .docm .dotx .pdf files, in
    /// any case) or glob patterns ('docs/**/*.md').
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Threads [default: every core].
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// No progress bar (it is drawn only on a terminal anyway).
    #[arg(long)]
    pub no_progress: bool,
}

/// Settings and paths of `compare` and `chunks`.
#[derive(Debug, Args)]
pub struct Common {
    /// The files.
    #[command(flatten)]
    pub files: Files,
    /// Maximum chunk size, in --unit.
    #[arg(long, default_value_t = 512)]
    pub chunk_size: usize,
    /// Overlap between consecutive chunks, in --unit (a library that refuses it is reported).
    #[arg(long, default_value_t = 64)]
    pub chunk_overlap: usize,
    /// What the sizes count: tokens of --encoding, characters (Unicode code points), or model
    /// (the --model's own tokens; WordPiece and XLM-R models).
    #[arg(long, default_value = "tokens", value_parser = ["tokens", "characters", "model"])]
    pub unit: String,
    /// The tokenizer that sizes chunks and counts every token figure.
    #[arg(long, default_value = "cl100k_base", value_parser = ["cl100k_base", "o200k_base"])]
    pub encoding: String,
    /// Embedding model id: every chunk is checked against its input limit with its own
    /// tokenizer, and storage uses its dimensions (e.g. openai-text-embedding-3-small,
    /// all-minilm-l6-v2).
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// Price in US dollars per 1,000,000 tokens [default: the model's, else 0.02].
    #[arg(long, value_name = "USD", allow_negative_numbers = true)]
    pub price: Option<f64>,
    /// A strategy id (repeat for several) [default: every strategy that sizes in --unit, for
    /// compare].
    #[arg(long = "strategy", value_name = "ID")]
    pub strategies: Vec<String>,
}

/// How a run ended, as the process's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Every file was read (status 0).
    Complete,
    /// Some paths were skipped, each reported with its reason (status 1).
    Skipped,
    /// The settings or the output could not be used; nothing or only part was written
    /// (status 2, as clap's own usage errors).
    Failed,
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Complete => 0,
            Exit::Skipped => 1,
            Exit::Failed => 2,
        }
    }
}

/// Every strategy with its library and version, for `--help`.
pub fn strategies_help() -> String {
    let mut s = String::from("Strategies (--strategy):\n");
    for id in StrategyId::all() {
        let what = match id.library() {
            Some(lib) => format!(
                "{} {} `{}`{}",
                lib.package,
                lib.version,
                lib.api,
                if lib.exact {
                    ", chunk for chunk"
                } else {
                    ", approximate"
                }
            ),
            None => format!("the calculator's own: {}", own_rule(id)),
        };
        s.push_str(&format!("  {:<28} {what}\n", id.as_str()));
    }
    s.push_str(
        "The semantic strategies need an embedding model and run on the page only.\n\n\
         Exit status: 0 every file read (a strategy refusing a file's settings is a row, not a \
         failure); 1 some paths skipped (each listed with its reason); 2 bad settings or \
         output.",
    );
    s
}

/// What one of the calculator's own strategies does, in a few words.
fn own_rule(id: StrategyId) -> &'static str {
    match id {
        StrategyId::Fixed => "fixed windows of chunk_size, chunk_overlap apart",
        StrategyId::Sentence => "whole sentences packed up to chunk_size",
        StrategyId::Recursive => "recursive splitter sized by true token counts",
        StrategyId::Markdown => "markdown structure splitter (headings, fences, lists)",
        StrategyId::SectionBudget => "markdown sections packed to a token budget",
        // The semantic strategies are not offered here (`StrategyId::all` leaves them out).
        _ => "cuts by embedding similarity (on the page)",
    }
}

/// One file's outcome.
pub struct FileResult {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The text's format (`text`, `html`, `docx`, `pdf`), or why it was skipped.
    pub read: Result<(&'static str, TextReport), Skipped>,
}

/// Reads `path` as the page would ([`doc_extract::read_file`]); a panic of a reader or a
/// strategy (a bug) skips the file with reason `internal-error` instead of ending the run.
fn read_text(path: &Path) -> Result<doc_extract::FileText, Skipped> {
    let skipped = |reason: &str, message: String| Skipped {
        path: path.to_path_buf(),
        reason: reason.to_owned(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| skipped("unreadable", e.to_string()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let read = catch_unwind(AssertUnwindSafe(|| doc_extract::read_file(&name, bytes)))
        .map_err(|p| skipped("internal-error", panic_message(p)))?;
    read.map_err(|e| skipped(e.reason(), e.to_string()))
}

/// A caught panic's message ([`corpus_core::panic_message`]), or what it did when it has none.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    let message = corpus_core::panic_message(&*p);
    if message.is_empty() {
        "a bug stopped this file".into()
    } else {
        message
    }
}

/// The progress bar on standard error (hidden unless it is a terminal, or with
/// `--no-progress`): files, MB and rate.
fn progress(listing: &Listing, hidden: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(listing.bytes()),
        if hidden {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} · {msg} · {elapsed}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The thread pool of `--jobs`.
fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        if n == 0 {
            return Err("--jobs must be at least 1".into());
        }
        b = b.num_threads(n);
    }
    b.build().map_err(|e| e.to_string())
}

/// Runs `f` on every listed file in parallel, in batches of four files per thread, and hands
/// each batch's outcomes to `each` in the listed order.
fn for_each_file<T: Send>(
    listing: &Listing,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    f: impl Fn(&Path) -> T + Sync,
    mut each: impl FnMut(&Path, u64, T) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let batch = pool.current_num_threads() * 4;
    let total = listing.files.len();
    let mut done = 0;
    for files in listing.files.chunks(batch.max(1)) {
        let results: Vec<T> = pool.install(|| {
            files
                .par_iter()
                .map(|(p, size)| {
                    let r = f(p);
                    bar.inc(*size);
                    r
                })
                .collect()
        });
        for ((path, size), r) in files.iter().zip(results) {
            done += 1;
            bar.set_message(format!("{done}/{total} files"));
            each(path, *size, r)?;
        }
    }
    Ok(())
}

/// The run's config, or the message that refuses it.
fn config(common: &Common) -> Result<Config, String> {
    Config::new(
        common.chunk_size,
        common.chunk_overlap,
        &common.unit,
        &common.encoding,
        common.model.as_deref(),
        common.price,
        &common.strategies,
    )
    .map_err(|e| e.to_string())
}

/// Runs `cli`, writing the result to `out` and the run's summary to `err`.
pub fn run(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> Exit {
    let result = match &cli.command {
        Command::Compare { common, format } => compare(common, *format, out, err),
        Command::Count { files, encoding } => count(files, encoding, out, err),
        Command::Chunks { common, output } => match output {
            Some(path) => chunks(common, Sink::File(path), err),
            None => chunks(common, Sink::Writer(out), err),
        },
    };
    match result {
        Ok(exit) => exit,
        Err(message) => {
            let _ = writeln!(err, "rag-chunk: {message}");
            Exit::Failed
        }
    }
}

/// What a run read: files, bytes of text, the paths skipped, and the strategies' refusals
/// (`chunks`: a strategy that refuses a file at these settings, as its library raises).
#[derive(Default)]
struct Tally {
    read: u64,
    bytes: u64,
    skipped: Vec<Skipped>,
    refused: Vec<Skipped>,
}

impl Tally {
    /// Nothing read yet; the paths the listing could not use already skipped.
    fn new(listing: &Listing) -> Tally {
        Tally {
            skipped: listing.skipped.clone(),
            ..Tally::default()
        }
    }
}

/// The end of a run: the summary line on `err`, and the exit status (a refusal is the
/// library's answer, not a file lost: it leaves the status at 0).
fn finish(
    err: &mut dyn Write,
    listing: &Listing,
    tally: &Tally,
    started: Instant,
    threads: usize,
) -> Exit {
    let secs = started.elapsed().as_secs_f64();
    let summary = output::Summary {
        read: tally.read,
        bytes: tally.bytes,
        skipped: &tally.skipped,
        refused: &tally.refused,
        ignored: &listing.ignored,
        secs,
        threads,
    };
    let _ = writeln!(err, "{}", summary.line());
    if tally.skipped.is_empty() {
        Exit::Complete
    } else {
        Exit::Skipped
    }
}

fn compare(
    common: &Common,
    format: OutputFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, String> {
    let config = config(common)?;
    // The model's tokenizer is installed once, before the threads need it.
    config.limit();
    let pool = pool(common.files.jobs)?;
    let started = Instant::now();
    let listing = list(&common.files.paths);
    let bar = progress(&listing, common.files.no_progress);
    let mut writer = output::writer(format, &config, out);
    let io = |e: std::io::Error| format!("cannot write the output: {e}");
    writer.start().map_err(io)?;
    let mut corpus = Corpus::default();
    let mut tally = Tally::new(&listing);
    for_each_file(
        &listing,
        &pool,
        &bar,
        |path| {
            let text = read_text(path)?;
            // The limit check borrows the model's tokenizer (installed above), and is made per
            // file: it is a few fields, and not shared between threads.
            catch_unwind(AssertUnwindSafe(|| {
                compare_text(&text.text, &config, &config.limit())
            }))
            .map(|report| (text.format_name(), report))
            .map_err(|p| internal_error(path, p))
        },
        |path, bytes, read| {
            let result = FileResult {
                path: path.to_path_buf(),
                bytes,
                read,
            };
            match &result.read {
                Ok((_, report)) => corpus.add(report),
                Err(s) => tally.skipped.push(s.clone()),
            }
            writer.file(&result)
        },
    )
    .map_err(io)?;
    bar.finish_and_clear();
    writer
        .end(&corpus, &tally.skipped, &listing.ignored)
        .map_err(io)?;
    tally.read = corpus.files;
    tally.bytes = corpus.bytes;
    Ok(finish(
        err,
        &listing,
        &tally,
        started,
        pool.current_num_threads(),
    ))
}

/// A panic caught while reading or cutting `path` (a bug), as the file's skip reason.
fn internal_error(path: &Path, p: Box<dyn std::any::Any + Send>) -> Skipped {
    Skipped {
        path: path.to_path_buf(),
        reason: "internal-error".into(),
        message: panic_message(p),
    }
}

/// One JSON Lines record of `chunks`: where the chunk is from, then the page's export row.
#[derive(serde::Serialize)]
struct ChunkLine<'a> {
    path: &'a str,
    strategy: &'a str,
    #[serde(flatten)]
    row: &'a chunk_core::analysis::export::Row,
}

/// One file's `chunks` output: its text's bytes, its JSON lines, and the strategies that
/// refused it.
type FileLines = Result<(usize, Vec<String>, Vec<Skipped>), Skipped>;

/// `path`'s chunks by every strategy of `config`, as JSON lines.
fn file_lines(path: &Path, config: &Config) -> FileLines {
    let text = read_text(path)?;
    // The reader's page starts are valid by construction; none for other formats.
    let pages = corpus_core::page_map(&text.page_starts).unwrap_or(None);
    let cut = catch_unwind(AssertUnwindSafe(|| {
        chunk_rows(&text.text, &config.strategies, config, pages.as_ref())
    }))
    .map_err(|p| internal_error(path, p))?;
    let shown = path.to_string_lossy();
    let mut lines = Vec::new();
    let mut refused = Vec::new();
    for (strategy, rows) in cut {
        match rows {
            // A row holds only strings, integers and booleans: it serializes.
            Ok(rows) => lines.extend(rows.iter().map(|row| {
                serde_json::to_string(&ChunkLine {
                    path: &shown,
                    strategy: strategy.as_str(),
                    row,
                })
                .unwrap_or_default()
            })),
            Err(refusal) => refused.push(Skipped {
                path: path.to_path_buf(),
                reason: format!("{} refused: {}", strategy.as_str(), refusal.kind),
                message: refusal.english,
            }),
        }
    }
    Ok((text.text.len(), lines, refused))
}

/// Where `chunks` writes its lines.
enum Sink<'a> {
    /// Standard output (or a test's buffer).
    Writer(&'a mut dyn Write),
    /// `--output FILE`: created only once the settings are checked and the inputs listed, and
    /// never one of the inputs.
    File(&'a Path),
}

/// `chunks` with its output opened: the settings are checked and the inputs listed first, so
/// that a typo never empties an earlier output, and an output that is also an input (named,
/// or in a folder named) is refused before it is truncated.
fn chunks(common: &Common, sink: Sink<'_>, err: &mut dyn Write) -> Result<Exit, String> {
    let config = config(common)?;
    if common.strategies.is_empty() {
        return Err("chunks needs --strategy ID (see --help for the ids)".into());
    }
    let pool = pool(common.files.jobs)?;
    let started = Instant::now();
    let listing = list(&common.files.paths);
    match sink {
        Sink::Writer(out) => write_chunks(common, &config, &pool, &listing, started, out, err),
        Sink::File(path) => {
            if let Some(input) = files::same_file(path, &listing) {
                return Err(format!(
                    "the output {} is also an input ({}): write it elsewhere",
                    path.display(),
                    input.display()
                ));
            }
            let file =
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            let exit = write_chunks(common, &config, &pool, &listing, started, &mut w, err)?;
            w.flush().map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(exit)
        }
    }
}

/// Every listed file's chunks as JSON lines on `out`, in the listed order.
fn write_chunks(
    common: &Common,
    config: &Config,
    pool: &rayon::ThreadPool,
    listing: &Listing,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, String> {
    config.limit();
    let bar = progress(listing, common.files.no_progress);
    let mut tally = Tally::new(listing);
    let io = |e: std::io::Error| format!("cannot write the output: {e}");
    for_each_file(
        listing,
        pool,
        &bar,
        |path| file_lines(path, config),
        |_, _, r| {
            match r {
                Ok((n, lines, refused)) => {
                    tally.read += 1;
                    tally.bytes += n as u64;
                    tally.refused.extend(refused);
                    for l in lines {
                        writeln!(out, "{l}")?;
                    }
                }
                Err(s) => tally.skipped.push(s),
            }
            Ok(())
        },
    )
    .map_err(io)?;
    bar.finish_and_clear();
    out.flush().map_err(io)?;
    Ok(finish(
        err,
        listing,
        &tally,
        started,
        pool.current_num_threads(),
    ))
}

fn count(
    files: &Files,
    encoding: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, String> {
    let encoding = corpus_core::parse_encoding(encoding).map_err(|e| e.to_string())?;
    let pool = pool(files.jobs)?;
    let started = Instant::now();
    let listing = list(&files.paths);
    let bar = progress(&listing, files.no_progress);
    let mut tally = Tally::new(&listing);
    let mut tokens = 0u64;
    let io = |e: std::io::Error| format!("cannot write the output: {e}");
    writeln!(
        out,
        "{:>14} {:>12}  path ({})",
        "tokens",
        "bytes",
        encoding.name()
    )
    .map_err(io)?;
    for_each_file(
        &listing,
        &pool,
        &bar,
        |path| {
            let text = read_text(path)?;
            Ok::<_, Skipped>((text.text.len(), encoding.tokenizer().count(&text.text)))
        },
        |path, _, r| {
            match r {
                Ok((n, t)) => {
                    tally.read += 1;
                    tally.bytes += n as u64;
                    tokens += t as u64;
                    writeln!(out, "{t:>14} {n:>12}  {}", path.display())?;
                }
                Err(s) => tally.skipped.push(s),
            }
            Ok(())
        },
    )
    .map_err(io)?;
    bar.finish_and_clear();
    writeln!(out, "{tokens:>14} {:>12}  total", tally.bytes).map_err(io)?;
    out.flush().map_err(io)?;
    Ok(finish(
        err,
        &listing,
        &tally,
        started,
        pool.current_num_threads(),
    ))
}
