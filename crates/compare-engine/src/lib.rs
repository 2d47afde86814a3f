//! The page's comparison worker: every chunking strategy of [`chunk_core::strategy`] run on the
//! user's whole text in a Web Worker (`assets/compare-worker.js`), so that the page's own wasm
//! carries no strategy (the text-splitter crate and its Unicode data weigh 2.3 MB gzip) and no
//! long task runs on the page's thread. Trunk builds this crate as a worker module
//! (`index.html`, `data-type="worker"`): it is fetched after the page has started, never in the
//! first paint.
//!
//! The messages are [`chunk_core::analysis::protocol`]'s. [`Engine`] holds the state (the text,
//! the selected strategy's chunks) and answers each request natively testable; [`Worker`]
//! ([`worker`]) holds the protocol's rules around it (which job supersedes which, the steps
//! of a row-by-row answer, the in-order answers, which vocabulary file to fetch). The
//! `wasm_bindgen` exports below are a thin layer over one [`Worker`]:
//! - `set_text(text_id, bytes, pages)` — the document, as UTF-8, and for a text read from a
//!   PDF where each page starts (byte offsets), so that exported chunks name their pages;
//! - `receive(request)` — any other message of the page;
//! - `next()` — what the script does next: post a reply, fetch a vocabulary file, yield to
//!   its event loop, or nothing until a message or a file arrives;
//! - `vocab_fetched(file, bytes)` / `vocab_failed(file, message)` — a fetch's outcome.
//!
//! A strategy that panics (a bug) traps the instance (release builds abort on panic); the
//! script then reports `failed` and the page starts a new worker. [`last_panic`] keeps the
//! message for the report.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use chunk_core::analysis::export::{rows, rows_of, to_csv, to_jsonl, PageMap};
use chunk_core::analysis::histogram::histogram;
use chunk_core::analysis::layout::{document_spans, shared_prefix_bytes, LAYOUT_BYTES};
use chunk_core::analysis::protocol::SemanticView;
use chunk_core::analysis::protocol::{
    Bm25Setting, ExportFormat, Figures, Outcome, Reply, Request, RetrievalOutcome, RetrievalPair,
    Selection, SWEEP_PROGRESS_EVERY,
};
use chunk_core::analysis::refusal::Refusal;
use chunk_core::analysis::row::{self, chunker_for, embedding_cost, semantic_chunker};
use chunk_core::analysis::snippet::snippet_for;
use chunk_core::analysis::{summary_prepared_reading, LimitCheck};
use chunk_core::models::ModelRef;
use chunk_core::retrieval::{
    check_span, evaluate_dense, evaluate_prepared, sweep_cell, sweep_cell_chunks, sweep_cell_dense,
    DenseModel, DocumentTerms, EvalOptions, QaPair, Retriever, Sweep, SweepCell, SweepCheck,
    SweepVectors, Vectors,
};
use chunk_core::strategy::semantic::{Curve, Vectors as TextVectors};
use chunk_core::strategy::{
    run_prepared, Boundary, Chunker, Chunks, Document, Settings, StrategyError, StrategyId,
};
use chunk_core::tokenizer::open::{OpenTokenizer, OpenVocab};
use chunk_core::tokenizer::Encoding;
use chunk_core::Lang;

pub mod worker;

pub use worker::{Effect, Worker};

self_cell::self_cell!(
    /// The text and its [`Document`] (tokenized once, with its sentences), kept together so
    /// that every row of every job on the same text and encoding shares one encode.
    struct Prepared {
        owner: Arc<str>,
        #[covariant]
        dependent: Document,
    }
);

/// A selection's chunks and each one's tokens as the embedding model reads it (empty without
/// a model).
type SelectedChunks = (Chunks, Vec<usize>);

/// The most bytes of embeddings (and their texts) an engine keeps, 256 MiB: past it the cache
/// is emptied and filled again, so that a dense sweep of a long text cannot exhaust the
/// worker's memory (a wasm32 instance has 4 GiB at most; a 1 MB text cut at 64 tokens is
/// about 4,000 chunks a setting, 1 KB of vector each with potion-base-8M).
pub const VECTOR_CACHE_BYTES: usize = 256 << 20;

/// The embeddings an engine holds, by model and exact text (looked up by `&str`, without
/// building a key), and what they cost in bytes ([`cached_bytes`]) against
/// [`VECTOR_CACHE_BYTES`].
/// One table per model, shared with the semantic strategies that read it (`Arc`: a row's
/// chunker holds it while it cuts; new vectors arrive between rows).
#[derive(Default)]
struct VectorCache {
    by_model: HashMap<DenseModel, Arc<TextVectors>>,
    bytes: usize,
}

impl VectorCache {
    /// The embedding of `text` by `model`, when held.
    fn get(&self, model: DenseModel, text: &str) -> Option<&[f32]> {
        self.by_model.get(&model)?.get(text)
    }

    /// The embeddings of every text of `texts`, in order; `None` unless all are held.
    fn all(&self, model: DenseModel, texts: &[String]) -> Option<Vec<Vec<f32>>> {
        texts
            .iter()
            .map(|t| self.get(model, t).map(<[f32]>::to_vec))
            .collect()
    }

    /// Every embedding held of `model`, for a semantic strategy to read.
    fn of(&self, model: DenseModel) -> Arc<TextVectors> {
        self.by_model.get(&model).cloned().unwrap_or_default()
    }

    /// Every embedding held of the figures' semantic model ([`Figures::embedder`]); `None`
    /// without one (no strategy then reads vectors).
    fn for_figures(&self, figures: &Figures) -> Option<Arc<TextVectors>> {
        figures.embedder.map(|m| self.of(m))
    }
}

/// What one cached embedding costs: its text and its `dim` values.
fn cached_bytes(text: &str, dim: usize) -> usize {
    text.len() + 4 * dim
}

/// A retrieval row's cut: its job, text and strategy.
type CutKey = (u32, u32, StrategyId);

/// The worker's state: the text it holds, its prepared documents and the chunks of the last
/// selection.
#[derive(Default)]
pub struct Engine {
    /// `(text_id, text)` of the document the page last sent.
    text: Option<(u32, Arc<str>)>,
    /// Where the text's pages start, when it was read from a PDF.
    pages: Option<PageMap>,
    /// The text prepared per encoding (at most one per encoding, of the current text).
    prepared: Vec<Prepared>,
    /// The last [`Request::Select`]: its job and the chunks it cut with each one's tokens as
    /// the model reads it (empty without a model); `None` when refused.
    selected: Option<(u32, Option<SelectedChunks>)>,
    /// The current text's terms in the language last asked for (retrieval and sweeps).
    terms: Option<DocumentTerms>,
    /// The sweep in progress: its job and the settings evaluated so far, in grid order.
    sweeping: Option<(u32, Vec<SweepCell>)>,
    /// The open vocabularies this engine has loaded (each file is fetched once per worker);
    /// their tokenizers are installed for the process ([`OpenTokenizer::install`]), where
    /// chunks sized in a model's tokens find them.
    open: Vec<OpenVocab>,
    /// Every embedding received, by model and exact text, kept for the worker's life: a chunk
    /// text that comes again (another strategy, retriever or setting cutting the same text)
    /// is embedded once.
    vectors: VectorCache,
    /// The chunks of the last retrieval row cut: its job, text and strategy, so that the rows
    /// of the same strategy with other retrievers (and the embeddings' request before them)
    /// cut once.
    last_cut: Option<(CutKey, Result<Chunks, Refusal>)>,
}

impl Engine {
    /// Holds `text` as document `text_id`, with its pages when it was read from a PDF,
    /// replacing the previous one (and its selection) unless it is that same text under the
    /// same id.
    pub fn set_text(&mut self, text_id: u32, text: String, pages: Option<PageMap>) {
        // The same text sent again (after a lost-text reply) keeps its prepared documents and
        // the selection.
        if self
            .text
            .as_ref()
            .is_some_and(|(id, t)| *id == text_id && **t == *text)
        {
            return;
        }
        self.text = Some((text_id, Arc::from(text)));
        self.pages = pages;
        self.prepared.clear();
        self.selected = None;
        self.terms = None;
        self.sweeping = None;
    }

    /// Prepares text `text_id` with `encoding` and its terms in `lang`; the index of the
    /// prepared document in `prepared`, `None` when the text is not held.
    fn prepare(&mut self, text_id: u32, encoding: Encoding, lang: Lang) -> Option<usize> {
        self.document(text_id, encoding)?;
        let at = self
            .prepared
            .iter()
            .position(|p| p.borrow_dependent().encoding() == encoding)?;
        if !self.terms.as_ref().is_some_and(|t| t.lang() == lang) {
            let text = self.prepared[at].borrow_owner();
            self.terms = Some(DocumentTerms::new(text, lang));
        }
        Some(at)
    }

    /// The index in `prepared` of the text prepared with `encoding` if it is `text_id`
    /// (preparing it on first use).
    fn prepared_index(&mut self, text_id: u32, encoding: Encoding) -> Option<usize> {
        let text = match &self.text {
            Some((id, t)) if *id == text_id => t.clone(),
            _ => return None,
        };
        let at = match self
            .prepared
            .iter()
            .position(|p| p.borrow_dependent().encoding() == encoding)
        {
            Some(at) => at,
            None => {
                self.prepared
                    .push(Prepared::new(text, |t| Document::new(t, encoding)));
                self.prepared.len() - 1
            }
        };
        Some(at)
    }

