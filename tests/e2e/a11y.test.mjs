// Accessibility (issue 12): axe-core (pinned in package.json, run inside the page) reports no
// WCAG 2.1 A/AA violation on the release build: the empty page, with the fixture pasted (the
// preview, the comparison and the retrieval check shown), with the simulator in each mode, and
// all of it again in dark mode (the page follows prefers-color-scheme). The chunk preview's skip
// button takes the keyboard past the chunk cards.
//
// axe is injected as a script, which the page's Content-Security-Policy forbids, so these
// contexts bypass the CSP (only here; every other test runs under it).
//
// Environment (optional): E2E_DIST (the build to serve), E2E_FIXTURE, CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countOf, sel, serveAndLaunch, typeText } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WAIT_MS = 60_000;

let site;
let fixture;

before(async () => {
  fixture = readFileSync(FIXTURE, 'utf8');
  site = await serveAndLaunch(DIST);
});

after(async () => site?.close());

/** The WCAG 2.1 A and AA violations axe finds on the page now, one line per element. */
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: AXE });
  }
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1).join(' ').trim()}`),
    );
  });
  return found;
}

for (const colorScheme of ['light', 'dark']) {
  describe(`axe-core finds no WCAG 2.1 AA violation (${colorScheme})`, () => {
    test('empty page, a pasted text, the simulator in each mode', async () => {
      const context = await site.browser.newContext({ bypassCSP: true, colorScheme, serviceWorkers: 'block' });
      const page = await context.newPage();
      try {
        await page.goto(site.url, { waitUntil: 'load' });
        await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: WAIT_MS });
        await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === 'ready', null, { timeout: WAIT_MS });
        const seen = {};
        seen['empty page'] = await violations(page);

        await typeText(page, fixture);
        await countOf(page, Buffer.byteLength(fixture, 'utf8'));
        await page.waitForSelector(sel('compare-row'), { timeout: WAIT_MS });
        seen['text pasted'] = await violations(page);

        // The keyboard's way past the chunk cards: the skip button shows when focused, and
        // Enter moves the focus to the next section's heading.
        const skip = page.locator(sel('skip-chunks')).first();
        await skip.focus();
        const box = await skip.boundingBox();
        assert.ok(box && box.width > 20 && box.height > 10, `the focused skip button is shown: ${JSON.stringify(box)}`);
        await page.keyboard.press('Enter');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'ab-heading', 'Enter on the skip button');

        for (const mode of ['fixed', 'sentence']) {
          await page.locator(sel('sim-mode')).selectOption(mode);
          await page.locator(sel('sim-token')).first().hover();
          seen[`simulator, ${mode}`] = await violations(page);
        }
        const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
        assert.equal(dark, colorScheme === 'dark', 'the context sets the colour scheme');
        const report = Object.entries(seen)
          .filter(([, found]) => found.length > 0)
          .map(([state, found]) => `${colorScheme}, ${state}: ${found.length} violations\n  ${found.join('\n  ')}`);
        assert.deepEqual(report, [], report.join('\n'));
      } finally {
        await context.close();
      }
    });
  });
}
