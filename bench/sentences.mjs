// make bench, sentence part: chunk-core's sentence segmentation
// (chunk_core::segment::sentences::sentence_bytes) under every rule, compiled to wasm in
// crates/strategies-wasm (`sentence_count(rule, text)`), in Node's main thread and in a Web
// Worker of headless Chromium, on 1 MB of the mixed corpus and 1 MB of its English prose. Per
// rule and text: one warm-up call, then RUNS timed calls; the median, ms per MB, the ratio to
// "terminators" (the simulator's current rule) and the sentence count. Figures, not a test:
// speed never fails; exits 1 when a call throws (or traps), Node's count differs from
// Chromium's, or a part could not run.
//
// Needs bench/pkg-node/ and bench/pkg-web/strategies_wasm* and bench/node_modules:
// `make bench-sentences` (or scripts/bench.sh) makes them ready, then this runs alone.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { MIXED_BYTES, OUT, ROOT, assembleCorpus, repeatTo } from "./lib/corpus.mjs";
import { withServedPage } from "./lib/chromium.mjs";
import { table } from "./lib/report.mjs";

const BENCH = import.meta.dirname;
const DIR = path.join(OUT, "sentences");
const PKG_NODE = path.join(BENCH, "pkg-node", "strategies_wasm.js");
const PKG_WEB = path.join(BENCH, "pkg-web", "strategies_wasm.js");
/** Timed runs per rule and text (after one warm-up); the median is reported. */
const RUNS = 5;
/** The rule the others are compared with (the simulator's current one). */
const BASELINE = "terminators";
/** The rule the issue sets a goal for, and the goal (ms per MB, in wasm). */
const GOAL = { rule: "contextual", msPerMb: 20 };
const ENGLISH_PART = "English prose";
const progress = (s) => process.stderr.write(`[bench:sentences] ${s}\n`);

for (const p of [PKG_NODE, PKG_WEB]) {
  if (!fs.existsSync(p) || !fs.readFileSync(p, "utf8").includes("sentence_count")) {
    console.error(`${path.relative(ROOT, p)} is missing or has no sentence_count: run \`make bench-sentences\` (or scripts/bench.sh) first.`);
    process.exit(1);
  }
}

/**
 * Times every rule on every text: `{ rules, texts: { [file]: [{ rule, count, ms, runs } | { rule, error }] } }`.
 * Self-contained (no outer names), because the Chromium worker gets it as source text.
 * `load()` resolves to a freshly instantiated module; after a trap the next rule gets a new one.
 */
async function timeRules(load, texts, runs, progress) {
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  let wasm = await load();
  const rules = wasm.sentence_rules();
  const out = {};
  for (const [file, text] of Object.entries(texts)) {
    out[file] = [];
    for (const rule of rules) {
      try {
        const count = wasm.sentence_count(rule, text); // warm-up
        const ms = [];
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          const n = wasm.sentence_count(rule, text);
          ms.push(performance.now() - t);
          if (n !== count) throw new Error(`count changed between runs: ${count} then ${n}`);
        }
        out[file].push({ rule, count, ms: median(ms), runs: ms });
        progress(`${file} ${rule}: ${median(ms).toFixed(2)} ms, ${count} sentences`);
      } catch (e) {
        let error = `${e?.name ?? "Error"}: ${e?.message ?? e}`.split("\n")[0];
        if (e instanceof WebAssembly.RuntimeError) {
          try {
            const panic = wasm.last_panic();
            if (panic) error = `panicked: ${panic.split("\n")[0]}`;
          } catch {
            // the trapped instance has nothing to tell
          }
          wasm = await load();
        }
        out[file].push({ rule, error });
        progress(`${file} ${rule}: FAILED ${error}`);
      }
    }
  }
  return { rules, texts: out };
}

/** The two 1 MB texts, written to target/bench/sentences/ (the Chromium worker fetches them). */
function writeTexts() {
  const corpus = assembleCorpus();
  const texts = [{ file: "mixed-1mb.txt", label: "mixed corpus", text: repeatTo(corpus.mixed, MIXED_BYTES) }];
  // The corpus is its parts concatenated in order; assembleCorpus() gives their sizes.
  const at = corpus.parts.findIndex((p) => p.name === ENGLISH_PART);
  if (at >= 0) {
    const start = corpus.parts.slice(0, at).reduce((n, p) => n + p.bytes, 0);
    const english = Buffer.from(corpus.text).subarray(start, start + corpus.parts[at].bytes).toString("utf8");
    texts.push({ file: "english-1mb.txt", label: `English prose (${corpus.parts[at].source})`, text: repeatTo(english, MIXED_BYTES) });
  }
  fs.mkdirSync(DIR, { recursive: true });
  for (const t of texts) {
    fs.writeFileSync(path.join(DIR, t.file), t.text);
    t.bytes = Buffer.byteLength(t.text);
    t.chars = [...t.text].length;
    t.sha256 = createHash("sha256").update(t.text).digest("hex");
  }
  return texts;
}

async function nodeRun(texts) {
  progress("Node run");
  const require = createRequire(import.meta.url);
  const load = () => {
    delete require.cache[PKG_NODE];
    return require(PKG_NODE);
  };
  const input = Object.fromEntries(texts.map((t) => [t.file, t.text]));
  const results = await timeRules(load, input, RUNS, (s) => progress(`node: ${s}`));
  return { ...results, env: `Node ${process.version}, main thread` };
}

