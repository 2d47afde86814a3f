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
// its form, disabled in the markup for a browser without JavaScript, is enabled now, and a
// file dropped anywhere on the page is held here instead of the browser opening it in place of
// the page. The app takes both over when it mounts (src/prerendered.rs: it reads the form's
// controls marked edited and `ragChunkCalculatorEarly.files`, then sets the global to undefined,
// after which drops are the live page's). An edit shows the notice that it is kept
// (#boot-waiting).
const prerendered = document.getElementById('prerendered');
const early = { files: null };
globalThis.ragChunkCalculatorEarly = early;
if (prerendered) {
  prerendered.disabled = false;
  prerendered.setAttribute('data-waiting', '');
  // Marks each control the visitor edits (`data-edited`): only those are handed over, so that
  // what the live app starts from (a saved language, a settings link) is not undone by the
  // prerendered page's defaults.
  const edited = (ev) => {
    ev.target?.setAttribute?.('data-edited', '');
    document.getElementById('boot-waiting')?.removeAttribute('hidden');
  };
  prerendered.addEventListener('input', edited);
  prerendered.addEventListener('change', edited);
}
const holdDrop = (ev) => {
  if (globalThis.ragChunkCalculatorEarly !== early || !ev.dataTransfer?.types?.includes('Files')) return;
  ev.preventDefault();
  if (ev.type === 'drop' && ev.dataTransfer.files.length > 0) {
    early.files = ev.dataTransfer.files;
    document.getElementById('boot-waiting')?.removeAttribute('hidden');
  }
};
addEventListener('dragover', holdDrop);
addEventListener('drop', holdDrop);

const tag = document.querySelector('script[data-wasm]');
try {
  const { default: init } = await import(tag.dataset.js);
  const wasm = await init({ module_or_path: tag.dataset.wasm });
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
} catch (err) {
  // The page's module did not arrive or start: the prerendered page (crates/prerender) stays,
  // its controls disabled, so it says so with the notice the build put in it (hidden until
  // now) instead of looking as if it were about to work.
  console.error(`the page did not start: ${err}`);
  if (prerendered) {
    prerendered.disabled = true;
    prerendered.removeAttribute('data-waiting');
    prerendered.setAttribute('data-failed', '');
  }
  document.getElementById('boot-waiting')?.setAttribute('hidden', '');
  document.getElementById('boot-failed')?.removeAttribute('hidden');
}
