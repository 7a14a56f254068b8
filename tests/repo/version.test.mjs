// The version the core writes into digests (core/base/version.h) is package.json's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../test_data.mjs';

test('core/base/version.h says package.json version', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const header = readFileSync(join(ROOT, 'core', 'base', 'version.h'), 'utf8');
  assert.equal(/kTracewiseVersion = "([^"]+)"/.exec(header)?.[1], pkg.version);
});
