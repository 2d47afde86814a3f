// One worst case in a child process, so that the parent can kill it at the time cap:
// `fork(worst-child.mjs, [ADAPTER, CASE_NAME])`. Loads the tokenizer and builds the text, sends
// { ready: true }, waits for "run", then sends { ms, count } or { error }.
import { pathToFileURL } from "node:url";
import { worstText } from "./measure.mjs";

const [adapter, name] = process.argv.slice(2);
const mod = await import(pathToFileURL(adapter).href);
await mod.load();
const tok = mod.create();
const text = worstText(name);
process.on("message", (msg) => {
  if (msg !== "run") return;
  try {
    const t = performance.now();
    const count = tok.count(text);
    process.send({ ms: performance.now() - t, count }, () => process.exit(0));
  } catch (e) {
    process.send({ error: `${e.name}: ${e.message}` }, () => process.exit(0));
  }
});
process.send({ ready: true });
