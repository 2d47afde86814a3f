// The tokenizer's Web Worker (see src/tokenize_worker.rs). It runs the page's own wasm module:
// the first message brings the URL of the wasm-bindgen glue and the WebAssembly.Module the
// page was started from, so nothing is downloaded or compiled twice. Every later message is a
// job, handed to the Rust side in arrival order once the module is ready.
let ready;
// Any rejection left unhandled in the worker is reported to the page as a failure (the page
// then counts on its own thread), not as an uncaught error.
self.onunhandledrejection = (event) => {
  event.preventDefault();
  self.postMessage({ kind: 'failed', message: `tokenizer worker: ${event.reason}` });
};
self.onmessage = ({ data }) => {
  if (!ready) {
    ready = import(data.js).then(async (glue) => {
      await glue.default({ module_or_path: data.module });
      return glue;
    });
    ready.then(
      () => self.postMessage({ kind: 'ready' }),
      (err) => self.postMessage({ kind: 'failed', message: `tokenizer worker did not start: ${err}` }),
    );
    return;
  }
  // A trap or an exception in a job (e.g. out of memory) is reported, never left unhandled:
  // the page then counts on its own thread.
  ready
    .then((glue) => glue.worker_receive(data))
    .catch((err) => self.postMessage({ kind: 'failed', message: `tokenizer worker: ${err}` }));
};
