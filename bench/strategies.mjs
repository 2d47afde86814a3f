// make bench, strategy part: every chunking strategy of chunk-core in wasm
// (crates/strategies-wasm) in Node and in a Web Worker of headless Chromium, and each
// library-exact one against the library itself in Python (bench/strategies.py, through the
// differential test's oracles), on the repo fixture and on 1 MB of the mixed corpus, at
// chunk_size 512, chunk_overlap 64, cl100k_base. Prints chunks, tokens, ms and the ratios, then
// all strategies together on the 1 MB text. Figures, not a test: exits 1 only when a chunk count
// differs from the library's (or Node's from Chromium's), or a part could not run. Last, every
// strategy on the worst cases (lib/strategies-worst.mjs), in Node child processes with a cap.
//
// Needs bench/pkg-node/ and bench/pkg-web/strategies_wasm*, bench/node_modules and the oracle
// venv: `make bench-strategies` (or scripts/bench.sh) makes them ready, then this runs alone.
// The venv is taken from $CHUNK_ORACLE_PYTHON and $TIKTOKEN_CACHE_DIR when both are set, else
// from scripts/ensure-oracle.sh. $BENCH_ORACLE_DIR, when set, is the oracle directory the Python
// side imports instead of crates/chunk-core/tests/differential/oracle/ (to try oracles not yet
// merged).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { OUT, ROOT, assembleCorpus } from "./lib/corpus.mjs";
import { withServedPage } from "./lib/chromium.mjs";
import { RUNS } from "./lib/measure.mjs";
import { ALL_TEXT, SETTINGS, TEXTS, runAll } from "./lib/strategies.mjs";
import { printStrategyReport } from "./lib/strategies-report.mjs";
import { runWorst } from "./lib/strategies-worst.mjs";

const BENCH = import.meta.dirname;
const DIR = path.join(OUT, "strategies");
const PKG_NODE = path.join(BENCH, "pkg-node", "strategies_wasm.js");
const PKG_WEB = path.join(BENCH, "pkg-web", "strategies_wasm.js");
const FIXTURE = path.join(ROOT, "tests", "fixtures", "moonstone-short.txt");
const progress = (s) => process.stderr.write(`[bench:strategies] ${s}\n`);
const message = (e) => `${e?.message ?? e}`.split("\n")[0];

for (const p of [PKG_NODE, PKG_WEB]) {
  if (!fs.existsSync(p)) {
    console.error(`${path.relative(ROOT, p)} is missing: run \`make bench-strategies\` (or scripts/bench.sh) first.`);
    process.exit(1);
  }
}

/** The texts, written where the three sides read them. */
function writeTexts() {
  const corpus = assembleCorpus();
  fs.mkdirSync(DIR, { recursive: true });
  const content = { "moonstone-short.txt": fs.readFileSync(FIXTURE, "utf8"), "mixed-1mb.txt": corpus.mixed };
  const texts = {};
  const info = [];
  for (const t of TEXTS) {
    const text = content[t.file];
    fs.writeFileSync(path.join(DIR, t.file), text);
    texts[t.file] = text;
    info.push({ ...t, bytes: Buffer.byteLength(text), chars: [...text].length, sha256: createHash("sha256").update(text).digest("hex") });
  }
  return { texts, info };
}

/** Ours in Node: the nodejs-target build, re-required for a fresh instance. */
async function nodeRun(texts) {
  const require = createRequire(import.meta.url);
  const load = () => {
    delete require.cache[PKG_NODE];
    return require(PKG_NODE);
  };
  progress("Node run");
  const results = await runAll(load, texts, (s) => progress(`node: ${s}`));
  return { ...results, env: `Node ${process.version} (V8 ${process.versions.v8}), main thread` };
}

