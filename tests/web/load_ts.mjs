// One TypeScript module of web/ (and what it imports), bundled with esbuild and imported, so that
// node tests can run the page's pure code.
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// rel: the module's path from the repository root, e.g. 'web/app/format.ts'.
export async function loadTs(rel) {
  const out = await build({
    entryPoints: [resolve(ROOT, rel)],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}
