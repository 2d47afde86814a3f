//! The three output formats of `compare` (table, JSON, CSV), each written as the files finish
//! (per-file rows streamed, the corpus rows at the end), and the run's summary line.

use std::collections::BTreeMap;
use std::io::Write;

use chunk_core::analysis::corpus::CorpusRow;
use chunk_core::analysis::protocol::Outcome;
use chunk_core::strategy::StrategyId;
use corpus_core::{unit_name, Config, Corpus};
use serde_json::{json, Value};

use crate::files::Skipped;
use crate::{FileResult, OutputFormat};

/// A `compare` output being written.
pub trait Writer {
    /// Before the first file.
    fn start(&mut self) -> std::io::Result<()>;
    /// One file's rows (or why it was skipped), in the listed order.
    fn file(&mut self, file: &FileResult) -> std::io::Result<()>;
    /// After the last file: the corpus rows, the skipped paths, the folders' other files.
    fn end(
        &mut self,
        corpus: &Corpus,
        skipped: &[Skipped],
        ignored: &BTreeMap<String, u64>,
    ) -> std::io::Result<()>;
}

/// The writer of `format` on `out`.
pub fn writer<'a>(
    format: OutputFormat,
    config: &'a Config,
    out: &'a mut dyn Write,
) -> Box<dyn Writer + 'a> {
    match format {
        OutputFormat::Table => Box::new(Table { config, out }),
        OutputFormat::Json => Box::new(Json {
            config,
            out,
            files: 0,
        }),
        OutputFormat::Csv => Box::new(Csv {
            config,
            out: csv::Writer::from_writer(out),
        }),
    }
}

/// The run's settings as a JSON object.
fn settings_json(config: &Config) -> Value {
    json!({
        "chunk_size": config.settings.chunk_size,
        "chunk_overlap": config.settings.chunk_overlap,
        "unit": unit_name(config.settings.unit),
        "encoding": config.settings.encoding.name(),
        "model": config.model.map(|m| m.id),
        "price_per_million": config.price_per_million,
        "strategies": config.strategies.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
    })
}

/// A corpus row as JSON: the sums, then the figures derived from them.
fn corpus_json(config: &Config, strategy: StrategyId, row: &CorpusRow) -> Value {
    let lib = strategy.library();
    json!({
        "strategy": strategy.as_str(),
        "library": lib.map(|l| l.package),
        "library_version": lib.map(|l| l.version),
        "files": row.files,
        "refused_files": row.refused_files,
        "chunks": row.chunks,
        "vectors": row.chunks,
        "document_tokens": row.document_tokens,
        "total_tokens": row.total_tokens,
        "repeated_tokens": row.repeated_tokens,
        "mean_tokens": row.mean_tokens(),
        "p95_tokens": row.p95_tokens(),
        "max_tokens": row.max_tokens,
        "over_limit": row.over_limit,
        "max_input_tokens": row.input_limit(),
        "model_max_tokens": row.model_max_tokens,
        "truncated_tokens": row.truncated_tokens,
        "limit_basis": row.limit_basis,
        "sentences": row.sentences,
        "split_sentences": row.split_sentences,
        "structure_faults": row.structure_faults,
        "overlap_clamped_files": row.overlap_clamped_files,
        "overlap_ignored_files": row.overlap_ignored_files,
        "cost": row.cost(config.price_per_million),
        "storage_bytes": config.storage_bytes(row.chunks).map(|b| b as u64),
    })
}

fn skipped_json(skipped: &[Skipped]) -> Value {
    skipped
        .iter()
        .map(|s| {
            json!({
                "path": s.path.to_string_lossy(),
                "reason": s.reason,
                "message": s.message,
            })
        })
        .collect()
}

