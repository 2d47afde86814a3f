//! Tokenizing in a Web Worker, so that no text, however long, blocks the page: a 10 MB paste,
//! or a text that is a single multi-megabyte piece (one character repeated), which no slice can
//! cut.
//!
//! The worker (`assets/tokenize-worker.js`) runs the tokenizer's own wasm module
//! (`crates/tokenize-engine`: the sliced tokenizer), not the page's; that module fetches the
//! BPE table of an encoding (`tables/<encoding>.bin`, the default one as soon as it runs)
//! and checks it against this build's size and checksum. The worker fetches and compiles that module itself, reporting the bytes
//! received, and hands the compiled `WebAssembly.Module` back: a restarted worker, and the
//! page's own thread when it must tokenize ([`crate::tokenize::local`]), start from it without
//! fetching it again. This module is the page side: [`TokenizerWorker`] starts the worker,
//! posts jobs and turns its messages into [`Reply`] values. The job loop (a slice of
//! [`WORKER_SLICE_MS`], progress, a newer job stops an older one at its next slice) is the
//! tokenizer module's `Schedule` (`crates/tokenize-engine`); the worker's script only steps it.
//!
//! Messages are plain objects:
//! - page → worker, once: `{kind: "init", js, wasm, module, table, slice_ms, report_ms}` (the
//!   module's glue and .wasm URLs, the compiled module or `undefined`, the default encoding's
//!   table file (`Encoding::table_file`), fetched beside the module, since the module asks for
//!   it first, [`WORKER_SLICE_MS`], [`LOADING_REPORT_MS`]), then one per job: `{id, encoding, bytes}` with `id` a job number,
//!   `encoding` a name such as `"cl100k_base"` and `bytes` the text as UTF-8 (a transferred
//!   `Uint8Array`);
//! - worker → page: `{kind: "loading", received, total}` while the module arrives, and again
//!   while a table arrives (bytes; `total` null when unknown), `{kind: "ready", module}` once
//!   the module runs, `{kind: "table", encoding}` once a table has arrived (the first one: the
//!   worker can count), then per job
//!   `{kind: "progress", id, done}` (`done` in bytes), `{kind: "done", id, offsets}` (a
//!   transferred `Uint32Array` of the token boundaries' byte offsets, as in
//!   [`Encoded`](chunk_core::tokenizer::Encoded); the page needs no ids), `{kind: "failed",
//!   message}` (also when the job's table could not be fetched or was refused).

#[cfg(target_arch = "wasm32")]
pub use imp::{TokenizerWorker, WorkerResult};
#[cfg(not(target_arch = "wasm32"))]
pub use native::{TokenizerWorker, WorkerResult};

use super::module::Module;
pub use super::schedule::{LOADING_REPORT_MS, WORKER_SLICE_MS};

/// File name of the worker's script, next to `index.html` (copied there by Trunk).
pub const WORKER_SCRIPT: &str = "tokenize-worker.js";

