// SharedNames (web/timeline/worker_names.ts): a worker sends a name's text once per session; each
// consumer of the same worker (a rank's own view, the job's aligned view) still gets every text
// the first time it meets the id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { SharedNames } = await loadTs('web/timeline/worker_names.ts');
const { kWindowColumns } = await loadTs('web/timeline/window_columns.ts');

function worker() {
  const sent = new Set();
  return {
    request: async (kind, { lanes }) => {
      const cols = Object.fromEntries(Object.entries(kWindowColumns).map(([k, T]) => [k, new T(0)]));
      cols.name = Uint32Array.from(lanes);
      cols.markName = Uint32Array.from([0]);
      const names = {};
      for (const id of lanes)
        if (!sent.has(id)) {
          sent.add(id);
          names[id] = `name ${id}`;
        }
      return { ...cols, lanes, t0: 0, t1: 1, px: 1, names };
    },
  };
}

test('every consumer gets the text of each id it has not seen, once; the raw client remembers them all', async () => {
  const shared = new SharedNames(worker());
  const a = shared.consumer(),
    b = shared.consumer();
  assert.deepEqual((await a.request('window', { lanes: [1, 2] })).names, { 1: 'name 1', 2: 'name 2' });
  assert.deepEqual((await b.request('window', { lanes: [2, 3] })).names, { 2: 'name 2', 3: 'name 3' });
  assert.deepEqual((await a.request('window', { lanes: [2, 3] })).names, { 3: 'name 3' });
  assert.deepEqual((await shared.request('window', { lanes: [4] })).names, { 4: 'name 4' });
  assert.equal(shared.text(4), 'name 4');
  assert.deepEqual((await b.request('window', { lanes: [4, 1] })).names, { 4: 'name 4', 1: 'name 1' });
});
