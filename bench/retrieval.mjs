// make bench, retrieval part: the built page's retrieval check (src/retrieval/, run by
// the comparison worker, crates/compare-engine) in headless Chromium, at the page's defaults.
// The text is the repo fixture repeated to about 1 MB and the 10 question/answer pairs are those
// of crates/chunk-core/examples/retrieval_sweep.rs (the native timing of the same sweep), so the
// two can be set side by side. It prints:
//  - the retrieval table (one row per strategy): ms from the import of the pairs until the
//    table is complete, each row's worker time (data-millis) and their sum (the superlinear
//    strategies run in the page's second worker, so the sum can exceed the table's time);
//  - the sweep of one strategy (`fixed`, 60 settings): ms from the click until the heatmap is
//    complete (the worker reports no time of its own for a sweep: this bounds it), how many
//    progress values its bar showed, the total it announced, the best setting it marked;
//  - for each of the two, the longest main-thread task and how many took over 50 ms (the
//    browser's "longtask" entries, from its start until it is complete, plus 300 ms).
// Then the same with dense retrieval (the retriever select on `dense`), on the fixture × 3
// (about 340 KB): with potion-base-8M, the retrieval table (BM25, dense and hybrid rows) and the
// whole sweep; with all-MiniLM-L6-v2 (some 40 minutes of embedding for that table on 2 cores),
// the table's embedding for SLOW_MS, the progress values its status line showed
// (`embed-status` data-done), then its stop button (`embed-stop`) and the ms until the table is
// complete without the model (its BM25 rows; the dense and hybrid ones refused). The model's
// download counts in the table's time.
// Not a test: it prints figures, the issue's budget as a goal beside them. Exits 1 only when a
// step fails (the page does not come up, an import is refused, a wait runs out).
//
// Usage: node bench/retrieval.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/corpus.mjs";
import { forwardProgress, launchChromium } from "./lib/chromium.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:retrieval] ${s}\n`);
const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

/** Every wait of this part, in ms: generous, a slow machine must not fail it. */
const TIMEOUT = 300_000;
/** The strategy swept (an option value of `sweep-strategy`: a strategy id). */
const SWEEP_STRATEGY = "fixed";

// The fixture repeated to about 1 MB, as retrieval_sweep.rs does it: floor(10^6 / its bytes)
// copies, at least one.
const FIXTURE = path.join(ROOT, "tests", "fixtures", "moonstone-short.txt");
const fixture = fs.readFileSync(FIXTURE);
const copies = Math.max(1, Math.floor(1_000_000 / fixture.length));
/** The dense passes' text: the fixture × DENSE_COPIES. */
const DENSE_COPIES = 3;
/** How long all-MiniLM-L6-v2 embeds before its stop button is clicked, in ms. */
const SLOW_MS = 20_000;

// The PAIRS of crates/chunk-core/examples/retrieval_sweep.rs, in its order.
const PAIRS = [
  ["Who crossed India and seized Somnauth?", "Mahmoud of Ghizni"],
  ["Where did Tippoo have the Diamond placed?", "as an ornament in the handle of a dagger"],
  ["What did the dying Indian say?", "Moonstone will have its vengeance yet on you and yours!"],
  ["When was Seringapatam stormed?", "the 4th of May, 1799"],
  ["What does the writer refuse his cousin?", "right hand of friendship"],
  ["What god does the stone adorn?", "the four-handed Indian god who typifies the Moon"],
  ["Who watched the Diamond in disguise?", "the three\nguardian priests followed and watched it in disguise"],
  ["Who held the torch and the dagger?", "I saw John Herncastle, with a torch in one hand"],
  ["Who can't do without Gabriel Betteredge?", '"Sir John," she says, "I can\'t\ndo without Gabriel Betteredge."'],
  ["Whose temper got the better of him?", "Herncastle's unlucky temper got the better of him"],
];

// Each answer located in the fixture (one copy), as chunk_core::retrieval::locate_answer does:
// it must occur exactly once there (overlapping occurrences count). In the repeated text every
// answer occurs once per copy, so the pairs are given as UTF-8 byte spans of the first copy
// (`start`, `end`), the page's import format for a span (chunk_core::retrieval::qa_jsonl).
function locate(answer) {
  const needle = Buffer.from(answer, "utf8");
  const at = fixture.indexOf(needle);
  if (at < 0) throw new Error(`answer not in the fixture: ${JSON.stringify(answer)}`);
  if (fixture.indexOf(needle, at + 1) >= 0) throw new Error(`answer more than once in the fixture: ${JSON.stringify(answer)}`);
  return { start: at, end: at + needle.length };
}
const QA_JSONL = PAIRS.map(([question, answer]) => JSON.stringify({ question, ...locate(answer) })).join("\n") + "\n";

