//! The page's handle on the embedding worker (`assets/embed-worker.js`, which runs
//! `crates/embed-engine`): the model that dense and hybrid retrieval rank with, run on this
//! device. It is started only when the user picks such a retriever (never in the first load),
//! and stopped by the user's stop button.
//!
//! One worker runs one model; picking another stops it and starts a new one. The worker
//! speaks the [`crate::worker`] handshake, with the model's files in its `init`
//! ([`DenseModel::file`], [`DenseModel::vocab_file`]); then it reports `{kind: "loading",
//! received, total}` while the files arrive, `{kind: "progress", done, queued}` while it
//! embeds, and `{kind: "failed", message}`. The comparison workers ask it for embeddings
//! themselves, each on a `MessagePort` of its own: [`EmbedRuntime::port`] makes a channel,
//! gives the worker one end (`{kind: "port", port}`) and returns the other, which the
//! comparison engine's handle passes on (`crate::compare::engine`).

pub mod messages;

use chunk_core::retrieval::DenseModel;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::worker::{field, kind_of, Heard, ModuleWorker, Protocol};

/// What the embedding model is doing, as the status line shows it (`data-state`).
#[derive(Clone, Debug, PartialEq)]
pub enum EmbedStatus {
    /// Not started (or stopped): `off`.
    Off,
    /// Its module and files are downloading: `loading`, with the bytes received so far and
    /// the whole when known.
    Loading {
        /// Bytes received.
        received: f64,
        /// Bytes in all, when known.
        total: Option<f64>,
    },
    /// Loaded, nothing to embed: `ready`.
    Ready,
    /// Embedding: `embedding`, texts done and texts waiting.
    Embedding {
        /// Texts embedded since the model loaded.
        done: u64,
        /// Texts waiting.
        queued: u64,
    },
    /// It failed (English, from the worker): `failed`.
    Failed(String),
}

impl EmbedStatus {
    /// The `data-state` name.
    pub fn code(&self) -> &'static str {
        match self {
            EmbedStatus::Off => "off",
            EmbedStatus::Loading { .. } => "loading",
            EmbedStatus::Ready => "ready",
            EmbedStatus::Embedding { .. } => "embedding",
            EmbedStatus::Failed(_) => "failed",
        }
    }
}

/// What the embedding worker reports besides `ready`.
#[derive(Clone, Debug, PartialEq)]
pub enum EmbedReply {
    /// Bytes of the module and the model received.
    Loading {
        /// Bytes received.
        received: f64,
        /// Bytes in all, when known.
        total: Option<f64>,
    },
    /// Texts embedded and waiting.
    Progress {
        /// Texts embedded.
        done: u64,
        /// Texts waiting.
        queued: u64,
    },
    /// The worker could not load or run the model.
    Failed(String),
}

/// A message for the embedding worker: a port a comparison worker asks on.
pub struct PortFor(pub web_sys::MessagePort);

/// The embedding worker's messages.
pub struct EmbedProtocol;

impl Protocol for EmbedProtocol {
    type Request = PortFor;
    type Reply = EmbedReply;
    const NAME: &'static str = "embedding worker";
    const SCRIPT: &'static str = "embed-worker.js";
    const GLUE: &'static str = "embed-engine.js";
    const WASM: &'static str = "embed-engine_bg.wasm";

    fn encode(request: &PortFor) -> Result<(JsValue, Option<JsValue>), String> {
        let port: JsValue = request.0.clone().into();
        let message =
            crate::worker::object(&[("kind", &JsValue::from_str("port")), ("port", &port)]);
        Ok((message.into(), Some(port)))
    }

    fn decode(message: JsValue) -> Result<EmbedReply, String> {
        let number = |key| field(&message, key).as_f64();
        match kind_of(&message).as_deref() {
            Some("loading") => Ok(EmbedReply::Loading {
                received: number("received").unwrap_or(0.0),
                total: number("total"),
            }),
            Some("progress") => Ok(EmbedReply::Progress {
                done: number("done").unwrap_or(0.0) as u64,
                queued: number("queued").unwrap_or(0.0) as u64,
            }),
            Some("failed") => Ok(EmbedReply::Failed(
                field(&message, "message")
                    .as_string()
                    .unwrap_or_else(|| "no reason given".into()),
            )),
            other => Err(format!("unknown message {other:?}")),
        }
    }
}

