//! The page's tokenizer module: chunk-core's BPE tokenizer (cl100k_base, o200k_base: the rank
//! tables, 2.3 MB of the module) behind one `wasm-bindgen` class, [`SlicedJob`].
//!
//! It is its own wasm module so that the page's module (the UI) carries no table and paints
//! without waiting for them. `assets/tokenize-worker.js` runs it in the tokenizer's Web Worker
//! (one job at a time, a slice of [`SlicedJob::run_for`] between two looks at its messages,
//! posting progress); where no worker runs, the page instantiates the same compiled module on
//! its own thread (`src/tokenize_local.rs`) and runs the same slices between two frames. Trunk
//! builds it as a worker module (`index.html`, `data-type="worker"`), as `tokenize-engine.js` +
//! `tokenize-engine_bg.wasm`.

#[cfg(feature = "bench")]
mod bench;

use std::sync::Arc;

use chunk_core::tokenizer::sliced::Slicer;
use chunk_core::tokenizer::Encoding;
use js_sys::Uint32Array;
use wasm_bindgen::prelude::*;

/// One text being tokenized in slices (`chunk_core::tokenizer::sliced::Slicer`). JS:
/// `new SlicedJob("cl100k_base", bytes)`, then `run_for(ms)` until it returns true, then
/// `into_offsets()`.
#[wasm_bindgen]
pub struct SlicedJob {
    slicer: Slicer,
}

#[wasm_bindgen]
impl SlicedJob {
    /// A job for `bytes` (the text as UTF-8, copied into this module's memory) with the encoding
    /// named `encoding` (`"cl100k_base"`, `"o200k_base"`). Builds the encoding's table on its
    /// first use in this instance (tens of milliseconds).
    ///
    /// # Errors
    /// An unknown encoding name, or bytes that are not UTF-8 (thrown as a JS `Error`).
    #[wasm_bindgen(constructor)]
    pub fn new(encoding: &str, bytes: Vec<u8>) -> Result<SlicedJob, JsError> {
        let encoding = Encoding::from_name(encoding)
            .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| JsError::new(&format!("the text is not UTF-8: {e}")))?;
        Ok(SlicedJob {
            slicer: Slicer::new(Arc::from(text), encoding),
        })
    }

    /// Tokenizes whole pieces until more than `ms` milliseconds have passed (`Date.now()`);
    /// true once the whole text is done. One piece is never cut, so a slice of a text that is
    /// one long piece can take longer.
    pub fn run_for(&mut self, ms: f64) -> bool {
        self.slicer.run_for(ms, js_sys::Date::now)
    }

    /// Bytes of the text tokenized so far.
    pub fn done_bytes(&self) -> u32 {
        byte_count(self.slicer.done_bytes())
    }

    /// Bytes in the whole text.
    pub fn total_bytes(&self) -> u32 {
        byte_count(self.slicer.total_bytes())
    }

    /// The byte offsets of the token boundaries (one more than the tokens: `0`, then the end of
    /// each token), as `chunk_core::tokenizer::Encoded::offsets`; consumes the job. Call it once
    /// [`SlicedJob::run_for`] returned true.
    pub fn into_offsets(self) -> Uint32Array {
        let offsets: Vec<u32> = self
            .slicer
            .into_encoded()
            .offsets
            .into_iter()
            .map(byte_count)
            .collect();
        Uint32Array::from(offsets.as_slice())
    }
}

/// A byte count as JS receives it. wasm32 addresses at most 4 GiB, so a `usize` always fits.
fn byte_count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
