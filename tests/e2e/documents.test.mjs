// End-to-end test of opening documents (src/file_input.rs, src/extract_job.rs,
// crates/extract-engine) on the release build:
//
//  (a) before any document is opened, the page has fetched nothing of the document reader;
//  (b) the HTML, DOCX and PDF fixtures (tests/fixtures/moonstone.html / .docx / .pdf, see
//      SOURCE.md), chosen with the file input, become the text: the page's cl100k_base token
//      count is within 3 % of the reference extraction's (BeautifulSoup with html5lib,
//      python-docx, pypdf, and Python's tiktoken, in tests/e2e/reference_count.py; the page's
//      text carries its markdown-like markers, the reference's does not), and the headings,
//      list items, tables and pages the summary reports equal the reference's; a PDF's
//      reading shows its pages read as it goes;
//  (c) a PDF's chunks name their pages, on the page and in the JSONL and CSV downloads: every
//      chunk's text lies within the pypdf text of the pages it names, and the pages run from 1
//      to the last;
//  (d) a PDF page on which the parser panics (tests/fixtures/damaged-page.pdf) is skipped
//      and counted, and the pages around it are read (the worker goes on in a fresh
//      instance);
//  (e) a file that is not what its name says gets its reason (`data-reason`), the text box is
//      left as it was (a page without text, a PDF behind a password and a scanned PDF among
//      them);
//  (f) the stop button stops a long read: the message says so and the text stays;
//  (g) no page error, and nothing fetched but the reader's own three files.
//
// Needs CHUNK_ORACLE_PYTHON and TIKTOKEN_CACHE_DIR, as `make test-e2e` sets them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { countOf, openReadyPage, sel, serveAndLaunch } from './page.mjs';

const DIST = process.env.E2E_DIST ?? path.resolve(import.meta.dirname, '../../dist-e2e');
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const PYTHON = process.env.CHUNK_ORACLE_PYTHON;
const READER_FILES = ['extract-worker.js', 'extract-engine.js', 'extract-engine_bg.wasm'];

