// A tiny static file server for build/site (used by `make run`, the browser tests and benches).
// Serves only files under the root, on 127.0.0.1, with no special headers the site would depend on.
// A page's Content-Security-Policy goes out again as a header, with the frame-ancestors directive
// that its <meta> cannot carry (web/csp.mjs).
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { headerPolicy, metaPolicyOf } from './csp.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.gz': 'application/gzip',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

export function serve(root, port = 0, host = '127.0.0.1') {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let path = decodeURIComponent(url.pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(base, path));
    if (!file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    let st;
    try {
      st = statSync(file);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    if (!st.isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = {
      'content-type': TYPES[extname(file)] || 'application/octet-stream',
      'content-length': st.size,
      'cache-control': 'no-cache',
    };
    if (extname(file) === '.html') {
      const html = readFileSync(file);
      const policy = metaPolicyOf(html.toString('utf8'));
      const embed = path.endsWith('/embed.html') || url.searchParams.get('embed') === '1';
      if (policy) headers['content-security-policy'] = headerPolicy(policy, embed);
      res.writeHead(200, headers).end(html);
      return;
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, host, () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] || 'build/site';
  const port = Number(process.argv[3] || 8000);
  const server = await serve(root, port);
  console.log(`serving ${root} at http://127.0.0.1:${server.address().port}/`);
}
