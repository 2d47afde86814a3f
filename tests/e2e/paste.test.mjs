// End-to-end test of when counting starts (src/tokenize/schedule.rs, `start_delay`): typing in a
// long text may wait for a pause (the debounce), a paste, a drop or a file never does (issue 11).
// The status hook's data-debounced says which way the newest count was started ("true": it
// waited; "false": at once). On the root build, with the fixture (114 KB, over the 64 KiB a
// typed text is counted at once up to):
//  - a paste through the clipboard (Ctrl+V, the browser's own paste: a trusted paste event, as
//    a user's) is counted at once, and gets the same count as the same text typed;
//  - a text typed (an input event without inputType, as a script's edit) is debounced;
//  - a file dropped on the box and a file chosen with the file input are counted at once;
//  - another encoding for the same text is counted at once.
// How long anything takes is measured by `make bench`, not asserted here.
//
// Environment (optional): E2E_DIST (the build to serve), E2E_FIXTURE, E2E_NATIVE_COUNTS (the
// native core's counts of the fixture; checked when given), CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { countOf, launchBrowser, pasteText, sel, typeText, waitForAttr } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));

const APP_START_MS = 60_000;
const TOKENIZE_MS = 120_000;

/** Clears the text and waits until the page holds none. */
async function clear(page) {
  await page.locator(sel('clear-text')).click();
  assert.ok(await waitForAttr(page, 'status', 'data-bytes', '0', TOKENIZE_MS), 'the text was not cleared');
}

let browser;
let server;
let url;
let fixture;
let bytes;

before(async () => {
  fixture = readFileSync(FIXTURE, 'utf8');
  bytes = Buffer.byteLength(fixture, 'utf8');
  assert.ok(bytes > 64 * 1024, `the fixture (${bytes} bytes) must be longer than the 64 KiB counted at once when typed`);
  browser = await launchBrowser();
  const started = await startStaticServer({ root: DIST, prefix: '/' });
  server = started.server;
  url = started.url;
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

describe('a paste, a drop or a file is counted at once; only typing waits', () => {
  test('paste (Ctrl+V), typing, drop, file input and a new encoding', async (t) => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    try {
      await page.goto(url, { waitUntil: 'load' });
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
      assert.ok(await waitForAttr(page, 'status', 'data-worker', 'true', APP_START_MS), 'the tokenizer worker did not start');

      // The browser's own paste: the page sees a trusted paste event.
      const pasteKinds = [];
      await page.evaluate(() => {
        window.__pasteEvents = [];
        document.addEventListener('paste', (e) => window.__pasteEvents.push(e.isTrusted), true);
      });
      await pasteText(page, fixture);
      const pasted = await countOf(page, bytes);
      pasteKinds.push(...(await page.evaluate(() => window.__pasteEvents)));
      assert.deepEqual(pasteKinds, [true], 'Ctrl+V did not fire one trusted paste event');
      t.diagnostic(`paste: ${pasted.tokens} tokens, data-debounced=${pasted.debounced}`);
      assert.equal(pasted.debounced, 'false', 'the paste waited for the debounce');
      if (process.env.E2E_NATIVE_COUNTS) {
        const native = JSON.parse(process.env.E2E_NATIVE_COUNTS);
        assert.equal(pasted.tokens, native.cl100k_base, "the pasted text's count differs from the native core's");
      }

      // Typed: the same text, counted after the debounce, to the same count.
      await clear(page);
      await typeText(page, fixture);
      const typed = await countOf(page, bytes);
      assert.equal(typed.debounced, 'true', 'typing a long text was not debounced');
      assert.equal(typed.tokens, pasted.tokens, 'typed and pasted, the same text got different counts');

      // A new encoding for the same text: at once.
      await page.locator(sel('tokenizer')).selectOption('o200k_base');
      await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent.includes('o200k_base'), null, {
        timeout: TOKENIZE_MS,
      });
      const reencoded = await countOf(page, bytes);
      assert.equal(reencoded.debounced, 'false', 'a new encoding waited for the debounce');
      await page.locator(sel('tokenizer')).selectOption('cl100k_base');

      // A file dropped on the box.
      await clear(page);
      await page.evaluate(
        ([boxSel, text]) => {
          const data = new DataTransfer();
          data.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }));
          document.querySelector(boxSel).dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        },
        [sel('text-input'), fixture],
      );
      const dropped = await countOf(page, bytes);
      assert.equal(dropped.debounced, 'false', 'a dropped file waited for the debounce');
      assert.equal(dropped.tokens, pasted.tokens, 'dropped and pasted, the same text got different counts');

      // A file chosen with the file input.
      await clear(page);
      await page.locator(sel('file-input')).setInputFiles({ name: 'chosen.txt', mimeType: 'text/plain', buffer: Buffer.from(fixture) });
      const chosen = await countOf(page, bytes);
      assert.equal(chosen.debounced, 'false', 'a chosen file waited for the debounce');
      assert.equal(chosen.tokens, pasted.tokens, 'chosen and pasted, the same text got different counts');

      assert.deepEqual(errors, [], 'page errors');
    } finally {
      await context.close();
    }
  });
});
