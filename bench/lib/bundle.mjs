// Bundles every browser adapter with esbuild (minified ES modules, one per tokenizer ×
// encoding) into bench/pkg-browser/, and measures what each ships: the bundle plus the wasm it
// instantiates, raw and gzip (level 9).
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { BENCH, ENCODINGS, TOKENIZERS, adapterPath, wasmFile, writeAdapters } from "./adapters.mjs";

export const BUNDLES = path.join(BENCH, "pkg-browser");

export function bundlePath(tok, enc) {
  return path.join(BUNDLES, `${tok}-${enc}.js`);
}

function sizes(file) {
  const bytes = fs.readFileSync(file);
  return { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
}

/**
 * Writes the adapters and bundles those of the tokenizers `ids` (default: all); returns rows
 * `{ tok, enc, js: {raw, gzip}, wasm: {raw, gzip} | null, total: {raw, gzip} }`.
 */
export async function buildBundles(ids = TOKENIZERS.map((t) => t.id)) {
  writeAdapters();
  fs.mkdirSync(BUNDLES, { recursive: true });
  const rows = [];
  for (const id of ids) {
    for (const enc of ENCODINGS) {
      await esbuild.build({
        entryPoints: [adapterPath(id, enc, "browser")],
        outfile: bundlePath(id, enc),
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        logLevel: "error",
        // The wasm is fetched at run time, not bundled.
        loader: { ".wasm": "file" },
      });
      const js = sizes(bundlePath(id, enc));
      const w = wasmFile(id);
      const wasm = w ? sizes(w) : null;
      rows.push({
        tok: id,
        enc,
        js,
        wasm,
        total: { raw: js.raw + (wasm?.raw ?? 0), gzip: js.gzip + (wasm?.gzip ?? 0) },
      });
    }
  }
  return rows;
}
