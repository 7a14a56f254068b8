// The trace worker's import loop (web/load/trace/import_pump.ts, bundled here with esbuild) against a
// scripted input and a stand-in Session: it reads the input a batch at a time, stages the bytes and
// pushes them 4 MB at a time, gives each chunk back to the reader once copied (or skipped), and
// stops reading as soon as a push fails the session (a file that is not a trace is not read to its
// end), when the open is cancelled (the worker then cancels the input as a whole), or, for gzip,
// where DecompressionStream rejects the data (what came before is kept).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { ImportPump } = await loadTs('web/load/trace/import_pump.ts');

const kChunk = 64 << 10; // one of DecompressionStream's chunks
const kPerBatch = 32; // the feed worker's batch: 2 MB
const kPush = 4 << 20; // HeapPusher's batch

// A Session that fails at its `failAt`-th push (never when null), and its module's heap.
function fakeCore(failAt = null) {
  const pushes = [];
  const session = {
    stagingBuffer: () => 0,
    pushStaged: (n) => {
      pushes.push(n);
    },
    failed: () => failAt !== null && pushes.length >= failAt,
  };
  return { mod: { HEAPU8: new Uint8Array(kPush) }, session, pushes };
}

// `batches` reads of `perBatch` chunks, then the end (null); `rejectAt`: that read rejects instead.
function fakeSource(batches, { gzip = false, rejectAt = null, perBatch = kPerBatch, damage = [] } = {}) {
  const src = {
    reads: 0,
    given: 0,
    released: new Set(),
    gzip,
    gzipDamage: () => damage,
    release: (chunk) => {
      assert.ok(!src.released.has(chunk), 'a chunk given back twice');
      src.released.add(chunk);
    },
    input: {
      read: async () => {
        const k = src.reads++;
        if (k === rejectAt) throw new TypeError('Decompression failed');
        if (k >= batches) return null;
        src.given += perBatch;
        return Array.from({ length: perBatch }, () => new Uint8Array(kChunk));
      },
      cancel: async () => {},
    },
  };
  return src;
}

const pumpOf = (core, cancelled = () => false) => new ImportPump(core.mod, core.session, 0, cancelled, () => {});

test('a trace: every batch is read, pushed 4 MB at a time with the last part flushed, and every chunk given back', async () => {
  const core = fakeCore();
  const src = fakeSource(9); // 18 MB
  const pump = pumpOf(core);
  await pump.pump(src);
  assert.equal(src.reads, 10); // nine batches and the end
  assert.deepEqual(core.pushes, [kPush, kPush, kPush, kPush, 2 << 20]);
  assert.equal(pump.input, 18 << 20);
  assert.equal(src.released.size, src.given);
  assert.deepEqual(pump.warnings, []);
});

test('not a trace: reading stops at the push that failed the session; the rest of that batch is given back', async () => {
  const core = fakeCore(1); // the first push (after 4 MB, the second batch's last chunk) fails it
  const src = fakeSource(50); // 100 MB that must not be read
  const pump = pumpOf(core);
  await pump.pump(src);
  assert.equal(src.reads, 2);
  assert.equal(core.pushes.length, 1);
  assert.equal(pump.input, kPush);
  assert.equal(src.released.size, src.given);
});

test('not a trace, failing mid-batch: the chunks after the failed push are given back, not pushed', async () => {
  const core = fakeCore(1);
  const src = fakeSource(50, { perBatch: 48 }); // 3 MB batches: the first push comes 16 chunks into the second
  const pump = pumpOf(core);
  await pump.pump(src);
  assert.equal(src.reads, 2);
  assert.equal(pump.input, kPush); // 64 chunks pushed; the second batch's last 32 only given back
  assert.equal(src.released.size, 96);
});

test('a cancel stops the pump at its next read', async () => {
  const core = fakeCore();
  const src = fakeSource(50);
  let cancel = false;
  const pump = pumpOf(core, () => cancel);
  const inner = src.input.read;
  src.input.read = async () => {
    const b = await inner();
    if (src.reads === 3) cancel = true;
    return b;
  };
  await assert.rejects(pump.pump(src), (e) => e.code === 'cancelled');
  assert.equal(src.reads, 3);
  assert.equal(pump.input, 4 << 20); // the third batch was never pushed
});

test('gzip data that ends early: what came before is kept, with a warning', async () => {
  const core = fakeCore();
  const src = fakeSource(50, { gzip: true, rejectAt: 3 });
  const pump = pumpOf(core);
  await pump.pump(src);
  assert.equal(pump.input, 6 << 20);
  assert.deepEqual(core.pushes, [kPush, 2 << 20]); // the staged rest is flushed
  assert.equal(pump.warnings.length, 1);
  assert.match(pump.warnings[0], /gzip data ends early/);
});

test('gzip data that inflated with damage: all of it is pushed, and each damage is one warning', async () => {
  const core = fakeCore();
  const damage = [{ kind: 'trailer', member: 2 }, { kind: 'truncated' }];
  const src = fakeSource(3, { gzip: true, damage });
  const pump = pumpOf(core);
  await pump.pump(src);
  assert.equal(pump.input, 6 << 20);
  assert.deepEqual(pump.warnings, [
    'gzip member 2: the CRC-32 or size in its trailer does not match its data; all of its data is loaded.',
    'The gzip data ends early (truncated); what was decompressed before that point is loaded.',
  ]);
});

test('a plain input whose read fails is an error, not a warning', async () => {
  const core = fakeCore();
  const src = fakeSource(50, { rejectAt: 1 });
  const pump = pumpOf(core);
  await assert.rejects(pump.pump(src), /Decompression failed/);
});
