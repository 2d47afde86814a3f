// Trunk's post_build hook (Trunk.toml) for release builds: Binaryen's wasm-opt -Oz over the
// page's own module (rag-chunk-calculator-<hash>_bg.wasm in $TRUNK_STAGING_DIR), the module a
// first visit waits for. wasm-opt is the npm package binaryen 132.0.0 (JavaScript and wasm, run
// on Node; pinned in scripts/wasm-opt/package-lock.json, installed by scripts/ensure-tools.sh):
// Debian's binaryen is too old for the features rustc's wasm uses, and Trunk's own wasm-opt
// would be a download. The workers' modules are left as they are: most of their bytes are
// tables, which wasm-opt does not shrink (measured: the tokenizer's module 1,538,702 B gzip
// before and 1,538,713 B after -Oz).
//
// Debug builds (`make serve`) are left alone. Prints each module's size before and after.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WASM_OPT = path.join(HERE, 'wasm-opt', 'node_modules', 'binaryen', 'bin', 'wasm-opt');
/** The features rustc enables by default for wasm32-unknown-unknown (Rust 1.82 and later). */
const FEATURES = [
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
];
const PAGE_MODULE = /^rag-chunk-calculator-[0-9a-f]+_bg\.wasm$/;

if (process.env.TRUNK_PROFILE !== 'release') {
  console.log(`wasm-opt: skipped (${process.env.TRUNK_PROFILE ?? 'no'} profile)`);
  process.exit(0);
}
const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('wasm-opt: TRUNK_STAGING_DIR is not set (this script runs as a Trunk hook)');
  process.exit(1);
}
if (!existsSync(WASM_OPT)) {
  console.error(`wasm-opt: ${WASM_OPT} is missing: run scripts/ensure-tools.sh serve (make build does)`);
  process.exit(1);
}
const modules = readdirSync(dir).filter((f) => PAGE_MODULE.test(f));
if (modules.length !== 1) {
  console.error(`wasm-opt: expected one page module in ${dir}, found ${JSON.stringify(modules)}`);
  process.exit(1);
}
for (const name of modules) {
  const file = path.join(dir, name);
  const before = statSync(file).size;
  execFileSync(process.execPath, [WASM_OPT, '-Oz', ...FEATURES, file, '-o', file], { stdio: 'inherit' });
  console.log(`wasm-opt -Oz: ${name} ${before} -> ${statSync(file).size} bytes`);
}
