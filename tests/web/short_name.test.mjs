// Slice labels (web/timeline/short_name.ts, bundled with esbuild): demangled kernel signatures are
// shortened to their qualified name; a wrapper template keeps the kernel it wraps; other names stay.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from './load_ts.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let m;
before(async () => {
  m = await loadTs('web/timeline/short_name.ts');
});

test('the shared normalisation cases (tests/short_names.json, also checked against the core)', () => {
  const { cases } = JSON.parse(readFileSync(join(ROOT, 'tests', 'short_names.json'), 'utf8'));
  assert.ok(cases.length >= 20);
  for (const [full, short] of cases) assert.equal(m.shortKernelName(full), short, full);
  assert.equal(m.sliceLabel(cases[0][0]), cases[0][1]);
});
