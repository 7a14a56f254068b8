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

// A spare worker's heap faulted in ahead (prefaultHeapAhead, web/load/warm/heap_ahead.ts): the heap
// grows to the target once, every page above the break is written once (then 0), no allocated byte
// is written, and an import into that heap gives the summary it gives in a fresh module.
test('prefaultHeapAhead grows the heap to its target, writes only free pages, changes no import', async () => {
  const mod = await loadModule();
  const keep = new mod.Session('keep'); // its staging buffer: an allocation just below the break
  const ptr = Number(keep.stagingBuffer(4 << 20));
  mod.HEAPU8.fill(0xcd, ptr, ptr + (4 << 20));
  const target = 64 << 20;
  const before = mod.HEAPU8.length;
  assert.ok(before < target, `the heap starts below the target (${before})`);
  let pages = 0,
    calls = 0;
  for (let n; (n = Number(mod.prefaultHeapAhead(target, 512))) > 0; calls++) {
    assert.ok(n <= 512, 'at most max_pages per call');
    pages += n;
  }
  assert.ok(mod.HEAPU8.length >= target, `the heap grew to ${mod.HEAPU8.length}`);
  // The break (what allocations claimed) is not moved by the memory faulted in ahead.
  assert.ok(
    Number(mod.heapBreak()) >= ptr + (4 << 20) && Number(mod.heapBreak()) < 16 << 20,
    `break ${mod.heapBreak()}`
  );
  assert.ok(calls > 1, 'in steps');
  assert.ok(pages * 4096 >= target - before && pages * 4096 <= mod.HEAPU8.length, `${pages} pages`);
  assert.equal(Number(mod.prefaultHeapAhead(target, 512)), 0, 'nothing left to touch');
  assert.equal(
    mod.HEAPU8.subarray(ptr, ptr + (4 << 20)).findIndex((b) => b !== 0xcd),
    -1,
    'an allocated byte was written'
  );
  keep.delete();

  const bytes = readData('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
  const fresh = importWith(await loadModule(), bytes, false);
  const breakBefore = Number(mod.heapBreak());
  const ahead = importWith(mod, bytes, false);
  assert.equal(ahead.session.summaryJson(false), fresh.session.summaryJson(false));
  assert.ok(Number(mod.heapBreak()) > breakBefore, 'an import moves the break');
});

// While it waits for input, a session writes ahead only what it may still allocate past the break
// (a window by its size hint): not the rest of a heap grown ahead for larger files, and not pages
// the spare's heap-ahead already wrote (one mark for both).
test('a session writes past the break only a window for its size, and not what the heap-ahead wrote', async () => {
  const waitingTouches = async (aheadPages) => {
    const mod = await loadModule();
    assert.equal(
      Number(mod.prefaultHeapAhead(256 << 20, aheadPages)),
      aheadPages,
      'heap-ahead wrote what it was asked'
    );
    assert.ok(mod.HEAPU8.length >= 256 << 20);
    const session = new mod.Session('t');
    session.setSizeHint(8 << 20);
    let pages = 0;
    for (let n; (n = Number(session.prefault(4096))) > 0;) pages += n;
    session.delete();
    return pages;
  };
  const grownOnly = await waitingTouches(0); // grown to 256 MB, nothing written
  assert.ok(grownOnly >= 4095, `${grownOnly} pages: at least the 16 MB window`);
  assert.ok(grownOnly * 4096 < 48 << 20, `${grownOnly} pages written: more than an 8 MB file may need`);
  const writtenAhead = await waitingTouches(8192); // 32 MB past the break written by the heap-ahead
  assert.ok(
    grownOnly - writtenAhead >= 4096 - 256,
    `${grownOnly} vs ${writtenAhead} pages: the heap-ahead's written again`
  );
});
