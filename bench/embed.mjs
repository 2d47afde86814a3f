// make bench-embed: the embedding worker's module (crates/embed-engine) in Node's wasm, built
// with and without wasm SIMD (its `simd128` feature), on all-MiniLM-L6-v2 with int8 weights (the
// site's model file) and with the published fp32 weights (the same layout, `--fp32`). It drives
// the module as assets/embed-worker.js does (Engine: load, request, step until the answer), and
// prints, per build and weights:
//  - sentences per second: the fixture's first SENTENCES sentences, one request of them
//    (about 30 tokens each);
//  - chunks per second: CHUNKS texts of the model's whole input (256 tokens, cut);
//  - load time of the model file (parse, checksums, tables), once.
// Each figure is the best of ROUNDS runs after a warm-up. It also checks that both builds give
// the same vectors bit for bit (the SIMD path keeps the scalar one's order of operations), and
// exits 1 when they differ or a step fails. Not a test: speed is never a failure.
//
// Usage: node bench/embed.mjs DIR
//   (BUILDS=simd,scalar and WEIGHTS=int8,fp32 by default: environment variables of the same
//   names choose fewer, or another build's pkg-NAME/)
//   DIR/pkg-simd/, DIR/pkg-scalar/   wasm-bindgen --target web output of each build
//   DIR/models/all-minilm-l6-v2.{int8,fp32}.safetensors
// (scripts/bench-embed.sh makes them).
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ROOT } from "./lib/corpus.mjs";

const DIR = path.resolve(process.argv[2] ?? path.join(ROOT, "target", "bench", "embed"));
const SENTENCES = 200;
const CHUNKS = 24;
const ROUNDS = 3;
const BUILDS = (process.env.BUILDS ?? "simd,scalar").split(",");
const WEIGHTS = (process.env.WEIGHTS ?? "int8,fp32").split(",");
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:embed] ${s}\n`);

const fixture = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"), "utf8");
// The story's sentences (after the Gutenberg header), whitespace folded.
const body = fixture.slice(fixture.indexOf("I address these lines"));
const sentences = body
  .replace(/\s+/g, " ")
  .split(/(?<=[.!?])\s+(?=[A-Z"])/)
  .filter((s) => s.length > 20)
  .slice(0, SENTENCES);
const words = body.replace(/\s+/g, " ").split(" ");
const chunks = Array.from({ length: CHUNKS }, (_, i) => words.slice(i * 250, i * 250 + 250).join(" "));
const vocab = fs.readFileSync(path.join(ROOT, "crates", "chunk-core", "vocab", "bert-base-uncased.txt"));

/** The module of one build, instantiated from its bytes. */
async function instantiate(pkg) {
  const glue = await import(path.join(DIR, pkg, "embed_engine.js"));
  glue.initSync({ module: fs.readFileSync(path.join(DIR, pkg, "embed_engine_bg.wasm")) });
  return glue;
}

/** The vectors of `texts` through `engine`, as the worker gets them. */
function embed(engine, texts) {
  engine.request(0, { id: 1, texts });
  for (;;) {
    const step = engine.step();
    if (step === null) throw new Error("the engine went idle without an answer");
    if (step.kind === "post") {
      if (step.message.error) throw new Error(step.message.error);
      return step.message.vectors;
    }
  }
}

/** The best time of ROUNDS runs, in ms. */
function best(run) {
  let min = Infinity;
  for (let i = 0; i < ROUNDS; i += 1) {
    const t = performance.now();
    run();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const rows = [];
const outputs = new Map();
for (const weights of WEIGHTS) {
  const file = path.join(DIR, "models", `all-minilm-l6-v2.${weights}.safetensors`);
  const model = fs.readFileSync(file);
  for (const build of BUILDS) {
    progress(`${build}, ${weights}`);
    const glue = await instantiate(`pkg-${build}`);
    const engine = new glue.Engine();
    const t = performance.now();
    engine.load(path.basename(file), model, "bert-base-uncased.txt", vocab);
    const loadMs = performance.now() - t;
    embed(engine, sentences.slice(0, 20)); // warm-up: the optimizing tier
    let vectors;
    const sentenceMs = best(() => {
      vectors = embed(engine, sentences);
    });
    const chunkMs = best(() => embed(engine, chunks));
    outputs.set(`${build} ${weights}`, vectors);
    rows.push({ build, weights, loadMs, sentenceMs, chunkMs });
    engine.free();
  }
}

let failed = false;
for (const weights of WEIGHTS) {
  const [a, b] = [outputs.get(`${BUILDS[0]} ${weights}`), outputs.get(`${BUILDS.at(-1)} ${weights}`)];
  const same = a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  if (!same) {
    failed = true;
    say(`VECTORS DIFFER: ${weights}, builds ${BUILDS[0]} and ${BUILDS.at(-1)}`);
  }
}

const words_ = sentences.reduce((n, s) => n + s.split(" ").length, 0);
say(`all-MiniLM-L6-v2 in Node ${process.version} wasm, ${sentences.length} sentences (${(words_ / sentences.length).toFixed(1)} words each) and ${chunks.length} chunks of 256 tokens; best of ${ROUNDS}`);
say("| build | weights | sentences/s | chunks/s | model load |");
say("|---|---|---|---|---|");
for (const r of rows) {
  say(
    `| ${r.build === "simd" ? "SIMD (simd128)" : r.build} | ${r.weights} | ${((sentences.length * 1000) / r.sentenceMs).toFixed(1)} | ${((chunks.length * 1000) / r.chunkMs).toFixed(2)} | ${r.loadMs.toFixed(0)} ms |`,
  );
}
for (const weights of WEIGHTS) {
  const [s, n] = ["simd", "scalar"].map((b) => rows.find((r) => r.build === b && r.weights === weights));
  if (s && n) say(`${weights}: SIMD ${(n.sentenceMs / s.sentenceMs).toFixed(2)}× the scalar build on sentences, ${(n.chunkMs / s.chunkMs).toFixed(2)}× on chunks`);
}
say(failed ? "FAILED: the builds' vectors differ" : `the builds' vectors are equal bit for bit (${BUILDS.join(", ")})`);
process.exit(failed ? 1 : 0);
