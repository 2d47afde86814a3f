// End-to-end test of the retrieval check (src/retrieval/, run by the comparison
// worker) on the release build, against the native core (crates/chunk-core/examples/retrieval.rs,
// which cuts with `run` and evaluates with `evaluate`: not the worker's prepared paths).
//
//  (a) the fixture with five pairs imported as JSONL (answers as text and as byte spans): for
//      each pair and every strategy, the `retrieval-row` hooks (whole chunk, BM25 rank, hit@1/3/5,
//      recall, precision, IoU, reciprocal rank, nDCG@k, chunks, tokens embedded) equal the
//      native core's, value for value;
//  (b) the sweep of one strategy with all-MiniLM-L6-v2 chosen (256 word pieces): 60 cells, each
//      one's "every answer whole in the top k", tokens embedded, vectors, chunks over the model's
//      limit (counted natively with the same WordPiece vocabulary), MRR and nDCG as natively;
//      `sweep-best` the native best setting for each objective (tokens, then vectors), never a
//      setting the model truncates; "use this setting" sets the calculator's fields; the
//      settings link carries the retrieval k and the sweep's strategy and objective;
//  (c) the JSONL export round-trips: removing every pair and importing the exported file gives
//      the same pairs, placed at the same bytes; a bad file is refused with its line number and
//      the list kept;
//  (d) on a short text with a non-ASCII prefix: an answer marked by selecting it in the text box
//      gets the right UTF-8 byte span; an ambiguous typed answer and an edit that moves a marked
//      answer are reported on the pair; the form refuses an empty question, and a question
//      longer than 2,000 characters (typed, or in an imported file: a 5 MB one) in words;
//  (e) no request after the workers have started.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.join(ROOT, 'tests/fixtures/moonstone-short.txt');
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');

const STRATEGIES = ['fixed', 'sentence', 'recursive', 'markdown', 'section-budget', 'langchain-token',
  'langchain-recursive', 'langchain-markdown', 'langchain-markdown-language', 'llamaindex-sentence',
  'llamaindex-token', 'llamaindex-markdown', 'text-splitter', 'text-splitter-markdown', 'semchunk',
  'chonkie-token', 'chonkie-recursive'];

/** Byte span of the one occurrence of `answer` in `text` (fails when it is not exactly one). */
function span(text, answer) {
  const at = text.indexOf(answer);
  assert.ok(at >= 0 && text.indexOf(answer, at + 1) < 0, `the answer must occur once: ${answer}`);
  const start = Buffer.byteLength(text.slice(0, at));
  return { start, end: start + Buffer.byteLength(answer) };
}

/** The paragraph of the fixture (up to its blank line) that starts with `start`. */
function paragraphStartingWith(start) {
  const at = fixtureText.indexOf(start);
  assert.ok(at >= 0, `no paragraph starts with ${start}`);
  return fixtureText.slice(at, fixtureText.indexOf('\n\n', at));
}

