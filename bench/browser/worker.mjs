// Runs one worst case for page.mjs: loads the tokenizer bundle and builds the text, posts
// { ready }, then on "run" posts { ms, count } or { error }. The page terminates it at the cap.
// Given a `file` of /data/ instead of a case `name`, it times `runs` encodes of that text and
// posts { ms, tokens } (encodeRuns; bench/paste.mjs).
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
    const mod = await import(data.url);
    await mod.load(data.base);
    tok = mod.create();
    if (data.file) {
      const res = await fetch(new URL(`/data/${data.file}`, data.base));
      if (!res.ok) throw new Error(`GET /data/${data.file}: ${res.status}`);
      self.postMessage(encodeRuns(tok, await res.text(), data.runs));
      return;
    }
    text = worstText(data.name);
    self.postMessage({ ready: true });
  } catch (e) {
    self.postMessage({ error: `${e.name}: ${e.message}` });
  }
};
