// The Chromium side of the worker benches (strategies, embed): a page only relays between
// Playwright and one module worker, as the product's page relays to its workers.

/**
 * Runs `script` (a URL relative to bench/browser/) in a fresh module worker, posts it `message`,
 * logs its `{ progress }` messages as "progress: …" console lines (lib/chromium.mjs forwards
 * them), and resolves to its `{ results }` (rejects on its `{ error }` or an error event).
 */
export function runWorker(script, message) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(script, import.meta.url), { type: "module" });
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
    worker.postMessage(message);
  });
}
