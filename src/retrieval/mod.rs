//! The retrieval check (SPEC §8) on the user's own text: question/answer pairs, whether one
//! chunk of each strategy holds the whole answer and where BM25 ranks it, the span metrics of
//! the top k, and a sweep of one strategy over chunk sizes × overlaps. Every figure comes from
//! the comparison worker (`Request::Retrieval`, `Request::Sweep`, evaluated by
//! `chunk_core::retrieval`); this module keeps the pairs, checks the fields, schedules the
//! requests (through `crate::jobs`, which sends them and files the replies) and
//! renders the replies.
//!
//! Contexts (Leptos todomvc style):
//! - [`RetrievalSettings`]: the pairs and the section's fields, written by the section's own
//!   inputs ([`RetrievalCheck`]) and by the settings link (`crate::share`);
//! - [`RetrievalResults`]: the worker's replies, written only by `crate::jobs`, and two memos
//!   over the settings (`state`).
//!
//! Hooks: `retrieval` (the section; `data-state` = `idle` (no text or no pair) | `invalid` (a
//! pair, a field of this section or of the calculator is wrong) | `loading` | `running` |
//! `done` | `failed`), `retrieval-why`, `retrieval-rules`, `qa-question`, `qa-answer`,
//! `qa-from-selection`, `qa-marked` (the span an answer taken from the selection has), `qa-add`,
//! `qa-error`, `qa-list` with one `qa-pair` per pair (`data-index`, `data-state` = `ok` |
//! `error`, `data-start` / `data-end`: the answer's byte span when placed, `data-problem`:
//! [`PairProblem::code`] when not, `data-count`: an ambiguous answer's occurrences) and its
//! `qa-remove`, `qa-import` (file input), `qa-import-message`,
//! `qa-export`, `qa-clear`, `retrieval-k`, `bm25-k1`, `bm25-b`, `retrieval-param-error`,
//! `retrieval-status`, `retrieval-progress` (`data-value` rows done, `data-total`),
//! `retrieval-left-out` (the strategies left out on a long text),
//! `retrieval-pair` (select: `all` or a pair's 0-based index), `retrieval-table`, one
//! `retrieval-row` per strategy (`data-strategy`, `data-pair` = `all` or the index,
//! `data-millis`; `data-refused` when the strategy refused; absent figures while pending):
//! - for one pair: `data-chunks`, `data-tokens-embedded`, `data-whole` (0-based index of the
//!   best-ranked chunk holding the whole answer, or -1), `data-rank` (its 1-based BM25 rank,
//!   absent when no chunk holds it), `data-hit-at-1` / `-3` / `-5` (`true` | `false`),
//!   `data-recall`, `data-precision`, `data-iou` (of the top k, in `[0, 1]`);
//! - for all pairs: `data-chunks`, `data-tokens-embedded`, `data-whole-count`,
//!   `data-hits-at-1` / `-3` / `-5` / `-k`, `data-mean-recall`, `data-mean-precision`,
//!   `data-mean-iou`;
//!
//! and for the sweep: `sweep-strategy` (select of strategy ids), `sweep-run`, `sweep-progress`
//! (`data-value` settings done, `data-total`), `sweep-failed`, `sweep-heatmap` (`data-state` =
//! `idle` | `running` | `done` | `failed`, `data-strategy` once done) holding two tables (`data-metric` = `whole` | `iou`)
//! of `sweep-cell`s (`data-chunk-size`, `data-overlap-percent`, `data-chunk-overlap`,
//! `data-tokens-embedded`, `data-hits-at-k`, `data-all-whole-top-k`, `data-all-whole-top-3`,
//! `data-mean-iou`, `data-refused`, `data-best` on the best), `sweep-best` (`data-value` =
//! `chunk_size=N,chunk_overlap=M` of the cheapest setting that keeps every answer whole in the
//! top 3, empty when none does) and `sweep-apply`.

use crate::retrieval::messages::args as ret_msg;

use chunk_core::analysis::protocol::{deferred, RetrievalOutcome, RetrievalPair};
use chunk_core::retrieval::{
    parse_qa, question_too_long, write_qa_jsonl, Aggregate, AnswerError, CellOutcome, DenseModel,
    QaAnswer, QaJsonlError, QaLine, Retriever, Sweep, SweepCell, SweepGrid, SweepObjective,
    MAX_QUESTION_CHARS,
};
use chunk_core::strategy::{SizeUnit, StrategyId};
use leptos::prelude::*;
use strum::IntoEnumIterator;

pub mod messages;
pub mod state;

use crate::compare::{refusal_text, strategy_name, CompareResults, CompareSettings, EngineStatus};
use crate::embed::messages::{self as em, args as em_args, Em};
use crate::embed::{EmbedRuntime, EmbedStatus};
use crate::format;
use crate::i18n::Lang;
use crate::state::PageState;
use messages::{self as rm, Rm};
use state::*;

/// The section's state (`data-state`).
fn section_state(
    app: PageState,
    compare: CompareResults,
    results: RetrievalResults,
) -> &'static str {
    let no_pairs = results.resolved.with(|r| r.is_empty());
    let bad = results.resolved.with(|r| r.iter().any(|p| p.is_err()))
        || results.params.with(|p| p.is_err())
        || app
            .derived
            .checked
            .with(|c| c.size_value.is_none() || c.requested_overlap.is_none());
    match compare.engine.get() {
        EngineStatus::Failed(_) => "failed",
        _ if app.source.text.with(|t| t.is_empty()) || no_pairs => "idle",
        _ if results.table.with(|t| t.failed) => "failed",
        _ if bad => "invalid",
        EngineStatus::Loading => "loading",
        EngineStatus::Ready if results.table.with(|t| t.job == 0) => "loading",
        EngineStatus::Ready if results.table.with(|t| t.complete()) => "done",
        EngineStatus::Ready => "running",
    }
}

/// The words of a pair's problem.
fn problem_text(lang: Lang, p: &PairProblem) -> String {
    let n = |x: usize| format::int(lang, x as u64);
    let t = |msg| rm::text(lang, msg);
    match p {
        PairProblem::NoQuestion => t(Rm::ProblemNoQuestion).to_owned(),
        PairProblem::Moved => t(Rm::ProblemMoved).to_owned(),
        PairProblem::Answer(e) => match e {
            AnswerError::EmptyAnswer => t(Rm::ProblemEmpty).to_owned(),
            AnswerError::NotFound => t(Rm::ProblemNotFound).to_owned(),
            AnswerError::Ambiguous {
                count,
                first,
                second,
            } => ret_msg::ProblemAmbiguous {
                count: &n(*count),
                first: &n(*first),
                second: &n(*second),
            }
            .fill(lang),
            AnswerError::EmptySpan { start, end }
            | AnswerError::Reversed { start, end }
            | AnswerError::OutOfRange { start, end, .. } => ret_msg::ProblemSpan {
                start: &n(*start),
                end: &n(*end),
            }
            .fill(lang),
            AnswerError::NotCharBoundary { offset } => ret_msg::ProblemBoundary {
                offset: &n(*offset),
            }
            .fill(lang),
        },
    }
}

/// The words of an import error.
fn import_error_text(lang: Lang, e: &QaJsonlError) -> String {
    // serde_json's own words ("expected usize at line 1 column 26") are for the console, not
    // the page: the message says what a line must be.
    let line = |line: &usize| format::int(lang, *line as u64);
    match e {
        QaJsonlError::Json { line: l, .. } => ret_msg::ImportBadJson { line: &line(l) }.fill(lang),
        QaJsonlError::NoAnswer { line: l } => ret_msg::ImportNoAnswer { line: &line(l) }.fill(lang),
        QaJsonlError::AnswerAndSpan { line: l } => {
            ret_msg::ImportAnswerAndSpan { line: &line(l) }.fill(lang)
        }
        QaJsonlError::HalfSpan { line: l } => ret_msg::ImportHalfSpan { line: &line(l) }.fill(lang),
        QaJsonlError::CsvHeader { .. } => rm::text(lang, Rm::ImportCsvHeader).to_owned(),
        QaJsonlError::Csv { line: l, .. } => ret_msg::ImportCsvLine { line: &line(l) }.fill(lang),
        QaJsonlError::References { line: l, count } => ret_msg::ImportReferences {
            line: &line(l),
            count: &line(count),
        }
        .fill(lang),
        QaJsonlError::QuestionTooLong {
            line: l,
            chars,
            max,
        } => ret_msg::ImportQuestionTooLong {
            line: &line(l),
            chars: &line(chars),
            max: &line(max),
        }
        .fill(lang),
    }
}