// In the page: long tasks (start and duration, so that each measured span takes its own) and
// the sweep bar's progress values from now on, then the paste of the text (own task).
const PASTE = (text) => {
  window.__bench = { tasks: [], progress: new Set(), total: undefined, polling: true };
  // Polls `ready()` every 20 ms until it is true; throws with `what()` after `limit` ms.
  window.__bench.until = async (ready, what, limit) => {
    const t0 = performance.now();
    while (!ready()) {
      if (performance.now() - t0 > limit) throw new Error(what());
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask" });
  const poll = () => {
    const bar = document.querySelector('[data-testid="sweep-progress"]');
    if (bar && window.__bench.sweeping) {
      window.__bench.progress.add(bar.dataset.value);
      window.__bench.total = bar.dataset.total;
    }
    if (window.__bench.polling) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
  const data = new DataTransfer();
  data.setData("text/plain", text);
  const box = document.querySelector('[data-testid="text-input"]');
  setTimeout(() => box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })));
};

// In the page: waits until the text is in (its exact count) and the comparison table of it is
// complete, so that the retrieval runs in a worker with nothing else queued.
const WAIT_TEXT = async ({ bytes, limit }) => {
  const { until } = window.__bench;
  const status = () => document.querySelector('[data-testid="status"]');
  const table = () => document.querySelector('[data-testid="compare"]');
  await until(() => status()?.dataset.state === "ready" && status()?.dataset.bytes === String(bytes),
    () => `text not counted after ${limit / 1000} s: status ${status()?.dataset.state}, ${status()?.dataset.bytes} bytes`, limit);
  await until(() => table()?.dataset.state === "done",
    () => `comparison table not complete after ${limit / 1000} s: ${table()?.dataset.state}`, limit);
};

// In the page: the import's start is the file input's change event (the file is chosen).
const ARM_IMPORT = () => {
  const b = window.__bench;
  document.querySelector('[data-testid="qa-import"]').addEventListener("change", () => { b.importT0 = performance.now(); }, { once: true, capture: true });
};

// In the page: waits for the pairs (every one `ok`), then the complete retrieval table; returns
// its figures.
const WAIT_RETRIEVAL = async ({ pairs, limit }) => {
  const b = window.__bench;
  const { until } = b;
  const section = () => document.querySelector('[data-testid="retrieval"]');
  const items = () => [...document.querySelectorAll('[data-testid="qa-pair"]')];
  const message = () => document.querySelector('[data-testid="qa-import-message"]');
  const importFailed = () => message()?.classList.contains("error");
  await until(() => b.importT0 !== undefined, () => "the import's change event never came", limit);
  await until(() => importFailed() || items().some((e) => e.dataset.state === "error") || items().filter((e) => e.dataset.state === "ok").length === pairs,
    () => `pairs not all ok after ${limit / 1000} s: ${items().map((e) => e.dataset.state).join(",")}`, limit);
  if (importFailed()) throw new Error(`the page refused the import: ${message().textContent.trim()}`);
  const refused = items().filter((e) => e.dataset.state === "error");
  if (refused.length) throw new Error(`the page refused ${refused.length} pair(s): ${refused.map((e) => e.textContent.trim()).join(" | ")}`);
  const pairsMs = performance.now() - b.importT0;
  const rows = () => document.querySelectorAll('[data-testid="retrieval-row"]');
  // "failed" (the engine) and "invalid" (a field) do not change by themselves: no use waiting.
  await until(() => ["done", "failed", "invalid"].includes(section()?.dataset.state) && rows().length > 0,
    () => `retrieval table not complete after ${limit / 1000} s: ${section()?.dataset.state}, ${rows().length} rows`, limit);
  if (section().dataset.state !== "done") throw new Error(`the retrieval section is ${section().dataset.state}`);
  const tableMs = performance.now() - b.importT0;
  await new Promise((r) => setTimeout(r, 300));
  const end = performance.now();
  return {
    pairsMs,
    tableMs,
    tasks: b.tasks.filter((t) => t.start >= b.importT0 && t.start <= end).map((t) => t.duration),
    rows: [...rows()].map((r) => ({ ...r.dataset })),
  };
};

