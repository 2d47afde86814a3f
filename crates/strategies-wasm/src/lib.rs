//! The chunking strategies ([`chunk_core::strategy`]) compiled alone to WebAssembly, so that
//! `make bench` can time every strategy in Node and in headless Chromium (in a Web Worker) and
//! set each library-exact one against the library itself in Python (`bench/strategies.mjs`).
//! It is not part of the page: the page links chunk-core directly.
//!
//! Strategies are named by their stable id (`"fixed"`, `"langchain-recursive"`, …; see
//! [`strategy_ids`]), units by `"tokens"` or `"characters"`, encodings by their standard name
//! (`"cl100k_base"` or `"o200k_base"`). Any other name throws a JS `Error` naming the accepted
//! ones; a strategy's refusal of a setting or a text throws a JS `Error` whose message is the
//! [`StrategyError`]'s English `Display`.
//!
//! A strategy that panics (a bug: every strategy is meant to return chunks or an error) traps the wasm instance (the release
//! profile aborts on panic): the caller catches the `WebAssembly.RuntimeError`, may read the
//! panic message with [`last_panic`], and must instantiate the module afresh before the next
//! call.
//!
//! It also exports the open models' tokenizers ([`open_load`], [`open_count`]: WordPiece and
//! Unigram) for the tokenizer bench against Hugging Face's JavaScript tokenizers
//! (`bench/open-tokenizers.mjs`), and sentence segmentation ([`chunk_core::segment::sentences::sentence_bytes`]) under
//! each [`SentenceRule`], named as in [`sentence_rules`], for the sentence bench
//! (`bench/sentences.mjs`).

use chunk_core::segment::sentences::sentence_bytes;
use chunk_core::segment::sentences::SentenceRule;
use chunk_core::strategy::{
    chunker, run, run_prepared, Chunks, Document, Settings, SizeUnit, StrategyError, StrategyId,
};
use chunk_core::tokenizer::open::{OpenTokenizer, OpenVocab};
use chunk_core::tokenizer::Encoding;
use std::sync::Mutex;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The open tokenizers [`open_load`] read.
    static OPEN: std::cell::RefCell<Vec<OpenTokenizer>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The vocabulary named `code` (`"bert-uncased"`, `"xlm-roberta"`).
fn open_vocab(code: &str) -> Result<OpenVocab, JsError> {
    OpenVocab::from_code(code).ok_or_else(|| {
        JsError::new(&format!(
            "unknown vocabulary {code:?}: expected \"bert-uncased\" or \"xlm-roberta\""
        ))
    })
}

/// Reads `bytes`, the content of the vocabulary file of `code`
/// ([`chunk_core::tokenizer::open::OpenVocab::file`]), and keeps its tokenizer for
/// [`open_count`].
///
/// # Errors
/// A JS `Error` for an unknown code, or with the file's
/// [`chunk_core::tokenizer::open::LoadError`] message.
#[wasm_bindgen]
pub fn open_load(code: &str, bytes: &[u8]) -> Result<(), JsError> {
    let vocab = open_vocab(code)?;
    let t = OpenTokenizer::load(vocab, bytes).map_err(|e| JsError::new(&e.to_string()))?;
    OPEN.with(|o| {
        let mut o = o.borrow_mut();
        o.retain(|x| x.vocab() != vocab);
        o.push(t);
    });
    Ok(())
}

/// Tokens of `text` (without the model's special tokens) with the tokenizer [`open_load`]
/// read for `code`.
///
/// # Errors
/// A JS `Error` for an unknown code, before [`open_load`], or past 2^32 − 1 tokens.
#[wasm_bindgen]
pub fn open_count(code: &str, text: &str) -> Result<u32, JsError> {
    let vocab = open_vocab(code)?;
    let n = OPEN.with(|o| {
        o.borrow()
            .iter()
            .find(|t| t.vocab() == vocab)
            .map(|t| t.count(text))
    });
    let n = n.ok_or_else(|| JsError::new("open_load first"))?;
    u32::try_from(n).map_err(|_| JsError::new("more than 4,294,967,295 tokens"))
}

/// The message of the last panic, kept by the hook [`start`] installs.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs once when the module is instantiated: installs a panic hook that keeps the panic's
/// message (and location) for [`last_panic`], since the trap that follows carries none.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        let mut last = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
        *last = Some(info.to_string());
    }));
}

/// The message of the last panic in this instance (`"panicked at <file>:<line>: <message>"`),
/// or `undefined` when none happened. Readable after the trap.
#[wasm_bindgen]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Every strategy id, in the order the page lists them (library-exact and the product's own).
#[wasm_bindgen]
pub fn strategy_ids() -> Vec<String> {
    StrategyId::all().map(|id| id.as_str().to_owned()).collect()
}

