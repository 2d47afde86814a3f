// End-to-end test of the built page (Trunk release build) in headless Chromium.
//
// Runs the same checks twice: once on the build served at the site root (dist/) and once on
// the build made with --public-url /rag-chunk-calculator/ (dist-subpath/) served under that
// subpath, where any asset path that escapes the subpath gets a 404 and fails the test.
//
// Checks, per build:
//  (a) the calculator's worked example (SPEC §2): 10,000 tokens, chunk_size 512, chunk_overlap
//      64 -> 23 chunks, 11,408 embedded tokens, 1,408 repeated tokens (12.3 % of what is
//      sent, 14.1 % more than the document), last chunk 144 tokens;
//  (b) the fixture document pasted into the page gets exactly the token count of the native
//      core (examples/count.rs) in cl100k_base and o200k_base, counted in the page's Web
//      Worker, and the chunk count equals the formula's for that count;
//  (c) during load only same-origin requests, none failing; after the load event only the
//      tokenizer worker's own files (its script, the wasm-bindgen glue it imports, its module
//      and the cl100k_base table) and the comparison worker's three (script, engine glue,
//      engine module; never preloaded), and no request once both are ready, while text is
//      pasted and counted, but o200k_base's table once when that encoding is first chosen;
//  (d) every chunk element carries its token and byte offsets, consistent with the windows.
//
// Environment (all optional): E2E_DIST, E2E_DIST_SUBPATH, E2E_SUBPATH, E2E_FIXTURE,
// E2E_NATIVE_COUNTS (the JSON line printed by the count example), CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { launchBrowser, nativeCounts, numberValue, sel, typeText, waitForAttr } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist'));
const DIST_SUBPATH = path.resolve(process.env.E2E_DIST_SUBPATH ?? path.join(REPO, 'dist-subpath'));
const SUBPATH = process.env.E2E_SUBPATH ?? '/rag-chunk-calculator/';
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));
const ENCODINGS = ['cl100k_base', 'o200k_base'];

// How long to wait for the page to reach a state. A wait that runs out is not a failure by
// itself: the assertion after it reads what the page shows and fails with those values.
const APP_START_MS = 60_000;
const UPDATE_MS = 15_000;
const TOKENIZE_MS = 120_000;

/** Fixed-token-window rule (SPEC §2), written here independently of the page and the core. */
function expectedChunks(n, size, overlap) {
  if (n === 0) return 0;
  if (n <= size) return 1;
  return 1 + Math.ceil((n - size) / (size - overlap));
}

async function textOf(page, testid) {
  return (await page.locator(sel(testid)).textContent()) ?? '';
}

async function fillInput(page, testid, value) {
  const loc = page.locator(sel(testid));
  await loc.fill(String(value));
}

async function selectEncoding(page, name) {
  const select = page.locator(sel('tokenizer'));
  const values = await select.locator('option').evaluateAll((opts) => opts.map((o) => o.value));
  assert.ok(values.includes(name), `tokenizer select has no option "${name}"; options: ${values.join(', ')}`);
  await select.selectOption(name);
}

/** Waits for status "ready" with the given token count; then returns what the page shows. */
async function waitForCount(page, want) {
  await page
    .waitForFunction(
      ([statusSel, tokensSel, w]) =>
        document.querySelector(statusSel)?.getAttribute('data-state') === 'ready' &&
        document.querySelector(tokensSel)?.getAttribute('data-value') === w,
      [sel('status'), sel('out-doc-tokens'), String(want)],
      { timeout: TOKENIZE_MS },
    )
    .catch((err) => {
      if (err.name !== 'TimeoutError') throw err;
    });
  const state = await page.locator(sel('status')).getAttribute('data-state');
  assert.equal(state, 'ready', `status data-state is ${JSON.stringify(state)} after ${TOKENIZE_MS} ms, not "ready"`);
  return numberValue(page, 'out-doc-tokens');
}

