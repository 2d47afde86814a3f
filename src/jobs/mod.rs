//! The page's worker jobs: the comparison's and the retrieval check's. A layer above the
//! sections it serves (`compare`, `retrieval` and the model panel show its results and import
//! nothing of it). It creates the comparison's and the retrieval check's contexts, starts the two comparison workers ([`CompareEngine`]), turns every change of the text and
//! the settings into a [`Schedule`] transition (debounced by [`DEBOUNCE_MS`]), carries out the
//! [`Dispatch`] it returns, and files the workers' replies into the signals. Every decision
//! (routing, job and text numbers, readiness, deferral, lanes) is the scheduler's; every
//! filing rule is a method of the state types (`crate::compare::state`, `crate::retrieval::state`).
//! This module only wires them.

pub mod schedule;

use std::cell::Cell;
use std::rc::Rc;

use chunk_core::analysis::protocol::{ExportFormat, Figures, Outcome, Reply, Selection};
use chunk_core::retrieval::{DenseModel, Retriever, SweepGrid};
use chunk_core::strategy::{Settings, SizeUnit};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::compare::engine::{CompareEngine, Event};
use crate::compare::state::{b_figures, ChunkPage, EngineStatus, Shown, Table};
use crate::compare::{CompareResults, CompareSettings, Requests, DEBOUNCE_MS};
use crate::embed::{EmbedRuntime, EmbedStatus};
use crate::retrieval::state::{
    ready_pairs, RetrievalResults, RetrievalSettings, RetrievalTable, SweepState,
};
use crate::state::model::{ModelResults, ModelSettings, OpenStatus};
use crate::state::PageState;
use schedule::{Dispatch, Schedule, Settled, Worker, WorkerEvent};

/// The two workers' handles (`None` until started, or where the browser refused).
#[derive(Clone, Copy)]
struct Workers {
    main: StoredValue<Option<CompareEngine>, LocalStorage>,
    side: StoredValue<Option<CompareEngine>, LocalStorage>,
    schedule: StoredValue<Schedule, LocalStorage>,
}

impl Workers {
    /// Carries out `dispatch`: the text first (each handle sends it once per worker), then
    /// the requests.
    fn dispatch(&self, app: &PageState, dispatch: Dispatch) {
        if let Some(held) = dispatch.text {
            // The pages are written with the text (`SourceText::pages`): these are this text's.
            let pages = app.source.pages.get_untracked();
            for w in [self.main, self.side] {
                w.with_value(|e| {
                    if let Some(e) = e {
                        e.set_text(held.id, held.text.clone(), pages.clone());
                    }
                });
            }
        }
        for post in dispatch.posts {
            let target = match post.to {
                Worker::Main => self.main,
                Worker::Side => self.side,
            };
            target.with_value(|e| {
                if let Some(e) = e {
                    e.request(post.request);
                }
            });
        }
    }

    /// Starts the embedding worker for `model` unless it runs with it, and gives each
    /// comparison worker a port to it unless it holds one to this start.
    fn connect_embedder(&self, embed: EmbedRuntime, model: DenseModel) {
        let generation = embed.ensure_started(model);
        for w in [self.main, self.side] {
            w.with_value(|e| {
                if let Some(e) = e {
                    e.connect_embedder(generation, || embed.port());
                }
            });
        }
    }

    /// Runs a transition of the scheduler.
    fn schedule<U>(&self, f: impl FnOnce(&mut Schedule) -> U) -> Option<U> {
        self.schedule.try_update_value(f)
    }
}

/// The figures a job is for, from the page's fields; `None` while a field the strategies need
/// is invalid (the calculator shows that error).
fn figures_of(
    app: &PageState,
    unit: SizeUnit,
    model: Option<&'static chunk_core::models::EmbeddingModel>,
) -> Option<(Figures, bool)> {
    let checked = app.derived.checked.get();
    let size = checked.size_value?;
    let overlap = checked.requested_overlap?;
    let price = checked.input.and_then(|i| i.price_per_million);
    let settings = Settings {
        chunk_size: usize::try_from(size).ok()?,
        chunk_overlap: usize::try_from(overlap).ok()?,
        unit,
        encoding: app.fields.encoding.get(),
    };
    Some((
        Figures {
            embedder: None,
            settings,
            model: model.map(chunk_core::models::ModelRef),
            price_per_million: price.unwrap_or(0.0),
            structure: Default::default(),
            breakpoints: Default::default(),
        },
        price.is_some(),
    ))
}

