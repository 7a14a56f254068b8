// web/build.mjs --without: a comparison site built without named speed mechanisms
// (web/load/switches.ts) carries their names in every bundle that reads them; the default site
// carries none; an unknown name is refused before anything is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../test_data.mjs';

const build = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'web/build.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });

test('--without names the mechanisms left out; none by default; unknown names refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-without-'));
  try {
    const a = build('--out', join(dir, 'a'), '--without', 'parts,spare');
    assert.equal(a.status, 0, a.stderr);
    for (const f of ['app.js', 'worker.js']) assert.match(readFileSync(join(dir, 'a', f), 'utf8'), /"parts,spare"/, f);
    const b = build('--out', join(dir, 'b'));
    assert.equal(b.status, 0, b.stderr);
    assert.doesNotMatch(readFileSync(join(dir, 'b', 'worker.js'), 'utf8'), /"parts,spare"/);
    const c = build('--out', join(dir, 'c'), '--without', 'parts,bogus');
    assert.equal(c.status, 2);
    assert.match(c.stderr, /--without bogus: not a mechanism/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
