// End-to-end test of the prerendered page (crates/prerender writes the app's first render, in
// English, into index.html at build time; src/prerendered.rs takes it over), on the release
// build at the site root and, when it has been built, under the subpath:
//  (a) index.html as served, read without running a script, holds the page's content: the
//      title, the tagline, the FAQ's questions, the calculator form's data-testid hooks. The
//      expected text is the live app's own (read from the started app), never a copy; the
//      Content-Security-Policy is the source index.html's, and the markup has no inline style
//      or script for it to block;
//  (b) with JavaScript off, that content is painted (the title, the form with its starting
//      values, the FAQ); the form controls are disabled, the FAQ's <details> open; no console
//      error (a blocked inline style would be one);
//  (c) with the page's wasm held back, the content is painted (first contentful paint) before
//      the app starts; once the wasm is let through, the app replaces the markup: exactly one
//      header, form and FAQ; every text, control value and figure of the live page equals the
//      prerendered one; nothing moved on the screen (the scroll position and the places of the
//      headings, questions and hooks are the same, and so is the screen, but for a few pixels
//      of anti-aliased edges);
//      a question of the FAQ opened before the takeover is still open;
//  (d) the live app works: a new chunk size changes the figures, the language switch turns the
//      page Vietnamese and back, and there is still one app;
//  (f) a first visit on Slow 4G (1.6 Mbit/s down, 150 ms RTT, gzip, empty cache) loses nothing:
//      the whole fixture pasted (a real Ctrl+V) into the prerendered box the moment it takes
//      input (held back, as the live box holds back a paste over 32 KiB), and a chunk size
//      typed into the prerendered field, are the live app's once it has started: the exact token count of the fixture (the native core's), the typed chunk
//      size and its chunk count, the focus still in the box; and a file dropped on the page
//      before the app started is read by it.
//  (g) the panels' module (src/panels.rs, crates/page-split): while it is held back, the form
//      answers and the prerendered panels stand in for the live ones in the live page; what is
//      typed in one and a question opened in the FAQ then are the live panels' once it
//      arrives, with no stand-in left; when it cannot arrive, the stand-ins stay, the status
//      line says so, the form still answers, and its button tries again.
//
// Environment (all optional): E2E_DIST, E2E_DIST_SUBPATH, E2E_SUBPATH, CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { launchBrowser, nativeCounts, numberValue, sel } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const DIST_SUBPATH = path.resolve(process.env.E2E_DIST_SUBPATH ?? path.join(REPO, 'dist-subpath'));
const SUBPATH = process.env.E2E_SUBPATH ?? '/rag-chunk-calculator/';

const APP_START_MS = 60_000;
/** The container of the prerendered markup (rag_chunk_calculator::prerendered::CONTAINER_ID). */
const CONTAINER = '#prerendered';
/** The page's own wasm (not a worker's): Trunk's hashed name of the root package. */
const PAGE_WASM = /\/rag-chunk-calculator-[0-9a-f]+_bg\.wasm$/;

const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));
/** Chrome's "Slow 4G" preset, as bench/network.mjs emulates it. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

const BUILDS = [
  { name: 'root build', dir: DIST, prefix: '/' },
  { name: `subpath build (${SUBPATH})`, dir: DIST_SUBPATH, prefix: SUBPATH },
];

let browser;

/** Holds back every request of `context` that `pattern` matches until the returned function
 * is called (once or more). */
async function holdBack(context, pattern) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await context.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Waits until the panels' module's status (src/panels.rs) is `state`. */
function waitForPanels(page, state) {
  return page.waitForFunction(
    (s) => document.querySelector('[data-testid="panels-status"]')?.dataset.state === s,
    state,
    { timeout: APP_START_MS },
  );
}

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/**
 * What the page shows, read in the page from `scope` (the prerendered container, or the whole
 * document once the app has started): the texts of the header, the main part and the footer,
 * the value of every form control and the data-value of every figure, by data-testid.
 * The settings link's address is left out: it is the page's address, which the build does not
 * know (the prerendered box is empty, the live one holds the address).
 */
