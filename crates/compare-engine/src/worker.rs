//! The comparison worker's schedule, with no web type in it: every rule of the page ⇄ worker
//! protocol that is not a strategy's, decided here once and tested natively.
//!
//! - **Supersession.** A newer `compare` stops a running one of a lane it stops
//!   ([`Lane::stops`]: the same lane, and a table stops the rest); a newer `retrieval` stops
//!   a running retrieval, a newer `sweep` or a `cancel-sweep` a running sweep; only the
//!   newest `open-count` is answered with a count. A stopped job posts nothing more.
//! - **Steps.** `compare`, `retrieval` and `sweep` are answered one row (one setting) per
//!   step, the worker's script returning to its event loop between two steps
//!   ([`Effect::Yield`]), so that a newer request or a new text is taken before the next row.
//!   A compare ends with [`Reply::Compared`] and a retrieval with [`Reply::RetrievalDone`],
//!   each one step after its last row; a reply other than a row ([`Reply::NeedText`],
//!   [`Reply::Failed`], [`Reply::Swept`]) ends its job.
//! - **Order.** `select`, `rows` and `export` are answered in arrival order, each after the
//!   vocabulary its request needs; `cancel-sweep`, and an `open-count` whose vocabulary is
//!   held, at once. All of these come before the next step.
//! - **Vocabularies.** A request whose open vocabulary the engine does not hold
//!   ([`Engine::vocab_needed`]) waits for it; its file is asked for once
//!   ([`Effect::Fetch`]) and handed back with [`Worker::vocab_arrived`]. A failed fetch or a
//!   refused file is reported to each waiting `open-count` ([`Reply::Failed`]); the other
//!   requests go on without it (chunks sized in the model's tokens are refused, a limit check
//!   says a stand-in counted), and a later request asks for the file again.
//!
//! The script (`assets/compare-worker.js`) only forwards each message ([`Worker::set_text`],
//! [`Worker::receive`]) and carries out [`Worker::next`]'s effects until it answers `None`.

use std::collections::{HashMap, HashSet, VecDeque};

use chunk_core::analysis::export::PageMap;
use chunk_core::analysis::protocol::{Lane, Outcome, Reply, Request};
use chunk_core::retrieval::DenseModel;
use chunk_core::tokenizer::open::OpenVocab;

use chunk_core::analysis::protocol::RetrievalOutcome;
use chunk_core::analysis::refusal::Refusal;

use crate::{retrieval_cell, Engine};

/// What the worker's script does next ([`Worker::next`]).
// Each effect is moved out once and posted at once: boxing the reply would only add an
// allocation per reply.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Post this reply to the page.
    Post(Reply),
    /// Fetch this vocabulary's file ([`OpenVocab::file`], relative to the page's folder) and
    /// hand its bytes, or the failure, to [`Worker::vocab_arrived`].
    Fetch(OpenVocab),
    /// Return to the event loop (`setTimeout(0)`: queued messages run) before calling
    /// [`Worker::next`] again.
    Yield,
    /// Ask the embedding worker for the embeddings of `texts` by `model` (one vector per text,
    /// in order) and hand them, or the failure, to [`Worker::vectors_arrived`] with `batch`.
    Embed {
        /// Names the answer.
        batch: u32,
        /// The model.
        model: DenseModel,
        /// The texts, each once.
        texts: Vec<String>,
    },
}

/// What a stepped job is, for supersession.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Compare(Lane),
    Retrieval,
    Sweep,
}

/// A `compare`, `retrieval` or `sweep` being answered step by step.
#[derive(Debug)]
struct Stepped {
    request: Request,
    kind: Kind,
    /// The next row (setting) to answer; `total` for a compare's or retrieval's closing reply.
    next: usize,
    /// [`Engine::rows_in`].
    total: usize,
    /// The vocabulary being fetched that the job waits for.
    wait: Option<OpenVocab>,
    /// The embeddings batch ([`Effect::Embed`]) the job waits for, with its texts.
    embedding: Option<(u32, DenseModel, Vec<String>)>,
    /// The batch asked at the job's first step for all its semantic rows
    /// ([`Engine::semantic_prefetch`]): the other rows go on while it is embedded, and a
    /// semantic row reached before it arrives waits for it (it becomes `embedding`).
    prefetch: Option<(u32, DenseModel, Vec<String>)>,
    /// Whether the prefetch was considered (once per job).
    prefetched: bool,
    /// Batches of other jobs, still out, holding texts the prefetch would have asked for (a
    /// superseded table's, kept: [`Worker::kept`]); a semantic row reached while one is out
    /// waits for them (`blocked`).
    sharing: Vec<u32>,
    /// A semantic row waits for `sharing`.
    blocked: bool,
    /// Why the job's embeddings could not be had: its later dense and hybrid rows are refused
    /// with it ([`Refusal::embeddings_failed`]), its BM25 rows go on.
    dense_failed: Option<String>,
}

impl Stepped {
    /// Whether the job can take a step now (it waits for no vocabulary and no embeddings).
    fn due(&self) -> bool {
        self.wait.is_none()
            && self.embedding.is_none()
            && (!self.blocked || self.sharing.is_empty())
    }
}

/// The text and the embedding model of a table or retrieval request with semantic rows (what
/// a superseded job's sentence batch is kept for).
fn semantic_of(request: &Request) -> Option<(u32, DenseModel)> {
    match request {
        Request::Compare {
            text_id,
            figures,
            strategies,
            ..
        }
        | Request::Retrieval {
            text_id,
            figures,
            strategies,
            ..
        } if strategies.iter().any(|s| s.needs_embeddings()) => Some((*text_id, figures.embedder?)),
        _ => None,
    }
}

/// A `select`, `rows` or `export`, or an `open-count`, waiting for its turn or its vocabulary.
#[derive(Debug)]
struct Waiting {
    request: Request,
    /// Whether the vocabulary it needs has been asked for (an in-order request asks when it
    /// reaches the head of the queue).
    asked: bool,
    /// The vocabulary being fetched that it waits for.
    wait: Option<OpenVocab>,
    /// The embeddings batch a semantic `select` waits for, with its model and texts.
    embedding: Option<(u32, DenseModel, Vec<String>)>,
    /// Other jobs' batches, still out, that hold texts a semantic `select` needs: it waits for
    /// them instead of asking for the same texts again.
    sharing: Vec<u32>,
    /// Why a semantic `select`'s embeddings could not be had: it is answered with
    /// [`Reply::Failed`].
    failed: Option<String>,
}

impl Waiting {
    fn new(request: Request, asked: bool, wait: Option<OpenVocab>) -> Self {
        Waiting {
            request,
            asked,
            wait,
            embedding: None,
            sharing: Vec::new(),
            failed: None,
        }
    }

    /// Whether it can be answered now.
    fn due(&self) -> bool {
        self.wait.is_none() && self.embedding.is_none() && self.sharing.is_empty()
    }
}

/// The comparison worker: the [`Engine`] and the jobs in flight. See the module's doc.
#[derive(Default)]
pub struct Worker {
    engine: Engine,
    /// Effects due before anything else, in order.
    effects: VecDeque<Effect>,
    /// `select`, `rows`, `export`, in arrival order.
    in_order: VecDeque<Waiting>,
    /// `open-count`s not answered yet (waiting for a vocabulary, or due).
    counts: Vec<Waiting>,
    /// The newest `open-count`'s job.
    newest_count: Option<u32>,
    /// Running stepped jobs, in the order of their next turn.
    stepped: VecDeque<Stepped>,
    /// The vocabularies asked for ([`Effect::Fetch`]) and not handed back yet.
    fetching: Vec<OpenVocab>,
    /// A step ran since the last [`Effect::Yield`].
    stepped_since_yield: bool,
    /// The last [`Effect::Embed`] batch number.
    batches: u32,
    /// The batches of jobs superseded while they waited: their embeddings are still kept when
    /// they arrive (a later job may need the same texts).
    orphans: HashMap<u32, (DenseModel, Vec<String>)>,
    /// Orphaned batches the embedding worker has not been told to drop yet
    /// ([`Worker::take_cancelled`]).
    cancelled: Vec<u32>,
    /// Orphaned sentence batches not cancelled: their job was superseded by one on the same
    /// text with the same model (a new threshold or size), which needs the same sentence
    /// texts, so they go on being embedded and later jobs wait for them.
    kept: HashSet<u32>,
}

/// At most this many orphaned batches are remembered (older ones are forgotten: their answer,
/// if it still comes, is ignored).
const MAX_ORPHANS: usize = 64;

impl Worker {
    /// The engine, for reading its state.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The page's `text` message: holds `text` as document `text_id` (with its pages for a
    /// PDF; [`Engine::set_text`]). Taken before the next step of any running job.
    pub fn set_text(&mut self, text_id: u32, text: String, pages: Option<PageMap>) {
        self.engine.set_text(text_id, text, pages);
    }

    /// Queues `reply` to be posted before anything else (a message the script could not
    /// read as a request, say).
    pub fn post(&mut self, reply: Reply) {
        self.effects.push_back(Effect::Post(reply));
    }

