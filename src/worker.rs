//! One page-side handle for every module worker of the page ([`ModuleWorker`]): the tokenizer,
//! the comparison engine and the document reader (and the embedding runtime next). Each worker
//! script (`assets/*-worker.js`) runs an engine's own wasm module, never the page's, and
//! speaks the same handshake:
//! - page → worker, first: `{kind: "init", js, wasm, module, ...}`: the engine's wasm-bindgen
//!   glue and `.wasm` URLs, the compiled `WebAssembly.Module` when the page has one from an
//!   earlier worker (`undefined` otherwise: the worker fetches and compiles it), and the
//!   protocol's own fields ([`Protocol::init_fields`]);
//! - worker → page: `{kind: "ready", module}` with the module it compiled, which the handle
//!   keeps for a restart; then the protocol's replies (each protocol reads its own
//!   `{kind: "failed", message}`). A message the protocol cannot read, an `error` or a
//!   `messageerror` event stops the worker ([`Heard::Failed`]).
//!
//! A [`Protocol`] says how its requests and replies cross `postMessage` (serde for the
//! comparison's, typed arrays transferred where a buffer is large). The handle does the rest:
//! spawning, the handshake, the `error` and `messageerror` events, queueing requests posted
//! before `ready`, stopping with the handlers detached, and restarting from the compiled
//! module.

use wasm_bindgen::JsValue;

/// How one worker's messages cross `postMessage`.
pub trait Protocol: 'static {
    /// What the page asks.
    type Request;
    /// What the worker answers (besides `ready`, which the handle takes).
    type Reply;
    /// The worker's name in English messages (e.g. "compare worker").
    const NAME: &'static str;
    /// The worker's script, next to `index.html` (copied there by Trunk).
    const SCRIPT: &'static str;
    /// The engine's wasm-bindgen glue, as Trunk names a worker build (after the crate).
    const GLUE: &'static str;
    /// The engine's `.wasm`.
    const WASM: &'static str;
    /// Fields of the `init` message besides `kind`, `js`, `wasm` and `module`.
    fn init_fields() -> Vec<(&'static str, JsValue)> {
        Vec::new()
    }
    /// `request` as a message, with what it transfers (not copies) when it carries one: an
    /// `ArrayBuffer` or a `MessagePort`.
    ///
    /// # Errors
    /// English, when the request cannot be written as a message.
    fn encode(request: &Self::Request) -> Result<(JsValue, Option<JsValue>), String>;
    /// A message of the worker (other than `ready`) as a reply.
    ///
    /// # Errors
    /// English, when the message is not one of the protocol's.
    fn decode(message: JsValue) -> Result<Self::Reply, String>;
}

/// What a [`ModuleWorker`] reports.
#[derive(Debug)]
pub enum Heard<R> {
    /// The worker runs (its first start, or a restart) and takes the queued requests; with
    /// the engine's compiled `WebAssembly.Module` the handle keeps (the one this worker sent,
    /// else the one it was started with; `undefined` when it has none).
    Ready(JsValue),
    /// A reply.
    Reply(R),
    /// The worker failed: its script or module did not load (`loaded` false: nothing was
    /// heard from it yet), it trapped, or it sent a message the page cannot read. English,
    /// for the console. The handle is stopped; [`ModuleWorker::restart`] starts it again.
    Failed {
        /// Why.
        message: String,
        /// Whether the worker had said anything before (false: its own files did not load).
        loaded: bool,
    },
}