/// What the worker reports to the page.
#[derive(Debug)]
pub enum Reply {
    /// The tokenizer module, or then a table, is arriving: `received` bytes so far, of `total`
    /// when the browser knows the size (not for a compressed file). Any other reply ends it.
    Loading {
        /// Bytes of the module received.
        received: usize,
        /// Bytes of the whole file, when announced.
        total: Option<usize>,
    },
    /// The worker has started the tokenizer module and takes jobs (posted earlier ones wait for
    /// this); with the compiled module (when it sent one), for a restart and for the page's
    /// own thread. It can count once a table has arrived ([`Reply::TableLoaded`]).
    Ready(Option<Module>),
    /// The table of the named encoding has arrived in the worker and passed its check: the
    /// worker can count (with that encoding at least).
    TableLoaded(String),
    /// Job `id` has tokenized its first `done` bytes.
    Progress {
        /// Job number, as posted.
        id: u32,
        /// Bytes of the text tokenized so far.
        done: usize,
    },
    /// Job `id` is complete.
    Done {
        /// Job number, as posted.
        id: u32,
        /// The byte offsets of the whole text's token boundaries, still in the worker's array:
        /// copied into wasm memory (and checked) only if the job is still wanted.
        result: WorkerResult,
    },
    /// The worker cannot tokenize (it did not start, or a job failed); the page should do the
    /// work itself. The message is for the console.
    Failed(String),
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use chunk_core::tokenizer::{Encoding, TokenBoundaries};
    use js_sys::{Uint32Array, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{Reply, LOADING_REPORT_MS, WORKER_SCRIPT, WORKER_SLICE_MS};
    use crate::tokenize::module::{Module, ENGINE_GLUE, ENGINE_WASM};
    use crate::worker::{field, object, Heard, ModuleWorker, Protocol};

    /// Field `key` as a job number or byte count (a non-negative integer), if it is one.
    fn whole(message: &JsValue, key: &str) -> Option<u32> {
        let n = field(message, key).as_f64()?;
        (n >= 0.0 && n <= f64::from(u32::MAX) && n.fract() == 0.0).then_some(n as u32)
    }

    /// A job for the worker: tokenize `bytes` (UTF-8, transferred) with `encoding`.
    pub struct Job {
        id: u32,
        encoding: Encoding,
        bytes: Uint8Array,
    }

    /// The tokenizer worker's messages (see the module documentation).
    pub struct TokenizeProtocol;

    impl Protocol for TokenizeProtocol {
        type Request = Job;
        type Reply = Reply;
        const NAME: &'static str = "tokenizer worker";
        const SCRIPT: &'static str = WORKER_SCRIPT;
        const GLUE: &'static str = ENGINE_GLUE;
        const WASM: &'static str = ENGINE_WASM;

        fn init_fields() -> Vec<(&'static str, JsValue)> {
            vec![
                // The worker fetches it beside its module; the module asks for it first.
                ("table", JsValue::from(Encoding::default().table_file())),
                ("slice_ms", JsValue::from(WORKER_SLICE_MS)),
                ("report_ms", JsValue::from(LOADING_REPORT_MS)),
            ]
        }

        fn encode(job: &Job) -> Result<(JsValue, Option<JsValue>), String> {
            let message = object(&[
                ("id", &JsValue::from(job.id)),
                ("encoding", &JsValue::from_str(job.encoding.name())),
                ("bytes", &job.bytes),
            ]);
            Ok((message.into(), Some(job.bytes.buffer().into())))
        }

        fn decode(message: JsValue) -> Result<Reply, String> {
            read_reply(&message)
        }
    }

    /// The page's handle on the tokenizer worker. Dropping it stops the worker.
    pub struct TokenizerWorker(ModuleWorker<TokenizeProtocol>);

    impl TokenizerWorker {
        /// Starts the worker and sends it `init` (see the module documentation): `module` is the
        /// tokenizer module a previous worker compiled, if any; every message it sends back
        /// goes to `on_reply`. `None` where the page was not started by `assets/boot.js` (as in
        /// the component tests, where no file of the build is served) or the browser refuses
        /// the worker; the page then tokenizes on its own thread.
        pub fn start(on_reply: impl Fn(Reply) + 'static, module: Option<&Module>) -> Option<Self> {
            let document = web_sys::window()?.document()?;
            document.query_selector("script[data-js]").ok()??;
            let module = module.map_or(JsValue::UNDEFINED, |m| m.0.clone());
            let heard = move |heard: Heard<Reply>| match heard {
                Heard::Ready(module) => on_reply(Reply::Ready(
                    module
                        .dyn_into::<js_sys::WebAssembly::Module>()
                        .ok()
                        .map(|m| Module(m.into())),
                )),
                Heard::Reply(reply) => on_reply(reply),
                Heard::Failed { message, .. } => on_reply(Reply::Failed(message)),
            };
            ModuleWorker::start(heard, module).ok().map(TokenizerWorker)
        }

        /// Posts job `id`: tokenize `text` with `encoding`. The text is copied once, as UTF-8,
        /// into a buffer that is then transferred (not copied again) to the worker.
        ///
        /// # Errors
        /// English, when the worker refused the message.
        pub fn tokenize(&self, id: u32, text: &str, encoding: Encoding) -> Result<(), String> {
            let bytes = Uint8Array::new_from_slice(text.as_bytes());
            self.0.post(&Job {
                id,
                encoding,
                bytes,
            })
        }
    }

    /// Reads one message from the worker (`ready` is the handle's).
    fn read_reply(message: &JsValue) -> Result<Reply, String> {
        let kind = field(message, "kind").as_string().unwrap_or_default();
        let id = whole(message, "id");
        match (kind.as_str(), id) {
            ("loading", _) => Ok(Reply::Loading {
                received: whole(message, "received").unwrap_or(0) as usize,
                total: whole(message, "total").map(|t| t as usize),
            }),
            ("table", _) => Ok(Reply::TableLoaded(
                field(message, "encoding").as_string().unwrap_or_default(),
            )),
            ("progress", Some(id)) => Ok(Reply::Progress {
                id,
                done: whole(message, "done").unwrap_or(0) as usize,
            }),
            ("done", Some(id)) => match field(message, "offsets").dyn_into::<Uint32Array>() {
                Ok(offsets) => Ok(Reply::Done {
                    id,
                    result: WorkerResult { offsets },
                }),
                Err(_) => Err("a result without offsets".into()),
            },
            ("failed", _) => Ok(Reply::Failed(
                field(message, "message")
                    .as_string()
                    .unwrap_or_else(|| "tokenizer worker failed".into()),
            )),
            _ => Err(format!("unexpected message: {kind}")),
        }
    }

    /// A finished job's offsets as the worker sent them.
    #[derive(Debug)]
    pub struct WorkerResult {
        offsets: Uint32Array,
    }

    impl WorkerResult {
        /// Copies the offsets into wasm memory for a text of `text_len` bytes, or says why they
        /// cannot be its token boundaries (see [`TokenBoundaries::new`]). Yields
        /// to the browser between the copy and the check: for 10 M tokens each takes tens of
        /// milliseconds.
        pub async fn into_offsets(self, text_len: usize) -> Result<Vec<usize>, String> {
            let copied = self.offsets.to_vec();
            crate::browser::yield_now().await;
            let offsets: Vec<usize> = copied.into_iter().map(|o| o as usize).collect();
            TokenBoundaries::new(offsets, text_len)
                .map(TokenBoundaries::into_vec)
                .map_err(|why| why.to_string())
        }
    }
}

/// Outside the browser there is no worker: [`TokenizerWorker::start`] gives `None`, so the
/// native build (unit tests of the page's logic) takes the same code path as a browser that
/// refuses workers.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use chunk_core::tokenizer::Encoding;

    use super::{Module, Reply};

    /// Never constructed natively.
    pub enum TokenizerWorker {}

    /// Never constructed natively.
    #[derive(Debug)]
    pub enum WorkerResult {}

    impl WorkerResult {
        /// Unreachable: there is no value to call it on.
        pub async fn into_offsets(self, _text_len: usize) -> Result<Vec<usize>, String> {
            match self {}
        }
    }

    impl TokenizerWorker {
        /// Always `None`: no worker outside the browser.
        pub fn start(
            _on_reply: impl Fn(Reply) + 'static,
            _module: Option<&Module>,
        ) -> Option<Self> {
            None
        }

        /// Unreachable: there is no value to call it on.
        pub fn tokenize(&self, _id: u32, _text: &str, _encoding: Encoding) -> Result<(), String> {
            match *self {}
        }
    }

    impl Drop for TokenizerWorker {
        fn drop(&mut self) {
            match *self {}
        }
    }
}
