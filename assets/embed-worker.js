// The embedding worker. It runs the embedding module (crates/embed-engine: one model with int8
// weights, the static potion-base-8M or all-MiniLM-L6-v2, named by the files in `init`; one
// worker per model), never the page's, and is started only when the page asks for embeddings:
// nothing of it is fetched before (index.html only has Trunk build it; the service worker keeps
// its files once they have been fetched).
//
// The page's first message is `{kind: "init", js, wasm, model, vocab}`: the URLs of the
// module's wasm-bindgen glue and .wasm, and the model file and vocabulary as paths relative to
// this script's folder (the page's), e.g. "models/all-minilm-l6-v2.int8.safetensors" and
// "vocab/bert-base-uncased.txt"; with `module`, a compiled WebAssembly.Module of an earlier
// worker (src/worker.rs's handshake), the .wasm is not fetched again. The worker fetches the
// three files at once and posts
// `{kind: "loading", received, total}` at most every 100 ms meanwhile (the bytes of the
// downloads under way together; `total` is null when one's size is unknown, as for a
// compressed answer); then `{kind: "ready", model: {id, dim, max_seq_length, bytes}}` (the
// model's id, the vectors' width, the longest input in tokens, the model file's bytes; and
// `module`, the compiled WebAssembly.Module, which the page may keep for a restart), or
// `{kind: "failed", message}` naming the file that could not be fetched or was refused
// (damaged, cut short, not a model file).
//
// Then `{kind: "port", port}` hands over a MessagePort (a comparison worker's end of a
// channel). On each port a request `{id, texts: [string, …]}` is answered on the same port with
// `{id, vectors, dim}` (`vectors` a transferred Float32Array of texts × dim values, one row per
// text in order) or `{id, error}`; requests that arrive before the model is ready wait for it,
// and if it never gets ready they are answered with the error. A request may name the model it
// expects (`model`, the page's model id); one for another model than the loaded one is
// answered with an error; `{cancel: id}` on a port drops that port's request `id` (nothing
// more of it is embedded or posted). The worker also posts
// `{kind: "progress", done, queued}` to the page (texts embedded so far, texts waiting), at
// most every 100 ms. The page stops it with worker.terminate().
//
// The rules (order, one text at a time, ports in turn, errors, the progress throttle) are the
// module's (`Engine`, crates/embed-engine/src/schedule.rs); this script carries out what each
// step asks — post on a port, post to the page, wait, or step again after a turn of its event
// loop, so that a new request or a stop is taken between two texts.
const REPORT_MS = 100;
// The module's Engine, once it runs.
let engine = null;
// Requests that arrived before the module ran: [port index, message].
let early = [];
// Why the module could not run, once known: requests are then answered with it here.
let broken = null;
let started = false;
// The compiled module, for the ready message.
let compiled = null;
// The steps are being carried out (one loop at a time), and the timer of a `wait`.
let running = false;
let timer = null;
const ports = [];

function failed(message) {
  self.postMessage({ kind: 'failed', message: `embedding worker: ${message}` });
}

self.onunhandledrejection = (event) => {
  event.preventDefault();
  failed(`${event.reason}`);
};

// The downloads under way (URL -> {loaded, total}), reported together, and when last.
const downloads = new Map();
let reported = 0;

function report() {
  const now = Date.now();
  if (now - reported < REPORT_MS) return;
  reported = now;
  const all = [...downloads.values()];
  const received = all.reduce((sum, d) => sum + d.loaded, 0);
  const total = all.every((d) => d.total !== null) ? all.reduce((sum, d) => sum + d.total, 0) : null;
  self.postMessage({ kind: 'loading', received, total });
}

// The bytes at `url` (an ArrayBuffer), counted as they arrive (an XMLHttpRequest: its progress
// events give the bytes so far and the whole when known; see tokenize-worker.js). `name` is
// what an error says.
function fetchCounted(url, name) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    downloads.set(url, { loaded: 0, total: null });
    xhr.onprogress = (event) => {
      downloads.set(url, { loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      report();
    };
    xhr.onload = () =>
      xhr.status === 200 ? resolve(xhr.response) : reject(new Error(`${name}: HTTP ${xhr.status}`));
    xhr.onerror = () => reject(new Error(`${name}: network error`));
    xhr.send();
  });
}

