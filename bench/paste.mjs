// make bench, paste part (issue 11): paste → exact count per MB of text in the built page (a
// Trunk release build), against a plain gpt-tokenizer `encode` of the same text in the same
// headless Chromium. For 1 MB and 10 MB of the mixed corpus and of plain English prose it prints:
//  - the page: a fresh page whose tokenizer worker is ready, a first paste (timed on its own:
//    the table's remaining set-up and every first-use cost are in it), then RUNS pastes (a
//    paste event, as page.mjs dispatches it, "clear" before each), each timed from the paste
//    until the status shows the text's exact count;
//  - gpt-tokenizer (cl100k_base): RUNS timed encodes after a warm-up one, in the main thread of
//    the Chromium part's bench page (bench/browser/page.html) and in a Web Worker of it; and
//    its first encode in a fresh Web Worker (after its load and create), against the page's
//    first paste: the speed-up peer ÷ page (the goal: ≥ 2);
//  - median and min ms, ms per MB (MB = 10^6 bytes, from the medians), the ratio page ÷
//    gpt-tokenizer (< 1: the page is faster), both counts, whether the page's worker counted.
// Not a test: it prints figures. Exits 1 only when a count differs from gpt-tokenizer's
// (cl100k_base) or a step fails.
//
// Usage: node bench/paste.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import path from "node:path";
import { buildBundles } from "./lib/bundle.mjs";
import { withServedPage } from "./lib/chromium.mjs";
import { assembleCorpus, OUT, repeatTo, ROOT } from "./lib/corpus.mjs";
import { median, utf8Bytes } from "./lib/measure.mjs";
import { INSTRUMENT, PASTE, STAGE_PASTE, WAIT_READY, clearText, openPage } from "./lib/page-hooks.mjs";
import { loudBlock, table } from "./lib/report.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
/** Timed pastes (page) and timed encodes (gpt-tokenizer, each thread) per text. */
const RUNS = 7;
const PEER = "gpt-tokenizer";
const ENCODING = "cl100k_base";
/** Where the texts are written; the bench page fetches them as /data/paste/… */
const DIR = path.join(OUT, "paste");
const say = (s = "") => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:paste] ${s}\n`);
const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

const corpus = assembleCorpus();
const PROSE = path.join(ROOT, "tests", "fixtures", "moonstone-short.txt");
const prose = fs.readFileSync(PROSE, "utf8");
const TEXTS = [
  { name: "mixed 1 MB (each corpus part's head)", file: "mixed-1mb.txt", text: repeatTo(corpus.mixed, 1e6) },
  { name: "mixed 10 MB (page.mjs's: the corpus repeated)", file: "mixed-10mb.txt", text: repeatTo(corpus.text, 1e7) },
  { name: "English prose 1 MB (moonstone-short.txt repeated)", file: "prose-1mb.txt", text: repeatTo(prose, 1e6) },
  { name: "English prose 10 MB (the same)", file: "prose-10mb.txt", text: repeatTo(prose, 1e7) },
];

/** In a fresh page (worker ready): the first paste, then RUNS more, each timed. */
async function pageRuns(browser, url, { text, bytes }) {
  const { context, page } = await openPage(browser, url);
  try {
    await page.evaluate(STAGE_PASTE, text);
    const paste = async () => {
      await page.evaluate(INSTRUMENT);
      await page.evaluate(PASTE);
      return page.evaluate(WAIT_READY, bytes);
    };
    const first = await paste();
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      await clearText(page);
      runs.push(await paste());
    }
    return { first, runs };
  } finally {
    await context.close();
  }
}

await buildBundles([PEER]);
fs.mkdirSync(DIR, { recursive: true });
for (const t of TEXTS) {
  t.bytes = utf8Bytes(t.text);
  fs.writeFileSync(path.join(DIR, t.file), t.text);
}
const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
let version = "";
try {
  await withServedPage(progress, async ({ page: bench, base, browser }) => {
    version = browser.version();
    await bench.goto(`${base}browser/page.html`);
    await bench.waitForFunction(() => window.benchReady === true);
    for (const t of TEXTS) {
      progress(`page: ${t.name}`);
      t.page = await pageRuns(browser, url, t);
      for (const where of ["main", "worker"]) {
        progress(`${PEER} (${where}): ${t.name}`);
        t[where] = await bench.evaluate(([tok, enc, file, runs, inWorker]) => window.bench.encodeRuns(tok, enc, file, runs, inWorker),
          [PEER, ENCODING, `paste/${t.file}`, RUNS, where === "worker"]);
      }
      progress(`${PEER} (first encode, fresh worker): ${t.name}`);
      t.first = await bench.evaluate(([tok, enc, file]) => window.bench.firstEncode(tok, enc, file),
        [PEER, ENCODING, `paste/${t.file}`]);
    }
  });
} finally {
  server.close();
}

const int = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n >= 100 ? int(n) : n.toFixed(1));
const perMB = (n, bytes) => ms(n / (bytes / 1e6));
const mismatches = [];
const rows = [];
const checks = [];
const firsts = [];
for (const t of TEXTS) {
  const page = t.page.runs.map((r) => r.ms);
  const [p, m, w] = [median(page), median(t.main.ms), median(t.worker.ms)];
  rows.push([t.name, (t.bytes / 1e6).toFixed(2), ms(p), ms(Math.min(...page)), perMB(p, t.bytes),
    ms(m), ms(Math.min(...t.main.ms)), perMB(m, t.bytes), (p / m).toFixed(2),
    ms(w), ms(Math.min(...t.worker.ms)), perMB(w, t.bytes), (p / w).toFixed(2)]);
  firsts.push([t.name, (t.bytes / 1e6).toFixed(2), ms(t.page.first.ms), ms(t.first.ms), ms(t.first.setupMs),
    `${(t.first.ms / t.page.first.ms).toFixed(2)}×`]);
  const all = [t.page.first, ...t.page.runs];
  const counts = [...new Set(all.map((r) => r.tokens))];
  const encodings = [...new Set(all.map((r) => r.encoding ?? "?"))];
  const workers = [...new Set(all.map((r) => r.worker))];
  const debounced = [...new Set(all.map((r) => r.debounced ?? "-"))];
  const equal = counts.length === 1 && counts[0] === t.main.tokens && t.main.tokens === t.worker.tokens
    && t.first.tokens === t.main.tokens;
  if (!equal) mismatches.push(`${t.name}: page ${counts.map(int).join(" / ")}, ${PEER} ${int(t.main.tokens)} (main), ${int(t.worker.tokens)} (worker)`);
  checks.push([t.name, encodings.join(" / "), counts.map(int).join(" / "), int(t.main.tokens), equal ? "yes" : "NO",
    workers.join(" / "), debounced.join(" / "), ms(t.page.first.ms)]);
}

say(`\n## Paste → exact count in the page against ${PEER} encode (headless Chromium ${version}, ${ENCODING})\n`);
say(`Page: ${path.relative(ROOT, DIST) || DIST}; a fresh page per text, its tokenizer worker ready, a first paste ` +
  `(below), then ${RUNS} pastes ("clear" before each), each from the paste event until ` +
  `the status is ready with the text's bytes. ${PEER}: ${RUNS} encodes after a warm-up encode (the peer was warmed; its merge ` +
  "cache emptied before each), in the main thread of a blank page and in a Web Worker. ms per MB: median ms / " +
  "(bytes / 10^6); page ÷ peer: the medians' ratio, < 1 when the page is faster.\n");
