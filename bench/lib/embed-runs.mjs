// The embedding bench's runs, shared by Node (bench/embed.mjs) and the Chromium worker
// (browser/embed-worker.mjs): the texts, our module (crates/embed-engine) driven as
// assets/embed-worker.js drives it, and the peer, onnxruntime-web on an ONNX export of the same
// model, fed the token ids that Hugging Face's tokenizer gives (so the peer's time is its model
// alone: tokenizing is left out of its figure and counted in ours).

/** Texts per run: SENTENCES sentences (about 30 tokens each) and CHUNKS texts of 256 tokens. */
export const SENTENCES = 200;
export const CHUNKS = 24;
/** Each figure is the best of ROUNDS runs after one warm-up. */
export const ROUNDS = 3;
/** all-MiniLM-L6-v2's input limit in tokens (sentence-transformers' max_seq_length). */
export const MAX_TOKENS = 256;
/** The peer's padded batch: how many texts one `session.run` takes (transformers.js batches a call's texts). */
export const PEER_BATCH = 32;

/** The fixture's sentences and chunks: `{ sentences, chunks }`, texts of the story after its header. */
export function benchTexts(fixture) {
  const body = fixture.slice(fixture.indexOf("I address these lines")).replace(/\s+/g, " ");
  const sentences = body
    .split(/(?<=[.!?])\s+(?=[A-Z"])/)
    .filter((s) => s.length > 20)
    .slice(0, SENTENCES);
  const words = body.split(" ");
  const chunks = Array.from({ length: CHUNKS }, (_, i) => words.slice(i * 250, i * 250 + 250).join(" "));
  return { sentences, chunks };
}

/** The static model's texts: the fixture's story in pieces of STATIC_PIECE characters, cut at a space. */
export const STATIC_PIECE = 1000;
export function staticTexts(fixture) {
  const body = fixture.slice(fixture.indexOf("I address these lines"));
  const pieces = [];
  let at = 0;
  while (at < body.length) {
    let end = Math.min(body.length, at + STATIC_PIECE);
    const space = body.lastIndexOf(" ", end);
    if (end < body.length && space > at) end = space;
    pieces.push(body.slice(at, end));
    at = end;
  }
  return pieces;
}

/** Token ids as the model takes them: [CLS] … [SEP], cut to MAX_TOKENS with [SEP] kept last. */
export function modelIds(ids) {
  return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), ids.at(-1)];
}

/** The best time of ROUNDS calls of `run` (after one warm-up call), in ms; `now` is a clock in ms. */
export async function best(now, run) {
  await run();
  let min = Infinity;
  for (let i = 0; i < ROUNDS; i += 1) {
    const t = now();
    await run();
    min = Math.min(min, now() - t);
  }
  return min;
}

/** Our vectors of `texts` (a flat Float32Array-like, 384 per text) through an embed-engine `Engine`. */
export function embedOurs(engine, texts) {
  engine.request(0, { id: 1, texts });
  for (;;) {
    const step = engine.step();
    if (step === null) throw new Error("the engine went idle without an answer");
    if (step.kind === "post") {
      if (step.message.error) throw new Error(step.message.error);
      return step.message.vectors;
    }
  }
}

/**
 * Our module on `texts` (`{ sentences, chunks }`): `{ loadMs, sentenceMs, chunkMs, vectors }`
 * (`vectors`: the sentences'). `glue` is the wasm-bindgen module, initialised.
 */
export async function runOurs(now, glue, model, texts) {
  const engine = new glue.Engine();
  const t = now();
  engine.load(model.file, model.bytes, model.vocabFile, model.vocab);
  const loadMs = now() - t;
  let vectors;
  const sentenceMs = await best(now, () => {
    vectors = embedOurs(engine, texts.sentences);
  });
  const chunkMs = await best(now, () => embedOurs(engine, texts.chunks));
  engine.free();
  return { loadMs, sentenceMs, chunkMs, vectors: Float32Array.from(vectors) };
}

/**
 * Our module with the static model (potion-base-8M) on `pieces`: `{ loadMs, ms, bytes }`, the
 * best time of one request of every piece, and their UTF-8 bytes.
 */
export async function runStatic(now, glue, model, pieces) {
  const engine = new glue.Engine();
  const t = now();
  engine.load(model.file, model.bytes, model.vocabFile, model.vocab);
  const loadMs = now() - t;
  const ms = await best(now, () => embedOurs(engine, pieces));
  engine.free();
  const bytes = pieces.reduce((n, p) => n + new TextEncoder().encode(p).length, 0);
  return { loadMs, ms, bytes };
}

/** One padded batch of id lists as the three int64 tensors BERT's ONNX export takes. */
function feeds(ort, batch) {
  const width = Math.max(...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(batch.length * width);
  const mask = new BigInt64Array(batch.length * width);
  batch.forEach((row, r) =>
    row.forEach((id, c) => {
      ids[r * width + c] = BigInt(id);
      mask[r * width + c] = 1n;
    }),
  );
  const dims = [batch.length, width];
  return {
    input_ids: new ort.Tensor("int64", ids, dims),
    attention_mask: new ort.Tensor("int64", mask, dims),
    token_type_ids: new ort.Tensor("int64", new BigInt64Array(batch.length * width), dims),
  };
}

/** sentence-transformers' pooling of one batch's last_hidden_state: the mean over each text's tokens, L2-normalised. */
function poolBatch(hidden, batch, out) {
  const [, width, dim] = hidden.dims;
  const data = hidden.data;
  batch.forEach((row, r) => {
    const v = new Float32Array(dim);
    for (let c = 0; c < row.length; c += 1) {
      const at = (r * width + c) * dim;
      for (let k = 0; k < dim; k += 1) v[k] += data[at + k];
    }
    let norm = 0;
    for (let k = 0; k < dim; k += 1) {
      v[k] /= row.length;
      norm += v[k] * v[k];
    }
    norm = Math.max(Math.sqrt(norm), 1e-12);
    for (let k = 0; k < dim; k += 1) out.push(v[k] / norm);
  });
}

/** The peer's vectors of `idLists`, `batchSize` texts per run (flat array, 384 per text). */
async function embedPeer(ort, session, idLists, batchSize) {
  const out = [];
  for (let i = 0; i < idLists.length; i += batchSize) {
    const batch = idLists.slice(i, i + batchSize);
    const result = await session.run(feeds(ort, batch));
    poolBatch(result.last_hidden_state, batch, out);
  }
  return out;
}

/**
 * onnxruntime-web (its wasm backend, one thread) on the ONNX file's bytes with the texts' ids
 * (`{ sentences, chunks }`, lists of ids): `{ loadMs, sentenceMs, sentenceBatch, chunkMs,
 * chunkBatch, vectors }`. Each figure is the better of one text per run and PEER_BATCH texts per
 * padded run; `*Batch` says which.
 */
export async function runPeer(now, ort, onnx, ids) {
  ort.env.wasm.numThreads = 1;
  const t = now();
  const session = await ort.InferenceSession.create(onnx, { executionProviders: ["wasm"] });
  const loadMs = now() - t;
  let vectors;
  const fastest = async (lists, keep) => {
    let pick = { ms: Infinity, batch: 0 };
    for (const batch of [1, PEER_BATCH]) {
      const ms = await best(now, async () => {
        const v = await embedPeer(ort, session, lists, batch);
        if (keep) vectors = v;
      });
      if (ms < pick.ms) pick = { ms, batch };
    }
    return pick;
  };
  const s = await fastest(ids.sentences, true);
  const c = await fastest(ids.chunks, false);
  await session.release();
  return { loadMs, sentenceMs: s.ms, sentenceBatch: s.batch, chunkMs: c.ms, chunkBatch: c.batch, vectors: Float32Array.from(vectors) };
}

/** The lowest cosine between the rows of two flat arrays of unit vectors (`dim` per row). */
export function lowestCosine(a, b, dim = 384) {
  let low = 1;
  for (let r = 0; r * dim < a.length; r += 1) {
    let dot = 0;
    for (let k = 0; k < dim; k += 1) dot += a[r * dim + k] * b[r * dim + k];
    low = Math.min(low, dot);
  }
  return low;
}
