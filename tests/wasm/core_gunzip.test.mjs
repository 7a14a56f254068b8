// node:test: gzip inflated by the core's inflater in wasm (web/load/input/core_gunzip.ts, the feed
// worker's) gives the bytes and the damage the CLI reports (tests/cli/gzip.test.mjs; the page's
// DecompressionStream path is held to the CLI by tests/e2e/gzip_damage.test.mjs), for each damaged
// or multi-member file of tests/gzip_damaged.mjs and for files cut or followed by junk, fed in chunks
// of all sizes, each chunk a copy or a pool buffer filled whole. (Node's own DecompressionStream is
// not Chromium's: it is no oracle here.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { loadModule } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';
import { dataPath } from '../test_data.mjs';
import { damagedGzips } from '../gzip_damaged.mjs';

let mod, core, blob;
before(async () => {
  mod = await loadModule();
  core = await loadTs('web/load/input/core_gunzip.ts');
  blob = await loadTs('web/load/input/blob_stream.ts');
});

// A stream of `bytes` in chunks whose sizes cycle through `sizes`.
function streamOf(bytes, sizes) {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      const n = sizes[i++ % sizes.length];
      c.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

// Everything read (copied); with a pool, each buffer is given back once copied, as the trace worker
// does, and every chunk but the last must fill its buffer.
async function drain({ reader, damage }, pool = null) {
  const parts = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    parts.push(Buffer.from(r.value));
    if (!pool) continue;
    assert.ok(parts.length === 1 || parts.at(-2).length === pool.bytes, 'only the last chunk is short');
    pool.give(r.value.buffer);
  }
  return { bytes: Buffer.concat(parts), damage };
}

const raw = readFileSync(dataPath('deepseek_profile_data/train.json'));
const whole = gzipSync(raw);
// What zlib inflates of a cut file before its end.
const start = (gz) => gunzipSync(gz, { finishFlush: constants.Z_SYNC_FLUSH });
const kDamage = {
  whole: [],
  trailer: [{ kind: 'trailer', member: 1 }],
  truncated: [{ kind: 'truncated' }],
};
const cases = {
  ...Object.fromEntries(
    Object.entries(damagedGzips(raw)).map(([name, { bytes, kind }]) => [
      name,
      { bytes, out: kind === 'truncated' ? start(bytes) : raw, damage: kDamage[kind] },
    ])
  ),
  'cut in its first block': {
    bytes: whole.subarray(0, 5000),
    out: start(whole.subarray(0, 5000)),
    damage: kDamage.truncated,
  },
  'cut in the trailer': { bytes: whole.subarray(0, whole.length - 3), out: raw, damage: kDamage.truncated },
  'junk after the member': {
    bytes: Buffer.concat([whole, Buffer.from('junk')]),
    out: raw,
    damage: [{ kind: 'corrupt' }],
  },
};

for (const [name, { bytes, out, damage }] of Object.entries(cases)) {
  test(`${name}: the core's inflater gives the CLI's bytes and damage`, async () => {
    assert.ok(out.length > 0 && out.length <= raw.length);
    for (const [sizes, pool] of [
      [[1 << 20], null],
      [[65536, 1, 7, 300000], null],
      [[4097], null],
      [[1 << 20], new blob.BufferPool(1 << 20, 4)],
      [[65536, 1, 7, 300000], new blob.BufferPool(100000, 4)],
    ]) {
      let read = 0;
      const got = await drain(
        core.coreGunzip(mod, streamOf(bytes, sizes), (n) => (read += n), pool ?? undefined),
        pool
      );
      assert.ok(got.bytes.equals(out), `${name} ${sizes}: ${got.bytes.length} bytes, want ${out.length}`);
      assert.deepEqual(got.damage, damage, `${name} ${sizes}`);
      // Every byte up to where it stopped is used: the whole file unless something but a member
      // follows (corrupt: the rest is not read).
      // follows (corrupt: the rest is not read), or a cut file's last bits, which make no symbol.
      if (damage.length === 0 || damage[0].kind === 'trailer') assert.equal(read, bytes.length, `${name} ${sizes}`);
      else assert.ok(read <= bytes.length && read > 0, `${name} ${sizes}: ${read}`);
    }
  });
}

test('the compressed bytes counted are those the output came from, not those read ahead of it', async () => {
  // Eight copies of the trace in one chunk (a Blob's stream hands out megabytes at once), output in
  // 256 KB buffers: after each, the bytes counted are those of the output so far plus what the
  // inflater made ahead of it (one inflate() call: up to 1 MB of output), within 1% of the file.
  const text = Buffer.concat(Array(8).fill(raw));
  const gz = gzipSync(text);
  const pool = new blob.BufferPool(1 << 18, 4);
  let read = 0;
  const { reader } = core.coreGunzip(mod, streamOf(gz, [gz.length]), (n) => (read += n), pool);
  let out = 0;
  let checked = 0;
  const inFor = (bytesOut) => (gz.length * Math.min(bytesOut, text.length)) / text.length;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    out += r.value.length;
    pool.give(r.value.buffer);
    if (out >= text.length) break;
    const slack = 0.01 * gz.length;
    assert.ok(read >= inFor(out) - slack, `after ${out} bytes out: ${read} in, at least ~${inFor(out)}`);
    assert.ok(
      read <= inFor(out + (1 << 20)) + slack,
      `after ${out} bytes out: ${read} in, at most ~${inFor(out + (1 << 20))}`
    );
    checked++;
  }
  assert.ok(checked >= 20, `buffers checked: ${checked}`);
  assert.equal(read, gz.length);
});

test('a read that fails after some bytes: InputFailure, after the bytes inflated before it', async () => {
  let sent = false;
  const input = new ReadableStream({
    pull(c) {
      if (sent) return c.error(new Error('NotReadableError'));
      sent = true;
      c.enqueue(whole.subarray(0, 200000));
    },
  });
  const { reader } = core.coreGunzip(mod, input);
  let bytes = 0;
  await assert.rejects(
    async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
    },
    (e) => e.reason?.message === 'NotReadableError'
  ); // an InputFailure (core_gunzip.ts's own bundle of the class)
  assert.ok(bytes > 0);
});
