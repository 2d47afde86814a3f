// Prints the figures of one environment (Node or Chromium) as plain-text tables, and says
// whether every peer's token count equalled ours. Used by bench/node.mjs and bench/browser.mjs.
import { PEERS, TOKENIZERS } from "./adapters.mjs";
import { RUNS, WORST_CAP_MS, WORST_CASES } from "./measure.mjs";

const label = (tok) => TOKENIZERS.find((t) => t.id === tok)?.label ?? tok;
const int = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n >= 100 ? int(n) : n.toFixed(1));
const kb = (n) => (n / 1024).toFixed(1);
const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(2)}x` : "-");

/** The loud block of a failure: "!!! TITLE: n", one line per item, framed by '!'. */
export function loudBlock(title, items) {
  const bar = "!".repeat(72);
  return [bar, `!!! ${title}: ${items.length}`, ...items.map((m) => `!!!   ${m}`), bar].join("\n");
}

/** A plain-text table; columns from index `rightFrom` on are right-aligned. */
export function table(headers, rows, rightFrom = 1) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => [...r[i]].length)));
  const line = (r) =>
    r.map((c, i) => (i >= rightFrom ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/**
 * Prints `results` (see bench/README.md for the shape) and returns the list of mismatches
 * (empty when every peer's token count equalled ours).
 */
export function printReport(r) {
  const out = [];
  const say = (s = "") => out.push(s);
  const mismatches = [];
  say(`================ ${r.env} ================`);
  say();
  say(`Corpus: ${int(r.corpus.bytes)} bytes of UTF-8 (sha256 ${r.corpus.sha256.slice(0, 16)}…); ` +
    `cold-start sample: first ${int(r.corpus.sampleBytes)} bytes taken across the parts.`);
  say(table(
    ["part", "source", "bytes", "chars", "files", "share"],
    r.corpus.parts.map((p) => [p.name, p.source, int(p.bytes), int(p.chars), p.files, `${((100 * p.bytes) / r.corpus.bytes).toFixed(1)}%`]),
    2,
  ));
  say();
  say("What each ships for one encoding (esbuild --minify bundle of the adapter + the wasm it loads; gzip -9). " +
    "Ours: one wasm holds both encodings (their tables are fetched apart); bpe-openai's wasm holds both encodings' tables.");
  const ourSize = (enc) => r.sizes.find((s) => s.tok === "ours" && s.enc === enc).total.gzip;
  say(table(
    ["tokenizer", "encoding", "JS KiB", "JS gz KiB", "wasm KiB", "wasm gz KiB", "total KiB", "total gz KiB", "gz vs ours"],
    r.sizes.map((s) => [label(s.tok), s.enc, kb(s.js.raw), kb(s.js.gzip), s.wasm ? kb(s.wasm.raw) : "-", s.wasm ? kb(s.wasm.gzip) : "-",
      kb(s.total.raw), kb(s.total.gzip), ratio(s.total.gzip, ourSize(s.enc))]),
    2,
  ));
  say();
  say(`Set-up, cold (${r.coldWhere}; median of ${r.coldRuns}). load = import + wasm instantiation; ` +
    "build = encoder construction (ours: prepare(), the lazy table build); " +
    "ready->first count = from load done to the first exact count of the 100 KB sample (build included).");
  const ourCold = (enc) => r.cold.find((c) => c.tok === "ours" && c.enc === enc);
  say(table(
    ["tokenizer", "encoding", "load ms", "build ms", "set-up ms", "set-up vs ours", "ready->first count ms", "vs ours", "sample tokens"],
    r.cold.map((c) => [label(c.tok), c.enc, ms(c.loadMs), ms(c.createMs), ms(c.loadMs + c.createMs),
      ratio(c.loadMs + c.createMs, ourCold(c.enc).loadMs + ourCold(c.enc).createMs), ms(c.firstMs),
      ratio(c.firstMs, ourCold(c.enc).firstMs), int(c.count)]),
    2,
  ));
  for (const c of r.cold) {
    const o = ourCold(c.enc);
    if (c.count !== o.count) mismatches.push(`${label(c.tok)} ${c.enc}: 100 KB sample ${c.count} tokens, ours ${o.count}`);
  }
  say();
  say(`Throughput on the corpus (warm; median of ${RUNS} runs; MB = 10^6 bytes). encode = token ids; count = number only ` +
    "(peers without a count API: encode().length). 'vs ours' = their MB/s / our MB/s.");
  const rows = [];
  for (const [enc, list] of Object.entries(r.throughput)) {
    const o = list.find((x) => x.tok === "ours");
    for (const x of list) {
      rows.push([label(x.tok), enc, int(x.tokens), x.encodeMBps.toFixed(2), ratio(x.encodeMBps, o.encodeMBps),
        x.countMBps.toFixed(2), ratio(x.countMBps, o.countMBps), x.idsEqual ? "yes" : `NO (first at ${x.firstDiff})`]);
      if (x.tokens !== o.tokens) mismatches.push(`${label(x.tok)} ${enc}: corpus ${x.tokens} tokens, ours ${o.tokens}`);
      else if (!x.idsEqual) mismatches.push(`${label(x.tok)} ${enc}: same count, ids differ from index ${x.firstDiff}`);
    }
  }
  say(table(["tokenizer", "encoding", "tokens", "encode MB/s", "vs ours", "count MB/s", "vs ours", "ids = ours"], rows, 2));
  say();
  say("Token check on the corpus:");
  for (const [enc, list] of Object.entries(r.throughput)) {
    const o = list.find((x) => x.tok === "ours");
    for (const x of list.filter((x) => x.tok !== "ours")) {
      say(x.tokens === o.tokens && x.idsEqual
        ? `  ok        ${label(x.tok)} ${enc}: ${int(x.tokens)} tokens = ours, ids identical`
        : `  MISMATCH  ${label(x.tok)} ${enc}: ${int(x.tokens)} tokens, ours ${int(o.tokens)}`);
    }
  }
  say();
  say(`Worst cases (edge case E14 + 1 MB of one 3-byte character). Ours in the main thread; each peer case in ${r.worstWhere}, ` +
    `stopped after ${WORST_CAP_MS / 1000} s ("timeout"). Cells: ms / tokens.`);
  const wrows = [];
  for (const enc of Object.keys(r.worst.ours)) {
    for (const { name } of WORST_CASES) {
      const o = r.worst.ours[enc].find((w) => w.name === name);
      const row = [enc, name, `${ms(o.ms)} / ${int(o.count)}`];
      for (const p of PEERS) {
        const w = r.worst.peers.find((x) => x.tok === p.id && x.enc === enc && x.name === name);
        if (!w) row.push("-");
        else if (w.status === "timeout") row.push(`timeout (>${WORST_CAP_MS / 1000} s)`);
        else if (w.status === "error") row.push(`error: ${w.error}`.slice(0, 60));
        else {
          const same = w.count === o.count;
          row.push(`${ms(w.ms)} / ${int(w.count)}${same ? "" : " MISMATCH"}`);
          if (!same) mismatches.push(`${p.label} ${enc} ${name}: ${w.count} tokens, ours ${o.count}`);
        }
      }
      wrows.push(row);
    }
  }
  say(table(["encoding", "case", "ours", ...PEERS.map((p) => p.label)], wrows, 99));
  say();
  if (mismatches.length) {
    say(loudBlock(`TOKEN COUNT MISMATCH (${r.env})`, mismatches));
  } else {
    say(`All peers' token counts equal ours (${r.env}).`);
  }
  console.log(out.join("\n"));
  return mismatches;
}

