// Prints the strategy bench (bench/strategies.mjs) as plain-text tables, in the style of
// report.mjs, and returns the failures: a library strategy whose chunk count differs from the
// library's (or chunks a text the library refuses), or Node and Chromium disagreeing.
// Speed is never a failure; a strategy that errors or panics is "not available".
import { MAX_RUNS, MIN_TIMED_MS, median } from "./measure.mjs";
import { loudBlock, table } from "./report.mjs";
import { ALL_TEXT } from "./strategies.mjs";
import { WORST_RATIO_GOAL } from "./strategies-worst.mjs";

const int = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n == null ? "-" : n >= 100 ? int(n) : n.toFixed(1));
const ratio = (a, b) => (a != null && b > 0 ? `${(a / b).toFixed(1)}x` : "-");
/**
 * Chromium's performance.now() steps by 0.1 ms without cross-origin isolation: a time read as
 * `b` lies below `b` + one step, so under two steps the ratio is shown as a lower bound.
 */
const CLOCK_STEP_MS = 0.1;
const ratioPrepared = (a, b) =>
  a != null && b != null && b < 2 * CLOCK_STEP_MS ? `> ${(a / (b + CLOCK_STEP_MS)).toFixed(0)}x` : ratio(a, b);
const ok = (r) => r && !r.error;
/** The ratio goal of the issue: the library in Python / ours in wasm. */
const RATIO_GOAL = 10;
/** The time goal of the issue for all strategies on 1 MB in the worker, in ms. */
const TOTAL_GOAL_MS = 1000;

/**
 * `r`: `{ settings, runs, texts: [{ file, label, bytes, chars, sha256 }], node, chromium, python }`
 * where node and chromium are lib/strategies.mjs runAll results plus `env` (or `{ error }`),
 * python is bench/strategies.py's output (or `{ error }`). Prints; returns the failures.
 */
