//! The page's figures for a whole corpus, from the same core and no rule of its own: the
//! command-line tool (`crates/cli`, `rag-chunk`) and the Python package (`crates/python`,
//! `rag_chunk`) both go through here.
//!
//! - [`Config`]: chunk_size, chunk_overlap, unit, encoding, model, price and strategies as a
//!   user gives them (strings and numbers), checked once, as the page's [`Figures`].
//! - [`compare_text`]: one text's comparison rows, each the page's row
//!   ([`chunk_core::analysis::row::compare_row`] on one [`Document`] encoded once).
//! - [`chunk_rows`]: one strategy's chunks of a text as the page's export rows.
//! - [`Corpus`]: the rows of many texts summed per strategy
//!   ([`chunk_core::analysis::corpus::CorpusRow`]), in any order, mergeable.
//!
//! Files are read by [`doc_extract::read_file`] (the page's rules for text, HTML, DOCX, PDF).
//! The semantic strategies need an embedding model's vectors, which these tools do not run
//! yet: they are refused by name ([`ConfigError::NeedsEmbeddings`]).

use chunk_core::analysis::compare::LimitCheck;
use chunk_core::analysis::corpus::CorpusRow;
use chunk_core::analysis::export::{rows, PageMap, Row};
use chunk_core::analysis::protocol::{Figures, Outcome};
use chunk_core::analysis::refusal::Refusal;
use chunk_core::analysis::row::{compare_row, cut};
use chunk_core::models::{self, EmbeddingModel, ModelRef};
use chunk_core::strategy::{Document, Settings, SizeUnit, StrategyId};
use chunk_core::tokenizer::open::OpenTokenizer;
use chunk_core::tokenizer::Encoding;
use serde::Serialize;
use thiserror::Error;

/// The calculator's default price, in US dollars per 1,000,000 tokens (the page's price box
/// before any edit: the published price of its default model, text-embedding-3-small, which a
/// test checks against [`models::MODELS`]), used when neither a price nor a priced model is
/// given.
pub const DEFAULT_PRICE_PER_MILLION: f64 = 0.02;

/// A setting the tools cannot use, with what would be accepted.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ConfigError {
    /// chunk_size must be at least 1.
    #[error("chunk_size must be at least 1 (got {0})")]
    ChunkSize(usize),
    /// An unknown unit.
    #[error("unknown unit {0:?}: use tokens, characters or model (the model's own tokens)")]
    Unit(String),
    /// `unit = model` without a model whose tokenizer the core has.
    #[error("unit \"model\" sizes in the model's own tokens: it needs a model with an open tokenizer (WordPiece or XLM-R), not {0}")]
    UnitNeedsOpenModel(String),
    /// An unknown encoding.
    #[error("unknown encoding {0:?}: use cl100k_base or o200k_base")]
    Encoding(String),
    /// An unknown model id.
    #[error("unknown model {0:?}; the models are: {1}")]
    Model(String, String),
    /// An unknown strategy id.
    #[error("unknown strategy {0:?}; the strategies are: {1}")]
    Strategy(String, String),
    /// A semantic strategy, which needs an embedding model these tools do not run.
    #[error("{0} cuts by embedding similarity and needs an embedding model, which the corpus tools do not run yet; use the page")]
    NeedsEmbeddings(String),
    /// A price that is not a finite number ≥ 0.
    #[error("the price must be a number ≥ 0 (US dollars per 1,000,000 tokens), got {0}")]
    Price(f64),
    /// Page offsets that are not a PDF's page starts.
    #[error("page_starts must be byte offsets in increasing order (got {0:?})")]
    PageStarts(Vec<usize>),
    /// A strategy that does not size in the unit asked for.
    #[error("{strategy} cannot size chunks in {unit}")]
    Unsupported {
        /// The strategy id.
        strategy: String,
        /// The unit's name.
        unit: String,
    },
}

