// node:test wrapper of check_summaries.mjs: one test per golden trace; the import/model sections of
// the native CLI's summary must equal tests/golden/expected/. To accept an intended change:
// `node tests/golden/check_summaries.mjs --update`, then review the diff of tests/golden/expected/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { CLI, GOLDEN_TRACES, checkOne } from './check_summaries.mjs';

test('the native CLI is built', () => {
  assert.ok(existsSync(CLI), `native CLI not built: ${CLI} (make native)`);
});

for (const rel of GOLDEN_TRACES) {
  test(`golden import/model sections: ${rel}`, () => {
    const diffs = checkOne(rel);
    assert.deepEqual(
      diffs,
      [],
      `${diffs.length} difference(s); if intended, run ` +
        '`node tests/golden/check_summaries.mjs --update` and review the diff'
    );
  });
}
