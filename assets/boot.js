// Loads the wasm app. This is an external module rather than Trunk's inline loader so that the
// page's Content-Security-Policy can forbid every inline script. Trunk writes the hashed names
// of the wasm-bindgen glue and of the .wasm into this script tag's data attributes.
//
// It also registers the service worker (assets/sw.js), which keeps a copy of the page and its
// files on this device so that it opens and counts offline. Its scope is the page's own
// directory (document.baseURI: "/" or the subpath Trunk's public URL gives). It is registered
// once the page has settled — its workers' modules have arrived, or could not (the app
// dispatches `rag-chunk-calculator-settled`, src/browser.rs) — because its install fetches
// every file again to keep it, which on a first visit over a slow connection would otherwise
// compete with the page's own downloads. Where the browser has no service workers or refuses
// one (a private window, an insecure origin), the page works as before, online only.
if ('serviceWorker' in navigator) {
  const register = () => {
    const scope = new URL('./', document.baseURI);
    navigator.serviceWorker
      .register(new URL('sw.js', scope), { scope: scope.pathname })
      .catch((err) => console.warn(`no offline copy of this page: ${err}`));
  };
  addEventListener('rag-chunk-calculator-settled', register, { once: true });
}

// The page's module loads the tokenizer's module on its own thread when no worker runs
// (src/tokenize/local.rs). A dynamic import() is syntax, with no binding the Rust side can
// call, so this loader offers it (an absolute URL: the caller resolves it against the base).
globalThis.ragChunkCalculatorImport = (url) => import(url);

// Until the page's module has started, the prerendered page (crates/prerender) takes input:
// its form, disabled in the markup for a browser without JavaScript, is enabled now (its
// buttons stay disabled: they have nothing to do yet), and a file dropped anywhere on the page
// is held here instead of the browser opening it in place of the page. The app takes it all
// over when it mounts (src/prerendered.rs: it reads the controls marked `data-edited`, the
// focused control, and `ragChunkCalculatorEarly`'s held drop (`files`) or large paste
// (`paste`), the newer of the two only, then sets the global to undefined, after which drops
// are the live page's). An edit shows the notice that it is kept (#boot-waiting).
const prerendered = document.getElementById('prerendered');
const early = { files: null, paste: null };
globalThis.ragChunkCalculatorEarly = early;
const waiting = document.getElementById('boot-waiting');
const box = prerendered?.querySelector('textarea[data-testid="text-input"]');
/** Lets a held paste go (a newer edit of the text came): the box takes typing again. */
const dropPaste = () => {
  early.paste = null;
  if (box) box.readOnly = false;
};
if (prerendered) {
  for (const button of prerendered.querySelectorAll('button')) button.disabled = true;
  prerendered.disabled = false;
  // Only the controls marked `data-edited` are handed over, so that what the live app starts
  // from (a saved language, a settings link) is not undone by the prerendered defaults. A
  // control the browser filled in again (coming back to the page) counts as edited too.
  const mark = (el) => el.setAttribute('data-edited', '');
  for (const el of prerendered.querySelectorAll('input, textarea, select')) {
    const restored = el.type === 'checkbox' || el.type === 'radio'
      ? el.checked !== el.defaultChecked
      : el.tagName === 'SELECT'
        ? [...el.options].some((o) => o.selected !== o.defaultSelected)
        : el.type !== 'file' && el.value !== el.defaultValue;
    if (restored) mark(el);
  }
  // A file picked after a drop or a held paste is the newer edit of the text, as is a text
  // typed after a drop: what was held is let go.
  // The prerendered status ("No text yet") is the build's, not the visitor's: once they have
  // given a text, #boot-waiting speaks for it instead.
  const status = prerendered.querySelector('[data-testid="status"]');
  const textGiven = () => status?.setAttribute('hidden', '');
  const edited = (ev) => {
    if (!(ev.target instanceof Element)) return;
    mark(ev.target);
    if (ev.target.matches('[data-testid="text-input"], [data-testid="file-input"]')) textGiven();
    if (ev.target.matches('[data-testid="text-input"]')) early.files = null;
    if (ev.target.matches('[data-testid="file-input"]')) {
      early.files = null;
      dropPaste();
    }
    waiting?.removeAttribute('hidden');
  };
  prerendered.addEventListener('input', edited);
  prerendered.addEventListener('change', edited);
  // A paste that makes the box's text larger than the live box shows is held back, as the
  // live box holds it back (laying out megabytes in a textarea takes seconds): the box keeps
  // its text and turns read-only, and the app pastes the held text where the selection was.
  // The rule is the live box's own (`src/file_input.rs`, `on_paste`: the box's and the
  // paste's UTF-8 bytes together over LARGE_TEXT_BYTES, which the box states in
  // `data-large-text`); a change there is made here too. Another paste while one is held
  // takes its place (the box is read-only, so the browser would insert nothing).
  const large = Number(box?.dataset.largeText);
  box?.addEventListener('paste', (ev) => {
    const text = ev.clipboardData?.getData('text') ?? '';
    const bytes = (s) => new TextEncoder().encode(s).length;
    if (!early.paste && !(large > 0 && bytes(box.value) + bytes(text) > large)) return; // the browser inserts it
    ev.preventDefault();
    early.paste = early.paste
      ? { ...early.paste, text }
      : { text, start: box.selectionStart, end: box.selectionEnd };
    early.files = null;
    box.readOnly = true;
    mark(box);
    textGiven();
    waiting?.removeAttribute('hidden');
  });
}
const holdDrop = (ev) => {
  if (globalThis.ragChunkCalculatorEarly !== early || !ev.dataTransfer?.types?.includes('Files')) return;
  ev.preventDefault();
  if (ev.type === 'drop' && ev.dataTransfer.files.length > 0) {
    early.files = ev.dataTransfer.files;
    dropPaste();
    prerendered?.querySelector('[data-testid="status"]')?.setAttribute('hidden', '');
    waiting?.removeAttribute('hidden');
  }
};
addEventListener('dragover', holdDrop);
addEventListener('drop', holdDrop);