/// The library a strategy reproduces ([`chunk_core::strategy::Library`]), for JS.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// The package name as installed (the PyPI name, or the crate name for text-splitter).
    pub package: String,
    /// The exact version reproduced, e.g. `"1.1.3"`.
    pub version: String,
    /// The class or function reproduced, e.g. `"RecursiveCharacterTextSplitter"`.
    pub api: String,
    /// True when the reproduction is chunk-for-chunk exact on the differential corpus.
    pub exact: bool,
}

/// The library `strategy` reproduces, or `undefined` for the product's own strategies
/// ([`StrategyId::library`]).
///
/// # Errors
/// A JS `Error` for an unknown strategy id.
#[wasm_bindgen]
pub fn library_of(strategy: &str) -> Result<Option<Library>, JsError> {
    Ok(library(
        parse_strategy(strategy).map_err(|e| JsError::new(&e))?,
    ))
}

/// The overlap `strategy` is benchmarked with when asked for `chunk_overlap`: `chunk_overlap`
/// itself when the strategy accepts it, else 0 when it accepts 0 (its library has no overlap
/// parameter, or refuses this one). "Accepts" means that building the strategy and cutting a
/// short probe text both succeed, so the answer does not depend on which [`StrategyError`]
/// variant a strategy uses for this.
///
/// # Errors
/// A JS `Error` for an unknown name, or with the strategy's refusal when it refuses even
/// overlap 0.
///
/// # Panics
/// Never by itself; a strategy that panics traps the instance (see the crate docs).
#[wasm_bindgen]
pub fn effective_overlap(
    strategy: &str,
    chunk_size: u32,
    chunk_overlap: u32,
    unit: &str,
    encoding: &str,
) -> Result<u32, JsError> {
    let (id, settings) =
        parse(strategy, chunk_size, chunk_overlap, unit, encoding).map_err(|e| JsError::new(&e))?;
    overlap_for(id, settings)
        .map(|o| o as u32)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Cuts `text` with `strategy` (every other parameter at its library's or the product's
/// default) and measures every chunk ([`chunk_core::strategy::run`]); returns
/// `[chunks, total_tokens]` as a `Uint32Array`: the number of chunks and the sum of their own
/// token counts in `encoding`.
///
/// # Errors
/// A JS `Error` for an unknown name, with the [`StrategyError`]'s `Display` when the strategy
/// refuses the setting or the text, or when a figure exceeds `u32`.
///
/// # Panics
/// Never by itself; a strategy that panics traps the instance (see the crate docs).
#[wasm_bindgen]
pub fn chunk(
    strategy: &str,
    text: &str,
    chunk_size: u32,
    chunk_overlap: u32,
    unit: &str,
    encoding: &str,
) -> Result<Vec<u32>, JsError> {
    let (id, settings) =
        parse(strategy, chunk_size, chunk_overlap, unit, encoding).map_err(|e| JsError::new(&e))?;
    let [chunks, tokens] = measure(id, &settings, text).map_err(|e| JsError::new(&e))?;
    Ok(vec![chunks, tokens])
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, in Node and in a Web Worker alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// As [`chunk`], but as the page's comparison worker runs a row: the text is first prepared
/// ([`Document::new`], the one encode that every row of the table shares), then cut and
/// measured on it ([`run_prepared`], every token count served from the shared tokens). The two
/// steps are timed apart with `performance.now()`. Returns `[chunks, total_tokens, prepare_ms,
/// chunk_ms]` as a `Float64Array`: the figures of [`chunk`] (equal to them), the milliseconds
/// of `Document::new` and those of `run_prepared`.
///
/// # Errors
/// As [`chunk`].
///
/// # Panics
/// Never by itself; a strategy that panics traps the instance (see the crate docs).
#[wasm_bindgen]
pub fn chunk_prepared(
    strategy: &str,
    text: &str,
    chunk_size: u32,
    chunk_overlap: u32,
    unit: &str,
    encoding: &str,
) -> Result<Vec<f64>, JsError> {
    let (id, settings) =
        parse(strategy, chunk_size, chunk_overlap, unit, encoding).map_err(|e| JsError::new(&e))?;
    let chunker = chunker(id, &settings).map_err(|e| JsError::new(&e.to_string()))?;
    let started = performance_now();
    let document = Document::new(text, settings.encoding);
    let prepared = performance_now();
    let chunks =
        run_prepared(chunker.as_ref(), &document).map_err(|e| JsError::new(&e.to_string()))?;
    let done = performance_now();
    let [n, tokens] = figures(&chunks).map_err(|e| JsError::new(&e))?;
    Ok(vec![
        f64::from(n),
        f64::from(tokens),
        prepared - started,
        done - prepared,
    ])
}

/// Every sentence rule name [`sentence_count`] accepts: `"terminators"` (the simulator's
/// current rule), `"uax29"`, `"uax29-abbreviations"`, `"contextual"`
/// ([`SentenceRule::Terminators`], [`SentenceRule::Uax29`],
/// [`SentenceRule::Uax29Abbreviations`], [`SentenceRule::Contextual`]), in that order.
#[wasm_bindgen]
pub fn sentence_rules() -> Vec<String> {
    SentenceRule::ALL
        .iter()
        .map(|r| r.code().to_owned())
        .collect()
}

/// The number of sentences of `text` under `rule` (a name of [`sentence_rules`]): the number of
/// byte spans [`sentence_bytes`] returns, which tile the text; 0 for an empty text. The JS
/// string → wasm copy (UTF-16 to UTF-8) is part of the call.
///
/// # Errors
/// A JS `Error` naming the accepted rules for an unknown rule name, or when the count exceeds
/// `u32`.
#[wasm_bindgen]
pub fn sentence_count(rule: &str, text: &str) -> Result<u32, JsError> {
    count_sentences(rule, text).map_err(|e| JsError::new(&e))
}

fn parse_rule(rule: &str) -> Result<SentenceRule, String> {
    rule.parse().map_err(|_| {
        format!(
            "unknown sentence rule {rule:?}: expected one of {}",
            sentence_rules().join(", ")
        )
    })
}

/// See [`sentence_count`].
fn count_sentences(rule: &str, text: &str) -> Result<u32, String> {
    let n = sentence_bytes(text, parse_rule(rule)?).len();
    u32::try_from(n).map_err(|_| "more than 4,294,967,295 sentences".to_owned())
}

fn parse_strategy(strategy: &str) -> Result<StrategyId, String> {
    strategy.parse().map_err(|_| {
        let ids: Vec<&str> = StrategyId::all().map(StrategyId::as_str).collect();
        format!(
            "unknown strategy {strategy:?}: expected one of {}",
            ids.join(", ")
        )
    })
}

/// The strategy and its settings from the JS arguments.
fn parse(
    strategy: &str,
    chunk_size: u32,
    chunk_overlap: u32,
    unit: &str,
    encoding: &str,
) -> Result<(StrategyId, Settings), String> {
    let id = parse_strategy(strategy)?;
    let unit: SizeUnit = unit
        .parse()
        .map_err(|_| format!("unknown unit {unit:?}: expected \"tokens\" or \"characters\""))?;
    let encoding = Encoding::from_name(encoding).ok_or_else(|| {
        format!("unknown encoding {encoding:?}: expected \"cl100k_base\" or \"o200k_base\"")
    })?;
    Ok((
        id,
        Settings {
            chunk_size: chunk_size as usize,
            chunk_overlap: chunk_overlap as usize,
            unit,
            encoding,
        },
    ))
}

fn library(id: StrategyId) -> Option<Library> {
    id.library().map(|l| Library {
        package: l.package.to_owned(),
        version: l.version.to_owned(),
        api: l.api.to_owned(),
        exact: l.exact,
    })
}

/// A short text with paragraphs, sentences and words, cut by [`overlap_for`] to see whether a
/// strategy accepts an overlap (some refuse it only when cutting).
const PROBE: &str = "# Probe\n\nOne sentence. Another one, with a clause.\n\nA second paragraph.\n";

/// See [`effective_overlap`].
fn overlap_for(id: StrategyId, settings: Settings) -> Result<usize, StrategyError> {
    let accepts = |s: &Settings| chunker(id, s).and_then(|c| c.split(PROBE).map(|_| ()));
    match accepts(&settings) {
        Ok(()) => Ok(settings.chunk_overlap),
        Err(e) if settings.chunk_overlap == 0 => Err(e),
        Err(e) => {
            let without = Settings {
                chunk_overlap: 0,
                ..settings
            };
            accepts(&without).map(|()| 0).map_err(|_| e)
        }
    }
}

/// `[chunks, total_tokens]` of `id` on `text`.
fn measure(id: StrategyId, settings: &Settings, text: &str) -> Result<[u32; 2], String> {
    let chunks = chunker(id, settings)
        .and_then(|c| run(c.as_ref(), text, settings.encoding))
        .map_err(|e| e.to_string())?;
    figures(&chunks)
}

/// `[chunks, total_tokens]` of `chunks`, or which figure exceeds `u32`.
fn figures(chunks: &Chunks) -> Result<[u32; 2], String> {
    let fit = |n: usize, what: &str| {
        u32::try_from(n).map_err(|_| format!("more than 4,294,967,295 {what}"))
    };
    Ok([
        fit(chunks.chunks.len(), "chunks")?,
        fit(chunks.total_tokens(), "tokens")?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(size: usize, overlap: usize) -> Settings {
        Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            unit: SizeUnit::Tokens,
            encoding: Encoding::Cl100kBase,
        }
    }

    #[test]
    fn ids_are_every_strategy_and_only_library_ones_have_a_library() {
        let ids = strategy_ids();
        assert_eq!(ids.len(), StrategyId::all().count());
        assert_eq!(ids[0], "fixed");
        assert!(ids.iter().any(|i| i == "langchain-token"));
        assert_eq!(library(StrategyId::Fixed), None);
        let lc = library(StrategyId::LangchainToken).expect("LangChain's token splitter");
        assert_eq!(lc.package, "langchain-text-splitters");
        assert_eq!(lc.api, "TokenTextSplitter");
    }

    #[test]
    fn parse_names_the_accepted_values() {
        let (id, s) = parse("sentence", 512, 64, "characters", "o200k_base").expect("valid");
        assert_eq!(id, StrategyId::Sentence);
        assert_eq!(
            (s.chunk_size, s.chunk_overlap, s.unit, s.encoding),
            (512, 64, SizeUnit::Characters, Encoding::O200kBase)
        );
        let e = parse("nope", 512, 0, "tokens", "cl100k_base").unwrap_err();
        assert!(
            e.contains("\"nope\"") && e.contains("langchain-recursive"),
            "{e}"
        );
        let e = parse("fixed", 512, 0, "words", "cl100k_base").unwrap_err();
        assert!(e.contains("\"tokens\" or \"characters\""), "{e}");
        let e = parse("fixed", 512, 0, "tokens", "p50k_base").unwrap_err();
        assert!(e.contains("cl100k_base"), "{e}");
    }

    #[test]
    fn measure_counts_chunks_and_their_tokens() {
        // 30 sentences of 5 tokens each ("Alpha", " beta", " gamma", " delta", ".").
        let text = "Alpha beta gamma delta. ".repeat(30);
        let text = text.trim_end();
        let bpe = Encoding::Cl100kBase.tokenizer();
        let doc_tokens = bpe.count(text);
        assert_eq!(doc_tokens, 150);
        let [chunks, tokens] = measure(StrategyId::Fixed, &settings(10, 0), text).expect("fixed");
        assert_eq!((chunks, tokens), (15, 150));
        // An overlap of 2: windows start every 8 tokens (0, 8, … 144), 18 of 10 and one of 6.
        let [chunks, tokens] = measure(StrategyId::Fixed, &settings(10, 2), text).expect("fixed");
        assert_eq!((chunks, tokens), (19, 18 * 10 + 6));
        // Sentence packing ends each chunk with the space after its last sentence, a token of
        // its own ("Alpha beta gamma delta. " is 6): one sentence per chunk, 28 of 6 tokens,
        // and the last two sentences, which end the text without a space, together (10).
        let [chunks, tokens] =
            measure(StrategyId::Sentence, &settings(10, 0), text).expect("sentence");
        assert_eq!((chunks, tokens), (29, 28 * 6 + 10));
        assert_eq!(
            measure(StrategyId::Fixed, &settings(0, 0), text).unwrap_err(),
            StrategyError::Params(chunk_core::params::ParamsError::ZeroChunkSize).to_string()
        );
    }

    #[test]
    fn sentence_rules_are_every_rule_in_order_and_count_sentences() {
        assert_eq!(
            sentence_rules(),
            ["terminators", "uax29", "uax29-abbreviations", "contextual"]
        );
        for name in sentence_rules() {
            assert_eq!(count_sentences(&name, ""), Ok(0), "{name}");
            assert_eq!(count_sentences(&name, "One. Two? Three!"), Ok(3), "{name}");
        }
        // "Dr. Lee": a full stop then a capital ends a sentence for the terminator rule only.
        assert_eq!(count_sentences("terminators", "Dr. Lee came."), Ok(2));
        assert_eq!(
            count_sentences("uax29-abbreviations", "Dr. Lee came."),
            Ok(1)
        );
        assert_eq!(count_sentences("contextual", "Dr. Lee came."), Ok(1));
        assert_eq!(
            count_sentences("contextual", "I live in the U.S. How about you?"),
            Ok(2)
        );
        let e = count_sentences("spacy", "Text.").unwrap_err();
        assert!(
            e.contains("\"spacy\"")
                && e.contains("terminators, uax29, uax29-abbreviations, contextual"),
            "{e}"
        );
    }

    #[test]
    fn overlap_is_kept_when_accepted_and_errors_when_even_zero_is_refused() {
        assert_eq!(overlap_for(StrategyId::Fixed, settings(512, 64)), Ok(64));
        assert_eq!(overlap_for(StrategyId::Sentence, settings(512, 64)), Ok(64));
        assert_eq!(
            overlap_for(StrategyId::Fixed, settings(0, 64)),
            Err(StrategyError::Params(
                chunk_core::params::ParamsError::ZeroChunkSize
            ))
        );
    }
}
