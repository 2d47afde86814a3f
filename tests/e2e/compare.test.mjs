// End-to-end test of the comparison (src/compare, crates/compare-engine) on the release build:
// the page's figures and chunks for every library strategy against the library itself, run
// in the differential tests' Python venv (tests/e2e/library_chunks.py).
//
//  (a) paste the fixture; every library `compare-row` has the library's own chunk count and
//      total tokens (tiktoken's count of each library chunk), at 512 / 64 tokens and at
//      1000 / 200 and 400 / 0 characters; a row the page refuses is one the library raises on;
//  (b) choose each library strategy: the chunk texts the page shows are the library's, in
//      order, every one of them;
//  (c) the JSONL download: each line's byte range slices the fixture to that line's text
//      (where the library did not rewrite it), and the lines are the library's chunks;
//  (d) no request after the comparison worker has started;
//  (e) every row (library and own) equals the command-line tool's row for the same file and
//      settings (`rag-chunk compare --format json`, crates/cli), figure for figure: the corpus
//      tools and the page are one core.
//
// Needs CHUNK_ORACLE_PYTHON (and TIKTOKEN_CACHE_DIR), which `make test-e2e` takes from
// scripts/ensure-oracle.sh; without them the test fails and says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const DIST = process.env.E2E_DIST ?? path.resolve(import.meta.dirname, '../../dist-e2e');
const FIXTURE = process.env.E2E_FIXTURE ?? path.resolve(import.meta.dirname, '../fixtures/moonstone-short.txt');
const PYTHON = process.env.CHUNK_ORACLE_PYTHON;
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');
const fixtureBytes = Buffer.from(fixtureText, 'utf8');

