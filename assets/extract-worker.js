// The document reader worker (see crates/extract-engine and src/extract_job.rs). A module
// worker that runs the reader's own wasm module, never the page's; the page starts one per
// file and terminates it when the file is read, cancelled or replaced.
//
// Its one message is `{js, wasm, format, bytes}`: the URLs of the reader's wasm-bindgen glue
// and .wasm, the format ("html" or "docx") and the file's content (a transferred ArrayBuffer).
// It answers `{kind: "done", outcome, millis}` (the reader's Outcome and the time spent
// reading, in milliseconds, compiling the module excluded) or `{kind: "failed", message}`.
function fail(message) {
  self.postMessage({ kind: 'failed', message: `extract worker: ${message}` });
}

// A trap (a panic, out of memory) is reported, never left unhandled.
self.onunhandledrejection = (event) => {
  event.preventDefault();
  fail(`${event.reason}`);
};

self.onmessage = async ({ data }) => {
  try {
    const glue = await import(data.js);
    await glue.default({ module_or_path: data.wasm });
    const started = performance.now();
    const outcome = glue.extract(data.format, new Uint8Array(data.bytes));
    self.postMessage({ kind: 'done', outcome, millis: performance.now() - started });
  } catch (err) {
    fail(`${err}`);
  }
};
