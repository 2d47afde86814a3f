// End-to-end test of the page's one configuration (SPEC §10) on the release build: the strategy,
// the unit and the model chosen drive the results card and the model panel, not fixed
// cl100k_base windows. Expected values come from the libraries themselves and from Hugging Face
// `tokenizers`, run in the oracle venv (tests/e2e/oracle.mjs), never from the page:
//  (a) bge-small-en-v1.5 chosen, LangChain's RecursiveCharacterTextSplitter at 512 / 64 sized
//      in cl100k_base on the pasted fixture: its row's over-limit count, and the model panel's
//      once it is the chosen strategy, equal the count of the library's chunks whose WordPiece
//      tokens plus [CLS] and [SEP] exceed 512; the largest and the tokens dropped too; each
//      chunk card says how many tokens the model drops;
//  (b) in characters, 1000 / 200, the results card follows the library's chunks: chunk count,
//      tokens embedded (tiktoken's count of each chunk), its badge names the library and the
//      tokenizer, the labels name the unit; storage is chunks × 384 dimensions × 4 bytes;
//      context fit uses the largest real chunk;
//  (c) at 1440 px, in Russian and in Polish (the longest headers), every column of the
//      comparison table is in view without scrolling, "over the model limit" included;
//  (d) fixed token windows that cut characters (20 / 5 over emoji and CJK): the results card,
//      the "Fixed token windows" row and the chosen strategy's figures give the same tokens
//      embedded and repeated, each window's text counted again as the embedding API counts it;
//      the total equals LangChain's TokenTextSplitter (the same windows, decoded by tiktoken)
//      re-encoded by tiktoken;
//  (e) with no text the card is the formula again, and says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { huggingFaceCounts, libraryChunks } from './oracle.mjs';
import { chooseLanguage, launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const DIST = process.env.E2E_DIST ?? path.resolve(import.meta.dirname, '../../dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.resolve(import.meta.dirname, '../fixtures/moonstone-short.txt');
const fixture = fs.readFileSync(FIXTURE, 'utf8');

const value = (page, testid) => page.getAttribute(sel(testid), 'data-value');

/** Waits until `testid`'s data-value is `want`, and says what it was when it is not. */
async function waitValue(page, testid, want, timeout = 60000) {
  try {
    await page.waitForFunction(
      ([s, w]) => document.querySelector(s)?.getAttribute('data-value') === w,
      [sel(testid), String(want)],
      { timeout },
    );
  } catch (err) {
    assert.equal(await value(page, testid), String(want), `${testid}: ${err.message}`);
  }
}

async function tableDone(page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="compare"]')?.dataset.state === 'done',
    null,
    { timeout: 120000 },
  );
}