/// The settings of a run: what the page's form holds, checked.
#[derive(Clone, Debug)]
pub struct Config {
    /// chunk_size, chunk_overlap, unit, encoding.
    pub settings: Settings,
    /// The embedding model whose input limit every chunk is checked against; `None`: no limit.
    pub model: Option<&'static EmbeddingModel>,
    /// US dollars per 1,000,000 tokens.
    pub price_per_million: f64,
    /// The strategies, in the order given (every strategy that cuts from the text alone and
    /// sizes in the unit, in the page's order, when none is named).
    pub strategies: Vec<StrategyId>,
}

impl Config {
    /// Checks a run's settings:
    /// - `chunk_size` ≥ 1 and `chunk_overlap` in `unit` (each strategy decides whether it
    ///   accepts the overlap, as its library does, and refuses otherwise);
    /// - `unit`: `tokens` (of `encoding`), `characters`, or `model` (the model's own tokens,
    ///   for a model with WordPiece or XLM-R Unigram);
    /// - `encoding`: `cl100k_base` or `o200k_base`;
    /// - `model`: an id of [`models::MODELS`];
    /// - `price_per_million`: US dollars per 1,000,000 tokens; `None`: the model's published
    ///   price, else [`DEFAULT_PRICE_PER_MILLION`];
    /// - `strategies`: ids (`langchain-recursive`…; one named twice counts once); empty:
    ///   every strategy of
    ///   [`StrategyId::all`] that sizes in `unit` (a named one that does not is refused).
    ///
    /// # Errors
    /// [`ConfigError`], naming what is accepted.
    pub fn new(
        chunk_size: usize,
        chunk_overlap: usize,
        unit: &str,
        encoding: &str,
        model: Option<&str>,
        price_per_million: Option<f64>,
        strategies: &[String],
    ) -> Result<Config, ConfigError> {
        if chunk_size == 0 {
            return Err(ConfigError::ChunkSize(chunk_size));
        }
        let encoding = parse_encoding(encoding)?;
        let model = match model.map(str::trim).filter(|m| !m.is_empty()) {
            Some(id) => Some(models::model(id).ok_or_else(|| {
                let ids: Vec<&str> = models::MODELS.iter().map(|m| m.id).collect();
                ConfigError::Model(id.to_owned(), ids.join(", "))
            })?),
            None => None,
        };
        let unit = match unit.trim() {
            "tokens" => SizeUnit::Tokens,
            "characters" => SizeUnit::Characters,
            "model" => SizeUnit::Model(model.and_then(|m| m.tokenizer.open_vocab()).ok_or_else(
                || {
                    ConfigError::UnitNeedsOpenModel(
                        model.map_or("no model".to_owned(), |m| m.id.to_owned()),
                    )
                },
            )?),
            other => return Err(ConfigError::Unit(other.to_owned())),
        };
        let price_per_million = price_per_million
            .or(model.and_then(|m| m.price_per_million_usd))
            .unwrap_or(DEFAULT_PRICE_PER_MILLION);
        if !(price_per_million.is_finite() && price_per_million >= 0.0) {
            return Err(ConfigError::Price(price_per_million));
        }
        let strategies = if strategies.is_empty() {
            StrategyId::all().filter(|s| s.supports(unit)).collect()
        } else {
            let mut ids: Vec<StrategyId> = Vec::new();
            for s in strategies {
                let id = parse_strategy(s)?;
                // A strategy named twice is one row, not two rows summed into one.
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            ids
        };
        for s in &strategies {
            if !s.supports(unit) {
                return Err(ConfigError::Unsupported {
                    strategy: s.as_str().to_owned(),
                    unit: unit_name(unit).to_owned(),
                });
            }
        }
        Ok(Config {
            settings: Settings {
                chunk_size,
                chunk_overlap,
                unit,
                encoding,
            },
            model,
            price_per_million,
            strategies,
        })
    }

    /// The page's [`Figures`] for these settings (no embedder: no semantic strategy).
    pub fn figures(&self) -> Figures {
        Figures {
            settings: self.settings,
            model: self.model.map(ModelRef),
            price_per_million: self.price_per_million,
            structure: Default::default(),
            embedder: None,
            breakpoints: Default::default(),
        }
    }

    /// The model's limit check, with its own tokenizer where the core has it (installed from
    /// the built-in vocabulary files, as the page's worker installs the fetched ones; the
    /// sizing unit's tokenizer too). No model: no limit.
    pub fn limit(&self) -> LimitCheck<'static> {
        let mut open: Vec<&'static OpenTokenizer> = Vec::new();
        let vocabs = [
            self.model.and_then(|m| m.tokenizer.open_vocab()),
            match self.settings.unit {
                SizeUnit::Model(v) => Some(v),
                _ => None,
            },
        ];
        for vocab in vocabs.into_iter().flatten() {
            // A built-in file that does not load is a broken build: the model's figures then
            // fall back to the sizing encoding, and the rows say so (their limit basis).
            if let Ok(t) = vocab.install_embedded() {
                open.push(t);
            }
        }
        match self.model {
            Some(model) => LimitCheck::for_model(model, self.settings.encoding, &open),
            None => LimitCheck::within(usize::MAX),
        }
    }

