//! `rag_chunk`: the page's core for Python (and so for Spark, Ray or Dask workers).
//!
//! ```python
//! import rag_chunk
//! rag_chunk.chunk(text, strategy="langchain-recursive", chunk_size=512, chunk_overlap=64,
//!                 unit="tokens", encoding="cl100k_base")   # -> [{"text", "byte_start", ...}]
//! rag_chunk.split_text(text, strategy="semchunk", chunk_size=512)  # -> [str], as the library
//! rag_chunk.compare(text, chunk_size=512, chunk_overlap=64, model="all-minilm-l6-v2")
//! rag_chunk.read(data, "report.pdf")                        # -> {"text", "format", ...}
//! ```
//!
//! Every function is a thin layer over [`corpus_core`] (the command-line tool's layer too): the
//! chunks are the page's, which equal the libraries' chunk for chunk, and a row of
//! [`compare`] is the page's comparison row. The cutting runs with the GIL released, so
//! Python threads cut in parallel. Bad settings raise `ValueError` naming what is accepted;
//! a strategy that refuses the settings or the text raises [`Refused`] (a `ValueError`), as
//! its library raises.

use chunk_core::analysis::export::Row;
use chunk_core::analysis::protocol::Outcome;
use chunk_core::analysis::refusal::Refusal;
use chunk_core::analysis::row::cut;
use chunk_core::strategy::{Document, StrategyId};
use corpus_core::{chunk_rows, compare_text, page_map, panic_message, parse_encoding, Config};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};

create_exception!(
    rag_chunk,
    Refused,
    PyValueError,
    "The strategy (as its library) refuses these settings or this text; `.kind` names the \
     rule (`overlap-refused`, `character-over-chunk-size`…)."
);

create_exception!(
    rag_chunk,
    InternalError,
    PyRuntimeError,
    "A bug in rag_chunk stopped this call (a panic in the core, caught): please report it with \
     the text and settings. The interpreter and other calls are unaffected."
);

create_exception!(
    rag_chunk,
    Unreadable,
    PyValueError,
    "A file that cannot be read as a document; `.reason` names why (`not-utf8`, `encrypted`, \
     `no-text-layer`…)."
);

/// Runs `f` (the core's work, the GIL released) with a panic caught as [`InternalError`], so
/// that a bug fails one call as a normal exception (Spark then reports that file) rather than
/// as PyO3's `PanicException`, which is a `BaseException`.
fn guarded<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|p| InternalError::new_err(format!("internal error: {}", panic_message(&*p))))
}

/// The settings as [`Config`], or `ValueError`.
#[allow(clippy::too_many_arguments)]
fn config(
    chunk_size: i64,
    chunk_overlap: i64,
    unit: &str,
    encoding: &str,
    model: Option<&str>,
    price: Option<f64>,
    strategies: &[String],
) -> PyResult<Config> {
    // Python ints of any sign: a negative size is a settings error, not an OverflowError.
    let whole = |name: &str, v: i64| {
        usize::try_from(v).map_err(|_| {
            PyValueError::new_err(format!("{name} must be a whole number ≥ 0 (got {v})"))
        })
    };
    Config::new(
        whole("chunk_size", chunk_size)?,
        whole("chunk_overlap", chunk_overlap)?,
        unit,
        encoding,
        model,
        price,
        strategies,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A [`Refusal`] as [`Refused`], with `.kind`.
fn refused(py: Python<'_>, refusal: Refusal) -> PyErr {
    let err = Refused::new_err(refusal.english.clone());
    let _ = err.value(py).setattr("kind", refusal.kind);
    err
}

/// One export row as a dict (the page's JSONL fields).
fn row_dict<'py>(py: Python<'py>, r: &Row) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("index", r.index)?;
    d.set_item("text", &r.text)?;
    d.set_item("byte_start", r.byte_start)?;
    d.set_item("byte_end", r.byte_end)?;
    d.set_item("char_start", r.char_start)?;
    d.set_item("char_end", r.char_end)?;
    d.set_item("line_start", r.line_start)?;
    d.set_item("line_end", r.line_end)?;
    d.set_item("tokens", r.tokens)?;
    d.set_item("heading_path", &r.heading_path)?;
    d.set_item("reason", r.reason.as_str())?;
    d.set_item("text_changed", r.text_changed)?;
    d.set_item("code_info", r.code_info.as_deref())?;
    d.set_item("page_start", r.page_start)?;
    d.set_item("page_end", r.page_end)?;
    Ok(d)
}