/** The libraries' chunks for `cases` of the fixture. */
function libraryChunks(cases) {
  assert.ok(PYTHON, 'CHUNK_ORACLE_PYTHON is not set: run through `make test-e2e` (scripts/ensure-oracle.sh makes the venv)');
  const run = spawnSync(PYTHON, [path.join(import.meta.dirname, 'library_chunks.py')], {
    input: JSON.stringify({ text: fixtureText, cases }),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.equal(run.status, 0, `library_chunks.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout).results;
}

async function setField(page, testid, value) {
  const loc = page.locator(sel(testid));
  await loc.fill(String(value));
}

/** Waits for a complete table of the current setting and reads every row's hooks. */
async function readTable(page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="compare"]')?.dataset.state === 'running',
    null,
    { timeout: 5000 },
  ).catch(() => {});
  await page.waitForFunction(
    () => document.querySelector('[data-testid="compare"]')?.dataset.state === 'done',
    null,
    { timeout: 120000 },
  );
  return page.locator(sel('compare-row')).evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
}

/** Chooses `strategy` and reads every chunk text the page shows (clicking "show more"). */
async function shownChunks(page, strategy) {
  await page.selectOption(sel('strategy'), strategy);
  await page.waitForFunction(
    (id) => {
      const s = document.querySelector('[data-testid="strategy-chunks"]');
      return s?.dataset.strategy === id && Number(s.dataset.total) > 0
        && document.querySelectorAll('[data-testid="chunk"]').length > 0;
    },
    strategy,
    { timeout: 60000 },
  );
  const total = Number(await page.getAttribute(sel('strategy-chunks'), 'data-total'));
  for (;;) {
    const n = await page.locator(sel('chunk')).count();
    if (n >= total) break;
    await page.click(sel('show-more'));
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid="chunk"]').length > k, n, { timeout: 30000 });
  }
  return page.locator(sel('chunk')).evaluateAll((els) =>
    els.map((e) => ({
      ...e.dataset,
      text: e.querySelector('[data-testid="chunk-text"]').textContent,
    })),
  );
}

/** The command-line tool's rows for the fixture (`rag-chunk compare --format json`). */
function cliRows(args) {
  const run = spawnSync('cargo', ['run', '--quiet', '-p', 'rag-chunk-cli', '--', 'compare', FIXTURE,
    '--format', 'json', '--no-progress', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, `rag-chunk compare failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  assert.equal(out.files.length, 1, 'rag-chunk read the fixture');
  return out.files[0].rows;
}

/** (e): each page row's hooks equal the command-line tool's row. */
function checkCli(pageRows, cli, what) {
  // The page lists a strategy that cannot size in the unit as refused; rag-chunk leaves it out.
  const rows = pageRows.filter((r) => r.refused !== 'unit-unsupported');
  const ids = (list) => list.map((r) => r.strategy).sort();
  assert.deepEqual(ids(cli), ids(rows), `${what}: rows on the page and from rag-chunk`);
  for (const row of rows) {
    const c = cli.find((r) => r.strategy === row.strategy);
    assert.ok(c, `${what}: rag-chunk has no row for ${row.strategy}`);
    if (c.outcome === 'refused') {
      assert.equal(row.refused, c.refusal.kind, `${what}: ${row.strategy}: refusal`);
      continue;
    }
    const s = c.summary;
    const want = {
      chunks: s.chunks, totalTokens: s.total_tokens, repeatedTokens: s.repeated_tokens,
      p95Tokens: s.p95_tokens, maxTokens: s.max_tokens, overLimit: s.over_limit,
      modelMaxTokens: s.model_max_tokens, truncatedTokens: s.truncated_tokens,
      splitSentences: s.split_sentences, sentences: s.sentences, cost: s.cost,
      structureFaults: s.structure.code_cut + s.structure.fence_only + s.structure.separator_led
        + s.structure.heading_changed,
    };
    for (const [key, value] of Object.entries(want)) {
      assert.equal(Number(row[key]), value, `${what}: ${row.strategy}: ${key}`);
    }
    assert.equal(row.meanTokens === undefined ? null : Number(row.meanTokens), s.mean_tokens, `${what}: ${row.strategy}: mean`);
  }
  return rows.length;
}

function checkRows(rows, results, what) {
  let compared = 0;
  for (const lib of results) {
    const row = rows.find((r) => r.strategy === lib.strategy);
    assert.ok(row, `${what}: no compare-row for ${lib.strategy}`);
    if (lib.error) {
      assert.ok(row.refused, `${what}: ${lib.strategy}: the library raises (${lib.error}) but the page shows figures`);
      continue;
    }
    assert.equal(row.refused, undefined, `${what}: ${lib.strategy}: the page refuses (${row.refused}), the library cuts`);
    const tokens = lib.chunks.reduce((sum, c) => sum + c.tokens, 0);
    assert.equal(Number(row.chunks), lib.chunks.length, `${what}: ${lib.strategy}: chunk count`);
    assert.equal(Number(row.totalTokens), tokens, `${what}: ${lib.strategy}: tokens embedded`);
    assert.equal(Number(row.maxTokens), Math.max(0, ...lib.chunks.map((c) => c.tokens)), `${what}: ${lib.strategy}: max tokens`);
    compared += 1;
  }
  return compared;
}

test('every library row and chunk equals the library itself; JSONL slices the text; no request', async (t) => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);

    await setField(page, 'chunk-size', 512);
    await setField(page, 'chunk-overlap', 64);
    await typeText(page, fixtureText);
    const rows = await readTable(page);
    const library = rows.filter((r) => r.library);
    assert.ok(library.length >= 10, `only ${library.length} library rows`);
    for (const r of rows) assert.equal(r.pending, undefined, `${r.strategy} is still pending`);

    const tokenCases = library
      .filter((r) => r.refused !== 'unit-unsupported')
      .map((r) => ({ strategy: r.strategy, chunk_size: 512, chunk_overlap: 64, unit: 'tokens', encoding: 'cl100k_base' }));
    const tokenResults = libraryChunks(tokenCases);
    const n = checkRows(rows, tokenResults, '512/64 tokens');
    // chonkie's RecursiveChunker has no overlap: its row is its real chunks, and says so.
    const chonkie = rows.find((r) => r.strategy === 'chonkie-recursive');
    assert.equal(chonkie.refused, undefined, 'chonkie-recursive is shown at overlap 64');
    assert.equal(chonkie.overlapIgnored, 'true', 'chonkie-recursive says it does not overlap');
    t.diagnostic(`512/64 tokens: ${n} library rows equal the libraries' chunk counts and tokens`);
    const model = ['--model', 'openai-text-embedding-3-small', '--price', '0.02'];
    const e = checkCli(rows, cliRows(['--chunk-size', '512', '--chunk-overlap', '64', ...model]), '512/64 tokens');
    t.diagnostic(`512/64 tokens: all ${e} rows equal rag-chunk's, figure for figure`);

    // (b) and (c): every library strategy's chunks, shown and exported.
    let chunksCompared = 0;
    for (const lib of tokenResults.filter((r) => !r.error)) {
      const shown = await shownChunks(page, lib.strategy);
      assert.equal(shown.length, lib.chunks.length, `${lib.strategy}: chunks shown`);
      shown.forEach((c, i) => {
        assert.equal(c.text, lib.chunks[i].text, `${lib.strategy}: chunk ${i} text`);
        assert.equal(Number(c.tokens), lib.chunks[i].tokens, `${lib.strategy}: chunk ${i} tokens`);
        assert.ok(c.reason, `${lib.strategy}: chunk ${i} has no data-reason`);
      });
      chunksCompared += shown.length;

      const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel('export-jsonl'))]);
      assert.match(download.suggestedFilename(), new RegExp(`^chunks-${lib.strategy}\\.jsonl$`));
      const lines = fs.readFileSync(await download.path(), 'utf8').split('\n').filter((l) => l !== '');
      assert.equal(lines.length, lib.chunks.length, `${lib.strategy}: JSONL lines`);
      lines.forEach((line, i) => {
        const row = JSON.parse(line);
        assert.equal(row.text, lib.chunks[i].text, `${lib.strategy}: JSONL line ${i} text`);
        if (!row.text_changed) {
          const slice = fixtureBytes.subarray(row.byte_start, row.byte_end).toString('utf8');
          assert.equal(slice, row.text, `${lib.strategy}: JSONL line ${i} byte range`);
        }
      });
    }
    t.diagnostic(`chunk texts shown and exported equal to the libraries': ${chunksCompared}`);

    // The same at 1000 / 200 characters, for the strategies that size in characters.
    await page.selectOption(sel('chunk-size-unit'), 'characters');
    await setField(page, 'chunk-size', 1000);
    await setField(page, 'chunk-overlap', 200);
    const charRows = await readTable(page);
    const charCases = charRows
      .filter((r) => r.library && r.refused !== 'unit-unsupported')
      .map((r) => ({ strategy: r.strategy, chunk_size: 1000, chunk_overlap: 200, unit: 'characters', encoding: 'cl100k_base' }));
    assert.ok(charCases.length >= 5, `only ${charCases.length} strategies size in characters`);
    const m = checkRows(charRows, libraryChunks(charCases), '1000/200 characters');
    t.diagnostic(`1000/200 characters: ${m} library rows equal the libraries' chunk counts and tokens`);
    const ce = checkCli(charRows, cliRows(['--chunk-size', '1000', '--chunk-overlap', '200', '--unit', 'characters', ...model]), '1000/200 characters');
    t.diagnostic(`1000/200 characters: all ${ce} rows equal rag-chunk's`);

    // Without overlap, chonkie's RecursiveChunker (which has none) is compared too.
    await setField(page, 'chunk-size', 400);
    await setField(page, 'chunk-overlap', 0);
    const zeroRows = await readTable(page);
    const zeroCases = zeroRows
      .filter((r) => r.library && r.refused !== 'unit-unsupported')
      .map((r) => ({ strategy: r.strategy, chunk_size: 400, chunk_overlap: 0, unit: 'characters', encoding: 'cl100k_base' }));
    const k = checkRows(zeroRows, libraryChunks(zeroCases), '400/0 characters');
    assert.ok(zeroRows.some((r) => r.strategy === 'chonkie-recursive' && r.chunks), 'chonkie-recursive has no figures at overlap 0');
    t.diagnostic(`400/0 characters: ${k} library rows equal the libraries' chunk counts and tokens`);

    assert.deepEqual(requests, [], 'requests after the comparison worker started');
    assert.deepEqual(errors, [], 'page errors');
  } finally {
    await browser.close();
    server.close();
  }
});
