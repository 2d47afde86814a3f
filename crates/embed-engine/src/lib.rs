//! The page's embedding worker: one of embed-core's models (all-MiniLM-L6-v2 or the static
//! potion-base-8M, with int8 weights, read from the site's model file, `embed_core::site`) in a Web Worker of its own
//! (`assets/embed-worker.js`), so that neither the page's module nor any other worker carries
//! it, and nothing of it is fetched before the page asks for embeddings. Trunk builds this
//! crate as a worker module (`index.html`, `data-type="worker"`) as `embed-engine.js` +
//! `embed-engine_bg.wasm`; the model file is written into the build by
//! `examples/site_model.rs` (a Trunk `post_build` hook).
//!
//! The comparison workers ask for vectors over `MessagePort`s the page hands this worker; the
//! rules (order, one text per step, ports in turn, errors, the progress throttle) are
//! [`schedule::Schedule`]'s, natively tested; [`Engine`] is a thin `wasm_bindgen` layer over it
//! for the script:
//! - `load(model_file, model_bytes, vocab_file, vocab_bytes)` — the files the script fetched:
//!   the model's facts for the `ready` message, or an error naming the file;
//! - `fail(message)` — the files could not be fetched;
//! - `request(port, message)` — a message `{id, texts}` that arrived on port `port`;
//! - `step()` — what to do next (embed one text, post, wait, or nothing until a message).
//!
//! With the `simd128` feature (the default), the encoder's dot products use wasm SIMD
//! (`embed-core`'s `simd128`); the vectors are the same bit for bit.

pub mod schedule;