// In the page: clicks `sweep-run` in its own task, waits for the complete heatmap; returns its
// figures.
const SWEEP = async ({ limit }) => {
  const b = window.__bench;
  const { until } = b;
  const heatmap = () => document.querySelector('[data-testid="sweep-heatmap"]');
  const run = () => document.querySelector('[data-testid="sweep-run"]');
  const before = heatmap()?.dataset.state;
  if (before !== "idle") throw new Error(`the heatmap is ${before} before the click`);
  await until(() => run() && !run().disabled, () => `sweep-run still disabled after ${limit / 1000} s`, limit);
  b.progress.clear();
  b.sweeping = true;
  await new Promise((r) => setTimeout(() => {
    b.sweepT0 = performance.now();
    run().click();
    r();
  }));
  await until(() => heatmap()?.dataset.state === "done",
    () => `heatmap not complete after ${limit / 1000} s: ${heatmap()?.dataset.state}`, limit);
  const sweepMs = performance.now() - b.sweepT0;
  await new Promise((r) => setTimeout(r, 300));
  const end = performance.now();
  b.sweeping = false;
  b.polling = false;
  const bar = document.querySelector('[data-testid="sweep-progress"]');
  return {
    sweepMs,
    tasks: b.tasks.filter((t) => t.start >= b.sweepT0 && t.start <= end).map((t) => t.duration),
    progress: b.progress.size,
    total: bar?.dataset.total ?? b.total,
    lastValue: bar?.dataset.value,
    strategy: heatmap().dataset.strategy,
    best: document.querySelector('[data-testid="sweep-best"]')?.dataset.value,
  };
};

// In the page: clicks the embedding model's stop button `runMs` after the import, keeping the
// status line's progress values meanwhile; returns them, the ms from the click until the
// retrieval table is complete, and its rows.
const STOP_EMBEDDING = async ({ runMs, limit }) => {
  const b = window.__bench;
  const status = () => document.querySelector('[data-testid="embed-status"]');
  const section = () => document.querySelector('[data-testid="retrieval"]');
  await b.until(() => b.importT0 !== undefined, () => "the import's change event never came", limit);
  const done = new Set();
  const states = new Set();
  while (performance.now() - b.importT0 < runMs) {
    const d = status()?.dataset.done;
    if (d) done.add(d);
    states.add(status()?.dataset.state);
    await new Promise((r) => setTimeout(r, 50));
  }
  const before = section()?.dataset.state;
  const t1 = performance.now();
  document.querySelector('[data-testid="embed-stop"]').click();
  await b.until(() => ["done", "failed", "invalid"].includes(section()?.dataset.state),
    () => `the retrieval table is still ${section()?.dataset.state} ${limit / 1000} s after the stop`, limit);
  const stopMs = performance.now() - t1;
  await new Promise((r) => setTimeout(r, 300));
  const rows = [...document.querySelectorAll('[data-testid="retrieval-row"]')].map((r) => ({ ...r.dataset }));
  return {
    stateBefore: before,
    stateAfter: section()?.dataset.state,
    statusStates: [...states].filter(Boolean),
    stopMs,
    progress: done.size,
    lastDone: [...done].map(Number).sort((x, y) => x - y).at(-1),
    rows,
    tasks: b.tasks.filter((t) => t.start >= b.importT0).map((t) => t.duration),
  };
};

/**
 * One pass: a fresh page, the text pasted and counted, the retriever (and model) chosen, the
 * pairs imported and the retrieval table waited for, then the sweep of SWEEP_STRATEGY; with
 * `stop`, the embedding stopped SLOW_MS after the import instead. Resolves to
 * `{ bytes, retrieval, sweep }` or `{ bytes, stopped }`.
 */
async function pass(browser, url, { copies: n, retriever, model, stop }) {
  const text = fixture.toString("utf8").repeat(n);
  const bytes = Buffer.byteLength(text);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    forwardProgress(page, progress);
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === "ready", null, { timeout: 60_000 });
    progress(`${retriever}${model ? ` (${model})` : ""}: pasting the fixture × ${n} (${bytes.toLocaleString("en-US")} bytes), waiting for the comparison table`);
    await page.evaluate(PASTE, text);
    await page.evaluate(WAIT_TEXT, { bytes, limit: TIMEOUT });
    await page.selectOption('[data-testid="retriever"]', retriever);
    if (model) await page.selectOption('[data-testid="dense-model"]', model);
    progress(`importing ${PAIRS.length} pairs, waiting for the retrieval table`);
    await page.evaluate(ARM_IMPORT);
    await page.setInputFiles('[data-testid="qa-import"]', { name: "qa.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(QA_JSONL, "utf8") });
    if (stop) {
      progress(`embedding for ${SLOW_MS / 1000} s, then the stop button`);
      return { bytes, stopped: await page.evaluate(STOP_EMBEDDING, { runMs: SLOW_MS, limit: TIMEOUT }) };
    }
    const retrieval = await page.evaluate(WAIT_RETRIEVAL, { pairs: PAIRS.length, limit: TIMEOUT });
    await page.selectOption('[data-testid="sweep-strategy"]', SWEEP_STRATEGY);
    progress(`sweeping ${SWEEP_STRATEGY}, waiting for the heatmap`);
    const sweep = await page.evaluate(SWEEP, { limit: TIMEOUT });
    if (sweep.strategy !== SWEEP_STRATEGY) throw new Error(`the heatmap is of ${sweep.strategy}, not ${SWEEP_STRATEGY}`);
    return { bytes, retrieval, sweep };
  } finally {
    await context.close();
  }
}

