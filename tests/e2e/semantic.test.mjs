// End-to-end test of the semantic strategies (the `semantic-model` select, the comparison
// worker's semantic rows, the embedding worker) on the release build, against the native core
// (crates/embed/examples/semantic_chunks.rs: each semantic strategy's sentence texts embedded
// natively by the same int8 model, cut by `run` on the text alone).
//
//  (a) semantic rows are off at first: the table lists the other strategies only and nothing
//      of the embedding runtime is fetched;
//  (b) the fixture at 512 / 64 tokens with potion-base-8M: the four semantic rows come, each
//      row's chunks and tokens equal the native core's, and so do the embedding calls its cost
//      line states (`compare-semantic-cost`);
//  (c) the product's own `semantic` in the chunk view (chosen while the model loads: the
//      panel says it waits for the embeddings, `semantic-waiting`): its figures equal the row, and the
//      similarity curve shows a point per sentence gap, the threshold and its cuts (topic
//      shifts and size cuts add up to the chunks);
//  (d) a new chunk size re-cuts without embedding again: no semantic text is fetched twice
//      (the embedding worker reports the same count of texts embedded);
//  (d2) other thresholds (`semantic-percentile`, `chonkie-threshold`) re-cut from the same
//      embeddings, equal to the native core at those thresholds, and go into the share link; a
//      box that holds no number says so and the rows are the libraries' defaults;
//  (e) off again: the table is the other strategies only; every request on the page's origin,
//      no page error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { launchBrowser, nativeEmbedExample, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.join(ROOT, 'tests/fixtures/moonstone-short.txt');
const MODELS = process.env.EMBED_MODELS_DIR ?? path.join(ROOT, 'target/models');
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');
const SEMANTIC = ['chonkie-semantic', 'langchain-semantic', 'llamaindex-semantic', 'semantic'];

/** The native core's semantic rows for `text` at `chunkSize` / `overlap` tokens. */
function nativeSemantic(text, chunkSize, overlap, model, breakpoints = undefined) {
  const request = {
    text, chunk_size: chunkSize, chunk_overlap: overlap, unit: 'tokens', encoding: 'cl100k_base', model, breakpoints,
  };
  return nativeEmbedExample('semantic_chunks', request, MODELS).rows;
}

/** Waits for a complete table of `rows` rows and reads every row's hooks and cost line. */
async function readTable(page, rows, timeout) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="compare"]:not(#prerendered *)')?.dataset.state === 'done'
      && document.querySelectorAll('[data-testid="compare-row"]:not(#prerendered *)').length === want,
    rows,
    { timeout },
  );
  return page.locator(sel('compare-row')).evaluateAll((els) => els.map((e) => {
    const cost = e.querySelector('[data-testid="compare-semantic-cost"]');
    return { ...e.dataset, embedding: cost ? { ...cost.dataset } : null };
  }));
}

const embedRuntime = (url) => /embed-worker\.js|embed-engine|\/models\//.test(url);

