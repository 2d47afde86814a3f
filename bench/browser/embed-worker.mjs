// The embedding bench inside a Web Worker of headless Chromium: one side per run, "ours" (the
// SIMD build of crates/embed-engine with the site's int8 all-MiniLM-L6-v2 file), "static" (the
// same module with the site's potion-base-8M file) or "peer" (onnxruntime-web's wasm backend on
// the ONNX int8 export, with the ids bench/embed.mjs wrote).
// Everything it reads is served from /data/embed/ (target/bench/embed/) and bench/node_modules.
// Posts { results } (lib/embed-runs.mjs's figures) or { error }.
import { benchTexts, runOurs, runPeer, runStatic, staticTexts } from "../lib/embed-runs.mjs";

const BASE = new URL("../", import.meta.url).href; // bench/ as served
const now = () => performance.now();

async function bytes(path) {
  const res = await fetch(new URL(path, BASE));
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function glue() {
  const mod = await import(new URL("data/embed/pkg-simd/embed_engine.js", BASE).href);
  await mod.default({ module_or_path: new URL("data/embed/pkg-simd/embed_engine_bg.wasm", BASE) });
  return mod;
}

const fixture = async () => new TextDecoder().decode(await bytes("data/embed/fixture.txt"));

async function staticModel() {
  const model = {
    file: "potion-base-8m.int8.safetensors",
    bytes: await bytes("data/embed/models/potion-base-8m.int8.safetensors"),
    vocabFile: "potion-base-8m.vocab.txt",
    vocab: await bytes("data/embed/models/potion-base-8m.vocab.txt"),
  };
  return runStatic(now, await glue(), model, staticTexts(await fixture()));
}

async function ours() {
  const model = {
    file: "all-minilm-l6-v2.int8.safetensors",
    bytes: await bytes("data/embed/models/all-minilm-l6-v2.int8.safetensors"),
    vocabFile: "bert-base-uncased.txt",
    vocab: await bytes("data/embed/vocab.txt"),
  };
  return runOurs(now, await glue(), model, benchTexts(await fixture()));
}

async function peer() {
  const ort = await import(new URL("node_modules/onnxruntime-web/dist/ort.wasm.min.mjs", BASE).href);
  ort.env.wasm.wasmPaths = new URL("node_modules/onnxruntime-web/dist/", BASE).href;
  const ids = JSON.parse(new TextDecoder().decode(await bytes("data/embed/ids.json")));
  return runPeer(now, ort, await bytes("data/embed/peer/model.onnx"), ids);
}

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ progress: `${data} in a worker` });
    const run = { peer, static: staticModel, ours }[data];
    const results = await run();
    self.postMessage({ results: { ...results, vectors: results.vectors && Array.from(results.vectors) } });
  } catch (e) {
    self.postMessage({ error: `${e.name}: ${e.message}\n${e.stack ?? ""}` });
  }
};
