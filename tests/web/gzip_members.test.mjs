// Where the page cuts a gzip file into DecompressionStream writes (web/load/input/gzip_members.ts,
// bundled here with esbuild): whatever the chunks the file comes in, every member's last 8 bytes
// (its trailer) are written apart from any data, and so is the first byte of the next member,
// and what a failed write of each kind of piece means.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadTs } from './load_ts.mjs';
import { dataPath } from '../test_data.mjs';
import { damagedGzips, gzipMember } from '../gzip_damaged.mjs';

const load = () => loadTs('web/load/input/gzip_members.ts');
const raw = readFileSync(dataPath('deepseek_profile_data/train.json'));

// The file in chunks of the given sizes (in turn, repeated), a short one joined to the one before,
// as ../../web/load/input/gunzip.ts does, so that each has kAheadBytes after it or ends the file.
function chunked(bytes, sizes, kAhead) {
  const chunks = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const c = bytes.subarray(at, at + sizes[i % sizes.length]);
    at += c.length;
    if (chunks.length > 0 && c.length < kAhead) chunks[chunks.length - 1] = Buffer.concat([chunks.at(-1), c]);
    else chunks.push(c);
  }
  return chunks;
}

function planAll(m, bytes, sizes, maxPiece = 1 << 18) {
  const chunks = chunked(bytes, sizes, m.kAheadBytes);
  const pieces = [];
  let base = 0;
  chunks.forEach((c, i) => {
    pieces.push(...m.planPieces(c, base, chunks[i + 1] ?? null, maxPiece));
    base += c.length;
  });
  return pieces;
}

// Where each member ends in a file of members (by reading their trailers' sizes back is not
// possible: the members are made here, so their lengths are known).
function membersOf(parts) {
  const ends = [];
  let at = 0;
  for (const p of parts) ends.push((at += p.length));
  return { bytes: Buffer.concat(parts), ends };
}

function checkPieces(pieces, { bytes, ends }, maxPiece = 1 << 18) {
  let at = 0;
  for (const p of pieces) {
    assert.equal(p.begin, at, 'pieces follow each other');
    assert.ok(p.end > p.begin && p.end - p.begin <= maxPiece, JSON.stringify(p));
    at = p.end;
  }
  assert.equal(at, bytes.length, 'pieces cover the file');
  for (const end of ends) {
    const atEnd = end === bytes.length;
    const trailer = pieces.filter((p) => p.begin >= end - 8 && p.end <= end);
    assert.equal(
      trailer.reduce((n, p) => n + p.end - p.begin, 0),
      8,
      `trailer before ${end} in its own writes`
    );
    for (const p of trailer) assert.deepEqual([p.role, p.boundary, p.atEnd], ['trailer', end, atEnd]);
    if (!atEnd)
      assert.ok(
        pieces.some((p) => p.begin === end && p.end === end + 1 && p.role === 'probe'),
        `probe at ${end}`
      );
  }
}

test('one member: one write per chunk but the trailer, which is written alone', async () => {
  const m = await load();
  const gz = gzipSync(raw);
  const pieces = planAll(m, gz, [65536]);
  checkPieces(pieces, { bytes: gz, ends: [gz.length] });
  const writes = Math.ceil(gz.length / 65536) + 1;
  assert.ok(pieces.length <= writes + 2, `${pieces.length} writes for ${writes - 1} chunks`); // + a rare look-alike
  assert.equal(pieces.filter((p) => p.role === 'data' && p.end - p.begin > 65536).length, 0);
});

test('a long chunk is written in pieces of at most maxPiece', async () => {
  const m = await load();
  const gz = gzipSync(raw);
  checkPieces(planAll(m, gz, [gz.length], 4096), { bytes: gz, ends: [gz.length] }, 4096);
});

