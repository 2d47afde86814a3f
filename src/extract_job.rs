//! The page's handle on the document reader worker (`assets/extract-worker.js`, which runs
//! `crates/extract-engine`): one worker per file, started when an HTML, DOCX or PDF file is
//! opened and terminated when it has answered, when the user stops it, or when the job is
//! dropped (a newer edit or file). A PDF is read page by page, and the worker reports the
//! pages read as it goes ([`Progress`]). The reader's wasm is fetched by that worker, so it is never part of the
//! first paint, and the file's bytes go to it in a transferred buffer: they never leave the
//! browser.

use doc_extract::Outcome;

/// Script of the worker, next to `index.html` (copied there by Trunk).
pub const WORKER_SCRIPT: &str = "extract-worker.js";
/// The reader's wasm-bindgen glue and module as Trunk names a worker build (after the crate).
pub const ENGINE_GLUE: &str = "extract-engine.js";
/// See [`ENGINE_GLUE`].
pub const ENGINE_WASM: &str = "extract-engine_bg.wasm";

/// How far a PDF's reading has come: pages read, of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Pages read so far.
    pub done: u32,
    /// Pages in the document.
    pub total: u32,
}

/// How a job ended.
#[derive(Debug)]
pub enum Finished {
    /// The reader answered: the outcome, the document's text as the JS string the worker sent
    /// (taken out of the outcome, whose `text` is then empty, so that the page copies it into
    /// wasm over several tasks: `browser::read_js_string`), and the time it spent reading, in
    /// milliseconds (the worker's `performance.now()`, compiling the module excluded).
    Read(Outcome, js_sys::JsString, f64),
    /// The worker failed (trapped, or sent what the page cannot read). English, for the
    /// console; the page shows its own message.
    Failed(String),
    /// The reader's own files (the worker script, its glue or its module) could not be
    /// loaded, before any answer: offline before they were ever kept, or a server error.
    /// English, for the console.
    NotLoaded(String),
    /// The page's panels' module, which starts the reader in the split build
    /// ([`start_reading`]), could not be had: the reader never started. English, for the
    /// console.
    Unavailable(String),
}

#[cfg(target_arch = "wasm32")]
pub use imp::ExtractJob;

/// A document's reader, started ([`ExtractJob::start`]) from the panels' module in the split
/// build (`crate::panels`: its split points are `wasm_split_helpers` functions of the module
/// `panels`): handling the reader's replies (decoding its outcome and errors) is needed only
/// once a document is opened, so the page's first module does not carry it. A document opened
/// before that module has arrived waits for it; if it cannot be had, no document can be read
/// until it can (each call tries again). `on_progress` and `on_done` are the job's callbacks.
///
/// # Errors
/// How the job ended before it began: [`Finished::Failed`] when the browser refused the worker
/// or the message, and [`Finished::Unavailable`] when the panels' module could not be had
/// (English, for the console).
#[cfg(not(feature = "split"))]
pub async fn start_reading(
    format: doc_extract::Format,
    bytes: js_sys::Uint8Array,
    on_progress: Box<dyn Fn(Progress)>,
    on_done: Box<dyn FnOnce(Finished)>,
) -> Result<ExtractJob, Finished> {
    ExtractJob::start(format, bytes, on_progress, on_done).map_err(Finished::Failed)
}