    /// Takes a request from the page: stops the jobs it supersedes and queues it (see the
    /// module's doc). Nothing is computed here but a `cancel-sweep`'s answer; the effects come
    /// from [`Worker::next`].
    pub fn receive(&mut self, request: Request) {
        match request {
            Request::Compare { lane, .. } => {
                let next = semantic_of(&request);
                self.drop_jobs(|k| matches!(k, Kind::Compare(l) if lane.stops(l)), next);
                self.start(request, Kind::Compare(lane));
            }
            Request::Retrieval { .. } => {
                let next = semantic_of(&request);
                self.drop_jobs(|k| k == Kind::Retrieval, next);
                self.start(request, Kind::Retrieval);
            }
            Request::Sweep { .. } => {
                self.drop_jobs(|k| k == Kind::Sweep, None);
                self.start(request, Kind::Sweep);
            }
            Request::CancelSweep { .. } => {
                self.drop_jobs(|k| k == Kind::Sweep, None);
                let reply = self.engine.handle(request);
                self.post(reply);
            }
            Request::OpenCount { job, vocab, .. } => {
                self.newest_count = Some(job);
                if self.engine.vocab_needed(&request).is_some() {
                    self.post(Reply::VocabLoading { job, vocab });
                }
                let wait = self.ask_for_vocab(&request);
                self.counts.push(Waiting::new(request, true, wait));
            }
            Request::Select { .. } => {
                // A newer selection supersedes one still waiting for its embeddings (and the
                // rows and exports asked of it): its batch becomes an orphan.
                let stale: Vec<u32> = self
                    .in_order
                    .iter()
                    .filter(|w| w.embedding.is_some() || !w.sharing.is_empty())
                    .map(|w| w.request.job())
                    .collect();
                let mut dropped = Vec::new();
                self.in_order.retain_mut(|w| {
                    if !stale.contains(&w.request.job()) {
                        return true;
                    }
                    if let Some(batch) = w.embedding.take() {
                        dropped.push(batch);
                    }
                    false
                });
                for (batch, model, texts) in dropped {
                    self.orphan(batch, model, texts);
                }
                self.in_order.push_back(Waiting::new(request, false, None));
            }
            Request::Rows { .. } | Request::Export { .. } => {
                self.in_order.push_back(Waiting::new(request, false, None));
            }
        }
    }

    /// Hands back the file of `vocab` asked for by [`Effect::Fetch`]: its bytes, or the fetch's
    /// failure in words (`Err`, reported as is to the waiting `open-count`s). The engine loads
    /// the bytes once ([`Engine::load_vocab`]); the requests that waited go on. A vocabulary not
    /// asked for is ignored.
    pub fn vocab_arrived(&mut self, vocab: OpenVocab, bytes: Result<&[u8], String>) {
        let Some(at) = self.fetching.iter().position(|&v| v == vocab) else {
            return;
        };
        self.fetching.swap_remove(at);
        let loaded = bytes.and_then(|b| self.engine.load_vocab(vocab, b));
        for s in &mut self.stepped {
            if s.wait == Some(vocab) {
                s.wait = None;
            }
        }
        for w in &mut self.in_order {
            if w.wait == Some(vocab) {
                w.wait = None;
            }
        }
        let mut failures = Vec::new();
        self.counts.retain_mut(|w| {
            if w.wait != Some(vocab) {
                return true;
            }
            w.wait = None;
            match &loaded {
                Ok(()) => true,
                Err(message) => {
                    failures.push(Reply::Failed {
                        job: Some(w.request.job()),
                        message: message.clone(),
                    });
                    false
                }
            }
        });
        for reply in failures {
            self.post(reply);
        }
    }

    /// The vocabulary whose file is `file` among those asked for and not handed back (the
    /// script names them by file).
    pub fn fetching(&self, file: &str) -> Option<OpenVocab> {
        self.fetching.iter().copied().find(|v| v.file() == file)
    }

    /// True when [`Worker::next`] has something to do now (it answers `None` otherwise).
    pub fn has_work(&self) -> bool {
        !self.effects.is_empty()
            || self.counts.iter().any(|w| w.wait.is_none())
            || self.in_order.front().is_some_and(Waiting::due)
            || self.stepped.iter().any(Stepped::due)
    }

    /// The next effect, `None` when nothing is left until a message or a vocabulary arrives.
    /// Queued posts and fetches come first, then due `open-count` answers, then the in-order
    /// requests' answers, then one step of the running job whose turn it is (round robin),
    /// followed by [`Effect::Yield`] (a job just received takes the first turn).
    /// `clock` gives milliseconds (rows are timed with it).
    pub fn next(&mut self, clock: impl Fn() -> f64) -> Option<Effect> {
        loop {
            if let Some(effect) = self.effects.pop_front() {
                return Some(effect);
            }
            if let Some(at) = self.counts.iter().position(|w| w.wait.is_none()) {
                let w = self.counts.remove(at);
                if Some(w.request.job()) == self.newest_count {
                    return Some(Effect::Post(self.engine.open_count(&w.request, &clock)));
                }
                continue;
            }
            if let Some(head) = self.in_order.pop_front() {
                let mut head = head;
                if !head.asked {
                    head.asked = true;
                    head.wait = self.ask_for_vocab(&head.request);
                }
                if let Some(message) = head.failed.take() {
                    // Answered as a refusal the page words, with no chunks.
                    let refusal = Refusal::sentence_embeddings_failed(&message);
                    return Some(Effect::Post(
                        self.engine.refuse_selection(&head.request, refusal),
                    ));
                }
                if head.due() {
                    // A semantic select asks for its embeddings first, once; texts a running
                    // job's batch already asked for (the table's, say) it waits for instead.
                    if let Some((model, texts)) = self.engine.semantic_needed(&head.request, 0) {
                        let (sharing, texts) = self.out_in_live_batches(model, texts);
                        head.sharing = sharing;
                        if !texts.is_empty() {
                            self.batches += 1;
                            self.effects.push_back(Effect::Embed {
                                batch: self.batches,
                                model,
                                texts: texts.clone(),
                            });
                            head.embedding = Some((self.batches, model, texts));
                        }
                        self.in_order.push_front(head);
                        continue;
                    }
                    return Some(Effect::Post(self.engine.handle(head.request)));
                }
                self.in_order.push_front(head);
                if !self.effects.is_empty() {
                    continue;
                }
            }
            let Some(at) = self.stepped.iter().position(Stepped::due) else {
                self.stepped_since_yield = false;
                return None;
            };
            if self.stepped_since_yield {
                self.stepped_since_yield = false;
                return Some(Effect::Yield);
            }
            self.stepped_since_yield = true;
            let mut job = self.stepped.remove(at)?;
            let (reply, goes_on) = self.step(&mut job, &clock);
            if goes_on {
                self.stepped.push_back(job);
            } else {
                // Ended with a batch still out (its texts came by another batch first): the
                // embedding worker drops the rest; what arrives of it is still kept.
                for (batch, model, texts) in
                    job.prefetch.take().into_iter().chain(job.embedding.take())
                {
                    self.orphan(batch, model, texts);
                }
            }
            if let Some(reply) = reply {
                return Some(Effect::Post(reply));
            }
        }
    }

    /// Queues a stepped job, asking for its vocabulary first when needed. A new job takes
    /// the next turn (its first row comes at once), then goes round with the others.
    fn start(&mut self, request: Request, kind: Kind) {
        let wait = self.ask_for_vocab(&request);
        self.stepped.push_front(Stepped {
            total: Engine::rows_in(&request),
            request,
            kind,
            next: 0,
            wait,
            embedding: None,
            prefetch: None,
            prefetched: false,
            sharing: Vec::new(),
            blocked: false,
            dense_failed: None,
        });
    }

    /// The vocabulary `request` must wait for, asked for ([`Effect::Fetch`]) unless it is
    /// already on its way; `None` when the engine holds it or none is needed.
    fn ask_for_vocab(&mut self, request: &Request) -> Option<OpenVocab> {
        let vocab = self.engine.vocab_needed(request)?;
        if !self.fetching.contains(&vocab) {
            self.fetching.push(vocab);
            self.effects.push_back(Effect::Fetch(vocab));
        }
        Some(vocab)
    }

    /// Hands back the embeddings of [`Effect::Embed`] `batch`: one vector per text, or the
    /// failure in words. The engine keeps them ([`Engine::store_vectors`]) and the job that
    /// waited goes on; a failure (or vectors that do not fit the texts) ends that job with
    /// [`Reply::Failed`] for a sweep; a retrieval job goes on, its BM25 rows ranked and each
    /// dense or hybrid row refused with the reason ([`Refusal::embeddings_failed`]). A batch
    /// whose job was superseded is kept all the same (a later job may need the same texts);
    /// one nobody asked for is ignored.
    pub fn vectors_arrived(&mut self, batch: u32, vectors: Result<Vec<Vec<f32>>, String>) {
        // A select that shared the batch looks again when it is due (asking for what is still
        // missing, if it failed).
        self.unshare(batch);
        if let Some(w) = self
            .in_order
            .iter_mut()
            .find(|w| matches!(&w.embedding, Some((b, ..)) if *b == batch))
        {
            let (_, model, texts) = w.embedding.take().expect("matched");
            if let Err(message) = vectors.and_then(|v| self.engine.store_vectors(model, texts, v)) {
                w.failed = Some(message);
            }
            return;
        }
        let is = |held: &Option<(u32, DenseModel, Vec<String>)>| matches!(held, Some((b, ..)) if *b == batch);
        let Some((at, (_, model, texts))) =
            self.stepped.iter_mut().enumerate().find_map(|(i, s)| {
                if is(&s.embedding) {
                    s.embedding.take().map(|b| (i, b))
                } else if is(&s.prefetch) {
                    s.prefetch.take().map(|b| (i, b))
                } else {
                    None
                }
            })
        else {
            // A superseded job's batch: kept for later jobs, if it fits its texts.
            self.kept.remove(&batch);
            if let (Some((model, texts)), Ok(vectors)) = (self.orphans.remove(&batch), vectors) {
                let _ = self.engine.store_vectors(model, texts, vectors);
            }
            return;
        };
        let kept = vectors.and_then(|v| self.engine.store_vectors(model, texts, v));
        if let Err(message) = kept {
            let job = &mut self.stepped[at];
            if matches!(job.kind, Kind::Retrieval | Kind::Compare(_)) {
                // The BM25 rows (the other strategies' rows) go on; each dense or hybrid row
                // (semantic row) is refused with the reason.
                job.dense_failed = Some(message);
            } else {
                let job = self.stepped.remove(at).expect("found");
                self.post(Reply::Failed {
                    job: Some(job.request.job()),
                    message: format!("embeddings: {message}"),
                });
            }
        }
    }

