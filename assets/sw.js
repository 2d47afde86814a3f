// The page's service worker: it keeps a copy of the page on this device so that the page
// opens and counts offline. Our own code, same origin, nothing else (no library, no other
// host). Registered by boot.js once the page has settled (its workers' modules arrived), with
// the page's own directory as its scope (the <base> Trunk writes: "/" or a subpath such as
// "/rag-chunk-calculator/").
//
// What it keeps, in one cache per scope (several project sites share a GitHub Pages origin):
//  - on install: the page (index.html, fetched again from the network) and every same-origin
//    file it names (the hashed wasm-bindgen glue and .wasm, the hashed CSS, boot.js, the
//    manifest), the workers' files (tokenize-worker.js, tokenize-engine.js and
//    tokenize-engine_bg.wasm, as src/tokenize/module.rs name them, and the tokenizer's tables
//    tables/cl100k_base.bin and tables/o200k_base.bin, as chunk-core's `Encoding::table_path`
//    names them;
//    compare-worker.js, compare-engine.js and compare-engine_bg.wasm, as
//    src/compare/engine.rs names them), the other languages' messages (i18n/vi.txt, id, ru,
//    pl, as src/i18n/bundle.rs names them; about 70 KB gzip in all) and the icon;
//  - afterwards: every same-origin GET answered 200 under the scope when the page asks for it,
//    e.g. a tokenizer's vocabulary under vocab/, fetched only when a model needs it, the
//    document reader (extract-worker.js, extract-engine.js, extract-engine_bg.wasm), fetched
//    only when an HTML or DOCX file is opened, and the embedding worker (embed-worker.js,
//    embed-engine.js, embed-engine_bg.wasm, and the picked model's files under models/:
//    potion-base-8m.int8.safetensors, 7.6 MB, with potion-base-8m.vocab.txt, or
//    all-minilm-l6-v2.int8.safetensors, 23 MB), fetched only when the page asks for
//    embeddings (so each works offline once it has been used). None of these is fetched on
//    install: the models would cost every visitor 31 MB.
//
// How it answers (only GETs under its scope; it never makes a request of its own but these):
//  - the page itself: the network first, the kept copy when the network fails (offline);
//  - a file with Trunk's content hash in its name (name-<16 hex digits>[_bg].js/.wasm/.css):
//    the kept copy first — the name changes whenever the content does;
//  - any other file (boot.js, the workers' scripts, the comparison engine, vocabularies, the
//    tables, the embedding model): the network first (the browser's HTTP cache still applies), the kept copy
//    offline, so a new deployment is never paired with an older file of the same name. The
//    tokenizer asks for a table with its build's checksum as a query (`?v=…`, for the HTTP
//    cache), and the page for a language's messages with its catalogs' fingerprint: such a
//    file is kept under its URL without the query (one copy per file), which answers it
//    offline; the tokenizer and the page refuse a copy that is another build's.
//
// A new deployment: its index.html (fetched first, whenever the page is opened online) names
// new hashed files, which are kept as the page loads them; hashed files it no longer names are
// deleted from the cache then. What else is kept (vocabularies, the embedding model) stays; a
// newer deployment's model file replaces it the next time it is fetched online.

const SCOPE = new URL(self.registration.scope);
const PAGE = SCOPE.href;
// Bump the version when what is kept changes shape; activate deletes the other versions'
// caches of this scope.
const CACHE_PREFIX = 'rag-chunk-calculator-';
const CACHE = `${CACHE_PREFIX}v1 ${SCOPE.pathname}`;
// Trunk's content-hashed output names: a 64-bit hash in hex without leading zeros, so
// usually 16 digits and now and then fewer.
const HASHED = /-[0-9a-f]{12,16}(?:_bg)?\.(?:js|wasm|css)$/;
// Files no element of index.html names, fetched by the workers or the manifest.
const EXTRA = [
  'tokenize-worker.js',
  'tokenize-engine.js',
  'tokenize-engine_bg.wasm',
  'tables/cl100k_base.bin',
  'tables/o200k_base.bin',
  'compare-worker.js',
  'compare-engine.js',
  'compare-engine_bg.wasm',
  'i18n/vi.txt',
  'i18n/id.txt',
  'i18n/ru.txt',
  'i18n/pl.txt',
  'icon.svg',
];