    /// The text prepared with `encoding` if it is `text_id` (preparing it on first use).
    fn document(&mut self, text_id: u32, encoding: Encoding) -> Option<&Document<'_>> {
        let at = self.prepared_index(text_id, encoding)?;
        Some(self.prepared[at].borrow_dependent())
    }

    /// The number of steps of a request answered step by step: the rows of a `compare` (one
    /// per strategy) or a `retrieval` (one per strategy and retriever), the settings of a `sweep` (at least 1, so that an empty
    /// grid is answered with [`Reply::Failed`]); 0 for any other request.
    pub fn rows_in(request: &Request) -> usize {
        match request {
            Request::Compare { strategies, .. } => strategies.len(),
            Request::Retrieval {
                strategies,
                retrievers,
                ..
            } => strategies.len() * retrievers.len(),
            Request::Sweep { grid, .. } => grid.len().max(1),
            _ => 0,
        }
    }

    /// Row `index` of a [`Request::Retrieval`] (strategy `index / retrievers`, retriever
    /// `index % retrievers`): [`Reply::RetrievalRow`] with the strategy's retrieval check by
    /// that retriever (BM25: equal to [`chunk_core::retrieval::evaluate()`] of its chunks; dense
    /// and hybrid: [`evaluate_dense`] with the embeddings held) or its refusal;
    /// [`Reply::NeedText`] when the text is not held; [`Reply::Failed`] for another request,
    /// an index past the end, BM25 parameters out of range, `k` = 0, an answer span that does
    /// not fit the text, or a dense row whose embeddings are not all held (ask
    /// [`Engine::vectors_needed`] first). `clock` gives milliseconds.
    pub fn retrieval_row(
        &mut self,
        request: &Request,
        index: usize,
        clock: impl Fn() -> f64,
    ) -> Reply {
        let Request::Retrieval {
            job,
            pairs,
            bm25,
            lang,
            k,
            dense_model,
            ..
        } = request
        else {
            return failed(
                Some(request.job()),
                "retrieval_row takes a retrieval request",
            );
        };
        let Some((strategy, retriever)) = retrieval_cell(request, index) else {
            return failed(Some(*job), "row index past the strategies");
        };
        let started = clock();
        let Some(chunks) = self.retrieval_chunks(request, strategy) else {
            return Reply::NeedText { job: *job };
        };
        let at = self
            .prepared_at(request)
            .expect("retrieval_chunks prepared it");
        let document = self.prepared[at].borrow_dependent();
        let options = match checked(document.text(), pairs, *bm25, *lang, *k) {
            Ok(options) => options,
            Err(message) => return failed(Some(*job), &message),
        };
        let terms = self.terms.as_ref().expect("prepared");
        let evaluated = match chunks {
            Err(refusal) => Ok(RetrievalOutcome::Refused { refusal }),
            Ok(chunks) => {
                let e = if retriever == Retriever::Bm25 {
                    Ok(evaluate_prepared(
                        document.text(),
                        terms,
                        &chunks,
                        pairs,
                        &options,
                    ))
                } else {
                    let texts = embedded_texts(document.text(), &chunks, pairs, *dense_model);
                    let held = self.vectors.all(*dense_model, &texts);
                    match held {
                        None => Err("the embeddings of this row are not all held".to_owned()),
                        Some(held) => {
                            let (chunk_vectors, question_vectors) =
                                held.split_at(chunks.chunks.len());
                            evaluate_dense(
                                document.text(),
                                terms,
                                &chunks,
                                pairs,
                                &options,
                                Vectors {
                                    retriever,
                                    chunks: chunk_vectors,
                                    questions: question_vectors,
                                },
                            )
                            .map_err(|e| e.to_string())
                        }
                    }
                };
                e.map(|e| RetrievalOutcome::Evaluated {
                    chunks: e.chunks,
                    tokens_embedded: e.tokens_embedded,
                    pairs: e.pairs.iter().map(RetrievalPair::from).collect(),
                    aggregate: e.aggregate,
                })
            }
        };
        match evaluated {
            Ok(outcome) => Reply::RetrievalRow {
                job: *job,
                strategy,
                retriever,
                outcome,
                millis: clock() - started,
            },
            Err(message) => failed(Some(*job), &message),
        }
    }

    /// The texts row `index` of a [`Request::Retrieval`] (or setting `index` of a
    /// [`Request::Sweep`]) must have embeddings of and the engine does not hold, each once, in
    /// first-use order (the chunks' own texts, then the questions with the model's query
    /// prefix); `None` for a BM25 row or sweep, a refused cut, a row that cannot run (it
    /// answers for itself) or when every embedding is held.
    pub fn vectors_needed(&mut self, request: &Request, index: usize) -> Option<Vec<String>> {
        let (chunks, text, pairs, dense_model) = match request {
            Request::Retrieval {
                pairs, dense_model, ..
            } => {
                let (strategy, retriever) = retrieval_cell(request, index)?;
                if retriever == Retriever::Bm25 {
                    return None;
                }
                let chunks = self.retrieval_chunks(request, strategy)?.ok()?;
                let at = self.prepared_at(request)?;
                (
                    chunks,
                    self.prepared[at].borrow_owner().clone(),
                    pairs,
                    dense_model,
                )
            }
            Request::Sweep {
                text_id,
                pairs,
                strategy,
                grid,
                figures,
                lang,
                retriever,
                dense_model,
                ..
            } => {
                if !retriever.needs_vectors() {
                    return None;
                }
                let setting = grid.setting(index)?;
                let at = self.prepare(*text_id, figures.settings.encoding, *lang)?;
                let document = self.prepared[at].borrow_dependent();
                let build = |s: &Settings| build_at(*strategy, figures, s, &self.vectors);
                let chunks = sweep_cell_chunks(document, &build, setting, grid.unit).ok()?;
                (
                    chunks,
                    self.prepared[at].borrow_owner().clone(),
                    pairs,
                    dense_model,
                )
            }
            _ => return None,
        };
        let mut seen = std::collections::HashSet::new();
        let missing: Vec<String> = embedded_texts(&text, &chunks, pairs, *dense_model)
            .into_iter()
            .filter(|t| self.vectors.get(*dense_model, t).is_none())
            .filter(|t| seen.insert(t.clone()))
            .collect();
        (!missing.is_empty()).then_some(missing)
    }

    /// The texts a semantic row must have embeddings of before it cuts, and the model: row
    /// `index` of a [`Request::Compare`] or [`Request::Retrieval`], or the strategy of a
    /// [`Request::Select`], when it is a
    /// semantic strategy with [`Figures::embedder`] set, on the text held; each text once, those
    /// not held yet. `None` for any other row, a refused setting, a text not held (the row
    /// answers [`Reply::NeedText`] itself) or when every embedding is held.
    pub fn semantic_needed(
        &self,
        request: &Request,
        index: usize,
    ) -> Option<(DenseModel, Vec<String>)> {
        let (text_id, strategy, figures) = match request {
            Request::Compare {
                text_id,
                strategies,
                figures,
                ..
            } => (*text_id, *strategies.get(index)?, figures),
            Request::Select {
                text_id,
                strategy,
                figures,
                ..
            } => (*text_id, *strategy, figures),
            Request::Retrieval {
                text_id, figures, ..
            } => (*text_id, retrieval_cell(request, index)?.0, figures),
            _ => return None,
        };
        self.semantic_missing(text_id, &[strategy], figures)
    }

    /// What every semantic row of a [`Request::Compare`] or [`Request::Retrieval`] needs
    /// embedded ([`Engine::semantic_needed`] of all its rows at once, each text once), so that
    /// the embedding worker can work on them while the other rows are cut; for a
    /// [`Request::Sweep`] of a semantic strategy, what every setting reads (the texts do not
    /// depend on the size). `None` for another request, without semantic rows, or when every
    /// embedding is held.
    pub fn semantic_prefetch(&self, request: &Request) -> Option<(DenseModel, Vec<String>)> {
        match request {
            Request::Compare {
                text_id,
                strategies,
                figures,
                ..
            }
            | Request::Retrieval {
                text_id,
                strategies,
                figures,
                ..
            } => self.semantic_missing(*text_id, strategies, figures),
            Request::Sweep {
                text_id,
                strategy,
                figures,
                ..
            } => self.semantic_missing(*text_id, std::slice::from_ref(strategy), figures),
            _ => None,
        }
    }

    /// The texts the semantic strategies among `strategies` embed on text `text_id` (held)
    /// that have no vector by `figures`' model yet, each once, in order; `None` when there are
    /// none.
    fn semantic_missing(
        &self,
        text_id: u32,
        strategies: &[StrategyId],
        figures: &Figures,
    ) -> Option<(DenseModel, Vec<String>)> {
        let model = figures.embedder?;
        let (held_id, text) = self.text.as_ref()?;
        if *held_id != text_id {
            return None;
        }
        let mut seen = HashSet::new();
        let mut missing = Vec::new();
        for &strategy in strategies {
            let Some(Ok(chunker)) = semantic_chunker(strategy, figures) else {
                continue;
            };
            let Ok(texts) = chunker.embedding_texts(text) else {
                continue;
            };
            for t in texts {
                if self.vectors.get(model, &t).is_none() && !seen.contains(&t) {
                    seen.insert(t.clone());
                    missing.push(t);
                }
            }
        }
        (!missing.is_empty()).then_some((model, missing))
    }

    /// Keeps the embeddings of `texts` by `model` (one vector per text, in order), for every
    /// later row, within [`VECTOR_CACHE_BYTES`] (the cache is emptied first when they would
    /// not fit). Errors (nothing kept) when the counts differ or a vector is empty or has
    /// another length than the first.
    pub fn store_vectors(
        &mut self,
        model: DenseModel,
        texts: Vec<String>,
        vectors: Vec<Vec<f32>>,
    ) -> Result<(), String> {
        if texts.len() != vectors.len() {
            return Err(format!(
                "{} embeddings for {} texts",
                vectors.len(),
                texts.len()
            ));
        }
        let dim = vectors.first().map_or(0, Vec::len);
        if vectors.iter().any(|v| v.is_empty() || v.len() != dim) {
            return Err("the embeddings differ in length".to_owned());
        }
        let adding: usize = texts.iter().map(|t| cached_bytes(t, dim)).sum();
        if self.vectors.bytes + adding > VECTOR_CACHE_BYTES {
            // Over the budget: start again rather than grow without bound (a dense sweep of
            // a long text holds hundreds of thousands of chunk texts).
            self.vectors = VectorCache::default();
        }
        let held = Arc::make_mut(self.vectors.by_model.entry(model).or_default());
        for (text, vector) in texts.into_iter().zip(vectors) {
            if held.get(&text).is_none() {
                self.vectors.bytes += cached_bytes(&text, dim);
                held.insert(text, vector);
            }
        }
        Ok(())
    }

    /// The text of `request` prepared in its encoding and language, its index in
    /// `self.prepared`; `None` when the text is not held.
    fn prepared_at(&mut self, request: &Request) -> Option<usize> {
        let Request::Retrieval {
            text_id,
            figures,
            lang,
            ..
        } = request
        else {
            return None;
        };
        self.prepare(*text_id, figures.settings.encoding, *lang)
    }

    /// The chunks of `strategy` for retrieval `request`, cut once per job and strategy;
    /// `None` when the text is not held (or `request` is not a retrieval).
    fn retrieval_chunks(
        &mut self,
        request: &Request,
        strategy: StrategyId,
    ) -> Option<Result<Chunks, Refusal>> {
        let Request::Retrieval {
            job,
            text_id,
            figures,
            ..
        } = request
        else {
            return None;
        };
        let at = self.prepared_at(request)?;
        let key = (*job, *text_id, strategy);
        match &self.last_cut {
            Some((k, chunks)) if *k == key => Some(chunks.clone()),
            _ => {
                let chunks = cut(
                    strategy,
                    self.prepared[at].borrow_dependent(),
                    figures,
                    &self.vectors,
                );
                self.last_cut = Some((key, chunks.clone()));
                Some(chunks)
            }
        }
    }

    /// Setting `index` of a [`Request::Sweep`] (grid order: size by size, each overlap in
    /// turn; [`chunk_core::retrieval::sweep_cell`]). Settings must come in order, from 0; index
    /// 0 starts the job afresh (dropping the cells of any other). Which sweep runs is the
    /// [`Worker`]'s decision (a newer sweep or a cancel stops an older one); the engine only
    /// holds one sweep's cells. Returns
    /// [`Reply::SweepProgress`] after every [`SWEEP_PROGRESS_EVERY`] settings and `None` after
    /// the others, [`Reply::Swept`] (equal to [`chunk_core::retrieval::sweep`]) after the
    /// last; [`Reply::NeedText`] when the text is not held; [`Reply::Failed`] for another
    /// request, an empty grid, an index out of order, a setting of another job than the sweep in
    /// progress, or the checks of [`Engine::retrieval_row`].
    pub fn sweep_cell(&mut self, request: &Request, index: usize) -> Option<Reply> {
        let Request::Sweep {
            job,
            text_id,
            pairs,
            strategy,
            grid,
            figures,
            bm25,
            lang,
            k,
            retriever,
            dense_model,
        } = request
        else {
            return Some(failed(
                Some(request.job()),
                "sweep_cell takes a sweep request",
            ));
        };
        let job = *job;
        let total = grid.len();
        if total == 0 {
            return Some(failed(Some(job), "the sweep's grid has no setting"));
        }
        if index == 0 {
            self.sweeping = Some((job, Vec::with_capacity(total)));
        }
        match &self.sweeping {
            Some((j, _)) if *j != job => {
                return Some(failed(
                    Some(job),
                    "not the sweep in progress (another one started)",
                ))
            }
            Some((_, cells)) if cells.len() == index && index < total => {}
            Some(_) => return Some(failed(Some(job), "sweep settings out of order")),
            None => return Some(failed(Some(job), "no sweep in progress (cancelled)")),
        }
        let Some(at) = self.prepare(*text_id, figures.settings.encoding, *lang) else {
            return Some(Reply::NeedText { job });
        };
        let document = self.prepared[at].borrow_dependent();
        let options = match checked(document.text(), pairs, *bm25, *lang, *k) {
            Ok(options) => options,
            Err(message) => return Some(failed(Some(job), &message)),
        };
        let terms = self.terms.as_ref().expect("prepared");
        let setting = grid.setting(index).expect("index < total, checked above");
        let limit = limit_check(&self.open, figures);
        let check = SweepCheck {
            pairs,
            options: &options,
            limit: &limit,
        };
        let build = |s: &Settings| build_at(*strategy, figures, s, &self.vectors);
        let cell = if retriever.needs_vectors() {
            let vectors = &self.vectors;
            let queries: Vec<String> = pairs
                .iter()
                .map(|p| dense_model.query(&p.question))
                .collect();
            let Some(questions) = vectors.all(*dense_model, &queries) else {
                return Some(failed(Some(job), "the questions' embeddings are not held"));
            };
            let lookup = |text: &str| vectors.get(*dense_model, text).map(<[f32]>::to_vec);
            let dense = SweepVectors {
                retriever: *retriever,
                questions: &questions,
                chunk: &lookup,
            };
            match sweep_cell_dense(document, terms, &build, setting, grid.unit, &check, &dense) {
                Ok(cell) => cell,
                Err(e) => return Some(failed(Some(job), &e.to_string())),
            }
        } else {
            sweep_cell(document, terms, &build, setting, grid.unit, &check)
        };
        let (_, cells) = self.sweeping.as_mut().expect("checked above");
        cells.push(cell);
        let done = cells.len();
        if done == total {
            let (_, cells) = self.sweeping.take().expect("checked above");
            return Some(Reply::Swept {
                job,
                sweep: Box::new(Sweep::new(
                    *strategy,
                    grid.clone(),
                    options.k,
                    cells,
                    &limit,
                )),
            });
        }
        (done % SWEEP_PROGRESS_EVERY == 0).then_some(Reply::SweepProgress { job, done, total })
    }

    /// Row `index` of a [`Request::Compare`]: [`Reply::Row`], [`Reply::NeedText`] when the text
    /// is not held, [`Reply::Failed`] for another request or an index past the end.
    /// `clock` gives milliseconds (the row's wall time is measured with it).
    pub fn compare_row(
        &mut self,
        request: &Request,
        index: usize,
        clock: impl Fn() -> f64,
    ) -> Reply {
        let Request::Compare {
            job,
            text_id,
            lane: _,
            strategies,
            figures,
        } = request
        else {
            return failed(Some(request.job()), "compare_row takes a compare request");
        };
        let Some(&strategy) = strategies.get(index) else {
            return failed(Some(*job), "row index past the strategies");
        };
        let started = clock();
        let Some(at) = self.prepared_index(*text_id, figures.settings.encoding) else {
            return Reply::NeedText { job: *job };
        };
        let document = self.prepared[at].borrow_dependent();
        let limit = limit_check(&self.open, figures);
        let vectors = self.vectors.for_figures(figures);
        let (outcome, _) = row::compare_row(strategy, document, figures, &limit, vectors);
        Reply::Row {
            job: *job,
            strategy,
            outcome,
            millis: clock() - started,
        }
    }

    /// The vocabulary file a request needs and the engine does not hold yet (the worker
    /// script fetches it and calls [`Engine::load_vocab`]); `None` otherwise. An
    /// [`Request::OpenCount`] needs its vocabulary; a [`Request::Compare`],
    /// [`Request::Select`] or [`Request::Sweep`] needs the chosen model's, to check each chunk
    /// against the model's limit with the model's own tokenizer (without it, the sizing
    /// encoding stands in and the figures say so:
    /// [`chunk_core::analysis::LimitBasis::StandIn`]).
    pub fn vocab_needed(&self, request: &Request) -> Option<OpenVocab> {
        let vocab = vocab_of(request)?;
        (!self.open.contains(&vocab)).then_some(vocab)
    }

    /// Reads the bytes of `vocab`'s file and installs the tokenizer for the process.
    ///
    /// # Errors
    /// The file's [`LoadError`], in words.
    pub fn load_vocab(&mut self, vocab: OpenVocab, bytes: &[u8]) -> Result<(), String> {
        if self.open.contains(&vocab) {
            return Ok(());
        }
        OpenTokenizer::load(vocab, bytes)
            .map_err(|e| format!("{}: {e}", vocab.file()))?
            .install();
        self.open.push(vocab);
        Ok(())
    }

    /// Answers [`Request::OpenCount`]: the text's tokens with the loaded tokenizer, timed
    /// with `clock` (milliseconds); [`Reply::NeedText`] when the text is not held,
    /// [`Reply::Failed`] when the vocabulary is not loaded or the request is another.
    pub fn open_count(&self, request: &Request, clock: impl Fn() -> f64) -> Reply {
        let &Request::OpenCount {
            job,
            text_id,
            vocab,
        } = request
        else {
            return failed(
                Some(request.job()),
                "open_count takes an open-count request",
            );
        };
        let text = match &self.text {
            Some((id, t)) if *id == text_id => t.clone(),
            _ => return Reply::NeedText { job },
        };
        let Some(tokenizer) = self.open.contains(&vocab).then(|| vocab.loaded()).flatten() else {
            return failed(Some(job), &format!("{} is not loaded", vocab.file()));
        };
        let started = clock();
        let tokens = tokenizer.count(&text) as u64;
        Reply::OpenCounted {
            job,
            vocab,
            text_id,
            tokens,
            millis: clock() - started,
        }
    }

    /// Answers [`Request::Select`], [`Request::Rows`], [`Request::Export`] and
    /// [`Request::CancelSweep`] (which drops the sweep in progress, so that a setting of it asked
    /// for afterwards is refused).
    pub fn handle(&mut self, request: Request) -> Reply {
        match request {
            Request::Compare { job, .. } => failed(Some(job), "compare goes row by row"),
            Request::Retrieval { job, .. } => failed(Some(job), "retrieval goes row by row"),
            Request::Sweep { job, .. } => failed(Some(job), "a sweep goes setting by setting"),
            Request::CancelSweep { job } => {
                self.sweeping = None;
                Reply::SweepCancelled { job }
            }
            Request::OpenCount { job, .. } => {
                failed(Some(job), "open-count goes through open_count")
            }
            Request::Select {
                job,
                text_id,
                strategy,
                figures,
                bins,
            } => {
                let Some(at) = self.prepared_index(text_id, figures.settings.encoding) else {
                    return Reply::NeedText { job };
                };
                let document = self.prepared[at].borrow_dependent();
                let limit = limit_check(&self.open, &figures);
                // One chunker gives both the parameters it runs with and the chunks.
                let built = build(strategy, &figures, &self.vectors);
                let parameters: Vec<(String, String)> = built
                    .as_ref()
                    .map(|c| {
                        c.parameters()
                            .into_iter()
                            .map(|(k, v)| (k.to_owned(), v))
                            .collect()
                    })
                    .unwrap_or_default();
                // A semantic strategy's one cut also gives its similarity curve.
                let cut = match (semantic_chunker(strategy, &figures), figures.embedder) {
                    (Some(Ok(chunker)), Some(model)) => chunker
                        .with_vectors(self.vectors.of(model))
                        .run_with_curve(document)
                        .map(|(chunks, curve)| (chunks, Some(curve))),
                    _ => built
                        .and_then(|c| run_prepared(c.as_ref(), document))
                        .map(|chunks| (chunks, None)),
                }
                .map_err(|e| Refusal::from(&e));
                let mut curve = None;
                let (outcome, histogram, snippet, chunks) = match cut {
                    Ok((chunks, semantic_curve)) => {
                        curve = semantic_curve;
                        // One count of the chunks with the model's tokenizer serves the
                        // summary and the rows.
                        let (summary, read) = summary_prepared_reading(
                            document,
                            &chunks,
                            &limit,
                            figures.price_per_million,
                        );
                        let read = if figures.model.is_some() {
                            read
                        } else {
                            Vec::new()
                        };
                        (
                            Outcome::Figures {
                                summary,
                                overlap_clamped: chunks.overlap_clamped,
                                overlap_ignored: chunks.overlap_ignored,
                                embedding: embedding_cost(strategy, document, &figures),
                            },
                            // The histogram is of the chunks' sizes in the sizing tokens: its
                            // limit line only where the limit is in those tokens.
                            Some(histogram(&chunks, bins, histogram_limit(&limit))),
                            snippet_for(strategy, &figures.settings, figures.model.map(|m| m.0)),
                            Some((chunks, read)),
                        )
                    }
                    Err(refusal) => (Outcome::Refused { refusal }, None, None, None),
                };
                let layout = chunks.as_ref().map_or_else(Vec::new, |(c, _)| {
                    document_spans(&c.chunks, document.text(), LAYOUT_BYTES)
                });
                let semantic = curve
                    .zip(chunks.as_ref())
                    .map(|(curve, (c, _))| semantic_view(curve, document.text(), c));
                self.selected = Some((job, chunks));
                Reply::Selected(Box::new(Selection {
                    job,
                    strategy,
                    outcome,
                    histogram,
                    snippet,
                    parameters,
                    layout,
                    semantic,
                }))
            }
            Request::Rows { job, from, count } => match self.selection(job) {
                Some((text, Some((chunks, read)))) => {
                    let total = chunks.chunks.len();
                    let from = from.min(total);
                    let end = from.saturating_add(count).min(total);
                    Reply::Rows {
                        job,
                        from,
                        total,
                        rows: rows_of(text, &chunks.chunks[from..end], from, self.pages.as_ref()),
                        model_tokens: read
                            .get(from..end)
                            .map(<[usize]>::to_vec)
                            .unwrap_or_default(),
                        // From the chunk before the page, so that its first row has one too.
                        shared: shared_prefix_bytes(&chunks.chunks[from.saturating_sub(1)..end])
                            .into_iter()
                            .skip(usize::from(from > 0))
                            .collect(),
                    }
                }
                // A refused selection has no chunk: an empty page, not an error.
                Some((_, None)) => Reply::Rows {
                    job,
                    from: 0,
                    total: 0,
                    rows: Vec::new(),
                    model_tokens: Vec::new(),
                    shared: Vec::new(),
                },
                None => failed(Some(job), "no chunks are selected for this job"),
            },
            Request::Export { job, format } => match self.selection(job) {
                Some((text, Some((chunks, _)))) => {
                    let all = rows(text, chunks, self.pages.as_ref());
                    let text = match format {
                        ExportFormat::Jsonl => to_jsonl(&all),
                        ExportFormat::Csv => to_csv(&all),
                    };
                    Reply::Exported { job, format, text }
                }
                _ => failed(Some(job), "no chunks are selected for this job"),
            },
        }
    }

    /// A [`Request::Select`] answered with `refusal` and no chunks (its embeddings could not be
    /// had): [`Reply::Selected`] with [`Outcome::Refused`], and the selection is that job's with
    /// no chunks ([`Request::Rows`] of it answer an empty page). [`Reply::Failed`] for another
    /// request.
    pub fn refuse_selection(&mut self, request: &Request, refusal: Refusal) -> Reply {
        let Request::Select { job, strategy, .. } = request else {
            return failed(
                Some(request.job()),
                "refuse_selection takes a select request",
            );
        };
        self.selected = Some((*job, None));
        Reply::Selected(Box::new(Selection {
            job: *job,
            strategy: *strategy,
            outcome: Outcome::Refused { refusal },
            histogram: None,
            snippet: None,
            parameters: Vec::new(),
            layout: Vec::new(),
            semantic: None,
        }))
    }

    /// The text and the chunks of selection `job` with the model's reading of each, if it is
    /// the current one.
    fn selection(&self, job: u32) -> Option<(&str, Option<&SelectedChunks>)> {
        let (j, chunks) = self.selected.as_ref()?;
        let (_, text) = self.text.as_ref()?;
        (*j == job).then_some((&**text, chunks.as_ref()))
    }
}

