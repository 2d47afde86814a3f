// End-to-end test of the structure report and the markdown strategy's options (issue: own
// strategies on structure), on the release build:
//
//  (a) a heading, an intro and a fenced block of 40 lines (text-splitter issue 798) at 50 / 0
//      tokens: the own strategies' rows have no fence-only, separator-led or badly cut code
//      chunk (`data-structure-faults`, its parts on `compare-structure`), fixed windows do, and
//      the column sorts (most first, then fewest first);
//  (b) the markdown strategy's chunks mark each piece of the code block (`data-code-info`,
//      `chunk-code-part`, reason `code-block-part`);
//  (c) `heading-prefix` = path puts "Setup\n\n" before every chunk under the heading, counted in
//      the budget; `fence-repair` gives every piece its fences, within the budget;
//  (d) at 2 tokens the prefix alone ("Setup" and a blank line, 2 tokens) is over the budget:
//      the row is refused with `prefix-over-budget`, and the text says so;
//  (e) no request after the comparison worker has started, no page error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';

const DIST = process.env.E2E_DIST ?? path.resolve(import.meta.dirname, '../../dist-e2e');
const lines = Array.from({ length: 40 }, (_, i) => `let x${i} = ${i};\n`).join('');
const DOC = `# Setup\n\nInstall it like this:\n\n\`\`\`rust\n${lines}\`\`\`\n\nDone.\n`;

/** Waits for a complete table of the current text and setting (every row cut or refused). */
async function settle(page) {
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll('[data-testid="compare-row"]:not(#prerendered *)')];
      return document.querySelector('[data-testid="compare"]')?.dataset.state === 'done'
        && rows.length > 0
        && rows.every((r) => r.dataset.chunks !== undefined || r.dataset.refused !== undefined);
    },
    null,
    { timeout: 120000 },
  );
}

async function rows(page) {
  await settle(page);
  return page.locator(sel('compare-row')).evaluateAll((els) =>
    els.map((e) => ({ ...e.dataset, ...(e.querySelector('[data-testid="compare-structure"]')?.dataset ?? {}) })),
  );
}

/** The markdown strategy's shown chunks once `ok(chunks)` holds. */
async function chunksWhen(page, ok, what) {
  const read = () =>
    page.locator(sel('chunk')).evaluateAll((els) =>
      els.map((e) => ({ ...e.dataset, text: e.querySelector('[data-testid="chunk-text"]').textContent, badges: [...e.querySelectorAll('.badge')].map((b) => b.dataset.testid) })),
    );
  const deadline = Date.now() + 60000;
  for (;;) {
    const chunks = await read();
    if (chunks.length > 0 && ok(chunks)) return chunks;
    assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(chunks.slice(0, 3))}`);
    await page.waitForTimeout(100);
  }
}

test('structure faults per row; code pieces marked; heading prefix and fence repair on the page', async () => {
  const { server, url } = await startStaticServer({ root: DIST });
  const browser = await launchBrowser();
  try {
    const { page, errors, requests } = await openReadyPage(browser, url);
    await page.locator(sel('chunk-size')).fill('50');
    await page.locator(sel('chunk-overlap')).fill('0');
    await typeText(page, DOC);
    // The recursive row of this text: its intro, then six pieces of code.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="compare-row"][data-strategy="recursive"]')?.dataset.chunks === '7',
      null,
      { timeout: 120000 },
    );

    // (a)
    const table = await rows(page);
    const row = (id) => table.find((r) => r.strategy === id);
    for (const id of ['recursive', 'sentence', 'markdown']) {
      const r = row(id);
      assert.deepEqual(
        [r.codeCut, r.fenceOnly, r.separatorLed],
        ['0', '0', '0'],
        `${id}: no code cut, fence-only or separator-led chunk`,
      );
      const parts = Number(r.codeCut) + Number(r.fenceOnly) + Number(r.separatorLed) + Number(r.headingChanged);
      assert.equal(Number(r.structureFaults), parts, `${id}: the column is the sum of its parts`);
    }
    // The recursive cut: the intro, then six pieces of code cut between lines.
    assert.equal(row('recursive').chunks, '7');
    assert.ok(Number(row('fixed').codeCut) > 0, 'fixed windows cut lines of code');
    assert.ok(Number(row('fixed').separatorLed) > 0, 'fixed windows start with separators');
    const faults = async () => (await rows(page)).filter((r) => r.structureFaults !== undefined).map((r) => Number(r.structureFaults));
    await page.click(`${sel('compare-sort')}[data-column="structure-faults"]`);
    const down = await faults();
    assert.deepEqual(down, [...down].sort((a, b) => b - a), 'sorted by structure faults, most first');
    await page.click(`${sel('compare-sort')}[data-column="structure-faults"]`);
    const up = await faults();
    assert.deepEqual(up, [...up].sort((a, b) => a - b), 'then fewest first');
    assert.ok(up[0] < up[up.length - 1], `the rows differ: ${up}`);

    // (b)
    await page.selectOption(sel('strategy'), 'markdown');
    assert.ok(await page.locator(sel('structure-options')).isVisible(), 'the options show with the markdown strategy');
    const plain = await chunksWhen(page, (c) => c.some((x) => x.codeInfo === 'rust'), 'code pieces marked');
    const code = plain.filter((c) => c.codeInfo === 'rust');
    assert.ok(code.length >= 3, `${code.length} code pieces`);
    assert.ok(code.every((c) => c.badges.includes('chunk-code-part')), 'each piece has its badge');
    assert.ok(code.slice(0, -1).every((c) => c.reason === 'code-block-part'), 'pieces end between two lines');
    assert.ok(plain.every((c) => !/^\s*(```|~~~)\S*\s*$/.test(c.text)), 'no fence-only chunk');

    // (c)
    await page.selectOption(sel('heading-prefix'), 'path');
    assert.equal(await page.getAttribute(sel('heading-prefix'), 'data-value'), 'path');
    const prefixed = await chunksWhen(page, (c) => c.every((x) => x.text.startsWith('Setup\n\n')), 'every chunk under "Setup" has its prefix');
    assert.ok(prefixed.every((c) => Number(c.tokens) <= 50), 'the prefix counts in the budget');
    assert.ok(prefixed.every((c) => c.badges.includes('chunk-text-changed')), 'the text is marked changed');
    await page.check(sel('fence-repair'));
    assert.equal(await page.getAttribute(sel('fence-repair'), 'data-value'), 'on');
    const repaired = await chunksWhen(
      page,
      (c) => c.filter((x) => x.codeInfo === 'rust').every((x) => x.text.startsWith('Setup\n\n```rust\n') && /```\n*$/.test(x.text.trimEnd() + '\n')),
      'every code piece opens and closes its fence',
    );
    for (const c of repaired.filter((x) => x.codeInfo === 'rust')) {
      assert.equal((c.text.match(/```/g) ?? []).length, 2, `one fence pair: ${JSON.stringify(c.text.slice(0, 40))}`);
      assert.ok(Number(c.tokens) <= 50, `within the budget: ${c.tokens}`);
    }

    // (d)
    await page.locator(sel('chunk-size')).fill('2');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="compare-row"][data-strategy="markdown"]')?.dataset.refused === 'prefix-over-budget',
      null,
      { timeout: 60000 },
    );
    const refused = await page.locator(`${sel('compare-row')}[data-strategy="markdown"] td.refused`).textContent();
    assert.match(refused, /heading prefix alone/, refused);

    // (e)
    assert.deepEqual(requests, [], 'requests after the comparison worker started');
    assert.deepEqual(errors, [], 'page errors');
  } finally {
    await browser.close();
    server.close();
  }
});
