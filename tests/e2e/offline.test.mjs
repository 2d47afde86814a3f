// End-to-end test of the page offline (assets/sw.js, registered by assets/boot.js) and of its
// web app manifest, on the release build at the site root and, when it has been built, under
// the subpath (E2E_DIST_SUBPATH served at E2E_SUBPATH, as GitHub Pages serves a project):
//  (a) the manifest is served from the page's directory, names the page, opens it standalone
//      at ".", and its icon is served too;
//  (b) after one visit online the service worker controls the page; the fixture pasted then
//      gets its count; offline (Chromium's network emulation, and the static server stopped,
//      so nothing can come from it) a reload opens the page from the service worker's copy:
//      every request of the page and its workers is answered by the service worker, none
//      fails; the tokenizer worker and the comparison worker start; the same text pasted gets
//      exactly the same count as online, counted in the worker;
//  (c) no request at all while a text is pasted and counted, online or offline, neither by the
//      page and its workers nor by the service worker; none to another origin ever;
//  (d) no uncaught error and no console error; then, offline, a document opened before the
//      reader was ever fetched is refused with the true reason (the reader is not on this
//      device yet, and how to get it), and the text is kept;
//  (e) (root build) a new deployment replaces the kept copy: with new hashed file names and a
//      changed worker script served at the same address, one visit online keeps the new files,
//      drops the old hashed ones, and the page then opens offline as the new deployment.
//
// Environment (all optional): E2E_DIST, E2E_DIST_SUBPATH, E2E_SUBPATH, E2E_FIXTURE,
// E2E_NATIVE_COUNTS (the native core's counts of the fixture; checked when given), CHROMIUM.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';
import { chooseLanguage, countOf, launchBrowser, pasteText, sel, waitForAttr } from './page.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.E2E_DIST ?? path.join(REPO, 'dist-e2e'));
const DIST_SUBPATH = path.resolve(process.env.E2E_DIST_SUBPATH ?? path.join(REPO, 'dist-subpath'));
const SUBPATH = process.env.E2E_SUBPATH ?? '/rag-chunk-calculator/';
const FIXTURE = path.resolve(process.env.E2E_FIXTURE ?? path.join(REPO, 'tests', 'fixtures', 'moonstone-short.txt'));

const APP_START_MS = 60_000;

const BUILDS = [
  { name: 'root build', dir: DIST, prefix: '/' },
  { name: `subpath build (${SUBPATH})`, dir: DIST_SUBPATH, prefix: SUBPATH },
];

let browser;
let fixture;
let bytes;

