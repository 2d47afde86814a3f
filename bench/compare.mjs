// make bench, comparison part: the built page's comparison table (src/compare, run by the
// comparison worker, crates/compare-engine) on the repo fixture, 1 MB and 10 MB of the mixed
// corpus, in headless Chromium, at 512 / 64 tokens (cl100k_base). For each text it prints:
//  - ms from the paste until the exact count shows, and until the whole table is complete
//    (and the difference: the table "after the count");
//  - each strategy's worker time (the row's data-millis), summed;
//  - the longest main-thread task and how many took over 50 ms (the browser's "longtask"
//    entries, from the paste until the table is complete);
//  - how many progress values the table's bar showed;
//  - from a second, traced run (Chromium's devtools.timeline trace, which slows the page a
//    little; categories devtools.timeline, toplevel and disabled-by-default-devtools.timeline):
//    the main thread's own CPU time (from the paste to 300 ms after the table is complete) in
//    all, in its costliest task, and in its longest task against that task's wall time. On 2
//    cores the workers (count, comparison) compete with the page's thread, so a task's wall
//    time can be several times its CPU time;
// and the transfer size of the page's own wasm (the first paint) against the comparison
// engine's (fetched by its worker after the page started).
// Not a test: it prints figures. Exits 1 only when a step fails.
//
// Usage: node bench/compare.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { assembleCorpus, repeatTo, ROOT } from "./lib/corpus.mjs";
import { launchChromium } from "./lib/chromium.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:compare] ${s}\n`);
const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

const corpus = assembleCorpus();
const TEXTS = [
  { name: "fixture (moonstone-short.txt)", text: fs.readFileSync(path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"), "utf8") },
  { name: "1 MB mixed corpus", text: repeatTo(corpus.text, 1_000_000) },
  { name: "10 MB mixed corpus", text: repeatTo(corpus.text, 10_000_000) },
];

// In the page: long tasks and table progress values from now on, then the paste (own task).
const PASTE = (text) => {
  window.__bench = { t0: performance.now(), tasks: [], progress: new Set() };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.tasks.push(e.duration);
  }).observe({ type: "longtask" });
  const poll = () => {
    const bar = document.querySelector('[data-testid="compare-progress"]');
    if (bar) window.__bench.progress.add(bar.dataset.value);
    if (!window.__bench.done) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
  const data = new DataTransfer();
  data.setData("text/plain", text);
  const box = document.querySelector('[data-testid="text-input"]');
  window.__bench.t0 = performance.now();
  setTimeout(() => box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })));
};

