// The built page driven through its stable hooks only (data-testid: the text box, `status` with
// its data attributes, `clear-text`, `out-doc-tokens`), never through its file names: shared by
// the page benches that paste a text and wait for its exact count (page.mjs, paste.mjs). The
// functions in capitals run in the page (Playwright's page.evaluate).

// In the page: records long tasks and the progress values shown, from now on (again: anew).
export const INSTRUMENT = () => {
  window.__bench = { t0: performance.now(), tasks: [], progress: new Set() };
  window.__benchTasks ??= new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.tasks.push(e.duration);
  });
  window.__benchTasks.observe({ type: "longtask" });
  const bar = () => document.querySelector('[data-testid="status"] progress');
  const poll = () => {
    const b = bar();
    if (b) window.__bench.progress.add(b.value);
    if (!window.__bench.done) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
};

// In the page: puts `text` on a DataTransfer, ready to paste (not timed).
export const STAGE_PASTE = (text) => {
  window.__paste = new DataTransfer();
  window.__paste.setData("text/plain", text);
};

// In the page: pastes the staged text into the box in a task of its own, from t0.
export const PASTE = () => {
  window.__bench.t0 = performance.now();
  const box = document.querySelector('[data-testid="text-input"]');
  setTimeout(() => box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: window.__paste, bubbles: true, cancelable: true })));
};

// In the page: resolves with the ms from t0 once the status is ready for a text of `bytes`.
export const WAIT_READY = async (bytes) => {
  const status = () => document.querySelector('[data-testid="status"]');
  while (!(status()?.dataset.state === "ready" && status()?.dataset.bytes === String(bytes))) {
    if (performance.now() - window.__bench.t0 > 120_000) {
      throw new Error(`no exact count after 120 s; status: ${status()?.textContent}; ${document.querySelector('[data-testid="file-message"]')?.textContent ?? ""}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - window.__bench.t0;
  await new Promise((r) => setTimeout(r, 300));
  window.__bench.done = true;
  return {
    ms,
    tokens: Number(document.querySelector('[data-testid="out-doc-tokens"]').dataset.value),
    worker: status().dataset.worker,
    debounced: status().dataset.debounced,
    encoding: /\b(cl100k_base|o200k_base)\b/.exec(status().textContent)?.[1],
    tasks: window.__bench.tasks,
    progress: window.__bench.progress.size,
  };
};

/** A fresh context (no cache) with the page at `url` loaded and its tokenizer worker ready. */
export async function openPage(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.dataset.worker === "true", null, {
    timeout: 60_000,
  });
  return { context, page };
}

/** Clicks "clear" (in a task of its own) and waits until the status is ready with no text. */
export async function clearText(page) {
  await page.evaluate(() => setTimeout(() => document.querySelector('[data-testid="clear-text"]').click()));
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="status"]');
    return s?.dataset.state === "ready" && s.dataset.bytes === "0";
  }, null, { timeout: 60_000 });
}