/// The contexts [`provide`] made, which [`start`] wires to the workers.
#[derive(Clone, Copy)]
pub struct Jobs {
    app: PageState,
    models: ModelSettings,
    model_results: ModelResults,
    settings: CompareSettings,
    retrieval_settings: RetrievalSettings,
    retrieval: RetrievalResults,
    figures: Memo<Option<(Figures, bool)>>,
    results: CompareResults,
    embed: EmbedRuntime,
    /// Set by [`start`]: the wiring runs once, whatever calls it again.
    started: StoredValue<bool>,
}

/// Creates and provides the comparison's, the retrieval check's and the embedding model's
/// contexts, with no worker yet: the form and the results card read them from the start
/// (fixed windows in tokens follow the local formula; another strategy or unit waits for the
/// comparison worker's answer), and [`start`] wires them once the panels' module has arrived
/// (`src/panels.rs`).
pub fn provide(app: PageState) -> Jobs {
    let models = expect_context::<ModelSettings>();
    let model_results = expect_context::<ModelResults>();
    let settings = CompareSettings::new(models);
    let (retrieval_settings, retrieval) = crate::retrieval::state::provide(app);
    // The settings every job is for. A `Memo`: the checked fields also change when the
    // tokenizer's exact count arrives (the document length), which no strategy depends on;
    // without it every finished count would restart the comparison.
    let figures = Memo::new(move |_| {
        figures_of(&app, settings.sized_in.get(), models.model.get()).map(|(f, priced)| {
            let structure = settings.structure.get();
            // One embedding model for the page: the semantic rows embed with the retrieval
            // check's dense model (one embedding worker runs one model).
            let embedder = settings
                .semantic
                .get()
                .then(|| retrieval_settings.dense_model.get());
            // Only the semantic rows read the thresholds: without them a new one reruns nothing.
            let breakpoints = embedder
                .map(|_| settings.breakpoints().0)
                .unwrap_or_default();
            (
                Figures {
                    structure,
                    embedder,
                    breakpoints,
                    ..f
                },
                priced,
            )
        })
    });
    let results = results(app, settings, figures);
    provide_context(settings);
    provide_context(results);
    let embed = EmbedRuntime::provide();
    Jobs {
        app,
        models,
        model_results,
        settings,
        retrieval_settings,
        retrieval,
        figures,
        results,
        embed,
        started: StoredValue::new(false),
    }
}