/// What the last import did.
#[derive(Clone, Debug, PartialEq)]
enum ImportMessage {
    Imported(usize),
    Failed(QaJsonlError),
    Empty,
    TooMany,
    TooLarge,
    NotText,
}

/// What the form lacks to add a pair (or to take a selection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    Question,
    Answer,
    Selection,
    /// The question is longer than [`MAX_QUESTION_CHARS`]: it has this many characters.
    ShorterQuestion(usize),
}

/// The whole retrieval section.
#[component]
pub fn RetrievalCheck() -> impl IntoView {
    let app = PageState::from_context();
    let compare = expect_context::<CompareResults>();
    let results = expect_context::<RetrievalResults>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Rm| rm::text(lang(), msg);
    let state = move || section_state(app, compare, results);

    let progress_done = move || results.table.with(|t| t.strategies_done().0);
    let progress_total = move || results.table.with(|t| t.strategies_done().1);
    let status_text = move || {
        let l = lang();
        let n = |x: usize| format::int(l, x as u64);
        match state() {
            "failed" if results.table.with(|t| t.failed) => m(Rm::JobFailed).to_owned(),
            "failed" => {
                crate::compare::messages::text(l, crate::compare::messages::Msg::EngineFailed)
                    .to_owned()
            }
            "idle" if app.source.text.with(|t| t.is_empty()) => m(Rm::Idle).to_owned(),
            "idle" => m(Rm::IdleNoPairs).to_owned(),
            "invalid" => m(Rm::Invalid).to_owned(),
            "loading" => m(Rm::Loading).to_owned(),
            s => {
                let (done, total) = (n(progress_done()), n(progress_total()));
                let (done, total) = (done.as_str(), total.as_str());
                if s == "done" {
                    ret_msg::Done { done, total }.fill(l)
                } else {
                    ret_msg::Running { done, total }.fill(l)
                }
            }
        }
    };
    let left_out = move || {
        let names: Vec<String> = results.table.with(|t| {
            t.left_out
                .iter()
                .map(|&s| strategy_name(lang(), s))
                .collect()
        });
        (!names.is_empty()).then(|| {
            view! {
                <p class="hint" data-testid="retrieval-left-out">
                    {ret_msg::LeftOut { names: &names.join(", ") }.fill(lang())}
                </p>
            }
        })
    };

    view! {
        <section class="panel retrieval" data-testid="retrieval" data-state=state>
            <h2 id="retrieval-heading">{move || m(Rm::Heading)}</h2>
            <p class="hint" data-testid="retrieval-why">{move || m(Rm::Why)}</p>
            <details class="retrieval-rules" data-testid="retrieval-rules">
                <summary>{move || m(Rm::RulesSummary)}</summary>
                <p>{move || m(Rm::RuleTerms)}</p>
                <p>{move || m(Rm::RuleBm25)}</p>
                <pre class="formula" tabindex="0" role="region" aria-label="BM25">
                    "score(D, Q) = Σ IDF(t) · f(t, D) · (k1 + 1) / (f(t, D) + k1 · (1 − b + b · |D| / avgdl))\nIDF(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))"
                </pre>
                <p>{move || m(Rm::RuleWhole)}</p>
                <p>{move || m(Rm::RuleSpans)}</p>
                <p data-testid="retrieval-rule-ranks">{move || m(Rm::RuleRanks)}</p>
                <pre class="formula" tabindex="0" role="region" aria-label="recall, precision, IoU">
                    "recall = I / |A|    precision = I / Σ|R_i|    IoU = I / (Σ|R_i| + |A| − I)"
                </pre>
            </details>
            <PairForm/>
            <PairList/>
            <ParamsFields/>
            <RetrieverField/>
            <crate::compare::StatusProgress
                status_testid="retrieval-status"
                progress_testid="retrieval-progress"
                text=Signal::derive(status_text)
                done=Signal::derive(progress_done)
                total=Signal::derive(progress_total)
                running=Signal::derive(move || state() == "running")
            />
            {left_out}
            <RetrievalTableView/>
            <SweepView/>
        </section>
    }
}

/// Question, answer, "use the selection" and "add".
#[component]
fn PairForm() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<RetrievalSettings>();
    let m = move |msg: Rm| rm::text(app.language.lang.get(), msg);
    let question = RwSignal::new(String::new());
    let answer = RwSignal::new(String::new());
    // The span of the answer field's text when it came from a selection in the text box, and
    // that text: typing in the field drops it (the text is then located instead).
    let marked = RwSignal::new(None::<(usize, usize, String)>);
    let error = RwSignal::new(None::<Missing>);

    let from_selection = move |_| {
        let text = app.source.text.get_untracked();
        let picked = crate::file_input::text_box_selection()
            .map(|(value, s, e)| {
                let chosen = value[s..e].to_owned();
                // The box shows the state's text, except where the browser rewrote line ends
                // (a file with CR LF): then the chosen text is located instead.
                let same = text.get(s..e) == Some(chosen.as_str());
                (chosen, same.then_some((s, e)))
            })
            .or_else(|| crate::browser::selected_text().map(|t| (t, None)));
        match picked {
            Some((chosen, span)) => {
                answer.set(chosen.clone());
                marked.set(span.map(|(s, e)| (s, e, chosen)));
                error.set(None);
            }
            None => error.set(Some(Missing::Selection)),
        }
    };
    let add = move |_| {
        let q = question.get_untracked().trim().to_owned();
        let a = answer.get_untracked();
        if q.is_empty() {
            error.set(Some(Missing::Question));
            return;
        }
        // Kept in the field (nothing is lost): the user shortens it.
        if let Some(chars) = question_too_long(&q) {
            error.set(Some(Missing::ShorterQuestion(chars)));
            return;
        }
        if a.trim().is_empty() {
            error.set(Some(Missing::Answer));
            return;
        }
        let pair = match marked.get_untracked() {
            Some((start, end, text)) if text == a => PairInput {
                question: q,
                answer: QaAnswer::Span { start, end },
                marked: Some(text),
            },
            _ => PairInput {
                question: q,
                answer: QaAnswer::Text(a),
                marked: None,
            },
        };
        settings.pairs.update(|ps| ps.push(pair));
        question.set(String::new());
        answer.set(String::new());
        marked.set(None);
        error.set(None);
    };
    let error_text = move || {
        error.get().map(|e| {
            let l = app.language.lang.get();
            let text = match e {
                Missing::Question => m(Rm::FormNoQuestion).to_owned(),
                Missing::Answer => m(Rm::FormNoAnswer).to_owned(),
                Missing::Selection => m(Rm::FormNoSelection).to_owned(),
                Missing::ShorterQuestion(chars) => ret_msg::FormQuestionTooLong {
                    chars: &format::int(l, chars as u64),
                    max: &format::int(l, MAX_QUESTION_CHARS as u64),
                }
                .fill(l),
            };
            view! { <p class="field-error" data-testid="qa-error" role="alert">{text}</p> }
        })
    };
    let marked_note = move || {
        marked.get().map(|(s, e, _)| {
            let l = app.language.lang.get();
            let text = ret_msg::MarkedAt {
                start: &format::int(l, s as u64),
                end: &format::int(l, e as u64),
            }
            .fill(l);
            view! { <p class="field-note" data-testid="qa-marked">{text}</p> }
        })
    };
    view! {
        <div class="qa-form">
            <div class="field">
                <label for="qa-question">{move || m(Rm::QuestionLabel)}</label>
                <input
                    id="qa-question"
                    data-testid="qa-question"
                    type="text"
                    prop:value=question
                    on:input=move |ev| question.set(event_target_value(&ev))
                />
            </div>
            <div class="field">
                <label for="qa-answer">{move || m(Rm::AnswerLabel)}</label>
                <textarea
                    id="qa-answer"
                    data-testid="qa-answer"
                    rows="2"
                    prop:value=answer
                    on:input=move |ev| {
                        // A typed answer is located, not the span marked before.
                        answer.set(event_target_value(&ev));
                        marked.set(None);
                    }
                ></textarea>
                <p class="field-note">{move || m(Rm::AnswerNote)}</p>
                {marked_note}
            </div>
            <div class="qa-buttons">
                <button type="button" data-testid="qa-from-selection" on:click=from_selection>
                    {move || m(Rm::FromSelection)}
                </button>
                <button type="button" data-testid="qa-add" on:click=add>
                    {move || m(Rm::Add)}
                </button>
            </div>
            {error_text}
        </div>
    }
}

