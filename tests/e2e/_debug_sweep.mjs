import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';
import fs from 'node:fs';
const { server, url } = await startStaticServer({ root: '/work/main/dist-e2e' });
const browser = await launchBrowser();
const { page, errors } = await openReadyPage(browser, url);
page.on('console', (m) => console.log('console:', m.type(), m.text().slice(0, 300)));
const text = fs.readFileSync('/work/main/tests/fixtures/moonstone-short.txt', 'utf8');
await typeText(page, text);
await page.setInputFiles(sel('qa-import'), { name: 'qa.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"question": "Who crossed India?", "answer": "Mahmoud of Ghizni"}\n') });
await page.selectOption(sel('embedding-model'), process.argv[2] ?? 'all-minilm-l6-v2');
await page.selectOption(sel('sweep-strategy'), 'recursive');
const t0 = Date.now();
await page.click(sel('sweep-run'));
for (let i = 0; i < 40; i++) {
  const st = await page.evaluate(() => ({ heat: document.querySelector('[data-testid="sweep-heatmap"]')?.dataset.state, prog: document.querySelector('[data-testid="sweep-progress"]')?.dataset.value, ret: document.querySelector('[data-testid="retrieval"]')?.dataset.state, dis: document.querySelector('[data-testid="sweep-run"]')?.disabled, strat: document.querySelector('[data-testid="sweep-strategy"]')?.value }));
  if (i === 5) await page.click(sel('sweep-run'));
  console.log((Date.now() - t0) / 1000, JSON.stringify(st));
  if (st.heat === 'done' || st.heat === 'failed') break;
  await page.waitForTimeout(2000);
}
console.log('errors', errors);
await browser.close(); server.close();
