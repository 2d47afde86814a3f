// The wasm side of the strategy bench (bench/strategies.mjs), shared by the Node run and the
// Chromium Web Worker (browser/strategies-worker.mjs): every strategy of crates/strategies-wasm
// timed on the same texts and settings. Imports only measure.mjs, so the worker loads it as is.
//
// A strategy that is not implemented yet panics; the release build aborts on panic, so the call
// traps (WebAssembly.RuntimeError). Every call is caught: the row says "not available" with the
// panic's message, and the module is instantiated afresh before the next call.
import { median, timedRuns } from "./measure.mjs";

/** The setting every strategy is timed with (chunk_overlap becomes 0 where the library has none). */
export const SETTINGS = { chunkSize: 512, chunkOverlap: 64, unit: "tokens", encoding: "cl100k_base" };

/**
 * The texts, as files under target/bench/strategies/ (served at /data/strategies/ to Chromium,
 * read by bench/strategies.py too, so all three read identical bytes).
 */
export const TEXTS = [
  { file: "moonstone-short.txt", label: "fixture tests/fixtures/moonstone-short.txt" },
  { file: "mixed-1mb.txt", label: "mixed corpus, 1 MB (bench/lib/corpus.mjs)" },
];

/** The text all strategies are timed on together (the page's worst realistic case). */
export const ALL_TEXT = "mixed-1mb.txt";

const firstLine = (s) => String(s).split("\n").filter((l) => l.trim()).slice(-1)[0] ?? String(s);

/** crates/strategies-wasm behind a loader that can instantiate it afresh. */
export class WasmStrategies {
  /** `load()` returns (or resolves to) a freshly instantiated module's exports. */
  static async create(load) {
    const s = new WasmStrategies(load);
    await s.reload();
    return s;
  }

  constructor(load) {
    this.load = load;
    this.wasm = null;
    /** How many times the module was instantiated (1 + the traps). */
    this.instances = 0;
  }

  async reload() {
    this.wasm = await this.load();
    this.instances++;
  }

  /**
   * Calls `fn(wasm)` and times it: `{ ok, ms }`, or `{ error }` when it throws (the strategy's
   * refusal, or "panicked: …" after a trap, when the module is re-instantiated).
   */
  async attempt(fn) {
    const t = performance.now();
    try {
      const ok = fn(this.wasm);
      return { ok, ms: performance.now() - t };
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) return { error: e?.message ?? String(e) };
      let panic = null;
      try {
        panic = this.wasm.last_panic(); // the old instance still answers after the trap
      } catch {
        // none to read
      }
      await this.reload();
      return { error: `panicked: ${firstLine(panic ?? `${e.name}: ${e.message}`)}` };
    }
  }

  /** Every strategy: `[{ id, library: { package, version, api, exact } | null }]`. */
  strategies() {
    return this.wasm.strategy_ids().map((id) => {
      const l = this.wasm.library_of(id);
      if (!l) return { id, library: null };
      const library = { package: l.package, version: l.version, api: l.api, exact: l.exact };
      l.free();
      return { id, library };
    });
  }

  /** The overlap `id` is timed with (`{ ok: overlap }`), or `{ error }`. */
  overlap(id, s = SETTINGS) {
    return this.attempt((w) => w.effective_overlap(id, s.chunkSize, s.chunkOverlap, s.unit, s.encoding));
  }

  /** One timed `chunk` call: `{ ok: [chunks, tokens], ms }` or `{ error }`. */
  chunk(id, text, overlap, s = SETTINGS) {
    return this.attempt((w) => Array.from(w.chunk(id, text, s.chunkSize, overlap, s.unit, s.encoding)));
  }

  /**
   * One `chunk_prepared` call, as the page's comparison worker runs a row (the document
   * prepared first, then the strategy on it): `{ ok: [chunks, tokens, prepareMs, chunkMs] }`
   * (times measured inside the module) or `{ error }`.
   */
  chunkPrepared(id, text, overlap, s = SETTINGS) {
    return this.attempt((w) => Array.from(w.chunk_prepared(id, text, s.chunkSize, overlap, s.unit, s.encoding)));
  }

  /**
   * `id` on `text`: one warm-up call, then `runs` timed calls of `chunk` (the text prepared
   * within the call, as the library's call tokenizes within it; `runs` from the warm-up's time,
   * measure.mjs timedRuns), then `runs` of `chunkPrepared`. Returns `{ id, overlap, chunks,
   * tokens, runs, firstMs, ms, prepareMs, preparedMs }` (medians: ms of the whole call,
   * prepareMs of the document's preparation, preparedMs of the strategy on the prepared
   * document) or `{ id, overlap?, error }`.
   */
  async measure(id, text, overlap) {
    const times = [];
    let out = null;
    let runs = 0;
    const differs = (a, b) => `not deterministic: ${a.slice(0, 2)} then ${b.slice(0, 2)}`;
    for (let i = 0; i <= runs; i++) {
      const r = await this.chunk(id, text, overlap);
      if (r.error) return { id, overlap, error: r.error };
      if (out && (out[0] !== r.ok[0] || out[1] !== r.ok[1])) return { id, overlap, error: differs(out, r.ok) };
      out = r.ok;
      times.push(r.ms);
      if (i === 0) runs = timedRuns(r.ms);
    }
    const prepare = [];
    const prepared = [];
    for (let i = 0; i < runs; i++) {
      const r = await this.chunkPrepared(id, text, overlap);
      if (r.error) return { id, overlap, error: r.error };
      if (out[0] !== r.ok[0] || out[1] !== r.ok[1]) {
        return { id, overlap, error: `chunk_prepared made ${r.ok.slice(0, 2)} (chunks, tokens), chunk ${out}` };
      }
      prepare.push(r.ok[2]);
      prepared.push(r.ok[3]);
    }
    return {
      id, overlap, chunks: out[0], tokens: out[1], runs, firstMs: times[0], ms: median(times.slice(1)),
      prepareMs: median(prepare), preparedMs: median(prepared),
    };
  }
}