function snapshot(scopeSelector) {
  const scope = scopeSelector ? document.querySelector(scopeSelector) : document.body;
  const skipped = new Set(['share-url', 'share-link']);
  const controls = {};
  for (const e of scope.querySelectorAll('input[data-testid], select[data-testid], textarea[data-testid]')) {
    if (e.type !== 'file' && !skipped.has(e.dataset.testid)) controls[e.dataset.testid] = e.value;
  }
  const figures = {};
  for (const e of scope.querySelectorAll('[data-testid][data-value]')) {
    if (!skipped.has(e.dataset.testid)) figures[e.dataset.testid] = e.dataset.value;
  }
  const text = (s) => [...scope.querySelectorAll(s)].map((e) => e.textContent);
  return {
    title: scope.querySelector('h1')?.textContent,
    tagline: scope.querySelector('.tagline')?.textContent,
    questions: [...scope.querySelectorAll('.faq summary')].map((e) => e.textContent),
    header: text('header'),
    main: text('main'),
    footer: text('footer'),
    controls,
    figures,
  };
}

/**
 * Where the headings, the FAQ's questions and every data-testid hook are in the viewport
 * (rounded to whole pixels), in document order, read in the page from `scope` as in snapshot.
 */
function places(scopeSelector) {
  const scope = scopeSelector ? document.querySelector(scopeSelector) : document.body;
  return [...scope.querySelectorAll('h1, h2, summary, [data-testid]')]
    .map((e) => {
      const r = e.getBoundingClientRect();
      const name = e.dataset.testid ?? `${e.tagName.toLowerCase()} ${e.textContent.slice(0, 30)}`;
      return `${name} @ ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    });
}

/** How many of each part of the page there are. */
function counts() {
  const n = (s) => document.querySelectorAll(s).length;
  return {
    container: n('#prerendered'),
    header: n('header.site-header'),
    h1: n('h1'),
    main: n('main'),
    faq: n('.faq'),
    chunkSize: n('[data-testid="chunk-size"]'),
    textInput: n('[data-testid="text-input"]'),
  };
}

/** How many pixels differ between two PNG screenshots of the same size (decoded in a blank
 * page of the browser). */
async function differingPixels(a, b) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async ([a, b]) => {
      const load = (src) => new Promise((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = reject;
        img.src = `data:image/png;base64,${src}`;
      });
      const pixels = (img) => {
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height).data;
      };
      const [pa, pb] = (await Promise.all([load(a), load(b)])).map(pixels);
      if (pa.length !== pb.length) return Infinity;
      let n = 0;
      for (let i = 0; i < pa.length; i += 4) {
        if (pa[i] !== pb[i] || pa[i + 1] !== pb[i + 1] || pa[i + 2] !== pb[i + 2]) n += 1;
      }
      return n;
    }, [a.toString('base64'), b.toString('base64')]);
  } finally {
    await page.close();
  }
}

const ONE_APP = { container: 0, header: 1, h1: 1, main: 1, faq: 1, chunkSize: 1, textInput: 1 };

for (const build of BUILDS) {
  describe(`prerendered page, ${build.name}`, () => {
    const skip = existsSync(path.join(build.dir, 'index.html')) ? false : `${build.dir} is not built`;
    let server;
    let url;
    /** The started app's snapshot (a fresh page, nothing held back), the expected content. */
    let live;

    before(async () => {
      if (skip) return;
      ({ server, url } = await startStaticServer({ root: build.dir, prefix: build.prefix }));
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(url);
      await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
      live = await page.evaluate(snapshot, null);
      await context.close();
    });

    after(async () => {
      if (!server?.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    test('(a) index.html holds the content, the hooks and the CSP, with no inline style or script', { skip }, async () => {
      const response = await fetch(url);
      assert.equal(response.status, 200, `GET ${url}`);
      const html = await response.text();
      const [, body] = html.split(/<body>/);
      assert.ok(body, 'no <body>');
      // Every text here is the live app's; none of these needs escaping in HTML.
      assert.ok(live.title && live.tagline && live.questions.length >= 5, `the live page: ${JSON.stringify(live)}`);
      assert.ok(body.includes(`<h1>${live.title}</h1>`), `the title ${live.title}`);
      assert.ok(body.includes(live.tagline), 'the tagline');
      for (const q of live.questions) assert.ok(body.includes(`<summary>${q}</summary>`), `the question ${q}`);
      for (const hook of ['doc-length', 'length-unit', 'chunk-size', 'chunk-overlap', 'embedding-model', 'price', 'tokenizer', 'text-input', 'out-chunks', 'out-total-tokens']) {
        assert.equal(body.split(`data-testid="${hook}"`).length - 1, 1, `the hook ${hook}, once`);
      }
      assert.ok(body.includes('<noscript>'), 'the <noscript> is kept');
      assert.ok(body.indexOf('<noscript>') < body.indexOf('id="prerendered"'), 'the markup comes after the <noscript>');
      // The CSP is the source's, untouched; the body has nothing it would block.
      const csp = (s) => s.match(/http-equiv="Content-Security-Policy"\s+content="([^"]*)"/)?.[1];
      const sourceCsp = csp(readFileSync(path.join(REPO, 'index.html'), 'utf8'));
      assert.ok(sourceCsp, 'no CSP in the source index.html');
      assert.equal(csp(html), sourceCsp, 'the built CSP');
      assert.doesNotMatch(body, /\sstyle=/, 'an inline style attribute');
      assert.doesNotMatch(body, /<style|<script|\son[a-z]+=|javascript:/i, 'inline style or script');
      // Nothing in it depends on the public URL: no root-absolute link.
      assert.doesNotMatch(body, /\s(href|src|action)="\//, 'a root-absolute link');
    });

    test('(b) with JavaScript off, the content is painted; controls wait disabled', { skip }, async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const consoleErrors = [];
      try {
        const page = await context.newPage();
        page.on('console', (msg) => {
          if (msg.type() === 'error') consoleErrors.push(msg.text());
        });
        await page.goto(url, { waitUntil: 'load' });
        assert.deepEqual(await page.evaluate(counts), { ...ONE_APP, container: 1 }, 'one prerendered page');
        const pre = await page.evaluate(snapshot, CONTAINER);
        assert.deepEqual(pre, live, 'the prerendered page shows what the live page first shows');
        for (const what of ['h1', `${CONTAINER} [data-testid="chunk-size"]`, `${CONTAINER} .faq summary`]) {
          assert.ok(await page.locator(what).first().isVisible(), `${what} is visible`);
        }
        assert.ok(await page.locator(`${CONTAINER} [data-testid="chunk-size"]`).isDisabled(), 'the field is disabled');
        assert.ok(await page.locator(`${CONTAINER} [data-testid="language"]`).isDisabled(), 'the switch is disabled');
        // The FAQ works without the app.
        await page.locator(`${CONTAINER} .faq summary`).first().click();
        assert.ok(await page.locator(`${CONTAINER} .faq details`).first().evaluate((d) => d.open), 'the question opened');
        assert.deepEqual(consoleErrors, [], 'console errors (a blocked inline style would be one)');
      } finally {
        await context.close();
      }
    });

    test('(c) painted before the wasm; the app takes over in place, one app', { skip }, async () => {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
      const pageErrors = [];
      const consoleErrors = [];
      let release;
      try {
        release = await holdBack(context, PAGE_WASM);
        const page = await context.newPage();
        page.on('pageerror', (err) => pageErrors.push(err.stack ?? String(err)));
        page.on('console', (msg) => {
          if (msg.type() === 'error') consoleErrors.push(msg.text());
        });
        await page.goto(url, { waitUntil: 'domcontentloaded' });
        // Painted with content while the wasm is still held.
        await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 30_000 });
        assert.deepEqual(await page.evaluate(counts), { ...ONE_APP, container: 1 }, 'the prerendered page alone');
        assert.ok(await page.locator('h1').isVisible(), 'the title is painted before the app');
        assert.deepEqual(await page.evaluate(snapshot, CONTAINER), live, 'the prerendered page shows what the live page first shows');

        // A reader has opened a question of the FAQ and scrolled to it meanwhile.
        await page.locator(`${CONTAINER} .faq summary`).nth(1).click();
        await page.locator(`${CONTAINER} .faq`).scrollIntoViewIfNeeded();
        const scrollBefore = await page.evaluate(() => window.scrollY);
        assert.ok(scrollBefore > 0, 'the page scrolled');
        const before = await page.evaluate(places, CONTAINER);
        const shotBefore = await page.screenshot();

        release();
        // What the first frame after the takeover shows: read in the animation frame after the
        // mutation that removed the container (an expression: the page's CSP forbids eval).
        const atTakeover = await page.evaluate(`new Promise((resolve) => {
          const snapshot = ${snapshot};
          const places = ${places};
          const read = (late) => resolve({ late, scrollY: window.scrollY, places: places(null), snapshot: snapshot(null) });
          if (!document.querySelector('${CONTAINER}')) return read(true);
          new MutationObserver((_, observer) => {
            if (document.querySelector('${CONTAINER}')) return;
            observer.disconnect();
            requestAnimationFrame(() => read(false));
          }).observe(document.body, { childList: true });
        })`);
        assert.equal(atTakeover.late, false, 'the takeover was seen');
        assert.deepEqual(await page.evaluate(counts), ONE_APP, 'one app, no prerendered copy');
        assert.equal(atTakeover.scrollY, scrollBefore, 'the scroll position is kept');
        assert.deepEqual(atTakeover.places, before, 'nothing moved at the takeover');
        // The same screen: at most a few pixels of anti-aliased edges at fractional positions
        // may be drawn otherwise (none moved: the places above are equal).
        const differing = await differingPixels(shotBefore, await page.screenshot());
        assert.ok(differing <= 100, `${differing} pixels of the screen changed at the takeover`);
        assert.deepEqual(atTakeover.snapshot, live, 'the live page shows what was prerendered');
        assert.deepEqual(
          await page.locator('.faq details').evaluateAll((ds) => ds.map((d) => d.open)),
          live.questions.map((_, i) => i === 1),
          'the question opened before the takeover is open after it, and only it',
        );
        assert.deepEqual(pageErrors, [], 'page errors');
        assert.deepEqual(consoleErrors, [], 'console errors');
      } finally {
        release?.();
        await context.close();
      }
    });

    test('(e) when the page\'s module cannot arrive, the prerendered page says so', { skip }, async () => {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      try {
        await context.route(PAGE_WASM, (route) => route.fulfill({ status: 404, body: 'blocked by the test' }));
        const page = await context.newPage();
        const notice = page.locator('#boot-failed');
        await page.goto(url);
        await notice.waitFor({ state: 'visible', timeout: APP_START_MS });
        // The build's English notice, from the catalog (the same text as in index.html).
        const html = await (await fetch(url)).text();
        const text = (await notice.textContent()).trim();
        assert.ok(text.length > 20 && html.includes(text), `notice ${JSON.stringify(text)} is not the build's`);
        assert.equal(await page.locator(CONTAINER).getAttribute('data-failed'), '', 'the container is not marked failed');
        assert.equal(await page.locator(sel('text-input')).count(), 0, 'a live app after all');
      } finally {
        await context.close();
      }
    });

    test('(d) the live app works: figures, the language switch, still one app', { skip }, async () => {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.locator(sel('text-input')).waitFor({ state: 'visible', timeout: APP_START_MS });
        assert.deepEqual(await page.evaluate(counts), ONE_APP, 'one app');
        const chunks = await numberValue(page, 'out-chunks');
        await page.locator(sel('chunk-size')).fill('256');
        await page.locator(sel('chunk-overlap')).fill('0');
        await page.waitForFunction(
          (n) => document.querySelector('[data-testid="out-chunks"]')?.dataset.value !== String(n),
          chunks,
          { timeout: 10_000 },
        );
        const doc = await numberValue(page, 'out-doc-tokens');
        assert.equal(await numberValue(page, 'out-chunks'), Math.ceil(doc / 256), 'chunks of 256 without overlap');

        await page.locator(sel('language')).selectOption('vi');
        await page.waitForFunction(() => document.documentElement.lang === 'vi', null, { timeout: 10_000 });
        const vi = await page.evaluate(snapshot, null);
        assert.notEqual(vi.title, live.title, 'the title changed language');
        assert.deepEqual(await page.evaluate(counts), ONE_APP, 'one app in Vietnamese');
        await page.locator(sel('language')).selectOption('en');
        await page.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: 10_000 });
        const en = await page.evaluate(snapshot, null);
        assert.equal(en.title, live.title, 'English again');
        assert.deepEqual(en.questions, live.questions, 'the FAQ in English again');
        assert.deepEqual(await page.evaluate(counts), ONE_APP, 'one app in English again');
      } finally {
        await context.close();
      }
    });
  });
}

