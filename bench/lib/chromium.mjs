// The system Chromium for make bench (never a downloaded one), headless, with the flags this
// machine needs and no background network. Shared by the Chromium parts of the benches;
// withServedPage also serves bench/ for the worker benches.
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

/** Path of the Chromium binary: $CHROMIUM, else /usr/bin/chromium. */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** Launches headless Chromium (a playwright-core Browser). */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * Forwards a page's errors and its `console.log("progress: …")` lines to `progress` (prefixed
 * "chromium: "), the way the worker benches report what they are doing.
 */
export function forwardProgress(page, progress) {
  page.on("pageerror", (e) => progress(`page error: ${e.message}`));
  page.on("console", (m) => {
    const t = m.text();
    if (t.startsWith("progress: ")) progress(`chromium: ${t.slice("progress: ".length)}`);
    else if (m.type() === "error") progress(`console: ${t}`);
  });
}

/**
 * Serves bench/ (lib/serve.mjs), launches Chromium and opens a page whose errors and progress
 * lines go to `progress`; resolves to what `run({ page, base, browser })` resolves to (`base`:
 * the server's URL, ending in "/"), and closes the browser and the server whatever happens.
 */
export async function withServedPage(progress, run) {
  const server = await serve();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    forwardProgress(page, progress);
    return await run({ page, base: `http://127.0.0.1:${server.address().port}/`, browser });
  } finally {
    await browser.close();
    server.close();
  }
}