/// The list of pairs, each with its state, and import / export / clear.
#[component]
fn PairList() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<RetrievalSettings>();
    let results = expect_context::<RetrievalResults>();
    let m = move |msg: Rm| rm::text(app.language.lang.get(), msg);
    let import_message = RwSignal::new(None::<ImportMessage>);

    let on_import = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        if file.size() > crate::file_input::MAX_FILE_BYTES {
            import_message.set(Some(ImportMessage::TooLarge));
            return;
        }
        leptos::task::spawn_local(async move {
            let message = match crate::file_input::read_file_text(file).await {
                Err(_) => ImportMessage::NotText,
                Ok(text) => match parse_qa(&text) {
                    // Nothing to import must not empty the list.
                    Ok(lines) if lines.is_empty() => ImportMessage::Empty,
                    Ok(lines) if lines.len() > MAX_PAIRS => ImportMessage::TooMany,
                    Ok(lines) => {
                        let n = lines.len();
                        settings.pairs.set(
                            lines
                                .into_iter()
                                .map(|l| PairInput {
                                    question: l.question.trim().to_owned(),
                                    answer: l.answer,
                                    marked: None,
                                })
                                .collect(),
                        );
                        ImportMessage::Imported(n)
                    }
                    Err(e) => ImportMessage::Failed(e),
                },
            };
            import_message.set(Some(message));
        });
    };
    let export = move |_| {
        let lines: Vec<QaLine> = settings
            .pairs
            .with_untracked(|ps| ps.iter().map(PairInput::line).collect());
        crate::browser::download(
            "qa-pairs.jsonl",
            "application/jsonl",
            &write_qa_jsonl(&lines),
        );
    };
    let message_view = move || {
        import_message.get().map(|msg| {
            let l = app.language.lang.get();
            let (class, text) = match msg {
                ImportMessage::Imported(n) => (
                    "file-msg ok",
                    ret_msg::Imported {
                        n: &format::int(l, n as u64),
                    }
                    .fill(l),
                ),
                ImportMessage::Failed(e) => ("file-msg error", import_error_text(l, &e)),
                ImportMessage::Empty => ("file-msg error", m(Rm::ImportEmpty).to_owned()),
                ImportMessage::TooMany => (
                    "file-msg error",
                    ret_msg::ImportTooMany {
                        max: &format::int(l, MAX_PAIRS as u64),
                    }
                    .fill(l),
                ),
                ImportMessage::NotText => ("file-msg error", m(Rm::ImportNotText).to_owned()),
                ImportMessage::TooLarge => {
                    let max =
                        chunk_core::text_stats::whole_mib(crate::file_input::MAX_FILE_BYTES as u64);
                    (
                        "file-msg error",
                        ret_msg::ImportTooLarge {
                            max: &format::int(l, max),
                        }
                        .fill(l),
                    )
                }
            };
            view! { <p class=class role="status" data-testid="qa-import-message">{text}</p> }
        })
    };
    let items = move || {
        let l = app.language.lang.get();
        let text = app.source.text.get();
        let resolved = results.resolved.get();
        settings.pairs.with(|ps| {
            ps.iter()
                .zip(resolved)
                .enumerate()
                .map(|(i, (p, r))| {
                    let answer_text = match (&p.answer, &r) {
                        (QaAnswer::Text(t), _) => t.clone(),
                        (QaAnswer::Span { .. }, Ok(pair)) => {
                            text.get(pair.answer.clone()).unwrap_or_default().to_owned()
                        }
                        // A marked answer the text moved: what was marked.
                        (QaAnswer::Span { .. }, Err(_)) if p.marked.is_some() => {
                            p.marked.clone().unwrap_or_default()
                        }
                        (QaAnswer::Span { start, end }, Err(_)) => ret_msg::SpanOnly { start: &format::int(l, *start as u64), end: &format::int(l, *end as u64) }.fill(l),
                    };
                    let (state, start, end, problem) = match &r {
                        Ok(pair) => ("ok", Some(pair.answer.start), Some(pair.answer.end), None),
                        Err(e) => ("error", None, None, Some(problem_text(l, e))),
                    };
                    let code = r.as_ref().err().map(PairProblem::code);
                    let count = r.as_ref().err().and_then(PairProblem::count);
                    let where_text = start.zip(end).map(|(s, e)| {
                        ret_msg::PairAt { start: &format::int(l, s as u64), end: &format::int(l, e as u64) }.fill(l)
                    });
                    let remove = move |_| {
                        settings.pairs.update(|ps| {
                            if i < ps.len() {
                                ps.remove(i);
                            }
                        });
                        settings.shown.set(Shown::All);
                        // "Pairs imported: n" is no longer true of the list.
                        import_message.set(None);
                    };
                    view! {
                        <li
                            data-testid="qa-pair"
                            data-index=i
                            data-state=state
                            data-start=start
                            data-end=end
                            data-problem=code
                            data-count=count
                            class:error=state == "error"
                        >
                            <span class="qa-q">{format!("{}. {}", i + 1, p.question)}</span>
                            <span class="qa-a">{preview(l, &answer_text)}</span>
                            <span class="qa-where">{where_text}</span>
                            <span class="field-error">{problem}</span>
                            <button
                                type="button"
                                class="link"
                                data-testid="qa-remove"
                                aria-label=ret_msg::RemoveLabel { n: &format::int(l, (i + 1) as u64) }.fill(l)
                                on:click=remove
                            >
                                {rm::text(l, Rm::Remove)}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <ol class="qa-list" data-testid="qa-list">{items}</ol>
        <div class="qa-file">
            <label class="button">
                {move || m(Rm::Import)}
                <input
                    type="file"
                    class="visually-hidden"
                    data-testid="qa-import"
                    accept=".jsonl,.json,.csv,.txt,application/jsonl,application/json,text/csv,text/plain"
                    on:change=on_import
                />
            </label>
            <button
                type="button"
                data-testid="qa-export"
                disabled=move || settings.pairs.with(|p| p.is_empty())
                on:click=export
            >
                {move || m(Rm::Export)}
            </button>
            <button
                type="button"
                data-testid="qa-clear"
                disabled=move || settings.pairs.with(|p| p.is_empty())
                on:click=move |_| {
                    settings.pairs.set(Vec::new());
                    settings.shown.set(Shown::All);
                    import_message.set(None);
                }
            >
                {move || m(Rm::Clear)}
            </button>
            <p class="field-note">{move || m(Rm::ImportNote)}</p>
            {message_view}
        </div>
    }
}

/// At most 160 characters of `s` on one line, quoted as `lang` quotes: a line break shows as
/// `↵`, so that an answer that ends in one (and so does not occur) shows why.
fn preview(lang: Lang, s: &str) -> String {
    let one_line: String = s.chars().map(|c| if c == '\n' { '↵' } else { c }).collect();
    let shown = match one_line.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    };
    ret_msg::Quoted { text: &shown }.fill(lang)
}

/// k, k1 and b.
#[component]
fn ParamsFields() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<RetrievalSettings>();
    let results = expect_context::<RetrievalResults>();
    let m = move |msg: Rm| rm::text(app.language.lang.get(), msg);
    let field = move |id: &'static str, label: Rm, value: RwSignal<String>| {
        view! {
            <div class="field">
                <label for=id>{move || m(label)}</label>
                <input
                    id=id
                    data-testid=id
                    type="text"
                    inputmode="decimal"
                    // The starting value as the attribute too, for the prerendered page
                    // (crates/prerender: properties are not HTML).
                    value=value.get_untracked()
                    prop:value=value
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
            </div>
        }
    };
    let error = move || {
        results.params.get().err().map(|e| {
            let l = app.language.lang.get();
            let text = match e {
                ParamError::K => ret_msg::ErrK { max: &format::int(l, MAX_K) }.fill(l),
                ParamError::K1 => m(Rm::ErrK1).to_owned(),
                ParamError::B => m(Rm::ErrB).to_owned(),
            };
            view! { <p class="field-error" data-testid="retrieval-param-error" role="alert">{text}</p> }
        })
    };
    view! {
        <div class="retrieval-params">
            {field("retrieval-k", Rm::KLabel, settings.k)}
            {field("bm25-k1", Rm::K1Label, settings.k1)}
            {field("bm25-b", Rm::BLabel, settings.b)}
        </div>
        {error}
    }
}

/// The retriever select (`retriever`), what it does, and the embedding model's status line
/// (`embed-status`, with `data-state`, the raw figures and `data-embedded`, the texts embedded
/// since the model started) and stop button (`embed-stop`).
#[component]
fn RetrieverField() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<RetrievalSettings>();
    let embed = expect_context::<EmbedRuntime>();
    let lang = move || app.language.lang.get();
    let t = move |msg: Em| em::text(lang(), msg);
    let model = move || settings.dense_model.get();
    let on_model = move |ev| {
        if let Ok(m) = event_target_value(&ev).parse::<DenseModel>() {
            settings.dense_model.set(m);
        }
    };
    let on_change = move |ev| {
        let picked: Retriever = event_target_value(&ev).parse().unwrap_or_default();
        // BM25 needs no model: the embedding worker stops (and its queue with it). A model that
        // failed is started afresh when dense or hybrid is picked again.
        let failed = matches!(embed.status.get_untracked(), EmbedStatus::Failed(_));
        if !picked.needs_vectors() || failed {
            embed.stop();
        }
        settings.retriever.set(picked);
    };
    let option = move |r: Retriever, label: Em| {
        let value: &'static str = r.into();
        view! { <option value=value selected=move || settings.retriever.get() == r>{move || t(label)}</option> }
    };
    let kib = |bytes: f64| (bytes / 1024.0).round().max(0.0) as u64;
    let status_text = move || {
        let l = lang();
        let n = |x: u64| format::int(l, x);
        match embed.status.get() {
            EmbedStatus::Off => em::text(l, Em::Off).to_owned(),
            EmbedStatus::Loading { received, total } => {
                let received = n(kib(received));
                match total {
                    Some(total) => em_args::LoadingOf {
                        received: &received,
                        total: &n(kib(total)),
                    }
                    .fill(l),
                    None => em_args::Loading {
                        received: &received,
                    }
                    .fill(l),
                }
            }
            EmbedStatus::Ready => em_args::Ready {
                model: model().name(),
            }
            .fill(l),
            EmbedStatus::Embedding { done, queued } => em_args::Embedding {
                done: &n(done),
                queued: &n(queued),
            }
            .fill(l),
            EmbedStatus::Failed(message) => em_args::Failed { message: &message }.fill(l),
        }
    };
    let raw = move |f: fn(&EmbedStatus) -> Option<String>| move || f(&embed.status.get());
    // Reactive reads only: whether the worker runs is in its status (the handle itself is
    // not a signal).
    let running = move || embed.status.with(|s| *s != EmbedStatus::Off);
    let shown = move || settings.retriever.get().needs_vectors() || running();
    view! {
        <div class="field retriever-field">
            <label for="retriever">{move || t(Em::RetrieverLabel)}</label>
            <select id="retriever" data-testid="retriever" on:change=on_change>
                {option(Retriever::Bm25, Em::RetrieverBm25)}
                {option(Retriever::Dense, Em::RetrieverDense)}
                {option(Retriever::Hybrid, Em::RetrieverHybrid)}
            </select>
            <p class="hint" data-testid="retriever-note">{move || t(Em::RetrieverNote)}</p>
        </div>
        <div class="field retriever-field" class:hidden=move || !settings.retriever.get().needs_vectors()>
            <label for="dense-model">{move || t(Em::ModelLabel)}</label>
            <select id="dense-model" data-testid="dense-model" on:change=on_model>
                {DenseModel::iter()
                    .map(|m| {
                        view! {
                            <option
                                value=m.id()
                                data-bytes=m.download_bytes()
                                selected=move || settings.dense_model.get() == m
                            >
                                {move || {
                                    let l = lang();
                                    em_args::ModelOption {
                                        model: m.name(),
                                        size: &format::int(l, m.download_kib()),
                                    }
                                    .fill(l)
                                }}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
        <div class="embed-status" class:hidden=move || !shown()>
            <p
                role="status"
                data-testid="embed-status"
                data-state=move || embed.status.get().code()
                data-model=move || model().id()
                data-embedded=move || embed.embedded.get()
                data-received=raw(|s| match s {
                    EmbedStatus::Loading { received, .. } => Some(received.to_string()),
                    _ => None,
                })
                data-total=raw(|s| match s {
                    EmbedStatus::Loading { total, .. } => total.map(|t| t.to_string()),
                    _ => None,
                })
                data-done=raw(|s| match s {
                    EmbedStatus::Embedding { done, .. } => Some(done.to_string()),
                    _ => None,
                })
                data-queued=raw(|s| match s {
                    EmbedStatus::Embedding { queued, .. } => Some(queued.to_string()),
                    _ => None,
                })
            >
                {status_text}
            </p>
            <button
                type="button"
                data-testid="embed-stop"
                disabled=move || !running()
                on:click=move |_| embed.stop()
            >
                {move || t(Em::Stop)}
            </button>
        </div>
    }
}

/// The k the table's headers name: the rows' k, or the field's before any row.
fn shown_k(results: RetrievalResults) -> usize {
    match results.table.with(|t| t.k) {
        0 => results
            .params
            .with(|p| p.as_ref().map_or(DEFAULT_K, |p| p.k)),
        k => k,
    }
}

/// True when "whole in the top k" is a column of its own (k is not 1, 3 or 5).
fn extra_k_column(k: usize) -> bool {
    !matches!(k, 1 | 3 | 5)
}

/// A figure in `[0, 1]` as the hook's raw value.
fn raw(x: f64) -> String {
    x.to_string()
}

/// The retrieval table with its "show" select.
#[component]
fn RetrievalTableView() -> impl IntoView {
    let app = PageState::from_context();
    let settings = expect_context::<RetrievalSettings>();
    let results = expect_context::<RetrievalResults>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Rm| rm::text(lang(), msg);
    // The shown pair must exist: a list that shrank shows every pair.
    let shown = move || match settings.shown.get() {
        Shown::Pair(i) if i < results.resolved.with(|r| r.len()) => Shown::Pair(i),
        _ => Shown::All,
    };
    let on_shown = move |ev| {
        let v = event_target_value(&ev);
        settings
            .shown
            .set(v.parse().map(Shown::Pair).unwrap_or(Shown::All));
    };
    let options = move || {
        let l = lang();
        let questions: Vec<String> = settings
            .pairs
            .with(|ps| ps.iter().map(|p| p.question.clone()).collect());
        let current = shown();
        let all = view! {
            <option value="all" selected=current == Shown::All>{rm::text(l, Rm::ShowAll)}</option>
        };
        let each = questions
            .into_iter()
            .enumerate()
            .map(|(i, q)| {
                let label = format!("{}. {}", i + 1, q);
                view! { <option value=i.to_string() selected=current == Shown::Pair(i)>{label}</option> }
            })
            .collect_view();
        view! { {all} {each} }
    };
    let header = move || {
        let k = shown_k(results);
        let l = lang();
        let n = format::int(l, k as u64);
        let t = |msg| rm::text(l, msg).to_owned();
        let k_shown = n.as_str();
        let cols: Vec<String> = match shown() {
            Shown::All => vec![
                t(Rm::ColStrategy),
                t(Rm::ColChunks),
                t(Rm::ColTokens),
                t(Rm::ColWholeCount),
                t(Rm::ColHits1),
                t(Rm::ColHits3),
                t(Rm::ColHits5),
                // Top k is its own column only when it is not top 1, 3 or 5 already.
                if extra_k_column(k) {
                    ret_msg::ColHitsK { k: k_shown }.fill(l)
                } else {
                    String::new()
                },
                ret_msg::ColMeanRecall { k: k_shown }.fill(l),
                ret_msg::ColMeanPrecision { k: k_shown }.fill(l),
                ret_msg::ColMeanIou { k: k_shown }.fill(l),
                ret_msg::ColMrr { k: k_shown }.fill(l),
                ret_msg::ColNdcg { k: k_shown }.fill(l),
            ],
            Shown::Pair(_) => vec![
                t(Rm::ColStrategy),
                t(Rm::ColChunks),
                t(Rm::ColTokens),
                t(Rm::ColWhole),
                t(Rm::ColRank),
                t(Rm::ColTop1),
                t(Rm::ColTop3),
                t(Rm::ColTop5),
                ret_msg::ColRecall { k: k_shown }.fill(l),
                ret_msg::ColPrecision { k: k_shown }.fill(l),
                ret_msg::ColIou { k: k_shown }.fill(l),
                ret_msg::ColMrr { k: k_shown }.fill(l),
                ret_msg::ColNdcg { k: k_shown }.fill(l),
            ],
        };
        cols.into_iter()
            .filter(|c| !c.is_empty())
            .map(|c| view! { <th scope="col">{c}</th> })
            .collect_view()
    };
    let rows = move || {
        let l = lang();
        let shown = shown();
        let k = shown_k(results);
        results.table.with(|t| {
            let multi = t.rows.iter().any(|r| r.retriever != Retriever::Bm25);
            t.rows
                .iter()
                .map(|r| retrieval_row(l, r, shown, k, multi))
                .collect_view()
        })
    };
    view! {
        <div class="field retrieval-shown">
            <label for="retrieval-pair">{move || m(Rm::ShowLabel)}</label>
            <select id="retrieval-pair" data-testid="retrieval-pair" on:change=on_shown>
                {options}
            </select>
        </div>
        <p class="hint">{move || m(Rm::TableLegend)}</p>
        // Focusable, so that a keyboard can scroll a table wider than the screen.
        <div class="table-scroll" tabindex="0" role="region" aria-labelledby="retrieval-heading">
            <table class="compare-table retrieval-table" data-testid="retrieval-table">
                <thead>
                    <tr>{header}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The retriever's short name in `lang`.
fn retriever_label(lang: Lang, r: Retriever) -> &'static str {
    em::text(
        lang,
        match r {
            Retriever::Bm25 => Em::RetrieverBm25,
            Retriever::Dense => Em::RetrieverDense,
            Retriever::Hybrid => Em::RetrieverHybrid,
        },
    )
}

/// One `retrieval-row`; `multi` when the table has rows of several retrievers (each row then
/// names its own).
fn retrieval_row(
    lang: Lang,
    r: &RetrievalRowState,
    shown: Shown,
    k: usize,
    multi: bool,
) -> impl IntoView {
    let name = strategy_name(lang, r.strategy);
    let n = |x: usize| format::int(lang, x as u64);
    let yes_no = |b: bool| rm::text(lang, if b { Rm::Yes } else { Rm::No });
    let of = |x: usize, of: usize| format!("{} / {}", n(x), n(of));
    let pct = |x: f64| format::percent_fine(lang, x);
    let score = |x: f64| format::fixed2(lang, x);
    let pair_attr = match shown {
        Shown::All => "all".to_owned(),
        Shown::Pair(i) => i.to_string(),
    };
    // What the row shows, typed: every hook below is one of these figures or absent.
    let (sizes, all, pair) = match (&r.outcome, shown) {
        (
            Some(RetrievalOutcome::Evaluated {
                chunks,
                tokens_embedded,
                aggregate,
                ..
            }),
            Shown::All,
        ) => (Some((*chunks, *tokens_embedded)), Some(*aggregate), None),
        (
            Some(RetrievalOutcome::Evaluated {
                chunks,
                tokens_embedded,
                pairs,
                ..
            }),
            Shown::Pair(i),
        ) => match pairs.get(i) {
            Some(p) => (Some((*chunks, *tokens_embedded)), None, Some(*p)),
            // The rows are of an older list (a pair was just added): pending until the new
            // job's rows arrive.
            None => (None, None, None),
        },
        _ => (None, None, None),
    };
    let refused = match &r.outcome {
        Some(RetrievalOutcome::Refused { refusal }) => Some(refusal),
        _ => None,
    };
    // The figure columns after the strategy's: 11 for every pair (12 with a top-k column of
    // its own), 12 for one pair.
    let figure_columns = match shown {
        Shown::All if !extra_k_column(k) => "11",
        _ => "12",
    };
    let cells = match (refused, sizes, all, pair) {
        (Some(refusal), ..) => {
            view! { <td colspan=figure_columns class="refused">{refusal_text(lang, refusal)}</td> }
                .into_any()
        }
        (None, Some((chunks, tokens)), Some(a), _) => view! {
            <td>{n(chunks)}</td>
            <td>{n(tokens)}</td>
            <td class:miss=a.whole < a.pairs>{of(a.whole, a.pairs)}</td>
            <td>{of(a.hits_at_1, a.pairs)}</td>
            <td>{of(a.hits_at_3, a.pairs)}</td>
            <td>{of(a.hits_at_5, a.pairs)}</td>
            {extra_k_column(k).then(|| view! { <td>{of(a.hits_at_k, a.pairs)}</td> })}
            <td>{pct(a.mean_recall)}</td>
            <td>{pct(a.mean_precision)}</td>
            <td>{pct(a.mean_iou)}</td>
            <td>{score(a.mrr)}</td>
            <td>{score(a.mean_ndcg)}</td>
        }
        .into_any(),
        (None, Some((chunks, tokens)), None, Some(p)) => {
            let whole = if p.whole >= 0 {
                format!("#{}", n(p.whole as usize))
            } else {
                rm::text(lang, Rm::NoWholeChunk).to_owned()
            };
            let rank = p.rank.map(n).unwrap_or_else(|| "—".into());
            view! {
                <td>{n(chunks)}</td>
                <td>{n(tokens)}</td>
                <td class:miss=p.whole < 0>{whole}</td>
                <td>{rank}</td>
                <td class:miss=!p.hit_at_1>{yes_no(p.hit_at_1)}</td>
                <td class:miss=!p.hit_at_3>{yes_no(p.hit_at_3)}</td>
                <td class:miss=!p.hit_at_5>{yes_no(p.hit_at_5)}</td>
                <td>{pct(p.recall)}</td>
                <td>{pct(p.precision)}</td>
                <td>{pct(p.iou)}</td>
                <td>{score(p.reciprocal_rank)}</td>
                <td>{score(p.ndcg)}</td>
            }
            .into_any()
        }
        _ => {
            view! { <td colspan=figure_columns class="pending">{rm::text(lang, Rm::Pending)}</td> }
                .into_any()
        }
    };
    let retriever_code: &'static str = r.retriever.into();
    let of_pair = |f: fn(&RetrievalPair) -> String| pair.as_ref().map(f);
    let of_all = |f: fn(&Aggregate) -> String| all.as_ref().map(f);
    view! {
        <tr
            data-testid="retrieval-row"
            data-strategy=r.strategy.as_str()
            data-retriever=retriever_code
            data-pair=pair_attr
            data-millis=r.millis.to_string()
            data-refused=refused.map(|r| r.kind.clone())
            data-chunks=sizes.map(|s| s.0.to_string())
            data-tokens-embedded=sizes.map(|s| s.1.to_string())
            data-whole=of_pair(|p| p.whole.to_string())
            data-rank=pair.and_then(|p| p.rank).map(|r| r.to_string())
            data-hit-at-1=of_pair(|p| p.hit_at_1.to_string())
            data-hit-at-3=of_pair(|p| p.hit_at_3.to_string())
            data-hit-at-5=of_pair(|p| p.hit_at_5.to_string())
            data-recall=of_pair(|p| raw(p.recall))
            data-precision=of_pair(|p| raw(p.precision))
            data-iou=of_pair(|p| raw(p.iou))
            data-whole-count=of_all(|a| a.whole.to_string())
            data-hits-at-1=of_all(|a| a.hits_at_1.to_string())
            data-hits-at-3=of_all(|a| a.hits_at_3.to_string())
            data-hits-at-5=of_all(|a| a.hits_at_5.to_string())
            data-hits-at-k=of_all(|a| a.hits_at_k.to_string())
            data-mean-recall=of_all(|a| raw(a.mean_recall))
            data-mean-precision=of_all(|a| raw(a.mean_precision))
            data-mean-iou=of_all(|a| raw(a.mean_iou))
            // MRR@k and nDCG@k: of every pair (the mean), or of the pair shown (its
            // reciprocal rank and nDCG).
            data-mrr=all.map(|a| raw(a.mrr)).or(pair.map(|p| raw(p.reciprocal_rank)))
            data-ndcg=all.map(|a| raw(a.mean_ndcg)).or(pair.map(|p| raw(p.ndcg)))
        >
            <th scope="row" class="strategy-cell">
                {name}
                {multi.then(|| view! { <span class="retriever-tag">{retriever_label(lang, r.retriever)}</span> })}
            </th>
            {cells}
        </tr>
    }
}

/// "in tokens" / "in characters" in `lang`: a unit said without a number, so that no
/// message depends on a plural form.
fn unit_words(lang: Lang, unit: SizeUnit) -> &'static str {
    rm::text(
        lang,
        match unit {
            SizeUnit::Tokens | SizeUnit::Model(_) => Rm::UnitTokens,
            SizeUnit::Characters => Rm::UnitCharacters,
        },
    )
}

/// Heat class of a value in `[0, 1]`: `heat-0` … `heat-4`.
fn heat(fraction: f64) -> &'static str {
    match (fraction.clamp(0.0, 1.0) * 4.0).round() as u8 {
        0 => "sweep-cell heat-0",
        1 => "sweep-cell heat-1",
        2 => "sweep-cell heat-2",
        3 => "sweep-cell heat-3",
        _ => "sweep-cell heat-4",
    }
}

/// Which heat map.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Metric {
    Whole,
    Iou,
}

/// The sweep: strategy, run, progress, the two heat maps and the best setting.
#[component]
fn SweepView() -> impl IntoView {
    // "Use this setting" fills the form.
    let fields = expect_context::<crate::state::FieldsWriter>();
    let app = PageState::from_context();
    let compare_settings = expect_context::<CompareSettings>();
    let compare = expect_context::<CompareResults>();
    let settings = expect_context::<RetrievalSettings>();
    let results = expect_context::<RetrievalResults>();
    let lang = move || app.language.lang.get();
    let m = move |msg: Rm| rm::text(lang(), msg);
    let sweep_state = move || {
        results.sweep.with(|s| match (s.job, &s.sweep, s.failed) {
            (0, _, _) => "idle",
            (_, _, true) => "failed",
            (_, None, _) => "running",
            (_, Some(_), _) => "done",
        })
    };
    let on_strategy = move |ev| {
        if let Ok(id) = event_target_value(&ev).parse::<StrategyId>() {
            settings.sweep_strategy.set(id);
        }
    };
    // The table's state says whether the text, the pairs, the fields and the engine allow it;
    // a strategy left out on a text this long (chosen by a settings link, say) is not swept.
    let left_out = move || {
        let bytes = app.source.text.with(|t| t.len());
        deferred(settings.sweep_strategy.get(), bytes)
    };
    let can_run =
        move || matches!(section_state(app, compare, results), "running" | "done") && !left_out();
    let intro = move || {
        let grid = SweepGrid::standard(compare_settings.sized_in.get());
        let l = lang();
        let unit = unit_words(l, grid.unit);
        let to = grid.sizes.last().copied().unwrap_or_default();
        ret_msg::SweepIntro {
            n: &format::int(l, grid.len() as u64),
            from: &format::int(l, grid.sizes[0] as u64),
            to: &format::int(l, to as u64),
            unit,
        }
        .fill(l)
    };
    let progress_text = move || {
        let (done, total) = results.sweep.with(|s| (s.done, s.total));
        let l = lang();
        ret_msg::SweepRunning {
            done: &format::int(l, done as u64),
            total: &format::int(l, total as u64),
        }
        .fill(l)
    };
    let objective = move || settings.sweep_objective.get();
    let on_objective = move |ev| {
        if let Ok(o) = event_target_value(&ev).parse::<SweepObjective>() {
            settings.sweep_objective.set(o);
        }
    };
    let maps = move || {
        let sweep = results.sweep.with(|s| s.sweep.clone())?;
        let l = lang();
        let best = sweep.best(objective());
        Some(view! {
            {heat_table(l, &sweep, Metric::Whole, best)}
            {heat_table(l, &sweep, Metric::Iou, best)}
        })
    };
    // What the best setting minimises, and (when the model truncates some setting's chunks)
    // why those settings are never best.
    let rule = move || {
        let sweep = results.sweep.with(|s| s.sweep.clone())?;
        let l = lang();
        let k = format::int(l, sweep.k as u64);
        let rule = match objective() {
            SweepObjective::Tokens => ret_msg::SweepRuleTokens { k: &k }.fill(l),
            SweepObjective::Vectors => ret_msg::SweepRuleVectors { k: &k }.fill(l),
        };
        let over = sweep.settings_over_limit();
        // The model's limit, where one was checked: a setting must fit it to be best.
        let rule = if sweep.has_limit() {
            rule + " "
                + &ret_msg::SweepRuleLimit {
                    limit: &format::int(l, sweep.max_input_tokens as u64),
                }
                .fill(l)
        } else {
            rule
        };
        let limit = (over > 0).then(|| {
            ret_msg::SweepOverLimit {
                settings: &format::int(l, over as u64),
                limit: &format::int(l, sweep.max_input_tokens as u64),
            }
            .fill(l)
                + if sweep.limit_basis.is_exact() {
                    ""
                } else {
                    rm::text(l, Rm::SweepLimitEstimated)
                }
        });
        Some(view! {
            <p class="hint" data-testid="sweep-rule" data-objective=objective().as_str()>
                {rule}
            </p>
            {limit.map(|text| view! {
                <p class="hint" data-testid="sweep-over-limit" data-value=over>{text}</p>
            })}
        })
    };
    let best = move || {
        let sweep = results.sweep.with(|s| s.sweep.clone())?;
        let l = lang();
        let n = |x: usize| format::int(l, x as u64);
        let objective = objective();
        let cell = sweep.best_cell(objective).cloned();
        let value = cell
            .as_ref()
            .map(|c| {
                format!(
                    "chunk_size={},chunk_overlap={}",
                    c.chunk_size, c.chunk_overlap
                )
            })
            .unwrap_or_default();
        // No setting was evaluated: the strategy's own refusal, not "no setting qualifies".
        if let Some(refusal) = sweep.refused_throughout() {
            return Some(view! {
                <p class="sweep-best" data-testid="sweep-best" data-value="" data-refused=refusal.kind.clone()>
                    {refusal_text(l, refusal)}
                </p>
            }.into_any());
        }
        let text = match &cell {
            Some(c) => ret_msg::SweepBest {
                strategy: &strategy_name(l, sweep.strategy),
                chunk_size: &n(c.chunk_size),
                chunk_overlap: &n(c.chunk_overlap),
                percent: &n(c.overlap_percent),
                vectors: &n(c.figures().map_or(0, |f| f.chunks)),
                tokens: &n(c.figures().map_or(0, |f| f.tokens_embedded)),
                unit: unit_words(l, sweep.grid.unit),
            }
            .fill(l),
            None => ret_msg::SweepNoBest { k: &n(sweep.k) }.fill(l),
        };
        let apply = cell.map(|c| {
            // The grid's unit is the unit the chunks were cut in: the model's own tokens are
            // tokens with the model's tokenizer chosen.
            let (unit, by_model) = match sweep.grid.unit {
                SizeUnit::Model(_) => (SizeUnit::Tokens, Some(true)),
                other => (other, None),
            };
            let on_apply = move |_| {
                // The user's own request: the calculator's boxes are set as "use the library's
                // defaults" sets them (the fields never follow their signals otherwise).
                fields.fill_size(c.chunk_size, c.chunk_overlap);
                // Set only when it differs: setting a signal notifies even when the value is
                // the same, and the sweep is stale when the unit changes.
                if compare_settings.unit.get_untracked() != unit {
                    compare_settings.unit.set(unit);
                }
                if by_model.is_some() && compare_settings.size_tokenizer.get_untracked() != by_model
                {
                    compare_settings.size_tokenizer.set(by_model);
                }
            };
            view! {
                <button type="button" data-testid="sweep-apply" on:click=on_apply>
                    {rm::text(l, Rm::SweepApply)}
                </button>
            }
        });
        Some(view! {
            <p class="sweep-best" data-testid="sweep-best" data-value=value data-objective=objective.as_str()>
                {text}
                " "
                {apply}
            </p>
        }.into_any())
    };
    view! {
        <h3 id="sweep-heading">{move || m(Rm::SweepHeading)}</h3>
        <p class="hint">{intro}</p>
        <div class="sweep-controls">
            <div class="field">
                <label for="sweep-strategy">{move || m(Rm::SweepStrategy)}</label>
                <select id="sweep-strategy" data-testid="sweep-strategy" on:change=on_strategy>
                    {move || {
                        let l = lang();
                        let current = settings.sweep_strategy.get();
                        let bytes = app.source.text.with(|t| t.len());
                        // The semantic strategies too while the semantic rows are on (they
                        // cut from the sentence embeddings the sweep asks for first).
                        crate::compare::Table::listed(compare_settings.semantic.get())
                            .into_iter()
                            .map(|s| {
                                // On a long text the strategies the table leaves out are not
                                // swept either (60 runs of them would take minutes).
                                let left_out = deferred(s, bytes);
                                view! {
                                    <option value=s.as_str() selected=s == current disabled=left_out>
                                        {strategy_name(l, s)}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </div>
            <div class="field">
                <label for="sweep-objective">{move || m(Rm::SweepObjectiveLabel)}</label>
                <select id="sweep-objective" data-testid="sweep-objective" on:change=on_objective>
                    {move || {
                        let l = lang();
                        let current = objective();
                        [
                            (SweepObjective::Tokens, Rm::ObjectiveTokens),
                            (SweepObjective::Vectors, Rm::ObjectiveVectors),
                        ]
                        .map(|(o, label)| view! {
                            <option value=o.as_str() selected=o == current>{rm::text(l, label)}</option>
                        })
                        .collect_view()
                    }}
                </select>
            </div>
            <button
                type="button"
                data-testid="sweep-run"
                disabled=move || !can_run() || sweep_state() == "running"
                on:click=move |_| results.run_sweep()
            >
                {move || m(Rm::SweepRun)}
            </button>
        </div>
        <p class="hint" data-testid="sweep-left-out" class:hidden=move || !left_out()>
            {move || m(Rm::SweepLeftOut)}
        </p>
        <p class="compare-status" role="status" aria-live="polite" class:hidden=move || sweep_state() != "running">
            {progress_text}
        </p>
        <p class="field-error" data-testid="sweep-failed" role="alert" class:hidden=move || sweep_state() != "failed">
            {move || m(Rm::SweepFailed)}
        </p>
        <progress
            data-testid="sweep-progress"
            max=move || results.sweep.with(|s| s.total.max(1))
            value=move || results.sweep.with(|s| s.done)
            data-value=move || results.sweep.with(|s| s.done)
            data-total=move || results.sweep.with(|s| s.total)
            class:hidden=move || sweep_state() != "running"
        ></progress>
        <div
            class="sweep-heatmap"
            data-testid="sweep-heatmap"
            tabindex="0"
            role="region"
            aria-labelledby="sweep-heading"
            data-state=sweep_state
            data-strategy=move || results.sweep.with(|s| s.sweep.as_ref().map(|w| w.strategy.as_str()))
            // The model's limit the settings were checked against (absent: none) and what
            // counted the chunks against it.
            data-max-input-tokens=move || results.sweep.with(|s| s.sweep.as_ref().filter(|w| w.has_limit()).map(|w| w.max_input_tokens))
            data-limit-basis=move || results.sweep.with(|s| s.sweep.as_ref().map(|w| crate::model::limit_basis_code(w.limit_basis)))
        >
            {maps}
        </div>
        {rule}
        {best}
    }
}

/// One heat map: sizes down, overlaps across.
fn heat_table(lang: Lang, sweep: &Sweep, metric: Metric, best: Option<usize>) -> impl IntoView {
    let n = |x: usize| format::int(lang, x as u64);
    let k = n(sweep.k);
    let caption = match metric {
        Metric::Whole => ret_msg::HeatWholeCaption { k: &k }.fill(lang),
        Metric::Iou => ret_msg::HeatIouCaption { k: &k }.fill(lang),
    };
    let max_iou = sweep
        .cells
        .iter()
        .filter_map(|c| c.figures().map(|f| f.aggregate.mean_iou))
        .fold(0.0f64, f64::max);
    let unit = sweep.grid.unit;
    let head = sweep
        .grid
        .overlap_percents
        .iter()
        .map(|p| view! { <th scope="col">{format!("{} %", n(*p))}</th> })
        .collect_view();
    let overlaps = sweep.grid.overlap_percents.len();
    let body = sweep
        .grid
        .sizes
        .iter()
        .enumerate()
        .map(|(row, size)| {
            let cells = (0..overlaps)
                .map(|col| {
                    let index = row * overlaps + col;
                    sweep.cells.get(index).map(|c| {
                        let shown = HeatShown {
                            metric,
                            best: best == Some(index),
                            max_iou,
                            unit,
                            k: sweep.k,
                        };
                        heat_cell(lang, c, shown)
                    })
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{n(*size)}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table
            class="heatmap"
            data-metric=match metric {
                Metric::Whole => "whole",
                Metric::Iou => "iou",
            }
        >
            <caption>{caption}</caption>
            <thead>
                <tr>
                    <th scope="col">
                        {ret_msg::HeatCorner { unit: unit_words(lang, unit) }.fill(lang)}
                    </th>
                    {head}
                </tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}

/// How a heat map shows its cells.
#[derive(Clone, Copy)]
struct HeatShown {
    metric: Metric,
    /// This cell is the best setting.
    best: bool,
    /// The largest mean IoU of the map (its heat scale).
    max_iou: f64,
    unit: SizeUnit,
    k: usize,
}

/// One `sweep-cell`.
fn heat_cell(lang: Lang, c: &SweepCell, shown: HeatShown) -> impl IntoView {
    let HeatShown {
        metric,
        best,
        max_iou,
        unit,
        k,
    } = shown;
    let n = |x: usize| format::int(lang, x as u64);
    let (class, text, title, figures, refused) = match &c.outcome {
        CellOutcome::Refused(r) => (
            "sweep-cell refused",
            "—".to_owned(),
            refusal_text(lang, r),
            None,
            Some(r.kind.clone()),
        ),
        CellOutcome::Evaluated(f) => {
            let a = f.aggregate;
            let mut title = ret_msg::HeatCellTitle {
                chunk_size: &n(c.chunk_size),
                chunk_overlap: &n(c.chunk_overlap),
                hits: &n(a.hits_at_k),
                unit: unit_words(lang, unit),
                chunks: &n(f.chunks),
                tokens: &n(f.tokens_embedded),
                whole: &n(a.whole),
                pairs: &n(a.pairs),
                k: &n(k),
                mrr: &format::fixed2(lang, a.mrr),
                ndcg: &format::fixed2(lang, a.mean_ndcg),
            }
            .fill(lang);
            if f.over_limit > 0 {
                title.push_str(" · ");
                title.push_str(
                    &ret_msg::HeatCellOver {
                        over: &n(f.over_limit),
                    }
                    .fill(lang),
                );
            }
            let (class, text) = match metric {
                Metric::Whole => (
                    heat(if a.pairs == 0 {
                        0.0
                    } else {
                        a.hits_at_k as f64 / a.pairs as f64
                    }),
                    format!("{}/{}", n(a.hits_at_k), n(a.pairs)),
                ),
                Metric::Iou => (
                    heat(if max_iou > 0.0 {
                        a.mean_iou / max_iou
                    } else {
                        0.0
                    }),
                    format::percent_fine(lang, a.mean_iou),
                ),
            };
            (class, text, title, Some(*f), None)
        }
    };
    let over = figures.map_or(0, |f| f.over_limit);
    let truncated = over > 0;
    view! {
        <td
            class=class
            class:best=best
            class:over-limit=truncated
            title=title
            data-testid="sweep-cell"
            data-chunk-size=c.chunk_size
            data-overlap-percent=c.overlap_percent
            data-chunk-overlap=c.chunk_overlap
            data-tokens-embedded=figures.map(|f| f.tokens_embedded)
            data-hits-at-k=figures.map(|f| f.aggregate.hits_at_k)
            data-all-whole-top-k=figures.map(|f| f.aggregate.all_whole_in_top_k.to_string())
            data-all-whole-top-3=figures.map(|f| f.aggregate.all_whole_in_top_3.to_string())
            data-mean-iou=figures.map(|f| raw(f.aggregate.mean_iou))
            data-mrr=figures.map(|f| raw(f.aggregate.mrr))
            data-ndcg=figures.map(|f| raw(f.aggregate.mean_ndcg))
            data-chunks=figures.map(|f| f.chunks)
            data-over-limit=figures.map(|f| f.over_limit)
            data-refused=refused
            data-best=best.then_some("true")
        >
            {text}
            {truncated.then(|| view! { <span class="over-mark" aria-label=rm::text(lang, Rm::OverMark)>" ✂"</span> })}
            {best.then(|| view! { <span class="best-mark" aria-label=rm::text(lang, Rm::BestMark)>" ★"</span> })}
        </td>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::retrieval::QaPair;

    #[test]
    fn params_are_checked_field_by_field() {
        let p = parse_params("5", "1.2", "0.75").expect("defaults");
        assert_eq!((p.k, p.bm25.k1, p.bm25.b), (5, 1.2, 0.75));
        let p = parse_params(" 3 ", "1,5", "0,3").expect("decimal comma");
        assert_eq!((p.k, p.bm25.k1, p.bm25.b), (3, 1.5, 0.3));
        assert_eq!(parse_params("0", "1.2", "0.75"), Err(ParamError::K));
        assert_eq!(parse_params("101", "1.2", "0.75"), Err(ParamError::K));
        assert_eq!(parse_params("2.5", "1.2", "0.75"), Err(ParamError::K));
        assert_eq!(parse_params("5", "-1", "0.75"), Err(ParamError::K1));
        assert_eq!(parse_params("5", "x", "0.75"), Err(ParamError::K1));
        assert_eq!(parse_params("5", "1e300", "0.75"), Err(ParamError::K1));
        assert_eq!(parse_params("5", "1.2", "1.5"), Err(ParamError::B));
        assert_eq!(parse_params("5", "1.2", ""), Err(ParamError::B));
        assert_eq!(parse_params("5", "0", "0").map(|p| p.bm25.k1), Ok(0.0));
    }

    #[test]
    fn a_marked_answer_that_the_text_moved_is_reported() {
        let pair = PairInput {
            question: "Which colour?".into(),
            answer: QaAnswer::Span { start: 4, end: 8 },
            marked: Some("blue".into()),
        };
        assert_eq!(pair.resolve("the blue sky").map(|p| p.answer), Ok(4..8));
        assert_eq!(pair.resolve("a red sky, blue"), Err(PairProblem::Moved));
        assert_eq!(
            pair.resolve("abc"),
            Err(PairProblem::Answer(AnswerError::OutOfRange {
                start: 4,
                end: 8,
                len: 3
            }))
        );
        let typed = PairInput {
            question: "Which colour?".into(),
            answer: QaAnswer::Text("blue".into()),
            marked: None,
        };
        assert_eq!(
            typed.resolve("blue and blue").map(|p| p.answer),
            Err(PairProblem::Answer(AnswerError::Ambiguous {
                count: 2,
                first: 0,
                second: 9
            }))
        );
        assert_eq!(typed.line().answer, QaAnswer::Text("blue".into()));
    }

    #[test]
    fn an_empty_question_is_a_problem_of_its_own_and_problems_have_codes() {
        let pair = PairInput {
            question: "  ".into(),
            answer: QaAnswer::Text("blue".into()),
            marked: None,
        };
        assert_eq!(pair.resolve("blue"), Err(PairProblem::NoQuestion));
        assert_eq!(PairProblem::NoQuestion.code(), "no-question");
        let amb = PairProblem::Answer(AnswerError::Ambiguous {
            count: 4,
            first: 0,
            second: 9,
        });
        assert_eq!((amb.code(), amb.count()), ("ambiguous", Some(4)));
        assert_eq!(PairProblem::Moved.count(), None);
    }

    #[test]
    fn only_a_list_where_every_pair_is_placed_is_sent() {
        let ok = Ok(QaPair {
            question: "q".into(),
            answer: 0..1,
        });
        assert_eq!(ready_pairs(&[]), None);
        assert_eq!(
            ready_pairs(std::slice::from_ref(&ok)).map(|p| p.len()),
            Some(1)
        );
        assert_eq!(ready_pairs(&[ok, Err(PairProblem::Moved)]), None);
    }

    #[test]
    fn every_problem_and_import_error_is_worded_in_every_language() {
        let problems = [
            PairProblem::NoQuestion,
            PairProblem::Moved,
            PairProblem::Answer(AnswerError::EmptyAnswer),
            PairProblem::Answer(AnswerError::NotFound),
            PairProblem::Answer(AnswerError::Ambiguous {
                count: 3,
                first: 10,
                second: 2000,
            }),
            PairProblem::Answer(AnswerError::EmptySpan { start: 5, end: 5 }),
            PairProblem::Answer(AnswerError::Reversed { start: 9, end: 5 }),
            PairProblem::Answer(AnswerError::OutOfRange {
                start: 5,
                end: 90,
                len: 9,
            }),
            PairProblem::Answer(AnswerError::NotCharBoundary { offset: 7 }),
        ];
        let imports = [
            QaJsonlError::Json {
                line: 12,
                message: "expected value".into(),
            },
            QaJsonlError::NoAnswer { line: 12 },
            QaJsonlError::AnswerAndSpan { line: 12 },
            QaJsonlError::HalfSpan { line: 12 },
            QaJsonlError::QuestionTooLong {
                line: 12,
                chars: 5_000_000,
                max: MAX_QUESTION_CHARS,
            },
        ];
        for lang in Lang::ALL {
            for p in &problems {
                let t = problem_text(lang, p);
                assert!(!t.contains('{') && !t.is_empty(), "{lang:?} {p:?}: {t}");
            }
            let amb = problem_text(lang, &problems[4]);
            assert!(amb.contains('3') && amb.contains("10"), "{lang:?}: {amb}");
            for e in &imports {
                let t = import_error_text(lang, e);
                assert!(t.contains("12") && !t.contains('{'), "{lang:?} {e:?}: {t}");
            }
        }
    }

    #[test]
    fn heat_classes_cover_the_unit_interval() {
        assert_eq!(heat(0.0), "sweep-cell heat-0");
        assert_eq!(heat(0.5), "sweep-cell heat-2");
        assert_eq!(heat(1.0), "sweep-cell heat-4");
        assert_eq!(heat(7.0), "sweep-cell heat-4");
        assert_eq!(heat(f64::NAN), "sweep-cell heat-0");
    }
}
