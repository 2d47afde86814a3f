// Loads the wasm app. This is an external module rather than Trunk's inline loader so that the
// page's Content-Security-Policy can forbid every inline script. Trunk writes the hashed names
// of the wasm-bindgen glue and of the .wasm into this script tag's data attributes.
const tag = document.querySelector('script[data-wasm]');
const { default: init } = await import(tag.dataset.js);
const wasm = await init({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