describe('first visit on Slow 4G, root build', () => {
  const skip = existsSync(path.join(DIST, 'index.html')) ? false : `${DIST} is not built`;
  let server;
  let url;

  before(async () => {
    if (skip) return;
    ({ server, url } = await startStaticServer({ root: DIST, prefix: '/', gzip: true }));
  });

  after(async () => {
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A fresh context on Slow 4G with an empty cache and no service worker; its page. The
   * page's own module is held back until `release()`, so that the edits a test makes happen
   * before the app starts whatever the machine's load. */
  async function slowPage() {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const release = await holdBack(context, PAGE_WASM);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    return { context, page, errors, release };
  }

  /** Waits until the prerendered page takes input (assets/boot.js enabled it); asserts that the
   * app has not started yet, so that what follows is an edit before it. */
  async function waitForEarlyForm(page) {
    await page.waitForFunction(() => document.querySelector('#prerendered')?.disabled === false, null, { timeout: 60_000 });
    assert.equal(await page.locator(sel('text-input')).count(), 0, 'the app had already started: nothing was early');
  }

  /** Drops a text file holding `text` on the prerendered box; whether the drop was held
   * (its default prevented). */
  async function dropEarly(page, text) {
    const drop = await page.evaluateHandle((t) => {
      const data = new DataTransfer();
      data.items.add(new File([t], 'early.txt', { type: 'text/plain' }));
      return data;
    }, text);
    const target = page.locator(`${CONTAINER} [data-testid="text-input"]`);
    await target.dispatchEvent('dragover', { dataTransfer: drop });
    return target.evaluate((el, data) => {
      const ev = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
      el.dispatchEvent(ev);
      return ev.defaultPrevented;
    }, drop);
  }

  test('(f) a reader scrolled down before the app starts keeps the view through the takeover and the panels\' arrival', { skip }, async () => {
    // Not held back: the page's module and the panels' arrive as on a real first visit (the
    // two slots' panels together), on Slow 4G.
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector('#prerendered')?.disabled === false, null, { timeout: 60_000 });
      // Into the simulator, the last panel: every panel above it is replaced on the way.
      await page.evaluate(() => window.scrollTo(0, Math.round(document.documentElement.scrollHeight * 0.7)));
      const simulatorTop = () =>
        page.evaluate(() => Math.round(document.querySelector('[data-testid="simulator"]').getBoundingClientRect().top));
      const before = await simulatorTop();
      assert.ok(before < 0, `the simulator starts above the view's top (${before} px)`);
      // Checked twice a second, not every frame: a check every frame changes when the two
      // slots' panels go in.
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="panels-status"]')?.dataset.state === 'ready' &&
          !document.querySelector('[data-stand-in]'),
        null,
        { timeout: 120_000, polling: 500 },
      );
      const after = await simulatorTop();
      assert.ok(Math.abs(after - before) <= 2, `the simulator moved in the view from ${before} to ${after} px`);
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      await context.close();
    }
  });

  test('(f) what is pasted and typed before the app starts is counted exactly', { skip }, async () => {
    const native = nativeCounts(FIXTURE);
    const text = readFileSync(FIXTURE, 'utf8');
    const { context, page, errors, release } = await slowPage();
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      await waitForEarlyForm(page);
      const box = page.locator(`${CONTAINER} [data-testid="text-input"]`);
      await page.evaluate((t) => navigator.clipboard.writeText(t), text);
      await box.focus();
      await page.keyboard.press('ControlOrMeta+V');
      const size = page.locator(`${CONTAINER} [data-testid="chunk-size"]`);
      await size.fill('256');
      const overlap = page.locator(`${CONTAINER} [data-testid="chunk-overlap"]`);
      await overlap.fill('0');
      await box.focus();
      // Over the box's 32 KiB (data-large-text), the paste is held back, as the live box does.
      assert.ok(Buffer.byteLength(text) > Number(await box.getAttribute('data-large-text')), 'the fixture is a large paste');
      assert.deepEqual(
        [await box.inputValue(), await box.evaluate((b) => b.readOnly)],
        ['', true],
        'the prerendered box holds the large paste back, read-only',
      );
      assert.equal(await page.locator(sel('text-input')).count(), 0, 'the app started during the edit: nothing was early');
      assert.ok(await page.locator('#boot-waiting').isVisible(), 'the page says the edit is kept');
      assert.equal(await page.locator(`${CONTAINER} [data-testid="status"]`).isVisible(), false, 'no "No text yet" beside the text');

      release();
      await page.locator(sel('text-input')).waitFor({ state: 'attached', timeout: 120_000 });
      // While the exact count is on its way (the table downloads), the card's figures are the
      // formula's over a length estimated from the characters, and its badge says so.
      const counting = await page.waitForFunction(
        ([s, b]) => {
          const status = document.querySelector(s);
          const badge = document.querySelector(b);
          return status?.dataset.state === 'tokenizing' && badge
            ? { exact: badge.dataset.exact, text: badge.textContent.trim() }
            : null;
        },
        [sel('status'), sel('results-badge')],
        { timeout: 120_000 },
      );
      assert.deepEqual(await counting.jsonValue(), { exact: 'false', text: 'estimate' }, 'the badge while counting');
      await page.waitForFunction(
        ([s, bytes]) => {
          const status = document.querySelector(s);
          return status?.dataset.state === 'ready' && status.dataset.bytes === String(bytes);
        },
        [sel('status'), native.bytes],
        { timeout: 120_000 },
      ).catch(() => {});
      assert.equal(await numberValue(page, 'out-doc-tokens'), native.cl100k_base, 'the exact cl100k_base count of the paste');
      assert.equal(await page.locator(sel('chunk-size')).inputValue(), '256', 'the chunk size typed early');
      assert.equal(await numberValue(page, 'out-chunks'), Math.ceil(native.cl100k_base / 256), 'chunks of 256 tokens, no overlap');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'text-input', 'the focus is still in the box');
      assert.equal(await page.locator('#prerendered').count(), 0, 'one app');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release();
      await context.close();
    }
  });

  test('(f) what the visitor did not touch is the live app\'s own: a saved language, a settings link', { skip }, async () => {
    const { context, page, errors, release } = await slowPage();
    try {
      await context.addInitScript(() => localStorage.setItem('rag-chunk-calculator.lang', 'vi'));
      await page.goto(`${url}#v=1&chunk_size=300&chunk_overlap=30`, { waitUntil: 'commit', timeout: 60_000 });
      await waitForEarlyForm(page);
      await page.locator(`${CONTAINER} [data-testid="text-input"]`).fill('Typed early.');
      release();
      await page.locator(sel('text-input')).waitFor({ state: 'attached', timeout: 120_000 });
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.bytes === '12', sel('status'), { timeout: 120_000 }).catch(() => {});
      assert.equal(await page.locator(sel('status')).getAttribute('data-bytes'), '12', 'the typed text');
      await page.waitForFunction(() => document.documentElement.lang === 'vi', null, { timeout: 60_000 }).catch(() => {});
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'vi', 'the saved language');
      assert.equal(await page.locator(sel('chunk-size')).inputValue(), '300', 'the link\'s chunk size');
      assert.equal(await page.locator(sel('chunk-overlap')).inputValue(), '30', 'the link\'s overlap');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release();
      await context.close();
    }
  });

  test('(f) the focus stays where the visitor put it, without scrolling', { skip }, async () => {
    const { context, page, errors, release } = await slowPage();
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      await waitForEarlyForm(page);
      // Clicked into the box, nothing typed yet; then scrolled to the FAQ.
      await page.locator(`${CONTAINER} [data-testid="text-input"]`).click();
      await page.locator(`${CONTAINER} .faq`).scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => window.scrollY);
      assert.ok(scrolled > 0, 'the page scrolled');
      assert.equal(await page.locator(sel('text-input')).count(), 0, 'the app had already started: nothing was early');
      release();
      await page.locator(sel('text-input')).waitFor({ state: 'attached', timeout: 120_000 });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'text-input', 'the focus is in the live box');
      assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'the page did not jump to the box');
      await page.keyboard.type('typed after');
      assert.equal(await page.locator(sel('text-input')).inputValue(), 'typed after', 'keystrokes after the takeover reach the box');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release();
      await context.close();
    }
  });

  test('(f) a file dropped before the app starts is read by it', { skip }, async () => {
    const text = 'Dropped before the page started.\n\nIt is read all the same.\n';
    const { context, page, errors, release } = await slowPage();
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      await waitForEarlyForm(page);
      assert.equal(await dropEarly(page, text), true, 'the page held the drop (the browser did not open the file)');
      assert.equal(await page.locator(sel('text-input')).count(), 0, 'the app started before the drop: nothing was early');

      release();
      await page.locator(sel('text-input')).waitFor({ state: 'attached', timeout: 120_000 });
      await page.waitForFunction(
        ([s, bytes]) => document.querySelector(s)?.dataset.bytes === String(bytes),
        [sel('status'), Buffer.byteLength(text)],
        { timeout: 120_000 },
      ).catch(() => {});
      assert.equal(await page.locator(sel('status')).getAttribute('data-bytes'), String(Buffer.byteLength(text)), 'the dropped file is the text');
      assert.equal(await page.locator(sel('text-input')).inputValue(), text, 'the box shows it');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release();
      await context.close();
    }
  });

  test('(f) a text typed after an early drop is the newer edit', { skip }, async () => {
    const { context, page, errors, release } = await slowPage();
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      await waitForEarlyForm(page);
      assert.equal(await dropEarly(page, 'The dropped file.\n'), true, 'the drop was held');
      await page.locator(`${CONTAINER} [data-testid="text-input"]`).fill('Typed after the drop.');
      assert.equal(await page.locator(sel('text-input')).count(), 0, 'the app started before the edits: nothing was early');
      release();
      await page.locator(sel('text-input')).waitFor({ state: 'attached', timeout: 120_000 });
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.state === 'ready', sel('status'), { timeout: 120_000 }).catch(() => {});
      assert.equal(await page.locator(sel('text-input')).inputValue(), 'Typed after the drop.', 'the typed text, not the file');
      assert.equal(await page.locator(sel('status')).getAttribute('data-bytes'), '21', 'its bytes are counted');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release();
      await context.close();
    }
  });
});