/** Ours in a Web Worker of headless Chromium (browser/strategies.html). */
async function chromiumRun() {
  progress("Chromium run");
  return withServedPage(progress, async ({ page, base, browser }) => {
    await page.goto(`${base}browser/strategies.html`);
    await page.waitForFunction(() => window.benchReady === true);
    const results = await page.evaluate(() => window.benchStrategies.run());
    return { ...results, env: `headless Chromium ${browser.version()}` };
  });
}

/** CHUNK_ORACLE_PYTHON and TIKTOKEN_CACHE_DIR: from the environment, else ensure-oracle.sh. */
function oracleEnv() {
  const { CHUNK_ORACLE_PYTHON, TIKTOKEN_CACHE_DIR } = process.env;
  if (CHUNK_ORACLE_PYTHON && TIKTOKEN_CACHE_DIR) return { CHUNK_ORACLE_PYTHON, TIKTOKEN_CACHE_DIR };
  progress("oracle venv: scripts/ensure-oracle.sh");
  const printed = execFileSync(path.join(ROOT, "scripts", "ensure-oracle.sh"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const env = Object.fromEntries(printed.split("\n").map((l) => /^(\w+)=(.*)$/.exec(l.trim())).filter(Boolean).map((m) => [m[1], m[2]]));
  if (!env.CHUNK_ORACLE_PYTHON || !env.TIKTOKEN_CACHE_DIR) throw new Error("scripts/ensure-oracle.sh printed no venv");
  return env;
}

/** The libraries in Python on the same texts; overlaps as ours chose them. */
function pythonRun(ours) {
  progress("Python run (the libraries, through the differential oracles)");
  const env = oracleEnv();
  const libraries = ours.strategies.filter((x) => x.library);
  const cases = [];
  for (const t of TEXTS) {
    for (const { id } of libraries) {
      const mine = ours.texts[t.file].find((x) => x.id === id);
      const known = mine && mine.overlap != null;
      cases.push({
        strategy: id,
        text: t.file,
        chunk_size: SETTINGS.chunkSize,
        chunk_overlap: known ? mine.overlap : SETTINGS.chunkOverlap,
        unit: SETTINGS.unit,
        encoding: SETTINGS.encoding,
        retry_without_overlap: !known,
      });
    }
  }
  const spec = {
    texts: Object.fromEntries(TEXTS.map((t) => [t.file, path.join(DIR, t.file)])),
    runs: RUNS,
    packages: [...new Set(libraries.map((x) => x.library.package))],
    cases,
  };
  const specPath = path.join(DIR, "python-cases.json");
  fs.writeFileSync(specPath, JSON.stringify(spec, null, 2));
  const oracleDir = process.env.BENCH_ORACLE_DIR ? ["--oracle-dir", process.env.BENCH_ORACLE_DIR] : [];
  const printed = execFileSync(env.CHUNK_ORACLE_PYTHON, [path.join(BENCH, "strategies.py"), specPath, ...oracleDir], {
    encoding: "utf8",
    env: { ...process.env, TIKTOKEN_CACHE_DIR: env.TIKTOKEN_CACHE_DIR },
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(printed.trim().split("\n").at(-1));
}

const { texts, info } = writeTexts();
let failedStep = false;
const attempt = async (name, fn) => {
  try {
    return await fn();
  } catch (e) {
    failedStep = true;
    progress(`FAILED: ${name}: ${e?.stack ?? e}`);
    return { error: message(e) };
  }
};
const node = await attempt("Node run", () => nodeRun(texts));
const chromium = await attempt("Chromium run", chromiumRun);
const python = await attempt("Python run", () => pythonRun(node.error ? chromium : node));
const worst = node.error
  ? { error: "the Node run failed" }
  : await attempt("worst cases", () => runWorst(PKG_NODE, node.texts[ALL_TEXT].filter((x) => !x.error), SETTINGS, progress));

const failures = printStrategyReport({ settings: SETTINGS, runs: RUNS, texts: info, node, chromium, python, worst });
if (failedStep) console.log("A part of the strategy bench could not run (see [bench:strategies] FAILED above).");
process.exitCode = failures.length || failedStep ? 1 : 0;