/// Wires the contexts of [`provide`] to the workers: the main worker starts once the page has
/// painted and the tokenizer can count (and no count runs), the side worker once the main one
/// runs, and every change of the text, the fields, the unit or the strategy (debounced by
/// [`DEBOUNCE_MS`]) becomes a job.
pub fn start(jobs: Jobs) {
    if jobs.started.get_value() {
        return;
    }
    jobs.started.set_value(true);
    let Jobs {
        app,
        models,
        model_results,
        settings,
        retrieval_settings,
        retrieval,
        figures,
        results,
        embed,
        started: _,
    } = jobs;
    let workers = Workers {
        main: StoredValue::new_local(None),
        side: StoredValue::new_local(None),
        schedule: StoredValue::new_local(Schedule::new()),
    };
    let ready = move || results.engine.get() == EngineStatus::Ready;

    start_workers(app, workers, results, model_results, retrieval);

    // The comparison table follows the text and every setting.
    debounced(move || {
        let text = app.source.text.get();
        let ready = ready();
        let figures = figures.get();
        // Whatever changed, the rows shown are no longer of the text and settings on the page:
        // drop them at once (and with them any late reply of their job), not after the delay.
        results.table.set(Table::default());
        let (Some((figures, priced)), false, true) = (figures, text.is_empty(), ready) else {
            return None;
        };
        Some(move || {
            if let Some(model) = figures.embedder {
                workers.connect_embedder(embed, model);
            }
            if let Some((table, d)) = workers.schedule(|s| s.table(&text, figures, priced)) {
                results.table.set(table);
                workers.dispatch(&app, d);
            }
        })
    });
    // The selection also follows the strategy (choosing another does not redo the table).
    debounced(move || {
        let text = app.source.text.get();
        let strategy = settings.strategy.get();
        let ready = ready();
        let figures = figures.get();
        // As for the table: the chosen strategy's figures and chunks are stale at once.
        results.selection.set(None);
        results.chunks.set(ChunkPage::default());
        let (Some((figures, _)), false, true) = (figures, text.is_empty(), ready) else {
            return None;
        };
        Some(move || {
            if let Some(model) = figures.embedder.filter(|_| strategy.needs_embeddings()) {
                workers.connect_embedder(embed, model);
            }
            if let Some((page, d)) = workers.schedule(|s| s.selection(&text, figures, strategy)) {
                results.chunks.set(page);
                workers.dispatch(&app, d);
            }
        })
    });
    // The A/B view's B row (debounced like the table; stale at once).
    debounced(move || {
        let side = settings.ab.get();
        let text = app.source.text.get();
        let ready = ready();
        let a = figures.get();
        results.ab_row.set(None);
        workers.schedule(Schedule::clear_ab);
        let b = a.and_then(|(a, _)| b_figures(&a, &side));
        let (Some(b), false, true) = (b, text.is_empty(), ready) else {
            return None;
        };
        Some(move || {
            if let Some(d) = workers.schedule(|s| s.ab(&text, side.strategy, b)) {
                workers.dispatch(&app, d);
            }
        })
    });
    // The chosen open model's own count of the text (debounced like the table; stale at once).
    debounced(move || {
        let text = app.source.text.get();
        let ready = ready();
        let vocab = models.model.get().and_then(|m| m.tokenizer.open_vocab());
        model_results.open_count.set(None);
        let (Some(vocab), false, true) = (vocab, text.is_empty(), ready) else {
            return None;
        };
        Some(move || {
            if let Some((count, d)) = workers.schedule(|s| s.open_count(&text, vocab)) {
                model_results.open_count.set(Some(count));
                workers.dispatch(&app, d);
            }
        })
    });
    wire_retrieval(
        app,
        workers,
        results,
        settings.sized_in,
        figures,
        retrieval_settings,
        retrieval,
        embed,
    );
    wire_embedder(workers, embed, retrieval_settings);

    results.requests.more_rows.set_value(Some(Rc::new(move || {
        let page = results.chunks.get_untracked();
        if let Some(d) = workers.schedule(|s| s.more_rows(&page)).flatten() {
            workers.dispatch(&app, d);
        }
    })));
    results
        .requests
        .run_deferred
        .set_value(Some(Rc::new(move || {
            let table = results.table.get_untracked();
            if let Some((job, d)) = workers.schedule(|s| s.run_deferred(&table)).flatten() {
                results.table.update(|t| t.deferred_job = job);
                workers.dispatch(&app, d);
            }
        })));
    results
        .requests
        .export
        .set_value(Some(Rc::new(move |format: ExportFormat| {
            if let Some(job) = results
                .selection
                .with_untracked(|s| s.as_ref().map(|s| s.job))
            {
                if let Some(d) = workers.schedule(|s| s.export(job, format)) {
                    workers.dispatch(&app, d);
                }
            }
        })));
}

