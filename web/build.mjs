// Builds the static site: bundles the page (web/app) and the trace worker (web/worker) with esbuild,
// copies public/ (index.html, styles' assets, the sample trace, the service worker) and the wasm core
// from build/wasm. Usage: node web/build.mjs [--out build/site] [--wasm build/wasm] [--dev] [--without a,b]
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pagePolicy } from './csp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const out = resolve(root, arg('--out', 'build/site'));
const wasmDir = resolve(root, arg('--wasm', 'build/wasm'));
const dev = process.argv.includes('--dev');
// --without a,b: a comparison site without these speed mechanisms (web/load/switches.ts names them).
const withoutList = arg('--without', '').split(',').filter(Boolean);
const known = [...readFileSync(join(root, 'web/load/switches.ts'), 'utf8').matchAll(/^  '([a-z-]+)',/gm)].map(
  (m) => m[1]
);
for (const name of withoutList) {
  if (!known.includes(name)) {
    console.error(`web/build.mjs: --without ${name}: not a mechanism of web/load/switches.ts (${known.join(', ')}).`);
    process.exit(2);
  }
}

for (const f of ['tracewise.mjs', 'tracewise.wasm']) {
  if (!existsSync(join(wasmDir, f))) {
    console.error(`web/build.mjs: ${join(wasmDir, f)} is missing; build the wasm core first (make wasm).`);
    process.exit(1);
  }
}

const t0 = performance.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(root, 'public'), out, { recursive: true });
for (const f of ['tracewise.mjs', 'tracewise.wasm']) cpSync(join(wasmDir, f), join(out, f));
// Every page carries the site's Content-Security-Policy (web/csp.mjs) in its placeholder <meta>;
// a page without one would go out unprotected, so the build stops instead.
const policy = pagePolicy(root);
for (const page of readdirSync(out).filter((f) => f.endsWith('.html'))) {
  const html = readFileSync(join(out, page), 'utf8');
  const marked = html.replace(
    /(<meta http-equiv="Content-Security-Policy" content=")\(written by web\/build\.mjs from web\/csp\.mjs\)(">)/,
    `$1${policy}$2`
  );
  if (marked === html) {
    console.error(
      `web/build.mjs: public/${page} lacks the Content-Security-Policy placeholder <meta> (see web/csp.mjs).`
    );
    process.exit(1);
  }
  writeFileSync(join(out, page), marked);
}
// The site carries its license and the texts of the licenses of what it ships
// (THIRD_PARTY_NOTICES.md); esbuild adds the bundled packages' own comments as *.LEGAL.txt.
const licenses = {
  'LICENSE.txt': 'LICENSE',
  'THIRD_PARTY_NOTICES.md': 'THIRD_PARTY_NOTICES.md',
  'simdjson-LICENSE.txt': 'node_modules/@nozbe/simdjson/LICENSE',
  'uplot-LICENSE.txt': 'node_modules/uplot/LICENSE',
  'nlohmann-json-copyright.txt': '/usr/share/doc/nlohmann-json3-dev/copyright',
  'emscripten-copyright.txt': '/usr/share/doc/emscripten/copyright',
};
mkdirSync(join(out, 'licenses'));
for (const [name, from] of Object.entries(licenses)) cpSync(resolve(root, from), join(out, 'licenses', name));

const common = {
  bundle: true,
  format: 'esm',
  target: ['chrome113', 'firefox113', 'safari16.4'],
  minify: !dev,
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  define: { TW_WITHOUT: JSON.stringify(withoutList.join(',')) },
};
await Promise.all([
  build({ ...common, entryPoints: { app: 'web/app/main.ts' }, outdir: out, loader: { '.css': 'css' } }),
  // The worker loads tracewise.mjs at run time (import of a computed URL), so it is not bundled.
  build({ ...common, entryPoints: { worker: 'web/worker/worker.ts' }, outdir: out }),
  // Started by the trace worker to read (and inflate) a local file beside the parser.
  build({ ...common, entryPoints: { feed: 'web/load/feed/worker.ts' }, outdir: out }),
  // Started by the trace worker to import later parts of a large plain file beside it.
  build({ ...common, entryPoints: { part: 'web/load/parts/worker.ts' }, outdir: out }),
  // <tracewise-view> for docs sites: one classic script (document.currentScript gives its base URL).
  build({ ...common, format: 'iife', entryPoints: { 'tracewise-view': 'web/embed/element.ts' }, outdir: out }),
  // embed.html's redirect to embed mode (a file: the policy admits no inline script).
  build({ ...common, format: 'iife', entryPoints: { embed: 'web/embed/redirect.ts' }, outdir: out }),
]);

const size = (f) => (statSync(join(out, f)).size / 1024).toFixed(0);
console.log(
  `site: ${out} (app.js ${size('app.js')} KB, app.css ${size('app.css')} KB, worker.js ${size('worker.js')} KB, ` +
    `tracewise.wasm ${size('tracewise.wasm')} KB) in ${((performance.now() - t0) / 1000).toFixed(2)} s`
);
