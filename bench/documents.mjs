// make bench, documents part: the built page's document reader (crates/extract-engine in its
// worker, src/extract_job.rs) on the repo's PDF fixture and on a large PDF written here, in
// headless Chromium. The large PDF is about 52 MB (bench/lib/pdf.mjs): 1,500 pages of the
// fixture's text in Helvetica (uncompressed content streams) and 90 pages holding one
// incompressible 500 KB image each, as scanned inserts do. For each file it prints:
//  - ms from the file choice until the summary shows, and the reader's own ms (data-millis);
//  - pages, characters, MB per second of file read;
//  - how many progress lines the page showed (`data-done` values);
//  - the longest main-thread task and how many took over 50 ms ("longtask" entries, from the
//    choice until the summary);
// then, on the large file, the stop button: ms from the click until the page says it stopped;
// and the reader module's transfer size (fetched only when a document is opened).
// Not a test: it prints figures. Exits 1 only when a step fails.
//
// Usage: node bench/documents.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ROOT } from "./lib/corpus.mjs";
import { launchChromium } from "./lib/chromium.mjs";
import { largePdf } from "./lib/pdf.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:documents] ${s}\n`);
const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

// In the page: long tasks and progress lines from now on.
const WATCH = () => {
  window.__bench = { t0: performance.now(), tasks: [], done: new Set() };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.tasks.push(e.duration);
  }).observe({ type: "longtask" });
  new MutationObserver(() => {
    const m = document.querySelector('[data-testid="file-message"]');
    if (m?.dataset.state === "reading" && m.dataset.done) window.__bench.done.add(m.dataset.done);
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
};

// In the page: waits for the summary, then returns the figures.
const SUMMARY = async () => {
  const b = window.__bench;
  for (;;) {
    const s = document.querySelector('[data-testid="extract-summary"]');
    if (s) {
      const ms = performance.now() - b.t0;
      return { ms, millis: Number(s.dataset.millis), pages: Number(s.dataset.pages), chars: Number(s.dataset.chars), without: Number(s.dataset.pagesWithoutText), unreadable: Number(s.dataset.pagesUnreadable), tasks: b.tasks, progress: b.done.size };
    }
    const refused = document.querySelector('[data-testid="file-message"][data-reason]');
    if (refused) throw new Error(`refused: ${refused.dataset.reason}: ${refused.textContent}`);
    if (performance.now() - b.t0 > 600_000) throw new Error("no summary after 600 s");
    await new Promise((r) => setTimeout(r, 10));
  }
};

const fixtureText = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"), "utf8");
const lines = fixtureText.split("\n").filter((l) => l.trim() !== "");
progress("writing the large PDF");
const large = largePdf(lines, 1500, 90, 500_000);
// Files are chosen by path: Playwright then hands the browser the file itself, where a buffer
// would be decoded from base64 by script on the page's main thread (a 10 s task for 50 MB
// that is the harness's, not the page's).
const largePath = path.join(ROOT, "target", "bench", "large.pdf");
fs.mkdirSync(path.dirname(largePath), { recursive: true });
fs.writeFileSync(largePath, large.bytes);
const FILES = [
  { name: "moonstone.pdf (fixture)", file: path.join(ROOT, "tests", "fixtures", "moonstone.pdf") },
  { name: `large.pdf (${large.pages} pages)`, file: largePath },
];

const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
const browser = await launchChromium();
// A new context's page, once the comparison engine is ready (the page has settled).
async function readyPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === "ready", null, { timeout: 60_000 });
  return { context, page };
}
const results = [];
let stopMs;
let failed = false;
try {
  for (const { name, file } of FILES) {
    progress(name);
    const { context, page } = await readyPage();
    await page.evaluate(WATCH);
    await page.locator('[data-testid="file-input"]').setInputFiles(file);
    const r = await page.evaluate(SUMMARY);
    results.push({ name, size: fs.statSync(file).size, ...r });
    await context.close();
  }
  progress("the stop button on the large PDF");
  const { context, page } = await readyPage();
  await page.locator('[data-testid="file-input"]').setInputFiles(largePath);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="file-message"]')?.dataset.done) > 100, null, { timeout: 120_000 });
  stopMs = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="extract-cancel"]').click();
    while (document.querySelector('[data-testid="file-message"]')?.dataset.state !== "cancelled") await new Promise((r) => setTimeout(r, 1));
    return performance.now() - t0;
  });
  await context.close();
} catch (e) {
  failed = true;
  say(`FAILED: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}

const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
say(`\n## Reading PDFs in the page (headless Chromium, the reader worker)\n`);
say("| file | MB | pages | without text / unreadable | characters | ms to summary | reader ms | MB/s | progress lines | longest main-thread task ms | tasks > 50 ms |");
say("|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const longest = r.tasks.length ? Math.max(...r.tasks) : 0;
  say(`| ${r.name} | ${fmt(r.size / 1e6, 1)} | ${fmt(r.pages)} | ${r.without} / ${r.unreadable} | ${fmt(r.chars)} | ${fmt(r.ms)} | ${fmt(r.millis)} | ${fmt(r.size / 1e6 / (r.millis / 1000), 1)} | ${r.progress} | ${fmt(longest)} | ${r.tasks.filter((t) => t > 50).length} |`);
}
if (stopMs !== undefined) say(`\nStop button on the large PDF: the page said it stopped ${fmt(stopMs)} ms after the click.`);
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length;
const raw = (f) => fs.statSync(path.join(DIST, f)).size;
say(`Reader module (fetched only when a document is opened): extract-engine_bg.wasm ${fmt(raw("extract-engine_bg.wasm"))} B raw, ${fmt(gz("extract-engine_bg.wasm"))} B gzip.`);
process.exit(failed ? 1 : 0);