/** The same function in a module Web Worker of headless Chromium, on the served pkg-web/. */
async function chromiumRun(texts) {
  progress("Chromium run");
  return withServedPage(progress, async ({ page, base, browser }) => {
    // Any page of the server will do (same origin as the wasm and the texts).
    await page.goto(`${base}browser/strategies.html`);
    const worker = `
      const timeRules = ${timeRules.toString()};
      const BASE = ${JSON.stringify(base)};
      let instance = 0;
      let compiled = null;
      async function load() {
        compiled ??= await WebAssembly.compileStreaming(fetch(BASE + "pkg-web/strategies_wasm_bg.wasm"));
        const mod = await import(BASE + "pkg-web/strategies_wasm.js?instance=" + ++instance);
        await mod.default({ module_or_path: compiled });
        return mod;
      }
      self.onmessage = async ({ data: { files, runs } }) => {
        try {
          const texts = {};
          for (const file of files) {
            const res = await fetch(BASE + "data/sentences/" + file);
            if (!res.ok) throw new Error("GET /data/sentences/" + file + ": " + res.status);
            texts[file] = await res.text();
          }
          self.postMessage({ results: await timeRules(load, texts, runs, (progress) => self.postMessage({ progress })) });
        } catch (e) {
          self.postMessage({ error: e.name + ": " + e.message });
        }
      };`;
    const results = await page.evaluate(
      ({ worker, files, runs }) =>
        new Promise((resolve, reject) => {
          const url = URL.createObjectURL(new Blob([worker], { type: "text/javascript" }));
          const w = new Worker(url, { type: "module" });
          w.onmessage = ({ data }) => {
            if (data.progress) return console.log(`progress: ${data.progress}`);
            w.terminate();
            if (data.error) reject(new Error(data.error));
            else resolve(data.results);
          };
          w.onerror = (e) => {
            w.terminate();
            reject(new Error(e.message || "worker error"));
          };
          w.postMessage({ files, runs });
        }),
      { worker, files: texts.map((t) => t.file), runs: RUNS },
    );
    return { ...results, env: `headless Chromium ${browser.version()}, Web Worker` };
  });
}

const int = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n == null ? "-" : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** Prints the tables; returns the failures (errors, Node's count ≠ Chromium's). */
function report(texts, runs) {
  const failures = [];
  const envs = runs.filter((r) => !r.error);
  console.log();
  console.log(`================ sentence segmentation (chunk_core::segment::sentences::sentence_bytes) in wasm ================`);
  console.log(`crates/strategies-wasm sentence_count(rule, text), release profile; one warm-up, then the median of ${RUNS} calls;`);
  console.log("the JS string -> wasm copy is inside the time. MB = 10^6 bytes of UTF-8; x = ms / ms of \"terminators\".");
  for (const r of envs) console.log(`  ${r.name}: ${r.env}`);
  for (const r of runs.filter((r) => r.error)) {
    console.log(`  ${r.name}: FAILED (${r.error})`);
    failures.push(`${r.name}: ${r.error}`);
  }
  const goals = [];
  for (const t of texts) {
    const mb = t.bytes / 1e6;
    console.log();
    console.log(`${t.label}: ${int(t.bytes)} bytes, ${int(t.chars)} chars, sha256 ${t.sha256.slice(0, 16)}… (target/bench/sentences/${t.file})`);
    const rules = envs[0]?.rules ?? [];
    const rows = rules.map((rule) => {
      const cells = envs.map((r) => r.texts[t.file].find((x) => x.rule === rule));
      const counts = [...new Set(cells.filter((c) => !c.error).map((c) => c.count))];
      let sentences = counts.length === 1 ? int(counts[0]) : "-";
      if (counts.length > 1) {
        sentences = `FAIL ${envs.map((r, i) => `${r.name} ${cells[i].count ?? "-"}`).join(" vs ")}`;
        failures.push(`${t.file} ${rule}: sentence counts differ (${sentences})`);
      }
      const row = [rule, sentences];
      envs.forEach((r, i) => {
        const c = cells[i];
        const base = r.texts[t.file].find((x) => x.rule === BASELINE);
        if (c.error) {
          failures.push(`${r.name} ${t.file} ${rule}: ${c.error}`);
          row.push("error", "-", "-");
          return;
        }
        row.push(ms(c.ms), ms(c.ms / mb), base && !base.error && base.ms > 0 ? `${(c.ms / base.ms).toFixed(2)}x` : "-");
        if (rule === GOAL.rule) goals.push(`${GOAL.rule}: ${ms(c.ms / mb)} ms per MB (goal ≤ ${GOAL.msPerMb} ms in wasm) — ${r.name}, ${t.label}`);
      });
      return row;
    });
    const headers = ["rule", "sentences", ...envs.flatMap((r) => [`${r.name} ms`, `${r.name} ms/MB`, `${r.name} x`])];
    console.log(table(headers, rows));
    for (const r of envs) {
      for (const c of r.texts[t.file].filter((x) => x.error)) console.log(`  ${r.name} ${c.rule}: ${c.error}`);
    }
  }
  console.log();
  for (const g of goals) console.log(g);
  console.log("(goals are figures, not tests: speed never fails the bench)");
  return failures;
}

let texts;
try {
  texts = writeTexts();
} catch (e) {
  progress(`FAILED: the texts: ${e?.stack ?? e}`);
  process.exit(1);
}
const runs = [];
for (const [name, fn] of [["Node", nodeRun], ["Chromium", chromiumRun]]) {
  try {
    runs.push({ name, ...(await fn(texts)) });
  } catch (e) {
    progress(`FAILED: ${name} run: ${e?.stack ?? e}`);
    runs.push({ name, error: `${e?.message ?? e}`.split("\n")[0] });
  }
}
const failures = report(texts, runs);
if (failures.length) {
  console.log();
  console.log("FAILED (sentence bench):");
  for (const f of failures) console.log(`  ${f}`);
}
process.exitCode = failures.length ? 1 : 0;
