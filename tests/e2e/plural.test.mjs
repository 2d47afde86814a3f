// End-to-end test of plural forms (issue 12): in Russian and Polish, every count the chunk
// preview shows takes the noun form the browser's Intl.PluralRules gives for it, for
// N = 1, 2, 5, 21, 22, 25, the overlap each chunk shares with the previous one (chunk_overlap N);
// "showing 20 of N chunks" for N = 21, 22, 25 (a chunk_size that makes N chunks) and "show N
// more chunks" for N = 1, 2, 5 (the 20 shown plus N). English is checked beside them. The expected strings are written out here,
// as a reader of each language reads them.
//
// Environment (optional): E2E_DIST (the build to serve), E2E_FIXTURE, CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseLanguage, countOf, sel, serveAndLaunch, typeText } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));

const WAIT_MS = 60_000;
const COUNTS = [1, 2, 5, 21, 22, 25];

/** What each language shows; `overlap(n)` ends the chunk's overlap line. */
const EXPECTED = {
  ru: {
    overlap: ['1 токен', '2 токена', '5 токенов', '21 токен', '22 токена', '25 токенов'],
    showing: (total) => `Показано 20 из ${total} ${{ 21: 'чанка', 22: 'чанков', 25: 'чанков' }[total]}.`,
    more: { 1: 'Показать ещё 1 чанк', 2: 'Показать ещё 2 чанка', 5: 'Показать ещё 5 чанков' },
  },
  pl: {
    overlap: ['1 token', '2 tokeny', '5 tokenów', '21 tokenów', '22 tokeny', '25 tokenów'],
    showing: (total) => `Pokazano 20 z ${total} chunków.`,
    more: { 1: 'Pokaż jeszcze 1 chunk', 2: 'Pokaż jeszcze 2 chunki', 5: 'Pokaż jeszcze 5 chunków' },
  },
  en: {
    overlap: ['1 token', '2 tokens', '5 tokens', '21 tokens', '22 tokens', '25 tokens'],
    showing: (total) => `Showing 20 of ${total} chunks.`,
    more: { 1: 'Show 1 more chunk', 2: 'Show 2 more chunks', 5: 'Show 5 more chunks' },
  },
};

let site;
let fixture;

before(async () => {
  fixture = readFileSync(FIXTURE, 'utf8');
  site = await serveAndLaunch(DIST);
});

after(async () => site?.close());

/** Sets a number field and waits until the preview holds `count` chunks (when given). */
async function setField(page, testid, value, count) {
  await page.locator(sel(testid)).fill(String(value));
  if (count !== undefined) {
    await page.waitForFunction(
      (want) => document.querySelector('ol.chunks')?.dataset.count === String(want),
      count,
      { timeout: WAIT_MS },
    );
  }
}

