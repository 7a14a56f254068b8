// The reader of local files (web/load/input/blob_stream.ts, bundled here with esbuild), in node, whose
// Blob.stream() is a byte stream as Chromium's is: with a BufferPool the bytes come in whole batch
// buffers (the last may be shorter) that go back to the pool once used; without one, or where the
// stream is not a byte stream, the default reader's chunks. Every way gives the file's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const load = () => loadTs('web/load/input/blob_stream.ts');

function bytes(n, seed = 1) {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

// Reads the whole stream, handing each chunk back (as the trace worker does once it copied it).
async function readAll(stream, giveBack = () => {}) {
  const chunks = [];
  const r = stream.getReader();
  for (;;) {
    const { done, value } = await r.read();
    if (done) break;
    chunks.push({
      length: value.length,
      whole: value.byteOffset === 0 && value.byteLength === value.buffer.byteLength,
      copy: value.slice(),
    });
    giveBack(value);
  }
  return chunks;
}

// A Blob-like whose byte stream hands out `piece`-byte pieces, as Chromium's does (~64 KB per read
// there; node's Blob fills a whole view at once).
function inPieces(data, piece) {
  return {
    stream: () => {
      let at = 0;
      return new ReadableStream({
        type: 'bytes',
        pull(c) {
          if (at >= data.length) {
            c.close();
            c.byobRequest?.respond(0);
            return;
          }
          const p = data.slice(at, at + piece);
          at += p.length;
          c.enqueue(p);
        },
      });
    },
  };
}

const joined = (chunks) => Buffer.concat(chunks.map((c) => c.copy));
const fail = (cause) => new Error(`read failed: ${cause?.message ?? cause}`);

test('with a pool: whole batch buffers, the last one shorter, the bytes unchanged, a few buffers reused', async () => {
  const { blobStream, BufferPool } = await load();
  const kBatch = 100_000; // not a multiple of the stream's own chunks: batches fill over several reads
  for (const [n, piece] of [0, 1, kBatch - 1, kBatch, kBatch + 1, 3 * kBatch + 17, 1_234_567].flatMap((n) => [
    [n, 0],
    [n, 7919],
  ])) {
    const data = bytes(n, n + 1);
    const pool = new BufferPool(kBatch, 2);
    let seen = 0;
    const blob = piece ? inPieces(data, piece) : new Blob([data]);
    const chunks = await readAll(
      blobStream(
        blob,
        fail,
        (k) => {
          seen += k;
        },
        pool
      ),
      (c) => pool.give(c.buffer)
    );
    assert.equal(seen, n, `size ${n}: every read counted`);
    assert.deepEqual(joined(chunks), Buffer.from(data), `size ${n}: the same bytes`);
    assert.equal(chunks.length, Math.ceil(n / kBatch), `size ${n}: batches`);
    chunks.forEach((c, i) => {
      if (i < chunks.length - 1) assert.ok(c.length === kBatch && c.whole, `size ${n}: batch ${i} is a whole buffer`);
      else assert.ok(c.length > 0 && c.length <= kBatch, `size ${n}: the last batch`);
    });
    assert.ok(pool.allocated <= 2, `size ${n}: ${pool.allocated} buffers made`);
  }
});

test('a small first batch (firstBytes) in a buffer of its own, then whole pool batches; the bytes unchanged', async () => {
  const { blobStream, BufferPool } = await load();
  const kBatch = 100_000;
  const kFirst = 12_345;
  for (const [n, piece] of [1, kFirst - 1, kFirst, kFirst + 1, kFirst + kBatch, 3 * kBatch + 17].flatMap((n) => [
    [n, 0],
    [n, 7919],
  ])) {
    const data = bytes(n, n + 3);
    const pool = new BufferPool(kBatch, 2);
    const blob = piece ? inPieces(data, piece) : new Blob([data]);
    const chunks = await readAll(blobStream(blob, fail, undefined, pool, kFirst), (c) => pool.give(c.buffer));
    assert.deepEqual(joined(chunks), Buffer.from(data), `size ${n}: the same bytes`);
    assert.equal(chunks[0].length, Math.min(n, kFirst), `size ${n}: the first batch`);
    assert.equal(chunks.length, 1 + Math.ceil(Math.max(0, n - kFirst) / kBatch), `size ${n}: batches`);
    chunks
      .slice(1, -1)
      .forEach((c, i) => assert.ok(c.length === kBatch && c.whole, `size ${n}: batch ${i + 1} is a whole buffer`));
    assert.ok(pool.allocated <= 2, `size ${n}: ${pool.allocated} pool buffers made (the first is not one)`);
  }
});

test('a pool whose buffers never come back makes one per batch (what the page reports as readBuffers)', async () => {
  const { blobStream, BufferPool } = await load();
  const pool = new BufferPool(65536, 2);
  const chunks = await readAll(blobStream(new Blob([bytes(10 * 65536)]), fail, undefined, pool));
  assert.equal(chunks.length, 10);
  assert.equal(pool.allocated, 11, 'one per batch, and the one the end of the file was found with');
});

test('a buffer of another size is not kept by the pool', async () => {
  const { BufferPool } = await load();
  const pool = new BufferPool(1024, 4);
  pool.give(new ArrayBuffer(512));
  pool.take();
  assert.equal(pool.allocated, 1);
  const b = pool.take();
  pool.give(b);
  assert.equal(pool.take(), b);
  assert.equal(pool.allocated, 2);
});

test('without a pool, or where the stream is not a byte stream: the default reader, the same bytes', async () => {
  const { blobStream, BufferPool } = await load();
  const data = bytes(300_001, 7);
  assert.deepEqual(joined(await readAll(blobStream(new Blob([data]), fail))), Buffer.from(data));
  // A Blob-like whose stream() is a plain ReadableStream: getReader({mode: 'byob'}) throws.
  const plainBlob = {
    stream: () =>
      new ReadableStream({
        start(c) {
          c.enqueue(data.slice(0, 1000));
          c.enqueue(data.slice(1000));
          c.close();
        },
      }),
  };
  const pool = new BufferPool(65536, 2);
  const chunks = await readAll(blobStream(plainBlob, fail, undefined, pool), (c) => pool.give(c.buffer));
  assert.deepEqual(joined(chunks), Buffer.from(data));
  assert.deepEqual(
    chunks.map((c) => c.length),
    [1000, data.length - 1000]
  );
  assert.equal(pool.allocated, 0);
});

test('a read that fails errors the stream with fail(cause), after the batches before it', async () => {
  const { blobStream, BufferPool } = await load();
  const data = bytes(150_000, 3);
  let sent = 0;
  const failing = {
    stream: () =>
      new ReadableStream({
        type: 'bytes',
        pull(c) {
          if (sent >= 120_000) {
            c.error(new Error('the file changed'));
            return;
          }
          const piece = data.slice(sent, sent + 40_000);
          sent += piece.length;
          c.enqueue(piece);
        },
      }),
  };
  const pool = new BufferPool(50_000, 2);
  const r = blobStream(failing, fail, undefined, pool).getReader();
  const got = [];
  await assert.rejects(async () => {
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      got.push(value.slice());
      pool.give(value.buffer);
    }
  }, /read failed: the file changed/);
  assert.deepEqual(Buffer.concat(got), Buffer.from(data.slice(0, 100_000)), 'the two whole batches before the failure');
});

