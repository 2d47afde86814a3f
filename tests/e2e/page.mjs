// Helpers shared by the end-to-end tests: launching the system Chromium and reading the page
// through its data-testid hooks.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startStaticServer } from './static-server.mjs';

/** The system Chromium (never a downloaded one). */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Chromium with the flags this machine needs (no background network). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Serves the build in `root` at the site root and launches Chromium, for one test file's
 * `before`; returns the browser, the page's URL, and `close()` for its `after`.
 */
export async function serveAndLaunch(root) {
  const browser = await launchBrowser();
  const { server, url } = await startStaticServer({ root, prefix: '/' });
  const close = async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  };
  return { browser, url, close };
}

/** CSS selector of a data-testid hook of the live app: not the prerendered copy that the page
 * shows until the app has started (crates/prerender; it is removed then), nor a prerendered
 * panel standing in until the panels' module has arrived (`[data-stand-in]`, src/panels.rs),
 * so that waiting for a hook waits for the app. */
export const sel = (testid) => `[data-testid="${testid}"]:not(#prerendered *):not([data-stand-in] *)`;

/**
 * Chooses `lang` with the language switch and waits until the page's words are in it: English is
 * compiled into the page's module, every other language's messages are fetched when it is chosen
 * (src/i18n/bundle.rs), and `<html lang>` names the language the words are in.
 */
export async function chooseLanguage(page, lang, timeout = 30_000) {
  await page.locator(sel('language')).selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout });
}

/** Waits until the element's attribute equals `want`; returns false if the wait ran out. */
export async function waitForAttr(page, testid, attr, want, timeout) {
  try {
    await page.waitForFunction(
      ([s, a, w]) => document.querySelector(s)?.getAttribute(a) === w,
      [sel(testid), attr, String(want)],
      { timeout },
    );
    return true;
  } catch (err) {
    if (err.name === 'TimeoutError') return false;
    throw err;
  }
}

/** data-value of the single element `testid`, as a string; fails clearly if absent. */
export async function rawValue(page, testid) {
  const loc = page.locator(sel(testid));
  const count = await loc.count();
  assert.equal(count, 1, `expected exactly one element ${sel(testid)}, found ${count}`);
  const raw = await loc.getAttribute('data-value');
  assert.ok(raw !== null && raw.trim() !== '', `${sel(testid)} has no data-value`);
  return raw;
}

/** data-value of `testid` as a number; fails clearly if it is not one. */
export async function numberValue(page, testid) {
  const raw = await rawValue(page, testid);
  const value = Number(raw);
  assert.ok(Number.isFinite(value), `${sel(testid)} data-value is not a number: ${JSON.stringify(raw)}`);
  return value;
}

/** Puts `text` in the text box as typing would (value, then an input event); much faster than
 * Playwright's fill for 100 KB. */
export async function typeText(page, text) {
  await page.evaluate(
    ([textareaSel, t]) => {
      const box = document.querySelector(textareaSel);
      box.value = t;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [sel('text-input'), text],
  );
}

/**
 * Opens `url` in a new context (downloads accepted) and waits until the comparison worker is
 * ready. Returns the page, its uncaught errors, and every request made from then on (other
 * than blob: and data: URLs), which the tests expect to stay empty.
 */
export async function openReadyPage(browser, url) {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="compare"]')?.dataset.engine === 'ready', null, { timeout: 60000 });
  const requests = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('blob:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  return { page, errors, requests };
}

/** Waits until the page holds a text of `bytes` bytes and is ready; returns its token count and
 * how its count was started (data-debounced). */
export async function countOf(page, bytes) {
  await page
    .waitForFunction(
      ([statusSel, wantBytes]) => {
        const status = document.querySelector(statusSel);
        return status?.getAttribute('data-state') === 'ready' && status.getAttribute('data-bytes') === wantBytes;
      },
      [sel('status'), String(bytes)],
      { timeout: 120_000 },
    )
    .catch((err) => {
      if (err.name !== 'TimeoutError') throw err;
    });
  const status = page.locator(sel('status'));
  const [state, held, debounced] = await Promise.all(
    ['data-state', 'data-bytes', 'data-debounced'].map((a) => status.getAttribute(a)),
  );
  assert.deepEqual({ state, bytes: held }, { state: 'ready', bytes: String(bytes) }, 'the status after the edit');
  return { tokens: await numberValue(page, 'out-doc-tokens'), debounced };
}

/** Pastes `text` over the whole box as a user does: the text on the clipboard, select all,
 * Ctrl+V (the browser fires a trusted paste event, then inserts or the page takes it). */
export async function pasteText(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const box = page.locator(sel('text-input'));
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

/** Runs embed-core's example `example` (the native side of an embedding test) with `request`
 * as JSON on stdin and the models' folder `modelsDir`; its JSON output, parsed. */
export function nativeEmbedExample(example, request, modelsDir) {
  const run = spawnSync('cargo', ['run', '--quiet', '-p', 'embed-core', '--example', example], {
    cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'),
    input: JSON.stringify(request),
    encoding: 'utf8',
    env: { ...process.env, EMBED_MODELS_DIR: modelsDir },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, `the native example ${example} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The native core's counts of the file `fixture` (the JSON line of `E2E_NATIVE_COUNTS`, which
 * `make test` writes for the fixture, else `cargo run -p chunk-core --example count`):
 * {bytes, chars, cl100k_base, o200k_base}. */
export function nativeCounts(fixture) {
  let line = process.env.E2E_NATIVE_COUNTS;
  if (!line) {
    const run = spawnSync('cargo', ['run', '--quiet', '-p', 'chunk-core', '--example', 'count', '--', fixture], {
      cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (run.error) throw new Error(`cannot run cargo for the native count: ${run.error.message}`);
    if (run.status !== 0) throw new Error(`the count example failed with exit status ${run.status}`);
    line = run.stdout.trim().split('\n').pop();
  }
  const counts = JSON.parse(line);
  const bytes = fs.statSync(fixture).size;
  if (counts.bytes !== bytes) {
    throw new Error(`the native counts are of a text of ${counts.bytes} bytes, ${fixture} has ${bytes} (E2E_NATIVE_COUNTS is another fixture's)`);
  }
  for (const key of ['bytes', 'cl100k_base', 'o200k_base']) {
    if (!Number.isInteger(counts[key]) || counts[key] <= 0) {
      throw new Error(`native count output lacks a positive integer "${key}": ${line}`);
    }
  }
  return counts;
}