/** The native core's figures for `request` (the example's input, module docs there). */
function nativeRetrieval(request) {
  const run = spawnSync('cargo', ['run', '--quiet', '-p', 'chunk-core', '--example', 'retrieval'], {
    cwd: ROOT,
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, `the native retrieval example failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function importJsonl(page, text, name = 'qa.jsonl') {
  await page.setInputFiles(sel('qa-import'), { name, mimeType: 'application/jsonl', buffer: Buffer.from(text, 'utf8') });
}

async function pairs(page) {
  return page.locator(sel('qa-pair')).evaluateAll((els) => els.map((e) => ({ ...e.dataset, text: e.textContent })));
}

/** Waits for a complete retrieval table and reads its rows (for pair `shown`: 'all' or an index). */
async function readRows(page, shown) {
  await page.selectOption(sel('retrieval-pair'), String(shown));
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="retrieval"]')?.dataset.state === 'done'
      && [...document.querySelectorAll('[data-testid="retrieval-row"]')].every((r) => r.dataset.pair === want),
    String(shown),
    { timeout: 180000 },
  );
  return page.locator(sel('retrieval-row')).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
}

test('the retrieval check equals the native core; the sweep marks its best; JSONL round-trips', async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);

    // (a) Five pairs: two answers as text, three as byte spans.
    await page.locator(sel('chunk-size')).fill('256');
    await page.locator(sel('chunk-overlap')).fill('32');
    await typeText(page, fixtureText);
    const qa = [
      { question: 'Who crossed India and seized Somnauth?', answer: 'Mahmoud of Ghizni' },
      { question: 'When was Seringapatam stormed?', answer: 'the 4th of May, 1799' },
      { question: 'What does the writer refuse his cousin?', ...span(fixtureText, 'right hand of friendship') },
      { question: 'What god does the stone adorn?', ...span(fixtureText, 'the four-handed Indian god who typifies the Moon') },
      // A whole paragraph (615 characters): some strategies cut it at 256 / 32 tokens.
      { question: 'What did the deity breathe on the Diamond?', ...span(fixtureText, paragraphStartingWith('The deity breathed the breath')) },
    ];
    await importJsonl(page, qa.map((p) => JSON.stringify(p)).join('\n') + '\n');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="qa-pair"][data-state="ok"]').length === 5, null, { timeout: 10000 });
    assert.equal(await page.textContent(sel('qa-import-message')), 'Pairs imported: 5.');
    const placed = await pairs(page);
    const spans = placed.map((p) => ({ start: Number(p.start), end: Number(p.end) }));
    assert.deepEqual(spans[0], span(fixtureText, 'Mahmoud of Ghizni'));
    assert.deepEqual(spans[2], { start: qa[2].start, end: qa[2].end });

    const native = nativeRetrieval({
      text: fixtureText,
      pairs: qa.map((p, i) => ({ question: p.question, ...spans[i] })),
      chunk_size: 256, chunk_overlap: 32, unit: 'tokens', encoding: 'cl100k_base',
      k: 5, k1: 1.2, b: 0.75, lang: 'en', strategies: STRATEGIES, sweep: 'recursive',
    });
    let compared = 0;
    let cut = 0;
    for (let i = 0; i < qa.length; i += 1) {
      const rows = await readRows(page, i);
      assert.equal(rows.length, STRATEGIES.length, 'one row per strategy');
      for (const want of native.rows) {
        const row = rows.find((r) => r.strategy === want.strategy);
        assert.ok(row, `no retrieval-row for ${want.strategy}`);
        const what = `${want.strategy}, pair ${i}`;
        if (want.refused) {
          assert.equal(row.refused, want.refused, `${what}: refusal`);
          continue;
        }
        const p = want.pairs[i];
        assert.equal(Number(row.chunks), want.chunks, `${what}: chunks`);
        assert.equal(Number(row.tokensEmbedded), want.tokens_embedded, `${what}: tokens embedded`);
        assert.equal(Number(row.whole), p.whole, `${what}: whole`);
        assert.equal(row.rank === undefined ? null : Number(row.rank), p.rank, `${what}: rank`);
        assert.equal(row['hitAt-1'], String(p.hit_at_1), `${what}: hit@1`);
        assert.equal(row['hitAt-3'], String(p.hit_at_3), `${what}: hit@3`);
        assert.equal(row['hitAt-5'], String(p.hit_at_5), `${what}: hit@5`);
        assert.equal(Number(row.recall), p.recall, `${what}: recall`);
        assert.equal(Number(row.precision), p.precision, `${what}: precision`);
        assert.equal(Number(row.iou), p.iou, `${what}: IoU`);
        assert.equal(Number(row.mrr), p.reciprocal_rank, `${what}: reciprocal rank`);
        assert.equal(Number(row.ndcg), p.ndcg, `${what}: nDCG@k`);
        if (p.whole < 0) cut += 1;
        compared += 1;
      }
    }
    assert.ok(compared >= 70, `too few rows compared: ${compared}`);
    assert.ok(cut > 0, 'some strategy cuts the paragraph, so "no chunk holds it" is compared too');
    console.log(`retrieval rows equal to the native core: ${compared} (pairs cut by the setting: ${cut})`);
    const all = await readRows(page, 'all');
    const fixed = native.rows.find((r) => r.strategy === 'fixed');
    const fixedRow = all.find((r) => r.strategy === 'fixed');
    assert.equal(Number(fixedRow.wholeCount), fixed.pairs.filter((p) => p.whole >= 0).length, 'all pairs: whole count');
    assert.equal(Number(fixedRow['hitsAt-3']), fixed.pairs.filter((p) => p.hit_at_3).length, 'all pairs: hits@3');

    // (b) The sweep of the recursive strategy, with a model that reads at most 256 word pieces.
    await page.selectOption(sel('embedding-model'), 'all-minilm-l6-v2');
    const nativeSweep = nativeRetrieval({
      text: fixtureText,
      pairs: qa.map((p, i) => ({ question: p.question, ...spans[i] })),
      chunk_size: 256, chunk_overlap: 32, unit: 'tokens', encoding: 'cl100k_base',
      k: 5, k1: 1.2, b: 0.75, lang: 'en', strategies: [], sweep: 'recursive', model: 'all-minilm-l6-v2',
    }).sweep;
    await page.selectOption(sel('sweep-strategy'), 'recursive');
    await page.click(sel('sweep-run'));
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-heatmap"]')?.dataset.state === 'done', null, { timeout: 180000 });
    const cells = await page.locator(`${sel('sweep-heatmap')} table[data-metric="whole"] ${sel('sweep-cell')}`)
      .evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
    assert.equal(cells.length, 60, 'a 60-setting grid');
    assert.equal(nativeSweep.cells.length, 60);
    let truncated = 0;
    nativeSweep.cells.forEach((want, i) => {
      const c = cells[i];
      const what = `sweep cell ${want.chunk_size} / ${want.overlap_percent} %`;
      assert.equal(Number(c.chunkSize), want.chunk_size, what);
      assert.equal(Number(c.chunkOverlap), want.chunk_overlap, what);
      if (want.refused) {
        assert.equal(c.refused, want.refused, what);
      } else {
        assert.equal(c.allWholeTopK, String(want.all_whole_in_top_k), `${what}: every answer whole in the top k`);
        assert.equal(Number(c.tokensEmbedded), want.tokens_embedded, `${what}: tokens embedded`);
        assert.equal(Number(c.hitsAtK), want.hits_at_k, `${what}: hits@k`);
        assert.equal(Number(c.chunks), want.chunks, `${what}: vectors`);
        assert.equal(Number(c.overLimit), want.over_limit, `${what}: chunks over the model's limit`);
        assert.equal(Number(c.mrr), want.mrr, `${what}: MRR`);
        assert.equal(Number(c.ndcg), want.ndcg, `${what}: nDCG`);
        if (want.over_limit > 0) truncated += 1;
      }
    });
    assert.ok(truncated > 0, 'the larger settings make chunks all-MiniLM-L6-v2 truncates');
    assert.equal(await page.getAttribute(sel('sweep-heatmap'), 'data-max-input-tokens'), '256', "the model's limit");
    assert.equal(await page.getAttribute(sel('sweep-heatmap'), 'data-limit-basis'), 'own', 'counted with the WordPiece vocabulary');
    assert.equal(Number(await page.getAttribute(sel('sweep-over-limit'), 'data-value')), truncated);
    const bestFor = async (objective) => {
      await page.selectOption(sel('sweep-objective'), objective);
      await page.waitForFunction((o) => document.querySelector('[data-testid="sweep-best"]')?.dataset.objective === o, objective);
      assert.equal(await page.getAttribute(sel('sweep-rule'), 'data-objective'), objective);
      const marked = await page.locator(`table[data-metric="whole"] ${sel('sweep-cell')}[data-best="true"]`).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
      assert.equal(marked.length, 1, `${objective}: one best cell`);
      assert.equal(marked[0].overLimit, '0', `${objective}: the best setting is never one the model truncates`);
      return page.getAttribute(sel('sweep-best'), 'data-value');
    };
    const best = await bestFor('tokens');
    assert.equal(best, nativeSweep.best, 'the best setting for tokens embedded');
    assert.notEqual(best, '', 'the fixture has a setting that keeps the five answers whole in the top 5');
    const bestVectors = await bestFor('vectors');
    assert.equal(bestVectors, nativeSweep.best_vectors, 'the best setting for vectors');
    assert.equal(await page.locator(`${sel('sweep-cell')}[data-best="true"]`).count(), 2, 'the best cell is marked in both maps');
    const link = await page.getAttribute(sel('share-link'), 'data-value');
    assert.match(link, /[#&]retrieval_k=5(&|$)/, 'the link carries the retrieval k');
    assert.match(link, /&sweep_strategy=recursive(&|$)/, 'the link carries the swept strategy');
    assert.match(link, /&sweep_objective=vectors(&|$)/, 'the link carries the objective');
    await page.click(sel('sweep-apply'));
    const [, size, overlap] = bestVectors.match(/^chunk_size=(\d+),chunk_overlap=(\d+)$/);
    assert.equal(await page.inputValue(sel('chunk-size')), size);
    assert.equal(await page.inputValue(sel('chunk-overlap')), overlap);
    assert.equal(await page.getAttribute(sel('sweep-heatmap'), 'data-state'), 'done', 'applying the best setting keeps the sweep');
    // Another model has another limit: the sweep is stale at once.
    await page.selectOption(sel('embedding-model'), 'bge-small-en-v1-5');
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-heatmap"]')?.dataset.state === 'idle', null, { timeout: 10000 });
    console.log(`sweep with all-MiniLM-L6-v2: ${truncated} of 60 settings truncated; best for tokens ${best}, for vectors ${bestVectors}`);
    // The vocabulary is the only request the model asked for.
    const sinceStart = requests.splice(0);
    const vocab = sinceStart.filter((u) => new URL(u).pathname.endsWith('/vocab/bert-base-uncased.txt'));
    assert.deepEqual(sinceStart.filter((u) => !vocab.includes(u)), [], 'no other request');
    assert.ok(vocab.length >= 1 && vocab.length <= 2, `the vocabulary fetched once per comparison worker: ${vocab.length}`);

    // (c) Export, remove all, import the export: the same pairs at the same bytes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel('qa-export'))]);
    assert.equal(download.suggestedFilename(), 'qa-pairs.jsonl');
    const exported = fs.readFileSync(await download.path(), 'utf8');
    const lines = exported.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    assert.deepEqual(lines, qa);
    await page.click(sel('qa-clear'));
    assert.equal(await page.locator(sel('qa-pair')).count(), 0);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qa-')), 'qa-pairs.jsonl');
    fs.writeFileSync(file, exported);
    await page.setInputFiles(sel('qa-import'), file);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="qa-pair"][data-state="ok"]').length === 5, null, { timeout: 10000 });
    const again = await pairs(page);
    assert.deepEqual(again.map((p) => [Number(p.start), Number(p.end)]), spans.map((s) => [s.start, s.end]));
    await importJsonl(page, '{"question": "ok", "answer": "Mahmoud of Ghizni"}\n{"question": "broken", "start": 3}\n');
    await page.waitForFunction(() => /2/.test(document.querySelector('[data-testid="qa-import-message"]')?.textContent ?? ''), null, { timeout: 10000 });
    assert.match(await page.getAttribute(sel('qa-import-message'), 'class'), /error/);
    assert.equal(await page.locator(sel('qa-pair')).count(), 5, 'a bad file keeps the list');
    await importJsonl(page, '\n  \n');
    await page.waitForFunction(() => /no question\/answer pair/.test(document.querySelector('[data-testid="qa-import-message"]')?.textContent ?? ''), null, { timeout: 10000 });
    assert.equal(await page.locator(sel('qa-pair')).count(), 5, 'an empty file keeps the list');

    // (d) A short text in the box: mark by selection, ambiguous answers, a moved answer.
    await page.click(sel('qa-clear'));
    const short = 'Đây là tài liệu ngắn. The valve opens at 3 bar. The valve closes at 1 bar. Ende.';
    await typeText(page, short);
    const answer = 'opens at 3 bar';
    await page.evaluate(([s, a]) => {
      const box = document.querySelector(s);
      const at = box.value.indexOf(a);
      box.setSelectionRange(at, at + a.length);
    }, [sel('text-input'), answer]);
    await page.click(sel('qa-from-selection'));
    assert.equal(await page.inputValue(sel('qa-answer')), answer);
    await page.click(sel('qa-add'));
    assert.equal(await page.locator(sel('qa-error')).count(), 1, 'no question: the form says so');
    // A question no retriever takes is refused in words, and kept in the field to shorten.
    const long = 'x'.repeat(2001);
    await page.fill(sel('qa-question'), long);
    await page.click(sel('qa-add'));
    assert.match(await page.textContent(sel('qa-error')), /too long \(2,001 characters; at most 2,000\)/);
    assert.equal(await page.inputValue(sel('qa-question')), long, 'the question is kept');
    assert.equal(await page.locator(sel('qa-pair')).count(), 0);
    // An imported file with such a question is refused with its line, and the list kept.
    await importJsonl(page, `{"question": "ok", "answer": "The valve"}\n{"question": "${'y'.repeat(5000000)}", "answer": "The valve"}\n`);
    await page.waitForFunction(() => /Line 2/.test(document.querySelector('[data-testid="qa-import-message"]')?.textContent ?? ''), null, { timeout: 10000 });
    assert.match(await page.textContent(sel('qa-import-message')), /Line 2: the question is too long \(5,000,000 characters; at most 2,000\)/);
    assert.equal(await page.locator(sel('qa-pair')).count(), 0, 'nothing imported');
    await page.fill(sel('qa-question'), 'At what pressure does the valve open?');
    await page.click(sel('qa-add'));
    await page.fill(sel('qa-question'), 'Which part?');
    await page.fill(sel('qa-answer'), 'The valve');
    await page.click(sel('qa-add'));
    let list = await pairs(page);
    assert.equal(list.length, 2);
    assert.deepEqual([Number(list[0].start), Number(list[0].end)], [span(short, answer).start, span(short, answer).end]);
    assert.equal(list[0].state, 'ok');
    assert.equal(list[1].state, 'error', 'an answer that occurs twice is reported');
    assert.equal(list[1].problem, 'ambiguous');
    assert.equal(list[1].count, '2');
    assert.match(list[1].text, /Occurrences of this answer in the text: 2 \(the first two start at bytes \d+ and \d+\)/);
    assert.equal(await page.getAttribute(sel('retrieval'), 'data-state'), 'invalid');
    await page.click(`${sel('qa-pair')}:nth-child(2) ${sel('qa-remove')}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="retrieval"]')?.dataset.state === 'done', null, { timeout: 60000 });
    await typeText(page, `Xin chào. ${short}`);
    list = await pairs(page);
    assert.equal(list[0].state, 'error', 'an edit that moves a marked answer is reported');
    assert.equal(list[0].problem, 'moved');

    // (e) Nothing left the page while all this ran.
    assert.deepEqual(requests, [], 'no request after the workers started');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
