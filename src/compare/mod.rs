//! Every strategy on the user's whole text: the comparison table ([`table`]), the chosen
//! strategy's chunks, histogram, export and snippet ([`panel`]), and two settings side by side
//! ([`ab`]). Every figure comes from the comparison worker ([`engine`], which runs
//! `crates/compare-engine`); this module only schedules requests and keeps the replies.
//!
//! Contexts, each written by one part of the page (Leptos todomvc style):
//! - [`CompareSettings`]: the size unit, the size tokenizer and the chosen strategy, written by
//!   their selects (the unit also by the buttons that fill the form: a library's defaults, the
//!   sweep's best, which also sets the size tokenizer; all three by a settings link), and the
//!   unit the chunks are sized in, a `Memo` of them and the chosen model;
//! - [`CompareResults`]: the worker's replies, written only by the driver ([`spawn_compare`]);
//! - the retrieval check's own two ([`retrieval::RetrievalSettings`],
//!   [`retrieval::RetrievalResults`]), whose requests go through the same workers.

pub mod ab;
pub mod engine;
pub mod messages;
pub mod panel;
pub mod retrieval;
pub mod retrieval_messages;
pub mod table;

use crate::compare::messages::args as cmp_msg;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use chunk_core::analysis::export::Row;
use chunk_core::analysis::protocol::{ExportFormat, Figures, Outcome, Reply, Request, Selection};
use chunk_core::analysis::refusal::Refusal;
use chunk_core::analysis::Summary;
use chunk_core::strategy::{Settings, SizeUnit, StrategyId, Structure};
use chunk_core::tokenizer::open::OpenVocab;
use chunk_core::tokenizer::Encoding;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::Lang;
use crate::model::{OpenCount, OpenStatus};
use crate::state::PageState;
use engine::{CompareEngine, Event};
use messages::Msg;

/// Chunks asked for at first and per "show more".
pub const ROWS_PAGE: usize = 20;
/// Histogram bins asked for.
pub const HISTOGRAM_BINS: usize = 24;
/// Quiet time after the last edit before the worker is asked, in milliseconds: a burst of
/// edits (keys, a settings change that moves several fields) makes one job, not one per
/// event. Short, because it adds to the time until the table is complete after a paste, and a
/// job the next edit replaces stops at its next row anyway.
pub const DEBOUNCE_MS: u64 = 50;

/// The settings the comparison reads besides the calculator's fields.
#[derive(Clone, Copy)]
pub struct CompareSettings {
    /// Unit of chunk_size and chunk_overlap for the strategies (`chunk-size-unit`): tokens or
    /// characters.
    pub unit: RwSignal<SizeUnit>,
    /// The user's choice in `size-tokenizer` (also set by a settings link): `Some(true)` the
    /// chosen open model's own tokens, `Some(false)` the encoding's, `None` the default
    /// ([`SizeUnit::sized_for`]).
    pub size_tokenizer: RwSignal<Option<bool>>,
    /// The strategy whose chunks are shown (`strategy`).
    pub strategy: RwSignal<StrategyId>,
    /// The B side of the A/B view: strategy, chunk_size, chunk_overlap as typed.
    pub ab: RwSignal<AbSide>,
    /// The unit every chunk is sized in: [`CompareSettings::unit`] made the chosen model's
    /// own tokens where [`SizeUnit::sized_for`] says (a `Memo` over the unit, the choice, the
    /// model and the strategy; everything that cuts or labels chunks reads it).
    pub sized_in: Memo<SizeUnit>,
    /// The product's structure options (`heading-prefix`, `fence-repair`), which only its
    /// markdown strategy reads.
    pub structure: RwSignal<Structure>,
}

impl CompareSettings {
    /// The page's initial settings (tokens, fixed windows, the default sizing), with
    /// [`CompareSettings::sized_in`] following `models`' chosen model.
    pub fn new(models: crate::model::ModelSettings) -> Self {
        let unit = RwSignal::new(SizeUnit::Tokens);
        let size_tokenizer = RwSignal::new(None);
        let strategy = RwSignal::new(StrategyId::Fixed);
        CompareSettings {
            unit,
            size_tokenizer,
            strategy,
            ab: RwSignal::new(AbSide {
                strategy: StrategyId::LangchainRecursive,
                chunk_size: "1024".into(),
                chunk_overlap: "128".into(),
            }),
            structure: RwSignal::new(Structure::default()),
            sized_in: Memo::new(move |_| {
                unit.get().sized_for(
                    models.model.get().and_then(|m| m.tokenizer.open_vocab()),
                    size_tokenizer.get(),
                    strategy.get(),
                )
            }),
        }
    }
}

/// The B side of the A/B view.
#[derive(Clone, Debug, PartialEq)]
pub struct AbSide {
    /// B's strategy.
    pub strategy: StrategyId,
    /// B's chunk_size, as typed.
    pub chunk_size: String,
    /// B's chunk_overlap, as typed.
    pub chunk_overlap: String,
}

/// Where the worker is.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineStatus {
    /// Not started yet, or fetching and compiling its module.
    Loading,
    /// Running.
    Ready,
    /// No worker in this browser, or it failed (English detail for the console and notice).
    Failed(String),
}

