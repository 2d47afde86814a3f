// make bench-semantic-page: the semantic rows in the built page (headless Chromium, 512 / 64
// tokens, cl100k_base, potion-base-8M). For the fixture and 1 MB of the mixed corpus it prints:
//  - ms to the complete table with the semantic rows off, then on (the model already loaded
//    for the 1 MB text: the fixture's run loads it), and the difference: what the four
//    semantic rows add, embedding on the device included;
//  - the model's first load (from the select to the worker ready);
//  - each semantic row's chunks and its worker cut time (data-millis, embedding excluded);
//  - the longest main-thread task while the semantic rows ran, and how many took over 50 ms.
// Not a test: it prints figures. Exits 1 only when a step fails.
//
// Usage: node bench/semantic-page.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import path from "node:path";
import { assembleCorpus, repeatTo, ROOT } from "./lib/corpus.mjs";
import { launchChromium } from "./lib/chromium.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:semantic-page] ${s}\n`);
const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

const corpus = assembleCorpus();
const TEXTS = [
  { name: "fixture (moonstone-short.txt)", text: fs.readFileSync(path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"), "utf8") },
  { name: "1 MB mixed corpus", text: repeatTo(corpus.text, 1_000_000) },
];
const SEMANTIC = ["chonkie-semantic", "langchain-semantic", "llamaindex-semantic", "semantic"];

const PASTE = (text) => {
  const data = new DataTransfer();
  data.setData("text/plain", text);
  const box = document.querySelector('[data-testid="text-input"]');
  box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
};

// In the page: from now, long tasks; resolves when the table is done with `rows` rows.
const TABLE = async (rows) => {
  const t0 = performance.now();
  const tasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push(e.duration);
  });
  observer.observe({ type: "longtask" });
  const table = () => document.querySelector('[data-testid="compare"]');
  // The job first starts (the table is emptied at once), then completes.
  await new Promise((r) => setTimeout(r, 100));
  for (;;) {
    const n = document.querySelectorAll('[data-testid="compare-row"]').length;
    if (table()?.dataset.state === "done" && n === rows) break;
    if (performance.now() - t0 > 600_000) throw new Error(`table not complete after 600 s: ${table()?.dataset.state}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - t0;
  observer.disconnect();
  const out = [...document.querySelectorAll('[data-testid="compare-row"]')].map((r) => ({
    strategy: r.dataset.strategy, chunks: r.dataset.chunks, millis: Number(r.dataset.millis),
  }));
  return { ms, tasks, rows: out };
};

const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
const browser = await launchChromium();
const results = [];
let failed = false;
let loadMs;
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === "ready", null, { timeout: 60_000 });
  for (const [i, { name, text }] of TEXTS.entries()) {
    progress(name);
    await page.selectOption('[data-testid="semantic-model"]', "off");
    const offDone = page.evaluate(TABLE, 17);
    await page.evaluate(PASTE, text);
    const off = await offDone;
    const t0 = Date.now();
    const onDone = page.evaluate(TABLE, 21);
    await page.selectOption('[data-testid="semantic-model"]', "potion-base-8m");
    if (i === 0) {
      await page.waitForFunction(() => document.querySelector('[data-testid="embed-status"]')?.dataset.state !== "loading"
        && document.querySelector('[data-testid="embed-status"]')?.dataset.state !== "off", null, { timeout: 120_000 });
      loadMs = Date.now() - t0;
    }
    const on = await onDone;
    results.push({ name, bytes: Buffer.byteLength(text), off, on });
  }
  await context.close();
} catch (e) {
  failed = true;
  say(`FAILED: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
say(`\n## The semantic rows in the page (headless Chromium, 512 / 64 tokens, potion-base-8M)\n`);
if (loadMs !== undefined) say(`Model first load (select to ready, its files from the local server): ${fmt(loadMs)} ms.\n`);
say("| text | bytes | table ms, semantic off | table ms, semantic on | semantic rows add, ms | longest main-thread task ms (on) | tasks > 50 ms (on) | rows: chunks (cut ms) |");
say("|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const longest = r.on.tasks.length ? Math.max(...r.on.tasks) : 0;
  const sem = r.on.rows.filter((x) => SEMANTIC.includes(x.strategy)).map((x) => `${x.strategy} ${x.chunks} (${fmt(x.millis)})`).join(", ");
  say(`| ${r.name} | ${fmt(r.bytes)} | ${fmt(r.off.ms)} | ${fmt(r.on.ms)} | ${fmt(r.on.ms - r.off.ms)} | ${longest ? fmt(longest) : "none > 50"} | ${r.on.tasks.filter((d) => d > 50).length} | ${sem} |`);
}
process.exitCode = failed ? 1 : 0;