/** True for a URL under this worker's scope on its origin. */
const inScope = (url) => url.origin === SCOPE.origin && url.pathname.startsWith(SCOPE.pathname);

/** Every same-origin file index.html `html` names, and the workers' files, as absolute URLs. */
function filesOf(html) {
  const urls = new Set();
  const elements = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const [, attr, value] of elements.matchAll(/\s(href|src|data-js|data-wasm|data-split-js|data-split-wasm)="([^"]+)"/g)) {
    let url;
    try {
      url = new URL(value.replaceAll('&amp;', '&'), PAGE);
    } catch {
      continue;
    }
    if (!inScope(url) || url.href === PAGE) continue;
    url.hash = '';
    urls.add(url.href);
  }
  for (const file of EXTRA) urls.add(new URL(file, PAGE).href);
  return urls;
}

/** Keeps `response` to `request` if it is a whole same-origin answer. */
async function keep(request, response) {
  if (response.status !== 200 || response.type !== 'basic') return;
  const cache = await caches.open(CACHE);
  await cache.put(request, response);
}

/** After a fresh index.html `html`: drops kept hashed files it no longer names (an older
 * deployment's). */
async function prune(html) {
  const current = filesOf(html);
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (HASHED.test(url.pathname) && !current.has(url.href)) await cache.delete(request);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const page = await fetch(PAGE, { cache: 'no-cache' });
      if (page.status !== 200) throw new Error(`${PAGE} answered ${page.status}`);
      const html = await page.clone().text();
      const cache = await caches.open(CACHE);
      // Each file on its own: one that cannot be fetched now is kept when the page asks for it.
      await Promise.all(
        [...filesOf(html)].map(async (url) => {
          const request = new Request(url, { cache: 'no-cache' });
          try {
            await keep(request, await fetch(request));
          } catch {
            // offline again, or refused: not kept yet
          }
        }),
      );
      await cache.put(PAGE, page);
      await prune(html);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name.endsWith(` ${SCOPE.pathname}`) && name !== CACHE) {
          await caches.delete(name);
        }
      }
      // Take over the page that registered this worker, so that the files its workers fetch
      // later are kept too.
      await self.clients.claim();
    })(),
  );
});

/** The page: the network first; offline, the kept copy. */
async function page(event) {
  try {
    const response = await fetch(event.request);
    if (response.status === 200 && response.type === 'basic') {
      const copy = response.clone();
      event.waitUntil(
        (async () => {
          const text = await copy.clone().text();
          await (await caches.open(CACHE)).put(PAGE, copy);
          await prune(text);
        })(),
      );
    }
    return response;
  } catch (err) {
    const cache = await caches.open(CACHE);
    const kept = (await cache.match(PAGE)) ?? (await cache.match(event.request, { ignoreSearch: true }));
    if (kept) return kept;
    throw err;
  }
}

/** A content-hashed file: the kept copy first. */
async function hashed(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  event.waitUntil(keep(event.request, response.clone()));
  return response;
}

/** The URL a file is kept under: without its query (a table's `?v=` only names its build). */
function keyOf(request) {
  const url = new URL(request.url);
  url.search = '';
  return url.href;
}

/** Any other file: the network first; offline, the kept copy. */
async function other(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keep(keyOf(event.request), response.clone()));
    return response;
  } catch (err) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(keyOf(event.request));
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!inScope(url)) return;
  if (request.mode === 'navigate') {
    // Only the page itself (the scope, or its index.html) is kept and served offline.
    if (url.pathname === SCOPE.pathname || url.pathname === `${SCOPE.pathname}index.html`) {
      event.respondWith(page(event));
    }
    return;
  }
  if (request.headers.has('range')) return; // partial answers are never kept
  event.respondWith(HASHED.test(url.pathname) ? hashed(event) : other(event));
});