/** The reference figures of the fixture `file` read as `kind` ("html", "docx" or "pdf"). */
function reference(kind, file) {
  assert.ok(PYTHON, 'CHUNK_ORACLE_PYTHON is not set: run through `make test-e2e`');
  const run = spawnSync(PYTHON, [path.join(import.meta.dirname, 'reference_count.py'), kind, file], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `reference_count.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The reader's files among `urls`, by name. */
const readerFetches = (urls) => urls.filter((u) => READER_FILES.some((f) => new URL(u).pathname.endsWith(`/${f}`)));

/** Chooses `name` with `buffer` in the file input. */
async function choose(page, name, buffer, mimeType = 'application/octet-stream') {
  await page.locator(sel('file-input')).setInputFiles({ name, mimeType, buffer });
}

/** Waits until the summary of a `format` document or a refusal is shown. */
async function settled(page, format) {
  await page.waitForFunction(
    ([summarySel, messageSel, f]) =>
      document.querySelector(summarySel)?.getAttribute('data-format') === f ||
      document.querySelector(messageSel)?.hasAttribute('data-reason'),
    [sel('extract-summary'), sel('file-message'), format],
    { timeout: 60_000 },
  );
}

/** A ready page whose text is a 20-byte text file, which a refused or stopped file must keep. */
async function pageHoldingText() {
  const opened = await openReadyPage(env.browser, env.url);
  await choose(opened.page, 'keep.txt', Buffer.from('This text must stay.'), 'text/plain');
  await countOf(opened.page, 20);
  return opened;
}

let env;
before(async () => {
  env = await serveAndLaunch(DIST);
});
after(async () => env?.close());

/** Records every page count a reading message shows (`data-total`), from now on. */
async function recordProgress(page) {
  await page.evaluate((s) => {
    window.__totals = [];
    new MutationObserver(() => {
      const m = document.querySelector(s);
      if (m?.dataset.state === 'reading' && m.dataset.total) window.__totals.push(Number(m.dataset.total));
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  }, sel('file-message'));
}

/** `s` without whitespace. */
const bare = (s) => s.replace(/\s+/gu, '');

test('HTML, DOCX and PDF files are read in a worker, with the reference extraction’s counts', async () => {
  const { page, errors, requests } = await openReadyPage(env.browser, env.url);
  // (a) Nothing of the reader before a document is opened (openReadyPage records from the
  // comparison's start; the reader is fetched only by its worker).
  const before = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.deepEqual(readerFetches([...before, ...requests]), [], 'the reader was fetched before any document was opened');

  for (const [kind, file] of [['html', 'moonstone.html'], ['docx', 'moonstone.docx'], ['pdf', 'moonstone.pdf']]) {
    const want = reference(kind, path.join(FIXTURES, file));
    if (kind === 'pdf') await recordProgress(page);
    const status = () => page.evaluate((s) => document.querySelector(s).getAttribute('data-bytes'), sel('status'));
    const earlier = await status();
    await choose(page, file, fs.readFileSync(path.join(FIXTURES, file)));
    await settled(page, kind);
    const summary = page.locator(sel('extract-summary'));
    // The message is read only when it is needed: reading a missing element waits 30 s.
    if ((await summary.count()) !== 1) {
      assert.fail(`${file}: no extract summary (${await page.locator(sel('file-message')).textContent().catch(() => '')})`);
    }
    const attr = async (a) => summary.getAttribute(a);
    assert.equal(await attr('data-format'), kind);
    for (const [hook, key] of [['data-headings', 'headings'], ['data-list-items', 'list_items'], ['data-tables', 'tables']]) {
      assert.equal(Number(await attr(hook)), want[key], `${file}: ${key}`);
    }
    if (kind === 'html') {
      for (const [hook, key] of [['data-removed', 'removed'], ['data-boilerplate', 'boilerplate'], ['data-images', 'images']]) {
        assert.equal(Number(await attr(hook)), want[key], `${file}: ${key}`);
      }
    }
    if (kind === 'pdf') {
      assert.equal(Number(await attr('data-pages')), want.pages.length, `${file}: pages`);
      assert.equal(Number(await attr('data-pages-without-text')), 0, `${file}: pages without text`);
      const totals = await page.evaluate(() => window.__totals);
      assert.ok(totals.includes(want.pages.length), `${file}: no progress line named its ${want.pages.length} pages (${totals})`);
    } else {
      assert.equal(Number(await attr('data-pages')), 0, `${file}: pages`);
    }
    // The count of the document's text: the status holds other bytes than before it.
    await page.waitForFunction(
      ([s, before]) => document.querySelector(s)?.getAttribute('data-bytes') !== before,
      [sel('status'), earlier],
      { timeout: 60_000 },
    );
    const { tokens } = await countOf(page, Number(await status()));
    const ratio = tokens / want.tokens;
    console.log(`${file}: page ${tokens} tokens, reference ${want.tokens} (${((ratio - 1) * 100).toFixed(2)} %), read in ${await attr('data-millis')} ms, ${await attr('data-chars')} characters`);
    assert.ok(Math.abs(ratio - 1) <= 0.03, `${file}: ${tokens} tokens against the reference's ${want.tokens}`);
  }
  const fetched = readerFetches(requests).map((u) => path.basename(new URL(u).pathname));
  assert.deepEqual([...new Set(fetched)].sort(), [...READER_FILES].sort(), 'the reader fetched its own files');
  const others = requests.filter((u) => !readerFetches([u]).length);
  assert.deepEqual(others, [], 'requests other than the reader');
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('a Word file as Word shows it, and a browser-printed PDF without split words', async () => {
  const { page, errors } = await openReadyPage(env.browser, env.url);
  // (a) word-features.docx: a footnote written after the text, a header, a footer and a
  // comment left out and said so, code fenced with its indentation, lists numbered and nested.
  await choose(page, 'word-features.docx', fs.readFileSync(path.join(FIXTURES, 'word-features.docx')));
  await settled(page, 'docx');
  const summary = page.locator(sel('extract-summary'));
  const attrs = await summary.evaluate((e) => ({ ...e.dataset }));
  assert.deepEqual(
    [attrs.notes, attrs.headersFooters, attrs.comments],
    ['1', '2', '1'],
    `the DOCX summary: ${JSON.stringify(attrs)}`,
  );
  for (const words of [/footnote/i, /header/i, /comment/i]) {
    assert.match(await summary.textContent(), words, 'the summary says what was left out or added');
  }
  await page.waitForFunction((s) => document.querySelector(s)?.value.includes('```'), sel('text-input'), { timeout: 60_000 });
  const docx = await page.locator(sel('text-input')).inputValue();
  assert.match(docx, /\n```\n/, 'a fenced code block');
  assert.match(docx, /\n {2}- /, 'a nested list item');
  assert.match(docx, /\n1\. /, 'a numbered list item');
  assert.match(docx, /\[\^1\]: /, 'the footnote after the text');

  // (b) The Chromium-printed PDF reads as pypdf reads it: every word of ours is one of its.
  const file = path.join(FIXTURES, 'pdf-producers', 'chromium.pdf');
  await choose(page, 'chromium.pdf', fs.readFileSync(file));
  await settled(page, 'pdf');
  await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.bytes) > 1000, sel('status'), { timeout: 60_000 });
  const want = reference('pdf', file);
  const ours = await page.locator(sel('text-input')).inputValue();
  assert.ok(ours.length > 1000, 'the PDF\'s text is in the box (it is under 32 KiB)');
  // Every word of ours is one of pypdf's (a word split by a space would be two that are not).
  const theirs = new Set(want.pages.join('\n').split(/\s+/u));
  const foreign = ours.split(/\s+/u).filter((w) => w && !theirs.has(w));
  assert.deepEqual(foreign, [], 'words of ours that pypdf does not have');
  const { tokens } = await countOf(page, Number(await page.locator(sel('status')).getAttribute('data-bytes')));
  assert.ok(Math.abs(tokens / want.tokens - 1) <= 0.03, `chromium.pdf: ${tokens} tokens against pypdf's ${want.tokens}`);
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('a file dropped anywhere on the page is opened, not navigated to', async () => {
  const { page, errors } = await openReadyPage(env.browser, env.url);
  const text = 'Dropped on the questions, far from the box.\n';
  const drop = await page.evaluateHandle((t) => {
    const data = new DataTransfer();
    data.items.add(new File([t], 'far.txt', { type: 'text/plain' }));
    return data;
  }, text);
  const faq = page.locator('.faq').first();
  await faq.dispatchEvent('dragover', { dataTransfer: drop });
  const held = await faq.evaluate((el, data) => {
    const ev = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
    el.dispatchEvent(ev);
    return ev.defaultPrevented;
  }, drop);
  assert.equal(held, true, 'the page took the drop (the browser would have opened the file in its place)');
  await countOf(page, Buffer.byteLength(text));
  assert.equal(await page.locator(sel('text-input')).inputValue(), text, 'the dropped file is the text');
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('a PDF’s chunks name their pages, shown and downloaded, as pypdf places their text', async () => {
  const { page, errors } = await openReadyPage(env.browser, env.url);
  const file = path.join(FIXTURES, 'moonstone.pdf');
  const want = reference('pdf', file);
  const pages = want.pages.map(bare);
  await choose(page, 'moonstone.pdf', fs.readFileSync(file));
  await settled(page, 'pdf');
  // The classic preview (fixed token windows) names its chunks' pages too.
  const preview = await page.locator(`${sel('chunk-preview')} ${sel('chunk')}`).first().getAttribute('data-page-start');
  assert.equal(preview, '1', 'the preview\'s first chunk is on page 1');
  await page.selectOption(sel('strategy'), 'langchain-recursive');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="strategy-chunks"]')?.dataset.strategy === 'langchain-recursive'
      && document.querySelector('[data-testid="strategy-chunks"] [data-testid="chunk-pages"]'),
    null,
    { timeout: 60_000 },
  );
  const shown = await page.locator(`${sel('strategy-chunks')} ${sel('chunk')}`).first().evaluate((e) => ({
    start: e.dataset.pageStart,
    end: e.dataset.pageEnd,
    label: e.querySelector('[data-testid="chunk-pages"]').textContent,
  }));
  assert.equal(shown.start, '1');
  assert.match(shown.label, /^pages? 1/u, `the label says the page: ${shown.label}`);
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.click(sel('export-jsonl'))]);
  const rows = fs.readFileSync(await jsonl.path(), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  assert.ok(rows.length > 10, `${rows.length} chunks`);
  let last = 1;
  rows.forEach((r, i) => {
    assert.ok(r.page_start >= last && r.page_end >= r.page_start, `chunk ${i}: pages ${r.page_start}–${r.page_end} after ${last}`);
    last = r.page_start;
    const within = pages.slice(r.page_start - 1, r.page_end).join('');
    assert.ok(within.includes(bare(r.text)), `chunk ${i} is not within pages ${r.page_start}–${r.page_end}`);
  });
  assert.equal(rows[0].page_start, 1);
  assert.equal(rows.at(-1).page_end, pages.length);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click(sel('export-csv'))]);
  const header = fs.readFileSync(await csv.path(), 'utf8').split('\r\n')[0];
  assert.ok(header.endsWith(',page_start,page_end'), `CSV header: ${header}`);
  console.log(`moonstone.pdf: ${rows.length} langchain-recursive chunks over ${pages.length} pages, each within the pypdf text of the pages it names`);
  // An edit makes the text the user's own: it has no pages any more.
  await choose(page, 'keep.txt', Buffer.from('This text must stay.'), 'text/plain');
  await countOf(page, 20);
  await page.waitForFunction((s) => !document.querySelector(s), `${sel('chunk-preview')} [data-page-start]`, { timeout: 30_000 });
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('a PDF page the parser cannot read is skipped, and the pages around it are read', async () => {
  const { page, errors } = await openReadyPage(env.browser, env.url);
  await choose(page, 'damaged-page.pdf', fs.readFileSync(path.join(FIXTURES, 'damaged-page.pdf')));
  await settled(page, 'pdf');
  const summary = page.locator(sel('extract-summary'));
  if ((await summary.count()) !== 1) assert.fail(`no summary: ${await page.locator(sel('file-message')).textContent()}`);
  assert.equal(await summary.getAttribute('data-pages'), '3');
  assert.equal(await summary.getAttribute('data-pages-unreadable'), '1');
  const text = 'The first page is whole.\n\nThe third page is whole too.';
  await countOf(page, Buffer.byteLength(text));
  const paged = `${sel('chunk-preview')} [data-page-start]`;
  assert.ok((await page.locator(paged).count()) > 0, 'the preview names the pages');
  // Typing in the box makes the text the user's own: its chunks name no page any more.
  await page.locator(sel('text-input')).press('End');
  await page.keyboard.type('!');
  await countOf(page, Buffer.byteLength(text) + 1);
  await page.waitForFunction((s) => !document.querySelector(s), paged, { timeout: 30_000 });
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('files that are not what they say are refused with their reason, and the text stays', async () => {
  const { page, errors } = await pageHoldingText();
  const cases = [
    ['notes.docx', Buffer.from('plain words, not a zip'), 'not-zip'],
    ['locked.docx', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]), 'encrypted'],
    ['latin1.html', Buffer.from('<p>caf\xe9</p>', 'latin1'), 'not-utf8'],
    ['empty.html', Buffer.from('<!doctype html><script>var x = 1;</script><img src="a.png">'), 'no-text'],
    ['broken.pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 'not-pdf'],
    ['binary.txt', Buffer.from([0x41, 0x00, 0x42]), 'nul-bytes'],
    ['locked.pdf', fs.readFileSync(path.join(FIXTURES, 'locked.pdf')), 'password'],
    ['scanned.pdf', fs.readFileSync(path.join(FIXTURES, 'scanned.pdf')), 'no-text-layer'],
    // Valid UTF-8 with NUL bytes: refused for them, never called "not UTF-8".
    ['nul.txt', Buffer.from('abc\0def\0'.repeat(100)), 'nul-bytes'],
    // UTF-16 with its byte order mark: named as UTF-16.
    ['utf16.txt', Buffer.from('\ufeffПривет, hi', 'utf16le'), 'utf-16'],
  ];
  for (const [name, bytes, reason] of cases) {
    await choose(page, name, bytes);
    await page.waitForFunction(
      ([s, r]) => document.querySelector(s)?.getAttribute('data-reason') === r,
      [sel('file-message'), reason],
      { timeout: 60_000 },
    ).catch(() => {});
    const message = page.locator(sel('file-message'));
    assert.equal(await message.getAttribute('data-reason'), reason, `${name}: ${await message.textContent()}`);
    assert.ok((await message.textContent()).includes(name), `${name}: the message does not name the file`);
    const { tokens } = await countOf(page, 20);
    assert.ok(tokens > 0, `${name}: the text was lost`);
  }
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});

test('the stop button stops a long read and keeps the text', async () => {
  const { page, errors } = await pageHoldingText();
  // About 30 MB of HTML: long enough to read that the stop button is there to be pressed.
  const html = fs.readFileSync(path.join(FIXTURES, 'moonstone.html'), 'utf8');
  const body = html.slice(html.indexOf('<body'), html.lastIndexOf('</body>'));
  const big = `<!doctype html><html><body>${body.repeat(Math.ceil(30e6 / body.length))}</body></html>`;
  await choose(page, 'big.html', Buffer.from(big));
  const stop = page.locator(sel('extract-cancel'));
  await stop.waitFor({ timeout: 60_000 });
  await stop.click();
  const message = page.locator(sel('file-message'));
  assert.equal(await message.getAttribute('data-state'), 'cancelled', await message.textContent());
  await countOf(page, 20);
  assert.equal(await page.locator(sel('extract-summary')).count(), 0, 'a summary after the stop');
  assert.deepEqual(errors, [], 'page errors');
  await page.context().close();
});