/// The comparison's results context: empty signals for the replies, and the memos over them.
fn results(
    app: PageState,
    settings: CompareSettings,
    figures: Memo<Option<(Figures, bool)>>,
) -> CompareResults {
    let selection = RwSignal::new(None::<Selection>);
    CompareResults {
        engine: RwSignal::new(EngineStatus::Loading),
        table: RwSignal::new(Table::default()),
        selection,
        chunks: RwSignal::new(ChunkPage::default()),
        ab_row: RwSignal::new(None),
        ab_invalid: Memo::new(move |_| {
            figures
                .with(|a| {
                    a.as_ref()
                        .map(|(a, _)| settings.ab.with(|b| b_figures(a, b)))
                })
                .is_some_and(|b| b.is_none())
        }),
        formula: Memo::new(move |_| {
            let chars = settings.sized_in.get() == SizeUnit::Characters;
            if chars && app.source.text.with(|t| t.is_empty()) {
                app.derived
                    .checked
                    .with(|c| c.input)
                    .and_then(|i| chunk_core::formula::compute_in_characters(i).ok())
            } else {
                app.derived.output.get()
            }
        }),
        shown: Memo::new(move |_| {
            let strategy = settings.strategy.get();
            if app.source.text.with(|t| t.is_empty()) {
                return Shown::Formula;
            }
            let outcome = selection.with(|s| {
                s.as_ref()
                    .filter(|s| s.strategy == strategy)
                    .map(|s| s.outcome.clone())
            });
            let summary = match outcome {
                Some(Outcome::Figures { summary, .. }) => Some(summary),
                Some(Outcome::Refused { refusal }) => return Shown::Refused { strategy, refusal },
                None => None,
            };
            Shown::Strategy { strategy, summary }
        }),
        requests: Requests {
            more_rows: StoredValue::new_local(None),
            run_deferred: StoredValue::new_local(None),
            export: StoredValue::new_local(None),
        },
    }
}

