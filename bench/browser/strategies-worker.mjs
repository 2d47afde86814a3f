// The strategy bench inside a Web Worker: fetches the texts from /data/strategies/ (the files
// bench/strategies.mjs wrote to target/bench/strategies/), loads crates/strategies-wasm from
// bench/pkg-web/, runs lib/strategies.mjs's runAll, posts { results } (and { progress } on the way).
// Each (re-)instantiation imports the wasm-bindgen module under a new URL, so that it is a new
// module with a new instance (its init() instantiates once per module).
import { TEXTS, runAll } from "../lib/strategies.mjs";

const BASE = new URL("../", import.meta.url).href; // bench/ as served
let instance = 0;
let compiled = null; // the WebAssembly.Module, compiled once

async function load() {
  compiled ??= await WebAssembly.compileStreaming(fetch(new URL("pkg-web/strategies_wasm_bg.wasm", BASE)));
  const mod = await import(new URL(`pkg-web/strategies_wasm.js?instance=${++instance}`, BASE).href);
  await mod.default({ module_or_path: compiled });
  return mod;
}

async function text(file) {
  const res = await fetch(new URL(`/data/strategies/${file}`, BASE));
  if (!res.ok) throw new Error(`GET /data/strategies/${file}: ${res.status}`);
  return res.text();
}

self.onmessage = async () => {
  try {
    const texts = {};
    for (const { file } of TEXTS) texts[file] = await text(file);
    const results = await runAll(load, texts, (progress) => self.postMessage({ progress }));
    self.postMessage({ results });
  } catch (e) {
    self.postMessage({ error: `${e.name}: ${e.message}\n${e.stack ?? ""}` });
  }
};