    /// The dimensions of the model's vectors (its default output size), for the storage
    /// figures; `None` without a model or for one of unpublished dimensions.
    pub fn vector_dimensions(&self) -> Option<usize> {
        self.model.and_then(EmbeddingModel::default_dimensions)
    }

    /// Bytes of `chunks` vectors, one per chunk, of the model's dimensions in float32 (the
    /// values only: no index, id or metadata; [`models::storage_bytes`]); `None` without
    /// dimensions ([`Config::vector_dimensions`]).
    pub fn storage_bytes(&self, chunks: u64) -> Option<u128> {
        self.vector_dimensions()
            .map(|d| models::storage_bytes(chunks, d, models::VectorFormat::Float32))
    }
}

/// An encoding by name (`cl100k_base`, `o200k_base`; spaces around it ignored).
///
/// # Errors
/// [`ConfigError::Encoding`] naming the encodings.
pub fn parse_encoding(name: &str) -> Result<Encoding, ConfigError> {
    Encoding::from_name(name.trim()).ok_or_else(|| ConfigError::Encoding(name.to_owned()))
}

/// The message of a caught panic's payload (a `String` or `&str`; empty for any other), for
/// the tools that report a bug as one file's or one call's error.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

/// A strategy id, refusing the semantic strategies by name.
fn parse_strategy(id: &str) -> Result<StrategyId, ConfigError> {
    let id = id.trim();
    match id.parse::<StrategyId>() {
        Ok(s) if s.needs_embeddings() => Err(ConfigError::NeedsEmbeddings(id.to_owned())),
        Ok(s) => Ok(s),
        Err(_) => {
            let ids: Vec<&str> = StrategyId::all().map(StrategyId::as_str).collect();
            Err(ConfigError::Strategy(id.to_owned(), ids.join(", ")))
        }
    }
}

/// A unit's name as the tools take it.
pub fn unit_name(unit: SizeUnit) -> &'static str {
    match unit {
        SizeUnit::Tokens => "tokens",
        SizeUnit::Characters => "characters",
        SizeUnit::Model(_) => "model",
    }
}

/// One strategy's row on one text: the page's [`Outcome`] (its summary, or the strategy's
/// refusal), and the token count of each chunk (for a corpus's exact percentile).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextRow {
    /// The strategy.
    pub strategy: StrategyId,
    /// The page's row.
    pub outcome: Outcome,
    /// Tokens of each chunk, in order (empty when refused).
    #[serde(skip)]
    pub chunk_tokens: Vec<usize>,
}

/// One text's rows: every strategy of the config on one [`Document`] (encoded once).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextReport {
    /// Bytes of UTF-8 text.
    pub bytes: usize,
    /// Tokens of the whole text in the sizing encoding.
    pub document_tokens: usize,
    /// One row per strategy, in the config's order.
    pub rows: Vec<TextRow>,
}

