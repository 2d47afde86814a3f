// Measurements shared by the Node run (bench/node.mjs) and the Chromium page
// (bench/browser/page.mjs). Plain ES module without imports, so the page loads it as is.
// Times are wall-clock milliseconds from performance.now(); MB means 10^6 bytes of UTF-8.

/** Timed runs per figure; the median is reported. */
export const RUNS = 3;

/**
 * The strategy bench's timed runs of a call whose warm-up took `firstMs`: at least `RUNS`, and
 * for a short call as many as take about MIN_TIMED_MS in all, up to MAX_RUNS (a 2 ms call's
 * median of 3 moved by half between runs on a 2-core machine). bench/strategies.py applies the
 * same rule to the library's calls.
 */
export function timedRuns(firstMs) {
  return Math.max(RUNS, Math.min(MAX_RUNS, Math.ceil(MIN_TIMED_MS / Math.max(firstMs, 0.01))));
}
/** See timedRuns. */
export const MIN_TIMED_MS = 250;
/** See timedRuns. */
export const MAX_RUNS = 25;

/** The per-case time cap for peers on the worst cases, in milliseconds. */
export const WORST_CAP_MS = 10_000;

/** Edge case E14's worst cases, plus 1 MB of one 3-byte character. */
export const WORST_CASES = [
  { name: "'a' x 100000", char: "a", times: 100_000 },
  { name: "'^' x 1000000", char: "^", times: 1_000_000 },
  { name: "' ' x 100000", char: " ", times: 100_000 },
  { name: "' ' x 1000000", char: " ", times: 1_000_000 },
  { name: "'猫' x 333333 (1 MB)", char: "猫", times: 333_333 },
];

export function worstText(name) {
  const c = WORST_CASES.find((w) => w.name === name);
  if (!c) throw new Error(`unknown worst case ${name}`);
  return c.char.repeat(c.times);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function utf8Bytes(text) {
  return new TextEncoder().encode(text).length;
}

/** Index of the first differing id of two id sequences, or -1 when equal. */
export function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function timed(fn) {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

/**
 * Throughput of each tokenizer on `text`: a warm-up encode (its ids are checked against
 * ours), then RUNS timed `encode` and RUNS timed `count`; medians.
 * `toks` maps tokenizer id → { count, encode, reset? }; "ours" must be present.
 * Returns rows `{ tok, tokens, encodeMs, countMs, encodeMBps, countMBps, idsEqual, firstDiff }`.
 */
export function throughput(toks, text) {
  const mb = utf8Bytes(text) / 1e6;
  const rows = [];
  let ourIds = null;
  for (const [tok, t] of Object.entries(toks)) {
    t.reset?.();
    const ids = Array.from(t.encode(text));
    if (tok === "ours") ourIds = ids;
    const encodeMs = [];
    const countMs = [];
    let tokens = 0;
    for (let i = 0; i < RUNS; i++) {
      t.reset?.();
      encodeMs.push(timed(() => t.encode(text)).ms);
      t.reset?.();
      const c = timed(() => t.count(text));
      countMs.push(c.ms);
      tokens = c.value;
    }
    rows.push({ tok, tokens, ids, encodeMs: median(encodeMs), countMs: median(countMs) });
  }
  return rows.map(({ ids, ...r }) => {
    const firstDiff = firstDifference(ids, ourIds);
    return {
      ...r,
      idsLength: ids.length,
      encodeMBps: mb / (r.encodeMs / 1e3),
      countMBps: mb / (r.countMs / 1e3),
      idsEqual: firstDiff === -1,
      firstDiff,
    };
  });
}

/**
 * `runs` timed `encode`s of `text` by the tokenizer `t` (from an adapter's create()), after one
 * warm-up encode; its cache (`reset`) is emptied before each. Returns `{ ms: [each run], tokens }`.
 */
export function encodeRuns(t, text, runs) {
  t.reset?.();
  const tokens = t.encode(text).length;
  const ms = [];
  for (let i = 0; i < runs; i++) {
    t.reset?.();
    ms.push(timed(() => t.encode(text)).ms);
  }
  return { ms, tokens };
}

/** Our tokenizer on every worst case (in the caller's thread): `[{ name, ms, count }]`. */
export function worstOurs(ours) {
  return WORST_CASES.map(({ name }) => {
    const text = worstText(name);
    const r = timed(() => ours.count(text));
    return { name, ms: r.ms, count: r.value };
  });
}
