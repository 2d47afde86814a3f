// The comparison worker (see crates/compare-engine and src/compare/engine.rs). A module worker
// that runs the comparison engine's own wasm module, never the page's.
//
// The first message is `{kind: "init", js, wasm, module?}`: the URL of the engine's
// wasm-bindgen glue, the URL of its .wasm and, when the page already has it from an earlier
// worker, the compiled WebAssembly.Module (so a restarted worker fetches nothing). The worker
// answers `{kind: "ready", module}` with the module it compiled, which the page keeps.
//
// Then: `{kind: "text", text_id, bytes, pages}` (the document as UTF-8, transferred; `pages`, a
// Uint32Array of the byte offsets where a PDF's pages start, or undefined), and the
// requests of chunk_core::analysis::protocol. A `compare` or `retrieval` request is answered
// one row at a time and a `sweep` one setting at a time; between two the worker returns to its
// event loop, so that a newer request of the same lane (compare) or kind (retrieval, sweep)
// stops it; a `cancel-sweep` stops a sweep without starting another. An `open-count` fetches
// its vocabulary file first when needed (`vocab/…`, same origin). Everything else is
// answered at once, in arrival order.
let engine;
let ready;
// The newest compare job of each lane (0: the comparison table, 1: the A/B view, 2: the
// table's rows left for the user on a long text), and of 'retrieval' and 'sweep'.
const latest = new Map();

function fail(message) {
  self.postMessage({ kind: 'failed', job: null, message: `compare worker: ${message}` });
}

// A trap (a panic in a strategy, out of memory) is reported, never left unhandled: the page
// then starts a new worker.
self.onunhandledrejection = (event) => {
  event.preventDefault();
  const panic = engine?.last_panic?.();
  fail(panic ? `${event.reason} (${panic})` : `${event.reason}`);
};

async function start({ js, wasm, module }) {
  const glue = await import(js);
  const compiled = module ?? (await WebAssembly.compile(await (await fetch(wasm)).arrayBuffer()));
  await glue.default({ module_or_path: compiled });
  engine = glue;
  self.postMessage({ kind: 'ready', module: compiled });
}

// Lets queued messages run (a newer request, a new text) before the next row.
const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

async function compare(request) {
  latest.set(request.lane, request.job);
  // A new table (lane 0) also stops the rows the user started on the old one (lane 2).
  if (request.lane === 0) latest.set(2, request.job);
  const current = () => latest.get(request.lane) === request.job;
  await ensureVocab(request, false);
  const rows = engine.rows_in(request);
  for (let i = 0; i < rows; i += 1) {
    if (!current()) return;
    const reply = engine.compare_row(request, i);
    self.postMessage(reply);
    if (reply.kind !== 'row') return;
    await yieldToEvents();
  }
  if (current()) self.postMessage({ kind: 'compared', job: request.job });
}

// A retrieval check (one row per strategy, then `retrieval-done`) or a sweep (`sweep_cell`
// answers progress every few settings, null otherwise, and `swept` after the last; the chosen
// open model's vocabulary first, since every setting is checked against the model's limit).
async function stepped(request) {
  const kind = request.kind;
  latest.set(kind, request.job);
  await ensureVocab(request, false);
  const steps = engine.rows_in(request);
  for (let i = 0; i < steps; i += 1) {
    if (latest.get(kind) !== request.job) return;
    const reply = kind === 'sweep' ? engine.sweep_cell(request, i) : engine.retrieval_row(request, i);
    if (reply) {
      self.postMessage(reply);
      if (reply.kind !== 'retrieval-row' && reply.kind !== 'sweep-progress') return;
    }
    await yieldToEvents();
  }
  if (kind === 'retrieval' && latest.get(kind) === request.job) {
    self.postMessage({ kind: 'retrieval-done', job: request.job });
  }
}

// The open tokenizers' vocabulary files being fetched, by path: fetched once per worker,
// relative to this script (the page's own folder), so the page's origin and subpath hold.
const vocabLoads = new Map();

// The vocabulary file a request needs (an `open-count`'s; for a `compare`, `select`,
// `retrieval` or `sweep`, the one its chunks are sized in, or else the chosen open model's,
// whose limit is checked with its own tokenizer), fetched and loaded when the engine does not
// hold it yet. True when the engine holds it afterwards (or none is needed); false after a
// failure, which an `open-count` reports (the others go on: chunks sized in the model's tokens
// are refused as `tokenizer-not-loaded`, and a limit check says that a stand-in counted).
async function ensureVocab(request, report) {
  const file = engine.vocab_needed(request);
  if (!file) return true;
  if (report) self.postMessage({ kind: 'vocab-loading', job: request.job, vocab: request.vocab });
  if (!vocabLoads.has(file)) {
    const load = fetch(new URL(file, self.location)).then(async (response) => {
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    vocabLoads.set(file, load);
    // A failed fetch is tried again by the next request.
    load.catch(() => vocabLoads.delete(file));
  }
  let bytes;
  try {
    bytes = await vocabLoads.get(file);
  } catch (err) {
    if (report) self.postMessage({ kind: 'failed', job: request.job, message: `${err}` });
    return false;
  }
  if (engine.vocab_needed(request)) {
    const failure = engine.load_vocab(request, bytes);
    // Read once, kept by the engine (or refused): the bytes are not needed again, and a
    // refused file is fetched anew by the next request.
    vocabLoads.delete(file);
    if (failure) {
      if (report) self.postMessage(failure);
      return false;
    }
  }
  return true;
}

// An `open-count`: the vocabulary first when the engine does not hold it (`vocab-loading`
// tells the page), then the count. Only the newest open-count is answered.
async function openCount(request) {
  latest.set('open-count', request.job);
  if (!(await ensureVocab(request, true))) return;
  if (latest.get('open-count') !== request.job) return;
  self.postMessage(engine.open_count(request));
}

// `select`, `rows` and `export` are answered in arrival order (the rows and exports of a
// selection need its chunks), each after the vocabulary its request needs.
let handled = Promise.resolve();
function inOrder(request) {
  handled = handled
    .then(async () => {
      await ensureVocab(request, false);
      self.postMessage(engine.handle(request));
    })
    .catch((err) => fail(`${err}`));
  return handled;
}

self.onmessage = ({ data }) => {
  if (data.kind === 'init') {
    ready = start(data).catch((err) => fail(`did not start: ${err}`));
    return;
  }
  if (!ready) {
    fail('a request came before init');
    return;
  }
  ready.then(() => {
    if (!engine) return;
    switch (data.kind) {
      case 'text':
        engine.set_text(data.text_id, data.bytes, data.pages);
        break;
      case 'compare':
        return compare(data);
      case 'retrieval':
      case 'sweep':
        return stepped(data);
      case 'open-count':
        return openCount(data);
      case 'cancel-sweep':
        // The running sweep sees a newer job at its next setting and stops.
        latest.set('sweep', data.job);
        self.postMessage(engine.handle(data));
        break;
      default:
        // A newer select also stops a running compare's stale rows from mattering: the page
        // drops replies to old jobs.
        return inOrder(data);
    }
  }).catch((err) => fail(`${err}`));
};
