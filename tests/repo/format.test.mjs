// node:test: the TypeScript and JavaScript of web/, tests/ and bench/ are as prettier writes them
// (.prettierrc.json, .prettierignore), so a diff shows changes, not layout. Fix: make format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../test_data.mjs';

export const kPrettierGlobs = ['web/**/*.{ts,mjs}', 'tests/**/*.mjs', 'bench/*.mjs'];

test('prettier finds nothing to change', () => {
  const bin = join(ROOT, 'node_modules', '.bin', 'prettier');
  const r = spawnSync(bin, ['--check', '--log-level', 'warn', ...kPrettierGlobs], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `not formatted (make format):\n${r.stdout}${r.stderr}`);
});