// The browser's number formatter (`Intl.NumberFormat`, which src/format.rs uses for every
// figure) costs 20–60 ms the first time a page builds one (the browser sets up its locale data),
// then a fraction of a millisecond. The app's first render formats the results card's figures,
// so that set-up is done here, in a task of its own after the page's module is asked for, while
// it downloads, instead of after it has arrived. Nothing it formats is shown.
setTimeout(() => new Intl.NumberFormat('en-US').format(0), 0);

const tag = document.querySelector('script[data-wasm]');
try {
  const { default: init } = await import(tag.dataset.js);
  const wasm = await init({ module_or_path: tag.dataset.wasm });
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
} catch (err) {
  // The page's module did not arrive or start: the prerendered page (crates/prerender) stays,
  // its controls off, so it says so with the notice the build put in it (hidden until
  // now) instead of looking as if it were about to work.
  console.error(`the page did not start: ${err}`);
  // Nothing will take a drop now: the browser's own handling comes back.
  globalThis.ragChunkCalculatorEarly = undefined;
  // What was typed stays readable and can be copied (a disabled box could not be selected);
  // nothing else takes input.
  if (prerendered) {
    for (const el of prerendered.querySelectorAll('input, textarea')) {
      if (el.type === 'file' || el.type === 'checkbox' || el.type === 'radio') el.disabled = true;
      else el.readOnly = true;
    }
    for (const el of prerendered.querySelectorAll('select')) el.disabled = true;
    prerendered.setAttribute('data-failed', '');
  }
  document.getElementById('boot-waiting')?.setAttribute('hidden', '');
  document.getElementById('boot-failed')?.removeAttribute('hidden');
}
