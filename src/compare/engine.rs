//! The page's handle on the comparison worker (`assets/compare-worker.js`, which runs
//! `crates/compare-engine`): it starts the worker once the page is up, sends it the text (once
//! per text, as UTF-8 in a transferred buffer) and requests of
//! [`chunk_core::analysis::protocol`], and turns its messages into [`Event`]s.
//!
//! The engine's wasm (every strategy, the text-splitter crate and its Unicode data) is fetched
//! by the worker itself when [`CompareEngine::start`] runs (once the tokenizer's module is there); the worker
//! hands back the compiled `WebAssembly.Module`, which a restarted worker (after a trap) gets
//! instead of fetching it again.

use chunk_core::analysis::protocol::Reply;

/// Script of the worker, next to `index.html` (copied there by Trunk).
pub const WORKER_SCRIPT: &str = "compare-worker.js";
/// The engine's wasm-bindgen glue and module as Trunk names a worker build (after the crate).
pub const ENGINE_GLUE: &str = "compare-engine.js";
/// See [`ENGINE_GLUE`].
pub const ENGINE_WASM: &str = "compare-engine_bg.wasm";

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

#[cfg(target_arch = "wasm32")]
pub use imp::CompareEngine;

#[cfg(not(target_arch = "wasm32"))]
pub use native::CompareEngine;

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use std::sync::Arc;

    use chunk_core::analysis::export::PageMap;
    use chunk_core::analysis::protocol::{Reply, Request};
    use js_sys::{Object, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

    use super::{Event, ENGINE_GLUE, ENGINE_WASM, WORKER_SCRIPT};
    use crate::browser::build_file_url;

    /// The text the worker should hold: its id, the text, and its pages when it is a PDF's.
    type HeldText = (u32, Arc<str>, Option<Arc<PageMap>>);

    struct Inner {
        worker: RefCell<Option<Worker>>,
        /// The compiled engine module, once a worker has sent it.
        module: RefCell<JsValue>,
        ready: Cell<bool>,
        /// Requests posted before the worker was ready, in order.
        queued: RefCell<Vec<JsValue>>,
        /// The text the worker should hold, and whether it has been sent to this worker.
        text: RefCell<Option<HeldText>>,
        text_sent: Cell<bool>,
        /// The last request of each kind that needs the text, to repeat after `need-text`.
        last: RefCell<Vec<Request>>,
        restarts: Cell<u32>,
        on_event: Box<dyn Fn(Event)>,
        closures: RefCell<Vec<Box<dyn std::any::Any>>>,
    }

    /// The page's handle on the comparison worker. Cloning shares the same worker.
    #[derive(Clone)]
    pub struct CompareEngine(Rc<Inner>);

    impl CompareEngine {
        /// Starts the worker; `on_event` gets every [`Event`]. `module` is the engine's compiled
        /// `WebAssembly.Module` when the page has it from another worker (the worker then
        /// fetches nothing), else `undefined`. `None` where there is no document base URL or
        /// the browser refuses module workers (the comparison then says so).
        pub fn start(on_event: impl Fn(Event) + 'static, module: JsValue) -> Option<Self> {
            let engine = CompareEngine(Rc::new(Inner {
                worker: RefCell::new(None),
                module: RefCell::new(module),
                ready: Cell::new(false),
                queued: RefCell::new(Vec::new()),
                text: RefCell::new(None),
                text_sent: Cell::new(false),
                last: RefCell::new(Vec::new()),
                restarts: Cell::new(0),
                on_event: Box::new(on_event),
                closures: RefCell::new(Vec::new()),
            }));
            engine.spawn().then_some(engine)
        }

        /// The engine's compiled module, once this worker has sent it (`undefined` before).
        pub fn module(&self) -> JsValue {
            self.0.module.borrow().clone()
        }

        /// Starts a worker and sends it `init`; false when the browser refuses.
        fn spawn(&self) -> bool {
            let (Some(script), Some(js), Some(wasm)) = (
                build_file_url(WORKER_SCRIPT).ok(),
                build_file_url(ENGINE_GLUE).ok(),
                build_file_url(ENGINE_WASM).ok(),
            ) else {
                return false;
            };
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            let Ok(worker) = Worker::new_with_options(&script, &options) else {
                return false;
            };
            let me = Rc::downgrade(&self.0);
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
                if let Some(inner) = me.upgrade() {
                    CompareEngine(inner).receive(ev.data());
                }
            });
            let me = Rc::downgrade(&self.0);
            let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
                let detail = crate::browser::worker_error(&ev, WORKER_SCRIPT);
                if let Some(inner) = me.upgrade() {
                    CompareEngine(inner).failed(format!("compare worker: {detail}"));
                }
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            // A message that cannot be read (`messageerror`) ends the worker's work like an error.
            worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
            let init = object(&[
                ("kind", &JsValue::from_str("init")),
                ("js", &JsValue::from_str(&js)),
                ("wasm", &JsValue::from_str(&wasm)),
                ("module", &self.0.module.borrow()),
            ]);
            if worker.post_message(&init).is_err() {
                worker.terminate();
                return false;
            }
            let mut closures = self.0.closures.borrow_mut();
            closures.clear();
            closures.push(Box::new(on_message));
            closures.push(Box::new(on_error));
            self.0.ready.set(false);
            self.0.text_sent.set(false);
            *self.0.worker.borrow_mut() = Some(worker);
            true
        }

        fn receive(&self, data: JsValue) {
            let kind = Reflect::get(&data, &JsValue::from_str("kind"))
                .ok()
                .and_then(|k| k.as_string())
                .unwrap_or_default();
            if kind == "ready" {
                if let Ok(module) = Reflect::get(&data, &JsValue::from_str("module")) {
                    if module.is_object() {
                        *self.0.module.borrow_mut() = module;
                    }
                }
                self.0.ready.set(true);
                let queued: Vec<JsValue> = self.0.queued.borrow_mut().drain(..).collect();
                for q in queued {
                    self.post_now(&q);
                }
                (self.0.on_event)(Event::Ready);
                return;
            }
            match serde_wasm_bindgen::from_value::<Reply>(data) {
                Ok(Reply::NeedText { job }) => {
                    // The worker lost the text (restarted): send it and repeat the request,
                    // if it is still the newest of its kind (an older job is simply dropped).
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
                Ok(Reply::Failed { job: None, message }) => self.failed(message),
                Ok(reply) => (self.0.on_event)(Event::Reply(Box::new(reply))),
                Err(e) => (self.0.on_event)(Event::Failed(format!(
                    "unreadable message from the compare worker ({kind}): {e}"
                ))),
            }
        }

        /// The worker failed: report, and start a new one (at most a few times in a row).
        fn failed(&self, message: String) {
            if let Some(w) = self.0.worker.borrow_mut().take() {
                // The next start drops this worker's closures.
                crate::browser::stop_worker(&w);
            }
            (self.0.on_event)(Event::Failed(message));
            let n = self.0.restarts.get() + 1;
            self.0.restarts.set(n);
            if n <= 3 {
                self.spawn();
            }
        }

        /// Makes `text` document `text_id` of the worker, with its pages when it was read
        /// from a PDF (sent with the next request).
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

        /// Posts `request` (after the text, when the worker does not have it yet).
        pub fn request(&self, request: Request) {
            if !self.0.text_sent.get() {
                if let Some((id, text, pages)) = self.0.text.borrow().as_ref() {
                    let bytes = Uint8Array::new_from_slice(text.as_bytes());
                    // Byte offsets of a text the page holds fit in 32 bits (wasm32).
                    let pages = pages.as_ref().map_or(JsValue::UNDEFINED, |p| {
                        let starts: Vec<u32> = p.starts().iter().map(|&s| s as u32).collect();
                        js_sys::Uint32Array::from(starts.as_slice()).into()
                    });
                    let message = object(&[
                        ("kind", &JsValue::from_str("text")),
                        ("text_id", &JsValue::from(*id)),
                        ("bytes", &bytes),
                        ("pages", &pages),
                    ]);
                    self.post(&message, Some(&bytes));
                    self.0.text_sent.set(true);
                }
            }
            let serializer = serde_wasm_bindgen::Serializer::json_compatible();
            let Ok(value) = serde::Serialize::serialize(&request, &serializer) else {
                return;
            };
            // The newest request of each kind (a compare per lane) is kept, to repeat it
            // if the worker turns out to have lost the text.
            let slot = |r: &Request| match r {
                Request::Compare { lane, .. } => Some(lane.number() + 1),
                Request::Select { .. } => Some(0),
                Request::OpenCount { .. } => Some(u32::MAX),
                _ => None,
            };
            if let Some(k) = slot(&request) {
                let mut last = self.0.last.borrow_mut();
                last.retain(|r| slot(r) != Some(k));
                last.push(request);
            }
            self.post(&value, None);
        }

        fn post(&self, message: &JsValue, transfer: Option<&Uint8Array>) {
            if !self.0.ready.get() {
                // Before `ready` the transfer would race the init; copy instead (once).
                self.0.queued.borrow_mut().push(message.clone());
                return;
            }
            match transfer {
                Some(bytes) => {
                    if let Some(w) = self.0.worker.borrow().as_ref() {
                        let list = js_sys::Array::of1(&bytes.buffer());
                        let _ = w.post_message_with_transfer(message, &list);
                    }
                }
                None => self.post_now(message),
            }
        }

        fn post_now(&self, message: &JsValue) {
            if let Some(w) = self.0.worker.borrow().as_ref() {
                let _ = w.post_message(message);
            }
        }
    }

    /// A plain JS object with the given fields.
    fn object(fields: &[(&str, &JsValue)]) -> Object {
        let o = Object::new();
        for (k, v) in fields {
            let _ = Reflect::set(&o, &JsValue::from_str(k), v);
        }
        o
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::Arc;

    use chunk_core::analysis::export::PageMap;
    use chunk_core::analysis::protocol::Request;

    use super::Event;

    /// Native stand-in (the page's unit tests build natively): there is no worker, so
    /// [`CompareEngine::start`] returns `None`.
    #[derive(Clone)]
    pub struct CompareEngine;

    impl CompareEngine {
        /// Always `None` outside the browser.
        pub fn start(
            _on_event: impl Fn(Event) + 'static,
            _module: wasm_bindgen::JsValue,
        ) -> Option<Self> {
            None
        }
        /// `undefined` outside the browser.
        pub fn module(&self) -> wasm_bindgen::JsValue {
            wasm_bindgen::JsValue::UNDEFINED
        }
        /// No-op outside the browser.
        pub fn set_text(&self, _text_id: u32, _text: Arc<str>, _pages: Option<Arc<PageMap>>) {}
        /// No-op outside the browser.
        pub fn request(&self, _request: Request) {}
    }
}
