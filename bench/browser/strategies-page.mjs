// The Chromium side of the strategy bench: bench/strategies.mjs opens strategies.html and calls
// window.benchStrategies.run() through Playwright. Everything runs in a Web Worker
// (strategies-worker.mjs), as the page runs its strategies; this page only relays.
import { runWorker } from "./relay.mjs";

window.benchStrategies = {
  /** Runs lib/strategies.mjs's runAll in a fresh module worker; resolves to its results. */
  run: () => runWorker("strategies-worker.mjs", "run"),
};
window.benchReady = true;
