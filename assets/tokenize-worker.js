// The tokenizer's Web Worker (see src/tokenize/worker.rs). It runs the tokenizer's own wasm
// module (crates/tokenize-engine: the BPE tables and the sliced tokenizer), never the page's.
//
// The first message is `{kind: "init", js, wasm, module?, slice_ms, report_ms}`: the URL of the
// module's wasm-bindgen glue, the URL of its .wasm, the compiled WebAssembly.Module when the
// page already has one from an earlier worker (a restarted worker then fetches nothing), the
// length of a slice of work and how often to report the download. While the .wasm arrives the
// worker posts `{kind: "loading", received, total}` (bytes; `total` is null when unknown, as
// for a compressed file) at most every `report_ms`, and then
// `{kind: "ready", module}` with the module it compiled, which the page keeps.
//
// Every later message is a job `{id, encoding, bytes}`; jobs that arrive while the module
// loads wait for it. The module's `Worker` decides what runs (crates/tokenize-engine,
// `Schedule`: only the newest job, one slice of `slice_ms` per step): this script hands it
// each job and posts what each step answers — `{kind: "progress", id, done}` or
// `{kind: "done", id, offsets}` (a transferred Uint32Array of the token boundaries' byte
// offsets) — returning to its event loop between two steps. Anything that goes wrong posts
// `{kind: "failed", message}`; the page then counts on its own thread.
let worker;
let ready;
let sliceMs = 25;
// The steps are being carried out (one loop at a time).
let running = false;

function fail(message) {
  self.postMessage({ kind: 'failed', message: `tokenizer worker: ${message}` });
}

self.onunhandledrejection = (event) => {
  event.preventDefault();
  fail(`${event.reason}`);
};

// The bytes at `url` (an ArrayBuffer), reporting those received so far at most every
// `reportMs`. An XMLHttpRequest: its progress events count the bytes as they arrive, with the
// whole when it is known (Chromium gives the decoded bytes and no whole when the server
// compresses the file). (A fetch body read chunk by chunk to count them was reported as an
// aborted request whenever the service worker took over the page meanwhile.)
function fetchCounted(url, reportMs) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    let reported = 0;
    xhr.onprogress = (event) => {
      const now = Date.now();
      if (now - reported < reportMs) return;
      reported = now;
      const total = event.lengthComputable ? event.total : null;
      self.postMessage({ kind: 'loading', received: event.loaded, total });
    };
    xhr.onload = () =>
      xhr.status === 200 ? resolve(xhr.response) : reject(new Error(`${url}: HTTP ${xhr.status}`));
    xhr.onerror = () => reject(new Error(`${url}: network error`));
    xhr.send();
  });
}

async function start({ js, wasm, module, slice_ms, report_ms }) {
  sliceMs = slice_ms;
  const glue = await import(js);
  const compiled = module ?? (await WebAssembly.compile(await fetchCounted(wasm, report_ms)));
  await glue.default({ module_or_path: compiled });
  worker = new glue.Worker();
  self.postMessage({ kind: 'ready', module: compiled });
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
      if (message.kind === 'done') self.postMessage(message, [message.offsets.buffer]);
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