/// The strategy and retriever of row `index` of a [`Request::Retrieval`] (rows go strategy
/// by strategy, each with every retriever in the request's order); `None` past the end.
pub(crate) fn retrieval_cell(request: &Request, index: usize) -> Option<(StrategyId, Retriever)> {
    let Request::Retrieval {
        strategies,
        retrievers,
        ..
    } = request
    else {
        return None;
    };
    let n = retrievers.len();
    if n == 0 {
        return None;
    }
    Some((*strategies.get(index / n)?, retrievers[index % n]))
}

/// What a dense retriever embeds for `chunks` and `pairs`: each chunk's own text (what a
/// pipeline sends to the model), in chunk order, then each question after the model's query
/// prefix, in the pairs' order.
fn embedded_texts(
    document: &str,
    chunks: &Chunks,
    pairs: &[QaPair],
    model: DenseModel,
) -> Vec<String> {
    chunks
        .chunks
        .iter()
        .map(|c| c.text(document).into_owned())
        .chain(pairs.iter().map(|p| model.query(&p.question)))
        .collect()
}

/// The chunker of `strategy` at `figures` ([`chunker_for`]), a semantic strategy over the
/// embeddings held of the figures' model.
fn build(
    strategy: StrategyId,
    figures: &Figures,
    vectors: &VectorCache,
) -> Result<Box<dyn Chunker>, StrategyError> {
    chunker_for(strategy, figures, vectors.for_figures(figures))
}