say(table(["text", "MB", "page ms", "min", "ms/MB", `${PEER} main ms`, "min", "ms/MB", "page ÷ main",
  "worker ms", "min", "ms/MB", "page ÷ worker"], rows, 1));
say("\nGoal (issue 11; a figure, not a test): paste → exact count ≤ 100 ms per MB after the tables are ready.\n");
say(table(["text", "page encoding", "page tokens", `${PEER} tokens`, "equal", "page's worker counted",
  "debounced", "1st paste ms"], checks, 2));
say(`\n### The first paste after load against ${PEER}'s first encode in a fresh worker\n`);
say(`Page: the first paste of a fresh page whose tokenizer worker has just said ready (its module runs; ` +
  `the default encoding's table was asked for then, so what is left of its fetch and set-up is in this time). ` +
  `${PEER}: the first encode in a fresh Web Worker, after its import, load and create (timed apart). ` +
  `Speed-up: ${PEER}'s ms ÷ the page's ms, > 1 when the page is faster.\n`);
say(table(["text", "MB", "page 1st paste ms", `${PEER} 1st encode ms`, `${PEER} load + create ms`, "speed-up"], firsts, 1));
say("\nGoal (a figure, not a test): the first paste ≥ 2× as fast as the peer's first encode.\n");
if (mismatches.length) {
  say(`\n${loudBlock(`TOKEN COUNT MISMATCH (page against ${PEER}, ${ENCODING})`, mismatches)}`);
} else {
  say(`\nEvery page count equals ${PEER}'s (${ENCODING}).`);
}
process.exitCode = mismatches.length ? 1 : 0;
