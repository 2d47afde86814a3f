// End-to-end test of the embedding worker (assets/embed-worker.js, crates/embed-engine) on the
// release build:
//  (a) in Node: the build's module (embed-engine.js + embed-engine_bg.wasm, with wasm SIMD) on
//      the build's model file (models/all-minilm-l6-v2.int8.safetensors) and vocabulary gives
//      for five texts (English, Russian, Chinese and Japanese, an empty text, a text over the
//      model's 256 tokens) the vectors of the native int8 encoder
//      (crates/embed-engine/examples/vectors.rs: the published model loaded and quantized
//      natively), cosine >= 0.999999 each;
//  (b) in Chromium, on the page: nothing of the embedding worker is fetched before it is
//      started; started as the page starts it, the worker reports `loading`, then `ready`
//      with the model's facts; requests sent on two ports before it is ready wait for it and
//      are answered on their own port in order (vectors as transferred Float32Arrays equal to
//      the native ones; a request without a texts array, or for another model, gets
//      `{id, error}`, an empty one no rows); its last progress report counts every text done
//      and none waiting;
//  (c) a missing model file and a damaged one end in `failed` naming the file, and a request
//      is answered with that error;
//  (d) after the service worker controls the page and the worker has run once online, a new
//      embedding worker starts offline from the kept copies and answers.
// How long anything takes is measured by `make bench-embed`, not asserted here.
//
// Needs the model folder for the native vectors (scripts/ensure-models.sh; `make test` runs it
// before the build). Environment (optional): E2E_DIST (the build), CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { launchBrowser, sel, waitForAttr } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const MODEL = 'models/all-minilm-l6-v2.int8.safetensors';
const VOCAB = 'vocab/bert-base-uncased.txt';
const DIM = 384;
const MIN_COSINE = 0.999999;
const APP_START_MS = 60_000;
const EMBED_MS = 120_000;

const TEXTS = [
  'How many tokens does a 512-token chunk hold after overlap?',
  'Размер фрагмента определяет, что сможет найти поиск.',
  '分块大小决定了检索器能找到什么。チャンクのサイズが検索結果を決める。',
  '',
  'Chunk size decides what a retriever can find. '.repeat(40),
];