export function printStrategyReport(r) {
  const out = [];
  const say = (s = "") => out.push(s);
  const failures = [];
  const warnings = [];
  const notes = [];
  const note = (s) => {
    if (!notes.includes(s)) notes.push(s);
    return `[${notes.indexOf(s) + 1}]`;
  };
  const { settings: s } = r;
  const base = ok(r.node) ? r.node : ok(r.chromium) ? r.chromium : null;
  const strategies = base?.strategies ?? [];
  const row = (env, file, id) => (ok(env) ? env.texts[file].find((x) => x.id === id) : null);
  const py = (file, id) => (ok(r.python) ? r.python.results.find((x) => x.strategy === id && x.text === file) : null);
  const oracleDir = r.python?.oracle_dir ?? "crates/chunk-core/tests/differential/oracle";
  const envName = (env, name) => (ok(env) ? env.env : `${name}: FAILED (${env?.error ?? "not run"})`);

  say("================ chunking strategies: ours (wasm) against the libraries (Python) ================");
  say();
  say(`Ours: crates/strategies-wasm (release build, as the page's) in ${envName(r.node, "Node")}, ` +
    `and in a Web Worker of ${envName(r.chromium, "Chromium")}.`);
  say(`Libraries: ${ok(r.python) ? r.python.python : `Python: FAILED (${r.python?.error ?? "not run"})`}, ` +
    `called through the differential test's oracle functions (${oracleDir}/).`);
  say(`Setting: chunk_size ${s.chunkSize} ${s.unit}, chunk_overlap ${s.chunkOverlap} (0 where the library has no ` +
    `overlap; column "overlap"), ${s.encoding}. ms: median of ${r.runs} or more timed calls after a warm-up (as many as take about ` +
    `${MIN_TIMED_MS} ms, up to ${MAX_RUNS}; ours: in one ` +
    "instance; Python: each call in a process forked after a warm-up on another text, so that no call reuses what an " +
    "earlier call on the same text cached; 1 call when it took over 10 s). ratio = the library's ms / ours " +
    `(goal of the issue: >= ${RATIO_GOAL}x; a figure, not a test). Wall-clock times: compare within one run.`);
  say("Texts (identical bytes for all three, from target/bench/strategies/):");
  for (const t of r.texts) say(`  ${t.file}: ${t.label}, ${int(t.bytes)} bytes, ${int(t.chars)} chars, sha256 ${t.sha256.slice(0, 16)}…`);
  say();

  const libraries = strategies.filter((x) => x.library);
  for (const t of r.texts) {
    say(`Library strategies on ${t.file} (${int(t.bytes)} bytes):`);
    const rows = [];
    for (const { id, library } of libraries) {
      const n = row(r.node, t.file, id);
      const c = row(r.chromium, t.file, id);
      const p = py(t.file, id);
      const ours = ok(n) ? n : ok(c) ? c : null;
      const installed = r.python?.packages?.[library.package];
      let lib = `${library.package} ${library.version}${library.exact ? "" : " (approx.)"}`;
      if (ok(r.python) && installed && !installed.endsWith(` ${library.version}`)) {
        lib += ` ${note(`${id}: the venv has ${installed}, the strategy reproduces ${library.version}`)}`;
      }
      const raised = p && !ok(p) && p.error !== "no oracle";
      let pyNote = null; // the note of the library's refusal, made when first shown
      const raisedNote = () => (pyNote ??= note(`${id} on ${t.file}: the library raised ${p.error}`));
      let chunks;
      if (!ours) {
        const why = n?.error ?? c?.error ?? "not run";
        if (raised) {
          pyNote = note(`${id} on ${t.file}: ours: ${why}; the library raised ${p.error}`);
          chunks = `refused by both ${pyNote}`;
        } else chunks = `not available ${note(`${id}: ${why}`)}`;
      } else if (ok(p)) {
        if (p.chunks === ours.chunks) chunks = int(ours.chunks);
        else {
          chunks = `FAIL ${int(ours.chunks)} vs ${int(p.chunks)}`;
          failures.push(`${id} on ${t.file}: ${ours.chunks} chunks, the library ${p.chunks}`);
        }
      } else if (p?.error === "no oracle" || !p) {
        chunks = `${int(ours.chunks)} ${note(`${id}: no oracle in ${oracleDir} yet: nothing to compare`)}`;
      } else {
        chunks = `FAIL ${int(ours.chunks)} vs raised ${raisedNote()}`;
        failures.push(`${id} on ${t.file}: ${ours.chunks} chunks, the library raised ${p.error}`);
      }
      if (ok(n) && ok(c) && (n.chunks !== c.chunks || n.tokens !== c.tokens)) {
        chunks += " FAIL (Node ≠ Chromium)";
        failures.push(`${id} on ${t.file}: Node ${n.chunks} chunks / ${n.tokens} tokens, Chromium ${c.chunks} / ${c.tokens}`);
      }
      let tokens = ours ? int(ours.tokens) : "-";
      if (ours && ok(p) && p.tokens !== ours.tokens) {
        tokens += ` (library ${int(p.tokens)})`;
        warnings.push(`${id} on ${t.file}: our chunks have ${ours.tokens} tokens in all, the library's ${p.tokens}`);
      }
      let overlap = ours ? String(ours.overlap) : "-";
      if (ours && ok(p) && p.chunk_overlap !== ours.overlap) overlap += ` (library ${p.chunk_overlap})`;
      const pMs = ok(p) ? p.ms : null;
      const cPrepared = ok(c) ? c.preparedMs : null;
      rows.push([id, lib, overlap, chunks, tokens, ms(ok(n) ? n.ms : null), ms(ok(c) ? c.ms : null),
        ms(cPrepared), ok(p) ? ms(pMs) : raised ? `error ${raisedNote()}` : p ? "no oracle" : "-",
        ratio(pMs, ok(n) ? n.ms : null), ratio(pMs, ok(c) ? c.ms : null), ratioPrepared(pMs, cPrepared)]);
    }
    say(table(["strategy", "library", "overlap", "chunks (ours = library)", "tokens", "Node wasm ms", "Chromium wasm ms",
      "Chromium, prepared ms", "Python ms", "Python/Node", "Python/Chromium", "Python/prepared"], rows, 5));
    say();
  }
  say("\"prepared\": the strategy on a document prepared beforehand (Document::new, the one encode every row of the page's " +
    "table shares), as the comparison worker runs a row; the preparation is shown once per text below. The library's " +
    "call always tokenizes within it, so \"Python/prepared\" is the ratio of a table row, not of a standalone call.");
  say();

  const goal = [];
  for (const { id } of libraries) {
    const rs = r.texts.flatMap((t) => {
      const p = py(t.file, id);
      return [row(r.node, t.file, id), row(r.chromium, t.file, id)].filter(ok).filter(() => ok(p)).map((x) => p.ms / x.ms);
    });
    if (rs.length) goal.push(`${id} ${Math.min(...rs).toFixed(1)}x`);
  }
  if (goal.length) say(`Smallest ratio per library strategy (both texts, both environments; goal >= ${RATIO_GOAL}x): ${goal.join(", ")}.`);
  const goalPrepared = [];
  for (const { id } of libraries) {
    const rs = r.texts.flatMap((t) => {
      const p = py(t.file, id);
      const c = row(r.chromium, t.file, id);
      return ok(p) && ok(c) ? [p.ms / (c.preparedMs < 2 * CLOCK_STEP_MS ? c.preparedMs + CLOCK_STEP_MS : c.preparedMs)] : [];
    });
    if (rs.length) goalPrepared.push(`${id} ${Math.min(...rs).toFixed(1)}x`);
  }
  if (goalPrepared.length) say(`Smallest ratio per library strategy as a row of the table (both texts, Chromium, on a prepared document; a time under two of the clock's 0.1 ms steps counted as one step more): ${goalPrepared.join(", ")}.`);
  for (const t of r.texts) {
    const prep = (env) => {
      const xs = ok(env) ? env.texts[t.file].filter(ok).map((x) => x.prepareMs) : [];
      return xs.length ? ms(median(xs)) : "-";
    };
    say(`Preparing ${t.file} (Document::new: encode and index, ${s.encoding}), the median of the strategies' ` +
      `medians: Node ${prep(r.node)} ms, Chromium ${prep(r.chromium)} ms.`);
  }
  say();

  say(`All strategies on ${ALL_TEXT}: "first" = each strategy once, in order, in a freshly instantiated module (the first ` +
    `call also builds the ${s.encoding} tables); "warm" = the median above.`);
  const all = [];
  const totals = { nodeFirst: 0, nodeWarm: 0, chromeFirst: 0, chromeWarm: 0 };
  const missing = [];
  for (const { id, library } of strategies) {
    const nCold = ok(r.node) ? r.node.cold.find((x) => x.id === id) : null;
    const cCold = ok(r.chromium) ? r.chromium.cold.find((x) => x.id === id) : null;
    const n = row(r.node, ALL_TEXT, id);
    const c = row(r.chromium, ALL_TEXT, id);
    const ours = [c, n, cCold, nCold].find(ok);
    if (!ours) {
      missing.push(id);
      const why = [c, n, cCold, nCold].find((x) => x?.error)?.error ?? "not run";
      all.push([id, library ? library.package : "own", "-", `not available ${note(`${id}: ${why}`)}`, "-", "-", "-", "-", "-"]);
      continue;
    }
    if (ok(nCold) && ok(n) && nCold.chunks !== n.chunks) failures.push(`${id}: Node's first pass made ${nCold.chunks} chunks, later ${n.chunks}`);
    if (ok(cCold) && ok(c) && cCold.chunks !== c.chunks) failures.push(`${id}: Chromium's first pass made ${cCold.chunks} chunks, later ${c.chunks}`);
    if (ok(n) && ok(c) && n.chunks !== c.chunks && !library) failures.push(`${id} on ${ALL_TEXT}: Node ${n.chunks} chunks, Chromium ${c.chunks}`);
    totals.nodeFirst += ok(nCold) ? nCold.ms : 0;
    totals.nodeWarm += ok(n) ? n.ms : 0;
    totals.chromeFirst += ok(cCold) ? cCold.ms : 0;
    totals.chromeWarm += ok(c) ? c.ms : 0;
    all.push([id, library ? library.package : "own", String(ours.overlap), int(ours.chunks), int(ours.tokens),
      ms(ok(nCold) ? nCold.ms : null), ms(ok(n) ? n.ms : null), ms(ok(cCold) ? cCold.ms : null), ms(ok(c) ? c.ms : null)]);
  }
  const available = strategies.length - missing.length;
  all.push([`total (${available} of ${strategies.length})`, "", "", "", "", ms(totals.nodeFirst), ms(totals.nodeWarm), ms(totals.chromeFirst), ms(totals.chromeWarm)]);
  say(table(["strategy", "library", "overlap", "chunks", "tokens", "Node first ms", "Node warm ms",
    "worker first ms", "worker warm ms"], all, 2));
  say(`Chromium Web Worker, all ${available} available strategies on ${ALL_TEXT}, each preparing its own document: ` +
    `${ms(totals.chromeFirst)} ms on the first pass, ${ms(totals.chromeWarm)} ms warm` +
    (missing.length ? `; not available: ${missing.join(", ")}.` : "."));
  const tableLine = (env, name) => {
    if (!ok(env) || !env.table || env.table.prepareMs == null) return `${name}: -`;
    const rowsMs = env.table.rows.reduce((a, x) => a + x.ms, 0);
    const warm = env.texts[ALL_TEXT].filter(ok);
    const warmLine = warm.length ? `${ms(median(warm.map((x) => x.prepareMs)) + warm.reduce((a, x) => a + x.preparedMs, 0))} ms warm` : "warm: -";
    return `${name}: ${ms(env.table.prepareMs + rowsMs)} ms from cold (one preparation, tables built, ${ms(env.table.prepareMs)} ms ` +
      `+ ${env.table.rows.length} strategies ${ms(rowsMs)} ms), ${warmLine}`;
  };
  say("As the page's table runs them, one preparation and every strategy on a prepared document (summaries not included; " +
    "each strategy here has a document of its own, so sentences and the markdown outline are found again for each, " +
    `which the page's shared document does once: an upper bound): ${tableLine(r.chromium, "Chromium worker")}; ` +
    `${tableLine(r.node, "Node")} (goal of the issue: <= ${TOTAL_GOAL_MS} ms in the worker from cold; a figure, not a test; ` +
    "make bench-compare measures the page's own table, summaries included).");
  say();

  printWorst(r, say);

  if (notes.length) {
    say("Notes:");
    notes.forEach((n, i) => say(`  [${i + 1}] ${n}`));
    say();
  }
  for (const w of warnings) say(`warning (not a failure): ${w}`);
  if (failures.length) {
    say(loudBlock("CHUNK COUNT MISMATCH", failures));
  } else {
    say("Every available library strategy's chunk count equals its library's (where an oracle exists); Node = Chromium.");
  }
  console.log(out.join("\n"));
  return failures;
}