test('the strategy, unit and model chosen drive the results card and the model panel', async (t) => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors } = await openReadyPage(browser, url);
    await page.selectOption(sel('embedding-model'), 'bge-small-en-v1-5');
    // Sized in cl100k_base, as the user did (the model's own tokens are (f)).
    await page.selectOption(sel('size-tokenizer'), 'cl100k_base');
    await page.fill(sel('chunk-size'), '512');
    await page.fill(sel('chunk-overlap'), '64');
    assert.equal(await page.getAttribute(sel('results'), 'data-source'), 'formula');
    assert.equal(await page.getAttribute(sel('results-badge'), 'data-exact'), 'false', 'an open model counted in cl100k_base');
    await typeText(page, fixture);

    // (a) The library's chunks, each counted by the model's own tokenizer with its two
    // special tokens, against its 512-token input.
    const [lib] = libraryChunks(fixture, [{ strategy: 'langchain-recursive', chunk_size: 512, chunk_overlap: 64, unit: 'tokens', encoding: 'cl100k_base' }]);
    assert.equal(lib.error, undefined, `the library raised: ${lib.error}`);
    const read = huggingFaceCounts('bert-uncased', lib.chunks.map((c) => c.text)).map((n) => n + 2);
    const over = read.filter((n) => n > 512).length;
    const dropped = read.reduce((sum, n) => sum + Math.max(0, n - 512), 0);
    t.diagnostic(`langchain-recursive 512/64: ${lib.chunks.length} chunks, ${over} over bge-small's 512 tokens, largest ${Math.max(...read)}`);
    await tableDone(page);
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-row"][data-strategy="langchain-recursive"]')?.dataset.limitBasis === 'own', null, { timeout: 60000 });
    const row = await page.locator(`${sel('compare-row')}[data-strategy="langchain-recursive"]`).evaluate((e) => ({ ...e.dataset }));
    assert.equal(Number(row.chunks), lib.chunks.length);
    assert.equal(Number(row.overLimit), over, 'the row counts with the model tokenizer');
    assert.equal(Number(row.modelMaxTokens), Math.max(...read));
    assert.equal(Number(row.truncatedTokens), dropped);

    await page.selectOption(sel('strategy'), 'langchain-recursive');
    await waitValue(page, 'out-over-limit', over);
    assert.equal(await page.getAttribute(sel('out-over-limit'), 'data-basis'), 'own');
    assert.equal(await value(page, 'out-model-max-tokens'), String(Math.max(...read)));
    assert.equal(await value(page, 'out-truncated-tokens'), String(dropped));
    assert.equal(await page.getAttribute(sel('model-limit-basis'), 'data-basis'), 'own');
    // The first chunk cards say what the model reads of each.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chunk-model"]').length > 0, null, { timeout: 30000 });
    const cards = await page.locator(sel('chunk-model')).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
    cards.forEach((c, i) => {
      assert.equal(Number(c.modelTokens), read[i], `chunk ${i}: model tokens`);
      assert.equal(Number(c.dropped), Math.max(0, read[i] - 512), `chunk ${i}: tokens dropped`);
    });

    // (b) Characters, 1000 / 200 (LangChain's defaults): the card is the library's chunks.
    await page.selectOption(sel('chunk-size-unit'), 'characters');
    await page.fill(sel('chunk-size'), '1000');
    await page.fill(sel('chunk-overlap'), '200');
    const [chars] = libraryChunks(fixture, [{ strategy: 'langchain-recursive', chunk_size: 1000, chunk_overlap: 200, unit: 'characters', encoding: 'cl100k_base' }]);
    assert.equal(chars.error, undefined, `the library raised: ${chars.error}`);
    const tokens = chars.chunks.reduce((sum, c) => sum + c.tokens, 0);
    // Both figures at once: a setting on the way (1000 / 64) is not read by mistake.
    await page.waitForFunction(
      ([s, n, total]) => {
        const card = document.querySelector('[data-testid="results"]:not(#prerendered *)');
        const v = (id) => document.querySelector(`[data-testid="${id}"]:not(#prerendered *)`)?.dataset.value;
        return card?.dataset.source === 'strategy' && v('out-chunks') === n && v('out-total-tokens') === total && v(s) !== '';
      },
      ['out-last-chunk', String(chars.chunks.length), String(tokens)],
      { timeout: 60000 },
    );
    assert.equal(await page.getAttribute(sel('results'), 'data-strategy'), 'langchain-recursive');
    assert.equal(await value(page, 'out-total-tokens'), String(tokens));
    assert.equal(await value(page, 'out-last-chunk'), String(chars.chunks.at(-1).tokens));
    assert.match(await page.textContent(sel('results-badge')), /langchain-text-splitters 1\.1\.3; tokens counted with cl100k_base/);
    assert.match(await page.textContent('label[for="chunk-size"]'), /characters/);
    assert.match(await page.textContent('label[for="chunk-overlap"]'), /characters/);
    await waitValue(page, 'out-storage-bytes', chars.chunks.length * 384 * 4);
    const charRead = huggingFaceCounts('bert-uncased', chars.chunks.map((c) => c.text)).map((n) => n + 2);
    await waitValue(page, 'out-over-limit', charRead.filter((n) => n > 512).length);
    // Context fit: top-k 5 of the largest chunk (tiktoken's count: what the LLM is sent)
    // + prompt 500 + answer 1,000.
    const largest = Math.max(...chars.chunks.map((c) => c.tokens));
    assert.equal(await page.getAttribute(sel('out-context-fit'), 'data-used-tokens'), String(5 * largest + 1500));
    t.diagnostic(`langchain-recursive 1000/200 characters: ${chars.chunks.length} chunks, ${tokens} tokens embedded`);

    // (c) A laptop screen in the languages with the longest headers: no column is hidden.
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const lang of ['ru', 'pl']) {
      await chooseLanguage(page, lang);
      await tableDone(page);
      const fit = await page.evaluate(() => {
        const table = document.querySelector('[data-testid="compare-table"]');
        const box = table.closest('.table-scroll');
        const right = box.getBoundingClientRect().right;
        return {
          scroll: box.scrollWidth - box.clientWidth,
          hidden: [...table.querySelectorAll('thead th')]
            .filter((th) => th.getBoundingClientRect().right > right + 0.5)
            .map((th) => th.textContent.trim()),
        };
      });
      assert.deepEqual(fit, { scroll: 0, hidden: [] }, `${lang}: every column in view at 1440 px`);
      // The rows, built before the language's words arrived, are built again in them (the
      // rows are keyed by the language shown).
      if (lang === 'ru') {
        const names = await page.locator(sel('compare-pick')).allTextContents();
        assert.ok(names.some((n) => /[А-Яа-яЁё]/.test(n)), `the strategy names are in Russian: ${names.join(', ')}`);
      }
    }
    await chooseLanguage(page, 'en');

    // (d) Windows that cut characters: one definition of tokens embedded on the whole page.
    const cut = 'Привет мир 👨‍👩‍👧‍👦 日本語テキスト。'.repeat(40);
    await page.selectOption(sel('chunk-size-unit'), 'tokens');
    await page.selectOption(sel('strategy'), 'fixed');
    await page.fill(sel('chunk-size'), '20');
    await page.fill(sel('chunk-overlap'), '5');
    await typeText(page, cut);
    const [windows] = libraryChunks(cut, [{ strategy: 'langchain-token', chunk_size: 20, chunk_overlap: 5, unit: 'tokens', encoding: 'cl100k_base' }]);
    assert.equal(windows.error, undefined, `the library raised: ${windows.error}`);
    const embedded = windows.chunks.reduce((sum, c) => sum + c.tokens, 0);
    await page.waitForFunction(
      ([n, total]) => {
        const v = (id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value');
        return document.querySelector('[data-testid="results"]')?.dataset.source === 'strategy'
          && v('out-chunks') === n && v('out-total-tokens') === total;
      },
      [String(windows.chunks.length), String(embedded)],
      { timeout: 60000 },
    ).catch(async (err) => assert.equal(await value(page, 'out-total-tokens'), String(embedded), `results card: ${err.message}`));
    await tableDone(page);
    const fixedRow = await page.locator(`${sel('compare-row')}[data-strategy="fixed"]`).evaluate((e) => ({ ...e.dataset }));
    assert.equal(Number(fixedRow.totalTokens), embedded, 'the Fixed token windows row');
    assert.equal(await value(page, 'out-repeated-tokens'), fixedRow.repeatedTokens, 'repeated tokens: card and row');
    assert.equal(await page.getAttribute(sel('results'), 'data-strategy'), 'fixed');
    assert.ok(await page.locator(sel('results-tokens-rule')).count(), 'the card says how tokens embedded are counted');
    t.diagnostic(`fixed 20/5 over emoji and CJK: ${windows.chunks.length} windows, ${embedded} tokens embedded (card = row = LangChain's windows re-encoded)`);

    // (d2) An overlap over the size: fixed windows use size − 1 and say so; a library that
    // refuses it says why, and the card does not also claim a value was used instead.
    await page.fill(sel('chunk-overlap'), '25');
    await page.waitForFunction(() => document.querySelector('[data-testid="notice-overlap-clamped"]:not(#prerendered *)')?.dataset.used === '19', null, { timeout: 30000 });
    await page.selectOption(sel('strategy'), 'langchain-recursive');
    await page.locator(sel('results-refused')).waitFor({ timeout: 60000 });
    assert.equal(await page.locator(sel('notice-overlap-clamped')).count(), 0, 'a refusal and "uses 19 instead" side by side');
    await page.selectOption(sel('strategy'), 'fixed');
    await page.locator(sel('notice-overlap-clamped')).waitFor({ timeout: 30000 });
    await page.fill(sel('chunk-overlap'), '5');

    // (e) No text: the formula, labelled as fixed windows.
    await typeText(page, '');
    await page.waitForFunction(() => document.querySelector('[data-testid="results"]')?.dataset.source === 'formula', null, { timeout: 10000 });
    assert.equal(await page.getAttribute(sel('model-limit-basis'), 'data-basis'), 'formula');
    assert.ok(await page.locator(sel('results-formula-note')).count(), 'the formula says so');

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

// (f) Chunks sized by the model's own tokenizer: with LangChain's recursive splitter chosen,
// picking bge-small-en-v1.5 sizes every strategy that takes a length function in its WordPiece
// tokens (`size-tokenizer` = model). Each such row equals the library given that Hugging Face
// tokenizer (the differential oracle, unit "model"), chunk count and tokens embedded; its
// over-limit count is the library's chunks whose WordPiece tokens plus [CLS] and [SEP] exceed
// 512. Strategies that cut token windows say they cannot. The snippet loads the model's own
// tokenizer; the settings link carries the choice; cl100k_base sizes again when chosen.
test('chunks sized by the model tokenizer equal the libraries given its Hugging Face tokenizer', async (t) => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors } = await openReadyPage(browser, url);
    await page.selectOption(sel('strategy'), 'langchain-recursive');
    await page.selectOption(sel('embedding-model'), 'bge-small-en-v1-5');
    assert.equal(await page.getAttribute(sel('size-tokenizer'), 'data-value'), 'model');
    await page.fill(sel('chunk-size'), '256');
    await page.fill(sel('chunk-overlap'), '32');
    await typeText(page, fixture);
    const strategies = ['langchain-recursive', 'langchain-markdown', 'langchain-markdown-language', 'text-splitter', 'text-splitter-markdown', 'semchunk', 'llamaindex-token', 'llamaindex-sentence', 'llamaindex-markdown'];
    const libs = libraryChunks(fixture, strategies.map((strategy) => (
      { strategy, chunk_size: 256, chunk_overlap: 32, unit: 'model', vocab: 'bert-uncased', encoding: 'cl100k_base' })));
    await tableDone(page);
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-row"][data-strategy="langchain-recursive"]')?.dataset.limitBasis === 'own', null, { timeout: 60000 });
    for (const lib of libs) {
      assert.equal(lib.error, undefined, `${lib.strategy}: the library raised ${lib.error}`);
      const row = await page.locator(`${sel('compare-row')}[data-strategy="${lib.strategy}"]`).evaluate((e) => ({ ...e.dataset }));
      assert.equal(Number(row.chunks), lib.chunks.length, `${lib.strategy}: chunks`);
      assert.equal(Number(row.totalTokens), lib.chunks.reduce((sum, c) => sum + c.tokens, 0), `${lib.strategy}: tokens embedded`);
      const read = huggingFaceCounts('bert-uncased', lib.chunks.map((c) => c.text)).map((n) => n + 2);
      assert.ok(Math.max(...read) <= 256 + 2, `${lib.strategy}: sized in the model's tokens`);
      assert.equal(Number(row.overLimit), read.filter((n) => n > 512).length, `${lib.strategy}: over the limit`);
      t.diagnostic(`${lib.strategy} 256/32 in bge-small's tokens: ${lib.chunks.length} chunks (= the library with the Hugging Face tokenizer), largest ${Math.max(...read)} tokens as the model reads it`);
    }
    for (const id of ['fixed', 'langchain-token', 'chonkie-token', 'recursive']) {
      const refused = await page.getAttribute(`${sel('compare-row')}[data-strategy="${id}"]`, 'data-refused');
      assert.equal(refused, 'unit-unsupported', `${id} cannot size in the model's tokens`);
    }
    // The results card is the chosen strategy's real chunks.
    await waitValue(page, 'out-chunks', libs[0].chunks.length);
    assert.equal(await page.getAttribute(sel('compare-unit-note'), 'data-unit'), 'model');
    assert.match(await page.textContent(sel('compare-unit-note')), /WordPiece \(bert-base-uncased\)/);
    await page.waitForFunction(() => document.querySelector('[data-testid="snippet"]')?.textContent.includes('Tokenizer.from_pretrained("BAAI/bge-small-en-v1.5")'), null, { timeout: 30000 });
    const snippet = await page.textContent(sel('snippet'));
    assert.match(snippet, /tokenizer\.no_truncation\(\)/);
    assert.match(snippet, /# pip install langchain-text-splitters==1\.1\.3 tokenizers==/);
    // The default (the model's own tokens, since this strategy can size in them) is written
    // as such; with fixed windows chosen the same default sizes in cl100k_base.
    await page.waitForFunction(() => location.hash.includes('size_tokenizer=auto'), null, { timeout: 10000 });
    await page.selectOption(sel('strategy'), 'fixed');
    assert.equal(await page.getAttribute(sel('size-tokenizer'), 'data-value'), 'cl100k_base');
    await page.selectOption(sel('strategy'), 'langchain-recursive');
    assert.equal(await page.getAttribute(sel('size-tokenizer'), 'data-value'), 'model');

    // cl100k_base again: the row is the library sized in cl100k_base.
    await page.selectOption(sel('size-tokenizer'), 'cl100k_base');
    assert.equal(await page.getAttribute(sel('size-tokenizer'), 'data-value'), 'cl100k_base');
    const [cl] = libraryChunks(fixture, [{ strategy: 'langchain-recursive', chunk_size: 256, chunk_overlap: 32, unit: 'tokens', encoding: 'cl100k_base' }]);
    await waitValue(page, 'out-chunks', cl.chunks.length);
    await tableDone(page);
    const fixedRow = await page.getAttribute(`${sel('compare-row')}[data-strategy="fixed"]`, 'data-refused');
    assert.equal(fixedRow, null, 'fixed windows size in cl100k_base again');
    await page.waitForFunction(() => location.hash.includes('size_tokenizer=cl100k_base'), null, { timeout: 10000 });

    // The measured overlap, for any strategy: each chunk card marks the start it shares with
    // the chunk before it (a suffix of that chunk's text), and the whole-document view tiles
    // the document with the chunks in place, the shared text striped.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chunk-shared"]').length > 3, null, { timeout: 30000 });
    const cardsNow = await page.locator(sel('chunk')).evaluateAll((els) => els.map((e) => ({
      start: Number(e.dataset.byteStart),
      end: Number(e.dataset.byteEnd),
      overlap: Number(e.dataset.overlapBytes),
      text: e.querySelector('[data-testid="chunk-text"]').textContent,
      marked: e.querySelector('[data-testid="chunk-shared"]')?.textContent ?? '',
    })));
    const bytes = Buffer.from(fixture, 'utf8');
    cardsNow.forEach((c, i) => {
      const prev = cardsNow[i - 1];
      const want = prev && prev.start <= c.start ? Math.max(0, Math.min(prev.end, c.end) - c.start) : 0;
      assert.equal(c.overlap, want, `chunk ${i}: bytes shared with chunk ${i - 1}`);
      assert.equal(c.marked, bytes.subarray(c.start, c.start + c.overlap).toString('utf8'), `chunk ${i}: the marked text is the shared bytes`);
      if (c.marked) {
        assert.ok(c.text.startsWith(c.marked) && prev.text.endsWith(c.marked), `chunk ${i}: shared text ends the previous chunk`);
      }
    });
    const view = await page.locator(sel('document-view')).evaluate((e) => ({
      shown: Number(e.dataset.shownBytes),
      total: Number(e.dataset.totalBytes),
      strategy: e.dataset.strategy,
      spans: [...e.querySelectorAll('[data-testid="doc-span"]')].map((s) => ({
        start: Number(s.dataset.start), end: Number(s.dataset.end), covers: Number(s.dataset.covers), text: s.textContent,
      })),
    }));
    assert.equal(view.strategy, 'langchain-recursive');
    assert.equal(view.total, bytes.length);
    assert.equal(view.shown, Math.min(bytes.length, 128 * 1024));
    assert.equal(view.spans.map((s) => s.text).join(''), bytes.subarray(0, view.shown).toString('utf8'), 'the spans tile the document');
    const firstShared = view.spans.find((sp) => sp.covers >= 2);
    const firstMarked = cardsNow.find((c) => c.overlap > 0);
    assert.deepEqual([firstShared.start, firstShared.end], [firstMarked.start, firstMarked.start + firstMarked.overlap], 'the first striped span is the first shared text');
    assert.equal(await page.locator(sel('document-view-cut')).count(), bytes.length > 128 * 1024 ? 1 : 0, 'a document over 128 KiB says how much is shown');
    const titled = await page.locator(sel('doc-span')).first().getAttribute('title');
    assert.ok(titled, 'a span names its chunk');
    // In characters the choice does not apply and is not shown.
    await page.selectOption(sel('chunk-size-unit'), 'characters');
    assert.equal(await page.locator(sel('size-tokenizer')).isVisible(), false);

    // (g) No text, in characters: the formula counts windows of characters (LangChain's
    // 1000 / 200 over 40,000 characters: 50 windows, 49,800 characters embedded, ÷ 4 tokens)
    // and says so; storage and the model limit follow its windows.
    await typeText(page, '');
    await page.selectOption(sel('length-unit'), 'chars');
    await page.fill(sel('doc-length'), '40000');
    await page.fill(sel('chunk-size'), '1000');
    await page.fill(sel('chunk-overlap'), '200');
    await page.waitForFunction(() => document.querySelector('[data-testid="results-formula-note"]')?.dataset.unit === 'characters', null, { timeout: 10000 });
    await waitValue(page, 'out-chunks', 50);
    assert.equal(await value(page, 'out-total-tokens'), '12450');
    assert.equal(await value(page, 'out-repeated-tokens'), '2450');
    assert.equal(await value(page, 'out-stride'), '', 'the stride is not in tokens here');
    await waitValue(page, 'out-storage-bytes', 50 * 384 * 4);
    assert.equal(await value(page, 'out-over-limit'), '0', '250 tokens a window, under 512');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
