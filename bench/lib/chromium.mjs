// The system Chromium for make bench (never a downloaded one), headless, with the flags this
// machine needs and no background network. Shared by browser.mjs and page.mjs.
import { chromium } from "playwright-core";

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