describe('(g) the panels\' module, root build', () => {
  const skip = existsSync(path.join(DIST, 'index.html')) ? false : `${DIST} is not built`;
  /** The panels' module: `panels-` and the page module's hashed name (crates/page-split). */
  const PANELS_WASM = /\/panels-rag-chunk-calculator-[0-9a-f]+_bg\.wasm$/;
  let server;
  let url;

  before(async () => {
    if (skip) return;
    ({ server, url } = await startStaticServer({ root: DIST, prefix: '/' }));
  });

  after(async () => {
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The live panels work: for a text, the comparison's fixed-window row has the results
   * card's chunk count (both the core's). */
  async function liveComparison(page) {
    await page.locator(sel('text-input')).fill('Chunk this text, please. '.repeat(50));
    await page.waitForFunction(
      () => document.querySelector('[data-testid="compare-row"][data-strategy="fixed"]')?.dataset.chunks !== undefined,
      null,
      { timeout: APP_START_MS },
    );
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.dataset.state === 'ready', null, { timeout: APP_START_MS });
    const row = await page.locator('[data-testid="compare-row"][data-strategy="fixed"]').getAttribute('data-chunks');
    assert.equal(Number(row), await numberValue(page, 'out-chunks'), 'the fixed-window row and the results card');
  }

  /** The live form answers a chunk size: its chunk count changes. */
  async function formAnswers(page) {
    const chunks = await numberValue(page, 'out-chunks');
    await page.locator(sel('chunk-size')).fill('100');
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="out-chunks"]:not(#prerendered *)')?.dataset.value !== String(n),
      chunks,
      { timeout: 30_000 },
    );
  }

  test('(g) held back: the prerendered panels stand in, and what was done in them is handed over', { skip }, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    let release;
    try {
      release = await holdBack(context, PANELS_WASM);
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
      await page.goto(url);
      await page.locator(sel('chunk-size')).waitFor({ timeout: APP_START_MS });
      assert.equal(await page.locator(CONTAINER).count(), 0, 'the prerendered container is gone');
      const standIn = page.locator('[data-stand-in]');
      assert.equal(await standIn.count(), 2, 'the model panel and the lower panels stand in');
      assert.equal(await page.locator('.faq').count(), 1, 'one FAQ: the stand-in');
      assert.equal(await page.locator('[data-testid="panels-status"]').getAttribute('data-state'), 'loading');
      assert.ok(await page.locator('[data-testid="panels-status"]').isHidden(), 'no status line while the stand-ins show');
      await formAnswers(page);

      const question = 'Where is the moonstone kept?';
      await page.locator('[data-stand-in] [data-testid="qa-question"]').fill(question);
      await page.locator('[data-stand-in] .faq summary').nth(1).click();
      // A text counted before the panels arrive: the live panels above the simulator (the
      // chunk preview, the comparison) come taller than the prerendered ones. A reader at the
      // simulator stays there.
      await page.locator(sel('text-input')).fill('Chunk this text, please. '.repeat(80));
      await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.dataset.state === 'ready', null, { timeout: APP_START_MS });
      await page.evaluate(() => document.querySelector('[data-stand-in] [data-testid="simulator"]').scrollIntoView({ block: 'start' }));
      const simulatorTop = await page.evaluate(() => Math.round(document.querySelector('[data-stand-in] [data-testid="simulator"]').getBoundingClientRect().top));

      release();
      await waitForPanels(page, 'ready');
      await page.waitForFunction(() => !document.querySelector('[data-stand-in]'), null, { timeout: 10_000 });
      assert.equal(await page.locator('.faq').count(), 1, 'one FAQ: the live one');
      const liveTop = await page.evaluate(() => Math.round(document.querySelector('[data-testid="simulator"]').getBoundingClientRect().top));
      assert.ok(Math.abs(liveTop - simulatorTop) <= 2, `the simulator moved from ${simulatorTop} to ${liveTop} px in the view`);
      await page.waitForFunction(
        (q) => document.querySelector('[data-testid="qa-question"]')?.value === q,
        question,
        { timeout: 10_000 },
      );
      const open = await page.locator('.faq details').evaluateAll((ds) => ds.map((d) => d.open));
      assert.ok(open.length > 2, 'the live FAQ has its questions');
      assert.deepEqual(open, open.map((_, i) => i === 1), 'the question opened in the stand-in is open in the live FAQ, and only it');
      await liveComparison(page);
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      release?.();
      await context.close();
    }
  });

  test('(g) when the panels\' module cannot arrive, the stand-ins stay, the status says so, the form answers, and it can try again', { skip }, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      let blocked = true;
      await context.route(PANELS_WASM, (route) =>
        blocked ? route.fulfill({ status: 404, body: 'blocked by the test' }) : route.continue(),
      );
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? String(err)));
      await page.goto(url);
      const status = page.locator('[data-testid="panels-status"]');
      await waitForPanels(page, 'failed');
      assert.ok(await status.isVisible(), 'the status line shows');
      assert.match(await status.textContent(), /could not be loaded/, 'it says why in words');
      assert.equal(await page.locator('[data-stand-in]').count(), 2, 'the prerendered panels stay');
      assert.equal(await page.locator('.faq').count(), 1, 'the FAQ still reads');
      await formAnswers(page);
      // A strategy other than fixed windows (a settings link can choose one): the results card
      // says it cannot run rather than waiting for it.
      await page.goto(`${url}#v=1&strategy=sentence&chunk_size=300`);
      await page.reload();
      await waitForPanels(page, 'failed');
      await page.locator(sel('text-input')).fill('Chunk this text, please. '.repeat(50));
      await page.locator(sel('results-unavailable')).waitFor({ timeout: APP_START_MS });
      assert.equal(await page.locator(sel('results-waiting')).count(), 0, 'not waiting for it');
      // A document's reader is started from the panels' module: without it, opening one says
      // so in its own words, and the box keeps its text.
      const kept = await page.inputValue(sel('text-input'));
      await page.locator(sel('file-input')).setInputFiles({
        name: 'page.html',
        mimeType: 'text/html',
        buffer: Buffer.from('<html><body><p>Read me, please.</p></body></html>'),
      });
      await page.waitForFunction(
        () => document.querySelector('[data-testid="file-message"]')?.dataset.reason === 'reader-unavailable',
        null,
        { timeout: APP_START_MS },
      );
      assert.match(await page.locator(sel('file-message')).textContent(), /could not be loaded/);
      assert.equal(await page.inputValue(sel('text-input')), kept, 'the box keeps its text');

      blocked = false;
      await page.locator('[data-testid="panels-retry"]').click();
      await waitForPanels(page, 'ready');
      assert.ok(await status.isHidden(), 'no status line once the panels work');
      await page.waitForFunction(() => !document.querySelector('[data-stand-in]'), null, { timeout: 10_000 });
      assert.equal(await page.locator('.faq').count(), 1, 'one FAQ: the live one');
      // The strategy runs now: the results card has its figures.
      await page.waitForFunction(
        () => document.querySelector('[data-testid="out-chunks"]:not(#prerendered *)')?.dataset.value > 0,
        null,
        { timeout: APP_START_MS },
      );
      assert.equal(await page.locator(sel('results-unavailable')).count(), 0, 'no longer unavailable');
      assert.deepEqual(errors, [], 'page errors');
    } finally {
      await context.close();
    }
  });
});