test('cancelling the stream mid-way stops the reads', async () => {
  const { blobStream, BufferPool } = await load();
  const pool = new BufferPool(65536, 2);
  const r = blobStream(new Blob([bytes(1_000_000)]), fail, undefined, pool).getReader();
  const first = await r.read();
  assert.equal(first.value.length, 65536);
  await r.cancel('enough');
  assert.deepEqual(await r.read(), { done: true, value: undefined });
});

test('fillAhead makes the buffers before the first take (up to what the pool keeps), and stops once reading began', async () => {
  const { blobStream, BufferPool } = await load();
  const kBatch = 64 << 10;
  const pool = new BufferPool(kBatch, 2);
  await pool.fillAhead(3);
  assert.equal(pool.madeAhead, 2, 'no more than the pool keeps');
  const data = bytes(5 * kBatch + 123, 7);
  const chunks = await readAll(blobStream(inPieces(data, 16 << 10), fail, undefined, pool), (c) => pool.give(c.buffer));
  assert.deepEqual(joined(chunks), Buffer.from(data));
  // (one buffer in use at a time here: each is given back before the next read)
  assert.equal(pool.allocated, 1, 'one buffer taken new');
  assert.equal(pool.madeAhead, 1, 'it was one made ahead');
  await pool.fillAhead(2);
  assert.equal(pool.madeAhead, 1, 'nothing more is made ahead once reading began');

  // A take while filling (a read began): the fill stops at its next step.
  const racing = new BufferPool(kBatch, 8);
  const filling = racing.fillAhead(8);
  assert.equal(racing.take().byteLength, kBatch);
  await filling;
  assert.equal(racing.madeAhead, 0);
  assert.equal(racing.allocated, 1);
});