/// `1234567` → `1,234,567`.
pub fn int(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// US dollars: four decimals under $1, else two, rounded to the nearest cent ($1.999 → $2.00).
pub fn usd(x: f64) -> String {
    if x < 1.0 {
        format!("${x:.4}")
    } else {
        let cents = (x * 100.0).round() as u64;
        format!("${}.{:02}", int(cents / 100), cents % 100)
    }
}

/// Bytes in kB under 1 MB, else in MB (10³ and 10⁶ bytes), one decimal.
pub fn mb(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

/// The summary of a run, for its last line on standard error ([`Summary::line`]).
pub struct Summary<'a> {
    /// Files read.
    pub read: u64,
    /// Bytes of their text.
    pub bytes: u64,
    /// Paths that could not be used, with why.
    pub skipped: &'a [Skipped],
    /// Files a strategy refused at these settings (`chunks`), with the refusal.
    pub refused: &'a [Skipped],
    /// The folders' files that are not documents, by extension.
    pub ignored: &'a BTreeMap<String, u64>,
    /// Wall time of the run, in seconds.
    pub secs: f64,
    /// Threads used.
    pub threads: usize,
}

impl Summary<'_> {
    /// Files read, text size, time, rate and threads; then the paths skipped with their
    /// reasons, the refusals, and the folders' other files by extension.
    pub fn line(&self) -> String {
        let rate = if self.secs > 0.0 {
            self.bytes as f64 / 1e6 / self.secs
        } else {
            0.0
        };
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        let mut s = format!(
            "Read {} file{} ({}) in {:.2} s ({rate:.1} MB/s on {} thread{}).",
            int(self.read),
            plural(self.read),
            mb(self.bytes),
            self.secs,
            self.threads,
            plural(self.threads as u64),
        );
        let list = |s: &mut String, what: &str, items: &[Skipped]| {
            if !items.is_empty() {
                s.push_str(&format!(" {what} {}:", items.len()));
                for k in items {
                    s.push_str(&format!(
                        "\n  {} ({}: {})",
                        k.path.display(),
                        k.reason,
                        k.message
                    ));
                }
            }
        };
        list(&mut s, "Skipped", self.skipped);
        list(
            &mut s,
            "Refused by a strategy at these settings",
            self.refused,
        );
        if !self.ignored.is_empty() {
            let total: u64 = self.ignored.values().sum();
            let kinds: Vec<String> = self
                .ignored
                .iter()
                .map(|(e, n)| {
                    if e.is_empty() {
                        format!("no extension ×{n}")
                    } else {
                        format!(".{e} ×{n}")
                    }
                })
                .collect();
            s.push_str(&format!(
                "\nNot documents, left out of the folders: {} file{} ({}); name a file to read it as text.",
                int(total),
                plural(total),
                kinds.join(", ")
            ));
        }
        s
    }
}

struct Table<'a> {
    config: &'a Config,
    out: &'a mut dyn Write,
}

