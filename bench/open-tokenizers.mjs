// make bench, open models' tokenizers: the core's BERT uncased WordPiece and XLM-RoBERTa Unigram
// in wasm (crates/strategies-wasm, bench/pkg-node/) against Hugging Face's own JavaScript
// tokenizers (@huggingface/tokenizers, the tokenizers of Transformers.js) on the bench corpus,
// in Node, in the same run. Both sides read the same vocabulary: ours the committed file, the
// JavaScript peer the tokenizer.json that the oracle venv's Python `tokenizers` writes for the
// same pipeline (crates/chunk-core/tests/differential/oracle/hf_*.py --save). Prints set-up
// time, throughput and the ratio (no pass/fail on speed); exits 1 when two counts differ.
// Needs CHUNK_ORACLE_PYTHON (scripts/bench-common.sh's bench_oracle exports it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { assembleCorpus } from "./lib/corpus.mjs";
import { median, utf8Bytes } from "./lib/measure.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const ORACLE = path.join(ROOT, "crates/chunk-core/tests/differential/oracle");
const VOCAB = path.join(ROOT, "crates/chunk-core/vocab");
const OUT = path.join(ROOT, "target/bench");
const RUNS = 5;
const progress = (s) => process.stderr.write(`[bench:open-tokenizers] ${s}\n`);

const TOKENIZERS = [
  { code: "bert-uncased", name: "WordPiece (bert-base-uncased)", oracle: "hf_wordpiece.py", file: "bert-base-uncased.txt" },
  { code: "xlm-roberta", name: "Unigram (XLM-RoBERTa)", oracle: "hf_unigram.py", file: "xlm-roberta.unigram" },
];

const python = process.env.CHUNK_ORACLE_PYTHON;
if (!python) {
  console.error("CHUNK_ORACLE_PYTHON is not set: run through scripts/bench.sh or scripts/bench-open-tokenizers.sh");
  process.exit(2);
}
fs.mkdirSync(OUT, { recursive: true });
const require = createRequire(import.meta.url);
const ours = require("./pkg-node/strategies_wasm.js");

const timed = (f) => {
  const t0 = performance.now();
  const v = f();
  return [performance.now() - t0, v];
};

const corpus = assembleCorpus();
const texts = [
  ["bench corpus (every part)", corpus.text],
  ["mixed 1 MB", corpus.mixed],
];
let status = 0;
console.log(`Open models' tokenizers, Node ${process.version}: ours (wasm) against @huggingface/tokenizers`);
for (const t of TOKENIZERS) {
  const vocabPath = path.join(VOCAB, t.file);
  const jsonPath = path.join(OUT, `${t.code}-tokenizer.json`);
  execFileSync(python, [path.join(ORACLE, t.oracle), vocabPath, "--save", jsonPath], { stdio: ["ignore", "inherit", "inherit"] });
  const bytes = fs.readFileSync(vocabPath);
  const json = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
  // Set-up: the vocabulary read into a ready tokenizer (ours from the file's bytes; theirs from
  // the parsed tokenizer.json, the JSON parse not included).
  const [oursLoadMs] = timed(() => ours.open_load(t.code, bytes));
  const [theirsLoadMs, theirs] = timed(() => new Tokenizer(json, {}));
  // Line by line on both sides: on a whole 1.5 MB text the JavaScript Unigram overflows its
  // stack (a CJK part has no space to split at).
  const perLine = (f) => (lines) => lines.reduce((n, line) => n + f(line), 0);
  const count = {
    ours: perLine((line) => ours.open_count(t.code, line)),
    "@huggingface/tokenizers": perLine((line) => theirs.encode(line, { add_special_tokens: false }).ids.length),
  };
  console.log(`${t.name}: set-up ours ${oursLoadMs.toFixed(0)} ms, @huggingface/tokenizers ${theirsLoadMs.toFixed(0)} ms`);
  for (const [name, text] of texts) {
    const mb = utf8Bytes(text) / 1e6;
    const lines = text.split("\n");
    const rows = {};
    for (const [who, f] of Object.entries(count)) {
      f(lines.slice(0, 200)); // warm-up
      const times = [];
      let n = 0;
      for (let i = 0; i < RUNS; i++) {
        const [ms, c] = timed(() => f(lines));
        times.push(ms);
        n = c;
      }
      rows[who] = { ms: median(times), tokens: n };
      progress(`${t.code} ${name}: ${who} ${n} tokens, ${median(times).toFixed(0)} ms`);
    }
    const o = rows.ours;
    const h = rows["@huggingface/tokenizers"];
    if (o.tokens !== h.tokens) {
      console.log(`  ${name}: COUNTS DIFFER: ours ${o.tokens}, @huggingface/tokenizers ${h.tokens}`);
      status = 1;
    }
    console.log(
      `  ${name} (${mb.toFixed(2)} MB, ${lines.length} lines, ${o.tokens} tokens): ours ${(mb / (o.ms / 1000)).toFixed(1)} MB/s, ` +
        `@huggingface/tokenizers ${(mb / (h.ms / 1000)).toFixed(1)} MB/s; ours ${(h.ms / o.ms).toFixed(2)}×`,
    );
  }
}
process.exit(status);