/// One row of the table: filled when the worker's reply arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct RowState {
    /// The strategy.
    pub strategy: StrategyId,
    /// Its figures or refusal; `None` while pending.
    pub outcome: Option<Outcome>,
    /// Worker time for the row, in milliseconds.
    pub millis: f64,
    /// The row waits for the user (a strategy whose time grows faster than the text, on a
    /// long text: [`chunk_core::analysis::protocol::deferred`]).
    pub deferred: bool,
}

/// The comparison table of one job.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Table {
    /// The job the rows belong to (0: none yet).
    pub job: u32,
    /// One row per strategy, in [`StrategyId::all`] order.
    pub rows: Vec<RowState>,
    /// The settings the rows are for.
    pub figures: Option<Figures>,
    /// Whether the price field gave a price (else cost is not shown).
    pub priced: bool,
    /// The text the rows are of (for the deferred rows' job).
    pub text_id: u32,
    /// The job running the deferred rows, once the user started them (0: not started).
    pub deferred_job: u32,
}

impl Table {
    /// True once every row asked for has arrived (deferred ones are not asked for); rows come
    /// from two workers, so this follows the rows themselves.
    pub fn complete(&self) -> bool {
        !self.rows.is_empty() && self.rows.iter().all(|r| r.outcome.is_some() || r.deferred)
    }

    /// The strategies of a new job on a text of `text_bytes` bytes, in the order they run:
    /// strategies whose time grows faster than the text last, deferred ones left out.
    pub fn run_order(text_bytes: usize) -> Vec<StrategyId> {
        use chunk_core::analysis::protocol::{deferred, superlinear};
        let mut order: Vec<StrategyId> = StrategyId::all()
            .filter(|&s| !deferred(s, text_bytes))
            .collect();
        order.sort_by_key(|&s| superlinear(s));
        order
    }
}

/// The chosen strategy's chunks received so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ChunkPage {
    /// The selection job they belong to.
    pub job: u32,
    /// Total number of chunks.
    pub total: usize,
    /// Rows `0..rows.len()`.
    pub rows: Vec<Row>,
    /// Each row's chunk as the embedding model reads it, in tokens (its own tokenizer, special
    /// tokens and prefix: `chunk_core::analysis::compare::model_tokens`); empty without a
    /// model. Over the selection's `Summary::max_input_tokens`, the model drops the excess.
    pub model_tokens: Vec<usize>,
    /// Bytes at each row's start that the chunk before it covers too, measured
    /// (`chunk_core::analysis::layout::shared_prefix_bytes`).
    pub shared: Vec<usize>,
}

/// The worker's replies, written only by [`spawn_compare`].
#[derive(Clone, Copy)]
pub struct CompareResults {
    /// Worker status.
    pub engine: RwSignal<EngineStatus>,
    /// The comparison table.
    pub table: RwSignal<Table>,
    /// The chosen strategy's figures (`None` before the first reply or without text).
    pub selection: RwSignal<Option<Selection>>,
    /// The chosen strategy's chunks.
    pub chunks: RwSignal<ChunkPage>,
    /// The A/B view's B row: (job, outcome).
    pub ab_row: RwSignal<Option<(u32, Outcome)>>,
    /// True while B's chunk_size or chunk_overlap is not a whole number (size ≥ 1) and A's
    /// fields are valid. A `Memo`: the A/B view and its two fields read it.
    pub ab_invalid: Memo<bool>,
    /// The chosen open model's count of the text with its own tokenizer (`None`: no such
    /// model, no text, or the worker not ready).
    pub open_count: RwSignal<Option<crate::model::OpenCount>>,
    /// The formula the results card and the model panel show without a text: fixed windows
    /// of tokens, or of characters when that is the unit
    /// ([`chunk_core::formula::compute_in_characters`]); with a text, the token formula over
    /// its exact count (the fixed windows' provisional figures). A `Memo` of the calculator's
    /// fields and the unit (not a reply of the worker): both read it.
    pub formula: Memo<Option<chunk_core::formula::FormulaOutput>>,
    /// What the results card and the model panel show (a `Memo` over the text, the chosen
    /// strategy, the unit and the selection: both read it, and it changes with them only).
    pub shown: Memo<Shown>,
    /// The driver's request functions for rows, deferred rows and exports.
    pub requests: Requests,
}

/// What the results card and the model panel show for the page's one configuration (SPEC §10),
/// from what the driver received.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// No text: the formula for fixed token windows (SPEC §2).
    Formula,
    /// The chosen strategy's real chunks of the text (fixed token windows too: their tokens
    /// embedded are each window's text counted again, as the embedding API counts what it is
    /// sent, which differs from the formula's window sizes where a window cuts a character).
    Strategy {
        /// The strategy.
        strategy: StrategyId,
        /// Its figures, `None` until they arrive.
        summary: Option<Summary>,
    },
    /// The chosen strategy refused the settings or the text.
    Refused {
        /// The strategy.
        strategy: StrategyId,
        /// Why.
        refusal: Refusal,
    },
}

impl Shown {
    /// The worker's figures of the chosen strategy, when they have arrived.
    pub fn summary(&self) -> Option<&Summary> {
        match self {
            Shown::Strategy { summary, .. } => summary.as_ref(),
            Shown::Formula | Shown::Refused { .. } => None,
        }
    }
}