/// `text`'s chunks by `strategy`, each a dict of the page's export fields: `index`, `text`,
/// `byte_start`/`byte_end` (UTF-8 offsets), `char_start`/`char_end` (code points, as Python
/// indexes a `str`), `line_start`/`line_end`, `tokens` (in `encoding`), `heading_path`,
/// `reason` (why the chunk ends), `text_changed`, `code_info`, and `page_start`/`page_end`
/// when `page_starts` (from [`read`]) is given.
///
/// Raises `ValueError` for bad settings and `Refused` when the strategy refuses.
#[pyfunction]
#[pyo3(signature = (text, strategy="langchain-recursive", chunk_size=512, chunk_overlap=64, unit="tokens", encoding="cl100k_base", model=None, page_starts=None))]
#[allow(clippy::too_many_arguments)]
fn chunk<'py>(
    py: Python<'py>,
    text: &str,
    strategy: &str,
    chunk_size: i64,
    chunk_overlap: i64,
    unit: &str,
    encoding: &str,
    model: Option<&str>,
    page_starts: Option<Vec<usize>>,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(
        chunk_size,
        chunk_overlap,
        unit,
        encoding,
        model,
        None,
        &[strategy.to_owned()],
    )?;
    let id = config.strategies[0];
    let pages = page_map(&page_starts.unwrap_or_default())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (_, rows) = guarded(py, || chunk_rows(text, &[id], &config, pages.as_ref()))?
        .pop()
        .ok_or_else(|| InternalError::new_err("internal error: no row for the strategy"))?;
    let rows = rows.map_err(|r| refused(py, r))?;
    let list = PyList::empty(py);
    for r in &rows {
        list.append(row_dict(py, r)?)?;
    }
    Ok(list)
}

/// `text`'s chunk texts by `strategy`, as the library's `split_text` returns them.
///
/// Raises `ValueError` for bad settings and `Refused` when the strategy refuses.
#[pyfunction]
#[pyo3(signature = (text, strategy="langchain-recursive", chunk_size=512, chunk_overlap=64, unit="tokens", encoding="cl100k_base", model=None))]
#[allow(clippy::too_many_arguments)]
fn split_text(
    py: Python<'_>,
    text: &str,
    strategy: &str,
    chunk_size: i64,
    chunk_overlap: i64,
    unit: &str,
    encoding: &str,
    model: Option<&str>,
) -> PyResult<Vec<String>> {
    let config = config(
        chunk_size,
        chunk_overlap,
        unit,
        encoding,
        model,
        None,
        &[strategy.to_owned()],
    )?;
    let id = config.strategies[0];
    guarded(py, || {
        config.limit();
        let document = Document::new(text, config.settings.encoding);
        cut(id, &document, &config.figures(), None)
            .map(|c| c.chunks.iter().map(|c| c.text(text).into_owned()).collect())
    })?
    .map_err(|r| refused(py, r))
}

