// The document reader worker (see crates/extract-engine and src/extract_job.rs). A module
// worker that runs the reader's own wasm module, never the page's; the page starts one per
// file and terminates it when the file is read, cancelled or replaced.
//
// It speaks the page's module-worker handshake (src/worker.rs): first `{kind: "init", js,
// wasm, module?}` (the URLs of the reader's wasm-bindgen glue and .wasm, and a compiled
// module if one is given; the page gives none, so each file's worker compiles its own), answered by `{kind: "ready", module}` once the module is
// compiled and its glue imported, or by `{kind: "failed", stage: "load", message}` when the
// reader's own files could not be fetched or compiled (offline before they were ever kept,
// say). Then one `{kind: "read", format, bytes}`: the format ("html", "docx" or "pdf") and the
// file's content (a transferred ArrayBuffer). It answers `{kind: "done", outcome, millis}`
// (the reader's Outcome and the time spent reading, in milliseconds, compiling the module
// excluded) or `{kind: "failed", message}`; while a PDF is read, `{kind: "progress", done,
// total}` (pages read, pages) at most every PROGRESS_MS.
const PROGRESS_MS = 100;
// A PDF page on which the parser panics traps the module; the worker then reads on in a fresh
// instance (see readPdf). Each instance keeps its memory (a copy of the file and its parsed
// objects, about four times the file) for as long as the worker lives, so the instances are
// limited (the reader decides: `reads_on_after`, by the file's length): past that, the pages
// not yet read are counted unreadable (`unreadable_page`), and the pages read are kept.

function fail(message) {
  self.postMessage({ kind: 'failed', message: `extract worker: ${message}` });
}

// A trap (a panic, out of memory) is reported, never left unhandled.
self.onunhandledrejection = (event) => {
  event.preventDefault();
  fail(`${event.reason}`);
};

// A fresh instance of the reader: the glue imported under a URL of its own (a fragment makes
// another module record, while the request, which never carries a fragment, is the same file,
// from the cache), instantiated from the compiled module.
async function instance(js, module, n) {
  const glue = await import(n === 0 ? js : `${js}#instance-${n}`);
  await glue.default({ module_or_path: module });
  return glue;
}

// A PDF, page by page: progress between pages; a page that traps (pdf-extract panics on some
// damaged content) is counted unreadable, and reading goes on from the next page in a fresh
// instance, with the file opened again. The pages read are kept here, so nothing is lost.
async function readPdf(js, module, bytes) {
  let traps = 0;
  let glue = await instance(js, module, 0);
  const started = performance.now();
  let file;
  try {
    file = glue.PdfFile.open(bytes);
  } catch (refusal) {
    if (refusal && refusal.outcome === 'refused') return { outcome: refusal, started };
    throw refusal;
  }
  const total = file.pages;
  const title = file.title() ?? undefined;
  const repeated = file.pages_repeated;
  const pages = [];
  let posted = performance.now();
  self.postMessage({ kind: 'progress', done: 0, total });
  while (pages.length < total) {
    try {
      pages.push(file.read_page(pages.length));
    } catch (err) {
      // A trap, or a stack overflow in the parser (a RangeError).
      if (!(err instanceof WebAssembly.RuntimeError || err instanceof RangeError)) throw err;
      glue = await instance(js, module, ++traps);
      pages.push(glue.unreadable_page());
      if (!glue.reads_on_after(traps, bytes.length)) {
        // The fresh instance only joins the pages (it opens nothing).
        while (pages.length < total) pages.push(glue.unreadable_page());
        break;
      }
      try {
        file = glue.PdfFile.open(bytes);
      } catch (refusal) {
        throw new Error(`the file did not open again: ${refusal?.reason ?? refusal}`);
      }
    }
    if (performance.now() - posted >= PROGRESS_MS) {
      posted = performance.now();
      self.postMessage({ kind: 'progress', done: pages.length, total });
    }
  }
  return { outcome: glue.pdf_document(pages, title, repeated), started };
}

let js;
let module;

async function start(data) {
  try {
    module = data.module;
    if (!module) {
      const response = await fetch(data.wasm);
      if (!response.ok) throw new Error(`${data.wasm}: HTTP ${response.status}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    }
    await import(data.js);
    js = data.js;
  } catch (err) {
    self.postMessage({ kind: 'failed', stage: 'load', message: `extract worker: ${err}` });
    return;
  }
  self.postMessage({ kind: 'ready', module });
}

async function read(data) {
  try {
    const bytes = new Uint8Array(data.bytes);
    if (data.format === 'pdf') {
      const { outcome, started } = await readPdf(js, module, bytes);
      self.postMessage({ kind: 'done', outcome, millis: performance.now() - started });
      return;
    }
    const glue = await instance(js, module, 0);
    const started = performance.now();
    const outcome = glue.extract(data.format, bytes);
    self.postMessage({ kind: 'done', outcome, millis: performance.now() - started });
  } catch (err) {
    fail(`${err}`);
  }
}

self.onmessage = ({ data }) => {
  if (data?.kind === 'init') start(data);
  else if (data?.kind === 'read') read(data);
  else fail(`unexpected message: ${data?.kind}`);
};
