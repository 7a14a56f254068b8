// The flame graph's call tree requests (web/flame/tree_cache.ts): one request per range and
// direction, the last four kept, a failed request asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { TreeCache } = await loadTs('web/flame/tree_cache.ts');

test('each range and direction is asked once; the oldest beyond four are dropped; failures are forgotten', async () => {
  const asked = [];
  let fail = false;
  const cache = new TreeCache(async (range, bottomUp) => {
    asked.push(`${range ? range.fromNs : 'all'}:${bottomUp}`);
    if (fail) throw new Error('no');
    return { size: asked.length };
  });
  const a = await cache.get(null, false);
  assert.equal(await cache.get(null, false), a);
  await cache.get(null, true);
  await cache.get({ fromNs: 1, toNs: 2 }, false);
  assert.deepEqual(asked, ['all:false', 'all:true', '1:false']);
  for (const from of [10, 20, 30]) await cache.get({ fromNs: from, toNs: 99 }, false);
  await cache.get(null, false); // the oldest, dropped: asked again
  assert.equal(asked.at(-1), 'all:false');
  assert.equal(asked.length, 7);
  assert.ok(cache.lastMs >= 0);
  fail = true;
  await assert.rejects(cache.get({ fromNs: 5, toNs: 6 }, true));
  fail = false;
  await cache.get({ fromNs: 5, toNs: 6 }, true);
  assert.deepEqual(asked.slice(-2), ['5:true', '5:true']);
});