/// The page's comparison rows for `text`: one dict per strategy (`strategies`, default every
/// strategy that sizes in `unit`) with `strategy`, `library`, `library_version`, and either
/// `refused` (`{"kind", "message"}`) or the row's figures (`chunks`, `document_tokens`,
/// `total_tokens`, `repeated_tokens`, `mean_tokens`, `p95_tokens`, `max_tokens`,
/// `over_limit`, `max_input_tokens` (None without a model), `model_max_tokens`, `truncated_tokens`, `sentences`,
/// `split_sentences`, `structure_faults`, `cost` in US dollars at `price_per_million` US
/// dollars per 1,000,000 tokens, `vectors` (one per chunk), `storage_bytes` (float32 vectors
/// of the model's dimensions; None without a model), `overlap_clamped` (the overlap was
/// lowered below the size), `overlap_ignored` (the library has no overlap)) and `chunk_tokens` (each chunk's tokens, for a corpus's exact percentiles).
#[pyfunction]
#[pyo3(signature = (text, chunk_size=512, chunk_overlap=64, unit="tokens", encoding="cl100k_base", model=None, price_per_million=None, strategies=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    text: &str,
    chunk_size: i64,
    chunk_overlap: i64,
    unit: &str,
    encoding: &str,
    model: Option<&str>,
    price_per_million: Option<f64>,
    strategies: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(
        chunk_size,
        chunk_overlap,
        unit,
        encoding,
        model,
        price_per_million,
        &strategies.unwrap_or_default(),
    )?;
    let report = guarded(py, || compare_text(text, &config, &config.limit()))?;
    let list = PyList::empty(py);
    for row in &report.rows {
        let d = PyDict::new(py);
        let lib = row.strategy.library();
        d.set_item("strategy", row.strategy.as_str())?;
        d.set_item("library", lib.map(|l| l.package))?;
        d.set_item("library_version", lib.map(|l| l.version))?;
        match &row.outcome {
            Outcome::Refused { refusal } => {
                let r = PyDict::new(py);
                r.set_item("kind", &refusal.kind)?;
                r.set_item("message", &refusal.english)?;
                d.set_item("refused", r)?;
            }
            Outcome::Figures {
                summary: s,
                overlap_clamped,
                overlap_ignored,
                ..
            } => {
                d.set_item("refused", py.None())?;
                d.set_item("chunks", s.chunks)?;
                d.set_item("vectors", s.chunks)?;
                d.set_item(
                    "storage_bytes",
                    config.storage_bytes(s.chunks as u64).map(|b| b as u64),
                )?;
                d.set_item("overlap_clamped", *overlap_clamped)?;
                d.set_item("overlap_ignored", *overlap_ignored)?;
                d.set_item("document_tokens", s.document_tokens)?;
                d.set_item("total_tokens", s.total_tokens)?;
                d.set_item("repeated_tokens", s.repeated_tokens)?;
                d.set_item("mean_tokens", s.mean_tokens)?;
                d.set_item("p95_tokens", s.p95_tokens)?;
                d.set_item("max_tokens", s.max_tokens)?;
                d.set_item("over_limit", s.over_limit)?;
                d.set_item("max_input_tokens", s.input_limit())?;
                d.set_item("model_max_tokens", s.model_max_tokens)?;
                d.set_item("truncated_tokens", s.truncated_tokens)?;
                d.set_item("sentences", s.sentences)?;
                d.set_item("split_sentences", s.split_sentences)?;
                d.set_item("structure_faults", s.structure.total())?;
                d.set_item("cost", s.cost)?;
                d.set_item("chunk_tokens", &row.chunk_tokens)?;
            }
        }
        list.append(d)?;
    }
    Ok(list)
}

/// A file's bytes read as the page reads it (`name` decides the format by its extension,
/// then the bytes): `{"text", "format"}` (`"text"`, `"html"`, `"docx"` or `"pdf"`) and
/// `"page_starts"` (a PDF's byte offset of each page in `text`, for [`chunk`]).
///
/// Raises `Unreadable` (with `.reason`) when the file is not a document it can read.
#[pyfunction]
fn read<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let data: Vec<u8> = if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else if let Ok(b) = data.cast::<PyByteArray>() {
        b.to_vec()
    } else {
        return Err(PyTypeError::new_err(format!(
            "data must be the file's bytes (bytes or bytearray), not {}",
            data.get_type().name()?
        )));
    };
    let read = py.detach(|| {
        std::panic::catch_unwind(|| doc_extract::read_file(name, data))
            .map_err(|_| ("internal-error", "a bug stopped this file".to_owned()))?
            .map_err(|e| (e.reason(), e.to_string()))
    });
    let text = read.map_err(|(reason, message)| {
        let err = Unreadable::new_err(format!("{name}: {message}"));
        let _ = err.value(py).setattr("reason", reason);
        err
    })?;
    let d = PyDict::new(py);
    d.set_item("text", &text.text)?;
    d.set_item("format", text.format_name())?;
    d.set_item("page_starts", &text.page_starts)?;
    Ok(d)
}