impl Writer for Table<'_> {
    fn start(&mut self) -> std::io::Result<()> {
        let c = self.config;
        writeln!(
            self.out,
            "chunk_size {}, chunk_overlap {} {}{}; model {}; price {} per 1,000,000 tokens",
            c.settings.chunk_size,
            c.settings.chunk_overlap,
            unit_name(c.settings.unit),
            match c.settings.unit {
                chunk_core::strategy::SizeUnit::Tokens =>
                    format!(" ({})", c.settings.encoding.name()),
                _ => String::new(),
            },
            c.model.map_or("none (no input limit)".to_owned(), |m| {
                match m.max_input_tokens {
                    Some(limit) => format!(
                        "{} (input limit {} of its own tokens, with the {} it adds)",
                        m.id,
                        int(limit as u64),
                        match m.special_tokens {
                            1 => "1 special token".to_owned(),
                            n => format!("{n} special tokens"),
                        }
                    ),
                    None => format!("{} (no published input limit)", m.id),
                }
            }),
            usd(c.price_per_million)
        )?;
        writeln!(self.out, "\nPer file:")?;
        writeln!(
            self.out,
            "  {:<28} {:>9} {:>14} {:>10} {:>10}",
            "strategy", "chunks", "tokens", "over limit", "cost"
        )
    }

    fn file(&mut self, file: &FileResult) -> std::io::Result<()> {
        match &file.read {
            Err(s) => writeln!(
                self.out,
                "{}: skipped ({}: {})",
                file.path.display(),
                s.reason,
                s.message
            ),
            Ok((format, report)) => {
                writeln!(
                    self.out,
                    "{} ({format}, {}, {} tokens)",
                    file.path.display(),
                    mb(report.bytes as u64),
                    int(report.document_tokens as u64)
                )?;
                for row in &report.rows {
                    match &row.outcome {
                        Outcome::Figures { summary: s, .. } => writeln!(
                            self.out,
                            "  {:<28} {:>9} {:>14} {:>10} {:>10}",
                            row.strategy.as_str(),
                            int(s.chunks as u64),
                            int(s.total_tokens as u64),
                            int(s.over_limit as u64),
                            usd(s.cost)
                        )?,
                        Outcome::Refused { refusal } => writeln!(
                            self.out,
                            "  {:<28} refused: {}",
                            row.strategy.as_str(),
                            refusal.english
                        )?,
                    }
                }
                Ok(())
            }
        }
    }

    fn end(
        &mut self,
        corpus: &Corpus,
        _skipped: &[Skipped],
        _ignored: &BTreeMap<String, u64>,
    ) -> std::io::Result<()> {
        writeln!(
            self.out,
            "\nCorpus: {} file{}, {}\n",
            int(corpus.files),
            if corpus.files == 1 { "" } else { "s" },
            mb(corpus.bytes)
        )?;
        let storage = self.config.vector_dimensions();
        let line = |cells: [&str; 12]| {
            format!(
                "{:<27} {:>8} {:>11} {:>9} {:>7} {:>5} {:>5} {:>6} {:>6} {:>6} {:>9} {:>9}",
                cells[0],
                cells[1],
                cells[2],
                cells[3],
                cells[4],
                cells[5],
                cells[6],
                cells[7],
                cells[8],
                cells[9],
                cells[10],
                cells[11]
            )
        };
        writeln!(
            self.out,
            "{}",
            line([
                "strategy", "chunks", "tokens", "repeated", "mean", "p95", "max", "over", "split",
                "struct", "cost", "storage"
            ])
        )?;
        let mut notes = Vec::new();
        for (strategy, row) in &corpus.rows {
            let id = strategy.as_str();
            writeln!(
                self.out,
                "{}",
                line([
                    id,
                    &int(row.chunks),
                    &int(row.total_tokens),
                    &int(row.repeated_tokens),
                    &row.mean_tokens()
                        .map_or("—".to_owned(), |m| format!("{m:.1}")),
                    &int(row.p95_tokens() as u64),
                    &int(row.max_tokens as u64),
                    &int(row.over_limit),
                    &int(row.split_sentences),
                    &int(row.structure_faults),
                    &usd(row.cost(self.config.price_per_million)),
                    &self
                        .config
                        .storage_bytes(row.chunks)
                        .map_or("—".to_owned(), |b| mb(b as u64)),
                ])
            )?;
            let files = |n: u64| format!("{} file{}", int(n), if n == 1 { "" } else { "s" });
            if row.refused_files > 0 {
                notes.push(format!(
                    "{id}: its library refuses these settings on {} (not counted above)",
                    files(row.refused_files)
                ));
            }
            if row.overlap_clamped_files > 0 {
                notes.push(format!(
                    "{id}: chunk_overlap lowered below chunk_size on {}",
                    files(row.overlap_clamped_files)
                ));
            }
            if row.overlap_ignored_files > 0 {
                notes.push(format!(
                    "{id}: no overlap (the library has none) on {}",
                    files(row.overlap_ignored_files)
                ));
            }
        }
        writeln!(
            self.out,
            "\nToken figures (tokens embedded, repeated, mean, p95, max) are {} tokens, whatever \
             the unit of chunk_size; over: chunks over the model's input limit, each read with \
             its own tokenizer; split: sentences no chunk holds whole; struct: chunks with a \
             structure fault; storage: one float32 vector per chunk{}.",
            self.config.settings.encoding.name(),
            storage.map_or(String::new(), |d| format!(", {d} dimensions")),
        )?;
        for n in notes {
            writeln!(self.out, "  {n}")?;
        }
        self.out.flush()
    }
}

struct Json<'a> {
    config: &'a Config,
    out: &'a mut dyn Write,
    files: usize,
}

impl Writer for Json<'_> {
    fn start(&mut self) -> std::io::Result<()> {
        write!(
            self.out,
            "{{\"settings\":{},\"files\":[",
            settings_json(self.config)
        )
    }

    fn file(&mut self, file: &FileResult) -> std::io::Result<()> {
        let Ok((format, report)) = &file.read else {
            return Ok(());
        };
        let rows: Vec<Value> = report
            .rows
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(&r.outcome).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert("strategy".into(), r.strategy.as_str().into());
                }
                // No model, no limit: null, as in the corpus's rows (not the core's usize::MAX,
                // which JSON readers round).
                if let Outcome::Figures { summary, .. } = &r.outcome {
                    if summary.input_limit().is_none() {
                        v["summary"]["max_input_tokens"] = Value::Null;
                    }
                }
                v
            })
            .collect();
        let entry = json!({
            "path": file.path.to_string_lossy(),
            "format": format,
            "file_bytes": file.bytes,
            "text_bytes": report.bytes,
            "document_tokens": report.document_tokens,
            "rows": rows,
        });
        if self.files > 0 {
            write!(self.out, ",")?;
        }
        self.files += 1;
        write!(self.out, "\n{entry}")
    }

    fn end(
        &mut self,
        corpus: &Corpus,
        skipped: &[Skipped],
        ignored: &BTreeMap<String, u64>,
    ) -> std::io::Result<()> {
        let rows: Vec<Value> = corpus
            .rows
            .iter()
            .map(|(s, r)| corpus_json(self.config, *s, r))
            .collect();
        writeln!(
            self.out,
            "\n],\"skipped\":{},\"ignored\":{},\"corpus\":{{\"files\":{},\"text_bytes\":{},\"rows\":{}}}}}",
            skipped_json(skipped),
            json!(ignored),
            corpus.files,
            corpus.bytes,
            Value::Array(rows)
        )?;
        self.out.flush()
    }
}

