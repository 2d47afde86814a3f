// End-to-end test of the chunking simulator (SPEC §4) on the built page in headless Chromium.
//
// Serves the build (dist/ by default) with the harness's static server, opens the page, and
// checks the SPEC §4 figures of the default XV40 manual through the DOM hooks, in every UI
// language (each language's own manual and query must reproduce them):
//  - fixed windows, size 60, overlap 0: 5 chunks, 267 tokens, bloat 1.00, 4 split sentences,
//    no chunk with every keyword, best chunk 3/4;
//  - "try overlap 20": 7 chunks, 387 tokens, bloat 1.45, 1 chunk with every keyword (#2,
//    tokens 80–139);
//  - overlap back to 0, "try sentence mode": 5 chunks, 0 split sentences, 1 chunk with every
//    keyword.
// Also: no page error or console error while doing so.
//
// Environment (optional): E2E_DIST (the build to serve), CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { chooseLanguage, launchBrowser, numberValue, rawValue, sel, waitForAttr as waitFor } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist'));

// How long to wait for the page to reach a state. A wait that runs out is not a failure by
// itself: the assertion after it reads what the page shows and fails with those values.
const APP_START_MS = 60_000;
const UPDATE_MS = 15_000;

const LANGUAGES = ['en', 'vi', 'id', 'ru', 'pl'];
// The default query of each language (chunk_core::sim::documents::default_query).
const DEFAULT_QUERIES = {
  en: 'operating temperature range of XV40',
  vi: 'dải nhiệt độ của XV40',
  id: 'rentang suhu operasi XV40',
  ru: 'диапазон рабочих температур XV40',
  pl: 'zakres temperatury pracy XV40',
};

/** Waits until the element's attribute equals `want` (default timeout: UPDATE_MS). */
const waitForAttr = (page, testid, attr, want, timeout = UPDATE_MS) =>
  waitFor(page, testid, attr, want, timeout);

/** The simulator's main figures, read from the DOM. */
async function figures(page) {
  return {
    chunks: await numberValue(page, 'sim-out-chunks'),
    total: await numberValue(page, 'sim-out-total'),
    bloat: Math.round((await numberValue(page, 'sim-out-bloat')) * 100) / 100,
    split: await numberValue(page, 'sim-out-split-sentences'),
    full: await numberValue(page, 'sim-out-full-chunks'),
    best: await rawValue(page, 'sim-out-best-coverage'),
  };
}

/** Waits until the field's current value (the property, not the attribute) equals `want`. */
async function waitForValue(page, testid, want, timeout = UPDATE_MS) {
  await page
    .waitForFunction(([s, w]) => document.querySelector(s)?.value === w, [sel(testid), want], { timeout })
    .catch((err) => {
      if (err.name !== 'TimeoutError') throw err;
    });
}

/** Sets a range slider the way a user's drag does (Playwright sets the value and fires the
 *  input and change events). */
async function setSlider(page, testid, value) {
  await page.locator(sel(testid)).fill(String(value));
  await waitForValue(page, testid, String(value));
}

/** Back to the defaults: fixed windows, size 60, overlap 0, the manual. */
async function resetControls(page) {
  await page.locator(sel('sim-mode')).selectOption('fixed');
  await page.locator(sel('sim-preset')).selectOption('manual');
  await setSlider(page, 'sim-size', 60);
  await setSlider(page, 'sim-overlap', 0);
  await waitForAttr(page, 'sim-out-chunks', 'data-value', 5);
}

let browser;
let server;
let context;
let page;
const pageErrors = [];
const consoleErrors = [];
let setupError = null;
const needPage = () => {
  if (setupError) throw new Error(`the page did not come up: ${setupError.message}`);
};

before(async () => {
  try {
    browser = await launchBrowser();
    const started = await startStaticServer({ root: DIST, prefix: '/' });
    server = started.server;
    context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-US' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.stack ?? String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    const response = await page.goto(started.url, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, `GET ${started.url} answered ${response?.status()}`);
    const appeared = await page
      .locator(sel('sim-out-chunks'))
      .waitFor({ state: 'attached', timeout: APP_START_MS })
      .then(() => true)
      .catch(() => false);
    assert.ok(
      appeared,
      `the simulator did not appear within ${APP_START_MS} ms.\n` +
        `page errors: ${JSON.stringify(pageErrors)}\nconsole errors: ${JSON.stringify(consoleErrors)}`,
    );
  } catch (err) {
    setupError = err;
  }
});