test('semantic rows equal the native core, with their curve, fetched only when asked for', { timeout: 600_000 }, async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);
    await page.locator(sel('chunk-size')).fill('512');
    await page.locator(sel('chunk-overlap')).fill('64');
    await typeText(page, fixtureText);

    // (a) Off: the other strategies only, nothing of the embedding runtime.
    assert.equal(await page.inputValue(sel('semantic-model')), 'off');
    const plain = await readTable(page, 17, 180_000);
    assert.ok(plain.every((r) => !SEMANTIC.includes(r.strategy)));
    assert.deepEqual(requests.filter(embedRuntime), [], 'the embedding runtime is not fetched');

    // (b) potion-base-8M: four more rows, equal to the native core's.
    const native = nativeSemantic(fixtureText, 512, 64, 'potion-base-8m');
    await page.selectOption(sel('semantic-model'), 'potion-base-8m');
    // Beside the table, the semantic rows say they wait for the model.
    await page.locator(sel('semantic-status')).waitFor({ timeout: 10_000 });
    // The product's own chosen at once: while its sentences are embedded, the panel says so
    // (the selection shares the table's batch instead of asking for the same texts again).
    await page.selectOption(sel('strategy'), 'semantic');
    await page.locator(sel('semantic-waiting')).waitFor({ timeout: 10_000 });
    const rows = await readTable(page, 21, 300_000);
    for (const want of native) {
      const row = rows.find((r) => r.strategy === want.strategy);
      assert.ok(row, `no compare-row for ${want.strategy}`);
      assert.equal(row.refused, undefined, `${want.strategy} refused: ${row.refused}`);
      assert.equal(Number(row.chunks), want.chunks, `${want.strategy}: chunks`);
      assert.equal(Number(row.totalTokens), want.total_tokens, `${want.strategy}: tokens`);
      assert.ok(row.embedding, `${want.strategy}: its cost line`);
      assert.equal(Number(row.embedding.texts), want.embedding_texts, `${want.strategy}: texts embedded`);
      assert.equal(Number(row.embedding.tokens), want.embedding_tokens, `${want.strategy}: tokens embedded`);
    }
    assert.ok(requests.some((r) => r.includes('models/potion-base-8m')), 'the model file was fetched');
    // The retrieval sweep can sweep them too while they are on.
    const sweepable = () => page.locator(`${sel('sweep-strategy')} option`).evaluateAll((os) => os.map((o) => o.value));
    const withSemantic = await sweepable();
    assert.ok(SEMANTIC.every((id) => withSemantic.includes(id)), `${withSemantic}`);
    console.log(`semantic rows on the fixture at 512 tokens: ${native.map((r) => `${r.strategy} ${r.chunks}`).join(', ')}`);

    // (c) The product's own in the chunk view, with its curve.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="semantic-curve"]:not(#prerendered *)') !== null,
      null,
      { timeout: 60_000 },
    );
    const own = native.find((r) => r.strategy === 'semantic');
    assert.equal(Number(await page.getAttribute(sel('strategy-figures'), 'data-chunks')), own.chunks);
    const curve = await page.locator(sel('semantic-curve')).evaluate((e) => ({ ...e.dataset }));
    assert.equal(curve.kind, 'distance');
    assert.ok(Number(curve.points) > 100, `points: ${curve.points}`);
    assert.ok(Number.isFinite(Number(curve.threshold)));
    assert.equal(Number(curve.cuts) + Number(curve.sizeCuts) + 1, own.chunks);
    assert.equal(await page.locator('[data-testid="semantic-curve"] svg[role="img"] polyline').count(), 1);
    // Its range and a key to its marks: the values, the threshold, topic-shift and size cuts.
    const axes = await page.locator(sel('semantic-curve-axes')).evaluate((e) => ({ ...e.dataset }));
    assert.ok(Number(axes.lo) <= Number(curve.threshold) && Number(curve.threshold) <= Number(axes.hi), JSON.stringify(axes));
    const keys = await page.locator(`${sel('semantic-curve-key')} li`).count();
    assert.equal(keys, 2 + (Number(curve.cuts) > 0) + (Number(curve.sizeCuts) > 0));

    // (d) Another size: cut again from the vectors held, nothing embedded again.
    const embedded = async () => Number(await page.getAttribute(sel('embed-status'), 'data-embedded'));
    await page.waitForFunction(() => document.querySelector('[data-testid="embed-status"]:not(#prerendered *)')?.dataset.state === 'ready', null, { timeout: 30_000 });
    const before = await embedded();
    assert.ok(before > 0, `texts embedded: ${before}`);
    await page.locator(sel('chunk-size')).fill('256');
    const again = nativeSemantic(fixtureText, 256, 64, 'potion-base-8m');
    const rows256 = await readTable(page, 21, 300_000);
    for (const want of again) {
      const row = rows256.find((r) => r.strategy === want.strategy);
      assert.equal(Number(row.chunks), want.chunks, `${want.strategy} at 256: chunks`);
    }
    assert.equal(await embedded(), before, 'nothing embedded again for another size');

    // (d2) Other thresholds: cut again from the same embeddings, as the native core cuts.
    // A table after an edit: its job first starts (the old table leaves `done`), then ends.
    const tableAfterEdit = async (edit) => {
      await edit();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="compare"]:not(#prerendered *)')?.dataset.state !== 'done',
        null,
        { timeout: 10_000 },
      );
      return readTable(page, 21, 300_000);
    };
    const equalRows = (got, want, what) => {
      for (const w of want) {
        const row = got.find((r) => r.strategy === w.strategy);
        assert.equal(row.refused, undefined, `${w.strategy} ${what} refused: ${row.refused}`);
        assert.equal(Number(row.chunks), w.chunks, `${w.strategy} ${what}: chunks`);
      }
    };
    const tried = nativeSemantic(fixtureText, 256, 64, 'potion-base-8m', { percentile: 60, chonkie_threshold: 0.5 });
    assert.ok(tried.find((r) => r.strategy === 'semantic').chunks > again.find((r) => r.strategy === 'semantic').chunks);
    await page.locator(sel('semantic-percentile')).fill('60');
    equalRows(
      await tableAfterEdit(() => page.locator(sel('chonkie-threshold')).fill('0,5')),
      tried,
      'at the 60th percentile',
    );
    assert.equal(await embedded(), before, 'nothing embedded again for another threshold');
    await page.waitForFunction(
      () => /semantic=potion-base-8m&semantic_percentile=60&chonkie_threshold=0%2C5/
        .test(document.querySelector('[data-testid="share-link"]')?.dataset.value ?? ''),
      null,
      { timeout: 10_000 },
    );
    // No number: said beside the box; the rows are the defaults again.
    const noNumber = await tableAfterEdit(() => page.locator(sel('semantic-percentile')).fill('high'));
    await page.locator(sel('semantic-percentile-error')).waitFor({ timeout: 10_000 });
    equalRows(noNumber, again.filter((r) => r.strategy !== 'chonkie-semantic'), 'with no number');
    // Out of range: said beside the box, and the rows that read it refuse it in words.
    const outOfRange = await tableAfterEdit(() => page.locator(sel('semantic-percentile')).fill('150'));
    assert.match(await page.locator(sel('semantic-percentile-error')).innerText(), /100/);
    for (const id of ['langchain-semantic', 'llamaindex-semantic', 'semantic']) {
      assert.equal(outOfRange.find((r) => r.strategy === id).refused, 'parameter-refused', id);
    }
    await page.locator(sel('semantic-percentile')).fill('95');
    equalRows(
      await tableAfterEdit(() => page.locator(sel('chonkie-threshold')).fill('0.8')),
      again,
      'back at the defaults',
    );
    assert.equal(await page.locator(sel('semantic-percentile-error')).count(), 0);

    // (e) Off again; same origin only; no page error.
    await page.selectOption(sel('semantic-model'), 'off');
    const off = await readTable(page, 17, 180_000);
    assert.ok(off.every((r) => !SEMANTIC.includes(r.strategy)));
    // The chunk view's semantic strategy went back to the default; the sweep lists none.
    assert.equal(await page.inputValue(sel('strategy')), 'fixed');
    assert.ok(!(await sweepable()).some((id) => SEMANTIC.includes(id)));
    const origin = new URL(url).origin;
    assert.deepEqual(requests.filter((r) => new URL(r).origin !== origin), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