describe('a language whose messages cannot be fetched', () => {
  test('the page says so, stays in the language it was in, and retries when chosen again', async () => {
    const context = await site.browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    let refuse = true;
    await page.route('**/i18n/pl.txt*', (route) => (refuse ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
    try {
      await page.goto(site.url, { waitUntil: 'load' });
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: WAIT_MS });
      await page.fill(sel('price'), '0.5');
      await page.locator(sel('language')).selectOption('pl');
      const status = page.locator(sel('language-status'));
      await status.waitFor({ state: 'visible', timeout: WAIT_MS });
      assert.equal(await status.getAttribute('data-lang'), 'pl');
      assert.equal(await status.getAttribute('data-reason'), 'status');
      assert.equal(
        await status.textContent(),
        'The page\'s text in Polski could not be loaded: the site answered with status 404. It stays in English; choose the language again to retry.',
      );
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.inputValue(sel('language')), 'en', 'the switch is back on English');
      assert.equal(await page.inputValue(sel('price')), '0.5', 'the price keeps its decimal point');

      // Another file than a bundle, or another build's, is refused the same way.
      await page.unroute('**/i18n/pl.txt*');
      await page.route('**/i18n/pl.txt*', (route) => route.fulfill({ status: 200, body: '<!DOCTYPE html><p>not found</p>' }));
      await page.locator(sel('language')).selectOption('pl');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.reason === 'file', sel('language-status'), { timeout: WAIT_MS });
      assert.match(await status.textContent(), /Polski.*not this version's text.*stays in English/);
      assert.equal(await page.inputValue(sel('language')), 'en');

      // From a language whose words are shown (Russian), a failing one goes back to it, and
      // the status is said in it.
      await chooseLanguage(page, 'ru');
      await page.locator(sel('language')).selectOption('pl');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.reason === 'file', sel('language-status'), { timeout: WAIT_MS });
      assert.equal(await page.inputValue(sel('language')), 'ru', 'the switch is back on Russian');
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
      assert.match(await status.textContent(), /«Polski».*«Русский»/);
      assert.equal(await page.inputValue(sel('price')), '0,5', 'the Russian decimal comma');
      await chooseLanguage(page, 'en');

      // Chosen again once the file can be had: Polish, and the failure is no longer said.
      refuse = false;
      await page.unroute('**/i18n/pl.txt*');
      await chooseLanguage(page, 'pl');
      assert.equal(await status.isHidden(), true);
      assert.equal(await page.inputValue(sel('price')), '0,5', 'Polish decimal comma');
      assert.deepEqual(errors, [], 'uncaught errors on the page');
    } finally {
      await context.close();
    }
  });
});

describe('counts take their plural forms', () => {
  test('ru, pl and en: overlap, showing and show-more for 1, 2, 5, 21, 22, 25', async () => {
    const context = await site.browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    try {
      await page.goto(site.url, { waitUntil: 'load' });
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: WAIT_MS });
      await typeText(page, fixture);
      const { tokens } = await countOf(page, Buffer.byteLength(fixture, 'utf8'));
      assert.ok(tokens > 25 * 100, `the fixture has ${tokens} tokens`);

      for (const [lang, want] of Object.entries(EXPECTED)) {
        await page.locator(sel('language')).selectOption(lang);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: WAIT_MS });

        // chunk_size 100, chunk_overlap N: chunk #1 shares N tokens with chunk #0.
        await setField(page, 'chunk-size', 100);
        for (const [i, n] of COUNTS.entries()) {
          await setField(page, 'chunk-overlap', n);
          const line = page.locator(`${sel('chunk')} .chunk-overlap`).first();
          await page.waitForFunction(
            ([s, tail]) => document.querySelector(s)?.textContent.endsWith(tail),
            [`${sel('chunk')} .chunk-overlap`, `: ${want.overlap[i]}`],
            { timeout: WAIT_MS },
          ).catch(() => {});
          const shown = await line.textContent();
          assert.ok(shown.endsWith(`: ${want.overlap[i]}`), `${lang}, overlap ${n}: "${shown}"`);
        }

        // A chunk_size that cuts the text into `total` chunks with no overlap.
        await setField(page, 'chunk-overlap', 0);
        for (const total of [21, 22, 25]) {
          const size = [0, 1, -1, 2, -2].map((d) => Math.ceil(tokens / total) + d)
            .find((s) => s > 0 && Math.ceil(tokens / s) === total);
          assert.ok(size, `no chunk_size gives ${total} chunks of ${tokens} tokens`);
          await setField(page, 'chunk-size', size, total);
          const showing = await page.locator('.preview .more p').textContent();
          assert.equal(showing, want.showing(total), `${lang}, ${total} chunks`);
          const more = await page.locator(sel('show-more')).textContent();
          assert.equal(more, want.more[total - 20], `${lang}, ${total - 20} more`);
        }
      }
      assert.deepEqual(errors, [], 'uncaught errors on the page');
    } finally {
      await context.close();
    }
  });
});