async function start({ js, wasm, model, vocab, module }) {
  for (const [key, value] of Object.entries({ js, wasm, model, vocab })) {
    if (typeof value !== 'string') throw new Error(`init without ${key}`);
  }
  const here = (file) => new URL(file, self.location).href;
  const files = [fetchCounted(here(model), model), fetchCounted(here(vocab), vocab)];
  for (const file of files) file.catch(() => {}); // awaited below, failure included
  try {
    const bytes = module instanceof WebAssembly.Module ? null : fetchCounted(here(wasm), wasm);
    bytes?.catch(() => {}); // awaited below
    const glue = await import(here(js));
    compiled = bytes ? await WebAssembly.compile(await bytes) : module;
    await glue.default({ module_or_path: compiled });
    engine = new glue.Engine();
  } catch (err) {
    broken = `the module did not start: ${err.message ?? err}`;
    for (const [index, data] of early) answerBroken(index, data);
    early = [];
    throw new Error(broken);
  }
  for (const [index, data] of early) engine.request(index, data);
  early = [];
  let bytes;
  try {
    bytes = await Promise.all(files);
  } catch (err) {
    engine.fail(err.message);
    steps();
    throw err;
  }
  downloads.clear();
  let info;
  try {
    info = engine.load(model, new Uint8Array(bytes[0]), vocab, new Uint8Array(bytes[1]));
  } catch (err) {
    steps(); // the waiting requests are answered with the error
    throw err;
  }
  self.postMessage({ kind: 'ready', model: info, module: compiled });
  steps();
}

// Without a module, a request is answered here with why.
function answerBroken(index, data) {
  ports[index].postMessage({ id: data?.id, error: `embedding worker: ${broken}` });
}

// One turn of the event loop (a message to ourselves: no timer clamping).
const turn = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = resolve;
    port2.postMessage(null);
  });

// Carries out the module's steps, a turn of the event loop before each, until it has nothing
// to do now (or a progress report is due later: then again after that long).
async function steps() {
  if (running || !engine) return;
  running = true;
  clearTimeout(timer);
  timer = null;
  try {
    for (;;) {
      await turn();
      const step = engine.step();
      if (step === null) return;
      if (step.kind === 'wait') {
        timer = setTimeout(() => {
          timer = null;
          steps();
        }, step.ms);
        return;
      }
      if (step.kind === 'progress') self.postMessage({ kind: 'progress', done: step.done, queued: step.queued });
      else if (step.kind === 'post') ports[step.port].postMessage(step.message, step.transfer);
      // 'embedded': nothing to post
    }
  } catch (err) {
    // A trap (out of memory): the module's state is lost; later requests get this error.
    engine = null;
    broken = `the module stopped: ${err}`;
    failed(broken);
  } finally {
    running = false;
  }
}

// `{cancel: id}` drops request `id` of this port (its comparison job was superseded).
function receive(index, data) {
  if (data && typeof data === 'object' && 'cancel' in data) {
    if (engine) engine.cancel(index, data.cancel);
    else early = early.filter(([i, d]) => i !== index || d?.id !== data.cancel);
    return;
  }
  if (engine) {
    engine.request(index, data);
    steps();
  } else if (broken) answerBroken(index, data);
  else early.push([index, data]);
}

self.onmessage = ({ data }) => {
  if (!started) {
    if (data?.kind !== 'init') {
      failed('the first message was not init');
      return;
    }
    started = true;
    start(data).catch((err) => failed(err.message ?? `${err}`));
    return;
  }
  if (data?.kind === 'port' && data.port instanceof MessagePort) {
    const index = ports.length;
    ports.push(data.port);
    data.port.onmessage = (event) => receive(index, event.data);
  }
};