before(async () => {
  fixture = readFileSync(FIXTURE, 'utf8');
  bytes = Buffer.byteLength(fixture, 'utf8');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Waits until the app, its tokenizer worker and its comparison worker are up. */
async function waitForApp(page, pageErrors) {
  const appeared = await page
    .locator(sel('text-input'))
    .waitFor({ state: 'visible', timeout: APP_START_MS })
    .then(() => true)
    .catch(() => false);
  assert.ok(appeared, `the app did not start; page errors: ${JSON.stringify(pageErrors)}`);
  assert.ok(await waitForAttr(page, 'status', 'data-worker', 'true', APP_START_MS), 'the tokenizer worker did not start');
  assert.ok(await waitForAttr(page, 'compare', 'data-engine', 'ready', APP_START_MS), 'the comparison worker did not start');
}

for (const build of BUILDS) {
  describe(`offline, ${build.name}`, () => {
    const skip = existsSync(path.join(build.dir, 'index.html')) ? false : `${build.dir} is not built`;
    let server;
    let url;

    before(async () => {
      if (skip) return;
      ({ server, url } = await startStaticServer({ root: build.dir, prefix: build.prefix }));
    });

    after(async () => {
      if (!server?.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    test('(a) the web app manifest and its icon are served from the page', { skip }, async () => {
      const manifestUrl = new URL('manifest.webmanifest', url);
      const response = await fetch(manifestUrl);
      assert.equal(response.status, 200, `GET ${manifestUrl}`);
      const manifest = await response.json();
      assert.equal(manifest.name, 'RAG Chunk Calculator');
      assert.ok(manifest.short_name, 'no short_name');
      assert.equal(manifest.display, 'standalone');
      assert.equal(new URL(manifest.start_url, manifestUrl).href, url, 'start_url is not the page');
      assert.ok(manifest.theme_color && manifest.background_color, 'no theme or background colour');
      assert.ok(manifest.icons?.length > 0, 'no icon');
      for (const icon of manifest.icons) {
        const iconUrl = new URL(icon.src, manifestUrl);
        assert.equal(iconUrl.origin, new URL(url).origin, `the icon ${iconUrl} is on another origin`);
        const got = await fetch(iconUrl);
        assert.equal(got.status, 200, `GET ${iconUrl}`);
        assert.equal(got.headers.get('content-type'), icon.type, `the type of ${iconUrl}`);
      }
      // The page links it, relative to its <base>.
      const html = readFileSync(path.join(build.dir, 'index.html'), 'utf8');
      assert.match(html, /<link rel="manifest" href="manifest\.webmanifest"/);
    });

    test('(b)–(d) opened offline after one visit, the page counts a paste exactly as online', { skip }, async (t) => {
      const context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
      const pageErrors = [];
      const consoleErrors = [];
      const failed = [];
      let phase = 'first visit';
      const requests = { 'first visit': [], counting: [], offline: [], 'counting offline': [] };
      try {
        const page = await context.newPage();
        page.on('pageerror', (err) => pageErrors.push(err.stack ?? String(err)));
        page.on('console', (msg) => {
          if (msg.type() === 'error') consoleErrors.push(`${msg.text()} [${msg.location()?.url ?? ''}]`);
        });
        // The page's and its workers' requests (not the service worker's own).
        page.on('request', (req) => {
          if (!req.url().startsWith('data:') && !req.url().startsWith('blob:')) requests[phase].push(req);
        });
        page.on('requestfailed', (req) => failed.push(`${phase}: ${req.url()}: ${req.failure()?.errorText}`));
        // Every request of the browser context, the service worker's own included (its install
        // fetches the page's files after the load event of the first visit).
        const everyRequest = Object.fromEntries(Object.keys(requests).map((k) => [k, []]));
        context.on('request', (req) => {
          if (!req.url().startsWith('data:') && !req.url().startsWith('blob:')) everyRequest[phase].push(req.url());
        });

        await page.goto(url, { waitUntil: 'load' });
        await waitForApp(page, pageErrors);
        // boot.js registers the service worker once the page has settled; it keeps its copy on
        // install and takes over the page when it activates.
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: APP_START_MS });
        const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
        assert.equal(scope, url, 'the service worker\'s scope is not the page\'s directory');

        phase = 'counting';
        await pasteText(page, fixture);
        const online = await countOf(page, bytes);
        t.diagnostic(`online: ${online.tokens} tokens`);
        if (process.env.E2E_NATIVE_COUNTS) {
          assert.equal(online.tokens, JSON.parse(process.env.E2E_NATIVE_COUNTS).cl100k_base, 'online count vs the native core');
        }

        // Offline: the browser's network emulation, and the server stopped.
        await context.setOffline(true);
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));

        phase = 'offline';
        await page.reload({ waitUntil: 'load' });
        await waitForApp(page, pageErrors);
        const offlineRequests = requests.offline.map((r) => r.url());
        t.diagnostic(`${offlineRequests.length} requests offline: ${offlineRequests.join(' | ')}`);
        assert.ok(offlineRequests.includes(url), 'the reload did not request the page');
        for (const req of requests.offline) {
          const response = await req.response();
          assert.ok(response?.fromServiceWorker(), `${req.url()} was not answered by the service worker`);
          assert.equal(response.status(), 200, `${req.url()} answered ${response.status()} offline`);
        }

        phase = 'counting offline';
        await pasteText(page, fixture);
        const offline = await countOf(page, bytes);
        t.diagnostic(`offline: ${offline.tokens} tokens`);
        assert.equal(offline.tokens, online.tokens, 'offline, the same text got another count than online');
        assert.equal(await page.locator(sel('status')).getAttribute('data-worker'), 'true', 'offline, the text was not counted in the worker');

        const counting = [...requests.counting, ...requests['counting offline']].map((r) => r.url());
        assert.deepEqual(counting, [], 'requests while a text was pasted and counted');
        const countingAny = [...everyRequest.counting, ...everyRequest['counting offline']];
        assert.deepEqual(countingAny, [], 'requests of the browser context (service worker included) while counting');
        const foreign = Object.values(everyRequest).flat().filter((u) => new URL(u).origin !== new URL(url).origin);
        assert.deepEqual(foreign, [], 'requests to another origin');
        t.diagnostic(`the service worker's and the page's requests of the first visit: ${everyRequest['first visit'].length}`);
        assert.deepEqual(failed, [], 'failed requests');
        assert.deepEqual(pageErrors, [], 'uncaught errors');
        assert.deepEqual(consoleErrors, [], 'console errors');

        // (d) A document opened offline before the reader was ever fetched: the page says the
        // reader is not on this device yet and how to get it, not "try again".
        await page.locator(sel('file-input')).setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<p>Hello offline.</p>') });
        await page.waitForFunction(() => document.querySelector('[data-testid="file-message"]')?.dataset.reason === 'reader-offline', null, { timeout: 20000 });
        assert.match(await page.textContent(sel('file-message')), /not on this device yet.*Connect and open the file again/);
        assert.equal(await page.locator(sel('status')).getAttribute('data-bytes'), String(bytes), 'the text is kept');

        // Offline, another language: its messages (fetched when chosen, i18n/ru.txt) were kept
        // when the service worker installed, so the page is in Russian without the network.
        phase = 'offline';
        await chooseLanguage(page, 'ru');
        assert.equal(await page.textContent('.site-header h1:not(#prerendered *)'), 'Калькулятор чанков для RAG', 'the title in Russian');
        assert.equal(await page.locator(sel('language-status')).isHidden(), true, 'no failure said');
        await chooseLanguage(page, 'en');
      } finally {
        await context.close();
      }
    });
  });
}

/** A copy of `dir` as a new deployment would be: every Trunk content hash in a file name (and
 * wherever it is named: the HTML, the scripts, and the page's module, which imports the
 * panels' loader by its hashed name; a reversed hash has the same length, so the module stays
 * valid) replaced, and the comparison worker's script changed. */
function newDeployment(dir) {
  const out = mkdtempSync(path.join(tmpdir(), 'rag-e2e-deploy-'));
  cpSync(dir, out, { recursive: true });
  const hashes = new Set();
  // Trunk writes a 64-bit hash in hex without leading zeros: usually 16 digits, sometimes fewer.
  for (const name of readdirSync(out)) for (const m of name.matchAll(/-([0-9a-f]{12,16})(?:_bg)?\./g)) hashes.add(m[1]);
  const renamed = new Map([...hashes].map((h) => [h, [...h].reverse().join('')]));
  const swap = (text) => [...renamed].reduce((t, [from, to]) => t.replaceAll(from, to), text);
  const swapBytes = (bytes) => {
    for (const [from, to] of renamed) {
      const [a, b] = [Buffer.from(from), Buffer.from(to)];
      for (let at = bytes.indexOf(a); at >= 0; at = bytes.indexOf(a, at + a.length)) b.copy(bytes, at);
    }
    return bytes;
  };
  for (const name of readdirSync(out)) {
    const file = path.join(out, name);
    if (/\.(html|js)$/.test(name)) writeFileSync(file, swap(readFileSync(file, 'utf8')));
    if (/\.wasm$/.test(name)) writeFileSync(file, swapBytes(readFileSync(file)));
    if (swap(name) !== name) renameSync(file, path.join(out, swap(name)));
  }
  writeFileSync(path.join(out, 'compare-worker.js'), `${readFileSync(path.join(out, 'compare-worker.js'), 'utf8')}\n// new deployment\n`);
  return { dir: out, renamed };
}

/** What the page's service worker keeps: {url: text of small files}. */
async function kept(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        out[req.url] = req.url.endsWith('compare-worker.js') ? await (await cache.match(req)).text() : '';
      }
    }
    return out;
  });
}

