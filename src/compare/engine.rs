//! The page's handle on the comparison worker (`assets/compare-worker.js`, which runs
//! `crates/compare-engine`): a [`ModuleWorker`] speaking [`CompareProtocol`], which sends the
//! worker the text (once per text and worker, as UTF-8 in a transferred buffer) before the
//! requests of [`chunk_core::analysis::protocol`], sends it again and repeats the request when
//! a restarted worker lost it, and restarts a failed worker a few times.
//!
//! The engine's wasm (every strategy, the text-splitter crate and its Unicode data) is fetched
//! by the worker itself; the worker hands back the compiled `WebAssembly.Module`, which a
//! restarted worker (after a trap) and the second worker get instead of fetching it again.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use chunk_core::analysis::export::PageMap;
use chunk_core::analysis::protocol::{Reply, Request};
use wasm_bindgen::JsValue;

use crate::worker::{Heard, ModuleWorker, Protocol};

/// Restarts of a failed worker over the page's life, at most (a strategy that traps on this text would
/// trap again).
pub const MAX_RESTARTS: u32 = 3;

/// What the worker reports.
#[derive(Debug)]
pub enum Event {
    /// The worker runs (first start or restart).
    Ready,
    /// A reply to a request (boxed: replies are large, the other events small).
    Reply(Box<Reply>),
    /// The worker failed (did not load, or a strategy trapped); it has been restarted where
    /// possible. English, for the page's notice and the console.
    Failed(String),
}

/// A message for the comparison worker.
#[derive(Debug)]
pub enum Outgoing {
    /// `{kind: "text", text_id, bytes, pages}`: the document as UTF-8 (a transferred buffer)
    /// and, for a PDF, the byte offsets where its pages start (a `Uint32Array`).
    Text {
        /// The text's number.
        id: u32,
        /// The text.
        text: Arc<str>,
        /// Its pages, when it was read from a PDF.
        pages: Option<Arc<PageMap>>,
    },
    /// A request of the protocol, as serde writes it (JSON-compatible).
    Request(Request),
    /// `{kind: "embedder", port}`: a transferred port to the embedding worker
    /// (`crate::embed`), which the worker asks for embeddings on.
    Embedder(web_sys::MessagePort),
    /// `{kind: "embedder-gone", message}`: the embedding worker was stopped; the batches
    /// waiting for it fail with `message` (English).
    EmbedderGone(String),
}

/// The comparison worker's messages: [`Outgoing`] out, [`Reply`] back (serde).
pub struct CompareProtocol;

impl Protocol for CompareProtocol {
    type Request = Outgoing;
    type Reply = Reply;
    const NAME: &'static str = "compare worker";
    const SCRIPT: &'static str = "compare-worker.js";
    const GLUE: &'static str = "compare-engine.js";
    const WASM: &'static str = "compare-engine_bg.wasm";

    fn encode(message: &Outgoing) -> Result<(JsValue, Option<JsValue>), String> {
        match message {
            Outgoing::Text { id, text, pages } => {
                let bytes = js_sys::Uint8Array::new_from_slice(text.as_bytes());
                // Byte offsets of a text the page holds fit in 32 bits (wasm32).
                let pages = pages.as_ref().map_or(JsValue::UNDEFINED, |p| {
                    let starts: Vec<u32> = p.starts().iter().map(|&s| s as u32).collect();
                    js_sys::Uint32Array::from(starts.as_slice()).into()
                });
                let message = crate::worker::object(&[
                    ("kind", &JsValue::from_str("text")),
                    ("text_id", &JsValue::from(*id)),
                    ("bytes", &bytes),
                    ("pages", &pages),
                ]);
                Ok((message.into(), Some(bytes.buffer().into())))
            }
            Outgoing::Embedder(port) => {
                let port: JsValue = port.clone().into();
                let message = crate::worker::object(&[
                    ("kind", &JsValue::from_str("embedder")),
                    ("port", &port),
                ]);
                Ok((message.into(), Some(port)))
            }
            Outgoing::EmbedderGone(why) => {
                let message = crate::worker::object(&[
                    ("kind", &JsValue::from_str("embedder-gone")),
                    ("message", &JsValue::from_str(why)),
                ]);
                Ok((message.into(), None))
            }
            Outgoing::Request(request) => {
                let serializer = serde_wasm_bindgen::Serializer::json_compatible();
                serde::Serialize::serialize(request, &serializer)
                    .map(|v| (v, None))
                    .map_err(|e| format!("unwritable request: {e}"))
            }
        }
    }

    fn decode(message: JsValue) -> Result<Reply, String> {
        let kind = crate::worker::kind_of(&message).unwrap_or_default();
        serde_wasm_bindgen::from_value::<Reply>(message)
            .map_err(|e| format!("unreadable message ({kind}): {e}"))
    }
}

/// The text the worker should hold: its id, the text, and its pages when it is a PDF's.
type HeldText = (u32, Arc<str>, Option<Arc<PageMap>>);

struct State {
    worker: RefCell<Option<ModuleWorker<CompareProtocol>>>,
    /// The text the worker should hold, and whether this worker has been sent it.
    text: RefCell<Option<HeldText>>,
    text_sent: Cell<bool>,
    /// The last request of each kind that needs the text, to repeat after `need-text`.
    last: RefCell<Vec<Request>>,
    restarts: Cell<u32>,
    /// The start of the embedding worker whose port this worker holds (0: none).
    embedder: Cell<u32>,
    on_event: Box<dyn Fn(Event)>,
}

/// The page's handle on one comparison worker. Cloning shares the same worker.
#[derive(Clone)]
pub struct CompareEngine(Rc<State>);