/**
 * The throughput of each tokenizer alone in a fresh Web Worker (`rows`: `[{ tok, enc, tokens,
 * ms }]`, ms the median of `runs` encodes of the corpus of `bytes` bytes after `warmMs` of warm-up),
 * against ours; a token count
 * that differs from ours is added to `mismatches`.
 */
export function printWorkerThroughput(rows, bytes, warmMs, runs, mismatches) {
  const say = (s = "") => process.stdout.write(`${s}\n`);
  say(`Throughput in a Web Worker, as the page runs ours: each tokenizer alone in a fresh worker (its module only), ` +
    `encode of the corpus (${int(bytes)} bytes) after ${int(warmMs)} ms of warm-up encodes, median of ${runs}.`);
  const ours = (enc) => rows.find((r) => r.tok === "ours" && r.enc === enc);
  const differ = [];
  const mbps = (r) => bytes / 1e6 / (r.ms / 1e3);
  say(table(
    ["tokenizer", "encoding", "tokens", "encode ms", "encode MB/s", "vs ours"],
    rows.map((r) => {
      const o = ours(r.enc);
      let tokens = int(r.tokens);
      if (o && r.tokens !== o.tokens) {
        tokens += ` (ours ${int(o.tokens)})`;
        differ.push(`${label(r.tok)} ${r.enc} in a worker: ${r.tokens} tokens, ours ${o.tokens}`);
      }
      return [label(r.tok), r.enc, tokens, ms(r.ms), mbps(r).toFixed(1), o ? ratio(mbps(r), mbps(o)) : "-"];
    }),
    2,
  ));
  say();
  if (differ.length) say(loudBlock("TOKEN COUNT MISMATCH (in a worker)", differ));
  mismatches.push(...differ);
}
