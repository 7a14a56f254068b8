// Track names come a page at a time (web/timeline/track_names.ts): one request per page however many
// rows of it are asked for, none for a page that is here, and a page that failed is not asked for
// again on every frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { TrackNames, kNamePage } = await loadTs('web/timeline/track_names.ts');

test('names by page: fetched once, groups and tracks apart, a failed page kept empty', async () => {
  const asked = [];
  let loaded = 0,
    errors = 0;
  const names = new TrackNames(
    async (groups, first, count) => {
      asked.push([groups, first, count]);
      if (first === 3 * kNamePage) throw new Error('gone');
      return Array.from({ length: count }, (_, i) => `${groups ? 'g' : 't'}${first + i}`);
    },
    () => loaded++,
    () => errors++
  );
  const p = names.load(false, [0, 1, kNamePage + 2, 5]);
  assert.equal(names.pending, 2);
  await Promise.all([p, names.load(false, [3])]);
  assert.deepEqual(asked, [
    [false, 0, kNamePage],
    [false, kNamePage, kNamePage],
  ]);
  assert.equal(names.track(kNamePage + 2), `t${kNamePage + 2}`);
  assert.equal(names.group(0), undefined, 'groups are apart');
  await names.load(true, [0]);
  assert.equal(names.group(0), 'g0');
  await names.load(false, [3 * kNamePage + 1]);
  await names.load(false, [3 * kNamePage + 1]);
  assert.equal(errors, 1);
  assert.equal(names.track(3 * kNamePage + 1), undefined);
  assert.equal(asked.length, 4);
  assert.equal(loaded, 3);
  assert.equal(names.pending, 0);
});
