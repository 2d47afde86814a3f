// make bench, WordPiece part: the core's BERT uncased WordPiece tokenizer in wasm
// (crates/strategies-wasm, bench/pkg-node/) against Hugging Face's own JavaScript tokenizers
// (@huggingface/tokenizers, the tokenizers of Transformers.js) on the bench corpus, in Node,
// in the same run. Both read the same vocabulary; the JavaScript peer reads the tokenizer.json
// the oracle venv's Python `tokenizers` writes for all-MiniLM-L6-v2's pipeline
// (crates/chunk-core/tests/differential/oracle/hf_wordpiece.py --save). Prints set-up time,
// throughput and the ratio (no pass/fail on speed); exits 1 when the two counts differ.
// Needs CHUNK_ORACLE_PYTHON (scripts/bench-common.sh's bench_oracle exports it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { assembleCorpus } from "./lib/corpus.mjs";
import { median, utf8Bytes } from "./lib/measure.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const VOCAB = path.join(ROOT, "crates/chunk-core/vocab/bert-base-uncased.txt");
const ORACLE = path.join(ROOT, "crates/chunk-core/tests/differential/oracle/hf_wordpiece.py");
const OUT = path.join(ROOT, "target/bench");
const RUNS = 5;
const progress = (s) => process.stderr.write(`[bench:wordpiece] ${s}\n`);

const python = process.env.CHUNK_ORACLE_PYTHON;
if (!python) {
  console.error("CHUNK_ORACLE_PYTHON is not set: run through scripts/bench.sh or scripts/bench-wordpiece.sh");
  process.exit(2);
}
fs.mkdirSync(OUT, { recursive: true });
const tokenizerJson = path.join(OUT, "wordpiece-tokenizer.json");
execFileSync(python, [ORACLE, VOCAB, "--save", tokenizerJson], { stdio: ["ignore", "inherit", "inherit"] });

const require = createRequire(import.meta.url);
const ours = require("./pkg-node/strategies_wasm.js");
const vocab = fs.readFileSync(VOCAB, "utf8");
const json = JSON.parse(fs.readFileSync(tokenizerJson, "utf8"));

const timed = (f) => {
  const t0 = performance.now();
  const v = f();
  return [performance.now() - t0, v];
};

// Set-up: reading the vocabulary into a ready tokenizer.
const [oursLoadMs] = timed(() => ours.wordpiece_load(vocab));
const [theirsLoadMs, theirs] = timed(() => new Tokenizer(json, {}));
const count = {
  ours: (text) => ours.wordpiece_count(text),
  "@huggingface/tokenizers": (text) => theirs.encode(text, { add_special_tokens: false }).ids.length,
};

const corpus = assembleCorpus();
const texts = [
  ["bench corpus (every part)", corpus.text],
  ["mixed 1 MB", corpus.mixed],
];
let status = 0;
console.log("WordPiece (bert-base-uncased), Node " + process.version);
console.log(`set-up: ours ${oursLoadMs.toFixed(1)} ms, @huggingface/tokenizers ${theirsLoadMs.toFixed(1)} ms (vocabulary read into a tokenizer)`);
for (const [name, text] of texts) {
  const mb = utf8Bytes(text) / 1e6;
  const rows = {};
  for (const [who, f] of Object.entries(count)) {
    f(text.slice(0, 10_000)); // warm-up
    const times = [];
    let n = 0;
    for (let i = 0; i < RUNS; i++) {
      const [ms, c] = timed(() => f(text));
      times.push(ms);
      n = c;
    }
    rows[who] = { ms: median(times), tokens: n };
    progress(`${name}: ${who} ${n} tokens, ${median(times).toFixed(0)} ms`);
  }
  const o = rows.ours;
  const t = rows["@huggingface/tokenizers"];
  if (o.tokens !== t.tokens) {
    console.log(`  ${name}: COUNTS DIFFER: ours ${o.tokens}, @huggingface/tokenizers ${t.tokens}`);
    status = 1;
  }
  console.log(
    `  ${name} (${mb.toFixed(2)} MB, ${o.tokens} tokens): ours ${(mb / (o.ms / 1000)).toFixed(1)} MB/s, ` +
      `@huggingface/tokenizers ${(mb / (t.ms / 1000)).toFixed(1)} MB/s — ours ${(t.ms / o.ms).toFixed(2)}×`,
  );
}
process.exit(status);
