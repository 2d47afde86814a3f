// The Chromium side of the strategy bench: bench/strategies.mjs opens strategies.html and calls
// window.benchStrategies.run() through Playwright. Everything runs in a Web Worker
// (strategies-worker.mjs), as the page runs its strategies; this page only relays.
window.benchStrategies = {
  /** Runs lib/strategies.mjs's runAll in a fresh module worker; resolves to its results. */
  run() {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL("strategies-worker.mjs", import.meta.url), { type: "module" });
      worker.onmessage = ({ data }) => {
        if (data.progress) {
          console.log(`progress: ${data.progress}`);
          return;
        }
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve(data.results);
      };
      worker.onerror = (e) => {
        worker.terminate();
        reject(new Error(e.message || "worker error"));
      };
      worker.postMessage("run");
    });
  },
};
window.benchReady = true;