/// Starts the main worker after the first paint, once the tokenizer can count and no count
/// runs ([`COMPARE_START_GRACE`] after), and the side worker when the scheduler says; routes
/// every worker event.
fn start_workers(
    app: PageState,
    workers: Workers,
    results: CompareResults,
    model_results: ModelResults,
    retrieval: RetrievalResults,
) {
    // What a worker event changes: the status shown and the retrieval check.
    let apply = move |settled: &Settled| {
        if let Some(status) = settled.status.clone() {
            results.engine.set(status);
        }
        if settled.worker_failed {
            retrieval.worker_failed();
        }
    };
    let on_side = move |event: Event| match report(event) {
        Err(reply) => receive(workers, results, model_results, retrieval, *reply),
        Ok(event) => {
            if let Some(s) = workers.schedule(|s| s.on_worker(Worker::Side, event)) {
                apply(&s);
            }
        }
    };
    let on_main = move |event: Event| match report(event) {
        Err(reply) => receive(workers, results, model_results, retrieval, *reply),
        Ok(event) => {
            let Some(settled) = workers.schedule(|s| s.on_worker(Worker::Main, event)) else {
                return;
            };
            apply(&settled);
            if settled.start_side {
                // With the main worker's compiled module: the engine is fetched once.
                let module = workers
                    .main
                    .with_value(|e| e.as_ref().map(CompareEngine::module));
                let side = CompareEngine::start(on_side, module.unwrap_or(JsValue::UNDEFINED));
                let refused = side.is_none();
                workers.side.set_value(side);
                if refused {
                    let failed = WorkerEvent::Failed("no second module worker".into());
                    if let Some(s) = workers.schedule(|s| s.on_worker(Worker::Side, failed)) {
                        apply(&s);
                    }
                }
            }
        }
    };

    // Once the engine has settled, the page's downloads are done: the loader then registers
    // the service worker, whose install fetches every file again to keep it (on a slow first
    // visit, earlier, it would compete with these downloads). An `Effect`: a side effect on
    // the document, once.
    let told = StoredValue::new(false);
    Effect::new(move |_| {
        let settled = results.engine.with(|e| !matches!(e, EngineStatus::Loading));
        if settled && !told.get_value() {
            told.set_value(true);
            crate::browser::announce_settled();
        }
    });

    // The main worker starts after the first paint, once the tokenizer can count (its worker
    // has the module, or the page's thread has counted a text): it fetches the engine's
    // module, 4 MB gzip, and on a slow connection the two downloads would share the
    // bandwidth, delaying the exact count that every figure waits for (Slow 4G: 19.6 s
    // instead of about 12 s). Without a worker, it waits for the first text's count. An
    // `Effect` because it only starts a worker; it does its work once. Not in the build-time
    // render of the page (crates/prerender), which runs natively: no worker there, and no
    // timer.
    #[cfg(target_arch = "wasm32")]
    {
        let started_once = StoredValue::new(false);
        let tokenization = app.tokenization;
        let usable = Memo::new(move |_| {
            tokenization.worker.get()
                || tokenization.tokenized.with(Option::is_some)
                || tokenization.progress.get() == crate::state::Progress::Failed
        });
        // Nor while a count runs: compiling the engine's module takes the CPU a first paste
        // needs (two cores); it starts `COMPARE_START_GRACE` after the tokenizer became usable
        // or its count ended, if no count runs then.
        let counting = Memo::new(move |_| {
            matches!(
                tokenization.progress.get(),
                crate::state::Progress::Running { .. }
            )
        });
        Effect::new(move |_| {
            if !usable.get() || counting.get() || started_once.get_value() {
                return;
            }
            set_timeout(
                move || {
                    if counting.get_untracked() || started_once.get_value() {
                        return; // the effect runs again once the count ends
                    }
                    started_once.set_value(true);
                    let started = CompareEngine::start(on_main, JsValue::UNDEFINED);
                    let refused = started.is_none();
                    workers.main.set_value(started);
                    if refused {
                        let failed = WorkerEvent::Failed("no module worker in this browser".into());
                        if let Some(s) = workers.schedule(|s| s.on_worker(Worker::Main, failed)) {
                            apply(&s);
                        }
                    }
                },
                COMPARE_START_GRACE,
            );
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (app, on_main);
}

/// How long the main comparison worker waits, once the tokenizer can count or a count has
/// ended, before it starts (and fetches and compiles the engine), so that a text pasted as soon
/// as the page can count has its count running first.
#[cfg(target_arch = "wasm32")]
const COMPARE_START_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// A worker's own report as the scheduler takes it (the console hears of a failure), or
/// the reply it carries, to be filed.
fn report(event: Event) -> Result<WorkerEvent, Box<Reply>> {
    match event {
        Event::Ready => Ok(WorkerEvent::Ready),
        Event::Failed(message) => {
            crate::browser::warn(&message);
            Ok(WorkerEvent::Failed(message))
        }
        Event::Reply(reply) => Err(reply),
    }
}

/// Files one reply into the results (replies to jobs no longer current change nothing).
fn receive(
    workers: Workers,
    results: CompareResults,
    model_results: ModelResults,
    retrieval: RetrievalResults,
    reply: Reply,
) {
    match reply {
        Reply::Row {
            job,
            strategy,
            outcome,
            millis,
        } => {
            if workers.schedule(|s| s.is_ab(job)) == Some(true) {
                results.ab_row.set(Some((job, outcome)));
                return;
            }
            results
                .table
                .maybe_update(|t| t.file_row(job, strategy, outcome, millis));
        }
        Reply::Selected(selection) => {
            if results.chunks.with_untracked(|c| c.job) == selection.job {
                results.selection.set(Some(*selection));
            }
        }
        Reply::Rows {
            job,
            from,
            total,
            rows,
            model_tokens,
            shared,
        } => {
            results
                .chunks
                .maybe_update(|c| c.file_rows(job, from, total, rows, model_tokens, shared));
        }
        Reply::Exported { job, format, text } => {
            let current = results
                .selection
                .with_untracked(|s| s.as_ref().filter(|s| s.job == job).map(|s| s.strategy));
            if let Some(strategy) = current {
                let (ext, mime) = match format {
                    ExportFormat::Jsonl => ("jsonl", "application/jsonl"),
                    ExportFormat::Csv => ("csv", "text/csv"),
                };
                crate::browser::download(&format!("chunks-{strategy}.{ext}"), mime, &text);
            }
        }
        Reply::Failed { job, message } => {
            crate::browser::warn(&message);
            if let Some(job) = job {
                retrieval.job_failed(job);
                open_status(model_results, job, OpenStatus::Failed(message));
            }
        }
        Reply::VocabLoading { job, .. } => open_status(model_results, job, OpenStatus::Loading),
        Reply::OpenCounted {
            job,
            tokens,
            millis,
            ..
        } => open_status(model_results, job, OpenStatus::Counted { tokens, millis }),
        Reply::RetrievalRow {
            job,
            strategy,
            retriever,
            outcome,
            millis,
        } => {
            retrieval
                .table
                .maybe_update(|t| t.file_row(job, strategy, retriever, outcome, millis));
        }
        Reply::SweepProgress { job, done, total } => {
            retrieval
                .sweep
                .maybe_update(|s| s.file_progress(job, done, total));
        }
        Reply::Swept { job, sweep } => {
            retrieval.sweep.maybe_update(|s| s.file_sweep(job, *sweep));
        }
        // Completeness follows the rows themselves (`Table::complete`,
        // `RetrievalTable::complete`); a lost text is sent again by the engine handle.
        Reply::Compared { .. }
        | Reply::RetrievalDone { .. }
        | Reply::SweepCancelled { .. }
        | Reply::Ready
        | Reply::NeedText { .. } => {}
    }
}

/// Sets the open count's status when `job` is its current job (a stale reply notifies no
/// one).
fn open_status(model: ModelResults, job: u32, status: OpenStatus) {
    model.open_count.maybe_update(|c| match c {
        Some(c) if c.job == job && c.status != status => {
            c.status = status;
            true
        }
        _ => false,
    });
}

/// The retrieval table (debounced, after every change it depends on), the sweep's request,
/// and the sweep's staleness (cleared, and stopped while it runs, when anything it depends on
/// changes).
#[allow(clippy::too_many_arguments)]
fn wire_retrieval(
    app: PageState,
    workers: Workers,
    compare: CompareResults,
    unit: Memo<SizeUnit>,
    figures: Memo<Option<(Figures, bool)>>,
    settings: crate::retrieval::state::RetrievalSettings,
    results: RetrievalResults,
    embed: EmbedRuntime,
) {
    // Only what cuts the chunks: the price and the model limit, which the check does not use,
    // must not restart it at every keystroke in the price field. A `Memo` for that reason.
    let cutting = Memo::new(move |_| {
        figures.with(|f| f.map(|(f, _)| (f.settings, f.structure, f.embedder, f.breakpoints)))
    });
    // The sweep checks every setting against the model's limit: its model too.
    let model = Memo::new(move |_| figures.with(|f| f.and_then(|(f, _)| f.model)));
    // The language as a value: its words arriving (`languages::fetch_when_chosen` notifies the
    // signal with the same language) must not run the check again or make a sweep stale.
    let lang = Memo::new(move |_| app.language.lang.get());
    let figures_of = |(settings, structure, embedder, breakpoints)| Figures {
        embedder,
        settings,
        model: None,
        price_per_million: 0.0,
        structure,
        breakpoints,
    };
    debounced(move || {
        let text = app.source.text.get();
        let ready = compare.engine.get() == EngineStatus::Ready;
        let figures = cutting.get().map(figures_of);
        results.retries.track();
        let pairs = results.resolved.with(|r| ready_pairs(r));
        let params = results.params.get();
        let lang = lang.get();
        let retriever = settings.retriever.get();
        let dense_model = settings.dense_model.get();
        // Stale at once, as the comparison table's rows are.
        results.table.set(RetrievalTable::default());
        let (Some(figures), Some(pairs), Ok(p), false, true) =
            (figures, pairs, params, text.is_empty(), ready)
        else {
            return None;
        };
        Some(move || {
            if retriever.needs_vectors() || figures.embedder.is_some() {
                workers.connect_embedder(embed, dense_model);
            }
            let job = |s: &mut Schedule| {
                s.retrieval(
                    &text,
                    figures,
                    pairs,
                    p.k,
                    p.bm25,
                    lang,
                    retriever,
                    dense_model,
                )
            };
            if let Some((table, d)) = workers.schedule(job) {
                results.table.set(table);
                workers.dispatch(&app, d);
            }
        })
    });

    // A sweep shown is of one text, encoding, unit, model, list of pairs, k, BM25 and
    // language, and one strategy: any change makes it stale (the objective is not: the best
    // setting for either is in the sweep). (The calculator's chunk_size and chunk_overlap
    // are not among them: the sweep has its own grid, and applying its best setting must not
    // clear it.)
    Effect::new(move |_| {
        app.source.text.track();
        app.fields.encoding.track();
        lang.track();
        // The unit the chunks are cut in: a change of the size tokenizer makes it stale too
        // (read, not only tracked, as the model memo below).
        unit.with(|_| ());
        // Read, not only tracked: a memo that nobody has read yet has no sources to follow.
        model.with(|_| ());
        results.resolved.with(|_| ());
        results.params.with(|_| ());
        settings.sweep_strategy.track();
        settings.retriever.track();
        settings.dense_model.track();
        let sweep = results.sweep.get_untracked();
        if let Some(d) = workers.schedule(|s| s.cancel_sweep(&sweep)).flatten() {
            workers.dispatch(&app, d);
        }
        results.sweep.set(SweepState::default());
    });
    results.run_sweep.set_value(Some(Rc::new(move || {
        let text = app.source.text.get_untracked();
        let pairs = results.resolved.with_untracked(|r| ready_pairs(r));
        let strategy = settings.sweep_strategy.get_untracked();
        let (Some(pairs), Ok(p), Some(cut), false) = (
            pairs,
            results.params.get_untracked(),
            cutting.get_untracked(),
            text.is_empty(),
        ) else {
            return;
        };
        let figures = Figures {
            model: model.get_untracked(),
            ..figures_of(cut)
        };
        // In the unit the chunks are cut in (the model's own tokens when it sizes them).
        let grid = SweepGrid::standard(cut.0.unit);
        let lang = app.language.lang.get_untracked();
        let retriever = settings.retriever.get_untracked();
        let dense_model = settings.dense_model.get_untracked();
        if retriever.needs_vectors() {
            workers.connect_embedder(embed, dense_model);
        }
        let job = |s: &mut Schedule| {
            s.sweep(
                &text,
                pairs,
                strategy,
                grid,
                figures,
                p.k,
                p.bm25,
                lang,
                retriever,
                dense_model,
            )
        };
        if let Some((state, d)) = workers.schedule(job).flatten() {
            results.sweep.set(state);
            workers.dispatch(&app, d);
        }
    })));
}

/// When the embedding model stops running (the user stopped it, or it failed), the comparison
/// workers are told, so that a row waiting for embeddings fails instead of waiting forever; a
/// stop by the user also puts the retriever back to BM25.
fn wire_embedder(workers: Workers, embed: EmbedRuntime, settings: RetrievalSettings) {
    Effect::new(move |was_running: Option<bool>| {
        let status = embed.status.get();
        let running = matches!(
            status,
            EmbedStatus::Loading { .. } | EmbedStatus::Ready | EmbedStatus::Embedding { .. }
        );
        if was_running == Some(true) && !running {
            let why = match &status {
                EmbedStatus::Failed(message) => message.clone(),
                _ => "the embedding model was stopped".to_owned(),
            };
            for w in [workers.main, workers.side] {
                w.with_value(|e| {
                    if let Some(e) = e {
                        e.embedder_gone(&why);
                    }
                });
            }
            if status == EmbedStatus::Off {
                settings.retriever.set(Retriever::Bm25);
            }
        }
        running
    });
}

/// Runs `track` in an effect (it reads the signals the job depends on); the job it returns
/// runs [`DEBOUNCE_MS`] later unless the signals changed again meanwhile.
fn debounced<J: FnOnce() + 'static>(track: impl Fn() -> Option<J> + 'static) {
    let generation = Rc::new(Cell::new(0u64));
    Effect::new(move |_| {
        let g = generation.get() + 1;
        generation.set(g);
        if let Some(job) = track() {
            let generation = generation.clone();
            set_timeout(
                move || {
                    if generation.get() == g {
                        job();
                    }
                },
                std::time::Duration::from_millis(DEBOUNCE_MS),
            );
        }
    });
}
