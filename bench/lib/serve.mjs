// The static server of the Chromium runs (browser.mjs, strategies.mjs): bench/ at /, and the
// assembled corpus (target/bench/, lib/corpus.mjs) at /data/, on 127.0.0.1, a free port, with
// application/wasm for .wasm and no caching.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { OUT } from "./corpus.mjs";

const BENCH = path.resolve(import.meta.dirname, "..");

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/** Starts the server; resolves to the listening http.Server (its port: `server.address().port`). */
export function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const rel = decodeURIComponent(url.pathname);
    const [root, sub] = rel.startsWith("/data/") ? [OUT, rel.slice("/data/".length)] : [BENCH, rel.slice(1)];
    const file = path.resolve(root, sub);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`not found: ${rel}`);
      return;
    }
    res.writeHead(200, {
      "content-type": MIME[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
