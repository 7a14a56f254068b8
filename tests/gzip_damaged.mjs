// Damaged and multi-member gzip files, made at test time from a plain trace (nothing big is stored):
// what `cat a.gz b.gz` makes, a wrong trailer CRC-32 or size, a file cut short, and many members
// whose boundaries fall on every byte around a 64 KB read. The CLI and the page must inflate all of
// them alike (tests/cli/gzip.test.mjs, tests/e2e/gzip_damage.test.mjs).
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

// One gzip member of `data`, its header padded with a file name of `nameBytes` bytes (FNAME).
export function gzipMember(data, nameBytes = 0) {
  const head = Buffer.from([0x1f, 0x8b, 8, nameBytes > 0 ? 8 : 0, 0, 0, 0, 0, 0, 255]);
  const name = nameBytes > 0 ? Buffer.concat([Buffer.alloc(nameBytes - 1, 'n'), Buffer.from([0])]) : Buffer.alloc(0);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc32(data), 0);
  tail.writeUInt32LE(data.length % 2 ** 32, 4);
  return Buffer.concat([head, name, deflateRawSync(data), tail]);
}

// A copy of a gzip file with one bit of its last member's trailer flipped: `at` 0-3 the CRC-32, 4-7 the size.
function flipTrailer(gz, at) {
  const out = Buffer.from(gz);
  out[out.length - 8 + at] ^= 0x01;
  return out;
}

// Members of `raw` in turn, the i-th ending `edge * (i + 1) + offsets[i]` bytes into the file: each
// member covers the next `step` bytes of `raw` and its header's name pads it to that length.
function membersEndingAt(raw, edge, offsets, step) {
  const parts = [];
  let size = 0;
  for (let i = 0, from = 0; from < raw.length; i++, from += step) {
    const data = raw.subarray(from, from + step);
    const plain = gzipMember(data).length;
    const target = i < offsets.length ? edge * (i + 1) + offsets[i] : size + plain;
    const pad = target - size - plain;
    if (pad < 0) throw new Error(`member ${i} does not fit before ${target}`);
    parts.push(gzipMember(data, pad));
    size += parts[parts.length - 1].length;
  }
  return Buffer.concat(parts);
}

// name -> bytes of each variant of the plain trace `raw`; `kind` says what the page and CLI report.
export function damagedGzips(raw) {
  const whole = gzipSync(raw);
  const half = raw.length >> 1;
  const first = gzipSync(raw.subarray(0, half));
  const second = gzipSync(raw.subarray(half));
  const offsets = [];
  for (let d = -14; d <= 6; d++) offsets.push(d);
  return {
    'two-members.json.gz': { bytes: Buffer.concat([first, second]), kind: 'whole' },
    'bad-crc.json.gz': { bytes: flipTrailer(whole, 0), kind: 'trailer' },
    'bad-size.json.gz': { bytes: flipTrailer(whole, 7), kind: 'trailer' },
    'bad-crc-first-of-two.json.gz': { bytes: Buffer.concat([flipTrailer(first, 1), second]), kind: 'trailer' },
    'truncated.json.gz': { bytes: whole.subarray(0, whole.length >> 1), kind: 'truncated' },
    'members-at-read-edges.json.gz': { bytes: membersEndingAt(raw, 1 << 16, offsets, 48 << 10), kind: 'whole' },
  };
}
