//! Tokenizing on the page's own thread, in slices that yield to the browser between them: the
//! tokenizer job's fallback where no worker runs (the browser refuses it, or it failed), and
//! the simulator's BPE tokenizers (short texts).
//!
//! The page's own wasm module carries no BPE table (issue 11: it would triple its size and
//! hold the first paint back). On the page's thread the tokenizer is the tokenizer's own
//! module (`crates/tokenize-engine`, the one the worker runs): [`tokenize`] imports its glue
//! once and instantiates the compiled module the worker handed over ([`offer_module`]), or
//! fetches it when no worker ever sent one; the module names the table file it still needs
//! (`table_needed`), which this thread fetches and hands to it (`load_table`, where it is
//! checked). Native builds (the page's unit tests) and builds
//! with the `linked-tokenizer` feature (the browser component tests, where no engine file is
//! served) link `chunk_core`'s tokenizer instead; both run the same `Slicer`.

use std::sync::Arc;

use chunk_core::tokenizer::Encoding;

use super::schedule::PAGE_SLICE_MS;

/// Tokenizes `text` with `encoding` on this thread, one slice of [`PAGE_SLICE_MS`] per browser
/// task, calling `progress` with the bytes done after each slice. Returns the byte offsets of
/// the token boundaries (as `chunk_core::tokenizer::Encoded::offsets`), or `Ok(None)` as soon
/// as `keep_going` returns false between two slices (a newer edit made the job stale).
///
/// # Errors
/// The tokenizer module or its table could not be loaded (a network error on a first visit,
/// a file missing from the build, a table refused as not this build's) or it trapped; the
/// message is English, for the console.
pub async fn tokenize(
    encoding: Encoding,
    text: Arc<str>,
    keep_going: impl Fn() -> bool,
    progress: impl Fn(usize),
) -> Result<Option<Vec<usize>>, String> {
    let len = text.len();
    let mut job = imp::Job::start(encoding, text).await?;
    if !keep_going() {
        return Ok(None);
    }
    while !job.run_for(PAGE_SLICE_MS)? {
        progress(job.done_bytes());
        #[cfg(target_arch = "wasm32")]
        crate::browser::yield_now().await;
        if !keep_going() {
            return Ok(None);
        }
    }
    // The windows index the text with these offsets: checked as the worker's are.
    let offsets = chunk_core::tokenizer::TokenBoundaries::new(job.into_offsets()?, len)
        .map_err(|why| format!("tokenizer module result refused: {why}"))?;
    Ok(Some(offsets.into_vec()))
}

#[cfg(any(not(target_arch = "wasm32"), feature = "linked-tokenizer"))]
mod imp {
    use std::sync::Arc;

    use chunk_core::tokenizer::sliced::Slicer;
    use chunk_core::tokenizer::Encoding;

    use crate::browser::now_ms;

    /// A job of the core's own tokenizer, linked in.
    pub(super) struct Job(Slicer);

    impl Job {
        pub(super) async fn start(encoding: Encoding, text: Arc<str>) -> Result<Self, String> {
            Ok(Job(Slicer::new(text, encoding)))
        }

        pub(super) fn run_for(&mut self, ms: f64) -> Result<bool, String> {
            Ok(self.0.run_for(ms, now_ms))
        }

        pub(super) fn done_bytes(&self) -> usize {
            self.0.done_bytes()
        }

        pub(super) fn into_offsets(self) -> Result<Vec<usize>, String> {
            Ok(self.0.into_encoded().offsets)
        }
    }
}

#[cfg(all(target_arch = "wasm32", not(feature = "linked-tokenizer")))]
mod imp {
    use std::sync::Arc;

