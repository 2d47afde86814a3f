// End-to-end test of the settings link (src/share) on the release build:
//  (a) a link restores every field it names (the calculator's boxes, the tokenizer, the model,
//      the model panel, the comparison's strategy and unit, the language), and a key it does not
//      know or a value the field refuses is left out and named in a quiet notice;
//  (b) the page writes its settings back into the address after a pause, the copy-link button
//      carries that address, and Back / Forward move between the settings the user made
//      (restoring the boxes), not between keystrokes;
//  (c) the pasted text never reaches the address, the history or storage;
//  (d) a malformed fragment opens the page without an error.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist-e2e');

const hashOf = (page) => page.evaluate(() => location.hash);

/** Waits until the address holds `key=value` (the page writes it 700 ms after the last change). */
async function waitHash(page, key, value) {
  await page.waitForFunction(
    ([k, v]) => new URLSearchParams(location.hash.slice(1)).get(k) === v,
    [key, value],
    { timeout: 10000 },
  );
}

test('a link restores the settings; the address follows them; Back and Forward step through them', async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    // (a)
    const link =
      `${url}#v=1&lang=pl&doc_length=20000&doc_unit=tokens&chunk_size=256&chunk_overlap=32&encoding=o200k_base` +
      '&model=voyage-3-5&strategy=semchunk&size_unit=characters&top_k=7&context_window=32768&vector_format=int8' +
      '&price=0.06&colour=red&dimensions=lots' +
      '&sim_size=85&sim_overlap=15&sim_mode=sentence&sim_document=uneven&sim_tokenizer=cl100k_base&sim_rule=contextual';
    const { page, errors } = await openReadyPage(browser, link);
    assert.equal(await page.inputValue(sel('chunk-size')), '256');
    assert.equal(await page.inputValue(sel('chunk-overlap')), '32');
    assert.equal(await page.inputValue(sel('doc-length')), '20000');
    assert.equal(await page.inputValue(sel('tokenizer')), 'o200k_base');
    assert.equal(await page.inputValue(sel('embedding-model')), 'voyage-3-5');
    assert.equal(await page.inputValue(sel('price')), '0.06');
    assert.equal(await page.inputValue(sel('top-k')), '7');
    assert.equal(await page.inputValue(sel('context-window')), '32768');
    assert.equal(await page.inputValue(sel('vector-format')), 'int8');
    assert.equal(await page.inputValue(sel('strategy')), 'semchunk');
    assert.equal(await page.inputValue(sel('chunk-size-unit')), 'characters');
    assert.equal(await page.inputValue(sel('language')), 'pl');
    // The simulator's controls.
    assert.equal(await page.inputValue(sel('sim-size')), '85');
    assert.equal(await page.inputValue(sel('sim-overlap')), '15');
    assert.equal(await page.inputValue(sel('sim-mode')), 'sentence');
    assert.equal(await page.inputValue(sel('sim-preset')), 'uneven');
    assert.equal(await page.inputValue(sel('sim-tokenizer')), 'cl100k_base');
    assert.equal(await page.inputValue(sel('sim-rule')), 'contextual');
    // The words follow once the Polish messages have arrived (fetched: src/i18n/bundle.rs).
    await page.waitForFunction(() => document.documentElement.lang === 'pl', null, { timeout: 30_000 });
    // The figures follow, in the link's unit (characters): 20,000 tokens are taken as 80,000
    // characters, at 256 / 32 characters → 1 + ⌈(80,000 − 256) / 224⌉ = 357 windows.
    assert.equal(await page.getAttribute(sel('out-chunks'), 'data-value'), '357');
    assert.equal(await page.getAttribute(sel('results-formula-note'), 'data-unit'), 'characters');
    assert.equal(await page.getAttribute(sel('share-notice'), 'data-keys'), 'colour, dimensions');
    assert.match(await page.textContent(sel('share-notice')), /colour, dimensions/);
    // The field a refused value was meant for keeps the page's own (1,536: a link applies
    // values, it does not replay the model select's side effects).
    assert.equal(await page.inputValue(sel('dimensions')), '1536');

    // (b) The address is rewritten (the opening entry replaced) with what the page holds.
    await waitHash(page, 'dimensions', '1536');
    const opened = await page.evaluate(() => history.length);
    assert.equal(await page.getAttribute(sel('share-link'), 'data-value'), await page.evaluate(() => location.href));
    // Two edits, each followed by a pause: two entries. The keystrokes of one edit: none more.
    await page.fill(sel('chunk-size'), '3');
    await page.fill(sel('chunk-size'), '30');
    await page.fill(sel('chunk-size'), '300');
    await waitHash(page, 'chunk_size', '300');
    await page.fill(sel('chunk-overlap'), '40');
    await waitHash(page, 'chunk_overlap', '40');
    assert.equal(await page.evaluate(() => history.length), opened + 2);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('[data-testid="chunk-overlap"]')?.value === '32', null, { timeout: 10000 });
    assert.equal(await page.inputValue(sel('chunk-size')), '300');
    assert.equal(new URLSearchParams((await hashOf(page)).slice(1)).get('chunk_overlap'), '32');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('[data-testid="chunk-size"]')?.value === '256', null, { timeout: 10000 });
    await page.goForward();
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('[data-testid="chunk-overlap"]')?.value === '40', null, { timeout: 10000 });
    assert.equal(await page.inputValue(sel('chunk-size')), '300');
    // Going back and forth made no new entry.
    assert.equal(await page.evaluate(() => history.length), opened + 2);

    // The copy-link button: the clipboard holds the address.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click(sel('share-link'));
    await page.waitForFunction(() => document.querySelector('[data-testid="share-status"]')?.dataset.state === 'copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.evaluate(() => location.href));

    // (c) A text: never in the address, the history state or storage.
    const secret = 'Zanzibar quokka manifesto 4471.';
    await typeText(page, secret.repeat(20));
    await page.fill(sel('chunk-size'), '310');
    await waitHash(page, 'chunk_size', '310');
    const where = await page.evaluate(() => ({
      href: location.href,
      state: JSON.stringify(history.state),
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
    }));
    for (const [k, v] of Object.entries(where)) assert.ok(!v.includes('quokka'), `the text is in ${k}: ${v}`);
    assert.deepEqual(errors, []);

    // (d) A malformed fragment: the page opens, with the defaults.
    const bad = await openReadyPage(browser, `${url}#%zz&chunk_size=%FF%FE&=&lang=xx&&v=2`);
    assert.equal(await bad.page.inputValue(sel('chunk-size')), '512');
    assert.equal(await bad.page.getAttribute(sel('share-notice'), 'data-keys'), '%zz, chunk_size, lang');
    assert.deepEqual(bad.errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