/// The embedding model's context: its status (written only here, from the worker's reports)
/// and the worker.
#[derive(Clone, Copy)]
pub struct EmbedRuntime {
    /// What the model is doing.
    pub status: RwSignal<EmbedStatus>,
    /// Texts the running worker has embedded since it started (`embed-status`'s
    /// `data-embedded`): what a re-cut that needs no new embedding leaves unchanged.
    pub embedded: RwSignal<u64>,
    worker: StoredValue<Option<ModuleWorker<EmbedProtocol>>, LocalStorage>,
    /// Which start of the worker the ports belong to (0: none yet): a comparison worker holding
    /// a port of an older start needs a new one.
    generation: StoredValue<u32>,
    /// The model the running worker loads (one worker runs one model).
    model: StoredValue<Option<DenseModel>>,
}

impl EmbedRuntime {
    /// Creates and provides the context (nothing is started).
    pub fn provide() -> EmbedRuntime {
        let runtime = EmbedRuntime {
            status: RwSignal::new(EmbedStatus::Off),
            embedded: RwSignal::new(0),
            worker: StoredValue::new_local(None),
            generation: StoredValue::new(0),
            model: StoredValue::new(None),
        };
        provide_context(runtime);
        runtime
    }

    /// Starts the worker for `model` unless it runs with that model (a worker of another model
    /// is stopped first); the current start's number (0 where the browser refused to start it:
    /// the status then says why).
    pub fn ensure_started(&self, model: DenseModel) -> u32 {
        if self.worker.with_value(Option::is_some) {
            // A worker that failed never answers: it is started afresh.
            let failed = self
                .status
                .with_untracked(|s| matches!(s, EmbedStatus::Failed(_)));
            if self.model.get_value() == Some(model) && !failed {
                return self.generation.get_value();
            }
            self.stop();
        }
        let status = self.status;
        let embedded = self.embedded;
        embedded.set(0);
        let on_event = move |heard: Heard<EmbedReply>| {
            if let Heard::Reply(EmbedReply::Progress { done, .. }) = &heard {
                embedded.set(*done);
            }
            // Progress while the model still loads does not make it ready.
            let loading = status.with_untracked(|s| matches!(s, EmbedStatus::Loading { .. }));
            let next = match heard {
                Heard::Ready(_) => EmbedStatus::Ready,
                Heard::Reply(EmbedReply::Loading { received, total }) => {
                    EmbedStatus::Loading { received, total }
                }
                Heard::Reply(EmbedReply::Progress { .. }) if loading => return,
                Heard::Reply(EmbedReply::Progress { queued: 0, .. }) => EmbedStatus::Ready,
                Heard::Reply(EmbedReply::Progress { done, queued }) => {
                    EmbedStatus::Embedding { done, queued }
                }
                Heard::Reply(EmbedReply::Failed(message)) | Heard::Failed { message, .. } => {
                    EmbedStatus::Failed(message)
                }
            };
            status.set(next);
        };
        let files = vec![
            ("model", JsValue::from_str(model.file())),
            ("vocab", JsValue::from_str(model.vocab_file())),
        ];
        match ModuleWorker::start_with(on_event, JsValue::UNDEFINED, files) {
            Ok(worker) => {
                self.worker.set_value(Some(worker));
                self.model.set_value(Some(model));
                self.status.set(EmbedStatus::Loading {
                    received: 0.0,
                    total: None,
                });
                self.generation.update_value(|g| *g += 1);
                self.generation.get_value()
            }
            Err(message) => {
                self.status.set(EmbedStatus::Failed(message));
                0
            }
        }
    }

    /// A new channel to the running worker: one end is given to the worker, the other is
    /// returned for a comparison worker. `None` when the worker does not run.
    pub fn port(&self) -> Option<web_sys::MessagePort> {
        // A port to a worker that failed would never be answered: none, so that the
        // comparison worker fails its batches at once.
        let live = self.status.with_untracked(|s| {
            matches!(
                s,
                EmbedStatus::Loading { .. } | EmbedStatus::Ready | EmbedStatus::Embedding { .. }
            )
        });
        if !self.running() || !live {
            return None;
        }
        let channel = web_sys::MessageChannel::new().ok()?;
        let posted = self.worker.with_value(|w| {
            w.as_ref()
                .map(|w| w.post(&PortFor(channel.port1())).is_ok())
        });
        (posted == Some(true)).then(|| channel.port2())
    }

    /// Stops the worker (the user's stop button): the status goes back to off.
    pub fn stop(&self) {
        if let Some(w) = self.worker.try_update_value(Option::take).flatten() {
            w.stop();
        }
        self.model.set_value(None);
        self.status.set(EmbedStatus::Off);
    }

    /// Whether the worker runs (started and not stopped).
    pub fn running(&self) -> bool {
        self.worker.with_value(Option::is_some)
    }
}
