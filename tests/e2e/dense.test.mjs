// End-to-end test of dense and hybrid retrieval (src/embed, assets/embed-worker.js running
// crates/embed-engine, the comparison worker's dense rows) on the release build, against the
// native core (crates/embed/examples/dense_retrieval.rs: each strategy cut by `run` on the
// text alone, every text embedded natively by the same int8 model, ranked by `evaluate_dense`).
//
//  (a) nothing of the embedding runtime (its script, module or a model file) is fetched while
//      the retriever is BM25;
//  (b) the fixture with its 20 question/answer pairs (tests/fixtures/moonstone-qa.jsonl,
//      imported as a CSV file),
//      256 / 32 tokens, retriever "dense" with the static model potion-base-8M: every strategy
//      has a BM25, a dense and a hybrid `retrieval-row`, each row's figures (chunks, tokens
//      embedded, whole, hits@1/3/5, MRR, nDCG, mean recall / precision / IoU) equal the native
//      core's; the status line reports the model ready;
//  (c) all-MiniLM-L6-v2 on the fixture's first 1,500 characters with the pairs found there:
//      the dense and hybrid rows equal the native core's;
//  (d) the stop button stops the model: the status is off, the retriever BM25 again, one row a
//      strategy;
//  (e) every request stays on the page's own origin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { launchBrowser, nativeEmbedExample, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.join(ROOT, 'tests/fixtures/moonstone-short.txt');
const QA = path.join(ROOT, 'tests/fixtures/moonstone-qa.jsonl');
const MODELS = process.env.EMBED_MODELS_DIR ?? path.join(ROOT, 'target/models');
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');
const qaText = fs.readFileSync(QA, 'utf8');
const qa = qaText.trim().split('\n').map((l) => JSON.parse(l));

const STRATEGIES = ['fixed', 'sentence', 'recursive', 'markdown', 'section-budget', 'langchain-token',
  'langchain-recursive', 'langchain-markdown', 'langchain-markdown-language', 'llamaindex-sentence',
  'llamaindex-token', 'llamaindex-markdown', 'text-splitter', 'text-splitter-markdown', 'semchunk',
  'chonkie-token', 'chonkie-recursive'];

/** Byte span of the one occurrence of `answer` in `text`. */
function span(text, answer) {
  const at = text.indexOf(answer);
  assert.ok(at >= 0 && text.indexOf(answer, at + 1) < 0, `the answer must occur once: ${answer}`);
  const start = Buffer.byteLength(text.slice(0, at));
  return { start, end: start + Buffer.byteLength(answer) };
}

/** The native core's rows for `text`, the pairs found in it, and `model`. */
function nativeDense(text, pairs, model) {
  const request = {
    text,
    pairs: pairs.map((p) => ({ question: p.question, ...span(text, p.answer) })),
    chunk_size: 256, chunk_overlap: 32, unit: 'tokens', encoding: 'cl100k_base',
    k: 5, k1: 1.2, b: 0.75, lang: 'en', strategies: STRATEGIES, model,
  };
  return nativeEmbedExample('dense_retrieval', request, MODELS).rows;
}

/** Waits for a complete table of `rows` rows for every pair and reads them. */
async function readRows(page, rows, timeout) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="retrieval"]')?.dataset.state === 'done'
      && document.querySelectorAll('[data-testid="retrieval-row"]:not(#prerendered *)').length === want,
    rows,
    { timeout },
  );
  return page.locator(sel('retrieval-row')).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
}

/** Compares the page's rows with the native ones for the retrievers in `which`; the number compared. */
function compareRows(rows, native, which, what) {
  let compared = 0;
  for (const want of native.filter((r) => which.includes(r.retriever))) {
    const row = rows.find((r) => r.strategy === want.strategy && r.retriever === want.retriever);
    const name = `${what}: ${want.strategy} / ${want.retriever}`;
    assert.ok(row, `no retrieval-row for ${name}`);
    if (want.refused) {
      assert.equal(row.refused, want.refused, `${name}: refusal`);
      continue;
    }
    assert.equal(Number(row.chunks), want.chunks, `${name}: chunks`);
    assert.equal(Number(row.tokensEmbedded), want.tokens_embedded, `${name}: tokens embedded`);
    assert.equal(Number(row.wholeCount), want.whole, `${name}: whole`);
    assert.equal(Number(row['hitsAt-1']), want.hits_at_1, `${name}: hits@1`);
    assert.equal(Number(row['hitsAt-3']), want.hits_at_3, `${name}: hits@3`);
    assert.equal(Number(row['hitsAt-5']), want.hits_at_5, `${name}: hits@5`);
    assert.equal(Number(row.mrr), want.mrr, `${name}: MRR`);
    assert.equal(Number(row.ndcg), want.ndcg, `${name}: nDCG`);
    assert.equal(Number(row.meanRecall), want.mean_recall, `${name}: mean recall`);
    assert.equal(Number(row.meanPrecision), want.mean_precision, `${name}: mean precision`);
    assert.equal(Number(row.meanIou), want.mean_iou, `${name}: mean IoU`);
    compared += 1;
  }
  return compared;
}

