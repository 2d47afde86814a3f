// A small static file server for a built page (Trunk's dist directory), used by the
// end-to-end test and by `make serve-release`. It listens on 127.0.0.1 only, serves files
// under a URL prefix ("/" or a subpath such as "/rag-chunk-calculator/") with correct MIME
// types (application/wasm for .wasm, which WebAssembly.instantiateStreaming requires), and
// answers 404 for everything else, so an asset path that escapes the subpath breaks visibly.
//
// CLI: node static-server.mjs DIR [--prefix /sub/] [--port 8080]

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** MIME types by file extension (lower case, with the dot). */
export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Starts serving `root` under `prefix` on 127.0.0.1:`port` (0 = any free port). With `gzip`,
 * a client that accepts it gets each file gzip-compressed (as a static host serves the site;
 * compressed once per file), so that a test under network emulation waits for the bytes a
 * visitor would.
 * Resolves to { server, port, url } where url is the page's address (ends with the prefix).
 */
export async function startStaticServer({ root, prefix = '/', port = 0, gzip = false }) {
  const compressed = new Map();
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) {
    throw new Error(`prefix must start and end with "/", got ${JSON.stringify(prefix)}`);
  }
  const rootDir = path.resolve(root);
  const rootStat = await stat(rootDir).catch(() => null);
  if (!rootStat || !rootStat.isDirectory()) {
    throw new Error(`static server: ${rootDir} is not a directory (build the page first)`);
  }

  const server = createServer(async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    // The page itself lives at the prefix; "/sub" (no slash) redirects to "/sub/".
    if (prefix !== '/' && pathname === prefix.slice(0, -1)) {
      res.writeHead(301, { location: prefix });
      return res.end();
    }
    if (!pathname.startsWith(prefix)) return send(404, `not found (outside ${prefix})\n`);
    let file = path.join(rootDir, pathname.slice(prefix.length));
    if (file !== rootDir && !file.startsWith(rootDir + path.sep)) return send(404, 'not found\n');
    let info = await stat(file).catch(() => null);
    if (info && info.isDirectory()) {
      file = path.join(file, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info || !info.isFile()) return send(404, 'not found\n');
    const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      if (!compressed.has(file)) compressed.set(file, gzipSync(await readFile(file)));
      const body = compressed.get(file);
      res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'content-encoding': 'gzip', 'cache-control': 'no-store' });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    res.writeHead(200, { 'content-type': type, 'content-length': info.size, 'cache-control': 'no-store' });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actualPort = server.address().port;
  return { server, port: actualPort, url: `http://127.0.0.1:${actualPort}${prefix}` };
}

// CLI entry point.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    if (i === -1) return fallback;
    const value = args[i + 1];
    args.splice(i, 2);
    return value;
  };
  const prefix = opt('--prefix', '/');
  const port = Number(opt('--port', '8080'));
  const root = args[0];
  if (!root || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: node static-server.mjs DIR [--prefix /sub/] [--port 8080]');
    process.exit(2);
  }
  const { url } = await startStaticServer({ root, prefix, port });
  console.log(`serving ${path.resolve(root)} at ${url} (Ctrl-C stops)`);
}
