// End-to-end test of the embedding-model choice (src/model, chunk_core::models) on the release
// build. Expected values are worked out here by hand from the model table's published figures
// and the SPEC §2 formula, not read back from the page:
//  (a) the default model is text-embedding-3-small: exact cl100k_base counts, limit 8,191 tokens,
//      nothing over it at 512 / 64 on 10,000 tokens, 1,536 dimensions;
//  (b) all-MiniLM-L6-v2: chunk figures are estimates (chunks are cut with cl100k_base), limit 256
//      minus [CLS] and [SEP] = 254, so 22 of the 23 windows are over it; price cleared; storage
//      23 × 384 × 4 bytes, and for 1,000 documents; binary storage ⌈384 / 8⌉ bytes a vector;
//  (c) context fit: 5 × 512 + 500 + 1,000 = 4,060 of 131,072 tokens, largest top-k 253; a
//      4,000-token window does not fit 5 chunks and fits 4;
//  (d) voyage-3.5 sets the price (0.06): corpus cost 11,408 × 1,000 tokens × 0.06 / 10⁶;
//  (e) the comparison's over-limit column follows the model and counts with its own tokenizer:
//      the fixed windows (LangChain's TokenTextSplitter cuts the same windows of this English
//      text) whose WordPiece count plus [CLS] and [SEP] is over 256, by Hugging Face
//      `tokenizers`; 0 with text-embedding-3-small;
//  (f) a bad field gets its message and blanks only its own figure;
//  (g) all-MiniLM-L6-v2's own WordPiece tokenizer and multilingual-e5-large's XLM-RoBERTa
//      Unigram count the pasted fixture exactly: the page's figure equals Hugging Face
//      `tokenizers` (the oracle venv's, CHUNK_ORACLE_PYTHON) on the same text, and their files
//      are the only requests after start, each made once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { huggingFaceCounts, libraryChunks } from './oracle.mjs';
import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.join(ROOT, 'tests/fixtures/moonstone-short.txt');

/** Hugging Face `tokenizers`' count of `text` (no special tokens) with `vocab`'s tokenizer. */
function huggingFaceCount(vocab, text) {
  return huggingFaceCounts(vocab, [text])[0];
}

/** Waits until the table is complete and every row with figures was counted with the model's
 * own tokenizer (both comparison workers hold its vocabulary). */
async function rowsCountedByTheModel(page) {
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid="compare-row"][data-chunks]')];
    return document.querySelector('[data-testid="compare"]')?.dataset.state === 'done'
      && rows.length > 0 && rows.every((r) => r.dataset.limitBasis === 'own');
  }, null, { timeout: 120000 });
}

async function value(page, testid) {
  return page.getAttribute(sel(testid), 'data-value');
}

async function waitValue(page, testid, want) {
  await page.waitForFunction(
    ([s, w]) => document.querySelector(s)?.getAttribute('data-value') === w,
    [sel(testid), String(want)],
    { timeout: 10000 },
  );
}

