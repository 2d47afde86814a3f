// make bench, first-load part (issue 11's figures): the built page's first visit in headless
// Chromium under network emulation, served with gzip from loopback, with an empty cache and no
// service worker. For "Fast 4G" (9 Mbit/s down, 60 ms RTT) and "Slow 4G" (1.6 Mbit/s down,
// 150 ms RTT), both 750 kbit/s up, it prints:
//  - first contentful paint (the browser's paint entry: the prerendered page, crates/prerender);
//  - when the page takes input: the prerendered form enabled by assets/boot.js, before the
//    page's module has arrived (what is typed then is kept, src/prerendered.rs);
//  - when the form answers an edit: a chunk size typed into the form the moment it takes input
//    is the live app's and its figures follow it (the live `out-chunks` differs from the
//    prerendered one), which needs the page's module;
//  - the time until an exact count: a short text typed into the box at the same moment,
//    counted by the tokenizer (`status` ready with its bytes);
//  - every file the server sent in that time (the page's and its workers'), bytes on the wire
//    (gzip) and raw, in the order first requested.
// Not a test: it prints figures. Exits 1 only when a step fails.
//
// Usage: node bench/network.mjs DIST   (DIST: a `trunk build --release` output directory)
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { ROOT } from "./lib/corpus.mjs";
import { launchChromium } from "./lib/chromium.mjs";

const DIST = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:network] ${s}\n`);
const { MIME_TYPES } = await import(path.join(ROOT, "tests", "e2e", "static-server.mjs"));

const PROFILES = [
  { name: "Fast 4G", down: 9e6, rtt: 60 },
  { name: "Slow 4G", down: 1.6e6, rtt: 150 },
];
const UP = 750e3;
const TEXT = "Chunk this text, please.";
/** The chunk size typed into the form the moment it takes input. */
const EDIT_SIZE = "100";

/** A static server for DIST answering gzip (level 9, compressed once) to a client that accepts
 *  it, and recording what it sent: path → { wire, raw }, in the order first requested. */
function gzipServer() {
  const cache = new Map();
  const sent = new Map();
  const server = http.createServer((req, res) => {
    let file = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (file.endsWith("/")) file += "index.html";
    const full = path.join(DIST, path.normalize(file));
    if (!full.startsWith(DIST) || !fs.existsSync(full) || !fs.statSync(full).isFile()) {
      res.writeHead(404).end();
      return;
    }
    if (!cache.has(full)) {
      const raw = fs.readFileSync(full);
      cache.set(full, { raw, gz: zlib.gzipSync(raw, { level: 9 }) });
    }
    const { raw, gz } = cache.get(full);
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    const body = gzip ? gz : raw;
    const type = MIME_TYPES[path.extname(full)] ?? "application/octet-stream";
    res.writeHead(200, {
      "Content-Type": type,
      "Content-Length": body.length,
      "Cache-Control": "no-store",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    });
    res.end(body);
    const s = sent.get(file) ?? { wire: 0, raw: 0 };
    sent.set(file, { wire: s.wire + body.length, raw: s.raw + raw.length });
  });
  return { server, sent };
}

const { server, sent } = gzipServer();
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const results = [];
let failed = false;
try {
  for (const p of PROFILES) {
    progress(p.name);
    sent.clear();
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: p.rtt,
      downloadThroughput: p.down / 8,
      uploadThroughput: UP / 8,
    });
    await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
    // The prerendered form takes input once assets/boot.js has run; the app may even have
    // started by then on a fast link, in which case the edits go to the live form.
    await page.waitForFunction(
      () => document.querySelector("#prerendered")?.disabled === false || document.querySelector('[data-testid="chunk-size"]:not(#prerendered *)'),
      null,
      { timeout: 120_000 },
    );
    const inputMs = await page.evaluate(() => performance.now());
    const before = await page.evaluate(() => document.querySelector('[data-testid="out-chunks"]')?.dataset.value);
    await page.locator('[data-testid="chunk-size"]').first().fill(EDIT_SIZE);
    await page.locator('[data-testid="text-input"]').first().fill(TEXT);
    await page.waitForFunction(
      ([size, shown]) => {
        const live = document.querySelector('[data-testid="chunk-size"]:not(#prerendered *)');
        const chunks = document.querySelector('[data-testid="out-chunks"]:not(#prerendered *)');
        return live?.value === size && chunks?.dataset.value !== undefined && chunks.dataset.value !== shown;
      },
      [EDIT_SIZE, before],
      { timeout: 120_000 },
    );
    const formMs = await page.evaluate(() => performance.now());
    await page.waitForFunction(
      (bytes) => {
        const s = document.querySelector('[data-testid="status"]');
        return s?.dataset.state === "ready" && s.dataset.bytes === String(bytes);
      },
      Buffer.byteLength(TEXT),
      { timeout: 180_000 },
    );
    const countMs = await page.evaluate(() => performance.now());
    const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
    results.push({ ...p, fcp, inputMs, formMs, countMs, files: [...sent.entries()] });
    await context.close();
  }
} catch (e) {
  failed = true;
  say(`FAILED: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}

const fmt = (n) => (n === null ? "–" : Math.round(n).toLocaleString("en-US"));
say(`\n## First visit under network emulation (headless Chromium, gzip, empty cache, no service worker)\n`);
say("| profile | first contentful paint ms | takes input ms | form answers an edit ms | exact count of a typed text ms | bytes on the wire until then |");
say("|---|---|---|---|---|---|");
for (const r of results) {
  const wire = r.files.reduce((a, [, s]) => a + s.wire, 0);
  say(`| ${r.name} (${r.down / 1e6} Mbit/s, ${r.rtt} ms RTT) | ${fmt(r.fcp)} | ${fmt(r.inputMs)} | ${fmt(r.formMs)} | ${fmt(r.countMs)} | ${fmt(wire)} |`);
}
if (results.length) {
  say(`\nFiles sent on the ${results[0].name} visit, in the order first requested (bytes):\n`);
  say("| file | on the wire (gzip) | raw |");
  say("|---|---|---|");
  for (const [file, s] of results[0].files) say(`| ${file} | ${fmt(s.wire)} | ${fmt(s.raw)} |`);
}
process.exit(failed ? 1 : 0);