describe('offline, a new deployment', () => {
  const skip = existsSync(path.join(DIST, 'index.html')) ? false : `${DIST} is not built`;

  test('(e) one visit online replaces the kept copy with the new deployment\'s', { skip }, async (t) => {
    const next = newDeployment(DIST);
    const context = await browser.newContext();
    const pageErrors = [];
    let server;
    try {
      let url;
      ({ server, url } = await startStaticServer({ root: DIST, prefix: '/' }));
      const port = new URL(url).port;
      const page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.stack ?? String(err)));
      page.on('console', (msg) => {
        if (msg.type() === 'error') pageErrors.push(msg.text());
      });
      await page.goto(url, { waitUntil: 'load' });
      await waitForApp(page, pageErrors);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: APP_START_MS });
      const before = Object.keys(await kept(page));
      const oldHashes = [...next.renamed.keys()];
      assert.ok(oldHashes.every((h) => before.some((u) => u.includes(h))), `not every hashed file is kept: ${before.join(' | ')}`);

      // The new deployment at the same address.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      ({ server } = await startStaticServer({ root: next.dir, prefix: '/', port: Number(port) }));
      await page.reload({ waitUntil: 'load' });
      await waitForApp(page, pageErrors);
      const glue = await page.locator('script[data-js]').getAttribute('data-js');
      assert.ok([...next.renamed.values()].some((h) => glue.includes(h)), `the reload did not load the new deployment (${glue})`);
      const newHashes = [...next.renamed.values()];
      await page
        .waitForFunction(
          async ([gone, come]) => {
            const urls = [];
            for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
            return gone.every((h) => !urls.some((u) => u.includes(h))) && come.every((h) => urls.some((u) => u.includes(h)));
          },
          [oldHashes, newHashes],
          { timeout: APP_START_MS },
        )
        .catch(() => {});
      const after = await kept(page);
      t.diagnostic(`kept after the new deployment: ${Object.keys(after).join(' | ')}`);
      for (const h of oldHashes) assert.ok(!Object.keys(after).some((u) => u.includes(h)), `an old hashed file (${h}) is still kept`);
      for (const h of newHashes) assert.ok(Object.keys(after).some((u) => u.includes(h)), `a new hashed file (${h}) is not kept`);
      const worker = Object.entries(after).find(([u]) => u.endsWith('/compare-worker.js'));
      assert.ok(worker?.[1].includes('// new deployment'), "the kept compare-worker.js is not the new deployment's");

      // Offline: the new deployment opens from the kept copy.
      await context.setOffline(true);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await page.reload({ waitUntil: 'load' });
      await waitForApp(page, pageErrors);
      const offlineGlue = await page.locator('script[data-js]').getAttribute('data-js');
      assert.equal(offlineGlue, glue, 'offline, the page is not the new deployment');
      assert.deepEqual(pageErrors, [], 'uncaught errors');
    } finally {
      await context.close();
      if (server?.listening) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      rmSync(next.dir, { recursive: true, force: true });
    }
  });
});