/// Tokens of `text` in `encoding` (`cl100k_base`, `o200k_base`), as tiktoken counts them.
#[pyfunction]
#[pyo3(signature = (text, encoding="cl100k_base"))]
fn count(py: Python<'_>, text: &str, encoding: &str) -> PyResult<usize> {
    let enc = parse_encoding(encoding).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| enc.tokenizer().count(text)))
}

/// The settings checked as every other function checks them, and completed: `{"chunk_size",
/// "chunk_overlap", "unit", "encoding", "model", "price_per_million", "dimensions",
/// "strategies"}` (the
/// price in US dollars per 1,000,000 tokens: the one given, else the model's published price,
/// else 0.02 US dollars per
/// 1,000,000 tokens; the strategies: those given, else every one that sizes in `unit`).
///
/// Raises `ValueError` naming what is accepted.
#[pyfunction]
#[pyo3(signature = (chunk_size=512, chunk_overlap=64, unit="tokens", encoding="cl100k_base", model=None, price_per_million=None, strategies=None))]
#[allow(clippy::too_many_arguments)]
fn settings<'py>(
    py: Python<'py>,
    chunk_size: i64,
    chunk_overlap: i64,
    unit: &str,
    encoding: &str,
    model: Option<&str>,
    price_per_million: Option<f64>,
    strategies: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let c = config(
        chunk_size,
        chunk_overlap,
        unit,
        encoding,
        model,
        price_per_million,
        &strategies.unwrap_or_default(),
    )?;
    let d = PyDict::new(py);
    d.set_item("chunk_size", c.settings.chunk_size)?;
    d.set_item("chunk_overlap", c.settings.chunk_overlap)?;
    d.set_item("unit", corpus_core::unit_name(c.settings.unit))?;
    d.set_item("encoding", c.settings.encoding.name())?;
    d.set_item("model", c.model.map(|m| m.id))?;
    d.set_item("price_per_million", c.price_per_million)?;
    d.set_item("dimensions", c.vector_dimensions())?;
    let ids: Vec<&str> = c.strategies.iter().map(|s| s.as_str()).collect();
    d.set_item("strategies", ids)?;
    Ok(d)
}

/// Every strategy that cuts from the text alone: `{"id", "library", "library_version", "api",
/// "exact"}` (`library` None for the calculator's own).
#[pyfunction]
fn strategies<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for id in StrategyId::all() {
        let d = PyDict::new(py);
        let lib = id.library();
        d.set_item("id", id.as_str())?;
        d.set_item("library", lib.map(|l| l.package))?;
        d.set_item("library_version", lib.map(|l| l.version))?;
        d.set_item("api", lib.map(|l| l.api))?;
        d.set_item("exact", lib.is_some_and(|l| l.exact))?;
        list.append(d)?;
    }
    Ok(list)
}

/// The file extensions a folder's documents are found by (lower case, without the dot; match
/// them in any case), as the command-line tool reads a folder.
#[pyfunction]
fn document_extensions() -> Vec<&'static str> {
    doc_extract::DOCUMENT_EXTENSIONS.to_vec()
}

/// The RAG Chunk Calculator's core for Python: LangChain, LlamaIndex, text-splitter,
/// semchunk and chonkie reproduced chunk for chunk (`chunk`, `split_text`), the page's
/// comparison rows (`compare`), documents read as the page reads them (`read`), token counts
/// (`count`). Sizes are in `unit` (tokens of `encoding`, characters, or the model's own
/// tokens); prices in US dollars per 1,000,000 tokens.
#[pymodule]
fn rag_chunk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Refused", m.py().get_type::<Refused>())?;
    m.add("Unreadable", m.py().get_type::<Unreadable>())?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add_function(wrap_pyfunction!(chunk, m)?)?;
    m.add_function(wrap_pyfunction!(split_text, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(document_extensions, m)?)?;
    Ok(())
}
