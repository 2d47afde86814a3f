//! The gate of SPEC §6 for the chunking strategies of `chunk_core::strategy`: every strategy ×
//! every gate and preset document × a sweep of sizes and overlaps, in tokens (cl100k_base) and
//! in characters.
//!
//! - The product's own strategies (`StrategyId::library()` is `None`) over the slider grid:
//!   byte reconstruction ([`check_reconstruction`]), their `keeps()` statement, every chunk
//!   within the budget unless flagged oversize, and each chunk's token count equal to a fresh
//!   encode of its text by tiktoken-rs; fixed windows also against the reference windows.
//! - Library strategies over a few sizes: no panic, chunks or a typed error, and when chunks,
//!   the same measurement checks.
//!
//! The semantic strategies run with made-up vectors ([`with_made_up_vectors`]).
//!
//! `GATE_STRATEGIES=recursive,fixed` narrows every part of the gate (the no-hang child
//! included) to those strategies, for local runs; unset, every strategy runs.

use crate::corpus::documents;
use crate::keeps;
use crate::no_hang;
use crate::sweep::reference_fixed;
use chunk_core::reconstruct::check_reconstruction;
use chunk_core::sim::sweep::{OVERLAP_SLIDER, SIZE_SLIDER};
use chunk_core::strategy::semantic::Vectors;
use chunk_core::strategy::{
    chunker, run, Boundary, Chunks, SemanticChunker, Settings, SizeUnit, StrategyError, StrategyId,
};
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::tokenizer::Encoding;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{LazyLock, Mutex, Once};
use tiktoken_rs::CoreBPE;

