// The strategy bench's worst cases (bench/strategies.mjs): every strategy of
// crates/strategies-wasm on texts of one repeated kind that make chunkers slow (edge case E14's
// runs, and the kinds the libraries' issue trackers report: line breaks only, CRLF, a table
// rule, a base64 blob, minified code, headings only, a list, tiny sentences, lines then one
// coarser separator near the end), each about 256 KB, at the bench's setting. Each call runs in
// a Node child process (strategies-worst-child.mjs, through capped-child.mjs), so the parent can
// stop it at WORST_STRATEGY_CAP_MS; a case past the cap is reported as such. Figures are ms per MB, set against the strategy's typical ms per
// MB on the mixed corpus; the bound is 10x. Not a test: it prints figures.
import path from "node:path";
import { runCapped } from "./capped-child.mjs";

/** Bytes of each worst case (about; a case repeats whole units). */
export const WORST_BYTES = 262_144;

/** A call past this many ms is stopped and reported as "over the cap". */
export const WORST_STRATEGY_CAP_MS = 5_000;

/** The bound of the issue: a worst case at most this many times the typical ms per MB. */
export const WORST_RATIO_GOAL = 10;

/**
 * A deterministic pseudo-random string of `n` characters from `alphabet` (mulberry32: every
 * output bit is mixed, unlike an LCG's low bits, whose period would repeat the text).
 */
function pseudoRandom(n, alphabet, seed = 1) {
  let a = seed >>> 0;
  let out = "";
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = (t ^ (t >>> 14)) >>> 0;
    out += alphabet[Math.floor((x / 2 ** 32) * alphabet.length)];
  }
  return out;
}

/** Repeats `unit` until the text holds about WORST_BYTES bytes of UTF-8. */
const fill = (unit) => unit.repeat(Math.max(1, Math.floor(WORST_BYTES / Buffer.byteLength(unit))));

/** The worst cases: `{ name, text() }`. */
export const WORST_STRATEGY_CASES = [
  { name: "'a' run (E14)", text: () => fill("a") },
  { name: "'^' run (E14)", text: () => fill("^") },
  { name: "space run (E14)", text: () => fill(" ") },
  { name: "'猫' run (E14, E16)", text: () => fill("猫") },
  { name: "line breaks only", text: () => fill("\n") },
  { name: "CRLF only", text: () => fill("\r\n") },
  { name: "'|' run (a table rule)", text: () => fill("|") },
  { name: "base64 blob", text: () => pseudoRandom(WORST_BYTES, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") },
  {
    name: "minified code (one line)",
    text: () => {
      const parts = ["var a=1;", "f(x){return x+1}", "if(a<b){c()}", "[1,2,3].map(g);"];
      const picks = pseudoRandom(WORST_BYTES / 12, "0123", 7);
      return [...picks].map((d) => parts[Number(d)]).join("");
    },
  },
  { name: "headings only", text: () => fill("# h\n") },
  { name: "list items only", text: () => fill("- x\n") },
  { name: "tiny sentences", text: () => fill("A. ") },
  {
    name: "lines, then one blank-line run",
    text: () => fill("line with a few words\n").slice(0, -200) + "\n\n\n# The end\n\nLast words.\n",
  },
];

/**
 * One call in a child: `{ ms, chunks }`, `{ error }`, or `{ capped: true }` past the cap.
 * `pkg` is the nodejs build of crates/strategies-wasm.
 */
async function runChild(pkg, id, caseName, overlap, settings) {
  const r = await runCapped(path.join(import.meta.dirname, "strategies-worst-child.mjs"),
    [pkg, id, caseName, String(overlap), JSON.stringify(settings)], WORST_STRATEGY_CAP_MS);
  return r.message ?? r;
}

/**
 * Every strategy (`[{ id, overlap }]`, the overlaps the bench chose) on every worst case, one
 * child each: `{ capMs, bytes: { case: bytes }, rows: [{ id, case, ms?, chunks?, capped?, error? }] }`.
 */
export async function runWorst(pkg, strategies, settings, progress = () => {}) {
  const rows = [];
  const bytes = Object.fromEntries(WORST_STRATEGY_CASES.map((c) => [c.name, Buffer.byteLength(c.text())]));
  for (const { id, overlap } of strategies) {
    progress(`worst cases: ${id}`);
    for (const c of WORST_STRATEGY_CASES) rows.push({ id, case: c.name, ...(await runChild(pkg, id, c.name, overlap, settings)) });
  }
  return { capMs: WORST_STRATEGY_CAP_MS, bytes, rows };
}