after(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

describe('chunking simulator', () => {
  test('English default: 5 chunks, 267 tokens, bloat 1.00, best chunk 3/4', async () => {
    needPage();
    await chooseLanguage(page, 'en');
    await resetControls(page);
    assert.deepEqual(await figures(page), { chunks: 5, total: 267, bloat: 1, split: 4, full: 0, best: '3/4' });
    assert.equal(await page.locator(sel('sim-out-bloat')).textContent(), '1.00');
    assert.equal(await page.locator(sel('sim-query')).inputValue(), DEFAULT_QUERIES.en);
    assert.equal(await page.locator(sel('sim-token')).count(), 267);
    assert.equal(await page.locator(`${sel('sim-token')}[data-index="112"]`).textContent(), 'XV40');
  });

  test('Vietnamese: the same figures, try overlap 20, then sentence mode', async () => {
    needPage();
    await chooseLanguage(page, 'vi');
    await resetControls(page);
    await waitForValue(page, 'sim-query', DEFAULT_QUERIES.vi);
    assert.equal(await page.locator(sel('sim-query')).inputValue(), DEFAULT_QUERIES.vi);
    assert.deepEqual(await figures(page), { chunks: 5, total: 267, bloat: 1, split: 4, full: 0, best: '3/4' });
    assert.equal(await page.locator(sel('sim-out-bloat')).textContent(), '1,00', 'Vietnamese decimal comma');

    await page.locator(sel('sim-try-overlap')).click();
    await waitForAttr(page, 'sim-out-chunks', 'data-value', 7);
    const overlapped = await figures(page);
    assert.deepEqual(
      { chunks: overlapped.chunks, total: overlapped.total, bloat: overlapped.bloat, full: overlapped.full },
      { chunks: 7, total: 387, bloat: 1.45, full: 1 },
    );
    assert.equal(await page.locator(sel('sim-out-bloat')).textContent(), '1,45');
    const fullRows = page.locator(`${sel('sim-row')}[data-full="true"]`);
    assert.equal(await fullRows.count(), 1);
    assert.deepEqual(
      [await fullRows.getAttribute('data-start'), await fullRows.getAttribute('data-end')],
      ['80', '140'],
      'chunk #2 holds tokens 80–139',
    );
    const doubled = await page.locator(`${sel('sim-token')}[data-multiplicity="2"]`).count();
    assert.equal(doubled, 120, '6 overlaps of 20 tokens');

    // The essay's order: "try sentence mode" right after "try overlap 20" sets its whole
    // scenario (size 60, overlap 0), so the reader sees what the essay says.
    await page.locator(sel('sim-try-sentence')).click();
    await waitForAttr(page, 'sim-out-split-sentences', 'data-value', 0);
    const packed = await figures(page);
    assert.deepEqual(
      { chunks: packed.chunks, split: packed.split, full: packed.full, bloat: packed.bloat },
      { chunks: 5, split: 0, full: 1, bloat: 1 },
    );
    assert.equal(await page.locator(sel('sim-mode')).inputValue(), 'sentence');
    assert.equal(await page.locator(sel('sim-overlap')).inputValue(), '0', 'the overlap is the scenario\'s');
    assert.equal(await page.locator(sel('sim-size')).inputValue(), '60');
  });

  for (const lang of LANGUAGES) {
    test(`${lang}: the default manual reproduces the SPEC §4 figures`, async () => {
      needPage();
      await chooseLanguage(page, lang);
      await resetControls(page);
      await waitForValue(page, 'sim-query', DEFAULT_QUERIES[lang]);
      assert.equal(await page.locator(sel('sim-query')).inputValue(), DEFAULT_QUERIES[lang]);
      assert.deepEqual(await figures(page), { chunks: 5, total: 267, bloat: 1, split: 4, full: 0, best: '3/4' });

      await page.locator(sel('sim-try-overlap')).click();
      await waitForAttr(page, 'sim-out-chunks', 'data-value', 7);
      const o = await figures(page);
      assert.deepEqual([o.chunks, o.total, o.bloat, o.full], [7, 387, 1.45, 1], `${lang} overlap 20`);

      await page.locator(sel('sim-try-sentence')).click();
      await waitForAttr(page, 'sim-out-split-sentences', 'data-value', 0);
      const s = await figures(page);
      assert.deepEqual([s.chunks, s.split, s.full], [5, 0, 1], `${lang} sentence mode`);
    });
  }

  test('no page error and no console error', () => {
    needPage();
    assert.deepEqual(pageErrors, [], 'page errors');
    assert.deepEqual(consoleErrors, [], 'console errors');
  });
});