/// `strategy`'s cut of `document` at `figures` ([`row::cut`]).
fn cut(
    strategy: StrategyId,
    document: &Document,
    figures: &Figures,
    vectors: &VectorCache,
) -> Result<Chunks, Refusal> {
    row::cut(strategy, document, figures, vectors.for_figures(figures))
}

/// [`build`] at one sweep setting: `figures` with `settings` (a sweep's chunk_size, overlap and
/// unit).
fn build_at(
    strategy: StrategyId,
    figures: &Figures,
    settings: &Settings,
    vectors: &VectorCache,
) -> Result<Box<dyn Chunker>, StrategyError> {
    let figures = Figures {
        settings: *settings,
        ..*figures
    };
    build(strategy, &figures, vectors)
}

/// The similarity curve of a semantic strategy's cut of `text` (`curve`, `chunks`), with the
/// chunk ends the size forced.
fn semantic_view(curve: Curve, text: &str, chunks: &Chunks) -> SemanticView {
    let size_cuts = chunks
        .chunks
        .iter()
        .filter(|c| !matches!(c.reason, Boundary::TopicShift | Boundary::EndOfText))
        .map(|c| c.bytes.end)
        .collect();
    let topic_cuts = curve
        .points
        .iter()
        .filter(|p| p.cut)
        .map(|p| p.byte)
        .collect();
    SemanticView {
        curve,
        topic_cuts,
        size_cuts,
        text_bytes: text.len(),
    }
}

/// The open vocabulary a request's sizing, model or count is about, loaded or not: the one
/// chunks are sized in ([`SizeUnit::Model`]), else the chosen model's.
fn vocab_of(request: &Request) -> Option<OpenVocab> {
    match request {
        Request::OpenCount { vocab, .. } => Some(*vocab),
        Request::Compare { figures, .. }
        | Request::Select { figures, .. }
        | Request::Retrieval { figures, .. }
        | Request::Sweep { figures, .. } => match figures.settings.unit {
            chunk_core::strategy::SizeUnit::Model(v) => Some(v),
            _ => figures.model?.0.tokenizer.open_vocab(),
        },
        _ => None,
    }
}

/// The limit check of the request's model ([`LimitCheck::for_model`]), its open tokenizer
/// taken from those this engine has loaded.
fn limit_check(open: &[OpenVocab], figures: &Figures) -> LimitCheck<'static> {
    let loaded: Vec<&'static OpenTokenizer> = open.iter().filter_map(|v| v.loaded()).collect();
    match figures.model {
        Some(ModelRef(model)) => LimitCheck::for_model(model, figures.settings.encoding, &loaded),
        None => LimitCheck::within(usize::MAX),
    }
}