/// The CSV columns: per file (scope `file`) and per strategy over the corpus (scope `corpus`).
/// `refused` is a file row's refusal kind (its figures then empty); `refused_files` a corpus
/// row's count of files refused.
const CSV_HEADER: [&str; 19] = [
    "scope",
    "path",
    "strategy",
    "library",
    "library_version",
    "refused",
    "refused_files",
    "chunks",
    "total_tokens",
    "repeated_tokens",
    "mean_tokens",
    "p95_tokens",
    "max_tokens",
    "over_limit",
    "truncated_tokens",
    "split_sentences",
    "structure_faults",
    "cost",
    "storage_bytes",
];

struct Csv<'a> {
    config: &'a Config,
    out: csv::Writer<&'a mut dyn Write>,
}

fn csv_error(e: csv::Error) -> std::io::Error {
    std::io::Error::other(e)
}

impl Writer for Csv<'_> {
    fn start(&mut self) -> std::io::Result<()> {
        self.out.write_record(CSV_HEADER).map_err(csv_error)
    }

    fn file(&mut self, file: &FileResult) -> std::io::Result<()> {
        let Ok((_, report)) = &file.read else {
            return Ok(());
        };
        let path = file.path.to_string_lossy();
        for row in &report.rows {
            let lib = row.strategy.library();
            let head = [
                "file".to_owned(),
                path.to_string(),
                row.strategy.as_str().to_owned(),
                lib.map(|l| l.package).unwrap_or_default().to_owned(),
                lib.map(|l| l.version).unwrap_or_default().to_owned(),
            ];
            let rest: Vec<String> = match &row.outcome {
                Outcome::Figures { summary: s, .. } => vec![
                    String::new(),
                    String::new(),
                    s.chunks.to_string(),
                    s.total_tokens.to_string(),
                    s.repeated_tokens.to_string(),
                    s.mean_tokens.map(|m| m.to_string()).unwrap_or_default(),
                    s.p95_tokens.to_string(),
                    s.max_tokens.to_string(),
                    s.over_limit.to_string(),
                    s.truncated_tokens.to_string(),
                    s.split_sentences.to_string(),
                    s.structure.total().to_string(),
                    s.cost.to_string(),
                    self.config
                        .storage_bytes(s.chunks as u64)
                        .map(|b| b.to_string())
                        .unwrap_or_default(),
                ],
                Outcome::Refused { refusal } => {
                    let mut v = vec![refusal.kind.clone()];
                    v.resize(CSV_HEADER.len() - head.len(), String::new());
                    v
                }
            };
            self.out
                .write_record(head.iter().chain(&rest))
                .map_err(csv_error)?;
        }
        Ok(())
    }

    fn end(
        &mut self,
        corpus: &Corpus,
        _skipped: &[Skipped],
        _ignored: &BTreeMap<String, u64>,
    ) -> std::io::Result<()> {
        for (strategy, r) in &corpus.rows {
            let lib = strategy.library();
            self.out
                .write_record([
                    "corpus".to_owned(),
                    String::new(),
                    strategy.as_str().to_owned(),
                    lib.map(|l| l.package).unwrap_or_default().to_owned(),
                    lib.map(|l| l.version).unwrap_or_default().to_owned(),
                    String::new(),
                    r.refused_files.to_string(),
                    r.chunks.to_string(),
                    r.total_tokens.to_string(),
                    r.repeated_tokens.to_string(),
                    r.mean_tokens().map(|m| m.to_string()).unwrap_or_default(),
                    r.p95_tokens().to_string(),
                    r.max_tokens.to_string(),
                    r.over_limit.to_string(),
                    r.truncated_tokens.to_string(),
                    r.split_sentences.to_string(),
                    r.structure_faults.to_string(),
                    r.cost(self.config.price_per_million).to_string(),
                    self.config
                        .storage_bytes(r.chunks)
                        .map(|b| b.to_string())
                        .unwrap_or_default(),
                ])
                .map_err(csv_error)?;
        }
        self.out.flush()
    }
}