// In the page: waits for the exact count, then the complete table; returns the figures.
const WAIT = async (bytes) => {
  const b = window.__bench;
  const status = () => document.querySelector('[data-testid="status"]');
  const table = () => document.querySelector('[data-testid="compare"]');
  let countMs;
  for (;;) {
    const now = performance.now() - b.t0;
    if (countMs === undefined && status()?.dataset.state === "ready" && status()?.dataset.bytes === String(bytes)) countMs = now;
    // The table must be of this text: it starts only once the text is in.
    if (countMs !== undefined && table()?.dataset.state === "done") break;
    if (now > 600_000) throw new Error(`table not complete after 600 s: ${table()?.dataset.state}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const tableMs = performance.now() - b.t0;
  await new Promise((r) => setTimeout(r, 300));
  b.done = true;
  const rows = [...document.querySelectorAll('[data-testid="compare-row"]')].map((r) => ({
    strategy: r.dataset.strategy,
    millis: Number(r.dataset.millis),
    chunks: r.dataset.chunks,
  }));
  return { countMs, tableMs, tasks: b.tasks, progress: b.progress.size, rows };
};

const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length;
const files = fs.readdirSync(DIST);
const pageWasm = files.find((f) => f.startsWith("rag-chunk-calculator-") && f.endsWith("_bg.wasm"));
const engineWasm = files.find((f) => f === "compare-engine_bg.wasm");

// A fresh context's page with the comparison engine ready: { context, page }.
async function readyPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === "ready", null, { timeout: 60_000 });
  return { context, page };
}

// A second run of `text` under a trace: the page's main-thread tasks from the paste until the
// table is complete, as { total, costliest, longestWall, longestCpu } in ms (CPU: the trace's
// thread time).
async function tracedCpu(text) {
  const { context, page } = await readyPage();
  const events = [];
  try {
    const cdp = await context.newCDPSession(page);
    cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
    const complete = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["devtools.timeline", "toplevel", "disabled-by-default-devtools.timeline"] }, transferMode: "ReportEvents" });
    await page.evaluate(PASTE, text);
    await page.evaluate(WAIT, Buffer.byteLength(text));
    await cdp.send("Tracing.end");
    await complete;
  } finally {
    await context.close();
  }
  // The page's main thread is the one that dispatches the paste; from that task on: the
  // harness's own task before it (handing the text to the page, 10 MB of it) is not the
  // page's work.
  const paste = events.find((e) => e.name === "EventDispatch" && e.args?.data?.type === "paste");
  if (!paste) throw new Error("the trace holds no paste event");
  const onMain = (e) => e.pid === paste.pid && e.tid === paste.tid;
  const from = events
    .filter((e) => onMain(e) && e.name === "RunTask" && e.ts <= paste.ts && paste.ts <= e.ts + e.dur)
    .reduce((a, e) => Math.min(a, e.ts), Infinity);
  if (from === Infinity) throw new Error("the trace holds no task around the paste");
  const tasks = events.filter((e) => e.name === "RunTask" && onMain(e) && e.ts >= from && e.dur !== undefined && e.tdur !== undefined);
  const longest = tasks.reduce((a, t) => (t.dur > a.dur ? t : a), { dur: 0, tdur: 0 });
  return {
    total: tasks.reduce((s, t) => s + t.tdur, 0) / 1000,
    costliest: Math.max(0, ...tasks.map((t) => t.tdur)) / 1000,
    longestWall: longest.dur / 1000,
    longestCpu: longest.tdur / 1000,
  };
}

const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
const browser = await launchChromium();
const results = [];
let failed = false;
try {
  for (const { name, text } of TEXTS) {
    progress(name);
    const { context, page } = await readyPage();
    await page.evaluate(PASTE, text);
    const r = await page.evaluate(WAIT, Buffer.byteLength(text));
    await context.close();
    results.push({ name, bytes: Buffer.byteLength(text), ...r, cpu: await tracedCpu(text) });
  }
} catch (e) {
  failed = true;
  say(`FAILED: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
say(`\n## The comparison table in the page (headless Chromium, 512 / 64 tokens, cl100k_base, every strategy)\n`);
say("| text | bytes | ms to exact count | ms to complete table | table after the count, ms | worker ms (sum of rows) | longest main-thread task ms | tasks > 50 ms | progress values | traced: main-thread CPU ms, all / costliest task / longest task (its wall ms) |");
say("|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const longest = r.tasks.length ? Math.max(...r.tasks) : 0;
  const worker = r.rows.reduce((s, x) => s + x.millis, 0);
  say(`| ${r.name} | ${fmt(r.bytes)} | ${fmt(r.countMs)} | ${fmt(r.tableMs)} | ${fmt(r.tableMs - r.countMs)} | ${fmt(worker)} | ${longest ? fmt(longest) : "none > 50"} | ${r.tasks.filter((d) => d > 50).length} | ${r.progress} | ${fmt(r.cpu.total)} / ${fmt(r.cpu.costliest)} / ${fmt(r.cpu.longestCpu)} (${fmt(r.cpu.longestWall)}) |`);
}
for (const r of results) {
  say(`\nWorker ms per strategy on the ${r.name}: ${r.rows.map((x) => `${x.strategy} ${fmt(x.millis)}`).join(", ")}.`);
}
if (pageWasm && engineWasm) {
  say(`\nFirst paint needs the page's wasm: ${(gz(pageWasm) / 1e6).toFixed(2)} MB gzip -9; the comparison engine's wasm (fetched by its worker after the page started): ${(gz(engineWasm) / 1e6).toFixed(2)} MB gzip -9.`);
}
process.exitCode = failed ? 1 : 0;