test('the embedding model sets the tokenizer, limit, price and dimensions, and its figures', async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);

    // (a) The default: the calculator's own defaults (10,000 tokens, 512 / 64, 0.02, cl100k_base).
    assert.equal(await page.inputValue(sel('embedding-model')), 'openai-text-embedding-3-small');
    assert.equal(await page.getAttribute(sel('model-note'), 'data-estimate'), 'false');
    assert.equal(await value(page, 'out-model-limit'), '8191');
    assert.equal(await value(page, 'out-over-limit'), '0');
    assert.equal(await page.inputValue(sel('dimensions')), '1536');
    assert.equal(await value(page, 'out-storage-bytes'), String(23 * 1536 * 4));

    // The tokenizer set by hand to another encoding than the model's: an estimate, said so.
    await page.selectOption(sel('tokenizer'), 'o200k_base');
    await page.waitForFunction(() => document.querySelector('[data-testid="model-note"]')?.dataset.estimate === 'true', null, { timeout: 10000 });
    assert.match(await page.textContent(sel('model-note')), /own tokenizer is cl100k_base, but the tokenizer below is set to o200k_base/);
    assert.equal(await page.getAttribute(sel('model-panel'), 'data-estimate'), 'true');
    // Choosing the model again sets its own tokenizer back, in the select too.
    await page.selectOption(sel('embedding-model'), 'openai-text-embedding-3-large');
    await page.selectOption(sel('embedding-model'), 'openai-text-embedding-3-small');
    assert.equal(await page.inputValue(sel('tokenizer')), 'cl100k_base');
    assert.equal(await page.getAttribute(sel('model-note'), 'data-estimate'), 'false');

    // multilingual-e5-large: 512 − [CLS]/[SEP] 2 − the four cl100k_base tokens of "passage: "
    // ("pass", "age", ":", " ") = 506.
    await page.selectOption(sel('embedding-model'), 'multilingual-e5-large');
    await waitValue(page, 'out-model-limit', 506);

    // (b) all-MiniLM-L6-v2.
    await page.selectOption(sel('embedding-model'), 'all-minilm-l6-v2');
    await waitValue(page, 'out-model-limit', 254);
    assert.equal(await page.getAttribute(sel('model-note'), 'data-estimate'), 'true');
    assert.equal(await page.inputValue(sel('tokenizer')), 'cl100k_base', 'no BPE of its own: the tokenizer stays');
    assert.equal(await page.inputValue(sel('price')), '', 'an open model has no per-token price');
    assert.equal(await value(page, 'out-cost'), '');
    // 23 windows: 22 of 512 tokens and the last of 144 (SPEC §2), so 22 are over 254.
    assert.equal(await value(page, 'out-over-limit'), '22');
    assert.equal(await page.inputValue(sel('dimensions')), '384');
    assert.equal(await value(page, 'out-storage-bytes'), String(23 * 384 * 4));
    assert.equal(await value(page, 'out-corpus-storage-bytes'), String(23 * 384 * 4 * 1000));
    await page.selectOption(sel('vector-format'), 'binary');
    await waitValue(page, 'out-storage-bytes', 23 * Math.ceil(384 / 8));
    await page.selectOption(sel('vector-format'), 'float32');

    // (c) Context fit at the defaults: top-k 5, prompt 500, answer 1,000, window 131,072.
    assert.equal(await value(page, 'out-context-fit'), String(Math.floor((131072 - 1500) / 512)));
    assert.equal(await page.getAttribute(sel('out-context-fit'), 'data-used-tokens'), String(5 * 512 + 1500));
    assert.equal(await page.getAttribute(sel('out-context-fit'), 'data-fits'), 'true');
    await page.fill(sel('context-window'), '4000');
    await waitValue(page, 'out-context-fit', Math.floor((4000 - 1500) / 512));
    assert.equal(await page.getAttribute(sel('out-context-fit'), 'data-fits'), 'false', '5 × 512 + 1,500 = 4,060 > 4,000');

    // (f) A bad field: its message, its figure blank, the others kept.
    await page.fill(sel('top-k'), '0');
    await waitValue(page, 'out-context-fit', '');
    assert.match(await page.textContent('#top-k-error'), /1/);
    assert.equal(await value(page, 'out-model-limit'), '254');
    await page.fill(sel('top-k'), '5');
    await page.fill(sel('context-window'), '131072');

    // (d) voyage-3.5: its price is set (editable), so the corpus cost shows.
    await page.selectOption(sel('embedding-model'), 'voyage-3-5');
    await waitValue(page, 'out-model-limit', 32000);
    assert.equal(await page.inputValue(sel('price')), '0.06');
    const cost = Number(await value(page, 'out-corpus-cost'));
    assert.ok(Math.abs(cost - (11408 * 1000 * 0.06) / 1e6) < 1e-9, `corpus cost ${cost}`);

    // (e) The comparison's over-limit column follows the model, counted with its own tokenizer.
    await page.selectOption(sel('embedding-model'), 'all-minilm-l6-v2');
    await typeText(page, fs.readFileSync(FIXTURE, 'utf8'));
    await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.state === 'done', null, { timeout: 120000 });
    // (g) The document counted with the model's own tokenizer, fetched on demand.
    const fixture = fs.readFileSync(FIXTURE, 'utf8');
    await page.waitForFunction(() => document.querySelector('[data-testid="model-vocab-status"]')?.dataset.state === 'counted', null, { timeout: 60000 });
    assert.equal(await page.getAttribute(sel('model-vocab-status'), 'data-vocab'), 'bert-uncased');
    assert.equal(Number(await value(page, 'out-model-tokens')), huggingFaceCount('bert-uncased', fixture));
    assert.match(await page.textContent(sel('model-note')), /counts the whole document exactly/);
    await rowsCountedByTheModel(page);
    // Once by each comparison worker (the main one and the one that runs text-splitter's
    // rows), each of which counts its rows with it.
    const vocabRequests = requests.splice(0).filter((u) => new URL(u).pathname.endsWith('/vocab/bert-base-uncased.txt'));
    assert.ok(vocabRequests.length >= 1 && vocabRequests.length <= 2, `the vocabulary is fetched once per worker: ${vocabRequests.length}`);
    const fixed = await page.locator(`${sel('compare-row')}[data-strategy="fixed"]`).evaluate((e) => ({ ...e.dataset }));
    const docTokens = Number(await value(page, 'out-doc-tokens'));
    const chunks = 1 + Math.ceil((docTokens - 512) / 448);
    assert.equal(Number(fixed.chunks), chunks);
    const [windows] = libraryChunks(fixture, [{ strategy: 'langchain-token', chunk_size: 512, chunk_overlap: 64, unit: 'tokens', encoding: 'cl100k_base' }]);
    assert.equal(windows.chunks.length, chunks, 'the same windows');
    const read = huggingFaceCounts('bert-uncased', windows.chunks.map((c) => c.text)).map((n) => n + 2);
    assert.equal(Number(fixed.overLimit), read.filter((n) => n > 256).length);
    assert.equal(Number(fixed.modelMaxTokens), Math.max(...read));
    assert.match(await page.textContent(sel('compare')), /sentence-transformers\/all-MiniLM-L6-v2 reads as more than 256 tokens/);
    await page.selectOption(sel('embedding-model'), 'openai-text-embedding-3-small');
    assert.equal(await page.locator(sel('out-model-tokens')).count(), 0, 'no own count for a BPE model');
    await page.waitForFunction(() => {
      const row = document.querySelector('[data-testid="compare-row"][data-strategy="fixed"]');
      return document.querySelector('[data-testid="compare"]')?.dataset.state === 'done' && row?.dataset.overLimit === '0';
    }, null, { timeout: 120000 });

    // multilingual-e5-large: XLM-RoBERTa's Unigram, a 4 MB file, fetched when chosen.
    await page.selectOption(sel('embedding-model'), 'multilingual-e5-large');
    await page.waitForFunction(() => {
      const s = document.querySelector('[data-testid="model-vocab-status"]');
      return s?.dataset.vocab === 'xlm-roberta' && s.dataset.state === 'counted';
    }, null, { timeout: 60000 });
    assert.equal(Number(await value(page, 'out-model-tokens')), huggingFaceCount('xlm-roberta', fixture));
    await rowsCountedByTheModel(page);
    const unigramRequests = requests.splice(0).filter((u) => new URL(u).pathname.endsWith('/vocab/xlm-roberta.unigram'));
    assert.ok(unigramRequests.length >= 1 && unigramRequests.length <= 2, `the Unigram file is fetched once per worker: ${unigramRequests.length}`);
    // Back to all-MiniLM-L6-v2: counted again without a second fetch.
    await page.selectOption(sel('embedding-model'), 'all-minilm-l6-v2');
    await page.waitForFunction(() => {
      const s = document.querySelector('[data-testid="model-vocab-status"]');
      return s?.dataset.vocab === 'bert-uncased' && s.dataset.state === 'counted';
    }, null, { timeout: 60000 });
    assert.equal(Number(await value(page, 'out-model-tokens')), huggingFaceCount('bert-uncased', fixture));
    await rowsCountedByTheModel(page);

    assert.deepEqual(requests, [], 'no other request after the workers started');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
