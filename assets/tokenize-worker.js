// The tokenizer's Web Worker (see src/tokenize/worker.rs). It runs the tokenizer's own wasm
// module (crates/tokenize-engine: the sliced tokenizer, no table), never the page's.
//
// The first message is `{kind: "init", js, wasm, module?, table, slice_ms, report_ms}`: the URL
// of the module's wasm-bindgen glue, the URL of its .wasm, the compiled WebAssembly.Module when
// the page already has one from an earlier worker (a restarted worker then fetches nothing),
// the default encoding's table file (fetched at once, beside the module: the module asks for
// it first, and gets this download), the length of a slice of work and how often to report
// the downloads. While they arrive the worker posts `{kind: "loading", received, total}` (the
// bytes of the downloads under way together; `total` is null when unknown, as for a
// compressed file) at most every `report_ms`, and `{kind: "ready", module}` with the module it
// compiled, which the page keeps, once the module runs.
//
// Every later message is a job `{id, encoding, bytes}`; jobs that arrive while the module
// loads wait for it. The module's `Worker` decides what runs and which table it needs
// (crates/tokenize-engine, `Schedule`: the default encoding's table at once, another when a
// job needs it, only the newest job, one slice of `slice_ms` per step): this script hands it
// each job, fetches each table file a step asks for (`{kind: "fetch", file}`, relative to this
// script: the page's folder; its bytes received reported as `loading` like the module's) and
// hands back the bytes or the failure, steps on after a `{kind: "warming"}` (a slice of the
// module's warm-up while no job runs), and posts what every other step answers —
// `{kind: "progress", id, done}`, `{kind: "done", id, offsets}` (a transferred Uint32Array of
// the token boundaries' byte offsets) or `{kind: "failed", id, message}` (a table that could
// not be had) — returning to its event loop between two steps. Anything that goes wrong posts
// `{kind: "failed", message}`; the page then counts on its own thread.
let worker;
let ready;
let sliceMs = 25;
let reportMs = 100;
// The steps are being carried out (one loop at a time).
let running = false;

function fail(message) {
  self.postMessage({ kind: 'failed', message: `tokenizer worker: ${message}` });
}

self.onunhandledrejection = (event) => {
  event.preventDefault();
  fail(`${event.reason}`);
};

// The downloads under way (URL -> {loaded, total}), reported together, and when last.
const downloads = new Map();
let reported = 0;
let pending = 0;

// The bytes at `url` (an ArrayBuffer), reporting those received so far by every download under
// way at most every `reportMs`. An XMLHttpRequest: its progress events count the bytes as they
// arrive, with the whole when it is known (Chromium gives the decoded bytes and no whole when
// the server compresses the file). (A fetch body read chunk by chunk to count them was
// reported as an aborted request whenever the service worker took over the page meanwhile.)
function fetchCounted(url) {
  pending += 1;
  const settle = () => {
    pending -= 1;
    if (!pending) downloads.clear();
  };
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onprogress = (event) => {
      downloads.set(url, { loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      const now = Date.now();
      if (now - reported < reportMs) return;
      reported = now;
      const all = [...downloads.values()];
      const received = all.reduce((sum, d) => sum + d.loaded, 0);
      const total = all.every((d) => d.total !== null) ? all.reduce((sum, d) => sum + d.total, 0) : null;
      self.postMessage({ kind: 'loading', received, total });
    };
    xhr.onload = () =>
      xhr.status === 200 ? resolve(xhr.response) : reject(new Error(`${url}: HTTP ${xhr.status}`));
    xhr.onerror = () => reject(new Error(`${url}: network error`));
    xhr.send();
  }).finally(settle);
}

// The default table's download started with the module's: { file, bytes } until the module
// asks for that file.
let early = null;

async function start({ js, wasm, module, table, slice_ms, report_ms }) {
  sliceMs = slice_ms;
  reportMs = report_ms;
  if (typeof table === 'string') {
    early = { file: table, bytes: fetchCounted(new URL(table, self.location).href) };
    early.bytes.catch(() => {}); // handed over (failure included) when the module asks
  }
  const glue = await import(js);
  const compiled = module ?? (await WebAssembly.compile(await fetchCounted(wasm)));
  await glue.default({ module_or_path: compiled });
  worker = new glue.Worker();
  self.postMessage({ kind: 'ready', module: compiled });
  steps(); // the default encoding's table
}

// A table file the module asked for, handed back as bytes or as the failure in words; then the
// steps go on (the job that waited for it).
function fetchTable(file) {
  const started = early?.file === file ? early.bytes : null;
  early = null;
  (started ?? fetchCounted(new URL(file, self.location).href))
    .then(
      (buffer) => worker.table_fetched(file, new Uint8Array(buffer)),
      (err) => worker.table_failed(file, `${err}`),
    )
    .then(() => {
      if (!running) steps();
    })
    .catch((err) => fail(`${err}`));
}

// One turn of the event loop (a message to ourselves: no timer clamping).
const turn = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = resolve;
    port2.postMessage(null);
  });

// Posts what each step answers, a turn of the event loop before each (so that a newer job,
// handed over meanwhile, replaces the one running), until the module has no job.
async function steps() {
  running = true;
  try {
    for (;;) {
      await turn();
      const message = worker.step(sliceMs);
      if (!message) return;
      if (message.kind === 'fetch') fetchTable(message.file);
      else if (message.kind === 'warming') continue; // nothing to post
      else if (message.kind === 'done') self.postMessage(message, [message.offsets.buffer]);
      else self.postMessage(message);
    }
  } catch (err) {
    // A trap (out of memory): the page takes the work back.
    fail(`${err}`);
  } finally {
    running = false;
  }
}

async function submit({ id, encoding, bytes }) {
  try {
    await ready;
  } catch {
    return; // reported once, by the init
  }
  try {
    worker.submit(id, encoding, bytes);
  } catch (err) {
    // A refused job (an unknown encoding): the page takes the work back.
    fail(`${err}`);
    return;
  }
  if (!running) steps();
}

self.onmessage = ({ data }) => {
  if (!ready) {
    if (data?.kind !== 'init') {
      fail('the first message was not init');
      return;
    }
    ready = start(data);
    ready.catch((err) => fail(`did not start: ${err}`));
    return;
  }
  if (!Number.isInteger(data?.id) || typeof data.encoding !== 'string' || !(data.bytes instanceof Uint8Array)) {
    fail('a job without id, encoding or bytes');
    return;
  }
  submit(data);
};
