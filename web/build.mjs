// Builds the static site: bundles the page (web/app) and the trace worker (web/worker) with esbuild,
// copies public/ (index.html, styles' assets, the sample trace, the service worker) and the wasm core
// from build/wasm. Usage: node web/build.mjs [--out build/site] [--wasm build/wasm] [--dev]
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const out = resolve(root, arg('--out', 'build/site'));
const wasmDir = resolve(root, arg('--wasm', 'build/wasm'));
const dev = process.argv.includes('--dev');

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

const common = {
  bundle: true, format: 'esm', target: ['chrome113', 'firefox113', 'safari16.4'], minify: !dev, sourcemap: 'linked',
  legalComments: 'linked', logLevel: 'warning', absWorkingDir: root,
};
await Promise.all([
  build({ ...common, entryPoints: { app: 'web/app/main.ts' }, outdir: out, loader: { '.css': 'css' } }),
  // The worker loads tracewise.mjs at run time (import of a computed URL), so it is not bundled.
  build({ ...common, entryPoints: { worker: 'web/worker/worker.ts' }, outdir: out }),
  // Started by the trace worker to read (and inflate) a local file beside the parser.
  build({ ...common, entryPoints: { feed: 'web/worker/feed_worker.ts' }, outdir: out }),
  // Started by the trace worker to import later parts of a large plain file beside it.
  build({ ...common, entryPoints: { part: 'web/worker/part_worker.ts' }, outdir: out }),
  // Started by the trace worker to decode events of a large file beside it.
  build({ ...common, entryPoints: { decode: 'web/worker/decode_worker.ts' }, outdir: out }),
  // <tracewise-view> for docs sites: one classic script (document.currentScript gives its base URL).
  build({ ...common, format: 'iife', entryPoints: { 'tracewise-view': 'web/embed/element.ts' }, outdir: out }),
]);

const size = (f) => (statSync(join(out, f)).size / 1024).toFixed(0);
console.log(`site: ${out} (app.js ${size('app.js')} KB, app.css ${size('app.css')} KB, worker.js ${size('worker.js')} KB, ` +
  `tracewise.wasm ${size('tracewise.wasm')} KB) in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