/// Field `key` of a worker's message, or `undefined` (also when the message is no object).
pub fn field(message: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(message, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The field `kind` of a message, if it has one.
pub fn kind_of(message: &JsValue) -> Option<String> {
    field(message, "kind").as_string()
}

/// A plain JS object with the given fields.
pub fn object(fields: &[(&str, &JsValue)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        // Setting a property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

#[cfg(target_arch = "wasm32")]
pub use imp::ModuleWorker;

#[cfg(not(target_arch = "wasm32"))]
pub use native::ModuleWorker;

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

    use super::{kind_of, object, Heard, Protocol};
    use crate::browser::build_file_url;

    /// Posts `message` to `w`, transferring `transfer` (a buffer or a port) when given.
    fn send(w: &Worker, message: &JsValue, transfer: Option<&JsValue>) -> Result<(), JsValue> {
        match transfer {
            Some(buffer) => w.post_message_with_transfer(message, &js_sys::Array::of1(buffer)),
            None => w.post_message(message),
        }
    }

    struct Inner<P: Protocol> {
        worker: RefCell<Option<Worker>>,
        /// The compiled engine module, once a worker has sent it (`undefined` before).
        module: RefCell<JsValue>,
        ready: Cell<bool>,
        /// Whether the current worker has sent anything yet.
        heard: Cell<bool>,
        /// Messages posted before `ready`, in order, each with the buffer it transfers.
        queued: RefCell<Vec<(JsValue, Option<JsValue>)>>,
        on_event: Box<dyn Fn(Heard<P::Reply>)>,
        /// Fields of this handle's `init` message besides the protocol's own
        /// ([`ModuleWorker::start_with`]).
        extra_init: Vec<(&'static str, JsValue)>,
        /// The current worker's handlers, kept alive while it may call them.
        closures: RefCell<Vec<Box<dyn std::any::Any>>>,
    }

    impl<P: Protocol> Drop for Inner<P> {
        fn drop(&mut self) {
            if let Some(w) = self.worker.get_mut().take() {
                crate::browser::stop_worker(&w);
            }
        }
    }

    /// The page's handle on one module worker speaking protocol `P`. Cloning shares the
    /// worker; dropping the last clone stops it.
    pub struct ModuleWorker<P: Protocol>(Rc<Inner<P>>);

    impl<P: Protocol> Clone for ModuleWorker<P> {
        fn clone(&self) -> Self {
            ModuleWorker(self.0.clone())
        }
    }

    impl<P: Protocol> ModuleWorker<P> {
        /// Starts the worker and sends it `init`; `on_event` gets everything it reports (in
        /// the worker's event handler: it must not drop the handle there). `module` is the
        /// engine's compiled `WebAssembly.Module` when the page has one, else `undefined`.
        ///
        /// # Errors
        /// English, where there is no document base URL or the browser refuses the module
        /// worker or the message.
        pub fn start(
            on_event: impl Fn(Heard<P::Reply>) + 'static,
            module: JsValue,
        ) -> Result<Self, String> {
            Self::start_with(on_event, module, Vec::new())
        }

        /// [`ModuleWorker::start`] with `extra` fields in the `init` message (after the
        /// protocol's own), for a worker whose start depends on a choice (the embedding
        /// worker's model); a restart sends them again.
        ///
        /// # Errors
        /// As [`ModuleWorker::start`].
        pub fn start_with(
            on_event: impl Fn(Heard<P::Reply>) + 'static,
            module: JsValue,
            extra: Vec<(&'static str, JsValue)>,
        ) -> Result<Self, String> {
            let handle = ModuleWorker(Rc::new(Inner {
                worker: RefCell::new(None),
                module: RefCell::new(module),
                ready: Cell::new(false),
                heard: Cell::new(false),
                queued: RefCell::new(Vec::new()),
                on_event: Box::new(on_event),
                extra_init: extra,
                closures: RefCell::new(Vec::new()),
            }));
            handle.spawn()?;
            Ok(handle)
        }

        /// The engine's compiled module, once a worker has sent it (`undefined` before).
        pub fn module(&self) -> JsValue {
            self.0.module.borrow().clone()
        }

        /// Whether the worker has answered `init`.
        pub fn is_ready(&self) -> bool {
            self.0.ready.get()
        }

        /// Stops the worker (its handlers detached first: nothing it sent is heard) and starts
        /// a new one from the compiled module when there is one. Requests queued for the old
        /// one are dropped.
        ///
        /// # Errors
        /// As [`ModuleWorker::start`].
        pub fn restart(&self) -> Result<(), String> {
            self.stop();
            self.spawn()
        }

        /// Stops the worker, its handlers detached first.
        pub fn stop(&self) {
            if let Some(w) = self.0.worker.borrow_mut().take() {
                crate::browser::stop_worker(&w);
            }
            self.0.closures.borrow_mut().clear();
            self.0.queued.borrow_mut().clear();
            self.0.ready.set(false);
        }

        /// Posts `request`, transferring its buffer if it has one: at once when the worker is
        /// ready, else when it is.
        ///
        /// # Errors
        /// English, when the request cannot be written or posted.
        pub fn post(&self, request: &P::Request) -> Result<(), String> {
            let (message, transfer) = P::encode(request)?;
            // A stopped worker (failed, not restarted) takes nothing: nothing is queued for a
            // worker that will never be ready.
            if self.0.worker.borrow().is_none() {
                return Err(format!("{} is stopped", P::SCRIPT));
            }
            if !self.0.ready.get() {
                self.0.queued.borrow_mut().push((message, transfer));
                return Ok(());
            }
            let worker = self.0.worker.borrow();
            let Some(w) = worker.as_ref() else {
                return Err(format!("{} is stopped", P::SCRIPT));
            };
            send(w, &message, transfer.as_ref())
                .map_err(|_| format!("{} refused a message", P::SCRIPT))
        }

        /// Starts a worker and sends it `init`.
        fn spawn(&self) -> Result<(), String> {
            let script = build_file_url(P::SCRIPT)?;
            let js = build_file_url(P::GLUE)?;
            let wasm = build_file_url(P::WASM)?;
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            let worker = Worker::new_with_options(&script, &options)
                .map_err(|_| format!("the browser refused to start {}", P::SCRIPT))?;
            let me = Rc::downgrade(&self.0);
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
                if let Some(inner) = me.upgrade() {
                    ModuleWorker(inner).receive(ev.data());
                }
            });
            let me = Rc::downgrade(&self.0);
            let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
                let detail = crate::browser::worker_error(&ev, P::SCRIPT);
                if let Some(inner) = me.upgrade() {
                    ModuleWorker(inner).fail(format!("{}: {detail}", P::NAME));
                }
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            // A message that cannot be read (`messageerror`) ends the worker's work like an
            // error.
            worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
            let mut fields: Vec<(&str, JsValue)> = vec![
                ("kind", JsValue::from_str("init")),
                ("js", JsValue::from_str(&js)),
                ("wasm", JsValue::from_str(&wasm)),
                ("module", self.module()),
            ];
            fields.extend(P::init_fields());
            fields.extend(self.0.extra_init.iter().cloned());
            let refs: Vec<(&str, &JsValue)> = fields.iter().map(|(k, v)| (*k, v)).collect();
            if worker.post_message(&object(&refs)).is_err() {
                crate::browser::stop_worker(&worker);
                return Err(format!("{} refused its init message", P::SCRIPT));
            }
            let mut closures = self.0.closures.borrow_mut();
            closures.clear();
            closures.push(Box::new(on_message));
            closures.push(Box::new(on_error));
            self.0.ready.set(false);
            self.0.heard.set(false);
            *self.0.worker.borrow_mut() = Some(worker);
            Ok(())
        }

        fn receive(&self, data: JsValue) {
            self.0.heard.set(true);
            if kind_of(&data).as_deref() == Some("ready") {
                if let Ok(module) = js_sys::Reflect::get(&data, &JsValue::from_str("module")) {
                    if module.is_object() {
                        *self.0.module.borrow_mut() = module;
                    }
                }
                self.0.ready.set(true);
                let queued: Vec<_> = self.0.queued.borrow_mut().drain(..).collect();
                if let Some(w) = self.0.worker.borrow().as_ref() {
                    for (message, transfer) in &queued {
                        let _ = send(w, message, transfer.as_ref());
                    }
                }
                (self.0.on_event)(Heard::Ready(self.module()));
                return;
            }
            match P::decode(data) {
                Ok(reply) => (self.0.on_event)(Heard::Reply(reply)),
                Err(message) => self.fail(format!("{}: {message}", P::NAME)),
            }
        }

        /// The worker failed: stop it and report.
        fn fail(&self, message: String) {
            let loaded = self.0.heard.get();
            self.stop();
            (self.0.on_event)(Heard::Failed { message, loaded });
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::marker::PhantomData;

    use super::{Heard, Protocol};

    /// Native stand-in (the page's unit tests build natively): there is no worker, so
    /// [`ModuleWorker::start`] always fails.
    pub struct ModuleWorker<P: Protocol>(PhantomData<P>);

    impl<P: Protocol> Clone for ModuleWorker<P> {
        fn clone(&self) -> Self {
            ModuleWorker(PhantomData)
        }
    }

    impl<P: Protocol> ModuleWorker<P> {
        /// Always an error outside the browser.
        ///
        /// # Errors
        /// Always, in English.
        pub fn start(
            _on_event: impl Fn(Heard<P::Reply>) + 'static,
            _module: wasm_bindgen::JsValue,
        ) -> Result<Self, String> {
            Err(format!("{}: no worker outside a browser", P::SCRIPT))
        }
        /// Always an error outside the browser.
        ///
        /// # Errors
        /// Always, in English.
        pub fn start_with(
            _on_event: impl Fn(Heard<P::Reply>) + 'static,
            _module: wasm_bindgen::JsValue,
            _extra: Vec<(&'static str, wasm_bindgen::JsValue)>,
        ) -> Result<Self, String> {
            Err(format!("{}: no worker outside a browser", P::SCRIPT))
        }
        /// `undefined` outside the browser.
        pub fn module(&self) -> wasm_bindgen::JsValue {
            wasm_bindgen::JsValue::UNDEFINED
        }
        /// Never ready outside the browser.
        pub fn is_ready(&self) -> bool {
            false
        }
        /// Always an error outside the browser.
        ///
        /// # Errors
        /// Always, in English.
        pub fn restart(&self) -> Result<(), String> {
            Err(format!("{}: no worker outside a browser", P::SCRIPT))
        }
        /// No-op outside the browser.
        pub fn stop(&self) {}
        /// Always an error outside the browser.
        ///
        /// # Errors
        /// Always, in English.
        pub fn post(&self, _request: &P::Request) -> Result<(), String> {
            Err(format!("{}: no worker outside a browser", P::SCRIPT))
        }
    }
}
