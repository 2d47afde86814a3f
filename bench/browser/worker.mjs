// Runs one worst case for page.mjs: loads the tokenizer bundle and builds the text, posts
// { ready }, then on "run" posts { ms, count } or { error }. The page terminates it at the cap.
import { worstText } from "../lib/measure.mjs";

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
    text = worstText(data.name);
    self.postMessage({ ready: true });
  } catch (e) {
    self.postMessage({ error: `${e.name}: ${e.message}` });
  }
};
