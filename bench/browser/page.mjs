// The Chromium side of make bench: bench/browser.mjs opens page.html and calls window.bench.*
// through Playwright. Bundles come from bench/pkg-browser/ (lib/bundle.mjs); the corpus and the
// 100 KB sample from /data/ (target/bench/, lib/corpus.mjs). Results are plain objects.
import { WORST_CAP_MS, encodeRuns, throughput, worstOurs } from "../lib/measure.mjs";

const BASE = new URL("../", import.meta.url).href; // bench/ as served
const bundleUrl = (tok, enc) => new URL(`pkg-browser/${tok}-${enc}.js`, BASE).href;

async function text(name) {
  const res = await fetch(new URL(`/data/${name}`, BASE));
  if (!res.ok) throw new Error(`GET /data/${name}: ${res.status}`);
  return res.text();
}

window.bench = {
  /** One cold set-up in this fresh page: import + load, create, first count of the sample. */
  async cold(tok, enc) {
    const sample = await text("sample-100k.txt");
    const t0 = performance.now();
    const mod = await import(bundleUrl(tok, enc));
    await mod.load(BASE);
    const t1 = performance.now();
    const t = mod.create();
    const t2 = performance.now();
    const count = t.count(sample);
    const t3 = performance.now();
    return { loadMs: t1 - t0, createMs: t2 - t1, firstMs: t3 - t1, count };
  },

  /** Throughput of every tokenizer on the corpus, then our worst cases, for `enc`. */
  async throughput(encoding, tokIds) {
    const corpus = await text("corpus.txt");
    const toks = {};
    for (const tok of tokIds) {
      const mod = await import(bundleUrl(tok, encoding));
      await mod.load(BASE);
      toks[tok] = mod.create();
    }
    return { rows: throughput(toks, corpus), worst: worstOurs(toks.ours) };
  },

  /**
   * `runs` timed encodes of /data/`file` by `tok` after a warm-up one (lib/measure.mjs
   * encodeRuns), in this page's thread or in a Worker (there after warm-up encodes for
   * `warmMs` first): `{ ms: [each run], tokens }`.
   */
  async encodeRuns(tok, enc, file, runs, inWorker, warmMs = 0) {
    if (!inWorker) {
      const mod = await import(bundleUrl(tok, enc));
      await mod.load(BASE);
      return encodeRuns(mod.create(), await text(file), runs);
    }
    const worker = new Worker(new URL("worker.mjs", import.meta.url), { type: "module" });
    try {
      return await new Promise((resolve, reject) => {
        worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
        worker.onerror = (e) => reject(new Error(e.message || "worker error"));
        worker.postMessage({ url: bundleUrl(tok, enc), base: BASE, file, runs, warmMs });
      });
    } finally {
      worker.terminate();
    }
  },

  /**
   * The first encode of /data/`file` by `tok` in a fresh Worker (its load and create timed
   * apart, not in `ms`): `{ ms, setupMs, tokens }`.
   */
  async firstEncode(tok, enc, file) {
    const worker = new Worker(new URL("worker.mjs", import.meta.url), { type: "module" });
    try {
      return await new Promise((resolve, reject) => {
        worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
        worker.onerror = (e) => reject(new Error(e.message || "worker error"));
        worker.postMessage({ url: bundleUrl(tok, enc), base: BASE, file, first: true });
      });
    } finally {
      worker.terminate();
    }
  },

  /** One peer worst case in a Worker, terminated after WORST_CAP_MS. */
  worstPeer(tok, enc, name) {
    return new Promise((resolve) => {
      const worker = new Worker(new URL("worker.mjs", import.meta.url), { type: "module" });
      let timer = null;
      const done = (r) => {
        clearTimeout(timer);
        worker.terminate();
        resolve({ tok, enc, name, ...r });
      };
      worker.onmessage = ({ data }) => {
        if (data.ready) {
          worker.postMessage("run");
          timer = setTimeout(() => done({ status: "timeout" }), WORST_CAP_MS);
        } else if (data.error) done({ status: "error", error: data.error });
        else done({ status: "ok", ms: data.ms, count: data.count });
      };
      worker.onerror = (e) => done({ status: "error", error: e.message || "worker error" });
      worker.postMessage({ url: bundleUrl(tok, enc), base: BASE, name });
    });
  },
};
window.benchReady = true;