use embed_core::safetensors::LoadError;
use embed_core::site;
use js_sys::{Array, Float32Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use schedule::{Schedule, Step};

/// The embedding worker for `assets/embed-worker.js` (module docs).
#[wasm_bindgen]
#[derive(Default)]
pub struct Engine {
    schedule: Schedule<JsValue>,
}

/// `object[key] = value` on a fresh plain object.
fn set(object: &Object, key: &str, value: impl Into<JsValue>) -> Result<(), JsValue> {
    Reflect::set(object, &key.into(), &value.into()).map(|_| ())
}

/// The error of a failed load in English, naming the file at fault.
fn load_error(model_file: &str, vocab_file: &str, error: &LoadError) -> String {
    match error {
        LoadError::Config(why) if why.starts_with("vocab.txt") => {
            format!("{vocab_file} does not fit the model: {why}")
        }
        _ => format!("{model_file}: {error}"),
    }
}

#[wasm_bindgen]
impl Engine {
    /// A worker without a model: requests wait for [`Engine::load`].
    #[wasm_bindgen(constructor)]
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Loads the site's model file (`model`, fetched from `model_file`) with its vocabulary
    /// (`vocab`, the UTF-8 text of `vocab_file`); both names are only for the messages. The
    /// waiting requests then go on. Returns the `ready` message's model:
    /// `{id, dim, max_seq_length, bytes}` — the page's model id, the vectors' width, the
    /// longest input in tokens (`[CLS]` and `[SEP]` included; longer texts are cut), the
    /// model file's size in bytes.
    ///
    /// # Errors
    /// A vocabulary that is not UTF-8 or does not fit the model, or a model file that is not a
    /// site model file, is damaged or cut short (`embed_core::site::read`): a JS `Error` whose
    /// message names the file; every request waiting or to come is then answered with it.
    pub fn load(
        &mut self,
        model_file: &str,
        model: &[u8],
        vocab_file: &str,
        vocab: &[u8],
    ) -> Result<JsValue, JsError> {
        let loaded = std::str::from_utf8(vocab)
            .map_err(|e| format!("{vocab_file} is not UTF-8 text: {e}"))
            .and_then(|vocab| {
                site::read_any(model, vocab).map_err(|e| load_error(model_file, vocab_file, &e))
            });
        match loaded {
            Ok(m) => {
                let info = Object::new();
                let built = set(&info, "id", m.id.as_str())
                    .and_then(|()| set(&info, "dim", m.encoder.dim() as u32))
                    .and_then(|()| set(&info, "max_seq_length", m.encoder.max_tokens() as u32))
                    .and_then(|()| set(&info, "bytes", model.len() as f64));
                self.schedule.loaded(m.id, m.encoder);
                built.map_err(|_| JsError::new("the model's facts could not be built"))?;
                Ok(info.into())
            }
            Err(why) => {
                self.schedule.failed(why.clone());
                Err(JsError::new(&why))
            }
        }
    }

    /// The model's files could not be had (`message`, in English, naming the file): every
    /// request waiting or to come is answered with it.
    pub fn fail(&mut self, message: &str) {
        self.schedule.failed(message.to_owned());
    }

    /// A message that arrived on port `port` (the script's number for it). A request is
    /// `{id, texts: [string, …]}`, optionally with `model`, the page's model id it expects
    /// (a request for another model than the one loaded is answered with an error); `id` is
    /// handed back as it is (any value). Anything else is answered `{id, error}` in its turn
    /// (`id` undefined when the message has none).
    pub fn request(&mut self, port: u32, message: JsValue) {
        let id = if message.is_object() {
            Reflect::get(&message, &"id".into()).unwrap_or(JsValue::UNDEFINED)
        } else {
            JsValue::UNDEFINED
        };
        let texts = if message.is_object() {
            Reflect::get(&message, &"texts".into()).unwrap_or(JsValue::UNDEFINED)
        } else {
            JsValue::UNDEFINED
        };
        let texts = if Array::is_array(&texts) {
            Array::from(&texts)
                .iter()
                .map(|t| t.as_string())
                .collect::<Option<Vec<String>>>()
                .ok_or_else(|| "a request's texts must all be strings".to_owned())
        } else {
            Err("a request is {id, texts: [string, …]}; this one has no texts array".to_owned())
        };
        let model = if message.is_object() {
            Reflect::get(&message, &"model".into())
                .ok()
                .and_then(|m| m.as_string())
        } else {
            None
        };
        self.schedule.receive(port, id, texts, model);
    }

    /// Message `{cancel: id}` on port `port`: request `id` is dropped
    /// ([`Schedule::cancel`]).
    pub fn cancel(&mut self, port: u32, id: JsValue) {
        self.schedule.cancel(port, &id);
    }

    /// Texts embedded since the start.
    pub fn done(&self) -> f64 {
        self.schedule.done() as f64
    }

    /// Texts waiting.
    pub fn queued(&self) -> u32 {
        self.schedule.queued() as u32
    }

    /// The next step at `Date.now()` (see [`Schedule::step`]), as what the script does:
    /// - `null`: nothing until a message arrives;
    /// - `{kind: "wait", ms}`: step again after `ms` milliseconds (a progress report is due);
    /// - `{kind: "embedded"}`: one text embedded, nothing to post; step again after a turn of
    ///   the event loop;
    /// - `{kind: "post", port, message, transfer}`: post `message` on port `port` —
    ///   `{id, vectors, dim}` (`vectors` a `Float32Array` of `n × dim` values, one row per
    ///   text in the request's order; `transfer` is `[vectors.buffer]`) or `{id, error}`
    ///   (`transfer` empty);
    /// - `{kind: "progress", done, queued}`: post this to the page as it is.
    ///
    /// # Errors
    /// Only when a message object cannot be built.
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        let out = Object::new();
        match self.schedule.step(js_sys::Date::now()) {
            Step::Idle => return Ok(JsValue::NULL),
            Step::Wait { ms } => {
                set(&out, "kind", "wait")?;
                set(&out, "ms", ms)?;
            }
            Step::Embedded => set(&out, "kind", "embedded")?,
            Step::Progress { done, queued } => {
                set(&out, "kind", "progress")?;
                set(&out, "done", done as f64)?;
                set(&out, "queued", queued as f64)?;
            }
            Step::Reply { port, id, reply } => {
                let message = Object::new();
                set(&message, "id", id)?;
                let transfer = Array::new();
                match reply {
                    Ok(v) => {
                        let values = Float32Array::from(v.values.as_slice());
                        transfer.push(&values.buffer());
                        set(&message, "vectors", values)?;
                        set(&message, "dim", v.dim as u32)?;
                    }
                    Err(why) => set(&message, "error", format!("embedding worker: {why}"))?,
                }
                set(&out, "kind", "post")?;
                set(&out, "port", port)?;
                set(&out, "message", message)?;
                set(&out, "transfer", transfer)?;
            }
        }
        Ok(out.into())
    }
}
