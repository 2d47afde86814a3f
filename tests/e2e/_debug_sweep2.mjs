import { launchBrowser, openReadyPage, sel, typeText } from './page.mjs';
import { startStaticServer } from './static-server.mjs';
import fs from 'node:fs';
const { server, url } = await startStaticServer({ root: '/work/main/dist-e2e' });
const browser = await launchBrowser();
const { page, errors } = await openReadyPage(browser, url);
page.on('console', (m) => { if (m.text().includes('DEBUG')) console.log('console:', m.text()); });
const text = fs.readFileSync('/work/main/tests/fixtures/moonstone-short.txt', 'utf8');
await typeText(page, text);
await page.setInputFiles(sel('qa-import'), { name: 'qa.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"question": "Who crossed India?", "answer": "Mahmoud of Ghizni"}\n') });
const st = () => page.evaluate(() => ({ heat: document.querySelector('[data-testid="sweep-heatmap"]')?.dataset.state, prog: document.querySelector('[data-testid="sweep-progress"]')?.dataset.value, ret: document.querySelector('[data-testid="retrieval"]')?.dataset.state }));
await page.waitForFunction(() => document.querySelector('[data-testid="retrieval"]')?.dataset.state === 'done', null, { timeout: 60000 });
console.log('before model', JSON.stringify(await st()));
if (process.argv[2]) await page.selectOption(sel('embedding-model'), process.argv[2]);
await page.waitForTimeout(3000);
console.log('after model', JSON.stringify(await st()));
await page.selectOption(sel('sweep-strategy'), 'recursive');
const t0 = Date.now();
await page.click(sel('sweep-run'));
for (let i = 0; i < 15; i++) {
  const s = await st();
  console.log((Date.now() - t0) / 1000, JSON.stringify(s));
  if (s.heat === 'done' || s.heat === 'failed') break;
  await page.waitForTimeout(1000);
}
console.log('errors', errors);
await browser.close(); server.close();