    /// The batches asked for ([`Effect::Embed`]) and not handed back, of the jobs still
    /// running (the script fails them all when the embedding worker is gone; the superseded
    /// jobs' batches are forgotten then).
    pub fn embedding_batches(&self) -> Vec<u32> {
        self.stepped
            .iter()
            .flat_map(|s| [&s.embedding, &s.prefetch])
            .filter_map(|held| held.as_ref().map(|(b, ..)| *b))
            .chain(
                self.in_order
                    .iter()
                    .filter_map(|w| w.embedding.as_ref().map(|(b, ..)| *b)),
            )
            .chain(self.kept.iter().copied())
            .collect()
    }

    /// Stops the running jobs whose kind `stops`; a batch one of them waits for becomes an
    /// orphan ([`Worker::vectors_arrived`] still keeps its embeddings). A table's or retrieval
    /// check's sentence batch is kept going when `next` (the request that supersedes it) is on
    /// the same text with the same model: it needs the same sentence texts.
    fn drop_jobs(&mut self, stops: impl Fn(Kind) -> bool, next: Option<(u32, DenseModel)>) {
        let mut dropped = Vec::new();
        self.stepped.retain_mut(|s| {
            if !stops(s.kind) {
                return true;
            }
            let text = semantic_of(&s.request).map(|(t, _)| t);
            let same =
                |model: DenseModel| next.is_some_and(|n| Some(n) == text.map(|t| (t, model)));
            // A table embeds only sentence texts; a retrieval job's prefetch is its sentences.
            let sentences = matches!(s.kind, Kind::Compare(_));
            if let Some(b) = s.embedding.take() {
                dropped.push((sentences && same(b.1), b));
            }
            if let Some(b) = s.prefetch.take() {
                dropped.push((same(b.1), b));
            }
            false
        });
        for (keep, (batch, model, texts)) in dropped {
            if keep {
                self.keep_orphan(batch, model, texts);
            } else {
                self.orphan(batch, model, texts);
            }
        }
    }

    /// Keeps a superseded job's sentence batch going for the job that supersedes it (it is
    /// not cancelled; [`Worker::kept`]).
    fn keep_orphan(&mut self, batch: u32, model: DenseModel, texts: Vec<String>) {
        self.make_room_for_orphan();
        self.orphans.insert(batch, (model, texts));
        self.kept.insert(batch);
    }

    /// At most [`MAX_ORPHANS`]: the oldest are forgotten (cancelled if kept, and nobody waits
    /// for them any more).
    fn make_room_for_orphan(&mut self) {
        if self.orphans.len() >= MAX_ORPHANS {
            self.orphans.clear();
            for b in std::mem::take(&mut self.kept) {
                self.unshare(b);
                self.cancelled.push(b);
            }
        }
    }

    /// Keeps a superseded job's batch for when it arrives, and has it cancelled in the
    /// embedding worker ([`Worker::take_cancelled`]).
    fn orphan(&mut self, batch: u32, model: DenseModel, texts: Vec<String>) {
        // Cancelled: a select that shared it asks for its texts itself.
        self.unshare(batch);
        self.make_room_for_orphan();
        self.kept.remove(&batch);
        self.orphans.insert(batch, (model, texts));
        self.cancelled.push(batch);
    }

    /// Of `texts` (by `model`), the batches of running jobs that already asked for some, and
    /// the rest: what a semantic select waits for and what it must ask for itself.
    fn out_in_live_batches(
        &self,
        model: DenseModel,
        texts: Vec<String>,
    ) -> (Vec<u32>, Vec<String>) {
        let live = self
            .stepped
            .iter()
            .flat_map(|s| [&s.embedding, &s.prefetch])
            .chain(self.in_order.iter().map(|w| &w.embedding))
            .flatten()
            .map(|(b, m, t)| (*b, *m, t))
            .chain(
                self.kept
                    .iter()
                    .filter_map(|b| self.orphans.get(b).map(|(m, t)| (*b, *m, t))),
            )
            .filter(|(_, m, _)| *m == model);
        let mut out: HashMap<&str, u32> = HashMap::new();
        for (batch, _, held) in live {
            for t in held {
                out.entry(t.as_str()).or_insert(batch);
            }
        }
        let mut sharing = Vec::new();
        let mut rest = Vec::new();
        for t in texts {
            match out.get(t.as_str()) {
                Some(b) => {
                    if !sharing.contains(b) {
                        sharing.push(*b);
                    }
                }
                None => rest.push(t),
            }
        }
        (sharing, rest)
    }

    /// `batch` arrived, failed or was cancelled: no select or job waits for it any more.
    fn unshare(&mut self, batch: u32) {
        for w in &mut self.in_order {
            w.sharing.retain(|&b| b != batch);
        }
        for s in &mut self.stepped {
            s.sharing.retain(|&b| b != batch);
        }
    }

