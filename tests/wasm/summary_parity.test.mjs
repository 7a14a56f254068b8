// node:test: the wasm build gives the same summary JSON, byte for byte, as the native CLI
// (`build/native/tracewise summarize FILE`) on every file of tests/data (MANIFEST.tsv), in
// both analysis modes; files that are not traces fail in both with the same message. Both builds
// must come from the same sources (`make build` rebuilds whatever is stale).
// Overrides: TW_NATIVE_CLI, TW_WASM_DIR, TW_TEST_DATA, TW_PARITY_FILTER (substring of a path).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule, importFile, WASM_DIR } from './wasm_node.mjs';
import { DATA, manifest } from '../test_data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
const CLI = process.env.TW_NATIVE_CLI ?? join(ROOT, 'build', 'native', 'tracewise');
const DIR = process.env.TW_WASM_DIR ?? WASM_DIR;
const FILTER = process.env.TW_PARITY_FILTER ?? '';

function manifestPaths() {
  const rows = manifest();
  assert.ok(
    rows.every((r) => r.local_path),
    'MANIFEST.tsv has no local_path column'
  );
  return rows.map((r) => r.local_path).filter((p) => p.includes(FILTER));
}

function native(path, htaCompat) {
  const args = ['summarize', ...(htaCompat ? ['--hta-compat'] : []), path];
  const r = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// The first differing position with some context, so a failure says where the documents diverge.
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return (
    `at char ${i}:\n  native: ${JSON.stringify(a.slice(Math.max(0, i - 80), i + 80))}\n` +
    `  wasm:   ${JSON.stringify(b.slice(Math.max(0, i - 80), i + 80))}`
  );
}

let mod;
before(async () => {
  assert.ok(existsSync(CLI), `native CLI not built: ${CLI} (make native)`);
  assert.ok(existsSync(join(DIR, 'tracewise.wasm')), `wasm build missing in ${DIR} (make wasm)`);
  mod = await loadModule(DIR);
});

const paths = manifestPaths();

test('the MANIFEST lists the test traces', () => {
  assert.ok(FILTER || paths.length >= 50, `only ${paths.length} files in ${DATA}/MANIFEST.tsv`);
});

for (const rel of paths) {
  test(`wasm summary equals native: ${rel}`, async () => {
    const path = join(DATA, rel);
    const session = await importFile(mod, path);
    try {
      for (const htaCompat of [false, true]) {
        const n = native(path, htaCompat);
        if (session.failed()) {
          assert.equal(n.status, 1, `wasm failed (${session.error()}) but native exited ${n.status}`);
          assert.equal(n.stderr, `tracewise: ${path}: ${session.error()}\n`);
          continue;
        }
        assert.equal(n.status, 0, `native failed: ${n.stderr}`);
        const expected = n.stdout.endsWith('\n') ? n.stdout.slice(0, -1) : n.stdout;
        const got = session.summaryJson(htaCompat);
        if (got !== expected) {
          assert.fail(`summary differs (hta_compat=${htaCompat}) ${firstDifference(expected, got)}`);
        }
      }
    } finally {
      session.delete();
    }
  });
}