/// Every strategy of `config` on `text`: the page's comparison rows, each made by
/// [`compare_row`] at [`Config::figures`] against [`Config::limit`].
pub fn compare_text(text: &str, config: &Config, limit: &LimitCheck<'_>) -> TextReport {
    let document = Document::new(text, config.settings.encoding);
    let figures = config.figures();
    let rows = config
        .strategies
        .iter()
        .map(|&strategy| {
            let (outcome, chunks) = compare_row(strategy, &document, &figures, limit, None);
            TextRow {
                strategy,
                outcome,
                chunk_tokens: chunks
                    .map(|c| c.chunks.iter().map(|c| c.tokens).collect())
                    .unwrap_or_default(),
            }
        })
        .collect();
    TextReport {
        bytes: text.len(),
        document_tokens: document.tokens(),
        rows,
    }
}

/// The page map of a text read from a PDF ([`doc_extract::FileText::page_starts`]): `None`
/// for no pages.
///
/// # Errors
/// [`ConfigError::PageStarts`] when the offsets are not non-decreasing.
pub fn page_map(page_starts: &[usize]) -> Result<Option<PageMap>, ConfigError> {
    if page_starts.is_empty() {
        return Ok(None);
    }
    PageMap::try_from(page_starts.to_vec())
        .map(Some)
        .map_err(|_| ConfigError::PageStarts(page_starts.to_vec()))
}

/// Each of `strategies`' chunks of `text` at `config`'s settings as the page's export rows
/// (text, byte and character offsets, lines, tokens, heading path, why each ended; the pages
/// of `pages`, for a text read from a PDF), on one [`Document`] (the text encoded once), in
/// the order given; a strategy that refuses gives its refusal as the page words it
/// ([`Refusal`]).
pub fn chunk_rows(
    text: &str,
    strategies: &[StrategyId],
    config: &Config,
    pages: Option<&PageMap>,
) -> Vec<(StrategyId, Result<Vec<Row>, Refusal>)> {
    // The model's and the unit's tokenizers are installed before the cut (sizing in a model's
    // tokens finds them there).
    config.limit();
    let document = Document::new(text, config.settings.encoding);
    let figures = config.figures();
    strategies
        .iter()
        .map(|&s| {
            let rows = cut(s, &document, &figures, None).map(|c| rows(text, &c, pages));
            (s, rows)
        })
        .collect()
}

/// The rows of a corpus per strategy, summed over its texts ([`CorpusRow`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Corpus {
    /// Texts added.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
    /// One row per strategy, in the order the first text gave them.
    pub rows: Vec<(StrategyId, CorpusRow)>,
}

impl Corpus {
    /// Adds one text's rows.
    pub fn add(&mut self, report: &TextReport) {
        self.files += 1;
        self.bytes += report.bytes as u64;
        for row in &report.rows {
            let at = match self.rows.iter().position(|(s, _)| *s == row.strategy) {
                Some(at) => at,
                None => {
                    self.rows.push((row.strategy, CorpusRow::default()));
                    self.rows.len() - 1
                }
            };
            let sum = &mut self.rows[at].1;
            match &row.outcome {
                Outcome::Figures {
                    summary,
                    overlap_clamped,
                    overlap_ignored,
                    ..
                } => {
                    sum.add(summary, row.chunk_tokens.iter().copied());
                    sum.add_overlap(*overlap_clamped, *overlap_ignored);
                }
                Outcome::Refused { .. } => sum.add_refused(),
            }
        }
    }

    /// Adds every text of `other`.
    pub fn merge(&mut self, other: &Corpus) {
        self.files += other.files;
        self.bytes += other.bytes;
        for (strategy, row) in &other.rows {
            match self.rows.iter_mut().find(|(s, _)| s == strategy) {
                Some((_, mine)) => mine.merge(row),
                None => self.rows.push((*strategy, row.clone())),
            }
        }
    }
}

#[cfg(test)]
mod tests;
