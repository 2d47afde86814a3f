// End-to-end test of tokenizing off the main thread (src/tokenize/worker.rs), on the root
// build in headless Chromium:
//  - the page tokenizes in its Web Worker (status hook data-worker="true");
//  - a 10 MB paste of one repeated character (a single piece no slice can cut) is counted
//    exactly: the page's count equals the native core's for the same text;
//  - a long paste of astral characters, which the page reads in slices of 1 Mi UTF-16 units,
//    arrives whole: no surrogate pair is split at a slice edge (bytes, chars and tokens equal
//    the native core's, and no U+FFFD notice appears);
//  - a newer edit cancels stale work: "clear" right after a long paste leaves the text empty,
//    a file chosen while a long paste is still being read wins, and a new text typed while the
//    worker is still on a 10 MB piece gets its own count, which the stale job's result never
//    replaces;
//  - while a long paste is still being read, the status never says "ready";
//  - when the worker script cannot load, throws, fails its jobs, stops answering or sends a
//    result that is not the text's, the page counts on its own thread and gets the same numbers
//    (data-worker="false"), with no uncaught error.
// How long anything takes is measured by `make bench`, not asserted here.
//
// Environment (optional): E2E_DIST (the build to serve), E2E_FIXTURE, E2E_NATIVE_COUNTS,
// CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { launchBrowser, numberValue, sel, typeText, waitForAttr } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist'));
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));

const APP_START_MS = 60_000;
const TOKENIZE_MS = 120_000;

// The texts, built the same way in Node (for the native count) and in the page (so that
// 10 MB never crosses the test protocol).
const TEXTS = {
  // One piece of 10 MB: no slice can cut it.
  oneChar: { make: 'a'.repeat(10_000_000), build: () => 'a'.repeat(10_000_000) },
  // "x" then cats (2 UTF-16 units each): every slice edge at an even unit count falls
  // between the two halves of a pair.
  astral: { make: `x${'🐈'.repeat(600_000)}ü`, build: () => `x${'🐈'.repeat(600_000)}ü` },
};

const tmp = mkdtempSync(path.join(tmpdir(), 'rag-e2e-worker-'));

