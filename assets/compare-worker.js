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
// requests of chunk_core::analysis::protocol. Every rule (which job stops which, one row per
// step, the in-order answers, which vocabulary file is needed) is the engine's
// (crates/compare-engine/src/worker.rs): this script forwards each message and carries out
// the effects the engine asks for — post a reply, fetch a vocabulary file (`vocab/…`, same
// origin) and hand back its bytes or the failure, ask the embedding worker for embeddings and
// hand them back, return to the event loop between two steps.
//
// Embeddings (dense and hybrid retrieval): the page starts the embedding worker only when the
// user asks for such a retriever and then sends `{kind: "embedder", port}`, a MessagePort to
// it. An `embed` effect `{batch, model, texts}` is posted on the port as `{id: batch, model,
// texts}` (`model`: the model's id, chunk_core::retrieval::DenseModel); its
// answer `{id, vectors, dim}` (a Float32Array, one vector of `dim` after another) or
// `{id, error}` goes back to the engine; a superseded job's batch is cancelled with
// `{cancel: batch}` (what was already embedded of it still comes back, and is kept). An
// `{id, error}` goes back to the engine. `{kind: "embedder-gone"}` (the user stopped it, or it
// failed) fails every batch still waiting, and those asked later, until a new port comes.
let engine;
let ready;
// The port to the embedding worker, when the page has given one.
let embedPort = null;
// Why embeddings cannot be had, when the page said the embedding worker is gone.
let embedGone = 'no embedding model is loaded';

function fail(message) {
  self.postMessage({ kind: 'failed', job: null, message: `compare worker: ${message}` });
}

// A trap (a panic in a strategy, out of memory) is reported, never left unhandled: the page
// then starts a new worker.
function report(reason) {
  const panic = engine?.last_panic?.();
  fail(panic ? `${reason} (${panic})` : `${reason}`);
}

self.onunhandledrejection = (event) => {
  event.preventDefault();
  report(event.reason);
};

async function start({ js, wasm, module }) {
  const glue = await import(js);
  const compiled = module ?? (await WebAssembly.compile(await (await fetch(wasm)).arrayBuffer()));
  await glue.default({ module_or_path: compiled });
  engine = glue;
  self.postMessage({ kind: 'ready', module: compiled });
}

// A turn of the event loop is pending (after a step): queued messages run before the next.
let turn = null;

// Carries out the engine's effects until it has nothing to do now.
function pump() {
  for (let effect = engine.next(); effect; effect = engine.next()) {
    switch (effect.effect) {
      case 'post':
        self.postMessage(effect.reply);
        break;
      case 'fetch':
        fetchVocab(effect.file);
        break;
      case 'embed':
        if (embedPort) embedPort.postMessage({ id: effect.batch, model: effect.model, texts: effect.texts });
        else engine.vectors_failed(effect.batch, embedGone);
        break;
      case 'yield':
        turn ??= setTimeout(() => {
          turn = null;
          safely(pump);
        }, 0);
        return;
      default:
        throw new Error(`unknown effect ${effect.effect}`);
    }
  }
}

function safely(run) {
  try {
    run();
  } catch (err) {
    report(err);
  }
}

// A vocabulary file, relative to this script (the page's own folder, so the page's origin and
// subpath hold), handed to the engine as bytes or as the failure in words.
function fetchVocab(file) {
  fetch(new URL(file, self.location))
    .then(async (response) => {
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    })
    .then(
      (bytes) => engine.vocab_fetched(file, bytes),
      (err) => engine.vocab_failed(file, `${err}`),
    )
    .then(() => safely(pump), report);
}

// The embedding worker's answer to a batch, handed to the engine.
function embedded({ data }) {
  if (!engine) return;
  safely(() => {
    if (data.error !== undefined) engine.vectors_failed(data.id, `${data.error}`);
    else engine.vectors_fetched(data.id, data.vectors, data.dim);
    pump();
  });
}

self.onmessage = ({ data }) => {
  if (data.kind === 'init') {
    ready = start(data).catch((err) => fail(`did not start: ${err}`));
    return;
  }
  if (data.kind === 'embedder') {
    // A port to a new embedding worker (another model, or a restart): the batches asked of the
    // old one are never answered, so they fail now (their jobs were superseded, or answer with
    // the reason) instead of waiting for ever.
    const replaced = embedPort != null;
    embedPort?.close();
    embedPort = data.port;
    embedPort.onmessage = embedded;
    if (replaced) {
      ready
        ?.then(() => {
          if (!engine) return;
          for (const batch of engine.embedding_batches()) engine.vectors_failed(batch, 'the embedding model was replaced');
          pump();
        })
        .catch(report);
    }
    return;
  }
  if (data.kind === 'embedder-gone') {
    embedPort?.close();
    embedPort = null;
    embedGone = data.message ?? 'the embedding model was stopped';
    ready
      ?.then(() => {
        if (!engine) return;
        for (const batch of engine.embedding_batches()) engine.vectors_failed(batch, embedGone);
        pump();
      })
      .catch(report);
    return;
  }
  if (!ready) {
    fail('a request came before init');
    return;
  }
  ready
    .then(() => {
      if (!engine) return;
      if (data.kind === 'text') engine.set_text(data.text_id, data.bytes, data.pages);
      else engine.receive(data);
      // A superseded job's embeddings are cancelled, so that the new job does not wait behind
      // them in the embedding worker's queue.
      for (const batch of engine.cancelled_batches()) embedPort?.postMessage({ cancel: batch });
      pump();
    })
    .catch(report);
};
