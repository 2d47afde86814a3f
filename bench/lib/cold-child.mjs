// One cold set-up in a fresh Node process: `node cold-child.mjs ADAPTER SAMPLE_FILE`.
// Prints one JSON line { loadMs, createMs, firstMs, count } (see lib/report.mjs for meanings).
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [adapter, samplePath] = process.argv.slice(2);
const sample = fs.readFileSync(samplePath, "utf8");
const t0 = performance.now();
const mod = await import(pathToFileURL(adapter).href);
await mod.load();
const t1 = performance.now();
const tok = mod.create();
const t2 = performance.now();
const count = tok.count(sample);
const t3 = performance.now();
console.log(JSON.stringify({ loadMs: t1 - t0, createMs: t2 - t1, firstMs: t3 - t1, count }));
