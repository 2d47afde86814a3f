// Runs one worst case for page.mjs: loads the tokenizer bundle and builds the text, posts
// { ready }, then on "run" posts { ms, count } or { error }. The page terminates it at the cap.
// Given a `file` of /data/ instead of a case `name`, it times `runs` encodes of that text (after
// warm-up encodes for `warmMs`, when given) and posts { ms, tokens } (encodeRuns; bench/paste.mjs,
// bench/browser.mjs); with `first` too, it times only the first
// encode of this fresh worker (after its load and create, timed apart) and posts
// { ms, setupMs, tokens }.
import { encodeRuns, worstText } from "../lib/measure.mjs";

let tok = null;
let text = null;
self.onmessage = async ({ data }) => {
  try {
    if (data === "run") {
      const t = performance.now();
      const count = tok.count(text);
      self.postMessage({ ms: performance.now() - t, count });
      return;
    }
    const t0 = performance.now();
    const mod = await import(data.url);
    await mod.load(data.base);
    tok = mod.create();
    const setupMs = performance.now() - t0;
    if (data.file) {
      const res = await fetch(new URL(`/data/${data.file}`, data.base));
      if (!res.ok) throw new Error(`GET /data/${data.file}: ${res.status}`);
      const text = await res.text();
      if (data.first) {
        const t = performance.now();
        const tokens = tok.encode(text).length;
        self.postMessage({ ms: performance.now() - t, setupMs, tokens });
        return;
      }
      // Warm-up encodes for at least `warmMs` first, so the timed runs see the module's
      // optimized code (V8 tiers a fresh module's hot functions up in the background).
      for (const t = performance.now(); performance.now() - t < (data.warmMs ?? 0); ) tok.encode(text);
      self.postMessage(encodeRuns(tok, text, data.runs));
      return;
    }
    text = worstText(data.name);
    self.postMessage({ ready: true });
  } catch (e) {
    self.postMessage({ error: `${e.name}: ${e.message}` });
  }
};