/// A request function the driver installs (local to the page's thread: it holds the worker).
type Stored<F> = StoredValue<Option<Rc<F>>, LocalStorage>;

/// The driver's request functions, for the components that ask for more (rows, exports).
#[derive(Clone, Copy)]
pub struct Requests {
    more_rows: Stored<dyn Fn()>,
    run_deferred: Stored<dyn Fn()>,
    export: Stored<dyn Fn(ExportFormat)>,
}

impl Requests {
    /// Asks for the next [`ROWS_PAGE`] chunks of the selection.
    pub fn more_rows(&self) {
        if let Some(f) = self.more_rows.get_value() {
            f();
        }
    }
    /// Starts the rows the table left for the user.
    pub fn run_deferred(&self) {
        if let Some(f) = self.run_deferred.get_value() {
            f();
        }
    }
    /// Asks for an export file of the selection (downloaded when it arrives).
    pub fn export(&self, format: ExportFormat) {
        if let Some(f) = self.export.get_value() {
            f(format);
        }
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
            settings,
            model: model.map(chunk_core::models::ModelRef),
            price_per_million: price.unwrap_or(0.0),
            structure: Default::default(),
        },
        price.is_some(),
    ))
}

/// B's figures: A's with B's size and overlap, when both parse as whole numbers ≥ 0 (size ≥ 1).
fn b_figures(a: &Figures, side: &AbSide) -> Option<Figures> {
    let size: usize = side.chunk_size.trim().parse().ok().filter(|&s| s >= 1)?;
    let overlap: usize = side.chunk_overlap.trim().parse().ok()?;
    Some(Figures {
        settings: Settings {
            chunk_size: size,
            chunk_overlap: overlap,
            ..a.settings
        },
        ..*a
    })
}

