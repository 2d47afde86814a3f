// One strategy on one worst case in a child process (bench/lib/strategies-worst.mjs), so the
// parent can stop it at the cap: `fork(strategies-worst-child.mjs, [PKG, ID, CASE, OVERLAP,
// SETTINGS_JSON])`. Loads the module, builds the text and the encoding's tables (a call on a
// short text), sends { ready: true }, waits for "run", then sends { ms, chunks } or { error }.
import { createRequire } from "node:module";
import { WORST_STRATEGY_CASES } from "./strategies-worst.mjs";

const [pkg, id, caseName, overlapArg, settingsJson] = process.argv.slice(2);
const s = JSON.parse(settingsJson);
const overlap = Number(overlapArg);
const wasm = createRequire(import.meta.url)(pkg);
const text = WORST_STRATEGY_CASES.find((c) => c.name === caseName).text();
try {
  wasm.chunk(id, "Warm-up: the tables are built before the timed call.", s.chunkSize, overlap, s.unit, s.encoding);
} catch {
  // a refusal of the warm-up text is the timed call's to report
}
process.on("message", (msg) => {
  if (msg !== "run") return;
  try {
    const t = performance.now();
    const [chunks] = Array.from(wasm.chunk(id, text, s.chunkSize, overlap, s.unit, s.encoding));
    process.send({ ms: performance.now() - t, chunks }, () => process.exit(0));
  } catch (e) {
    const panic = e instanceof WebAssembly.RuntimeError ? ` (${wasm.last_panic?.() ?? "trap"})` : "";
    process.send({ error: `${e?.message ?? e}${panic}`.split("\n")[0] }, () => process.exit(0));
  }
});
process.send({ ready: true });