/** The native int8 encoder's vectors of `texts` (one array of DIM numbers each). */
function nativeVectors(texts) {
  const run = spawnSync('cargo', ['run', '--quiet', '-p', 'embed-engine', '--example', 'vectors'], {
    cwd: REPO,
    input: texts.map((t) => JSON.stringify(t)).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  if (run.error) throw new Error(`cannot run cargo for the native vectors: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`the vectors example failed with exit status ${run.status}`);
  const rows = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, texts.length, 'native vectors: one row per text');
  return rows;
}

function cosine(a, b) {
  let [ab, aa, bb] = [0, 0, 0];
  for (let i = 0; i < a.length; i += 1) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
}

/** Checks `flat` (texts × DIM values) row by row against `native`; returns the lowest cosine. */
function checkRows(flat, native, what) {
  assert.equal(flat.length, native.length * DIM, `${what}: ${flat.length} values for ${native.length} texts`);
  let lowest = 1;
  native.forEach((want, i) => {
    const row = Array.from(flat.slice(i * DIM, (i + 1) * DIM));
    const c = cosine(row, want);
    assert.ok(c >= MIN_COSINE, `${what}: text ${i} has cosine ${c} against the native int8 encoder`);
    lowest = Math.min(lowest, c);
  });
  return lowest;
}

let native;

before(() => {
  native = nativeVectors(TEXTS);
});

test('(a) the release module in Node gives the native int8 vectors', async (t) => {
  const glue = await import(pathToFileURL(path.join(DIST, 'embed-engine.js')).href);
  glue.initSync({ module: readFileSync(path.join(DIST, 'embed-engine_bg.wasm')) });
  const engine = new glue.Engine();
  const info = engine.load(MODEL, readFileSync(path.join(DIST, MODEL)), VOCAB, readFileSync(path.join(DIST, VOCAB)));
  assert.deepEqual(
    { ...info },
    { id: 'all-minilm-l6-v2', dim: DIM, max_seq_length: 256, bytes: statSync(path.join(DIST, MODEL)).size },
  );
  engine.request(0, { id: 'node', texts: TEXTS });
  let reply;
  for (let i = 0; i < 100 && !reply; i += 1) {
    const step = engine.step();
    assert.notEqual(step, null, 'the engine went idle without answering');
    if (step.kind === 'post') reply = step;
  }
  assert.equal(reply.port, 0);
  assert.equal(reply.message.id, 'node');
  assert.equal(reply.message.dim, DIM);
  assert.ok(reply.message.vectors instanceof Float32Array, 'vectors is a Float32Array');
  assert.deepEqual(reply.transfer, [reply.message.vectors.buffer]);
  const lowest = checkRows(reply.message.vectors, native, 'Node');
  const same = reply.message.vectors.every((v, i) => v === Math.fround(native[Math.floor(i / DIM)][i % DIM]));
  t.diagnostic(`lowest cosine against the native int8 encoder: 1 - ${(1 - lowest).toExponential(1)}; bit for bit: ${same}`);
  engine.free();
});

/** In the page: starts an embedding worker as the page does, hands it `ports` channels, sends
 * each of `early` at once and each of `later` after `ready`, and resolves once `replies`
 * answers have come (or `failed`), with everything the worker and the ports posted. */
function runWorker(page, { model = 'models/all-minilm-l6-v2.int8.safetensors', ports = 1, early = [], later = [], replies }) {
  return page.evaluate(
    ({ model, vocab, ports, early, later, replies, timeout }) =>
      new Promise((resolve) => {
        const base = document.baseURI;
        const worker = new Worker(new URL('embed-worker.js', base), { type: 'module' });
        const events = [];
        const answers = [];
        let timer;
        const finish = (why) => {
          clearTimeout(timer);
          worker.terminate();
          resolve({ events, answers, why });
        };
        timer = setTimeout(() => finish('timeout'), timeout);
        const channels = Array.from({ length: ports }, () => new MessageChannel());
        const send = ({ port, message }) => channels[port].port1.postMessage(message);
        worker.onmessage = ({ data }) => {
          const { module, ...rest } = data;
          events.push({ ...rest, ...(data.kind === 'ready' ? { module: module instanceof WebAssembly.Module } : {}) });
          if (data.kind === 'ready') later.forEach(send);
          if (data.kind === 'failed') setTimeout(() => finish('failed'), 500);
        };
        worker.onerror = (event) => {
          events.push({ kind: 'error event', message: event.message });
          finish('error event');
        };
        worker.postMessage({
          kind: 'init',
          js: new URL('embed-engine.js', base).href,
          wasm: new URL('embed-engine_bg.wasm', base).href,
          model,
          vocab,
        });
        channels.forEach((channel, port) => {
          worker.postMessage({ kind: 'port', port: channel.port2 }, [channel.port2]);
          channel.port1.onmessage = ({ data }) => {
            const { vectors, ...rest } = data;
            answers.push({
              port,
              ...rest,
              ...(vectors !== undefined ? { vectors: Array.from(vectors), float32: vectors instanceof Float32Array } : {}),
            });
            if (answers.length === replies) setTimeout(() => finish('answered'), 300);
          };
        });
        early.forEach(send);
      }),
    { model, vocab: VOCAB, ports, early, later, replies, timeout: EMBED_MS },
  );
}

describe('the embedding worker in Chromium (root build)', () => {
  let browser;
  let server;
  let url;
  before(async () => {
    browser = await launchBrowser();
    ({ server, url } = await startStaticServer({ root: DIST, prefix: '/' }));
  });
  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  /** A page of the build with its app running, and the URLs the context requested. */
  async function openPage(context) {
    const requests = [];
    const errors = [];
    context.on('request', (req) => requests.push(req.url()));
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(sel('doc-length')).waitFor({ state: 'visible', timeout: APP_START_MS });
    await waitForAttr(page, 'status', 'data-worker', 'true', APP_START_MS);
    return { page, requests, errors };
  }

  test('(b) loading, ready, requests on two ports before ready, in order, native vectors, progress', async (t) => {
    const context = await browser.newContext();
    try {
      const { page, requests, errors } = await openPage(context);
      const embedFiles = (list) => list.filter((u) => /embed-worker|embed-engine|\/models\//.test(u));
      assert.deepEqual(embedFiles(requests), [], 'the embedding worker\'s files were fetched before it was started');
      const { events, answers, why } = await runWorker(page, {
        ports: 2,
        early: [
          { port: 0, message: { id: 1, model: 'all-minilm-l6-v2', texts: TEXTS.slice(0, 3) } },
          { port: 1, message: { id: 'b', texts: TEXTS.slice(3) } },
          { port: 0, message: { id: 2, texts: 'not an array' } },
        ],
        later: [
          { port: 1, message: { id: 'c', texts: [] } },
          { port: 1, message: { id: 'd', model: 'potion-base-8m', texts: ['another model'] } },
        ],
        replies: 5,
      });
      assert.equal(why, 'answered', `the worker did not answer: ${JSON.stringify(events)}`);
      const kinds = events.map((e) => e.kind);
      const ready = kinds.indexOf('ready');
      assert.ok(ready > 0 && kinds.slice(0, ready).every((k) => k === 'loading'), `loading, then ready: ${kinds}`);
      const loading = events.filter((e) => e.kind === 'loading');
      assert.ok(loading.every((e) => e.received > 0 && (e.total === null || e.total >= e.received)), JSON.stringify(loading));
      const modelBytes = statSync(path.join(DIST, MODEL)).size;
      assert.deepEqual(events[ready], {
        kind: 'ready',
        model: { id: 'all-minilm-l6-v2', dim: DIM, max_seq_length: 256, bytes: modelBytes },
        module: true,
      });
      assert.ok(kinds.slice(ready + 1).every((k) => k === 'progress'), `after ready, only progress: ${kinds}`);
      const last = events.filter((e) => e.kind === 'progress').at(-1);
      assert.deepEqual(last, { kind: 'progress', done: TEXTS.length, queued: 0 });

      const on = (port) => answers.filter((a) => a.port === port);
      assert.deepEqual(on(0).map((a) => a.id), [1, 2], 'port 0 answered in order');
      assert.deepEqual(on(1).map((a) => a.id), ['b', 'c', 'd'], 'port 1 answered in order');
      const [one, bad] = on(0);
      const [two, none, other] = on(1);
      assert.match(other.error, /runs the model all-minilm-l6-v2, not potion-base-8m/);
      assert.ok(one.float32 && two.float32 && none.float32, 'vectors are Float32Arrays');
      assert.equal(one.dim, DIM);
      const lowest = Math.min(checkRows(one.vectors, native.slice(0, 3), 'port 0'), checkRows(two.vectors, native.slice(3), 'port 1'));
      t.diagnostic(`lowest cosine against the native int8 encoder: 1 - ${(1 - lowest).toExponential(1)}`);
      assert.match(bad.error, /texts/, `the bad request's answer: ${JSON.stringify(bad)}`);
      assert.equal(bad.vectors, undefined);
      assert.deepEqual([none.vectors, none.dim], [[], DIM]);
      const fetched = embedFiles(requests).map((u) => new URL(u).pathname);
      t.diagnostic(`fetched once started: ${fetched.join(' ')}`);
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      await context.close();
    }
  });

  test('(c) a missing or damaged model file fails naming it; requests get the error', async () => {
    const context = await browser.newContext();
    try {
      const { page } = await openPage(context);
      const missing = 'models/missing.int8.safetensors';
      let run = await runWorker(page, { model: missing, early: [{ port: 0, message: { id: 7, texts: ['a'] } }], replies: 1 });
      const failed = run.events.find((e) => e.kind === 'failed');
      assert.match(failed?.message ?? '', /models\/missing\.int8\.safetensors: HTTP 404/, JSON.stringify(run.events));
      assert.equal(run.answers.length, 1, JSON.stringify(run));
      assert.equal(run.answers[0].id, 7);
      assert.match(run.answers[0].error, /missing\.int8\.safetensors/);

      // The real file with one weight byte changed, served under another name.
      const damaged = readFileSync(path.join(DIST, MODEL));
      damaged[damaged.length - 1000] ^= 0x21;
      await context.route('**/models/damaged.int8.safetensors', (route) =>
        route.fulfill({ status: 200, contentType: 'application/octet-stream', body: damaged }),
      );
      run = await runWorker(page, { model: 'models/damaged.int8.safetensors', early: [{ port: 0, message: { id: 8, texts: ['a'] } }], replies: 1 });
      const refused = run.events.find((e) => e.kind === 'failed');
      assert.match(refused?.message ?? '', /models\/damaged\.int8\.safetensors: the weights file is damaged/, JSON.stringify(run.events));
      assert.match(run.answers[0]?.error ?? '', /damaged/, JSON.stringify(run.answers));
    } finally {
      await context.close();
    }
  });

  test('(d) offline after one run online, a new worker starts from the kept copies', async () => {
    const context = await browser.newContext();
    try {
      const { page } = await openPage(context);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: APP_START_MS });
      const message = { port: 0, message: { id: 1, texts: TEXTS.slice(0, 1) } };
      const online = await runWorker(page, { early: [message], replies: 1 });
      assert.equal(online.why, 'answered', JSON.stringify(online.events));
      await context.setOffline(true);
      const offlineRequests = [];
      context.on('request', (req) => offlineRequests.push(req));
      const offline = await runWorker(page, { early: [message], replies: 1 });
      // The worker's own requests (the service worker's own, network first, fail offline).
      const files = offlineRequests.filter(
        (r) => !r.serviceWorker() && /embed-worker|embed-engine|\/models\/|\/vocab\//.test(r.url()),
      );
      assert.equal(files.length, 5, `offline requests: ${files.map((r) => r.url()).join(' ')}`);
      for (const req of files) {
        const response = await req.response();
        assert.ok(response?.fromServiceWorker() && response.status() === 200, `${req.url()} was not answered by the service worker`);
      }
      assert.equal(offline.why, 'answered', `offline: ${JSON.stringify(offline.events)}`);
      assert.ok(offline.events.some((e) => e.kind === 'ready'), JSON.stringify(offline.events));
      checkRows(offline.answers[0].vectors, native.slice(0, 1), 'offline');
    } finally {
      await context.close();
    }
  });
});
