// node:test: Session.presortStep (flow points sorted ahead of finish(), core/model/flow_presort.h),
// called until it has nothing left between every push, as the worker does while it waits for input,
// leaves the import as it was: the same summary JSON as without, in both analysis modes, on a real
// trace with ~42 k flow events (6.6 k flows), so that the default limits make several runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importBytes, loadModule } from './wasm_node.mjs';
import { readData } from '../test_data.mjs';

function importWith(mod, bytes, presort) {
  let steps = 0;
  const session = importBytes(
    mod,
    bytes,
    't',
    256 << 10,
    bytes.length,
    presort
      ? (sn) => {
          while (sn.presortStep()) steps++;
        }
      : null
  );
  return { session, steps };
}

test('flow presort steps between pushes give the summary of an import without', async () => {
  const rel = 'hta/tests/data/negative_queue_length_values_check/rank0.json.gz';
  const bytes = readData(rel);
  const mod = await loadModule();
  const plain = importWith(mod, bytes, false);
  const ahead = importWith(mod, bytes, true);
  assert.ok(ahead.steps >= 3, `only ${ahead.steps} presort steps`);
  assert.equal(ahead.session.presortStep(), false, 'a finished session has nothing to sort');
  const want = JSON.parse(plain.session.summaryJson(false));
  assert.ok(want.files[0].model.flows > 5000, `${want.files[0].model.flows} flows`);
  assert.equal(ahead.session.summaryJson(false), plain.session.summaryJson(false));
  assert.equal(ahead.session.summaryJson(true), plain.session.summaryJson(true), 'HTA-compatible');
  plain.session.delete();
  ahead.session.delete();
});