/** Reads every chunk element's offsets. */
async function chunkOffsets(page) {
  return page.locator(sel('chunk')).evaluateAll((els) =>
    els.map((el) => ({
      start: el.getAttribute('data-start'),
      end: el.getAttribute('data-end'),
      byteStart: el.getAttribute('data-byte-start'),
      byteEnd: el.getAttribute('data-byte-end'),
    })),
  );
}

let browser;
let native;
let fixtureText;

before(async () => {
  fixtureText = readFileSync(FIXTURE, 'utf8');
  native = nativeCounts(FIXTURE);
  assert.equal(native.bytes, Buffer.byteLength(fixtureText, 'utf8'), 'count example read a different file');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

const BUILDS = [
  { name: 'root build', dir: DIST, prefix: '/' },
  { name: 'subpath build', dir: DIST_SUBPATH, prefix: SUBPATH },
];

for (const build of BUILDS) {
  describe(`page, ${build.name} served at ${build.prefix}`, () => {
    let server;
    let context;
    let page;
    let origin;
    let loaded = false;
    let workerReady = false;
    const loadRequests = [];
    const afterLoadRequests = [];
    const afterReadyRequests = [];
    const badResponses = [];
    const failedRequests = [];
    const pageErrors = [];
    const consoleErrors = [];

    // Set-up runs in a hook; if it fails, every test below fails with its message, so the
    // failure counts as failed tests (not only cancelled ones).
    let setupError = null;
    const needPage = () => {
      if (setupError) throw new Error(`the page did not come up: ${setupError.message}`);
    };

    before(async () => {
      try {
        await setUp();
      } catch (err) {
        setupError = err;
      }
    });

    async function setUp() {
      const started = await startStaticServer({ root: build.dir, prefix: build.prefix });
      server = started.server;
      origin = new URL(started.url).origin;
      // The service worker is blocked here, so that only the page's own requests are seen;
      // offline.test.mjs checks what it requests (its copy, on the first visit) and that it
      // requests nothing while a text is counted.
      context = await browser.newContext({ serviceWorkers: 'block' });
      page = await context.newPage();
      // Events arrive in protocol order, so a request issued after the load event is seen
      // after 'load' fires here. data: and blob: URLs never reach the network.
      page.on('load', () => {
        loaded = true;
      });
      context.on('request', (req) => {
        const url = req.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        const entry = `${req.method()} ${url} (${req.resourceType()})`;
        (workerReady ? afterReadyRequests : loaded ? afterLoadRequests : loadRequests).push(entry);
      });
      context.on('response', (resp) => {
        if (resp.status() >= 400) badResponses.push(`${resp.status()} ${resp.url()}`);
      });
      context.on('requestfailed', (req) => {
        failedRequests.push(`${req.url()}: ${req.failure()?.errorText}`);
      });
      page.on('websocket', (ws) => afterLoadRequests.push(`websocket ${ws.url()}`));
      page.on('pageerror', (err) => pageErrors.push(err.stack ?? String(err)));
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(`${msg.text()} [${msg.location()?.url ?? ''}]`);
      });

      const response = await page.goto(started.url, { waitUntil: 'load' });
      assert.equal(response?.status(), 200, `GET ${started.url} answered ${response?.status()}`);
      const appeared = await page
        .locator(sel('doc-length'))
        .waitFor({ state: 'visible', timeout: APP_START_MS })
        .then(() => true)
        .catch(() => false);
      assert.ok(
        appeared,
        `the app did not show ${sel('doc-length')} within ${APP_START_MS} ms.\n` +
          `page errors: ${JSON.stringify(pageErrors)}\nconsole errors: ${JSON.stringify(consoleErrors)}\n` +
          `failed/4xx: ${JSON.stringify([...failedRequests, ...badResponses])}`,
      );
      // The tokenizer worker starts after the app: wait for it, so that every request it makes
      // is recorded before the text is pasted.
      const workerUp = await waitForAttr(page, 'status', 'data-worker', 'true', APP_START_MS);
      assert.ok(workerUp, `the tokenizer worker did not start; page errors: ${JSON.stringify(pageErrors)}`);
      // So does the comparison worker, which fetches the strategies' engine.
      const engineUp = await waitForAttr(page, 'compare', 'data-engine', 'ready', APP_START_MS);
      assert.ok(engineUp, `the comparison worker did not start; page errors: ${JSON.stringify(pageErrors)}`);
      // The tokenizer's module asks for the default encoding's table as soon as it runs: wait
      // until that request is seen, so that it counts as the worker's start.
      const asked = () => [...loadRequests, ...afterLoadRequests].some((r) => r.includes('/tables/cl100k_base.bin?v='));
      for (const t0 = Date.now(); !asked() && Date.now() - t0 < APP_START_MS; ) await new Promise((r) => setTimeout(r, 20));
      assert.ok(asked(), 'the tokenizer worker did not ask for the cl100k_base table');
      workerReady = true;
    }

    after(async () => {
      await context?.close();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    });

    test('loads every asset from its own origin without an error', (t) => {
      needPage();
      t.diagnostic(`${loadRequests.length} requests during load: ${loadRequests.join(' | ')}`);
      assert.ok(loadRequests.length > 0, 'no request was recorded during load');
      const foreign = loadRequests.filter((r) => new URL(r.split(' ')[1]).origin !== origin);
      assert.deepEqual(foreign, [], `requests to another origin than ${origin} during load`);
      assert.deepEqual(badResponses, [], 'responses with status >= 400');
      assert.deepEqual(failedRequests, [], 'failed requests');
      // The page's own module, and perhaps its panels' module (fetched once the first runs,
      // during or after the load event: src/panels.rs); the tokenizer's and the comparison
      // engine's are their workers', fetched once the page runs, never preloaded.
      const wasm = loadRequests.filter(
        (r) => r.split(' ')[1].endsWith('.wasm') && !r.includes('compare-engine') && !r.includes('tokenize-engine'),
      );
      const panels = wasm.filter((r) => /\/panels-rag-chunk-calculator-[0-9a-f]+_bg\.wasm$/.test(r.split(' ')[1]));
      assert.ok(panels.length <= 1, `the panels' module fetched more than once: ${panels.join(' | ')}`);
      assert.equal(wasm.length - panels.length, 1, `expected one page .wasm request, got: ${wasm.join(' | ')}`);
      assert.ok(
        wasm[0].split(' ')[1].startsWith(`${origin}${build.prefix}`),
        `the .wasm is not loaded from under ${build.prefix}: ${wasm[0]}`,
      );
    });

    test('(a) worked example: 10000 tokens, chunk_size 512, chunk_overlap 64', async () => {
      needPage();
      const [doc, size, overlap] = [10_000, 512, 64];
      await fillInput(page, 'doc-length', doc);
      await fillInput(page, 'chunk-size', size);
      await fillInput(page, 'chunk-overlap', overlap);
      const chunks = expectedChunks(doc, size, overlap);
      const repeated = (chunks - 1) * overlap;
      const total = doc + repeated;
      const last = doc - (chunks - 1) * (size - overlap);
      // The worked example of SPEC §2, checked against the independent rule above.
      assert.deepEqual([chunks, total, repeated, last], [23, 11_408, 1_408, 144]);
      await waitForAttr(page, 'out-chunks', 'data-value', chunks, UPDATE_MS);

      assert.equal(await numberValue(page, 'out-chunks'), chunks, 'out-chunks');
      assert.equal(await numberValue(page, 'out-total-tokens'), total, 'out-total-tokens');
      assert.equal(await numberValue(page, 'out-repeated-tokens'), repeated, 'out-repeated-tokens');
      assert.equal(await numberValue(page, 'out-last-chunk'), last, 'out-last-chunk');
      const share = await numberValue(page, 'out-repeated-share');
      assert.ok(Math.abs(share - repeated / total) < 1e-4, `out-repeated-share is ${share}, expected ${repeated / total}`);
      const extra = await numberValue(page, 'out-extra');
      assert.ok(Math.abs(extra - repeated / doc) < 1e-4, `out-extra is ${extra}, expected ${repeated / doc}`);
      const shareText = await textOf(page, 'out-repeated-share');
      assert.match(shareText, /12\.3\s*%/, `out-repeated-share shows ${JSON.stringify(shareText)}, expected 12.3 %`);
      const extraText = await textOf(page, 'out-extra');
      assert.match(extraText, /14\.1\s*%/, `out-extra shows ${JSON.stringify(extraText)}, expected 14.1 %`);
    });

    // cl100k_base, o200k_base, then back to cl100k_base: switching must recount both ways.
    for (const [i, encoding] of [...ENCODINGS, ENCODINGS[0]].entries()) {
      const again = i >= ENCODINGS.length ? ', switched back' : '';
      test(`(b) fixture document${again}: ${encoding} token count equals the native core's, chunks follow the formula`, async (t) => {
        needPage();
        const [size, overlap] = [512, 64];
        await fillInput(page, 'chunk-size', size);
        await fillInput(page, 'chunk-overlap', overlap);
        // The fixture goes in as one input event, as a paste into the box does (Playwright's
        // fill would type it in chunks). Over 32 KiB, the page then holds it outside the box:
        // its length in bytes, on the status, says which text the page holds.
        const bytes = () => page.locator(sel('status')).getAttribute('data-bytes');
        if ((await bytes()) !== String(native.bytes)) {
          await typeText(page, fixtureText);
        }
        assert.equal(await bytes(), String(native.bytes), 'the page does not hold the fixture text');
        await selectEncoding(page, encoding);

        const want = native[encoding];
        const shown = await waitForCount(page, want);
        t.diagnostic(`${encoding}: page ${shown} tokens, native ${want} tokens (${native.bytes} bytes)`);
        assert.equal(shown, want, `out-doc-tokens (${encoding}) differs from the native core's count`);
        const worker = await page.locator(sel('status')).getAttribute('data-worker');
        assert.equal(worker, 'true', 'the text was not counted in the Web Worker');

        const chunks = expectedChunks(want, size, overlap);
        await waitForAttr(page, 'out-chunks', 'data-value', chunks, UPDATE_MS);
        assert.equal(await numberValue(page, 'out-chunks'), chunks, `out-chunks for ${want} tokens, ${size}/${overlap}`);
        assert.equal(
          await numberValue(page, 'out-total-tokens'),
          want + (chunks - 1) * overlap,
          'out-total-tokens for the fixture',
        );
      });

      test(`(d) every chunk element carries token and byte offsets (${encoding}${again})`, async (t) => {
        needPage();
        const [size, overlap] = [512, 64];
        const step = size - overlap;
        const n = native[encoding];
        const chunks = await chunkOffsets(page);
        t.diagnostic(`${chunks.length} chunk elements (formula: ${expectedChunks(n, size, overlap)} chunks)`);
        assert.ok(chunks.length > 0, `no ${sel('chunk')} element on the page`);
        const nums = chunks.map((c, i) => {
          for (const [k, v] of Object.entries(c)) {
            assert.ok(v !== null && /^\d+$/.test(v), `chunk #${i} has ${k} = ${JSON.stringify(v)}, not a non-negative integer`);
          }
          return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Number(v)]));
        });
        nums.forEach((c, i) => {
          const where = `chunk #${i} ${JSON.stringify(c)}`;
          assert.equal(c.start % step, 0, `${where}: token start is not a multiple of the step ${step}`);
          assert.equal(c.end, Math.min(c.start + size, n), `${where}: token end is not min(start + ${size}, ${n})`);
          assert.ok(c.byteStart < c.byteEnd && c.byteEnd <= native.bytes, `${where}: byte range outside 0..${native.bytes}`);
          assert.equal(c.start === 0, c.byteStart === 0, `${where}: only the first window starts at byte 0`);
          assert.equal(c.end === n, c.byteEnd === native.bytes, `${where}: only the last window ends at the last byte`);
          if (i > 0) {
            const prev = nums[i - 1];
            assert.ok(c.start > prev.start && c.byteStart > prev.byteStart, `${where}: not after chunk #${i - 1}`);
            if (c.start === prev.start + step && overlap > 0) {
              assert.ok(c.byteStart < prev.byteEnd, `${where}: no byte overlap with chunk #${i - 1}`);
            }
          }
        });
        if (nums.length === expectedChunks(n, size, overlap)) {
          assert.equal(nums[0].start, 0, 'the first chunk does not start at token 0');
          assert.equal(nums.at(-1).end, n, 'the last chunk does not end at the last token');
        }
      });
    }

    test('(c) after the load event, only the workers fetch their own files; then no request but the other encoding\'s table', async (t) => {
      needPage();
      // The tokenizer worker fetches its script, the tokenizer module (its glue and .wasm) and
      // the default encoding's BPE table (tables/cl100k_base.bin, with its build's checksum as
      // a query; neither module carries a table); the comparison worker its script, the
      // engine's glue and the engine's module.
      const workers = ['tokenize-worker.js', 'tokenize-engine.js', 'tokenize-engine_bg.wasm', 'tables/cl100k_base.bin', 'compare-worker.js', 'compare-engine.js', 'compare-engine_bg.wasm'];
      // The panels' module and its loader, if the page had not fetched them by the load
      // event (named on the loader's script tag: crates/page-split).
      const split = await page.locator('script[data-split-js]').evaluate((s) => [s.dataset.splitJs, s.dataset.splitWasm]);
      const allowed = [
        ...workers.map((f) => `GET ${origin}${build.prefix}${f}`),
        ...split.map((f) => `GET ${new URL(f, origin).href}`),
      ];
      const workerFetches = afterLoadRequests.filter((r) => {
        const [method, url] = r.split(' ');
        return allowed.includes(`${method} ${url.split('?')[0]}`);
      });
      const preloaded = await page.locator('link[rel="preload"], link[rel="modulepreload"]').evaluateAll((ls) => ls.map((l) => l.href));
      assert.deepEqual(preloaded.filter((h) => h.includes('compare-engine')), [], 'the comparison engine is preloaded with the page');
      const others = afterLoadRequests.filter((r) => !workerFetches.includes(r));
      t.diagnostic(`the worker's fetches: ${workerFetches.join(' | ') || 'none seen'}`);
      // Chromium fetches the <link rel="icon"> file only after the load event; say so if that
      // is the request, since the fix (an inline data: icon) is not obvious.
      const icons = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((l) => l.href));
      const iconHint = afterLoadRequests.some((r) => icons.includes(r.split(' ')[1]))
        ? ' (the browser loads the <link rel="icon"> file after the load event: inline it as a data: URL, ' +
          "and allow data: in the CSP's img-src)"
        : '';
      assert.deepEqual(others, [], `requests made after the load event${iconHint}`);
      // o200k_base's table is fetched once, when that encoding is first chosen (test (b)).
      const o200k = afterReadyRequests.filter((r) => r.includes('/tables/o200k_base.bin?v='));
      assert.ok(o200k.length <= 1, `o200k_base's table fetched more than once: ${o200k.join(' | ')}`);
      assert.deepEqual(
        afterReadyRequests.filter((r) => !o200k.includes(r)),
        [],
        'requests made once the worker was ready (pasting and counting), but o200k_base\'s table',
      );
      assert.deepEqual(badResponses, [], 'responses with status >= 400');
      assert.deepEqual(failedRequests, [], 'failed requests');
    });

    test('no uncaught error or console error in the page', () => {
      needPage();
      assert.deepEqual(pageErrors, [], 'uncaught errors (a panic shows here)');
      assert.deepEqual(consoleErrors, [], 'console errors');
    });
  });
}