/// The limit line of the chunk-size histogram, which is in the sizing tokens: the model's
/// limit less what it adds where the chunks' own counts are the model's, else none (a line in
/// another tokenizer's units would mislead).
fn histogram_limit(limit: &LimitCheck<'_>) -> usize {
    if limit.counter.is_none() {
        limit.max_input_tokens.saturating_sub(limit.added_tokens)
    } else {
        usize::MAX
    }
}

/// The evaluation options of a retrieval or sweep request, every input checked: BM25's
/// parameters, `k` ≥ 1, every answer span a non-empty char-boundary range of `text`.
fn checked(
    text: &str,
    pairs: &[QaPair],
    bm25: Bm25Setting,
    lang: Lang,
    k: usize,
) -> Result<EvalOptions, String> {
    let bm25 = bm25.params().map_err(|e| format!("BM25: {e}"))?;
    if k == 0 {
        return Err("k must be at least 1".to_owned());
    }
    for (i, pair) in pairs.iter().enumerate() {
        check_span(text, pair.answer.start, pair.answer.end)
            .map_err(|e| format!("pair {}: {e}", i + 1))?;
    }
    Ok(EvalOptions { lang, bm25, k })
}

fn failed(job: Option<u32>, message: &str) -> Reply {
    Reply::Failed {
        job,
        message: message.to_owned(),
    }
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use super::worker::{Effect, Worker};
    use super::PageMap;
    use chunk_core::analysis::protocol::{Reply, Request};
    use serde::Serialize;
    use std::cell::RefCell;
    use std::sync::Mutex;
    use wasm_bindgen::prelude::*;

    thread_local! {
        static WORKER: RefCell<Worker> = RefCell::new(Worker::default());
    }

    /// The message of the last panic, kept by the hook [`start`] installs.
    static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

    /// Installs a panic hook that keeps the panic's message for [`last_panic`] (the trap that
    /// follows carries none).
    #[wasm_bindgen(start)]
    fn start() {
        std::panic::set_hook(Box::new(|info| {
            let mut last = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
            *last = Some(info.to_string());
        }));
    }

    /// The message of the last panic in this instance, if any.
    #[wasm_bindgen]
    pub fn last_panic() -> Option<String> {
        LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Holds `bytes` (UTF-8) as document `text_id`; `pages`, for a text read from a PDF,
    /// holds the byte offset where each page starts (non-decreasing; [`PageMap`]).
    ///
    /// # Errors
    /// A JS `Error` when the bytes are not UTF-8 (a JS string encoded by `TextEncoder` always
    /// is), or when `pages` is given but is not such a list.
    #[wasm_bindgen]
    pub fn set_text(text_id: u32, bytes: Vec<u8>, pages: Option<Vec<u32>>) -> Result<(), JsError> {
        let text = String::from_utf8(bytes)
            .map_err(|e| JsError::new(&format!("the text is not UTF-8: {e}")))?;
        let pages = match pages {
            None => None,
            Some(starts) => Some(
                PageMap::new(starts.into_iter().map(|s| s as usize).collect())
                    .ok_or_else(|| JsError::new("the page starts are empty or decrease"))?,
            ),
        };
        WORKER.with(|w| w.borrow_mut().set_text(text_id, text, pages));
        Ok(())
    }

    /// Takes a request of `chunk_core::analysis::protocol` as the page sent it
    /// ([`Worker::receive`]); one that cannot be read is answered with a `failed` reply
    /// (`job: null`) by the next effect.
    #[wasm_bindgen]
    pub fn receive(request: JsValue) {
        let read: Result<Request, _> = serde_wasm_bindgen::from_value(request);
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            match read {
                Ok(request) => w.receive(request),
                Err(e) => w.post(Reply::Failed {
                    job: None,
                    message: format!("unreadable request: {e}"),
                }),
            }
        });
    }

    /// The next effect ([`Worker::next`]) as a plain object: `{effect: "post", reply}` (post
    /// `reply` to the page), `{effect: "fetch", file}` (fetch `file`, relative to the page's
    /// folder, then call [`vocab_fetched`] or [`vocab_failed`]), `{effect: "embed", batch,
    /// model, texts}` (ask the embedding worker, then call [`vectors_fetched`] or
    /// [`vectors_failed`] with `batch`), `{effect: "yield"}` (return to the event loop, then
    /// call again); `null` when nothing is left until a message, a file or embeddings arrive.
    #[wasm_bindgen]
    pub fn next() -> JsValue {
        let effect = WORKER.with(|w| w.borrow_mut().next(js_sys::Date::now));
        let wire = match &effect {
            None => return JsValue::NULL,
            Some(Effect::Post(reply)) => Wire::Post { reply },
            Some(Effect::Fetch(vocab)) => Wire::Fetch { file: vocab.file() },
            Some(Effect::Yield) => Wire::Yield,
            Some(Effect::Embed {
                batch,
                model,
                texts,
            }) => Wire::Embed {
                batch: *batch,
                model: model.id(),
                texts,
            },
        };
        write(&wire)
    }

    /// The embeddings of `{effect: "embed", batch}`: `vectors` holds one vector of `dim`
    /// values per text, back to back ([`Worker::vectors_arrived`]); a length that is not
    /// `texts × dim` fails the batch.
    #[wasm_bindgen]
    pub fn vectors_fetched(batch: u32, vectors: Vec<f32>, dim: usize) {
        let rows = if dim == 0 || !vectors.len().is_multiple_of(dim) {
            Err(format!(
                "{} values do not make vectors of {dim}",
                vectors.len()
            ))
        } else {
            Ok(vectors.chunks_exact(dim).map(<[f32]>::to_vec).collect())
        };
        WORKER.with(|w| w.borrow_mut().vectors_arrived(batch, rows));
    }

    /// The embeddings of `batch` could not be had (`message`, English, as the page reports it).
    #[wasm_bindgen]
    pub fn vectors_failed(batch: u32, message: String) {
        WORKER.with(|w| w.borrow_mut().vectors_arrived(batch, Err(message)));
    }

    /// The batches of superseded jobs ([`Worker::take_cancelled`]): the script posts
    /// `{cancel: batch}` on the embedding port for each, once.
    #[wasm_bindgen]
    pub fn cancelled_batches() -> Vec<u32> {
        WORKER.with(|w| w.borrow_mut().take_cancelled())
    }

    /// The batches asked for and not answered ([`Worker::embedding_batches`]): the script fails
    /// them when the embedding worker is stopped.
    #[wasm_bindgen]
    pub fn embedding_batches() -> Vec<u32> {
        WORKER.with(|w| w.borrow().embedding_batches())
    }

    /// The bytes of `file`, fetched for a `{effect: "fetch", file}` ([`Worker::vocab_arrived`]).
    #[wasm_bindgen]
    pub fn vocab_fetched(file: &str, bytes: Vec<u8>) {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            if let Some(vocab) = w.fetching(file) {
                w.vocab_arrived(vocab, Ok(&bytes));
            }
        });
    }

    /// The fetch of `file` failed with `message` (English, as the page reports it).
    #[wasm_bindgen]
    pub fn vocab_failed(file: &str, message: String) {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            if let Some(vocab) = w.fetching(file) {
                w.vocab_arrived(vocab, Err(message));
            }
        });
    }

    /// An [`Effect`] as the script reads it.
    #[derive(Serialize)]
    #[serde(tag = "effect", rename_all = "kebab-case")]
    enum Wire<'a> {
        Post {
            reply: &'a Reply,
        },
        Fetch {
            file: &'a str,
        },
        Embed {
            batch: u32,
            model: &'a str,
            texts: &'a [String],
        },
        Yield,
    }

    /// `value` as a JS value; a value that cannot be written becomes a posted `failed` reply
    /// (never `null`, which the script reads as "nothing to do": the job would stall).
    fn write(value: &impl Serialize) -> JsValue {
        let serializer = serde_wasm_bindgen::Serializer::json_compatible();
        value.serialize(&serializer).unwrap_or_else(|e| {
            let failed = Reply::Failed {
                job: None,
                message: format!("compare worker: unwritable reply: {e}"),
            };
            Wire::Post { reply: &failed }
                .serialize(&serializer)
                .unwrap_or(JsValue::UNDEFINED)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::analysis::protocol::{Figures, Lane};
    use chunk_core::analysis::{summary, LimitBasis};
    use chunk_core::strategy::chunker;
    use chunk_core::strategy::{run, Settings, SizeUnit};
    use chunk_core::tokenizer::Encoding;

    /// The BERT uncased vocabulary file the page serves (`crates/chunk-core/vocab/`).
    fn bert_vocabulary() -> Vec<u8> {
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../chunk-core/vocab/bert-base-uncased.txt"
        ))
        .expect("the vocabulary")
    }

    /// Words WordPiece cuts finer than cl100k_base: 500 cl100k tokens of them are over 510
    /// word pieces.
    const WORDY: &str = "Antidisestablishmentarianism characterises unprecedented tokenisation. ";

    /// An open-count: the vocabulary is asked for once, a bad file is refused in words, and
    /// the count is the core tokenizer's on the held text.
    #[test]
    fn open_count_loads_the_vocabulary_once_and_counts_the_held_text() {
        use chunk_core::tokenizer::open::{OpenTokenizer, OpenVocab};
        let bytes = bert_vocabulary();
        let mut engine = Engine::default();
        let request = Request::OpenCount {
            job: 3,
            text_id: 1,
            vocab: OpenVocab::BertUncased,
        };
        assert_eq!(
            engine.open_count(&request, || 0.0),
            Reply::NeedText { job: 3 }
        );
        engine.set_text(1, TEXT.to_string(), None);
        assert_eq!(engine.vocab_needed(&request), Some(OpenVocab::BertUncased));
        assert!(matches!(
            engine.open_count(&request, || 0.0),
            Reply::Failed { job: Some(3), .. }
        ));
        let refused = engine
            .load_vocab(OpenVocab::BertUncased, b"\xff\xfe")
            .unwrap_err();
        assert!(refused.contains("not UTF-8"), "{refused}");
        engine
            .load_vocab(OpenVocab::BertUncased, &bytes)
            .expect("loads");
        assert_eq!(engine.vocab_needed(&request), None);
        let expected = OpenTokenizer::load(OpenVocab::BertUncased, &bytes)
            .unwrap()
            .count(TEXT) as u64;
        assert!(expected > 10);
        match engine.open_count(&request, || 0.0) {
            Reply::OpenCounted {
                job: 3,
                text_id: 1,
                tokens,
                ..
            } => assert_eq!(tokens, expected),
            other => panic!("{other:?}"),
        }
    }

    /// Chunks sized in a model's own tokens: a comparison or retrieval request asks for that
    /// vocabulary even without a model chosen; once loaded, the row is the strategy sized in
    /// it, and the selection's snippet loads the chosen model's tokenizer.
    #[test]
    fn requests_sized_in_model_tokens_ask_for_the_vocabulary_and_size_with_it() {
        use chunk_core::models::model;
        use chunk_core::strategy::{chunker, run};
        use chunk_core::tokenizer::open::OpenVocab;
        let bert = SizeUnit::Model(OpenVocab::BertUncased);
        let text = WORDY.repeat(40);
        let mut e = Engine::default();
        e.set_text(1, text.clone(), None);
        let request = Request::Compare {
            job: 1,
            lane: Lane::Table,
            text_id: 1,
            strategies: vec![StrategyId::LangchainRecursive, StrategyId::Fixed],
            figures: figures(64, 8, bert),
        };
        assert_eq!(e.vocab_needed(&request), Some(OpenVocab::BertUncased));
        e.load_vocab(OpenVocab::BertUncased, &bert_vocabulary())
            .expect("loads");
        assert_eq!(e.vocab_needed(&request), None);
        let expected = chunker(
            StrategyId::LangchainRecursive,
            &figures(64, 8, bert).settings,
        )
        .and_then(|c| run(c.as_ref(), &text, Encoding::Cl100kBase))
        .expect("chunks");
        match e.compare_row(&request, 0, || 0.0) {
            Reply::Row {
                outcome: Outcome::Figures { summary, .. },
                ..
            } => {
                assert_eq!(summary.chunks, expected.chunks.len());
                assert_eq!(summary.total_tokens, expected.total_tokens());
            }
            other => panic!("{other:?}"),
        }
        match e.compare_row(&request, 1, || 0.0) {
            Reply::Row {
                outcome: Outcome::Refused { refusal },
                ..
            } => assert_eq!(refusal.kind, "unit-unsupported"),
            other => panic!("{other:?}"),
        }
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let retrieval = Request::Retrieval {
            job: 2,
            text_id: 1,
            pairs: Vec::new(),
            strategies: vec![StrategyId::LangchainRecursive],
            figures: figures(64, 8, bert),
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 3,
            retrievers: vec![Retriever::Bm25],
            dense_model: DenseModel::default(),
        };
        assert_eq!(vocab_of(&retrieval), Some(OpenVocab::BertUncased));
        let select = Request::Select {
            job: 3,
            text_id: 1,
            strategy: StrategyId::LangchainRecursive,
            figures: Figures {
                model: Some(ModelRef(bge)),
                ..figures(64, 8, bert)
            },
            bins: 8,
        };
        let snippet = match e.handle(select) {
            Reply::Selected(selected) => selected.snippet.expect("a snippet"),
            other => panic!("{other:?}"),
        };
        assert!(
            snippet
                .code
                .contains("Tokenizer.from_pretrained(\"BAAI/bge-small-en-v1.5\")"),
            "{}",
            snippet.code
        );
    }

    /// With an open model chosen, every row counts each chunk as the model reads it: its own
    /// WordPiece tokens plus `[CLS]` and `[SEP]`, against its 512-token limit; before the
    /// vocabulary is loaded the sizing encoding stands in, and the row says so.
    #[test]
    fn the_model_limit_is_checked_with_the_models_own_tokenizer() {
        use chunk_core::models::model;
        use chunk_core::tokenizer::open::{OpenTokenizer, OpenVocab};
        let bytes = bert_vocabulary();
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let text = WORDY.repeat(200);
        let mut e = Engine::default();
        e.set_text(1, text.clone(), None);
        let f = Figures {
            model: Some(ModelRef(bge)),
            ..figures(500, 0, SizeUnit::Tokens)
        };
        let request = Request::Compare {
            job: 1,
            lane: Lane::Table,
            text_id: 1,
            strategies: vec![StrategyId::Fixed],
            figures: f,
        };
        assert_eq!(e.vocab_needed(&request), Some(OpenVocab::BertUncased));
        let row = |e: &mut Engine| match e.compare_row(&request, 0, || 0.0) {
            Reply::Row {
                outcome: Outcome::Figures { summary, .. },
                ..
            } => summary,
            other => panic!("{other:?}"),
        };
        let before = row(&mut e);
        assert_eq!(
            before.limit_basis,
            LimitBasis::StandIn(Encoding::Cl100kBase)
        );
        assert_eq!(
            before.over_limit, 0,
            "500 + 2 ≤ 512 in the stand-in's tokens"
        );
        e.load_vocab(OpenVocab::BertUncased, &bytes).expect("loads");
        assert_eq!(e.vocab_needed(&request), None);
        let after = row(&mut e);
        assert_eq!(after.limit_basis, LimitBasis::Own);
        // The oracle: each fixed window re-counted with the WordPiece tokenizer, plus 2.
        let wordpiece = OpenTokenizer::load(OpenVocab::BertUncased, &bytes).unwrap();
        let chunks = run(
            chunker(StrategyId::Fixed, &f.settings).unwrap().as_ref(),
            &text,
            Encoding::Cl100kBase,
        )
        .unwrap();
        let read: Vec<usize> = chunks
            .chunks
            .iter()
            .map(|c| wordpiece.count(&c.text(&text)) + 2)
            .collect();
        let over = read.iter().filter(|&&n| n > 512).count();
        assert!(over > 0, "the text must make the model truncate: {read:?}");
        assert_eq!(after.over_limit, over);
        assert_eq!(after.max_input_tokens, 512);
        assert_eq!(after.model_max_tokens, *read.iter().max().unwrap());
        assert_eq!(
            after.truncated_tokens,
            read.iter().map(|&n| n.saturating_sub(512)).sum::<usize>()
        );
        // The selection's rows carry each chunk's reading.
        let Reply::Selected(_) = e.handle(Request::Select {
            job: 2,
            text_id: 1,
            strategy: StrategyId::Fixed,
            figures: f,
            bins: 8,
        }) else {
            panic!("not selected")
        };
        let Reply::Rows { model_tokens, .. } = e.handle(Request::Rows {
            job: 2,
            from: 1,
            count: 3,
        }) else {
            panic!("no rows")
        };
        assert_eq!(model_tokens, read[1..4]);
    }

    /// A model with a required prefix counts it in front of each chunk; a BPE model sized
    /// with another encoding is counted with its own.
    #[test]
    fn prefixes_and_the_models_own_encoding_are_counted() {
        use chunk_core::models::model;
        let f = figures(64, 0, SizeUnit::Tokens);
        let small = model("openai-text-embedding-3-small").unwrap();
        let o200k = Figures {
            model: Some(ModelRef(small)),
            settings: Settings {
                encoding: Encoding::O200kBase,
                ..f.settings
            },
            ..f
        };
        let check = limit_check(&[], &o200k);
        assert_eq!(check.basis, LimitBasis::Own);
        let counter = check.counter.expect("cl100k_base counts afresh");
        assert_eq!(counter.count("hello world"), 2);
        assert_eq!((check.max_input_tokens, check.added_tokens), (8191, 0));
        let same = limit_check(
            &[],
            &Figures {
                model: Some(ModelRef(small)),
                ..f
            },
        );
        assert!(
            same.counter.is_none(),
            "the chunks' own counts are cl100k_base's"
        );
        let e5 = model("multilingual-e5-large").unwrap();
        let prefixed = limit_check(
            &[],
            &Figures {
                model: Some(ModelRef(e5)),
                ..f
            },
        );
        assert_eq!(prefixed.prefix, Some("passage: "));
        assert_eq!(prefixed.basis, LimitBasis::StandIn(Encoding::Cl100kBase));
        assert_eq!(limit_check(&[], &f).max_input_tokens, usize::MAX);
    }

    /// The sweep check of the test requests: no model, so no limit.
    fn check<'a>(pairs: &'a [QaPair], options: &'a EvalOptions) -> SweepCheck<'a> {
        const NO_LIMIT: LimitCheck<'static> = LimitCheck::within(usize::MAX);
        SweepCheck {
            pairs,
            options,
            limit: &NO_LIMIT,
        }
    }

    const TEXT: &str = "# Title\n\nOne sentence here. Another sentence there.\n\nA second paragraph, with a clause; and more words to cut.\n";

    fn figures(size: usize, overlap: usize, unit: SizeUnit) -> Figures {
        Figures {
            embedder: None,
            settings: Settings {
                chunk_size: size,
                chunk_overlap: overlap,
                unit,
                encoding: Encoding::Cl100kBase,
            },
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
            breakpoints: Default::default(),
        }
    }

    fn engine() -> Engine {
        let mut e = Engine::default();
        e.set_text(7, TEXT.to_owned(), None);
        e
    }

    #[test]
    fn every_row_equals_the_cores_own_summary_or_refusal() {
        let mut e = engine();
        let f = figures(8, 2, SizeUnit::Tokens);
        let request = Request::Compare {
            job: 1,
            lane: Lane::Table,
            text_id: 7,
            strategies: StrategyId::all().collect(),
            figures: f,
        };
        assert_eq!(Engine::rows_in(&request), 17);
        for (i, id) in StrategyId::all().enumerate() {
            let Reply::Row {
                job,
                strategy,
                outcome,
                ..
            } = e.compare_row(&request, i, || 0.0)
            else {
                panic!("row {i} is not a row");
            };
            assert_eq!((job, strategy), (1, id));
            let direct =
                chunker(id, &f.settings).and_then(|c| run(c.as_ref(), TEXT, f.settings.encoding));
            match (outcome, direct) {
                (Outcome::Figures { summary: s, .. }, Ok(c)) => {
                    assert_eq!(
                        s,
                        summary(TEXT, &c, &LimitCheck::within(usize::MAX), 0.02),
                        "{id}"
                    )
                }
                (Outcome::Refused { refusal }, Err(err)) => {
                    assert_eq!(refusal, Refusal::from(&err), "{id}")
                }
                (o, d) => panic!("{id}: engine {o:?}, core {d:?}"),
            }
        }
        assert!(matches!(
            e.compare_row(&request, Engine::rows_in(&request), || 0.0),
            Reply::Failed { job: Some(1), .. }
        ));
    }

    #[test]
    fn a_request_for_another_text_asks_for_it() {
        let mut e = engine();
        let request = Request::Compare {
            job: 2,
            lane: Lane::Table,
            text_id: 8,
            strategies: vec![StrategyId::Fixed],
            figures: figures(8, 0, SizeUnit::Tokens),
        };
        assert_eq!(
            e.compare_row(&request, 0, || 0.0),
            Reply::NeedText { job: 2 }
        );
    }

    #[test]
    fn a_text_read_from_a_pdf_exports_each_chunks_pages() {
        let mut e = Engine::default();
        // Two pages of 40 bytes each, the second starting at byte 42 (after a blank line).
        let text = format!("{}\n\n{}", "a".repeat(40), "b".repeat(40));
        e.set_text(9, text, PageMap::new(vec![0, 42]));
        e.handle(Request::Select {
            job: 3,
            text_id: 9,
            strategy: StrategyId::Fixed,
            figures: figures(30, 0, SizeUnit::Characters),
            bins: 4,
        });
        let Reply::Exported { text, .. } = e.handle(Request::Export {
            job: 3,
            format: ExportFormat::Jsonl,
        }) else {
            panic!("no export");
        };
        let pages: Vec<(Option<usize>, Option<usize>)> = text
            .lines()
            .map(|l| serde_json::from_str::<chunk_core::analysis::export::Row>(l).unwrap())
            .map(|r| (r.page_start, r.page_end))
            .collect();
        // Bytes 0..30, 30..60 (page 1's end, the blank line, page 2's start), 60..82.
        assert_eq!(
            pages,
            [(Some(1), Some(1)), (Some(1), Some(2)), (Some(2), Some(2))]
        );
        // Another text without pages: the rows name none.
        e.set_text(10, "plain text".to_owned(), None);
        e.handle(Request::Select {
            job: 4,
            text_id: 10,
            strategy: StrategyId::Fixed,
            figures: figures(30, 0, SizeUnit::Characters),
            bins: 4,
        });
        let Reply::Rows { rows, .. } = e.handle(Request::Rows {
            job: 4,
            from: 0,
            count: 5,
        }) else {
            panic!("no rows");
        };
        assert_eq!((rows[0].page_start, rows[0].page_end), (None, None));
    }

    #[test]
    fn rows_and_exports_are_the_selected_chunks() {
        let mut e = engine();
        let f = figures(40, 0, SizeUnit::Characters);
        let reply = e.handle(Request::Select {
            job: 5,
            text_id: 7,
            strategy: StrategyId::LangchainRecursive,
            figures: f,
            bins: 10,
        });
        let Reply::Selected(selected) = reply else {
            panic!("not selected: {reply:?}");
        };
        let Selection {
            outcome: Outcome::Figures { summary: s, .. },
            histogram: Some(h),
            snippet: Some(code),
            parameters,
            ..
        } = *selected
        else {
            panic!("not cut: {selected:?}");
        };
        assert_eq!(h.bins.iter().map(|b| b.count).sum::<usize>(), s.chunks);
        assert!(code
            .code
            .contains("RecursiveCharacterTextSplitter(chunk_size=40, chunk_overlap=0)"));
        assert!(parameters.contains(&("chunk_size".to_owned(), "40".to_owned())));
        assert!(parameters.contains(&("length_function".to_owned(), "len".to_owned())));
        let Reply::Rows {
            total, from, rows, ..
        } = e.handle(Request::Rows {
            job: 5,
            from: 1,
            count: 2,
        })
        else {
            panic!("no rows");
        };
        assert_eq!((total, from, rows.len()), (s.chunks, 1, 2));
        assert_eq!(rows[0].index, 1);
        let Reply::Exported { text, .. } = e.handle(Request::Export {
            job: 5,
            format: ExportFormat::Jsonl,
        }) else {
            panic!("no export");
        };
        assert_eq!(text.lines().count(), s.chunks);
        let second: chunk_core::analysis::export::Row =
            serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(second, rows[0]);
        assert_eq!(&TEXT[second.byte_start..second.byte_end], second.text);
        // A stale job gets no rows.
        assert!(matches!(
            e.handle(Request::Rows {
                job: 4,
                from: 0,
                count: 1
            }),
            Reply::Failed { job: Some(4), .. }
        ));
        // A refused setting selects nothing.
        let refused = e.handle(Request::Select {
            job: 6,
            text_id: 7,
            strategy: StrategyId::LangchainRecursive,
            figures: figures(40, 50, SizeUnit::Characters),
            bins: 10,
        });
        let Reply::Selected(refused) = refused else {
            panic!("not selected: {refused:?}");
        };
        assert!(matches!(
            *refused,
            Selection {
                outcome: Outcome::Refused { .. },
                histogram: None,
                snippet: None,
                ..
            }
        ));
        assert!(matches!(
            e.handle(Request::Export {
                job: 6,
                format: ExportFormat::Csv
            }),
            Reply::Failed { .. }
        ));
        assert!(matches!(
            e.handle(Request::Rows {
                job: 6,
                from: 0,
                count: 20
            }),
            Reply::Rows { total: 0, .. }
        ));
    }

    // The retrieval check and the sweep.

    const QA_TEXT: &str = "The XV40 runs from minus ten to fifty degrees. It weighs two kilos.\n\nCharge it for three hours before first use. The battery lasts a week.\n\nClean the lens with a dry cloth only; water damages the coating.";

    fn qa_pairs() -> Vec<QaPair> {
        use chunk_core::retrieval::locate_answer;
        [
            (
                "What temperature range does the XV40 run in?",
                "minus ten to fifty degrees",
            ),
            (
                "How long does the battery last?",
                "The battery lasts a week",
            ),
            ("What damages the coating?", "water damages the coating"),
        ]
        .iter()
        .map(|(q, a)| QaPair {
            question: (*q).to_owned(),
            answer: locate_answer(QA_TEXT, a).expect("once"),
        })
        .collect()
    }

    fn qa_engine() -> Engine {
        let mut e = Engine::default();
        e.set_text(3, QA_TEXT.to_owned(), None);
        e
    }

    fn sweep_request(job: u32, strategy: StrategyId) -> Request {
        Request::Sweep {
            job,
            text_id: 3,
            pairs: qa_pairs(),
            strategy,
            grid: chunk_core::retrieval::SweepGrid {
                sizes: vec![8, 16, 32],
                overlap_percents: vec![0, 10, 25],
                unit: SizeUnit::Tokens,
            },
            figures: figures(0, 0, SizeUnit::Tokens),
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 3,
            retriever: Retriever::Bm25,
            dense_model: DenseModel::default(),
        }
    }

    /// A sweep with an open model loads its vocabulary first and checks every setting with it:
    /// a setting the model truncates is never best, and the sweep equals the core's with the
    /// same limit.
    #[test]
    fn a_sweep_checks_every_setting_against_the_models_own_limit() {
        use chunk_core::models::model;
        use chunk_core::retrieval::{sweep, SweepObjective};
        let bytes = bert_vocabulary();
        let bge = model("bge-small-en-v1-5").expect("in the table");
        let text = WORDY.repeat(200);
        let mut e = Engine::default();
        e.set_text(5, text.clone(), None);
        let pairs = vec![QaPair {
            question: "What characterises unprecedented tokenisation?".into(),
            answer: 0..28,
        }];
        let request = Request::Sweep {
            job: 40,
            text_id: 5,
            pairs: pairs.clone(),
            strategy: StrategyId::Fixed,
            grid: chunk_core::retrieval::SweepGrid {
                sizes: vec![200, 500],
                overlap_percents: vec![0, 10],
                unit: SizeUnit::Tokens,
            },
            figures: Figures {
                model: Some(ModelRef(bge)),
                ..figures(0, 0, SizeUnit::Tokens)
            },
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 5,
            retriever: Retriever::Bm25,
            dense_model: DenseModel::default(),
        };
        assert_eq!(e.vocab_needed(&request), Some(OpenVocab::BertUncased));
        e.load_vocab(OpenVocab::BertUncased, &bytes).expect("loads");
        assert_eq!(e.vocab_needed(&request), None);
        let replies: Vec<Reply> = (0..4).filter_map(|i| e.sweep_cell(&request, i)).collect();
        let Some(Reply::Swept { sweep: got, .. }) = replies.last() else {
            panic!("{replies:?}");
        };
        assert_eq!(got.limit_basis, LimitBasis::Own);
        assert_eq!(got.max_input_tokens, 512);
        let over: Vec<usize> = got
            .cells
            .iter()
            .map(|c| c.figures().expect("evaluated").over_limit)
            .collect();
        // 200 cl100k tokens of these words are under 510 word pieces; 500 are over.
        assert_eq!(over[..2], [0, 0]);
        assert!(over[2] > 0 && over[3] > 0, "{over:?}");
        for objective in [SweepObjective::Tokens, SweepObjective::Vectors] {
            let best = got.best(objective).expect("a setting of 200 qualifies");
            assert!(best < 2, "{objective:?}: {best}");
        }
        // The core's sweep with the same limit, the tokenizer loaded afresh.
        let wordpiece = [OpenTokenizer::load(OpenVocab::BertUncased, &bytes)
            .unwrap()
            .install()];
        let document = Document::new(&text, Encoding::Cl100kBase);
        let Request::Sweep { grid, .. } = &request else {
            unreachable!()
        };
        let options = EvalOptions::default();
        let limit = LimitCheck::for_model(bge, Encoding::Cl100kBase, &wordpiece);
        let check = SweepCheck {
            pairs: &pairs,
            options: &options,
            limit: &limit,
        };
        assert_eq!(**got, sweep(&document, StrategyId::Fixed, grid, &check));
    }

    #[test]
    fn every_retrieval_row_equals_the_cores_evaluate() {
        use chunk_core::retrieval::evaluate;
        let mut e = qa_engine();
        let f = figures(12, 3, SizeUnit::Tokens);
        let bm25 = Bm25Setting { k1: 1.5, b: 0.6 };
        let request = Request::Retrieval {
            job: 4,
            text_id: 3,
            pairs: qa_pairs(),
            strategies: StrategyId::all().collect(),
            figures: f,
            bm25,
            lang: Lang::En,
            k: 2,
            retrievers: vec![Retriever::Bm25],
            dense_model: DenseModel::default(),
        };
        assert_eq!(Engine::rows_in(&request), 17);
        let options = EvalOptions {
            lang: Lang::En,
            bm25: bm25.params().unwrap(),
            k: 2,
        };
        for (i, id) in StrategyId::all().enumerate() {
            let Reply::RetrievalRow {
                job,
                strategy,
                outcome,
                ..
            } = e.retrieval_row(&request, i, || 0.0)
            else {
                panic!("row {i} is not a retrieval row");
            };
            assert_eq!((job, strategy), (4, id));
            let direct = chunker(id, &f.settings)
                .and_then(|c| run(c.as_ref(), QA_TEXT, f.settings.encoding));
            match (outcome, direct) {
                (
                    RetrievalOutcome::Evaluated {
                        chunks,
                        tokens_embedded,
                        pairs,
                        aggregate,
                    },
                    Ok(c),
                ) => {
                    let core = evaluate(QA_TEXT, &c, &qa_pairs(), &options);
                    assert_eq!(
                        (chunks, tokens_embedded),
                        (core.chunks, core.tokens_embedded),
                        "{id}"
                    );
                    assert_eq!(aggregate, core.aggregate, "{id}");
                    let want: Vec<RetrievalPair> =
                        core.pairs.iter().map(RetrievalPair::from).collect();
                    assert_eq!(pairs, want, "{id}");
                    for (p, c) in pairs.iter().zip(&core.pairs) {
                        assert_eq!(p.whole, c.whole.map_or(-1, |w| w as i64));
                        assert_eq!(
                            (p.rank, p.hit_at_3, p.iou),
                            (c.rank, c.hit_at_3, c.at_k.iou)
                        );
                    }
                }
                (RetrievalOutcome::Refused { refusal }, Err(err)) => {
                    assert_eq!(refusal, Refusal::from(&err), "{id}")
                }
                (o, d) => panic!("{id}: engine {o:?}, core {d:?}"),
            }
        }
        assert!(matches!(
            e.retrieval_row(&request, Engine::rows_in(&request), || 0.0),
            Reply::Failed { job: Some(4), .. }
        ));
    }

    #[test]
    fn bad_inputs_are_failures_and_another_text_is_asked_for() {
        let mut e = qa_engine();
        let request =
            |pairs: Vec<QaPair>, bm25: Bm25Setting, k: usize, text_id: u32| Request::Retrieval {
                job: 8,
                text_id,
                pairs,
                strategies: vec![StrategyId::Fixed],
                figures: figures(12, 0, SizeUnit::Tokens),
                bm25,
                lang: Lang::En,
                k,
                retrievers: vec![Retriever::Bm25],
                dense_model: DenseModel::default(),
            };
        let ok = Bm25Setting::default();
        let past = vec![QaPair {
            question: "q".into(),
            answer: 10..10_000,
        }];
        let cases = [
            (
                request(qa_pairs(), Bm25Setting { k1: -1.0, b: 0.5 }, 5, 3),
                "BM25",
            ),
            (
                request(qa_pairs(), Bm25Setting { k1: 1.2, b: 2.0 }, 5, 3),
                "BM25",
            ),
            (request(qa_pairs(), ok, 0, 3), "k must"),
            (request(past, ok, 5, 3), "pair 1"),
        ];
        for (r, what) in cases {
            match e.retrieval_row(&r, 0, || 0.0) {
                Reply::Failed {
                    job: Some(8),
                    message,
                } => assert!(message.contains(what), "{message}"),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            e.retrieval_row(&request(qa_pairs(), ok, 5, 4), 0, || 0.0),
            Reply::NeedText { job: 8 }
        );
        let mut empty = sweep_request(9, StrategyId::Fixed);
        if let Request::Sweep { grid, .. } = &mut empty {
            grid.sizes.clear();
        }
        assert_eq!(Engine::rows_in(&empty), 1);
        assert!(matches!(
            e.sweep_cell(&empty, 0),
            Some(Reply::Failed { job: Some(9), .. })
        ));
        // Settings out of order.
        assert!(matches!(
            e.sweep_cell(&sweep_request(9, StrategyId::Fixed), 3),
            Some(Reply::Failed { job: Some(9), .. })
        ));
        assert!(matches!(
            e.handle(sweep_request(9, StrategyId::Fixed)),
            Reply::Failed { .. }
        ));
    }

    /// Runs every setting of `request`, returning the replies posted (`None`s left out).
    fn run_sweep(e: &mut Engine, request: &Request) -> Vec<Reply> {
        (0..Engine::rows_in(request))
            .filter_map(|i| e.sweep_cell(request, i))
            .collect()
    }

    #[test]
    fn a_sweep_equals_the_cores_and_reports_progress_every_few_settings() {
        use chunk_core::retrieval::sweep;
        for strategy in [
            StrategyId::Fixed,
            StrategyId::LangchainRecursive,
            StrategyId::ChonkieRecursive,
        ] {
            let mut e = qa_engine();
            let request = sweep_request(11, strategy);
            let replies = run_sweep(&mut e, &request);
            let (last, progress) = replies.split_last().expect("replies");
            assert_eq!(
                progress,
                [4, 8].map(|done| Reply::SweepProgress {
                    job: 11,
                    done,
                    total: 9
                }),
                "{strategy}"
            );
            let Reply::Swept {
                job: 11,
                sweep: got,
            } = last
            else {
                panic!("{last:?}");
            };
            let Request::Sweep { grid, pairs, .. } = &request else {
                unreachable!()
            };
            let document = Document::new(QA_TEXT, Encoding::Cl100kBase);
            let options = EvalOptions {
                k: 3,
                ..EvalOptions::default()
            };
            let core = sweep(&document, strategy, grid, &check(pairs, &options));
            assert_eq!(**got, core, "{strategy}");
        }
    }

    #[test]
    fn a_cancelled_sweep_refuses_its_next_setting() {
        let mut e = qa_engine();
        let old = sweep_request(30, StrategyId::Fixed);
        assert_eq!(e.sweep_cell(&old, 0), None);
        assert_eq!(
            e.handle(Request::CancelSweep { job: 31 }),
            Reply::SweepCancelled { job: 31 }
        );
        assert!(matches!(
            e.sweep_cell(&old, 1),
            Some(Reply::Failed { job: Some(30), message }) if message.contains("cancelled")
        ));
        // A sweep started afresh after the cancel runs.
        assert_eq!(e.sweep_cell(&old, 0), None);
    }

    #[test]
    fn a_setting_of_another_sweep_than_the_one_in_progress_is_refused() {
        use chunk_core::retrieval::sweep;
        let mut e = qa_engine();
        let old = sweep_request(20, StrategyId::Fixed);
        let new = sweep_request(21, StrategyId::Sentence);
        // The old job's settings, then the new job's (its setting 0 starts afresh): the old
        // job's next setting is refused (the worker never asks for it: worker.rs).
        assert_eq!(e.sweep_cell(&old, 0), None);
        assert_eq!(e.sweep_cell(&old, 1), None);
        assert_eq!(e.sweep_cell(&new, 0), None);
        assert!(matches!(
            e.sweep_cell(&old, 2),
            Some(Reply::Failed { job: Some(20), message })
                if message.contains("not the sweep in progress")
        ));
        let rest: Vec<Reply> = (1..9).filter_map(|i| e.sweep_cell(&new, i)).collect();
        let Some(Reply::Swept {
            job: 21,
            sweep: got,
        }) = rest.last()
        else {
            panic!("{rest:?}");
        };
        let Request::Sweep { grid, pairs, .. } = &new else {
            unreachable!()
        };
        let document = Document::new(QA_TEXT, Encoding::Cl100kBase);
        let options = EvalOptions {
            k: 3,
            ..EvalOptions::default()
        };
        assert_eq!(
            **got,
            sweep(
                &document,
                StrategyId::Sentence,
                grid,
                &check(pairs, &options)
            )
        );
        // Nothing of the old job is left to resume.
        assert!(matches!(
            e.sweep_cell(&old, 3),
            Some(Reply::Failed { job: Some(20), .. })
        ));
        // A new text drops a sweep in progress.
        assert_eq!(e.sweep_cell(&old, 0), None);
        e.set_text(5, "other".to_owned(), None);
        assert!(matches!(e.sweep_cell(&old, 1), Some(Reply::Failed { .. })));
    }
}