    use chunk_core::tokenizer::Encoding;
    use js_sys::{Array, Promise, Reflect, Uint32Array, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;

    use crate::browser::build_file_url;
    use crate::tokenize::module::{offered_module, ENGINE_GLUE, ENGINE_WASM};

    // A dynamic `import()` has no Rust or web-sys binding: `assets/boot.js` offers one as a
    // global function (not a wasm-bindgen snippet: a file of its own would be fetched after
    // the page's load, and missed by the offline copy).
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = ragChunkCalculatorImport, catch)]
        fn import_module(url: &str) -> Result<Promise, JsValue>;
    }

    // The browser's `fetch`, for the table file.
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = fetch, catch)]
        fn fetch_url(url: &str) -> Result<Promise, JsValue>;
    }

    // `SlicedJob` of crates/tokenize-engine, as its glue exports it.
    #[wasm_bindgen]
    extern "C" {
        type EngineJob;
        #[wasm_bindgen(method, catch)]
        fn run_for(this: &EngineJob, ms: f64) -> Result<bool, JsValue>;
        #[wasm_bindgen(method)]
        fn done_bytes(this: &EngineJob) -> u32;
        #[wasm_bindgen(method, catch)]
        fn into_offsets(this: &EngineJob) -> Result<Uint32Array, JsValue>;
        #[wasm_bindgen(method)]
        fn free(this: &EngineJob);
    }

    thread_local! {
        /// The loaded glue (a promise of its namespace), once asked for; dropped on failure
        /// (a failed load, or a trap that may have left the instance broken) so that a later
        /// job loads a fresh one.
        static GLUE: std::cell::RefCell<Option<Promise>> = const { std::cell::RefCell::new(None) };
        /// Instances loaded so far: each fresh one imports the glue under a URL of its own (a
        /// fragment), since importing the same URL again gives the same, initialised module.
        static LOADS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    /// A promise of the glue at `js`, instantiated with `source` (a compiled module or the
    /// .wasm's URL).
    fn load_engine(js: String, source: JsValue) -> Promise {
        wasm_bindgen_futures::future_to_promise(async move {
            let glue = JsFuture::from(import_module(&js)?).await?;
            let default: js_sys::Function = Reflect::get(&glue, &"default".into())?.dyn_into()?;
            let options = js_sys::Object::new();
            Reflect::set(&options, &"module_or_path".into(), &source)?;
            let started: Promise = default.call1(&JsValue::UNDEFINED, &options)?.dyn_into()?;
            JsFuture::from(started).await?;
            Ok(glue)
        })
    }

    /// The tokenizer module's glue, instantiated on this thread.
    async fn glue() -> Result<JsValue, String> {
        let promise = match GLUE.with(|g| g.borrow().clone()) {
            Some(p) => p,
            None => {
                let source = match offered_module() {
                    Some(m) => m.0,
                    None => JsValue::from_str(&build_file_url(ENGINE_WASM)?),
                };
                let n = LOADS.with(|l| l.replace(l.get() + 1));
                let glue = if n == 0 {
                    build_file_url(ENGINE_GLUE)?
                } else {
                    format!("{}#instance-{n}", build_file_url(ENGINE_GLUE)?)
                };
                let p = load_engine(glue, source);
                GLUE.with(|g| *g.borrow_mut() = Some(p.clone()));
                p
            }
        };
        JsFuture::from(promise).await.map_err(|e| {
            GLUE.with(|g| *g.borrow_mut() = None);
            format!("the tokenizer module did not load: {e:?}")
        })
    }

    /// A job of the tokenizer module's `SlicedJob`; dropping it before its offsets are taken
    /// frees it in the module.
    pub(super) struct Job(Option<EngineJob>);

    /// A trap may leave the instance broken: the next job loads a fresh one.
    fn trapped(e: JsValue) -> String {
        GLUE.with(|g| *g.borrow_mut() = None);
        format!("tokenizer module: {e:?}")
    }

    /// Calls the method `name` of `target` (the glue's namespace, a response) with `args`.
    fn call(target: &JsValue, name: &str, args: &Array) -> Result<JsValue, String> {
        let function: js_sys::Function = Reflect::get(target, &name.into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| format!("the tokenizer module has no {name}"))?;
        Reflect::apply(&function, target, args).map_err(|e| format!("tokenizer module: {e:?}"))
    }

    /// The bytes of the page's file `file` (relative to the page's folder).
    async fn fetch_bytes(file: &str) -> Result<Uint8Array, String> {
        let url = build_file_url(file)?;
        let failed = |e: JsValue| format!("{file}: {e:?}");
        let response = JsFuture::from(fetch_url(&url).map_err(failed)?)
            .await
            .map_err(failed)?;
        let status = Reflect::get(&response, &"status".into())
            .ok()
            .and_then(|s| s.as_f64())
            .unwrap_or(0.0);
        if status != 200.0 {
            return Err(format!("{file}: HTTP {status}"));
        }
        let buffer = call(&response, "arrayBuffer", &Array::new()).and_then(|p| {
            p.dyn_into::<Promise>()
                .map_err(|_| format!("{file}: no body"))
        })?;
        let buffer = JsFuture::from(buffer).await.map_err(failed)?;
        Ok(Uint8Array::new(&buffer))
    }

    /// Loads `encoding`'s table into the module's instance unless it holds it already.
    async fn ensure_table(glue: &JsValue, encoding: Encoding) -> Result<(), String> {
        let needed = call(glue, "table_needed", &Array::of1(&encoding.name().into()))?;
        let Some(file) = needed.as_string() else {
            return Ok(());
        };
        let bytes = fetch_bytes(&file).await?;
        call(
            glue,
            "load_table",
            &Array::of2(&encoding.name().into(), &bytes),
        )?;
        Ok(())
    }

    impl Job {
        pub(super) async fn start(encoding: Encoding, text: Arc<str>) -> Result<Self, String> {
            let glue = glue().await?;
            ensure_table(&glue, encoding).await?;
            let class = Reflect::get(&glue, &"SlicedJob".into())
                .ok()
                .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
                .ok_or("the tokenizer module has no SlicedJob")?;
            let args = Array::of2(
                &encoding.name().into(),
                &Uint8Array::new_from_slice(text.as_bytes()),
            );
            let job = Reflect::construct(&class, &args)
                .map_err(|e| format!("tokenizer module: {e:?}"))?;
            Ok(Job(Some(job.unchecked_into())))
        }

        fn job(&self) -> Result<&EngineJob, String> {
            self.0
                .as_ref()
                .ok_or_else(|| "tokenizer module job already taken".into())
        }

        pub(super) fn run_for(&mut self, ms: f64) -> Result<bool, String> {
            self.job()?.run_for(ms).map_err(trapped)
        }

        pub(super) fn done_bytes(&self) -> usize {
            self.job().map_or(0, |j| j.done_bytes() as usize)
        }

        pub(super) fn into_offsets(mut self) -> Result<Vec<usize>, String> {
            let job = self.0.take().ok_or("tokenizer module job already taken")?;
            let offsets = job.into_offsets().map_err(trapped)?;
            Ok(offsets.to_vec().into_iter().map(|o| o as usize).collect())
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            if let Some(job) = self.0.take() {
                job.free();
            }
        }
    }
}