/** The native core's counts of `text` ({bytes, chars, cl100k_base, o200k_base}). */
function nativeCounts(text, name) {
  const file = path.join(tmp, `${name}.txt`);
  writeFileSync(file, text);
  const run = spawnSync('cargo', ['run', '--quiet', '-p', 'chunk-core', '--example', 'count', '--', file], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.error) throw new Error(`cannot run cargo for the native count: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`the count example failed with exit status ${run.status}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

/** Pastes the text `TEXTS[name]` over the box's whole content, built inside the page, as a real
 * paste event. */
async function pasteBuilt(page, name) {
  await page.evaluate(
    ([textareaSel, source]) => {
      // eslint-disable-next-line no-new-func
      const text = new Function(`return (${source})()`)();
      const data = new DataTransfer();
      data.setData('text/plain', text);
      const box = document.querySelector(textareaSel);
      box.focus();
      box.select(); // the paste replaces whatever the box holds
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [sel('text-input'), TEXTS[name].build.toString()],
  );
}


/** The status hook's state, worker flag and text. */
async function status(page) {
  const loc = page.locator(sel('status'));
  return {
    state: await loc.getAttribute('data-state'),
    worker: await loc.getAttribute('data-worker'),
    text: ((await loc.textContent()) ?? '').trim(),
  };
}

/** Waits until the page shows `tokens` tokens for a text of `bytes` bytes and is ready. */
async function waitForCount(page, tokens, bytes) {
  await page
    .waitForFunction(
      ([statusSel, tokensSel, lengthSel, want, wantBytes]) =>
        document.querySelector(statusSel)?.getAttribute('data-state') === 'ready' &&
        document.querySelector(tokensSel)?.getAttribute('data-value') === want &&
        document.querySelector(lengthSel)?.getAttribute('data-bytes') === wantBytes,
      [sel('status'), sel('out-doc-tokens'), sel('status'), String(tokens), String(bytes)],
      { timeout: TOKENIZE_MS },
    )
    .catch((err) => {
      if (err.name !== 'TimeoutError') throw err;
    });
  const s = await status(page);
  assert.equal(s.state, 'ready', `status is ${JSON.stringify(s)} after ${TOKENIZE_MS} ms`);
  assert.equal(await numberValue(page, 'out-doc-tokens'), tokens, `out-doc-tokens (status: ${s.text})`);
}

let browser;
let server;
let url;
let fixture;
let fixtureCounts;
const counts = {};

before(async () => {
  fixture = readFileSync(FIXTURE, 'utf8');
  fixtureCounts = process.env.E2E_NATIVE_COUNTS
    ? JSON.parse(process.env.E2E_NATIVE_COUNTS)
    : nativeCounts(fixture, 'fixture');
  for (const [name, t] of Object.entries(TEXTS)) counts[name] = nativeCounts(t.make, name);
  browser = await launchBrowser();
  const started = await startStaticServer({ root: DIST, prefix: '/' });
  server = started.server;
  url = started.url;
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs `body({ page, errors, warnings })` on a fresh page of the app, then closes it.
 * `workerScript`: `undefined` serves the real worker script (and waits until the worker is up),
 * `null` answers it with a 404, a string serves that text instead. */
async function onPage({ workerScript } = {}, body) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const errors = [];
  const warnings = [];
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  if (workerScript === null) {
    await context.route('**/tokenize-worker.js*', (route) => route.fulfill({ status: 404, body: 'blocked by the test' }));
  } else if (workerScript !== undefined) {
    await context.route('**/tokenize-worker.js*', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: workerScript }),
    );
  }
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
    if (workerScript === undefined) await waitForAttr(page, 'status', 'data-worker', 'true', APP_START_MS);
    await body({ page, errors, warnings });
  } finally {
    await context.close();
  }
}

describe('tokenizing in the Web Worker', () => {
  test('a 10 MB paste of one character is counted exactly, in the worker', async (t) => {
    await onPage({}, async ({ page, errors }) => {
      assert.equal((await status(page)).worker, 'true', 'the page did not start its tokenizer worker');
      await pasteBuilt(page, 'oneChar');
      const want = counts.oneChar;
      await waitForCount(page, want.cl100k_base, want.bytes);
      t.diagnostic(`page and native: ${want.cl100k_base} tokens for ${want.bytes} bytes`);
      assert.equal((await status(page)).worker, 'true', 'the worker was given up');
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  test('a long paste read in slices splits no surrogate pair', async (t) => {
    await onPage({}, async ({ page, errors }) => {
      await pasteBuilt(page, 'astral');
      const want = counts.astral;
      await waitForCount(page, want.cl100k_base, want.bytes);
      const chars = await page.locator(sel('status')).getAttribute('data-chars');
      assert.equal(Number(chars), want.chars, 'chars of the pasted text');
      assert.equal(await page.locator(sel('notice-replacement')).count(), 0, 'the page reports U+FFFD in the text');
      t.diagnostic(`${want.chars} chars, ${want.bytes} bytes, ${want.cl100k_base} tokens`);
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  test('while a long paste is read in slices, the status is not "ready"', async () => {
    await onPage({}, async ({ page, errors }) => {
      await typeText(page, 'old text');
      await waitForCount(page, 2, 8);
      // Record every state the status shows from the paste on (mutations are seen in order).
      await page.evaluate((s) => {
        window.__seen = [];
        const el = document.querySelector(s);
        new MutationObserver(() => window.__seen.push([el.dataset.state, el.dataset.bytes])).observe(el, {
          attributes: true,
        });
      }, sel('status'));
      await pasteBuilt(page, 'oneChar');
      const want = counts.oneChar;
      await waitForCount(page, want.cl100k_base, want.bytes);
      const seen = await page.evaluate(() => window.__seen);
      const arrived = seen.findIndex(([, bytes]) => bytes === String(want.bytes));
      assert.ok(arrived > 0, `the status changed only when the text arrived: ${JSON.stringify(seen.slice(0, 5))}`);
      assert.deepEqual(seen[0], ['tokenizing', '8'], 'the first state after the paste');
      assert.ok(
        seen.slice(0, arrived).every(([state]) => state === 'tokenizing'),
        `"ready" before the pasted text was in: ${JSON.stringify(seen.slice(0, arrived))}`,
      );
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  test('"clear" right after a long paste leaves the text empty', async () => {
    await onPage({}, async ({ page, errors }) => {
      await pasteBuilt(page, 'oneChar');
      await page.locator(sel('clear-text')).click();
      // Long enough for a stale read and a stale count to land, were they not cancelled.
      await page.waitForTimeout(3_000);
      const s = await status(page);
      assert.equal(s.state, 'ready', `status after clear: ${JSON.stringify(s)}`);
      assert.equal(await page.locator(sel('status')).getAttribute('data-bytes'), '0', 'bytes after clear');
      assert.equal(await page.locator(sel('text-input')).inputValue(), '', 'the box after clear');
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  test('a file chosen while a long paste is still being read wins over the paste', async () => {
    await onPage({}, async ({ page, errors }) => {
      await pasteBuilt(page, 'oneChar');
      // In the same task as the paste: the page is still reading it.
      await page.evaluate(
        ([inputSel, text]) => {
          const files = new DataTransfer();
          files.items.add(new File([text], 'chosen.txt', { type: 'text/plain' }));
          const input = document.querySelector(inputSel);
          input.files = files.files;
          input.dispatchEvent(new Event('change', { bubbles: true }));
        },
        [sel('file-input'), fixture],
      );
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.match((await page.locator(sel('file-message')).textContent()) ?? '', /chosen\.txt/, 'file message');
      // Long enough for the stale paste to land, were it not cancelled.
      await page.waitForTimeout(2_000);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  test('a new text while the worker is on a 10 MB piece gets its own count, never the stale one', async () => {
    await onPage({}, async ({ page, errors }) => {
      await pasteBuilt(page, 'oneChar');
      // Wait until the 10 MB text is in the page and being counted, then replace it.
      await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-bytes') === '10000000', sel('status'), {
        timeout: TOKENIZE_MS,
      });
      await page.locator(sel('clear-text')).click();
      await typeText(page, fixture);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      // The stale job finishes in the worker meanwhile; its result must not replace this one.
      await page.waitForTimeout(3_000);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.deepEqual(errors, [], 'page errors');
    });
  });

  // Worker scripts that fail in other ways: each must end in the page's own count, with no
  // uncaught error in the page.
  const BROKEN_WORKERS = {
    'throws at start': 'throw new Error("broken on purpose");',
    'is ready, then fails every job': `
      let ready;
      self.onmessage = ({ data }) => {
        if (!ready) {
          ready = import(data.js).then(async (g) => { await g.default({ module_or_path: data.module ?? data.wasm }); return g; });
          ready.then(() => self.postMessage({ kind: 'ready' }));
          return;
        }
        ready.then(() => { throw new Error('job failed on purpose'); })
          .catch((err) => self.postMessage({ kind: 'failed', message: String(err) }));
      };`,
    // Given up once silent for 10 s + 1 s per MB of the job (src/tokenize/job.rs).
    'is ready, then never answers a job': `
      self.onmessage = ({ data }) => { if (data.kind === 'init') self.postMessage({ kind: 'ready' }); };`,
    'sends a result that is not the text\'s': `
      self.onmessage = ({ data }) => {
        if (data.kind === 'init') { self.postMessage({ kind: 'ready' }); return; }
        self.postMessage({ kind: 'done', id: data.id, offsets: new Uint32Array([0, 999999999]) });
      };`,
    // Never ready and silent: given up after READY_TIMEOUT (15 s) of silence.
    'never starts': `self.onmessage = () => {};`,
  };
  for (const [name, script] of Object.entries(BROKEN_WORKERS)) {
    test(`a worker that ${name}: the page counts on its own thread`, async () => {
      await onPage({ workerScript: script }, async ({ page, errors }) => {
        await typeText(page, fixture);
        await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
        assert.equal((await status(page)).worker, 'false', 'data-worker after the failure');
        assert.deepEqual(errors, [], 'uncaught errors in the page');
      });
    });
  }

  test('without the tokenizer module the count says it is not available, and the simulator too; the next edit tries again', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    let blocked = true;
    await context.route('**/tokenize-engine_bg.wasm', (route) =>
      blocked ? route.fulfill({ status: 404, body: 'blocked by the test' }) : route.continue(),
    );
    try {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
      await page.goto(url, { waitUntil: 'load' });
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
      await typeText(page, 'Chunks of text.');
      // The worker fails, the page's own thread fails too: no exact count, an estimate.
      await waitForAttr(page, 'status', 'data-state', 'failed', TOKENIZE_MS);
      assert.equal((await status(page)).worker, 'false', 'data-worker after the failure');
      await page.locator(sel('sim-tokenizer')).selectOption('cl100k_base');
      await page.locator(sel('sim-tokenizer-failed')).waitFor({ state: 'visible', timeout: TOKENIZE_MS });
      assert.equal(await page.locator(sel('sim-tokenizer-loading')).count(), 0, 'a loading line beside the failure');
      // The module is reachable again: the next edit counts exactly (on the page's thread).
      blocked = false;
      await typeText(page, fixture);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.deepEqual(errors, [], 'uncaught errors in the page');
    } finally {
      await context.close();
    }
  });

  test('a table that is not this build\'s is refused, in the worker and on the page\'s thread: the count says failed; the next edit tries again', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    let stale = true;
    const asked = [];
    await context.route('**/tables/cl100k_base.bin*', (route) => {
      asked.push(route.request().url());
      return stale ? route.fulfill({ status: 200, body: 'an older build\'s table' }) : route.continue();
    });
    try {
      const page = await context.newPage();
      const errors = [];
      const warnings = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
      page.on('console', (msg) => msg.type() === 'warning' && warnings.push(msg.text()));
      await page.goto(url, { waitUntil: 'load' });
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
      await typeText(page, 'Chunks of text.');
      await waitForAttr(page, 'status', 'data-state', 'failed', TOKENIZE_MS);
      assert.equal((await status(page)).worker, 'false', 'data-worker after the failure');
      assert.ok(asked.length >= 2 && asked.every((u) => /\/tables\/cl100k_base\.bin\?v=[0-9a-f]{16}$/.test(u)), `asked: ${asked}`);
      const why = 'table refused: tables/cl100k_base.bin: 22 bytes, this build\'s table has';
      assert.ok(warnings.some((w) => w.startsWith(`tokenizer worker: ${why}`)), `the worker's refusal: ${warnings.join(' | ')}`);
      assert.ok(warnings.some((w) => w.startsWith('tokenizer module:') && w.includes(why)), `the page's refusal: ${warnings.join(' | ')}`);
      // The right file again: the next edit counts exactly (on the page's thread).
      stale = false;
      await typeText(page, fixture);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.deepEqual(errors, [], 'uncaught errors in the page');
    } finally {
      await context.close();
    }
  });

  test('without the worker script the page counts on its own thread, with the same result', async (t) => {
    await onPage({ workerScript: null }, async ({ page, errors, warnings }) => {
      await typeText(page, fixture);
      await waitForCount(page, fixtureCounts.cl100k_base, fixtureCounts.bytes);
      assert.equal((await status(page)).worker, 'false', 'data-worker with the worker script blocked');
      t.diagnostic(`warnings: ${warnings.join(' | ')}`);
      // The 404 of the blocked script is the only error the browser may log.
      assert.deepEqual(
        errors.filter((e) => !/404|Failed to load resource/.test(e)),
        [],
        'page errors other than the blocked script',
      );
    });
  });
});