/// A document's reader, started ([`ExtractJob::start`]) from the panels' module, where this
/// function is (a `wasm_split_helpers` split point): see the unsplit build's `start_reading`.
///
/// # Errors
/// [`Finished::Failed`] when the browser refused the worker or the message, and
/// [`Finished::Unavailable`] when the panels' module could not be had (English, for the
/// console).
#[cfg(feature = "split")]
#[wasm_split_helpers::wasm_split(panels, fallible)]
pub fn start_reading(
    format: doc_extract::Format,
    bytes: js_sys::Uint8Array,
    on_progress: Box<dyn Fn(Progress)>,
    on_done: Box<dyn FnOnce(Finished)>,
) -> Result<ExtractJob, Finished> {
    ExtractJob::start(format, bytes, on_progress, on_done).map_err(Finished::Failed)
}

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for Finished {
    fn from(e: wasm_split_helpers::SplitLoaderError) -> Self {
        Finished::Unavailable(format!("the panels' module, which starts the reader: {e}"))
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::ExtractJob;

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;
    use std::rc::Rc;

    use doc_extract::{Format, Outcome};
    use js_sys::{Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{Finished, Progress, ENGINE_GLUE, ENGINE_WASM, WORKER_SCRIPT};
    use crate::worker::{field, kind_of, object, Heard, ModuleWorker, Protocol};

    type OnDone = Rc<RefCell<Option<Box<dyn FnOnce(Finished)>>>>;

    /// A file to read: `{kind: "read", format, bytes}` (the bytes' buffer transferred).
    pub struct Read {
        format: Format,
        bytes: Uint8Array,
    }

    /// What the reader answers.
    pub enum Answer {
        /// A PDF's reading goes on.
        Progress(Progress),
        /// The reading ended.
        Finished(Finished),
    }

    /// The document reader's messages (see `assets/extract-worker.js`).
    pub struct ExtractProtocol;

    impl Protocol for ExtractProtocol {
        type Request = Read;
        type Reply = Answer;
        const NAME: &'static str = "extract worker";
        const SCRIPT: &'static str = WORKER_SCRIPT;
        const GLUE: &'static str = ENGINE_GLUE;
        const WASM: &'static str = ENGINE_WASM;

        fn encode(read: &Read) -> Result<(JsValue, Option<JsValue>), String> {
            let format = match read.format {
                Format::Html => "html",
                Format::Docx => "docx",
                Format::Pdf => "pdf",
            };
            let buffer = read.bytes.buffer();
            let message = object(&[
                ("kind", &JsValue::from_str("read")),
                ("format", &JsValue::from_str(format)),
                ("bytes", &buffer),
            ]);
            Ok((message.into(), Some(buffer.into())))
        }

        fn decode(message: JsValue) -> Result<Answer, String> {
            Ok(match read_progress(&message) {
                Some(p) => Answer::Progress(p),
                None => Answer::Finished(read_reply(message)),
            })
        }
    }

    /// One file being read in its own worker. Dropping it terminates the worker; its callback
    /// is then never called.
    pub struct ExtractJob {
        worker: ModuleWorker<ExtractProtocol>,
        on_done: OnDone,
    }

    impl ExtractJob {
        /// Starts a worker reading `bytes` (the whole file, whose buffer is transferred to
        /// the worker once it has started, and so left empty here) as `format`; `on_progress`
        /// gets each progress report of a PDF's reading; `on_done` gets how it ended, once, in
        /// a task of its own (so it may drop this job).
        ///
        /// # Errors
        /// English, when there is no document base URL or the browser refuses the module
        /// worker or the message.
        pub fn start(
            format: Format,
            bytes: Uint8Array,
            on_progress: impl Fn(Progress) + 'static,
            on_done: impl FnOnce(Finished) + 'static,
        ) -> Result<Self, String> {
            let on_done: OnDone = Rc::new(RefCell::new(Some(Box::new(on_done))));
            let done = on_done.clone();
            let heard = move |heard: Heard<Answer>| match heard {
                Heard::Ready(_) => {}
                // Only while the job is alive (dropping it takes `on_done`).
                Heard::Reply(Answer::Progress(p)) if done.borrow().is_some() => on_progress(p),
                Heard::Reply(Answer::Progress(_)) => {}
                Heard::Reply(Answer::Finished(f)) => finish(&done, f),
                Heard::Failed { message, loaded } => finish(
                    &done,
                    if loaded {
                        Finished::Failed(message)
                    } else {
                        Finished::NotLoaded(message)
                    },
                ),
            };
            let worker = ModuleWorker::start(heard, JsValue::UNDEFINED)?;
            // Posted once the worker is ready (a transfer before would race its init).
            worker.post(&Read { format, bytes })?;
            Ok(ExtractJob { worker, on_done })
        }
    }

    impl Drop for ExtractJob {
        fn drop(&mut self) {
            self.on_done.borrow_mut().take();
            self.worker.stop();
        }
    }

    /// Calls the job's callback if it has not been called yet, in a task of its own: the
    /// callback may drop the job, which must not happen inside the worker's event handler.
    fn finish(on_done: &OnDone, finished: Finished) {
        if let Some(f) = on_done.borrow_mut().take() {
            leptos::task::spawn_local(async move { f(finished) });
        }
    }

    /// A progress report, `{kind: "progress", done, total}`; `None` for any other message.
    fn read_progress(data: &JsValue) -> Option<Progress> {
        if kind_of(data)? != "progress" {
            return None;
        }
        let count = |name: &str| field(data, name).as_f64().map(|v| v as u32);
        Some(Progress {
            done: count("done").unwrap_or(0),
            total: count("total").unwrap_or(0),
        })
    }

    /// The worker's message: `{kind: "done", outcome, millis}` or `{kind: "failed", message}`.
    fn read_reply(data: JsValue) -> Finished {
        match kind_of(&data).as_deref() {
            Some("done") => {
                let millis = field(&data, "millis").as_f64().unwrap_or(0.0);
                let outcome = field(&data, "outcome");
                // The text stays a JS string here (megabytes: one copy would be a long task).
                let text = field(&outcome, "text").dyn_into::<js_sys::JsString>().ok();
                if text.is_some() {
                    let _ =
                        Reflect::set(&outcome, &JsValue::from_str("text"), &JsValue::from_str(""));
                }
                let text = text.unwrap_or_else(|| js_sys::JsString::from(""));
                match serde_wasm_bindgen::from_value::<Outcome>(outcome) {
                    Ok(outcome) => Finished::Read(outcome, text, millis),
                    Err(e) => {
                        Finished::Failed(format!("unreadable answer from the extract worker: {e}"))
                    }
                }
            }
            Some("failed") => {
                let message = field(&data, "message")
                    .as_string()
                    .unwrap_or_else(|| "the extract worker failed".to_owned());
                match field(&data, "stage").as_string().as_deref() {
                    Some("load") => Finished::NotLoaded(message),
                    _ => Finished::Failed(message),
                }
            }
            other => Finished::Failed(format!(
                "unexpected message from the extract worker: {other:?}"
            )),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{Finished, Progress};
    use doc_extract::Format;

    /// Outside a browser there is no worker: [`ExtractJob::start`] always fails.
    pub struct ExtractJob;

    impl ExtractJob {
        /// Always an error: documents are read only in a browser.
        ///
        /// # Errors
        /// Always, in English.
        pub fn start(
            _format: Format,
            _bytes: js_sys::Uint8Array,
            _on_progress: impl Fn(Progress) + 'static,
            _on_done: impl FnOnce(Finished) + 'static,
        ) -> Result<Self, String> {
            Err("documents are read in a browser worker only".to_owned())
        }
    }
}
