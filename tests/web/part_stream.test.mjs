// The column stream between a part worker and the trace worker (web/load/parts/stream.ts, bundled
// with esbuild): columns of any sizes (empty ones too) cut into buffers of any size and written back
// arrive byte for byte at their addresses; more bytes than the columns hold are refused.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let m;
before(async () => {
  m = await loadTs('web/load/parts/stream.ts');
});

// A deterministic pseudo-random source (the test must not depend on luck).
function rng(seed) {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

test('columns cut into buffers and written back land byte for byte at their addresses', () => {
  const rand = rng(7);
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(rand() * 8);
    const sizes = Array.from({ length: n }, () => (rand() < 0.25 ? 0 : Math.floor(rand() * 300)));
    const columns = sizes.map((s) => Uint8Array.from({ length: s }, () => Math.floor(rand() * 256)));
    // Addresses in a heap with gaps between the columns, which must stay untouched.
    const addresses = [];
    let at = 5;
    for (const s of sizes) {
      addresses.push(at);
      at += s + 3;
    }
    const heap = new Uint8Array(at + 5).fill(0xee);
    const reader = new m.ColumnReader(columns);
    const writer = new m.ColumnWriter(sizes, addresses);
    const total = sizes.reduce((a, b) => a + b, 0);
    assert.equal(reader.left, total);
    const buffer = new Uint8Array(1 + Math.floor(rand() * 64));
    for (let guard = 0; reader.left > 0; guard++) {
      assert.ok(guard <= total, 'the reader advances');
      const k = reader.fill(buffer);
      assert.ok(k > 0 && k <= buffer.length);
      assert.ok(writer.write(heap, buffer.subarray(0, k)));
    }
    assert.equal(reader.fill(buffer), 0, 'nothing after the end');
    assert.ok(writer.done);
    sizes.forEach((s, i) =>
      assert.deepEqual(heap.subarray(addresses[i], addresses[i] + s), columns[i], `round ${round} column ${i}`)
    );
    let untouched = heap.length - total;
    for (const b of heap) if (b === 0xee) untouched--;
    assert.ok(untouched <= 0, 'nothing written between the columns');
  }
});

test('the writer refuses bytes beyond the columns, and is not done before their end', () => {
  const heap = new Uint8Array(64);
  const w = new m.ColumnWriter([4, 0, 4], [0, 0, 10]);
  assert.equal(w.done, false);
  assert.ok(w.write(heap, new Uint8Array([1, 2, 3, 4, 5])));
  assert.equal(w.done, false);
  assert.equal(w.write(heap, new Uint8Array(4)), false, 'one byte too many');
  assert.ok(w.write(heap, new Uint8Array([6, 7, 8])));
  assert.ok(w.done);
  assert.deepEqual([...heap.subarray(0, 4)], [1, 2, 3, 4]);
  assert.deepEqual([...heap.subarray(10, 14)], [5, 6, 7, 8]);
  assert.equal(new m.ColumnWriter([0, 0], [0, 0]).done, true, 'no bytes: done at once');
});

test('stream buffers come touched, of the size asked', () => {
  const bs = m.touchedBuffers(3, 1 << 16);
  assert.equal(bs.length, 3);
  for (const b of bs) assert.equal(b.byteLength, 1 << 16);
  assert.equal(m.touchedBuffers().length, m.kStreamBuffers);
});

// A receiver in the test: gets each chunk, copies it, and gives the buffer back a task later (as
// the trace worker does through postMessage).
function receiver(sender) {
  const got = [];
  const post = (buffer, length) => {
    got.push(new Uint8Array(buffer, 0, length).slice());
    setTimeout(() => sender.giveBack(buffer), 0);
  };
  return { got, post };
}

test('the sender posts nothing until asked, then every byte in order, and ends once its buffers are back', async () => {
  for (const askFirst of [false, true]) {
    let r;
    const sender = new m.ChunkSender((b, n) => r.post(b, n));
    r = receiver(sender);
    sender.prepare();
    const sizes = [3 << 20, 0, 5 << 20, 1]; // ~8 MB: more chunks than buffers
    const columns = sizes.map((s, i) => Uint8Array.from({ length: s }, (_, j) => (j * 31 + i) & 255));
    if (askFirst) sender.ask();
    let ended = false;
    const sent = sender.send(columns).then(() => {
      ended = true;
    });
    await new Promise((ok) => setTimeout(ok, 20));
    if (!askFirst) {
      assert.equal(r.got.length, 0, 'nothing before the receiver asks');
      assert.equal(ended, false);
      sender.ask();
    }
    await sent;
    const all = Buffer.concat(r.got);
    assert.ok(r.got.length > m.kStreamBuffers, 'the buffers were reused');
    assert.deepEqual(all, Buffer.concat(columns.map((c) => Buffer.from(c))));
  }
});

test('a sender never prepared makes its buffers when asked', async () => {
  let r;
  const sender = new m.ChunkSender((b, n) => r.post(b, n));
  r = receiver(sender);
  sender.ask();
  await sender.send([new Uint8Array([1, 2, 3])]);
  assert.deepEqual(
    r.got.map((c) => [...c]),
    [[1, 2, 3]]
  );
});