// PASSES=bm25,potion,minilm by default (the environment variable of that name chooses fewer).
const ALL_PASSES = [
  { key: "bm25", label: "BM25", copies, retriever: "bm25" },
  { key: "potion", label: "dense, potion-base-8M", copies: DENSE_COPIES, retriever: "dense", model: "potion-base-8m" },
  { key: "minilm", label: "dense, all-MiniLM-L6-v2", copies: DENSE_COPIES, retriever: "dense", model: "all-minilm-l6-v2", stop: true },
];
const wanted = (process.env.PASSES ?? "bm25,potion,minilm").split(",");
const PASSES = ALL_PASSES.filter((p) => wanted.includes(p.key));
const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
const browser = await launchChromium();
const results = [];
let failed = false;
try {
  for (const p of PASSES) {
    try {
      results.push({ ...p, ...(await pass(browser, url, p)) });
    } catch (e) {
      failed = true;
      say(`FAILED (${p.label}): ${e.message}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const longest = (tasks) => (tasks.length ? fmt(Math.max(...tasks)) : "none > 50");
const over50 = (tasks) => tasks.filter((d) => d > 50).length;
say(`\n## The retrieval check in the page (headless Chromium, ${PAIRS.length} pairs)\n`);
say("goals: the BM25 sweep ≤ 3 s; the dense sweep with the static model ≤ 10 s on 300 KB, with MiniLM shown with progress and cancellable; no main-thread task over 50 ms (figures, not a test)\n");
say("| pass | text | run | ms to complete | worker ms | longest main-thread task ms | tasks > 50 ms | progress values | notes |");
say("|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const t = `moonstone-short.txt × ${r.copies} = ${fmt(r.bytes)} B`;
  const { retrieval, sweep, stopped } = r;
  if (retrieval) {
    const worker = retrieval.rows.reduce((sum, row) => sum + Number(row.millis), 0);
    const kinds = [...new Set(retrieval.rows.map((row) => row.retriever ?? "bm25"))].join(", ");
    say(`| ${r.label} | ${t} | retrieval table (${retrieval.rows.length} rows: ${kinds}), from the import | ${fmt(retrieval.tableMs)} | ${fmt(worker)} (sum of rows) | ${longest(retrieval.tasks)} | ${over50(retrieval.tasks)} | – | pairs ok after ${fmt(retrieval.pairsMs)} ms |`);
  }
  if (sweep) {
    say(`| ${r.label} | ${t} | sweep of ${SWEEP_STRATEGY} (${sweep.total ?? "?"} settings), from the click | ${fmt(sweep.sweepMs)} | – (ms to complete bounds it) | ${longest(sweep.tasks)} | ${over50(sweep.tasks)} | ${sweep.progress} (last ${sweep.lastValue ?? "?"} / ${sweep.total ?? "?"}) | best: ${sweep.best ? sweep.best : "none keeps every answer whole in the top 3"} |`);
  }
  if (stopped) {
    const refused = stopped.rows.filter((row) => row.refused !== undefined).length;
    say(`| ${r.label} | ${t} | retrieval table, the model stopped ${SLOW_MS / 1000} s after the import | stop → table ${stopped.stateAfter} in ${fmt(stopped.stopMs)} ms | – | ${longest(stopped.tasks)} | ${over50(stopped.tasks)} | ${stopped.progress} texts-done values (last ${stopped.lastDone ?? "none"}) | table ${stopped.stateBefore} before the stop; status ${stopped.statusStates.join(" → ")}; after: ${stopped.rows.length} rows, ${refused} refused |`);
  }
}
const bm25 = results.find((r) => r.retriever === "bm25");
if (bm25?.retrieval.rows.length) {
  const row = (r) => `${r.strategy} ${fmt(Number(r.millis))}${r.refused !== undefined ? " (refused)" : ""}`;
  say(`\nWorker ms per strategy in the BM25 retrieval table: ${bm25.retrieval.rows.map(row).join(", ")}.`);
  say("The superlinear strategies run in the page's second worker, beside the others: the sum can exceed the table's time.");
}
process.exitCode = failed ? 1 : 0;
