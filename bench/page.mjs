// make bench, page part: the built page itself (Trunk release build) under a 10 MB text, in
// headless Chromium. For each text and each way in (a paste event, a file opened with the
// file input) it prints:
//  - the longest main-thread task and how many took over 50 ms and over 100 ms (the browser's
//    own "longtask" entries, measured from the paste or the file choice until the exact count
//    shows, plus 300 ms);
//  - the time until the exact count shows, the count, and whether the Web Worker did it;
//  - how many progress values the status bar showed on the way;
// then the same for a new text typed while a 10 MB count is still running (cancellation), and
// the bytes the page transfers (every file of the build, gzip -9).
// Not a test: it prints figures. Exits 1 only when the page's count differs from the native
// core's or a step fails.
//
// Usage: node bench/page.mjs DIST   (DIST: a `trunk build --release` output directory)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { assembleCorpus, OUT, repeatTo, ROOT } from "./lib/corpus.mjs";
import { launchChromium } from "./lib/chromium.mjs";
import { INSTRUMENT, PASTE, STAGE_PASTE, WAIT_READY, openPage } from "./lib/page-hooks.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const SIZE = 10_000_000;
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:page] ${s}\n`);

const { startStaticServer } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

/** `text` repeated and cut to at most `SIZE` bytes of UTF-8, at a character boundary. */
const tenMegabytes = (text) => repeatTo(text, SIZE);

const corpus = assembleCorpus();
const TEXTS = [
  { name: "mixed corpus ×7 (prose, code, ru, pl, vi, ja, zh)", text: tenMegabytes(corpus.text) },
  { name: "'a' × 10,000,000 (one piece)", text: "a".repeat(SIZE) },
  { name: "' ' × 10,000,000 (one piece)", text: " ".repeat(SIZE) },
  { name: "'猫' × 3,333,333 (10 MB)", text: "猫".repeat(Math.floor(SIZE / 3)) },
];

/** The native core's cl100k_base count of `text` (the count example). */
function nativeCount(text, file) {
  fs.writeFileSync(file, text);
  const run = spawnSync("cargo", ["run", "--quiet", "-p", "chunk-core", "--example", "count", "--", file], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error(`count example failed on ${file}`);
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

/** Total bytes of the build, raw and gzip -9. */
function pageBytes() {
  let raw = 0;
  let gzip = 0;
  for (const f of fs.readdirSync(DIST, { recursive: true })) {
    if (!fs.statSync(path.join(DIST, f)).isFile()) continue; // a folder (vocab/)
    const body = fs.readFileSync(path.join(DIST, f));
    raw += body.length;
    gzip += zlib.gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

const { server, url } = await startStaticServer({ root: DIST, prefix: "/" });
const browser = await launchChromium();

const freshPage = () => openPage(browser, url);

const rows = [];
let mismatches = 0;
try {
  fs.mkdirSync(OUT, { recursive: true });
  for (const [i, { name, text }] of TEXTS.entries()) {
    const file = path.join(OUT, `page-${i}.txt`);
    progress(`native count: ${name}`);
    const native = nativeCount(text, file);
    for (const way of ["paste", "file"]) {
      progress(`${way}: ${name}`);
      const { context, page } = await freshPage();
      // The text enters the page before timing starts (the test protocol's copy is not the page's).
      if (way === "paste") await page.evaluate(STAGE_PASTE, text);
      await page.evaluate(INSTRUMENT);
      if (way === "paste") {
        await page.evaluate(PASTE);
      } else {
        await page.evaluate(() => (window.__bench.t0 = performance.now()));
        await page.setInputFiles('[data-testid="file-input"]', file);
      }
      const r = await page.evaluate(WAIT_READY, native.bytes);
      if (r.tokens !== native.cl100k_base) mismatches++;
      rows.push({ name, way, native, ...r });
      await context.close();
    }
  }

  // Cancellation: a 10 MB single-piece count is running; clear and type a 100 KB text.
  progress("a new text while a 10 MB count runs");
  const small = corpus.sample;
  const smallNative = nativeCount(small, path.join(OUT, "page-small.txt"));
  const { context, page } = await freshPage();
  await page.evaluate(STAGE_PASTE, "a".repeat(SIZE));
  await page.evaluate((t) => (window.__small = t), small);
  await page.evaluate(INSTRUMENT);
  await page.evaluate(PASTE);
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').dataset.bytes === "10000000");
  // As a user would: "clear", then the new text, each in a task of its own.
  await page.evaluate(() => setTimeout(() => document.querySelector('[data-testid="clear-text"]').click()));
  await page.waitForTimeout(50);
  await page.evaluate(() => {
    window.__bench.t0 = performance.now();
    setTimeout(() => {
      const box = document.querySelector('[data-testid="text-input"]');
      box.value = window.__small;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
  const c = await page.evaluate(WAIT_READY, smallNative.bytes);
  if (c.tokens !== smallNative.cl100k_base) mismatches++;
  await context.close();

  const fmt = (n) => Math.round(n).toLocaleString("en-US");
  const over = (tasks, ms) => tasks.filter((d) => d > ms).length;
  say(`\n## The page under a 10 MB text (headless Chromium ${browser.version()}, cl100k_base)\n`);
  say("Main-thread tasks from the paste (or the file choice) until the exact count shows, + 300 ms.\n");
  say("| text | way in | longest task ms | tasks > 50 ms | tasks > 100 ms | ms to exact count | tokens (page = native) | worker | progress values shown |");
  say("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const longest = r.tasks.length ? Math.max(...r.tasks) : 0;
    const same = r.tokens === r.native.cl100k_base ? "=" : `≠ native ${fmt(r.native.cl100k_base)}`;
    say(`| ${r.name} | ${r.way} | ${longest ? fmt(longest) : "none > 50"} | ${over(r.tasks, 50)} | ${over(r.tasks, 100)} | ${fmt(r.ms)} | ${fmt(r.tokens)} ${same} | ${r.worker} | ${r.progress} |`);
  }
  const cLongest = c.tasks.length ? Math.max(...c.tasks) : 0;
  say(`\nA 100 KB text typed while the 10 MB 'a' count runs: exact count ${fmt(c.tokens)} ` +
    `(${c.tokens === smallNative.cl100k_base ? "= native" : `≠ native ${fmt(smallNative.cl100k_base)}`}) ` +
    `${fmt(c.ms)} ms after the edit; longest main-thread task over the whole sequence: ${cLongest ? `${fmt(cLongest)} ms` : "none > 50 ms"}.`);
  const bytes = pageBytes();
  say(`\nThe page transfers ${(bytes.raw / 1e6).toFixed(2)} MB raw, ${(bytes.gzip / 1e6).toFixed(2)} MB gzip -9 (every file of ${path.relative(ROOT, DIST) || DIST}).`);
  if (mismatches) say(`\nTOKEN COUNT MISMATCH: ${mismatches} page count(s) differ from the native core's`);
} finally {
  await browser.close();
  server.close();
}
process.exitCode = mismatches ? 1 : 0;