test('members: trailers and first bytes apart, whatever the chunks, even a byte at a time', async () => {
  const m = await load();
  const half = raw.length >> 1;
  const two = membersOf([gzipSync(raw.subarray(0, half)), gzipSync(raw.subarray(half))]);
  const many = membersOf(
    Array.from({ length: 40 }, (_, i) => gzipMember(raw.subarray(i * 100, i * 100 + 100 + i), i % 3 ? i : 0))
  );
  for (const file of [two, many])
    for (const sizes of [[1], [3, 5, 7], [11, 12, 13], [65536], [1000, 1], [file.bytes.length]])
      checkPieces(planAll(m, file.bytes, sizes), file);
});

test('members whose ends fall on every byte around a 64 KB read', async () => {
  const m = await load();
  const { bytes } = damagedGzips(raw)['members-at-read-edges.json.gz'];
  // Its members, found by inflating each in turn is what is being tested: read their ends from the
  // way the file is made (every 64 KB, -14 to +6 bytes, then members of 48 KB of the trace).
  const pieces = planAll(m, bytes, [65536]);
  for (let i = 0, d = -14; d <= 6; i++, d++) {
    const end = 65536 * (i + 1) + d;
    assert.deepEqual(
      pieces.filter((p) => p.begin >= end - 8 && p.end <= end).map((p) => [p.role, p.boundary]),
      pieces.filter((p) => p.begin >= end - 8 && p.end <= end).map(() => ['trailer', end]),
      `member ending at ${end}`
    );
    assert.ok(
      pieces.some((p) => p.begin === end && p.role === 'probe'),
      `probe at ${end}`
    );
  }
});

test('what a failed write means', async () => {
  const m = await load();
  const trailer = (begin, end, boundary, atEnd = false) => ({ begin, end, role: 'trailer', boundary, atEnd });
  // A trailer that does not match: the next member (or the end); a member too short to have one: corrupt.
  assert.deepEqual(m.afterFailure(trailer(992, 1000, 1000), 0), { kind: 'resume', at: 1000, damaged: true });
  assert.deepEqual(m.afterFailure(trailer(996, 1000, 1000), 500), { kind: 'resume', at: 1000, damaged: true });
  assert.deepEqual(m.afterFailure(trailer(992, 1000, 1000, true), 0), { kind: 'stop', damage: 'trailer' });
  assert.deepEqual(m.afterFailure(trailer(992, 1000, 1000), 990), { kind: 'stop', damage: 'corrupt' });
  // The first byte after a member whose trailer went through: the member ended there.
  const probe = (at) => ({ begin: at, end: at + 1, role: 'probe' });
  assert.deepEqual(m.afterFailure(probe(1000), 0), { kind: 'resume', at: 1000, damaged: false });
  // ... but not a member's own first byte (that would start it again, for ever).
  assert.deepEqual(m.afterFailure(probe(1000), 1000), { kind: 'stop', damage: 'corrupt' });
  assert.deepEqual(m.afterFailure({ begin: 0, end: 65536, role: 'data' }, 0), { kind: 'stop', damage: 'corrupt' });
});

test('a header is 1f 8b 08 with no reserved flag bit; one past the chunk is seen in the bytes ahead', async () => {
  const m = await load();
  const b = (...x) => Uint8Array.from(x);
  assert.deepEqual(m.headersIn(b(0, 0x1f, 0x8b, 8, 0, 1), null), [1]);
  assert.deepEqual(m.headersIn(b(0, 0x1f, 0x8b, 8, 0x20, 1), null), []);
  assert.deepEqual(m.headersIn(b(0, 0x1f, 0x8b, 9, 0, 1), null), []);
  assert.deepEqual(m.headersIn(b(0, 0x1f, 0x8b), b(8, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), [1]);
  assert.deepEqual(m.headersIn(b(0), b(0, 0, 0, 0, 0, 0, 0, 0x1f, 0x8b, 8, 0, 0)), [8]);
  assert.deepEqual(m.headersIn(b(0), b(0, 0, 0, 0, 0, 0, 0, 0, 0x1f, 0x8b, 8, 0)), []); // its trailer is not in the chunk
  assert.deepEqual(m.headersIn(b(0, 0x1f, 0x8b, 8), null), []); // cut short: no member there
});
