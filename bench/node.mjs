// make bench, Node part: the page's tokenizer (chunk-core in wasm, bench/pkg-node/) against
// js-tiktoken, gpt-tokenizer, tiktoken and bpe-openai (wasm, when built; lib/adapters.mjs) on
// cl100k_base and o200k_base. Prints figures and
// ratios (no pass/fail on speed); exits 1 when a peer's token count differs from ours.
// Run through scripts/bench.sh, which builds the wasm and installs the npm packages first.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ENCODINGS, PEERS, TOKENIZERS, adapterPath } from "./lib/adapters.mjs";
import { buildBundles } from "./lib/bundle.mjs";
import { runCapped } from "./lib/capped-child.mjs";
import { assembleCorpus } from "./lib/corpus.mjs";
import { RUNS, WORST_CAP_MS, WORST_CASES, median, throughput, utf8Bytes, worstOurs } from "./lib/measure.mjs";
import { printReport } from "./lib/report.mjs";

const LIB = path.join(import.meta.dirname, "lib");
const progress = (s) => process.stderr.write(`[bench:node] ${s}\n`);

/** Cold set-up of one tokenizer × encoding: RUNS fresh processes, median of each figure. */
function cold(tok, enc, samplePath) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const outText = execFileSync(process.execPath, [path.join(LIB, "cold-child.mjs"), adapterPath(tok, enc, "node"), samplePath], {
      encoding: "utf8",
      timeout: 120_000,
    });
    runs.push(JSON.parse(outText.trim().split("\n").at(-1)));
  }
  const pick = (k) => median(runs.map((r) => r[k]));
  return { tok, enc, loadMs: pick("loadMs"), createMs: pick("createMs"), firstMs: pick("firstMs"), count: runs[0].count };
}

/** One peer worst case in a child process, killed after WORST_CAP_MS. */
async function worstPeer(tok, enc, name) {
  const r = await runCapped(path.join(LIB, "worst-child.mjs"), [adapterPath(tok, enc, "node"), name], WORST_CAP_MS);
  if (r.capped) return { tok, enc, name, status: "timeout" };
  const error = r.error ?? r.message.error;
  if (error) return { tok, enc, name, status: "error", error };
  return { tok, enc, name, status: "ok", ms: r.message.ms, count: r.message.count };
}

const corpus = assembleCorpus();
progress(`corpus: ${corpus.bytes} bytes`);
const sizes = await buildBundles();

const coldRows = [];
for (const enc of ENCODINGS) {
  for (const { id } of TOKENIZERS) {
    progress(`cold set-up: ${id} ${enc}`);
    coldRows.push(cold(id, enc, corpus.paths.sample));
  }
}

const through = {};
const worst = { ours: {}, peers: [] };
for (const enc of ENCODINGS) {
  const toks = {};
  for (const { id } of TOKENIZERS) {
    const mod = await import(pathToFileURL(adapterPath(id, enc, "node")).href);
    await mod.load();
    toks[id] = mod.create();
  }
  progress(`throughput: ${enc}`);
  through[enc] = throughput(toks, corpus.text);
  progress(`worst cases: ours ${enc}`);
  worst.ours[enc] = worstOurs(toks.ours);
}
for (const enc of ENCODINGS) {
  for (const { name } of WORST_CASES) {
    for (const { id } of PEERS) {
      progress(`worst case: ${id} ${enc} ${name}`);
      worst.peers.push(await worstPeer(id, enc, name));
    }
  }
}

const mismatches = printReport({
  env: `Node ${process.version} (V8 ${process.versions.v8})`,
  corpus: { bytes: corpus.bytes, sha256: corpus.sha256, parts: corpus.parts, sampleBytes: utf8Bytes(corpus.sample) },
  sizes,
  cold: coldRows,
  coldWhere: "a fresh node process per run",
  coldRuns: RUNS,
  throughput: through,
  worst,
  worstWhere: "a child process",
});
process.exitCode = mismatches.length ? 1 : 0;
