// The bytes of a postMessage's `buffer` (web/embed/message_bytes.ts, bundled here with esbuild): an
// ArrayBuffer as it is; of a typed array or DataView, exactly the bytes it covers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const load = () => loadTs('web/embed/message_bytes.ts');
const bytesOf = (b) => [...new Uint8Array(b)];

test('an ArrayBuffer, and a view of all of one, give that very buffer', async () => {
  const { messageBytes } = await load();
  const buf = Uint8Array.from([1, 2, 3, 4]).buffer;
  assert.equal(messageBytes(buf), buf);
  assert.equal(messageBytes(new Uint8Array(buf)), buf);
  assert.equal(messageBytes(new DataView(buf)), buf);
});

test('a view of part of a buffer gives its bytes only, whatever its element size', async () => {
  const { messageBytes } = await load();
  const buf = Uint8Array.from({ length: 32 }, (_, i) => i).buffer;
  assert.deepEqual(bytesOf(messageBytes(new Uint8Array(buf, 3, 5))), [3, 4, 5, 6, 7]);
  assert.deepEqual(bytesOf(messageBytes(new DataView(buf, 30))), [30, 31]);
  assert.deepEqual(bytesOf(messageBytes(new Uint16Array(buf, 4, 2))), [4, 5, 6, 7]);
  assert.deepEqual(bytesOf(messageBytes(new Float64Array(buf, 8, 1))), [8, 9, 10, 11, 12, 13, 14, 15]);
  assert.equal(messageBytes(new Uint8Array(buf, 32)).byteLength, 0);
  const shared = new Uint8Array(new SharedArrayBuffer(4));
  shared.set([9, 8, 7, 6]);
  const out = messageBytes(shared.subarray(1));
  assert.ok(out instanceof ArrayBuffer);
  assert.deepEqual(bytesOf(out), [8, 7, 6]);
});

test('anything else is no trace', async () => {
  const { messageBytes } = await load();
  for (const v of [null, undefined, 'x', 3, {}, [1, 2], { byteLength: 2, buffer: new ArrayBuffer(2) }])
    assert.equal(messageBytes(v), null);
});