/**
 * The worst cases (`r.worst`, lib/strategies-worst.mjs's runWorst) against each strategy's
 * typical ms per MB (Node, warm, on ALL_TEXT).
 */
function printWorst(r, say) {
  const w = r.worst;
  if (!w || w.error) {
    say(`Worst cases: not run (${w?.error ?? "no result"}).`);
    say();
    return;
  }
  const allBytes = r.texts.find((t) => t.file === ALL_TEXT)?.bytes;
  const typical = (id) => {
    const x = ok(r.node) ? r.node.texts[ALL_TEXT].find((y) => y.id === id) : null;
    return ok(x) && allBytes ? x.ms / (allBytes / 1e6) : null;
  };
  const perMb = (x) => x.ms / (w.bytes[x.case] / 1e6);
  say(`Worst cases: each strategy once on each kind below (about ${int(Object.values(w.bytes)[0] ?? 0)} bytes each), ` +
    `in a Node child process stopped at ${int(w.capMs)} ms; ms per MB against the strategy's typical ms per MB ` +
    `(Node, warm, ${ALL_TEXT}). Goal of the issue: worst <= ${WORST_RATIO_GOAL}x typical.`);
  say(`Kinds: ${Object.keys(w.bytes).join("; ")}.`);
  const ids = [...new Set(w.rows.map((x) => x.id))];
  const rows = [];
  const beyond = [];
  let within = 0;
  for (const id of ids) {
    const mine = w.rows.filter((x) => x.id === id);
    const t = typical(id);
    const timed = mine.filter((x) => x.ms != null);
    const capped = mine.filter((x) => x.capped);
    const errors = mine.filter((x) => x.error);
    const worst = timed.reduce((a, x) => (a == null || perMb(x) > perMb(a) ? x : a), null);
    const over = timed.filter((x) => t && perMb(x) > WORST_RATIO_GOAL * t).map((x) => x.case);
    const ok10 = capped.length === 0 && over.length === 0 && errors.length === 0;
    if (ok10) within++;
    const worstCase = capped.length ? `${capped[0].case} (over the cap)` : worst ? worst.case : "-";
    rows.push([
      id,
      t == null ? "-" : ms(t),
      capped.length ? `> ${int(w.capMs / (w.bytes[capped[0].case] / 1e6))}` : worst ? ms(perMb(worst)) : "-",
      capped.length ? "-" : worst && t ? `${(perMb(worst) / t).toFixed(1)}x` : "-",
      capped.length + over.length,
      errors.length,
      `  ${worstCase}`,
    ]);
    if (over.length || capped.length) {
      beyond.push(`  ${id}: ${[...over.map((c) => c), ...capped.map((x) => `${x.case} (over the cap)`)].join("; ")}`);
    }
    for (const x of errors) beyond.push(`  ${id}: ${x.case}: error ${x.error}`);
  }
  say(table(["strategy", "typical ms/MB", "worst ms/MB", "worst / typical", `kinds over ${WORST_RATIO_GOAL}x`, "errors", "  worst kind"], rows, 1));
  say(`Strategies whose every worst case is within ${WORST_RATIO_GOAL}x of their typical time: ${within} of ${ids.length}.`);
  if (beyond.length) {
    say(`Kinds over ${WORST_RATIO_GOAL}x typical, over the cap, or in error:`);
    for (const b of beyond) say(b);
  }
  say();
}