const embedRuntime = (url) => /embed-worker\.js|embed-engine|\/models\//.test(url);

test('dense and hybrid retrieval equal the native core, fetched only when asked for', { timeout: 900_000 }, async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);
    await page.locator(sel('chunk-size')).fill('256');
    await page.locator(sel('chunk-overlap')).fill('32');
    await typeText(page, fixtureText);
    // The pairs as a CSV file (quoted cells, answers over two lines): read as the JSON Lines.
    const quote = (cell) => `"${cell.replaceAll('"', '""')}"`;
    const csv = ['question,answer', ...qa.map((p) => `${quote(p.question)},${quote(p.answer)}`)].join('\r\n');
    await page.setInputFiles(sel('qa-import'), { name: 'moonstone-qa.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="qa-pair"][data-state="ok"]').length === n, qa.length, { timeout: 10000 });

    // (a) BM25 alone: one row a strategy, and nothing of the embedding runtime fetched.
    const bm25 = await readRows(page, STRATEGIES.length, 180_000);
    assert.ok(bm25.every((r) => r.retriever === 'bm25'));
    assert.equal(await page.getAttribute(sel('embed-status'), 'data-state'), 'off');
    assert.deepEqual(requests.filter(embedRuntime), [], 'the embedding runtime is not fetched for BM25');

    // (b) Dense with the static model (the default).
    const native = nativeDense(fixtureText, qa, 'potion-base-8m');
    await page.selectOption(sel('retriever'), 'dense');
    assert.equal(await page.inputValue(sel('dense-model')), 'potion-base-8m');
    const rows = await readRows(page, 3 * STRATEGIES.length, 300_000);
    const compared = compareRows(rows, native, ['bm25', 'dense', 'hybrid'], 'potion-base-8M');
    assert.equal(compared, 3 * STRATEGIES.length);
    // The last progress report may come up to 100 ms after the last row.
    await page.waitForFunction(() => document.querySelector('[data-testid="embed-status"]:not(#prerendered *)')?.dataset.state === 'ready', null, { timeout: 10000 });
    assert.equal(await page.getAttribute(sel('embed-status'), 'data-model'), 'potion-base-8m');
    assert.ok(requests.some((r) => r.includes('models/potion-base-8m')), 'the model file was fetched');
    console.log(`dense retrieval rows equal to the native core (potion-base-8M): ${compared}`);

    // (c) The transformer on a short text: the pairs whose answers it holds.
    const short = fixtureText.slice(0, 1500);
    const shortPairs = qa.filter((p) => short.includes(p.answer));
    assert.ok(shortPairs.length >= 2, `pairs in the short text: ${shortPairs.length}`);
    const nativeMini = nativeDense(short, shortPairs, 'all-minilm-l6-v2');
    await page.selectOption(sel('dense-model'), 'all-minilm-l6-v2');
    await page.click(sel('qa-clear'));
    await typeText(page, short);
    const shortJsonl = shortPairs.map((p) => JSON.stringify(p)).join('\n') + '\n';
    await page.setInputFiles(sel('qa-import'), { name: 'short.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(shortJsonl, 'utf8') });
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="qa-pair"][data-state="ok"]').length === n
      && document.querySelectorAll('[data-testid="qa-pair"]').length === n, shortPairs.length, { timeout: 10000 });
    const miniRows = await readRows(page, 3 * STRATEGIES.length, 600_000);
    const comparedMini = compareRows(miniRows, nativeMini, ['dense', 'hybrid'], 'all-MiniLM-L6-v2');
    assert.equal(comparedMini, 2 * STRATEGIES.length);
    console.log(`dense retrieval rows equal to the native core (all-MiniLM-L6-v2): ${comparedMini}`);

    // (d) Stop: off, BM25 again, one row a strategy.
    await page.click(sel('embed-stop'));
    await page.waitForFunction(() => document.querySelector('[data-testid="embed-status"]:not(#prerendered *)')?.dataset.state === 'off', null, { timeout: 10000 });
    assert.equal(await page.inputValue(sel('retriever')), 'bm25');
    const after = await readRows(page, STRATEGIES.length, 180_000);
    assert.ok(after.every((r) => r.retriever === 'bm25'));

    // (e) Same origin only, and no page error.
    const origin = new URL(url).origin;
    assert.deepEqual(requests.filter((r) => new URL(r).origin !== origin), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
