// make bench, Chromium part: the same measurements as bench/node.mjs, in headless Chromium
// (/usr/bin/chromium through playwright-core; no browser is downloaded). Serves bench/ and the
// assembled corpus (target/bench/ as /data/) on 127.0.0.1, opens browser/page.html, prints the
// figures; exits 1 when a peer's token count differs from ours.
import { ENCODINGS, PEERS, TOKENIZERS } from "./lib/adapters.mjs";
import { buildBundles } from "./lib/bundle.mjs";
import { assembleCorpus } from "./lib/corpus.mjs";
import { RUNS, WORST_CASES, median, utf8Bytes } from "./lib/measure.mjs";
import { printReport, printWorkerThroughput } from "./lib/report.mjs";
import { launchChromium } from "./lib/chromium.mjs";
import { serve } from "./lib/serve.mjs";

/** Warm-up encodes in each fresh worker before its timed runs, in ms (V8's tier-up). */
const WORKER_WARM_MS = 1500;
/** Timed encodes in each worker (more than RUNS: one worker's figure moved by a third between runs). */
const WORKER_RUNS = 7;
const progress = (s) => process.stderr.write(`[bench:chromium] ${s}\n`);

const corpus = assembleCorpus();
const sizes = await buildBundles();
const server = await serve();
const pageUrl = `http://127.0.0.1:${server.address().port}/browser/page.html`;
const browser = await launchChromium();

/** A fresh context (no cache) with the bench page loaded. */
async function freshPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("pageerror", (e) => progress(`page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && progress(`console: ${m.text()}`));
  await page.goto(pageUrl);
  await page.waitForFunction(() => window.benchReady === true);
  return { context, page };
}

let mismatches = [];
try {
  const coldRows = [];
  for (const enc of ENCODINGS) {
    for (const { id } of TOKENIZERS) {
      progress(`cold set-up: ${id} ${enc}`);
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { context, page } = await freshPage();
        runs.push(await page.evaluate(([t, e]) => window.bench.cold(t, e), [id, enc]));
        await context.close();
      }
      const pick = (k) => median(runs.map((r) => r[k]));
      coldRows.push({ tok: id, enc, loadMs: pick("loadMs"), createMs: pick("createMs"), firstMs: pick("firstMs"), count: runs[0].count });
    }
  }

  const through = {};
  const worst = { ours: {}, peers: [] };
  for (const enc of ENCODINGS) {
    progress(`throughput and our worst cases: ${enc}`);
    const { context, page } = await freshPage();
    const r = await page.evaluate(([e, ids]) => window.bench.throughput(e, ids), [enc, TOKENIZERS.map((t) => t.id)]);
    through[enc] = r.rows;
    worst.ours[enc] = r.worst;
    await context.close();
  }

  // Each tokenizer alone in a fresh Web Worker, where the page runs ours: no other module in
  // the thread or its heap (the main-thread figures above load all of them into one page).
  const inWorker = [];
  {
    const { context, page } = await freshPage();
    for (const enc of ENCODINGS) {
      for (const { id } of TOKENIZERS) {
        progress(`throughput in a worker: ${id} ${enc}`);
        const r = await page.evaluate(([t, e, n, w]) => window.bench.encodeRuns(t, e, "corpus.txt", n, true, w), [id, enc, WORKER_RUNS, WORKER_WARM_MS]);
        inWorker.push({ tok: id, enc, tokens: r.tokens, ms: median(r.ms) });
      }
    }
    await context.close();
  }

  const { context, page } = await freshPage();
  for (const enc of ENCODINGS) {
    for (const { name } of WORST_CASES) {
      for (const { id } of PEERS) {
        progress(`worst case: ${id} ${enc} ${name}`);
        worst.peers.push(await page.evaluate(([t, e, n]) => window.bench.worstPeer(t, e, n), [id, enc, name]));
      }
    }
  }
  await context.close();

  mismatches = printReport({
    env: `headless Chromium ${browser.version()}`,
    corpus: { bytes: corpus.bytes, sha256: corpus.sha256, parts: corpus.parts, sampleBytes: utf8Bytes(corpus.sample) },
    sizes,
    cold: coldRows,
    coldWhere: "a fresh browser context and page per run",
    coldRuns: RUNS,
    throughput: through,
    worst,
    worstWhere: "a Web Worker",
  });
  printWorkerThroughput(inWorker, corpus.bytes, WORKER_WARM_MS, WORKER_RUNS, mismatches);
} finally {
  await browser.close();
  server.close();
}
process.exitCode = mismatches.length ? 1 : 0;