/// Creates and provides both contexts and starts the driver: the worker is started once the
/// page has painted, and every change of the text, the fields, the unit or the strategy
/// (debounced by [`DEBOUNCE_MS`]) sends the requests.
pub fn spawn_compare(app: PageState) {
    let models = expect_context::<crate::model::ModelSettings>();
    let settings = CompareSettings::new(models);
    // The settings every job is for. A `Memo`: the checked fields also change when the
    // tokenizer's exact count arrives (the document length), which no strategy depends on;
    // without it every finished count would restart the comparison.
    let figures = Memo::new(move |_| {
        figures_of(&app, settings.sized_in.get(), models.model.get()).map(|(f, priced)| {
            let structure = settings.structure.get();
            (Figures { structure, ..f }, priced)
        })
    });

    let selection = RwSignal::new(None::<Selection>);
    let results = CompareResults {
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
        open_count: RwSignal::new(None),
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
    };
    provide_context(settings);
    provide_context(results);
    let (retrieval_settings, retrieval_results) = retrieval::provide(app);

    let engine: StoredValue<Option<CompareEngine>, LocalStorage> = StoredValue::new_local(None);
    let jobs = Rc::new(Cell::new(0u32));
    // The text's id: a new one whenever the text (an `Arc`) is another one.
    let text_ids: StoredValue<Option<(Arc<str>, u32)>, LocalStorage> = StoredValue::new_local(None);
    let ab_job = StoredValue::new(0u32);

    // A second worker runs the strategies whose time grows faster than the text (the
    // text-splitter crate's), so that on two cores they run beside the others instead of after
    // them. `side` is `None` until it has started or failed; the page reports the engine ready
    // once both have settled, so that every fetch happens before.
    let side: StoredValue<Option<CompareEngine>, LocalStorage> = StoredValue::new_local(None);
    let main_ready = StoredValue::new(false);
    // `None` while the side worker starts, then whether it runs.
    let side_ok = StoredValue::new(None::<bool>);
    let report_ready = move || {
        let failed = matches!(results.engine.get_untracked(), EngineStatus::Failed(_));
        if main_ready.get_value() && side_ok.get_value().is_some() && !failed {
            results.engine.set(EngineStatus::Ready);
        }
    };
    let on_side_event = move |event: Event| match event {
        Event::Ready => {
            side_ok.set_value(Some(true));
            report_ready();
        }
        Event::Failed(message) => {
            // The main worker takes its rows from now on.
            crate::browser::warn(&message);
            side_ok.set_value(Some(false));
            report_ready();
            retrieval_results.worker_failed();
        }
        Event::Reply(reply) => receive(results, retrieval_results, ab_job, *reply),
    };
    // The side worker starts once the main one is ready, with the module it compiled: the
    // engine (4 MB gzip) is fetched once, not by both workers at the same time. Only the
    // first time (a main worker restarted after a trap is ready again).
    let side_started = StoredValue::new(false);
    let start_side = move || {
        if side_started.get_value() {
            return;
        }
        side_started.set_value(true);
        let module = engine.with_value(|e| e.as_ref().map(CompareEngine::module));
        let second = CompareEngine::start(on_side_event, module.unwrap_or(JsValue::UNDEFINED));
        if second.is_none() {
            side_ok.set_value(Some(false));
            report_ready();
        }
        side.set_value(second);
    };
    let on_event = move |event: Event| match event {
        Event::Ready => {
            main_ready.set_value(true);
            start_side();
            report_ready();
        }
        Event::Failed(message) => {
            crate::browser::warn(&message);
            results.engine.set(EngineStatus::Failed(message));
            retrieval_results.worker_failed();
        }
        Event::Reply(reply) => receive(results, retrieval_results, ab_job, *reply),
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

    // Start the main worker after the first paint, once the tokenizer can count (its worker
    // has the module, or the page's thread has counted a text): it fetches the engine's
    // module, 4 MB gzip, and on a slow connection the two downloads would share the
    // bandwidth, delaying the exact count that every figure waits for (Slow 4G: 19.6 s
    // instead of about 12 s). Without a worker, it waits for the first text's count. An `Effect` because it
    // only starts a worker; it does its work once. Not in the build-time render of the page
    // (crates/prerender), which runs natively: no worker there, and no timer.
    #[cfg(target_arch = "wasm32")]
    {
        let started_once = StoredValue::new(false);
        let tokenization = app.tokenization;
        // The tokenizer can count: its worker runs the module, or the page's thread has
        // counted (or could not: then nothing is gained by waiting).
        let usable = Memo::new(move |_| {
            tokenization.worker.get()
                || tokenization.tokenized.with(Option::is_some)
                || tokenization.progress.get() == crate::state::Progress::Failed
        });
        Effect::new(move |_| {
            if !usable.get() || started_once.get_value() {
                return;
            }
            started_once.set_value(true);
            set_timeout(
                move || {
                    let started = CompareEngine::start(on_event, JsValue::UNDEFINED);
                    if started.is_none() {
                        results.engine.set(EngineStatus::Failed(
                            "no module worker in this browser".into(),
                        ));
                    }
                    engine.set_value(started);
                },
                std::time::Duration::from_millis(0),
            );
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = on_event;
    // Requests for the superlinear strategies go to the side worker while it works.
    let side_usable = move || side_ok.get_value() == Some(true);
    let send_side = move |request: Request| {
        let target = if side_usable() { side } else { engine };
        target.with_value(|e| {
            if let Some(e) = e {
                e.request(request);
            }
        });
    };

    let next_job = {
        let jobs = jobs.clone();
        move || {
            jobs.set(jobs.get().wrapping_add(1).max(1));
            jobs.get()
        }
    };
    let send = move |request: Request| {
        engine.with_value(|e| {
            if let Some(e) = e {
                e.request(request);
            }
        });
    };
    let with_text = move |text: Arc<str>| -> u32 {
        let id = text_ids.with_value(|last| match last {
            Some((t, id)) if Arc::ptr_eq(t, &text) => *id,
            Some((_, id)) => id.wrapping_add(1),
            None => 1,
        });
        text_ids.set_value(Some((text.clone(), id)));
        // The pages are written with the text (`SourceText::pages`): these are this text's.
        let pages = app.source.pages.get_untracked();
        for e in [engine, side] {
            e.with_value(|e| {
                if let Some(e) = e {
                    e.set_text(id, text.clone(), pages.clone());
                }
            });
        }
        id
    };

    // The comparison table follows the text and every setting; the selection also follows
    // the strategy (choosing another strategy does not redo the table).
    let table_job = {
        let next_job = next_job.clone();
        move |text: Arc<str>, figures: Figures, priced: bool| {
            let bytes = text.len();
            let text_id = with_text(text);
            let job = next_job();
            let order = Table::run_order(bytes);
            results.table.set(Table {
                job,
                rows: StrategyId::all()
                    .map(|s| RowState {
                        strategy: s,
                        outcome: None,
                        millis: 0.0,
                        deferred: !order.contains(&s),
                    })
                    .collect(),
                figures: Some(figures),
                priced,
                text_id,
                deferred_job: 0,
            });
            // The superlinear rows run in the side worker, beside the others.
            let (slow, fast): (Vec<StrategyId>, Vec<StrategyId>) = order
                .into_iter()
                .partition(|&s| chunk_core::analysis::protocol::superlinear(s));
            send(Request::Compare {
                job,
                lane: 0,
                text_id,
                strategies: fast,
                figures,
            });
            if !slow.is_empty() {
                send_side(Request::Compare {
                    job,
                    lane: 0,
                    text_id,
                    strategies: slow,
                    figures,
                });
            }
        }
    };
    let selection_job = {
        let next_job = next_job.clone();
        move |text: Arc<str>, figures: Figures, strategy: StrategyId| {
            let text_id = with_text(text);
            select_job(results, strategy, text_id, figures, next_job(), send);
        }
    };
    debounced(move || {
        let text = app.source.text.get();
        let ready = results.engine.get() == EngineStatus::Ready;
        let figures = figures.get();
        // Whatever changed, the rows shown are no longer of the text and settings on the page:
        // drop them at once (and with them any late reply of their job), not after the delay.
        results.table.set(Table::default());
        let (Some((figures, priced)), false, true) = (figures, text.is_empty(), ready) else {
            return None;
        };
        let table_job = table_job.clone();
        Some(move || table_job(text, figures, priced))
    });
    debounced(move || {
        let text = app.source.text.get();
        let strategy = settings.strategy.get();
        let ready = results.engine.get() == EngineStatus::Ready;
        let figures = figures.get();
        // As for the table: the chosen strategy's figures and chunks are stale at once.
        results.selection.set(None);
        results.chunks.set(ChunkPage::default());
        let (Some((figures, _)), false, true) = (figures, text.is_empty(), ready) else {
            return None;
        };
        let selection_job = selection_job.clone();
        Some(move || selection_job(text, figures, strategy))
    });

    // The A/B view's B row (debounced like the table; stale at once).
    let ab_run = {
        let next_job = next_job.clone();
        move |text: Arc<str>, strategy: StrategyId, b: Figures| {
            let text_id = with_text(text);
            let job = next_job();
            ab_job.set_value(job);
            send(Request::Compare {
                job,
                lane: 1,
                text_id,
                strategies: vec![strategy],
                figures: b,
            });
        }
    };
    debounced(move || {
        let side = settings.ab.get();
        let text = app.source.text.get();
        let ready = results.engine.get() == EngineStatus::Ready;
        let a = figures.get();
        results.ab_row.set(None);
        ab_job.set_value(0);
        let b = a.and_then(|(a, _)| b_figures(&a, &side));
        let (Some(b), false, true) = (b, text.is_empty(), ready) else {
            return None;
        };
        let ab_run = ab_run.clone();
        Some(move || ab_run(text, side.strategy, b))
    });

    // The chosen open model's own count of the text (debounced like the table; stale at once).
    let open_run = {
        let next_job = next_job.clone();
        move |text: Arc<str>, vocab: OpenVocab| {
            let text_id = with_text(text);
            let job = next_job();
            results.open_count.set(Some(OpenCount {
                job,
                vocab,
                status: OpenStatus::Pending,
            }));
            send(Request::OpenCount {
                job,
                text_id,
                vocab,
            });
        }
    };
    debounced(move || {
        let text = app.source.text.get();
        let ready = results.engine.get() == EngineStatus::Ready;
        let vocab = models.model.get().and_then(|m| m.tokenizer.open_vocab());
        results.open_count.set(None);
        let (Some(vocab), false, true) = (vocab, text.is_empty(), ready) else {
            return None;
        };
        let open_run = open_run.clone();
        Some(move || open_run(text, vocab))
    });

    retrieval::drive(
        app,
        results,
        settings.sized_in,
        figures,
        retrieval_settings,
        retrieval_results,
        retrieval::Channels {
            send,
            send_side,
            with_text,
            next_job: next_job.clone(),
        },
    );

    results.requests.more_rows.set_value(Some(Rc::new(move || {
        let page = results.chunks.get_untracked();
        if page.job != 0 && page.rows.len() < page.total {
            send(Request::Rows {
                job: page.job,
                from: page.rows.len(),
                count: ROWS_PAGE,
            });
        }
    })));
    results.requests.run_deferred.set_value(Some(Rc::new({
        let next_job = next_job.clone();
        move || {
            let table = results.table.get_untracked();
            let waiting: Vec<StrategyId> = table
                .rows
                .iter()
                .filter(|r| r.deferred && r.outcome.is_none())
                .map(|r| r.strategy)
                .collect();
            let Some(figures) = table.figures else {
                return;
            };
            if waiting.is_empty() || table.deferred_job != 0 {
                return;
            }
            let job = next_job();
            results.table.update(|t| t.deferred_job = job);
            send_side(Request::Compare {
                job,
                lane: 2,
                text_id: table.text_id,
                strategies: waiting,
                figures,
            });
        }
    })));
    results
        .requests
        .export
        .set_value(Some(Rc::new(move |format| {
            if let Some(sel) = results.selection.get_untracked() {
                send(Request::Export {
                    job: sel.job,
                    format,
                });
            }
        })));
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

/// Sends a selection job for `strategy` and asks for its first rows.
fn select_job(
    results: CompareResults,
    strategy: StrategyId,
    text_id: u32,
    figures: Figures,
    job: u32,
    send: impl Fn(Request),
) {
    results.chunks.set(ChunkPage {
        job,
        ..ChunkPage::default()
    });
    send(Request::Select {
        job,
        text_id,
        strategy,
        figures,
        bins: HISTOGRAM_BINS,
    });
    send(Request::Rows {
        job,
        from: 0,
        count: ROWS_PAGE,
    });
}

/// Files one reply into the results (replies to jobs no longer current are dropped).
fn receive(
    results: CompareResults,
    retrieval: retrieval::RetrievalResults,
    ab_job: StoredValue<u32>,
    reply: Reply,
) {
    match reply {
        Reply::Row {
            job,
            strategy,
            outcome,
            millis,
        } => {
            if job != 0 && job == ab_job.get_value() {
                results.ab_row.set(Some((job, outcome)));
                return;
            }
            results.table.update(|t| {
                if t.job == job || (t.deferred_job == job && job != 0) {
                    if let Some(r) = t.rows.iter_mut().find(|r| r.strategy == strategy) {
                        r.outcome = Some(outcome);
                        r.millis = millis;
                    }
                }
            });
        }
        // Completeness follows the rows themselves (`Table::complete`).
        Reply::Compared { .. } => {}
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
        } => results.chunks.update(|c| {
            if c.job == job && from == c.rows.len() {
                c.total = total;
                c.rows.extend(rows);
                c.model_tokens.extend(model_tokens);
                c.shared.extend(shared);
            }
        }),
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
                open_status(results, job, OpenStatus::Failed(message));
            }
        }
        Reply::VocabLoading { job, .. } => open_status(results, job, OpenStatus::Loading),
        Reply::OpenCounted {
            job,
            tokens,
            millis,
            ..
        } => open_status(results, job, OpenStatus::Counted { tokens, millis }),
        Reply::Ready | Reply::NeedText { .. } => {}
        // The retrieval check's replies (completeness follows its rows, as the table's does).
        Reply::RetrievalDone { .. } | Reply::SweepCancelled { .. } => {}
        reply
        @ (Reply::RetrievalRow { .. } | Reply::SweepProgress { .. } | Reply::Swept { .. }) => {
            retrieval::receive(retrieval, reply)
        }
    }
}

/// Sets the open count's status when `job` is its current job (a stale reply notifies no
/// one).
fn open_status(results: CompareResults, job: u32, status: OpenStatus) {
    results.open_count.maybe_update(|c| match c {
        Some(c) if c.job == job && c.status != status => {
            c.status = status;
            true
        }
        _ => false,
    });
}

/// A job's status line (`role="status"`, announced politely) and its progress bar, shown only
/// while `running`; the bar carries the steps done in `data-value` and their number in
/// `data-total`. Shared by the comparison table and the retrieval check.
#[component]
pub fn StatusProgress(
    /// data-testid of the status line.
    status_testid: &'static str,
    /// data-testid of the bar.
    progress_testid: &'static str,
    /// The status text.
    #[prop(into)]
    text: Signal<String>,
    /// Steps done.
    #[prop(into)]
    done: Signal<usize>,
    /// Steps in the job.
    #[prop(into)]
    total: Signal<usize>,
    /// Whether the job runs (the bar is hidden otherwise).
    #[prop(into)]
    running: Signal<bool>,
) -> impl IntoView {
    view! {
        <p class="compare-status" data-testid=status_testid role="status" aria-live="polite">
            {text}
        </p>
        <progress
            data-testid=progress_testid
            max=move || total.get().max(1)
            value=move || done.get()
            data-value=move || done.get()
            data-total=move || total.get()
            class:hidden=move || !running.get()
        ></progress>
    }
}

/// The `chunk-size-unit` select: tokens or characters for chunk_size and chunk_overlap of the
/// strategies and of the results card (every figure is still counted in tokens).
#[component]
pub fn SizeUnitSelect() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let m = move |msg: Msg| messages::text(app.language.lang.get(), msg);
    let on_change = move |ev| {
        let unit = match event_target_value(&ev).as_str() {
            "characters" => SizeUnit::Characters,
            _ => SizeUnit::Tokens,
        };
        settings.unit.set(unit);
    };
    view! {
        <div class="field">
            <label for="chunk-size-unit">{move || m(Msg::SizeUnitLabel)}</label>
            <select id="chunk-size-unit" data-testid="chunk-size-unit" on:change=on_change>
                <option value="tokens" selected=move || settings.unit.get() == SizeUnit::Tokens>
                    {move || m(Msg::UnitTokens)}
                </option>
                <option value="characters" selected=move || settings.unit.get() == SizeUnit::Characters>
                    {move || m(Msg::UnitCharacters)}
                </option>
            </select>
            <p class="field-note">{move || m(Msg::UnitNote)}</p>
        </div>
    }
}

/// The `size-tokenizer` select: whose tokens chunk_size and chunk_overlap count — the chosen
/// model's own tokenizer (`model`, offered for a model with an open one) or an encoding
/// (`cl100k_base`, `o200k_base`, which is also the calculator's tokenizer). Shown when the
/// unit is tokens; `data-value` is what sizes the chunks now.
#[component]
pub fn SizeTokenizerSelect() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<CompareSettings>();
    let models = expect_context::<crate::model::ModelSettings>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Msg| messages::text(lang(), msg);
    let open = move || models.model.get().and_then(|x| x.tokenizer.open_vocab());
    let value = move || match settings.sized_in.get() {
        SizeUnit::Model(_) => "model",
        _ => app.fields.encoding.get().name(),
    };
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        if v == "model" {
            settings.size_tokenizer.set(Some(true));
        } else if let Some(e) = Encoding::from_name(&v) {
            settings.size_tokenizer.set(Some(false));
            app.fields.encoding.set(e);
        }
    };
    view! {
        <div class="field" class:hidden=move || settings.sized_in.get() == SizeUnit::Characters>
            <label for="size-tokenizer">{move || m(Msg::SizeTokenizerLabel)}</label>
            <select
                id="size-tokenizer"
                data-testid="size-tokenizer"
                data-value=value
                prop:value=value
                on:change=on_change
            >
                {move || {
                    open()
                        .map(|v| {
                            view! {
                                <option value="model" selected=move || value() == "model">
                                    {move || {
                                        cmp_msg::SizeTokenizerModel {
                                            tokenizer: v.label(),
                                        }
                                        .fill(lang())
                                    }}
                                </option>
                            }
                        })
                }}
                {Encoding::ALL
                    .into_iter()
                    .map(|e| {
                        view! {
                            <option value=e.name() selected=move || value() == e.name()>
                                {e.name()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <p class="field-note">{move || m(Msg::SizeTokenizerNote)}</p>
        </div>
    }
}

/// The strategy's display name: the library's class for library strategies, else the
/// product's own name in `lang`.
/// Every strategy is named here (no catch-all): a new one does not compile until it has a name.
pub fn strategy_name(lang: Lang, id: StrategyId) -> String {
    let own = match id {
        StrategyId::Fixed => Msg::OwnFixed,
        StrategyId::Sentence => Msg::OwnSentence,
        StrategyId::Recursive => Msg::OwnRecursive,
        StrategyId::Markdown => Msg::OwnMarkdown,
        StrategyId::SectionBudget => Msg::OwnSectionBudget,
        StrategyId::LangchainToken
        | StrategyId::LangchainRecursive
        | StrategyId::LangchainMarkdown
        | StrategyId::LangchainMarkdownLanguage
        | StrategyId::TextSplitter
        | StrategyId::TextSplitterMarkdown
        | StrategyId::Semchunk
        | StrategyId::ChonkieRecursive
        | StrategyId::ChonkieToken
        | StrategyId::LlamaindexToken
        | StrategyId::LlamaindexSentence
        | StrategyId::LlamaindexMarkdown => {
            return id.library().map_or_else(
                || id.to_string(),
                |lib| format!("{} · {}", lib.label(), lib.api),
            )
        }
    };
    messages::text(lang, own).to_owned()
}

/// A refusal worded in `lang`, with its numbers formatted.
pub fn refusal_text(lang: Lang, r: &Refusal) -> String {
    // A field as shown: a whole number formatted for the language (but a strategy's name),
    // anything else as the core wrote it; a field the refusal lacks is shown empty.
    let shown = |name: &str| -> String {
        let v = r.field(name).unwrap_or_default();
        match v.parse::<u64>() {
            Ok(n) if name != "strategy" => crate::format::int(lang, n),
            _ => v.to_owned(),
        }
    };
    let (library, chunk_size, chunk_overlap) = (
        shown("library"),
        shown("chunk_size"),
        shown("chunk_overlap"),
    );
    let (byte_offset, found, tokens) = (shown("byte_offset"), shown("found"), shown("tokens"));
    match r.kind.as_str() {
        "zero-chunk-size" => messages::text(lang, Msg::RefusedZeroSize).to_owned(),
        "overlap-refused" => cmp_msg::RefusedOverlap {
            library: &library,
            chunk_overlap: &chunk_overlap,
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "unit-unsupported" => {
            let unit_name = match r.field("unit") {
                Some("characters") => messages::text(lang, Msg::UnitCharacters),
                Some("model") => {
                    // Token windows decode ids; the page's own strategies cut at the encoding's
                    // token boundaries.
                    let own = r
                        .field("strategy")
                        .and_then(|s| s.parse::<StrategyId>().ok())
                        .is_some_and(|s| s.library().is_none() && s != StrategyId::Fixed);
                    let msg = if own {
                        Msg::RefusedModelUnitOwn
                    } else {
                        Msg::RefusedModelUnit
                    };
                    return messages::text(lang, msg).to_owned();
                }
                _ => messages::text(lang, Msg::UnitTokens),
            };
            cmp_msg::RefusedUnit { unit_name }.fill(lang)
        }
        "tokenizer-not-loaded" => messages::text(lang, Msg::RefusedNotLoaded).to_owned(),
        "model-decode" => cmp_msg::RefusedModelDecode {
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "text-refused" => cmp_msg::RefusedText {
            library: &library,
            found: &found,
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "character-over-chunk-size" => cmp_msg::RefusedCharacter {
            library: &library,
            byte_offset: &byte_offset,
            tokens: &tokens,
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "recursion-limit" => cmp_msg::RefusedRecursion {
            library: &library,
            byte_offset: &byte_offset,
        }
        .fill(lang),
        "metadata-over-chunk-size" => cmp_msg::RefusedMetadata {
            library: &library,
            byte_offset: &byte_offset,
            metadata_length: &shown("metadata_length"),
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "prefix-over-budget" => cmp_msg::RefusedPrefix {
            prefix_length: &shown("prefix_length"),
            chunk_size: &chunk_size,
        }
        .fill(lang),
        "parameter-refused" => cmp_msg::RefusedParameter {
            parameter: &shown("parameter"),
        }
        .fill(lang),
        _ => r.english.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::strategy::StrategyError;
    use chunk_core::tokenizer::Encoding;

    #[test]
    fn b_takes_as_settings_and_its_own_whole_sizes() {
        let a = Figures {
            settings: Settings {
                chunk_size: 512,
                chunk_overlap: 64,
                unit: SizeUnit::Characters,
                encoding: Encoding::O200kBase,
            },
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
        };
        let side = |s: &str, o: &str| AbSide {
            strategy: StrategyId::Fixed,
            chunk_size: s.into(),
            chunk_overlap: o.into(),
        };
        let b = b_figures(&a, &side(" 1024 ", "128")).expect("whole numbers");
        assert_eq!(
            (b.settings.chunk_size, b.settings.chunk_overlap),
            (1024, 128)
        );
        assert_eq!(b.settings.unit, SizeUnit::Characters);
        assert_eq!(b.settings.encoding, Encoding::O200kBase);
        assert_eq!(b_figures(&a, &side("0", "0")), None);
        assert_eq!(b_figures(&a, &side("12.5", "0")), None);
        assert_eq!(b_figures(&a, &side("100", "-1")), None);
    }

    #[test]
    fn a_table_is_complete_when_every_row_asked_for_has_arrived() {
        let row = |strategy, outcome: Option<Outcome>, deferred| RowState {
            strategy,
            outcome,
            millis: 0.0,
            deferred,
        };
        let refused = Some(Outcome::Refused {
            refusal: Refusal::from(&StrategyError::Params(
                chunk_core::params::ParamsError::ZeroChunkSize,
            )),
        });
        let mut t = Table {
            rows: vec![
                row(StrategyId::Fixed, refused.clone(), false),
                row(StrategyId::TextSplitter, None, true),
                row(StrategyId::Semchunk, None, false),
            ],
            ..Table::default()
        };
        assert!(!t.complete());
        t.rows[2].outcome = refused;
        assert!(t.complete());
        assert!(!Table::default().complete());
    }

    #[test]
    fn text_splitter_runs_last_and_waits_on_long_texts() {
        let short = Table::run_order(1_000_000);
        assert_eq!(short.len(), 17);
        assert_eq!(
            &short[15..],
            [StrategyId::TextSplitter, StrategyId::TextSplitterMarkdown]
        );
        let long = Table::run_order(10_000_000);
        assert_eq!(long.len(), 15);
        assert!(!long.contains(&StrategyId::TextSplitter));
    }

    #[test]
    fn every_refusal_is_worded_with_its_numbers_in_every_language() {
        let errors = [
            StrategyError::Params(chunk_core::params::ParamsError::ZeroChunkSize),
            StrategyError::OverlapRefused {
                strategy: StrategyId::LangchainRecursive,
                library: "langchain-text-splitters",
                chunk_size: 100,
                chunk_overlap: 150,
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Semchunk,
                unit: SizeUnit::Characters,
            },
            StrategyError::TextRefused {
                strategy: StrategyId::LangchainToken,
                library: "langchain-text-splitters",
                byte_offset: 42,
                found: "<|endoftext|>",
            },
            StrategyError::CharacterOverChunkSize {
                strategy: StrategyId::Semchunk,
                library: "semchunk",
                byte_offset: 7,
                tokens: 3,
                chunk_size: 2,
            },
            StrategyError::RecursionLimit {
                strategy: StrategyId::LlamaindexSentence,
                library: "llama-index-core",
                byte_offset: 9,
            },
            StrategyError::ParameterRefused {
                strategy: StrategyId::Semchunk,
                parameter: "chunk_size",
                detail: "must be positive",
            },
            StrategyError::MetadataOverChunkSize {
                strategy: StrategyId::LlamaindexMarkdown,
                library: "llama-index-core",
                metadata_length: 1250,
                chunk_size: 1024,
                byte_offset: 4096,
            },
            StrategyError::TokenizerNotLoaded {
                vocab: OpenVocab::XlmRoberta,
            },
            StrategyError::PrefixOverBudget {
                prefix_length: 9,
                chunk_size: 8,
                byte_offset: 0,
            },
            StrategyError::ModelDecode {
                strategy: StrategyId::ChonkieRecursive,
                byte_offset: 1234,
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Fixed,
                unit: SizeUnit::Model(OpenVocab::BertUncased),
            },
            StrategyError::UnitUnsupported {
                strategy: StrategyId::Recursive,
                unit: SizeUnit::Model(OpenVocab::BertUncased),
            },
        ];
        for lang in Lang::ALL {
            let mut seen = std::collections::HashSet::new();
            for e in &errors {
                let text = refusal_text(lang, &Refusal::from(e));
                assert!(!text.contains('{'), "{lang:?} {e}: {text}");
                assert!(
                    seen.insert(text.clone()),
                    "{lang:?}: two refusals, one text: {text}"
                );
            }
            let t = refusal_text(lang, &Refusal::from(&errors[1]));
            assert!(t.contains("150") && t.contains("100"), "{lang:?}: {t}");
            let model_decode = errors
                .iter()
                .find(|e| matches!(e, StrategyError::ModelDecode { .. }))
                .expect("in the list");
            let decode = refusal_text(lang, &Refusal::from(model_decode));
            assert!(
                decode.contains(&crate::format::int(lang, 1234u32)),
                "{lang:?}: {decode}"
            );
            let metadata = errors
                .iter()
                .find(|e| matches!(e, StrategyError::MetadataOverChunkSize { .. }))
                .expect("in the list");
            let metadata = refusal_text(lang, &Refusal::from(metadata));
            for n in [1250u32, 1024, 4096] {
                assert!(
                    metadata.contains(&crate::format::int(lang, n)),
                    "{lang:?}: {metadata}"
                );
            }
        }
    }
}