    /// The batches of superseded jobs to cancel in the embedding worker (its queue would
    /// otherwise hold the new job behind texts nobody waits for); each is handed out once.
    /// What the embedding worker had already embedded of one still arrives and is kept.
    pub fn take_cancelled(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.cancelled)
    }

    /// One step of `job`: its reply, if any, and whether the job has more steps. A dense
    /// retrieval row or sweep setting whose embeddings are not all held asks for them
    /// ([`Effect::Embed`]) and waits instead of answering.
    fn step(&mut self, job: &mut Stepped, clock: &impl Fn() -> f64) -> (Option<Reply>, bool) {
        // Every semantic row's sentence embeddings are asked for at once, at the first step;
        // a sweep of a semantic strategy waits for them (every setting reads them).
        if !job.prefetched {
            job.prefetched = true;
            if let Some((model, texts)) = self.engine.semantic_prefetch(&job.request) {
                // What a superseded job's kept batch (or another's) already asked for is
                // waited for, not asked again.
                let (sharing, texts) = self.out_in_live_batches(model, texts);
                job.sharing = sharing;
                if !texts.is_empty() {
                    self.batches += 1;
                    self.effects.push_back(Effect::Embed {
                        batch: self.batches,
                        model,
                        texts: texts.clone(),
                    });
                    let batch = Some((self.batches, model, texts));
                    if job.kind == Kind::Sweep {
                        job.embedding = batch;
                    } else {
                        job.prefetch = batch;
                    }
                    // The batch goes out before this job's first row is cut.
                    return (None, true);
                }
                if job.kind == Kind::Sweep && !job.sharing.is_empty() {
                    job.blocked = true;
                    return (None, true);
                }
            }
        }
        // A semantic row's sentence embeddings come first (its chunks depend on them).
        if matches!(job.kind, Kind::Compare(_) | Kind::Retrieval) && job.next < job.total {
            if let Some((model, texts)) = self.engine.semantic_needed(&job.request, job.next) {
                if job.prefetch.is_some() && job.dense_failed.is_none() {
                    // Still on its way: wait for it.
                    job.embedding = job.prefetch.take();
                    return (None, true);
                }
                if !job.sharing.is_empty() {
                    // Another batch holds them: wait for it.
                    job.blocked = true;
                    return (None, true);
                }
                if let Some(message) = &job.dense_failed {
                    let refusal = Refusal::sentence_embeddings_failed(message);
                    let reply = match &job.request {
                        Request::Compare { strategies, .. } => Reply::Row {
                            job: job.request.job(),
                            strategy: strategies[job.next],
                            outcome: Outcome::Refused { refusal },
                            millis: 0.0,
                        },
                        _ => {
                            let (strategy, retriever) = retrieval_cell(&job.request, job.next)
                                .expect("a retrieval row in range");
                            Reply::RetrievalRow {
                                job: job.request.job(),
                                strategy,
                                retriever,
                                outcome: RetrievalOutcome::Refused { refusal },
                                millis: 0.0,
                            }
                        }
                    };
                    job.next += 1;
                    return (Some(reply), true);
                }
                self.batches += 1;
                self.effects.push_back(Effect::Embed {
                    batch: self.batches,
                    model,
                    texts: texts.clone(),
                });
                job.embedding = Some((self.batches, model, texts));
                return (None, true);
            }
        }
        if matches!(job.kind, Kind::Retrieval | Kind::Sweep) && job.next < job.total {
            if let Some(texts) = self.engine.vectors_needed(&job.request, job.next) {
                if let (Some(message), Some((strategy, retriever))) =
                    (&job.dense_failed, retrieval_cell(&job.request, job.next))
                {
                    job.next += 1;
                    let reply = Reply::RetrievalRow {
                        job: job.request.job(),
                        strategy,
                        retriever,
                        outcome: RetrievalOutcome::Refused {
                            refusal: Refusal::embeddings_failed(message),
                        },
                        millis: 0.0,
                    };
                    return (Some(reply), true);
                }
                let (Request::Retrieval { dense_model, .. } | Request::Sweep { dense_model, .. }) =
                    &job.request
                else {
                    unreachable!("a retrieval or sweep job holds its request")
                };
                self.batches += 1;
                self.effects.push_back(Effect::Embed {
                    batch: self.batches,
                    model: *dense_model,
                    texts: texts.clone(),
                });
                job.embedding = Some((self.batches, *dense_model, texts));
                return (None, true);
            }
        }
        let index = job.next;
        job.next += 1;
        let id = job.request.job();
        match job.kind {
            Kind::Compare(_) if index >= job.total => (Some(Reply::Compared { job: id }), false),
            Kind::Compare(_) => {
                let reply = self.engine.compare_row(&job.request, index, clock);
                let goes_on = matches!(reply, Reply::Row { .. });
                (Some(reply), goes_on)
            }
            Kind::Retrieval if index >= job.total => {
                (Some(Reply::RetrievalDone { job: id }), false)
            }
            Kind::Retrieval => {
                let reply = self.engine.retrieval_row(&job.request, index, clock);
                let goes_on = matches!(reply, Reply::RetrievalRow { .. });
                (Some(reply), goes_on)
            }
            Kind::Sweep => match self.engine.sweep_cell(&job.request, index) {
                None => (None, job.next < job.total),
                Some(reply @ Reply::SweepProgress { .. }) => (Some(reply), job.next < job.total),
                Some(reply) => (Some(reply), false),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunk_core::analysis::protocol::{Bm25Setting, Figures, RetrievalOutcome};
    use chunk_core::models::{model, ModelRef};
    use chunk_core::retrieval::{locate_answer, QaPair, Retriever, SweepGrid};
    use chunk_core::strategy::{Settings, SizeUnit, StrategyId};
    use chunk_core::tokenizer::Encoding;
    use chunk_core::Lang;
    use Effect::{Fetch, Post, Yield};

    const TEXT: &str = "The XV40 runs from minus ten to fifty degrees. It weighs two kilos.\n\n\
        Charge it for three hours before first use. The battery lasts a week.\n\n\
        Clean the lens with a dry cloth only; water damages the coating.";

    const NO_CLOCK: fn() -> f64 = || 0.0;

    fn figures() -> Figures {
        Figures {
            embedder: None,
            settings: Settings {
                chunk_size: 16,
                chunk_overlap: 0,
                unit: SizeUnit::Tokens,
                encoding: Encoding::Cl100kBase,
            },
            model: None,
            price_per_million: 0.02,
            structure: Default::default(),
            breakpoints: Default::default(),
        }
    }

    /// The same figures with bge-small-en-v1-5 (its WordPiece vocabulary is fetched).
    fn bge_figures() -> Figures {
        Figures {
            model: model("bge-small-en-v1-5").map(ModelRef),
            ..figures()
        }
    }

    const STRATEGIES: [StrategyId; 3] = [
        StrategyId::Fixed,
        StrategyId::Sentence,
        StrategyId::LangchainRecursive,
    ];

    fn compare(job: u32, lane: Lane) -> Request {
        Request::Compare {
            job,
            lane,
            text_id: 1,
            strategies: STRATEGIES.to_vec(),
            figures: figures(),
        }
    }

    fn pairs() -> Vec<QaPair> {
        vec![QaPair {
            question: "How long does the battery last?".to_owned(),
            answer: locate_answer(TEXT, "The battery lasts a week").expect("once"),
        }]
    }

    fn retrieval(job: u32) -> Request {
        Request::Retrieval {
            job,
            text_id: 1,
            pairs: pairs(),
            strategies: STRATEGIES.to_vec(),
            figures: figures(),
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 2,
            retrievers: vec![Retriever::Bm25],
            dense_model: DenseModel::default(),
        }
    }

    /// A sweep of 2 × 3 = 6 settings (progress after the fourth, the sweep after the sixth).
    fn sweep(job: u32) -> Request {
        Request::Sweep {
            job,
            text_id: 1,
            pairs: pairs(),
            strategy: StrategyId::Fixed,
            grid: SweepGrid {
                sizes: vec![8, 16],
                overlap_percents: vec![0, 10, 25],
                unit: SizeUnit::Tokens,
            },
            figures: figures(),
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 2,
            retriever: Retriever::Bm25,
            dense_model: DenseModel::default(),
        }
    }

    fn worker() -> Worker {
        let mut w = Worker::default();
        w.set_text(1, TEXT.to_owned(), None);
        w
    }

    /// Every effect until the worker has nothing to do (the script's pump, the yields taken).
    fn drain(w: &mut Worker) -> Vec<Effect> {
        std::iter::from_fn(|| w.next(NO_CLOCK)).collect()
    }

    /// The effects until the next yield (what one turn of the script's event loop posts).
    fn turn(w: &mut Worker) -> Vec<Effect> {
        let mut out = Vec::new();
        while let Some(effect) = w.next(NO_CLOCK) {
            if effect == Yield {
                break;
            }
            out.push(effect);
        }
        out
    }

    /// The rows an engine alone answers for `request` (the oracle).
    fn rows_of(request: &Request) -> Vec<Reply> {
        let mut e = Engine::default();
        e.set_text(1, TEXT.to_owned(), None);
        (0..Engine::rows_in(request))
            .map(|i| e.compare_row(request, i, NO_CLOCK))
            .collect()
    }

    /// The job a reply is about (the tests' replies all have one).
    fn job_of(reply: &Reply) -> Option<u32> {
        match reply {
            Reply::Row { job, .. }
            | Reply::Compared { job }
            | Reply::NeedText { job }
            | Reply::RetrievalRow { job, .. }
            | Reply::RetrievalDone { job }
            | Reply::SweepProgress { job, .. }
            | Reply::Swept { job, .. } => Some(*job),
            other => panic!("{other:?}"),
        }
    }

    fn post(reply: Reply) -> Effect {
        Post(reply)
    }

    #[test]
    fn a_compare_posts_one_row_per_turn_then_compared() {
        let mut w = worker();
        let request = compare(4, Lane::Table);
        w.receive(request.clone());
        let rows = rows_of(&request);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| matches!(r, Reply::Row { job: 4, .. })));
        let mut expected = Vec::new();
        for row in rows {
            expected.push(post(row));
            expected.push(Yield);
        }
        expected.push(post(Reply::Compared { job: 4 }));
        assert_eq!(drain(&mut w), expected);
        assert!(!w.has_work());
        assert_eq!(w.next(NO_CLOCK), None);
    }

    #[test]
    fn a_newer_compare_of_the_same_lane_stops_the_older_between_two_rows() {
        let mut w = worker();
        w.receive(compare(1, Lane::Ab));
        let first = turn(&mut w);
        assert!(matches!(
            first[..],
            [Post(Reply::Row {
                job: 1,
                strategy: StrategyId::Fixed,
                ..
            })]
        ));
        w.receive(compare(2, Lane::Ab));
        let rest = drain(&mut w);
        let jobs: Vec<u32> = rest
            .iter()
            .filter_map(|e| match e {
                Post(r) => job_of(r),
                _ => None,
            })
            .collect();
        assert_eq!(jobs, [2, 2, 2, 2], "{rest:?}");
        assert_eq!(rest.last(), Some(&post(Reply::Compared { job: 2 })));
    }

    #[test]
    fn a_table_stops_the_rest_but_not_the_ab_view() {
        let mut w = worker();
        // Each job's first row comes when it arrives.
        w.receive(compare(1, Lane::Rest));
        assert!(matches!(
            turn(&mut w)[..],
            [Post(Reply::Row { job: 1, .. })]
        ));
        w.receive(compare(2, Lane::Ab));
        assert!(matches!(
            turn(&mut w)[..],
            [Post(Reply::Row { job: 2, .. })]
        ));
        w.receive(compare(3, Lane::Table));
        let replies: Vec<(u32, &'static str)> = drain(&mut w)
            .into_iter()
            .filter_map(|e| match e {
                Post(Reply::Row { job, .. }) => Some((job, "row")),
                Post(Reply::Compared { job }) => Some((job, "compared")),
                Post(other) => panic!("{other:?}"),
                _ => None,
            })
            .collect();
        // Job 1 (rest) posts nothing more; jobs 2 (A/B) and 3 (table) take turns.
        assert_eq!(
            replies,
            [
                (3, "row"),
                (2, "row"),
                (3, "row"),
                (2, "row"),
                (3, "row"),
                (2, "compared"),
                (3, "compared"),
            ]
        );
        // And a new rest job does not stop a table.
        w.receive(compare(5, Lane::Table));
        w.receive(compare(6, Lane::Rest));
        let jobs: Vec<u32> = drain(&mut w)
            .into_iter()
            .filter_map(|e| match e {
                Post(Reply::Compared { job }) => Some(job),
                _ => None,
            })
            .collect();
        // Both finish (the newer took the first turn).
        assert_eq!(jobs, [6, 5]);
    }

    #[test]
    fn a_text_between_two_rows_is_taken_before_the_next_row() {
        let mut w = worker();
        w.receive(compare(1, Lane::Table));
        assert!(matches!(
            turn(&mut w)[..],
            [Post(Reply::Row { job: 1, .. })]
        ));
        // Another text: the job's rows are about text 1, which the worker no longer holds.
        w.set_text(2, "Another text.".to_owned(), None);
        assert_eq!(drain(&mut w), [post(Reply::NeedText { job: 1 })]);
    }

    #[test]
    fn retrieval_done_comes_only_for_the_current_job() {
        let mut w = worker();
        w.receive(retrieval(1));
        assert!(matches!(
            turn(&mut w)[..],
            [Post(Reply::RetrievalRow {
                job: 1,
                strategy: StrategyId::Fixed,
                ..
            })]
        ));
        w.receive(retrieval(2));
        let effects = drain(&mut w);
        let kinds: Vec<(u32, bool)> = effects
            .iter()
            .filter_map(|e| match e {
                Post(Reply::RetrievalRow { job, .. }) => Some((*job, false)),
                Post(Reply::RetrievalDone { job }) => Some((*job, true)),
                Post(other) => panic!("{other:?}"),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, [(2, false), (2, false), (2, false), (2, true)]);
        // Each row equals the engine's own.
        let mut e = Engine::default();
        e.set_text(1, TEXT.to_owned(), None);
        let oracle: Vec<Effect> = (0..3)
            .map(|i| post(e.retrieval_row(&retrieval(2), i, NO_CLOCK)))
            .collect();
        let rows: Vec<Effect> = effects
            .into_iter()
            .filter(|e| matches!(e, Post(Reply::RetrievalRow { .. })))
            .collect();
        assert_eq!(rows, oracle);
    }

    /// A stand-in embedding: how often each of four words occurs (enough to rank by).
    fn embed(text: &str) -> Vec<f32> {
        let t = text.to_lowercase();
        ["battery", "lens", "charge", "kilos"]
            .iter()
            .map(|w| t.matches(w).count() as f32 + 0.01)
            .collect()
    }

    fn dense_retrieval(job: u32) -> Request {
        match retrieval(job) {
            Request::Retrieval {
                job,
                text_id,
                pairs,
                figures,
                bm25,
                lang,
                k,
                dense_model,
                ..
            } => Request::Retrieval {
                job,
                text_id,
                pairs,
                strategies: vec![StrategyId::Fixed, StrategyId::Sentence],
                figures,
                bm25,
                lang,
                k,
                retrievers: vec![Retriever::Bm25, Retriever::Dense, Retriever::Hybrid],
                dense_model,
            },
            _ => unreachable!(),
        }
    }

    /// Carries out the effects until nothing is left, answering each `Embed` with `answer`;
    /// the posts and the texts asked for.
    fn run_embedding(
        w: &mut Worker,
        answer: impl Fn(&[String]) -> Result<Vec<Vec<f32>>, String>,
    ) -> (Vec<Reply>, Vec<Vec<String>>) {
        let (mut posts, mut asked) = (Vec::new(), Vec::new());
        loop {
            match w.next(NO_CLOCK) {
                Some(Post(r)) => posts.push(r),
                Some(Effect::Embed { batch, texts, .. }) => {
                    asked.push(texts.clone());
                    assert!(w.next(NO_CLOCK).is_none_or(|e| e == Yield), "waits");
                    w.vectors_arrived(batch, answer(&texts));
                }
                Some(_) => {}
                None => return (posts, asked),
            }
        }
    }

    /// A longer text of two topics for the semantic rows (they need a few sentences).
    fn semantic_text() -> String {
        let a =
            "The battery lasts a week. Charge the battery for three hours. A spare battery helps. ";
        let b = "Clean the lens with a dry cloth. The lens coating is soft. Water harms the lens. ";
        format!("{}{}", a.repeat(3), b.repeat(3))
    }

    /// The semantic rows' figures: [`figures`] with the default model to embed with.
    fn semantic_figures() -> Figures {
        Figures {
            embedder: Some(DenseModel::default()),
            ..figures()
        }
    }

    /// A table of `strategies` on text `text_id` at `figures`.
    fn table(job: u32, text_id: u32, strategies: &[StrategyId], figures: Figures) -> Request {
        Request::Compare {
            job,
            lane: Lane::Table,
            text_id,
            strategies: strategies.to_vec(),
            figures,
        }
    }

    /// Three semantic rows and one other, with a model.
    const SEMANTIC_TABLE: [StrategyId; 4] = [
        StrategyId::Semantic,
        StrategyId::LangchainRecursive,
        StrategyId::LlamaindexSemantic,
        StrategyId::ChonkieSemantic,
    ];

    fn semantic_compare(job: u32) -> Request {
        table(job, 1, &SEMANTIC_TABLE, semantic_figures())
    }

    #[test]
    fn a_semantic_row_waits_for_its_sentence_embeddings_and_shares_them() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(1));
        let (posts, asked) =
            run_embedding(&mut w, |texts| Ok(texts.iter().map(|t| embed(t)).collect()));
        // All the semantic rows' texts are asked for in one batch at the first step, each
        // once: the product's own and LlamaIndex embed the same windows, chonkie's windows
        // and sentences are other texts.
        assert_eq!(asked.len(), 1, "{asked:?}");
        let distinct: HashSet<&String> = asked[0].iter().collect();
        assert_eq!(distinct.len(), asked[0].len());
        let rows: Vec<(StrategyId, Option<usize>)> = posts
            .iter()
            .filter_map(|r| match r {
                Reply::Row {
                    strategy,
                    outcome: Outcome::Figures { embedding, .. },
                    ..
                } => Some((*strategy, embedding.map(|e| e.texts))),
                Reply::Row { outcome, .. } => panic!("{outcome:?}"),
                _ => None,
            })
            .collect();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[1], (StrategyId::LangchainRecursive, None));
        // The cost counts the library's calls (the text repeats: its windows too); each
        // distinct text is asked for once.
        assert_eq!(rows[0].1, rows[2].1);
        let mut e = Engine::default();
        e.set_text(1, semantic_text(), None);
        let own = e.semantic_needed(&semantic_compare(1), 0).unwrap().1;
        let chonkie = e.semantic_needed(&semantic_compare(1), 3).unwrap().1;
        let union: HashSet<&String> = own.iter().chain(&chonkie).collect();
        assert_eq!(distinct, union);
        assert!(rows[0].1.unwrap() > own.len());
        assert!(rows[3].1.unwrap() >= chonkie.len());
        assert!(matches!(posts.last(), Some(Reply::Compared { job: 1 })));
        // The rows equal the engine's own with the same vectors held.
        for texts in &asked {
            let v = texts.iter().map(|t| embed(t)).collect();
            e.store_vectors(DenseModel::default(), texts.clone(), v)
                .unwrap();
        }
        for (i, reply) in posts
            .iter()
            .filter(|r| matches!(r, Reply::Row { .. }))
            .enumerate()
        {
            assert_eq!(*reply, e.compare_row(&semantic_compare(1), i, NO_CLOCK));
        }
        // Held now: the same table again asks for nothing.
        w.receive(semantic_compare(2));
        let (_, again) = run_embedding(&mut w, |_| panic!("nothing to embed"));
        assert!(again.is_empty());
        // Nor does another threshold: it cuts again from the same embeddings.
        let breakpoints = chunk_core::strategy::Breakpoints {
            percentile: 50.0,
            chonkie_threshold: 0.5,
        };
        w.receive(table(
            3,
            1,
            &SEMANTIC_TABLE,
            Figures {
                breakpoints,
                ..semantic_figures()
            },
        ));
        let (posts, again) = run_embedding(&mut w, |_| panic!("nothing to embed"));
        assert!(again.is_empty());
        let chunks = |posts: &[Reply], at: usize| match &posts[at] {
            Reply::Row {
                outcome: Outcome::Figures { summary, .. },
                ..
            } => summary.chunks,
            other => panic!("{other:?}"),
        };
        // The product's own at the 50th percentile cuts more topic shifts than at the 95th.
        let before = e.compare_row(&semantic_compare(1), 0, NO_CLOCK);
        assert!(chunks(&posts, 0) > chunks(&[before], 0));
    }

    #[test]
    fn the_other_rows_are_cut_while_the_semantic_rows_texts_are_embedded() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        let strategies = [
            StrategyId::LangchainRecursive,
            StrategyId::Fixed,
            StrategyId::ChonkieSemantic,
        ];
        w.receive(table(1, 1, &strategies, semantic_figures()));
        // The first step asks for the semantic row's texts and answers its own row.
        let mut batch = None;
        let mut rows = Vec::new();
        while let Some(effect) = w.next(NO_CLOCK) {
            match effect {
                Effect::Embed {
                    batch: b, texts, ..
                } => batch = Some((b, texts)),
                Post(Reply::Row { strategy, .. }) => rows.push(strategy),
                Post(other) => panic!("{other:?}"),
                _ => {}
            }
        }
        // Both other rows came while the batch was out; the semantic row waits for it.
        let (b, texts) = batch.expect("asked at the first step");
        assert_eq!(rows, [StrategyId::LangchainRecursive, StrategyId::Fixed]);
        assert!(!w.has_work());
        assert_eq!(w.embedding_batches(), [b]);
        w.vectors_arrived(b, Ok(texts.iter().map(|t| embed(t)).collect()));
        let (posts, asked) = run_embedding(&mut w, |_| panic!("nothing more to embed"));
        assert!(asked.is_empty());
        assert!(matches!(
            posts[0],
            Reply::Row {
                strategy: StrategyId::ChonkieSemantic,
                outcome: Outcome::Figures { .. },
                ..
            }
        ));
        assert!(matches!(posts.last(), Some(Reply::Compared { job: 1 })));
    }

    #[test]
    fn a_semantic_select_waits_for_the_tables_batch_instead_of_asking_again() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(1));
        // The table's first step asks for every semantic row's texts.
        let Some(Effect::Embed { batch, texts, .. }) = w.next(NO_CLOCK) else {
            panic!("the table asks first")
        };
        w.receive(Request::Select {
            job: 2,
            text_id: 1,
            strategy: StrategyId::LlamaindexSemantic,
            figures: semantic_figures(),
            bins: 10,
        });
        // Nothing more is asked for while the batch is out: the select waits for it (the
        // table's other rows go on).
        let mut posts = Vec::new();
        while let Some(effect) = w.next(NO_CLOCK) {
            match effect {
                Effect::Embed { .. } => panic!("the same texts asked for twice"),
                Post(r) => posts.push(r),
                _ => {}
            }
        }
        assert!(!posts.iter().any(|r| matches!(r, Reply::Selected(_))));
        assert_eq!(w.embedding_batches(), [batch]);
        w.vectors_arrived(batch, Ok(texts.iter().map(|t| embed(t)).collect()));
        let (posts, asked) = run_embedding(&mut w, |_| panic!("nothing more to embed"));
        assert!(asked.is_empty());
        let selected = posts.iter().find_map(|r| match r {
            Reply::Selected(s) => Some(s),
            _ => None,
        });
        let selected = selected.expect("answered once the batch arrived");
        assert!(
            matches!(selected.outcome, Outcome::Figures { .. }),
            "{:?}",
            selected.outcome
        );
        assert!(selected.semantic.is_some());
        // A batch that is cancelled (its job superseded) leaves the select to ask itself.
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(1));
        let Some(Effect::Embed { batch, .. }) = w.next(NO_CLOCK) else {
            panic!("the table asks first")
        };
        w.receive(Request::Select {
            job: 2,
            text_id: 1,
            strategy: StrategyId::LlamaindexSemantic,
            figures: semantic_figures(),
            bins: 10,
        });
        while w
            .next(NO_CLOCK)
            .is_some_and(|e| !matches!(e, Effect::Embed { .. }))
        {}
        w.receive(table(3, 1, &[StrategyId::Fixed], semantic_figures()));
        assert_eq!(w.take_cancelled(), [batch]);
        let (mut asked, mut selected) = (0, false);
        while let Some(effect) = w.next(NO_CLOCK) {
            match effect {
                Effect::Embed { batch, texts, .. } => {
                    asked += 1;
                    w.vectors_arrived(batch, Ok(texts.iter().map(|t| embed(t)).collect()));
                }
                Post(Reply::Selected(_)) => selected = true,
                _ => {}
            }
        }
        assert_eq!(asked, 1, "the select asks for its own texts");
        assert!(selected);
    }

    #[test]
    fn a_semantic_sweep_asks_for_the_sentence_embeddings_once_then_cuts_every_setting() {
        let text = format!("{}The lens cap is blue and small. ", semantic_text());
        let mut w = Worker::default();
        w.set_text(1, text.clone(), None);
        let figures = semantic_figures();
        let request = |job| Request::Sweep {
            job,
            text_id: 1,
            pairs: vec![QaPair {
                question: "What colour is the lens cap?".to_owned(),
                answer: locate_answer(&text, "The lens cap is blue").expect("once"),
            }],
            strategy: StrategyId::Semantic,
            grid: SweepGrid {
                sizes: vec![8, 16, 64],
                overlap_percents: vec![0],
                unit: SizeUnit::Tokens,
            },
            figures,
            bm25: Bm25Setting::default(),
            lang: Lang::En,
            k: 2,
            retriever: Retriever::Bm25,
            dense_model: DenseModel::default(),
        };
        w.receive(request(1));
        let (posts, asked) = run_embedding(&mut w, |t| Ok(t.iter().map(|t| embed(t)).collect()));
        assert_eq!(asked.len(), 1, "one batch for every setting");
        let Some(Reply::Swept { sweep, .. }) = posts.last() else {
            panic!("{posts:?}")
        };
        let chunks: Vec<usize> = sweep
            .cells
            .iter()
            .map(|c| c.figures().expect("evaluated").chunks)
            .collect();
        // The size cap of the product's own: fewer chunks as the size grows.
        assert!(
            chunks[0] > chunks[1] && chunks[1] >= chunks[2],
            "{chunks:?}"
        );
        // Each setting equals the table's row at that size with the same embeddings.
        let mut e = Engine::default();
        e.set_text(1, text.clone(), None);
        e.store_vectors(
            DenseModel::default(),
            asked[0].clone(),
            asked[0].iter().map(|t| embed(t)).collect(),
        )
        .unwrap();
        for (cell, size) in sweep.cells.iter().zip([8, 16, 64]) {
            let settings = Settings {
                chunk_size: size,
                chunk_overlap: 0,
                ..figures.settings
            };
            let at_size = Figures {
                settings,
                ..figures
            };
            let row = e.compare_row(&table(9, 1, &[StrategyId::Semantic], at_size), 0, NO_CLOCK);
            let Reply::Row {
                outcome: Outcome::Figures { summary, .. },
                ..
            } = row
            else {
                panic!("{row:?}")
            };
            assert_eq!(
                cell.figures().unwrap().chunks,
                summary.chunks,
                "size {size}"
            );
        }
        // Held now: a second sweep asks for nothing.
        w.receive(request(2));
        let (_, again) = run_embedding(&mut w, |_| panic!("nothing to embed"));
        assert!(again.is_empty());
    }

    #[test]
    fn a_failed_embedding_refuses_the_semantic_rows_and_the_others_go_on() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(1));
        let (posts, asked) = run_embedding(&mut w, |_| Err("the model stopped".to_owned()));
        assert_eq!(
            asked.len(),
            1,
            "one batch, then the semantic rows are refused"
        );
        let kinds: Vec<(StrategyId, String)> = posts
            .iter()
            .filter_map(|r| match r {
                Reply::Row {
                    strategy,
                    outcome: Outcome::Refused { refusal },
                    ..
                } => Some((*strategy, refusal.kind.clone())),
                Reply::Row { strategy, .. } => Some((*strategy, "figures".to_owned())),
                _ => None,
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (
                    StrategyId::Semantic,
                    "sentence-embeddings-failed".to_owned()
                ),
                (StrategyId::LangchainRecursive, "figures".to_owned()),
                (
                    StrategyId::LlamaindexSemantic,
                    "sentence-embeddings-failed".to_owned()
                ),
                (
                    StrategyId::ChonkieSemantic,
                    "sentence-embeddings-failed".to_owned()
                ),
            ]
        );
        // Without a model the semantic rows are refused as needing one, nothing is asked.
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(table(3, 1, &SEMANTIC_TABLE, figures()));
        let (posts, asked) = run_embedding(&mut w, |_| panic!("nothing to embed"));
        assert!(asked.is_empty());
        assert!(matches!(
            &posts[0],
            Reply::Row { outcome: Outcome::Refused { refusal }, .. } if refusal.kind == "embeddings-needed"
        ));
    }

    /// Carries out effects until the first `Embed`; its batch.
    fn first_batch(w: &mut Worker) -> u32 {
        loop {
            match w.next(NO_CLOCK) {
                Some(Effect::Embed { batch, .. }) => return batch,
                Some(_) => {}
                None => panic!("nothing asked for embeddings"),
            }
        }
    }

    #[test]
    fn a_replaced_semantic_table_cancels_its_batch_and_a_failed_select_is_refused() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(1));
        let batch = first_batch(&mut w);
        // A new table on the same text with the same model (another threshold or size)
        // needs the same sentence texts: the batch goes on, and the new table asks for
        // nothing more; its semantic rows come when the batch does.
        w.receive(semantic_compare(2));
        assert!(w.take_cancelled().is_empty());
        assert_eq!(w.embedding_batches(), [batch]);
        let mut rows = 0;
        while let Some(effect) = w.next(NO_CLOCK) {
            match effect {
                Effect::Embed { .. } => panic!("asked again"),
                Post(Reply::Row { .. }) => rows += 1,
                _ => {}
            }
        }
        assert_eq!(rows, 0, "its first row is semantic: it waits for the batch");
        assert!(!w.has_work());
        let texts = w.orphans[&batch].1.clone();
        w.vectors_arrived(batch, Ok(texts.iter().map(|t| embed(t)).collect()));
        let (posts, asked) = run_embedding(&mut w, |_| panic!("nothing more to embed"));
        assert!(asked.is_empty());
        assert!(
            matches!(posts.last(), Some(Reply::Compared { job: 2 })),
            "{posts:?}"
        );
        // On another text the batch is cancelled in the embedding worker (its vectors, if
        // they still come, are kept).
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(semantic_compare(3));
        let batch = first_batch(&mut w);
        w.set_text(
            2,
            "Another text. It has sentences. Four of them. The end.".into(),
            None,
        );
        w.receive(table(4, 2, &SEMANTIC_TABLE, semantic_figures()));
        assert_eq!(w.take_cancelled(), [batch]);
        assert!(!w.embedding_batches().contains(&batch));
        // A select whose embeddings fail is answered as a refusal, and its rows are empty.
        let select = |job| Request::Select {
            job,
            text_id: 1,
            strategy: StrategyId::LlamaindexSemantic,
            figures: semantic_figures(),
            bins: 4,
        };
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(select(7));
        w.receive(Request::Rows {
            job: 7,
            from: 0,
            count: 3,
        });
        let (posts, asked) = run_embedding(&mut w, |_| Err("offline".to_owned()));
        assert_eq!(asked.len(), 1);
        let [Reply::Selected(sel), Reply::Rows { total: 0, .. }] = &posts[..] else {
            panic!("{posts:?}")
        };
        assert!(
            matches!(&sel.outcome, Outcome::Refused { refusal } if refusal.kind == "sentence-embeddings-failed")
        );
        // A newer select supersedes one still waiting: one answer, the newer's.
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        w.receive(select(8));
        let first = first_batch(&mut w);
        w.receive(select(9));
        assert_eq!(w.take_cancelled(), [first]);
        let (posts, _) =
            run_embedding(&mut w, |texts| Ok(texts.iter().map(|t| embed(t)).collect()));
        let jobs: Vec<u32> = posts
            .iter()
            .map(|r| match r {
                Reply::Selected(sel) => sel.job,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(jobs, [9]);
    }

    #[test]
    fn a_semantic_select_waits_for_its_embeddings_then_shows_the_curve() {
        let mut w = Worker::default();
        w.set_text(1, semantic_text(), None);
        let select = Request::Select {
            job: 5,
            text_id: 1,
            strategy: StrategyId::Semantic,
            figures: semantic_figures(),
            bins: 4,
        };
        w.receive(select);
        w.receive(Request::Rows {
            job: 5,
            from: 0,
            count: 3,
        });
        let (posts, asked) =
            run_embedding(&mut w, |texts| Ok(texts.iter().map(|t| embed(t)).collect()));
        assert_eq!(asked.len(), 1);
        let [Reply::Selected(sel), Reply::Rows { total, .. }] = &posts[..] else {
            panic!("{posts:?}")
        };
        let view = sel.semantic.as_ref().expect("a curve");
        assert_eq!(view.text_bytes, semantic_text().len());
        // 18 sentences, 17 gaps; the windows repeat with the text, each asked for once.
        assert_eq!(view.curve.points.len(), 17);
        assert!(asked[0].len() < 18);
        assert!(view.curve.threshold.is_some());
        let Outcome::Figures { summary, .. } = &sel.outcome else {
            panic!()
        };
        assert_eq!(summary.chunks, *total);
        // Every chunk end is a topic shift on the curve, a size cut, or the end.
        let cuts = view.curve.points.iter().filter(|p| p.cut).count();
        assert_eq!(cuts + view.size_cuts.len() + 1, *total, "{view:?}");
    }

    #[test]
    fn a_dense_row_waits_for_its_embeddings_each_text_asked_once() {
        let mut w = worker();
        let request = dense_retrieval(3);
        w.receive(request.clone());
        let (posts, asked) = run_embedding(&mut w, |t| Ok(t.iter().map(|t| embed(t)).collect()));
        // Rows strategy by strategy, each retriever in order, then done.
        let rows: Vec<(StrategyId, Retriever)> = posts
            .iter()
            .filter_map(|r| match r {
                Reply::RetrievalRow {
                    strategy,
                    retriever,
                    ..
                } => Some((*strategy, *retriever)),
                _ => None,
            })
            .collect();
        use Retriever::{Bm25, Dense, Hybrid};
        use StrategyId::{Fixed, Sentence};
        assert_eq!(
            rows,
            [
                (Fixed, Bm25),
                (Fixed, Dense),
                (Fixed, Hybrid),
                (Sentence, Bm25),
                (Sentence, Dense),
                (Sentence, Hybrid)
            ]
        );
        assert_eq!(posts.last(), Some(&Reply::RetrievalDone { job: 3 }));
        // One batch per strategy (hybrid reuses dense's); the question is asked once only.
        assert_eq!(asked.len(), 2, "{asked:?}");
        let question = "How long does the battery last?".to_owned();
        assert_eq!(asked[0].last(), Some(&question));
        assert!(!asked[1].contains(&question));
        let all: Vec<&String> = asked.iter().flatten().collect();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(all.len(), distinct.len(), "no text asked twice");
        // Each row equals the engine's own with the same vectors held.
        let mut e = Engine::default();
        e.set_text(1, TEXT.to_owned(), None);
        for texts in &asked {
            e.store_vectors(
                DenseModel::default(),
                texts.clone(),
                texts.iter().map(|t| embed(t)).collect(),
            )
            .unwrap();
        }
        let oracle: Vec<Reply> = (0..6)
            .map(|i| e.retrieval_row(&request, i, NO_CLOCK))
            .collect();
        assert_eq!(&posts[..6], &oracle[..]);
        // The dense row ranks by the stand-in: the battery chunk first.
        let Reply::RetrievalRow {
            outcome: RetrievalOutcome::Evaluated { aggregate, .. },
            ..
        } = &posts[1]
        else {
            panic!("{:?}", posts[1])
        };
        assert_eq!((aggregate.pairs, aggregate.hits_at_1), (1, 1));

        // A later job on the same text asks for nothing: every embedding is held.
        w.receive(dense_retrieval(4));
        let (posts, asked) = run_embedding(&mut w, |_| Err("not asked".into()));
        assert!(asked.is_empty());
        assert_eq!(posts.len(), 7);
    }

    #[test]
    fn a_failed_embedding_ends_its_job_and_wrong_vectors_are_refused() {
        let mut w = worker();
        w.receive(dense_retrieval(5));
        let (posts, asked) = run_embedding(&mut w, |_| Err("the model did not load".into()));
        assert_eq!(
            asked.len(),
            1,
            "asked once, then every dense row is refused"
        );
        let rows: Vec<(Retriever, Option<String>)> = posts
            .iter()
            .filter_map(|r| match r {
                Reply::RetrievalRow {
                    retriever, outcome, ..
                } => Some((
                    *retriever,
                    match outcome {
                        RetrievalOutcome::Refused { refusal } => Some(refusal.kind.clone()),
                        RetrievalOutcome::Evaluated { .. } => None,
                    },
                )),
                _ => None,
            })
            .collect();
        let refused = Some("embeddings-failed".to_owned());
        assert_eq!(
            rows,
            [
                (Retriever::Bm25, None),
                (Retriever::Dense, refused.clone()),
                (Retriever::Hybrid, refused.clone()),
                (Retriever::Bm25, None),
                (Retriever::Dense, refused.clone()),
                (Retriever::Hybrid, refused),
            ],
            "the BM25 rows go on"
        );
        assert_eq!(posts.last(), Some(&Reply::RetrievalDone { job: 5 }));
        let Some(Reply::RetrievalRow {
            outcome: RetrievalOutcome::Refused { refusal },
            ..
        }) = posts.get(1)
        else {
            panic!("{posts:?}")
        };
        assert_eq!(refusal.field("message"), Some("the model did not load"));
        let mut w = worker();
        w.receive(dense_retrieval(6));
        let (posts, _) = run_embedding(&mut w, |t| Ok(vec![vec![1.0]; t.len() - 1]));
        assert!(
            matches!(&posts[1], Reply::RetrievalRow {
                outcome: RetrievalOutcome::Refused { refusal }, ..
            } if refusal.field("message").is_some_and(|m| m.contains("embeddings for"))),
            "{posts:?}"
        );
        // A batch of a superseded job: kept out of the way, the new job asks again.
        let mut w = worker();
        w.receive(dense_retrieval(7));
        let (first, texts) = loop {
            match w.next(NO_CLOCK) {
                Some(Effect::Embed { batch, texts, .. }) => break (batch, texts),
                Some(_) => {}
                None => panic!("no embed"),
            }
        };
        w.receive(retrieval(8));
        assert!(w.embedding_batches().is_empty(), "job 7 is gone");
        assert_eq!(w.take_cancelled(), [first], "its batch is to be cancelled");
        assert!(w.take_cancelled().is_empty(), "once");
        // Its batch still arrives, and is kept: a later dense job does not ask for it again.
        w.vectors_arrived(first, Ok(texts.iter().map(|t| embed(t)).collect()));
        let rest = drain(&mut w);
        assert!(rest
            .iter()
            .all(|e| !matches!(e, Post(Reply::Failed { .. }))));
        w.receive(dense_retrieval(9));
        let (_, asked) = run_embedding(&mut w, |t| Ok(t.iter().map(|t| embed(t)).collect()));
        assert!(
            asked.iter().flatten().all(|t| !texts.contains(t)),
            "{asked:?} repeats {texts:?}"
        );
        assert_eq!(
            asked.len(),
            1,
            "only the second strategy's chunks: {asked:?}"
        );
    }

    #[test]
    fn a_dense_sweep_asks_for_each_settings_embeddings_and_equals_the_engines_own() {
        let mut w = worker();
        let request = match sweep(9) {
            Request::Sweep {
                job,
                text_id,
                pairs,
                strategy,
                grid,
                figures,
                bm25,
                lang,
                k,
                dense_model,
                ..
            } => Request::Sweep {
                job,
                text_id,
                pairs,
                strategy,
                grid,
                figures,
                bm25,
                lang,
                k,
                retriever: Retriever::Hybrid,
                dense_model,
            },
            _ => unreachable!(),
        };
        w.receive(request.clone());
        let (posts, asked) = run_embedding(&mut w, |t| Ok(t.iter().map(|t| embed(t)).collect()));
        let Some(Reply::Swept { sweep, .. }) = posts.last() else {
            panic!("{posts:?}")
        };
        assert!(!asked.is_empty());
        let all: Vec<&String> = asked.iter().flatten().collect();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(all.len(), distinct.len(), "no text asked twice");
        // The engine alone, with the same vectors held, gives the same sweep.
        let mut e = Engine::default();
        e.set_text(1, TEXT.to_owned(), None);
        for texts in &asked {
            e.store_vectors(
                DenseModel::default(),
                texts.clone(),
                texts.iter().map(|t| embed(t)).collect(),
            )
            .unwrap();
        }
        let total = Engine::rows_in(&request);
        let last = (0..total).filter_map(|i| e.sweep_cell(&request, i)).last();
        assert_eq!(last.as_ref(), posts.last());
        assert_eq!(sweep.cells.len(), total);
    }

    #[test]
    fn a_sweep_reports_progress_then_the_sweep_and_a_cancel_stops_it() {
        let mut w = worker();
        w.receive(sweep(1));
        let effects = drain(&mut w);
        // Six settings, six turns: progress after the fourth, the sweep after the sixth.
        assert_eq!(effects.iter().filter(|e| **e == Yield).count(), 5);
        let posts: Vec<&Reply> = effects
            .iter()
            .filter_map(|e| match e {
                Post(r) => Some(r),
                _ => None,
            })
            .collect();
        assert!(
            matches!(
                posts[..],
                [
                    Reply::SweepProgress {
                        job: 1,
                        done: 4,
                        total: 6
                    },
                    Reply::Swept { job: 1, .. }
                ]
            ),
            "{posts:?}"
        );

        w.receive(sweep(2));
        assert_eq!(turn(&mut w), []);
        w.receive(Request::CancelSweep { job: 3 });
        assert_eq!(drain(&mut w), [post(Reply::SweepCancelled { job: 3 })]);
        assert!(!w.has_work());
    }

    #[test]
    fn a_newer_sweep_stops_the_older() {
        let mut w = worker();
        w.receive(sweep(1));
        assert_eq!(turn(&mut w), []);
        w.receive(sweep(2));
        let posts: Vec<u32> = drain(&mut w)
            .into_iter()
            .filter_map(|e| match e {
                Post(r) => job_of(&r),
                _ => None,
            })
            .collect();
        assert_eq!(posts, [2, 2]);
    }

    #[test]
    fn in_order_answers_come_before_the_next_row_in_arrival_order() {
        let mut w = worker();
        w.receive(compare(1, Lane::Table));
        assert!(matches!(
            turn(&mut w)[..],
            [Post(Reply::Row { job: 1, .. })]
        ));
        w.receive(Request::Select {
            job: 2,
            text_id: 1,
            strategy: StrategyId::Fixed,
            figures: figures(),
            bins: 4,
        });
        w.receive(Request::Rows {
            job: 2,
            from: 0,
            count: 2,
        });
        w.receive(Request::CancelSweep { job: 3 });
        let effects = turn(&mut w);
        assert!(
            matches!(
                effects[..],
                [
                    Post(Reply::SweepCancelled { job: 3 }),
                    Post(Reply::Selected(_)),
                    Post(Reply::Rows {
                        job: 2,
                        from: 0,
                        ..
                    }),
                    Post(Reply::Row {
                        job: 1,
                        strategy: StrategyId::Sentence,
                        ..
                    }),
                ]
            ),
            "{effects:?}"
        );
    }

    #[test]
    fn only_the_newest_open_count_is_answered() {
        let bytes = bert_vocabulary();
        let mut w = worker();
        let count = |job| Request::OpenCount {
            job,
            text_id: 1,
            vocab: OpenVocab::BertUncased,
        };
        w.receive(count(1));
        w.receive(count(2));
        // Each says it waits for the file; the file is asked for once.
        assert_eq!(
            drain(&mut w),
            [
                post(Reply::VocabLoading {
                    job: 1,
                    vocab: OpenVocab::BertUncased
                }),
                Fetch(OpenVocab::BertUncased),
                post(Reply::VocabLoading {
                    job: 2,
                    vocab: OpenVocab::BertUncased
                }),
            ]
        );
        assert_eq!(
            w.fetching("vocab/bert-base-uncased.txt"),
            Some(OpenVocab::BertUncased)
        );
        w.vocab_arrived(OpenVocab::BertUncased, Ok(&bytes));
        let expected =
            chunk_core::tokenizer::open::OpenTokenizer::load(OpenVocab::BertUncased, &bytes)
                .unwrap()
                .count(TEXT) as u64;
        assert_eq!(
            drain(&mut w),
            [post(Reply::OpenCounted {
                job: 2,
                vocab: OpenVocab::BertUncased,
                text_id: 1,
                tokens: expected,
                millis: 0.0,
            })]
        );
        // Held now: the next count is answered at once, without a fetch.
        w.receive(count(3));
        assert!(matches!(
            drain(&mut w)[..],
            [Post(Reply::OpenCounted { job: 3, tokens, .. })] if tokens == expected
        ));
    }

    #[test]
    fn a_failed_fetch_is_reported_to_the_open_counts_and_the_others_go_on() {
        let mut w = worker();
        w.receive(Request::OpenCount {
            job: 1,
            text_id: 1,
            vocab: OpenVocab::BertUncased,
        });
        let bge = Request::Compare {
            job: 2,
            lane: Lane::Table,
            text_id: 1,
            strategies: STRATEGIES.to_vec(),
            figures: bge_figures(),
        };
        w.receive(bge.clone());
        assert_eq!(
            drain(&mut w),
            [
                post(Reply::VocabLoading {
                    job: 1,
                    vocab: OpenVocab::BertUncased
                }),
                Fetch(OpenVocab::BertUncased),
            ]
        );
        assert!(!w.has_work(), "both wait for the file");
        w.vocab_arrived(
            OpenVocab::BertUncased,
            Err("Error: vocab/bert-base-uncased.txt: HTTP 404".to_owned()),
        );
        let effects = drain(&mut w);
        assert_eq!(
            effects[0],
            post(Reply::Failed {
                job: Some(1),
                message: "Error: vocab/bert-base-uncased.txt: HTTP 404".to_owned(),
            })
        );
        // The compare goes on with a stand-in counting the model's limit.
        let rows: Vec<&Effect> = effects
            .iter()
            .filter(|e| matches!(e, Post(Reply::Row { job: 2, .. })))
            .collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(effects.last(), Some(&post(Reply::Compared { job: 2 })));
        // A later request asks for the file again.
        w.receive(bge);
        assert_eq!(w.next(NO_CLOCK), Some(Fetch(OpenVocab::BertUncased)));
    }

    #[test]
    fn a_refused_file_fails_the_open_count_and_a_select_waits_for_its_vocabulary() {
        let mut w = worker();
        let select = Request::Select {
            job: 5,
            text_id: 1,
            strategy: StrategyId::Fixed,
            figures: bge_figures(),
            bins: 4,
        };
        w.receive(select.clone());
        w.receive(Request::Export {
            job: 5,
            format: chunk_core::analysis::protocol::ExportFormat::Jsonl,
        });
        assert_eq!(drain(&mut w), [Fetch(OpenVocab::BertUncased)]);
        w.receive(Request::OpenCount {
            job: 6,
            text_id: 1,
            vocab: OpenVocab::BertUncased,
        });
        assert_eq!(
            drain(&mut w),
            [post(Reply::VocabLoading {
                job: 6,
                vocab: OpenVocab::BertUncased
            })]
        );
        w.vocab_arrived(OpenVocab::BertUncased, Ok(b"\xff\xfe"));
        let effects = drain(&mut w);
        assert!(
            matches!(
                &effects[..],
                [
                    Post(Reply::Failed { job: Some(6), message }),
                    Post(Reply::Selected(_)),
                    Post(Reply::Exported { job: 5, .. }),
                ] if message.starts_with("vocab/bert-base-uncased.txt: ")
                    && message.contains("not UTF-8")
            ),
            "{effects:?}"
        );
        // A file handed back unasked is ignored.
        w.vocab_arrived(OpenVocab::BertUncased, Ok(&bert_vocabulary()));
        assert_eq!(w.next(NO_CLOCK), None);
    }

    /// The BERT uncased vocabulary file the page serves (`crates/chunk-core/vocab/`).
    fn bert_vocabulary() -> Vec<u8> {
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../chunk-core/vocab/bert-base-uncased.txt"
        ))
        .expect("the vocabulary")
    }
}