/**
 * The whole wasm run of one environment on `texts` (`{ file: text }`, every file of TEXTS):
 * 1. the overlap of every strategy (`effective_overlap`);
 * 2. in a fresh instance, every strategy once on ALL_TEXT, in order (the first call also builds
 *    the encoding's tables): `cold`;
 * 3. in a fresh instance, every strategy once on ALL_TEXT with `chunkPrepared`: `table`,
 *    `{ prepareMs, rows: [{ id, ms }] }`, the first preparation (tables built) and each
 *    strategy's time on a prepared document, what the page's table costs from cold (each call
 *    prepares its own document, untimed after the first, so no row reuses another's sentences);
 * 4. every strategy on every text, a warm-up then timed calls of each kind (measure.mjs timedRuns): `texts`.
 * `progress(s)` reports each step.
 */
export async function runAll(load, texts, progress = () => {}) {
  let s = await WasmStrategies.create(load);
  const strategies = s.strategies();
  const overlaps = {};
  for (const { id } of strategies) {
    const r = await s.overlap(id);
    overlaps[id] = r.error ? { error: r.error } : { overlap: r.ok };
  }

  progress(`all strategies once on ${ALL_TEXT}, in a fresh instance`);
  s = await WasmStrategies.create(load);
  const cold = [];
  for (const { id } of strategies) {
    const o = overlaps[id];
    if (o.error) {
      cold.push({ id, error: o.error });
      continue;
    }
    const r = await s.chunk(id, texts[ALL_TEXT], o.overlap);
    cold.push(r.error ? { id, overlap: o.overlap, error: r.error } : { id, overlap: o.overlap, chunks: r.ok[0], tokens: r.ok[1], ms: r.ms });
  }

  progress(`all strategies once on ${ALL_TEXT} as the page's table runs them, in a fresh instance`);
  s = await WasmStrategies.create(load);
  const table = { prepareMs: null, rows: [] };
  for (const { id } of strategies) {
    const o = overlaps[id];
    if (o.error) continue;
    const r = await s.chunkPrepared(id, texts[ALL_TEXT], o.overlap);
    if (r.error) continue;
    table.prepareMs ??= r.ok[2]; // the first preparation also builds the tables
    table.rows.push({ id, ms: r.ok[3] });
  }

  const measured = {};
  for (const { file } of TEXTS) {
    measured[file] = [];
    for (const { id } of strategies) {
      const o = overlaps[id];
      if (o.error) {
        measured[file].push({ id, error: o.error });
        continue;
      }
      progress(`${id} on ${file}`);
      measured[file].push(await s.measure(id, texts[file], o.overlap));
    }
  }
  return { strategies, settings: SETTINGS, cold, table, texts: measured, instances: s.instances };
}