/// The strategies under test: all, or those named in `GATE_STRATEGIES`.
pub fn selected() -> Vec<StrategyId> {
    let only: Option<Vec<String>> = std::env::var("GATE_STRATEGIES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    StrategyId::all()
        .chain(StrategyId::semantic())
        .filter(|id| {
            only.as_ref()
                .is_none_or(|o| o.iter().any(|s| s == id.as_str()))
        })
        .collect()
}

/// The product's own strategies under test.
pub fn own() -> Vec<StrategyId> {
    selected()
        .into_iter()
        .filter(|id| id.library().is_none())
        .collect()
}

/// The library strategies under test.
pub fn libraries() -> Vec<StrategyId> {
    selected()
        .into_iter()
        .filter(|id| id.library().is_some())
        .collect()
}

/// Settings in `unit` (cl100k_base measures every chunk either way).
pub fn settings(size: usize, overlap: usize, unit: SizeUnit) -> Settings {
    Settings {
        chunk_size: size,
        chunk_overlap: overlap,
        unit,
        encoding: Encoding::Cl100kBase,
    }
}

/// The units the gate sweeps.
pub const UNITS: [SizeUnit; 2] = [SizeUnit::Tokens, SizeUnit::Characters];

/// Sizes and overlaps swept in `unit`: every value of the simulator's sliders in tokens; in
/// characters four times every other value (about four characters per token).
pub fn grid(unit: SizeUnit) -> Vec<(usize, usize)> {
    let (k, step) = match unit {
        SizeUnit::Tokens | SizeUnit::Model(_) => (1, 1),
        SizeUnit::Characters => (4, 2),
    };
    let mut out = Vec::new();
    for size in SIZE_SLIDER.values().step_by(step) {
        for overlap in OVERLAP_SLIDER.values().step_by(step) {
            out.push((size * k, overlap * k));
        }
    }
    out
}

static TIKTOKEN: LazyLock<CoreBPE> =
    LazyLock::new(|| tiktoken_rs::cl100k_base().expect("cl100k_base"));
static DOCUMENTS: LazyLock<Mutex<HashMap<String, usize>>> = LazyLock::new(Default::default);

/// cl100k_base tokens of `text` by tiktoken-rs.
pub fn fresh_tokens(text: &str) -> usize {
    TIKTOKEN.encode_ordinary(text).len()
}

/// [`fresh_tokens`] of a whole document, remembered (the gate measures few documents many
/// times).
fn document_tokens(text: &str) -> usize {
    let mut cache = DOCUMENTS.lock().expect("not poisoned");
    if let Some(&n) = cache.get(text) {
        return n;
    }
    let n = fresh_tokens(text);
    cache.insert(text.to_string(), n);
    n
}

/// The length of `text` in `unit`, counted independently of the strategies.
pub fn fresh_length(text: &str, unit: SizeUnit) -> usize {
    match unit {
        SizeUnit::Tokens => fresh_tokens(text),
        SizeUnit::Characters => text.chars().count(),
        SizeUnit::Model(v) => v
            .loaded()
            .expect("the gate installs the tokenizer")
            .count(text),
    }
}

thread_local! {
    /// Inside [`run_case`] on this thread: a panic is recorded here instead of printed.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once) a panic hook that stays quiet inside [`run_case`] and records where the
/// panic happened; every other panic is printed as before.
fn quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                CAUGHT.with(|c| *c.borrow_mut() = Some(format!("panicked at {at}: {msg}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// A semantic strategy with made-up vectors for every text it embeds on `text` (how often a
/// few words and letter classes occur: the rules only read cosines), so that the gate runs it
/// like the others without a model.
pub fn with_made_up_vectors(
    c: SemanticChunker,
    text: &str,
) -> Result<SemanticChunker, StrategyError> {
    let mut vectors = Vectors::new();
    for t in c.embedding_texts(text)? {
        let lower = t.to_lowercase();
        let mut v: Vec<f32> = ["the", "and", "of", "chunk", ".", "\n"]
            .iter()
            .map(|w| lower.matches(w).count() as f32)
            .collect();
        v.push(lower.chars().filter(|c| c.is_alphabetic()).count() as f32 * 0.01);
        v.push(0.001);
        vectors.insert(t, v);
    }
    Ok(c.with_vectors(std::sync::Arc::new(vectors)))
}

/// Runs `id` with `s` on `text`, turning a panic into an `Err` naming where it happened.
/// `Ok(None)`: the strategy (or its library) refused the setting or the text with a typed error.
pub fn run_case(id: StrategyId, text: &str, s: &Settings) -> Result<Option<Chunks>, String> {
    quiet_hook();
    QUIET.with(|q| q.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(|| match SemanticChunker::new(id, s) {
        Some(semantic) => semantic.and_then(|c| {
            let c = with_made_up_vectors(c, text)?;
            run(&c, text, s.encoding)
        }),
        None => chunker(id, s).and_then(|c| run(c.as_ref(), text, s.encoding)),
    }));
    QUIET.with(|q| q.set(false));
    match outcome {
        Ok(Ok(chunks)) => Ok(Some(chunks)),
        Ok(Err(_typed)) => Ok(None),
        Err(_) => Err(CAUGHT
            .with(|c| c.borrow_mut().take())
            .unwrap_or_else(|| "panicked".into())),
    }
}

/// The checks every chunk list must pass, whoever made it: the `keeps()` statement, each
/// chunk's token count and length equal to fresh counts, the oversize flag exactly when the
/// chunk is over the budget, the whitespace flag exactly when the text is blank.
pub fn check_measured(id: StrategyId, text: &str, s: &Settings, c: &Chunks) -> Result<(), String> {
    keeps::check(c.keeps, text, c).map_err(|e| format!("keeps {:?}: {e}", c.keeps))?;
    if c.strategy != id || c.budget.0 != s.chunk_size || c.budget.1 != s.length() {
        return Err(format!("strategy or budget wrong: {:?}", c.budget));
    }
    if c.document_tokens != document_tokens(text) {
        return Err(format!("document tokens {}", c.document_tokens));
    }
    for (i, ch) in c.chunks.iter().enumerate() {
        let own = ch.text(text);
        let tokens = fresh_tokens(&own);
        if ch.tokens != tokens {
            return Err(format!(
                "chunk {i}: {} tokens, a fresh encode gives {tokens}",
                ch.tokens
            ));
        }
        let length = fresh_length(&own, s.unit);
        if ch.length != length || ch.flags.oversize != (length > s.chunk_size) {
            return Err(format!(
                "chunk {i}: length {} (fresh {length}), oversize flag {}",
                ch.length, ch.flags.oversize
            ));
        }
        if ch.flags.whitespace_only != own.trim().is_empty() {
            return Err(format!("chunk {i}: whitespace flag wrong"));
        }
    }
    Ok(())
}

/// Every check of one own strategy on one document and setting.
pub fn check_own(id: StrategyId, name: &str, text: &str, s: &Settings) -> Result<(), String> {
    let ctx = format!(
        "{id} on {name:?} size {} overlap {} {:?}",
        s.chunk_size, s.chunk_overlap, s.unit
    );
    let c = run_case(id, text, s)
        .map_err(|e| format!("{ctx}: {e}"))?
        .ok_or_else(|| format!("{ctx}: refused a valid setting"))?;
    check_own_chunks(id, text, s, &c).map_err(|e| format!("{ctx}: {e}"))
}

/// [`check_own`] on chunks already made.
pub fn check_own_chunks(
    id: StrategyId,
    text: &str,
    s: &Settings,
    c: &Chunks,
) -> Result<(), String> {
    check_measured(id, text, s, c)?;
    let spans: Vec<(usize, usize)> = c
        .chunks
        .iter()
        .map(|ch| (ch.bytes.start, ch.bytes.end))
        .collect();
    let total = check_reconstruction(text.len(), &spans).map_err(|e| format!("bytes: {e}"))?;
    if total != spans.iter().map(|(s, e)| e - s).sum::<usize>() {
        return Err("byte total".into());
    }
    if let Some(last) = c.chunks.last() {
        if last.reason != Boundary::EndOfText {
            return Err(format!("last chunk ends at {:?}", last.reason));
        }
    }
    if let Some(i) = c.chunks[..c.chunks.len().saturating_sub(1)]
        .iter()
        .position(|ch| ch.reason == Boundary::EndOfText)
    {
        return Err(format!("chunk {i} says end of text"));
    }
    match id {
        StrategyId::Fixed => check_fixed(text, s, c),
        StrategyId::Recursive => check_recursive(text, s, c),
        _ => Ok(()),
    }
}

/// Fixed windows are the reference windows over the document's units.
fn check_fixed(text: &str, s: &Settings, c: &Chunks) -> Result<(), String> {
    let bounds = s.length().boundaries(text);
    let n = bounds.len() - 1;
    let want: Vec<(usize, usize)> = reference_fixed(n, s.chunk_size, s.chunk_overlap)
        .into_iter()
        .map(|(a, b)| (bounds[a], bounds[b]))
        .collect();
    let got: Vec<(usize, usize)> = c
        .chunks
        .iter()
        .map(|ch| (ch.bytes.start, ch.bytes.end))
        .collect();
    if got != want {
        return Err(format!("fixed windows {got:?} ≠ reference {want:?}"));
    }
    Ok(())
}

/// Recursive chunks: document slices; only one character alone may be oversize; a
/// whitespace-only chunk only where the text is blank or a cut fell below the word level.
fn check_recursive(text: &str, s: &Settings, c: &Chunks) -> Result<(), String> {
    let sub_word = |r: Boundary| matches!(r, Boundary::SizeLimit | Boundary::Character);
    let blank_text = text.trim().is_empty();
    for (i, ch) in c.chunks.iter().enumerate() {
        let own = &text[ch.bytes.clone()];
        if ch.text.is_some() {
            return Err(format!("chunk {i} is not the document slice"));
        }
        if ch.flags.oversize && own.chars().count() != 1 {
            return Err(format!(
                "chunk {i} is oversize ({} > {}) and more than one character",
                ch.length, s.chunk_size
            ));
        }
        let prev_sub_word = i > 0 && sub_word(c.chunks[i - 1].reason);
        if ch.flags.whitespace_only && !blank_text && !sub_word(ch.reason) && !prev_sub_word {
            return Err(format!("chunk {i} is whitespace only: {own:?}"));
        }
    }
    Ok(())
}

/// Every own strategy (one thread each) over the grid of `unit` and every document.
fn sweep_own(unit: SizeUnit) {
    no_hang::ensure();
    let docs = documents();
    let ids: Vec<StrategyId> = own().into_iter().filter(|id| id.supports(unit)).collect();
    let results: Vec<(usize, Vec<(StrategyId, String)>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = ids
            .iter()
            .map(|&id| {
                let docs = &docs;
                scope.spawn(move || {
                    let (mut configs, mut failures) = (0, Vec::new());
                    for (size, overlap) in grid(unit) {
                        let s = settings(size, overlap, unit);
                        for doc in docs {
                            configs += 1;
                            if let Err(e) = check_own(id, &doc.name, doc.text, &s) {
                                failures.push((id, e));
                            }
                        }
                    }
                    (configs, failures)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("the sweep itself does not panic"))
            .collect()
    });
    let configs: usize = results.iter().map(|r| r.0).sum();
    assert_eq!(configs, ids.len() * grid(unit).len() * docs.len());
    let failures: Vec<(StrategyId, String)> = results.into_iter().flat_map(|r| r.1).collect();
    assert_none(&failures, configs);
}

#[test]
fn own_strategies_in_tokens_over_every_document_size_and_overlap() {
    sweep_own(SizeUnit::Tokens);
}

#[test]
fn own_strategies_in_characters_over_every_document_size_and_overlap() {
    sweep_own(SizeUnit::Characters);
}

/// Fails with, per strategy, the number of failed cases and the first three.
fn assert_none(failures: &[(StrategyId, String)], cases: usize) {
    if failures.is_empty() {
        return;
    }
    let mut report = format!("{} of {cases} cases failed", failures.len());
    for id in StrategyId::all() {
        let mine: Vec<&String> = failures
            .iter()
            .filter(|f| f.0 == id)
            .map(|f| &f.1)
            .collect();
        if !mine.is_empty() {
            report += &format!("\n{id}: {} failed, first:", mine.len());
            for f in mine.iter().take(3) {
                report += &format!("\n  {f}");
            }
        }
    }
    panic!("{report}");
}

/// The few sizes library strategies are swept with, per unit.
const LIBRARY_SIZES: [(usize, usize); 4] = [(10, 0), (24, 6), (64, 8), (160, 50)];

#[test]
fn library_strategies_never_panic_and_measure_true() {
    no_hang::ensure();
    crate::open_tokenizers::install_open_tokenizers();
    let docs = documents();
    let (mut failures, mut configs) = (Vec::new(), 0);
    // Tokens, characters, and each open model's own tokens where the strategy sizes in them
    // (elsewhere the typed refusal is the outcome).
    let units = UNITS.into_iter().chain(OpenVocab::ALL.map(SizeUnit::Model));
    for id in libraries() {
        for unit in units.clone() {
            let k = if unit == SizeUnit::Characters { 4 } else { 1 };
            for (size, overlap) in LIBRARY_SIZES {
                let s = settings(size * k, overlap * k, unit);
                for doc in &docs {
                    let ctx = format!(
                        "{id} on {:?} size {size} overlap {overlap} {unit:?}",
                        doc.name
                    );
                    configs += 1;
                    match run_case(id, doc.text, &s) {
                        Err(e) => failures.push((id, format!("{ctx}: {e}"))),
                        Ok(None) => {}
                        Ok(Some(c)) => {
                            if let Err(e) = check_measured(id, doc.text, &s, &c) {
                                failures.push((id, format!("{ctx}: {e}")));
                            }
                        }
                    }
                }
            }
        }
    }
    assert_none(&failures, configs);
}

/// Non-progress cases for every strategy (SPEC §6), run by [`no_hang`]'s child under its
/// deadline: E01 (overlap = size), E12 (a long word with overlap), overlap ≥ size, size 1,
/// and 20 KB runs of one character (2 KB at size 1). Own strategies pass every check; library
/// strategies return chunks that measure true, or a typed error.
pub fn non_progress_cases() {
    let e01 = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    let e12 = format!("Prefix {} suffix", "x".repeat(300));
    let runs = ["x".repeat(20 * 1024), " ".repeat(20 * 1024)];
    let short_runs = ["x".repeat(2 * 1024), " ".repeat(2 * 1024)];
    let docs = documents();
    let mut cases: Vec<(String, &str, Settings)> = Vec::new();
    crate::open_tokenizers::install_open_tokenizers();
    // In an open model's tokens a 20 KB word is one [UNK] and 20 KB of spaces no token at all.
    for unit in UNITS.into_iter().chain(OpenVocab::ALL.map(SizeUnit::Model)) {
        let k = if unit == SizeUnit::Characters { 4 } else { 1 };
        for (size, overlap) in [(2, 2), (5, 5)] {
            cases.push(("E01".into(), e01, settings(size * k, overlap * k, unit)));
        }
        cases.push(("E12".into(), &e12, settings(10 * k, 3 * k, unit)));
        for run in &runs {
            for (size, overlap) in [(10, 3), (10, 10), (50, 0), (512, 64)] {
                let name = format!("20 KB of {:?}", &run[..1]);
                cases.push((name, run, settings(size, overlap, unit)));
            }
        }
        // Size 1 on a shorter run: one chunk per unit (20 KB at size 1 takes the text-splitter
        // strategies seconds in a test build).
        for run in &short_runs {
            for overlap in [0, 5] {
                let name = format!("2 KB of {:?}", &run[..1]);
                cases.push((name, run, settings(1, overlap, unit)));
            }
        }
        for doc in &docs {
            for (size, overlap) in [(10, 10), (50, 1000), (160, 160)] {
                let s = settings(size * k, overlap * k, unit);
                cases.push((doc.name.clone(), doc.text, s));
            }
            for overlap in [0, 1, 5, 50] {
                cases.push((doc.name.clone(), doc.text, settings(1, overlap, unit)));
            }
        }
    }
    let (mut failures, mut configs) = (Vec::new(), 0);
    for id in selected() {
        for (name, text, s) in &cases {
            if !id.supports(s.unit) {
                continue;
            }
            configs += 1;
            let outcome = if id.library().is_none() {
                check_own(id, name, text, s)
            } else {
                run_case(id, text, s).and_then(|c| match c {
                    Some(c) => check_measured(id, text, s, &c),
                    None => Ok(()),
                })
            };
            if let Err(e) = outcome {
                failures.push((id, format!("{id} {name} {s:?}: {e}")));
            }
        }
    }
    assert_none(&failures, configs);
}
