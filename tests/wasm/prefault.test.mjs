// node:test: Session.prefault (written ahead into the model's reserved memory, then into the heap
// past the allocator's break: wasm/bindings.cc, core/model/prefault.h) called until nothing is left
// between every push leaves the import as it was: the same summary JSON as without, in both analysis
// modes (their allocations then come from touched memory); and it writes no byte already allocated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importBytes, loadModule } from './wasm_node.mjs';
import { readData } from '../test_data.mjs';

function importWith(mod, bytes, prefault) {
  let pages = 0;
  const session = importBytes(
    mod,
    bytes,
    't',
    256 << 10,
    bytes.length,
    prefault
      ? (sn) => {
          for (let n; (n = Number(sn.prefault(4096))) > 0;) pages += n;
        }
      : null
  );
  return { session, pages };
}

test('prefault between pushes gives the summary of an import without', async () => {
  for (const rel of [
    'kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz',
    'hta/tests/data/nccl_parser_config/nccl_data.json.gz',
  ]) {
    const bytes = readData(rel);
    const plainMod = await loadModule();
    const plain = importWith(plainMod, bytes, false);
    const want = plain.session.summaryJson(false);
    const mod = await loadModule();
    const ahead = importWith(mod, bytes, true);
    assert.ok(ahead.pages > 0, `${rel}: nothing was touched`);
    assert.equal(Number(ahead.session.prefault(4096)), 0, 'a finished session touches nothing');
    assert.equal(ahead.session.summaryJson(false), want, rel);
    assert.equal(ahead.session.summaryJson(true), plain.session.summaryJson(true), `${rel} (HTA-compatible)`);
  }
});

test('prefault writes no allocated byte: a staging buffer just allocated keeps its contents', async () => {
  const mod = await loadModule();
  const session = new mod.Session('t');
  const size = 8 << 20; // the newest block, just below the allocator's break
  const ptr = Number(session.stagingBuffer(size));
  mod.HEAPU8.fill(0xab, ptr, ptr + size);
  let pages = 0;
  for (let n; (n = Number(session.prefault(4096))) > 0;) pages += n;
  assert.ok(pages > 0, 'the heap past the break was touched');
  const view = mod.HEAPU8.subarray(ptr, ptr + size);
  assert.equal(
    view.findIndex((b) => b !== 0xab),
    -1,
    'a byte of the buffer was overwritten'
  );
  session.delete();
});