impl CompareEngine {
    /// Starts the worker; `on_event` gets every [`Event`]. `module` is the engine's compiled
    /// `WebAssembly.Module` when the page has it from another worker (the worker then fetches
    /// nothing), else `undefined`. `None` where the browser refuses module workers, and
    /// outside a browser (the comparison then says so).
    pub fn start(on_event: impl Fn(Event) + 'static, module: JsValue) -> Option<Self> {
        let state = Rc::new(State {
            worker: RefCell::new(None),
            text: RefCell::new(None),
            text_sent: Cell::new(false),
            last: RefCell::new(Vec::new()),
            restarts: Cell::new(0),
            embedder: Cell::new(0),
            on_event: Box::new(on_event),
        });
        let me = Rc::downgrade(&state);
        let heard = move |heard| {
            if let Some(state) = me.upgrade() {
                CompareEngine(state).heard(heard);
            }
        };
        let worker = ModuleWorker::start(heard, module).ok()?;
        *state.worker.borrow_mut() = Some(worker);
        Some(CompareEngine(state))
    }

    /// The engine's compiled module, once this worker has sent it (`undefined` before).
    pub fn module(&self) -> JsValue {
        self.0
            .worker
            .borrow()
            .as_ref()
            .map_or(JsValue::UNDEFINED, ModuleWorker::module)
    }

    fn heard(&self, heard: Heard<Reply>) {
        match heard {
            Heard::Ready(_) => (self.0.on_event)(Event::Ready),
            Heard::Reply(Reply::NeedText { job }) => {
                // The worker lost the text (restarted): send it and repeat the request, if it
                // is still the newest of its kind (an older job is simply dropped).
                let again: Vec<Request> = self
                    .0
                    .last
                    .borrow()
                    .iter()
                    .filter(|r| r.job() == job)
                    .cloned()
                    .collect();
                if !again.is_empty() {
                    self.0.text_sent.set(false);
                }
                for r in again {
                    self.request(r);
                }
            }
            Heard::Reply(Reply::Failed { job: None, message }) => self.failed(message),
            Heard::Reply(reply) => (self.0.on_event)(Event::Reply(Box::new(reply))),
            Heard::Failed { message, .. } => self.failed(message),
        }
    }

    /// The worker failed: report, and start a new one (at most [`MAX_RESTARTS`] times).
    fn failed(&self, message: String) {
        let worker = self.0.worker.borrow().clone();
        if let Some(w) = &worker {
            w.stop();
        }
        (self.0.on_event)(Event::Failed(message));
        let n = self.0.restarts.get() + 1;
        self.0.restarts.set(n);
        // A new worker holds no port to the embedding worker.
        self.0.embedder.set(0);
        if n <= MAX_RESTARTS {
            if let Some(w) = worker {
                self.0.text_sent.set(false);
                if w.restart().is_err() {
                    *self.0.worker.borrow_mut() = None;
                }
            }
        }
    }

    /// Makes `text` document `text_id` of the worker, with its pages when it was read from a
    /// PDF (sent with the next request).
    pub fn set_text(&self, text_id: u32, text: Arc<str>, pages: Option<Arc<PageMap>>) {
        let same = self
            .0
            .text
            .borrow()
            .as_ref()
            .is_some_and(|(id, _, _)| *id == text_id);
        if !same {
            *self.0.text.borrow_mut() = Some((text_id, text, pages));
            self.0.text_sent.set(false);
        }
    }

    /// Gives the worker a port to start `generation` of the embedding worker, made by
    /// `port`, unless it holds one of that start already.
    pub fn connect_embedder(
        &self,
        generation: u32,
        port: impl FnOnce() -> Option<web_sys::MessagePort>,
    ) {
        if generation == 0 || self.0.embedder.get() == generation {
            return;
        }
        let worker = self.0.worker.borrow().clone();
        let (Some(worker), Some(port)) = (worker, port()) else {
            return;
        };
        if worker.post(&Outgoing::Embedder(port)).is_ok() {
            self.0.embedder.set(generation);
        }
    }

    /// Tells the worker the embedding worker is gone (`why`, English): what waits for it fails.
    pub fn embedder_gone(&self, why: &str) {
        self.0.embedder.set(0);
        let worker = self.0.worker.borrow().clone();
        if let Some(worker) = worker {
            let _ = worker.post(&Outgoing::EmbedderGone(why.to_owned()));
        }
    }

    /// Posts `request` (after the text, when the worker does not have it yet).
    pub fn request(&self, request: Request) {
        let worker = self.0.worker.borrow().clone();
        let Some(worker) = worker else {
            return;
        };
        if !self.0.text_sent.get() {
            if let Some((id, text, pages)) = self.0.text.borrow().clone() {
                let sent = worker.post(&Outgoing::Text { id, text, pages });
                self.0.text_sent.set(sent.is_ok());
            }
        }
        // The newest request of each kind (a compare per lane) is kept, to repeat it if the
        // worker turns out to have lost the text.
        let slot = |r: &Request| match r {
            Request::Compare { lane, .. } => Some(lane.number() + 1),
            Request::Select { .. } => Some(0),
            Request::OpenCount { .. } => Some(u32::MAX),
            _ => None,
        };
        if let Some(k) = slot(&request) {
            let mut last = self.0.last.borrow_mut();
            last.retain(|r| slot(r) != Some(k));
            last.push(request.clone());
        }
        if let Err(e) = worker.post(&Outgoing::Request(request)) {
            crate::browser::warn(&e);
        }
    }
}
