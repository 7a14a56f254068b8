// node:test: a parts import through the wasm build as the browser runs it (web/load/parts/plan.ts and
// part_stream.ts, bundled here with esbuild): the cuts found by the core, each later part imported
// in a second wasm instance (a heap of its own, as a part worker's), moved out as bytes (copied out
// whole, or streamed through a small reused buffer as the page does) and absorbed by the first.
// The summary must be the one-piece import's, byte for byte; a refused part (a cut that is not
// between events), bytes that do not match, garbage, and a stream that breaks off are refused
// without harm, and the part's bytes pushed instead give the same summary again.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { loadModule, importBytes } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';
import { dataPath } from '../test_data.mjs';

const NCCL = dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const DEEPSEEK = dataPath('deepseek_profile_data/train.json');

let parts;
let stream; // part_stream.ts
let first; // the trace worker's module
let second; // a part worker's
before(async () => {
  parts = await loadTs('web/load/parts/plan.ts');
  stream = await loadTs('web/load/parts/stream.ts');
  first = await loadModule();
  second = await loadModule();
  assert.notEqual(first.HEAPU8.buffer, second.HEAPU8.buffer, 'two heaps');
});

const bytesOf = (path) => {
  const raw = readFileSync(path);
  return new Uint8Array(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw);
};

function push(mod, session, bytes) {
  for (let pos = 0; pos < bytes.length; pos += 1 << 20) {
    const chunk = bytes.subarray(pos, Math.min(bytes.length, pos + (1 << 20)));
    mod.HEAPU8.set(chunk, Number(session.stagingBuffer(chunk.length)));
    session.pushStaged(chunk.length);
  }
}

// The later part [begin, end) imported in the second heap, then handed to `take` (with the session,
// before any other call into that heap), which may be async: the session lives until it is done.
async function laterPart(bytes, begin, end, objectForm, last, take) {
  const s = new second.Session('part');
  try {
    s.beginLaterPart(begin, objectForm);
    push(second, s, bytes.subarray(begin, end));
    if (last) s.endInput();
    return await take(s);
  } finally {
    s.delete();
  }
}

// The part as the page streams it (web/load/parts/worker.ts, client.ts): the header copied, the columns
// read through one small buffer (smaller than most columns, so that chunks straddle them);
// `breakAfter` chunks (counted from the end when negative: -1, before the last one), the stream
// breaks off.
function streamedPart(s, breakAfter = Infinity) {
  const header = s.partHeader().slice();
  const views = s.partColumns();
  const reader = new stream.ColumnReader(views);
  const buffer = new Uint8Array(64 << 10);
  const chunks = Math.ceil(reader.left / buffer.length);
  const stop = breakAfter < 0 ? chunks + breakAfter : breakAfter;
  if (Number.isFinite(stop)) assert.ok(stop >= 0 && stop < chunks, `a break inside the stream (${stop} of ${chunks})`);
  return {
    header,
    sizes: views.map((v) => v.length),
    async receive(write) {
      for (let k = 0; reader.left > 0; k++) {
        if (k === stop) return false;
        const n = reader.fill(buffer);
        if (!write(buffer.subarray(0, n))) return false;
      }
      return true;
    },
  };
}

// Imports `bytes` cut at `starts`; `change(k, part)` may spoil a part's bytes (copied out whole);
// `streamed` moves each part as the page does instead (`breakAfter`: chunks before the stream
// breaks off). Returns the summary and how many parts were absorbed.
async function importInParts(bytes, starts, objectForm, { change = () => {}, streamed = false, breakAfter } = {}) {
  const s = new first.Session('t');
  try {
    push(first, s, bytes.subarray(0, starts[0]));
    let absorbed = 0;
    for (const [k, begin] of starts.entries()) {
      const end = k + 1 < starts.length ? starts[k + 1] : bytes.length;
      const last = k + 1 === starts.length;
      const ok = streamed
        ? await laterPart(bytes, begin, end, objectForm, last, (s2) =>
            parts.absorbStreamed(first, s, streamedPart(s2, breakAfter))
          )
        : await laterPart(bytes, begin, end, objectForm, last, (s2) => {
            const part = parts.exportPart(s2);
            change(k, part);
            return parts.absorbPart(first, s, part);
          });
      if (ok) absorbed++;
      else push(first, s, bytes.subarray(begin, end));
    }
    s.setFileBytes(bytes.length);
    s.finish();
    return { summary: s.summaryJson(false), absorbed };
  } finally {
    s.delete();
  }
}

function whole(bytes) {
  const s = importBytes(first, bytes, 't');
  s.setFileBytes(bytes.length);
  try {
    return s.summaryJson(false);
  } finally {
    s.delete();
  }
}

for (const [label, path] of [
  ['NCCL (Kineto, ac2g flows)', NCCL],
  ['DeepSeek training (flows, many threads)', DEEPSEEK],
]) {
  test(`${label}: cut where the core finds events, absorbed, the same summary`, async () => {
    const bytes = bytesOf(path);
    const expected = whole(bytes);
    for (const n of [2, 3]) {
      const plan = await parts.planParts(first, new Blob([bytes]), n, 1 << 19);
      assert.ok(plan, 'a plan');
      assert.equal(plan.starts.length, n - 1);
      assert.equal(plan.objectForm, true);
      for (const s of plan.starts) assert.equal(String.fromCharCode(bytes[s]), '{');
      for (const streamed of [false, true]) {
        const r = await importInParts(bytes, plan.starts, plan.objectForm, { streamed });
        assert.equal(r.absorbed, n - 1, 'every part absorbed');
        assert.equal(r.summary, expected, streamed ? 'streamed' : 'copied out whole');
      }
    }
  });
}

test('a cut inside an event is refused; the part pushed instead gives the same summary', async () => {
  const bytes = bytesOf(NCCL);
  const expected = whole(bytes);
  const mid = bytes.length >> 1;
  for (const streamed of [false, true]) {
    const r = await importInParts(bytes, [mid + 3], true, { streamed }); // not where an event starts
    assert.equal(r.absorbed, 0);
    assert.equal(r.summary, expected);
  }
});

test('a stream that breaks off is dropped without harm; the part pushed instead gives the same summary', async () => {
  const bytes = bytesOf(DEEPSEEK);
  const expected = whole(bytes);
  const plan = await parts.planParts(first, new Blob([bytes]), 2, 1 << 19);
  for (const breakAfter of [0, 1, -1]) {
    const r = await importInParts(bytes, plan.starts, plan.objectForm, { streamed: true, breakAfter });
    assert.equal(r.absorbed, 0, `broken after ${breakAfter} chunks`);
    assert.equal(r.summary, expected);
  }
});

test('spoilt part bytes are refused without harm: short header, column sizes, garbage', async () => {
  const bytes = bytesOf(NCCL);
  const expected = whole(bytes);
  const plan = await parts.planParts(first, new Blob([bytes]), 2, 1 << 20);
  const spoil = [
    (p) => {
      p.header = p.header.slice(0, p.header.length - 9);
    },
    (p) => {
      p.columns[0] = p.columns[0].slice(8);
    },
    (p) => {
      p.columns.pop();
    },
    (p) => {
      for (let i = 8; i < p.header.length; i += 7) p.header[i] ^= 0x5a;
    },
    // A slice's track out of range: column 2 is the track (core/model/trace_model.h's column order),
    // two bytes a row coding the part's own tracks (dict_column.h); 0xfff0 is past them.
    (p) => {
      const c = p.columns[2];
      new Uint16Array(c.buffer, c.byteOffset, c.byteLength / 2)[5] = 0xfff0;
    },
  ];
  for (const [i, f] of spoil.entries()) {
    const r = await importInParts(bytes, plan.starts, plan.objectForm, { change: (_, p) => f(p) });
    assert.equal(r.absorbed, 0, `spoilt part ${i} refused`);
    assert.equal(r.summary, expected, `spoilt part ${i}`);
  }
});

test('files too small, or without a likely event start, get no plan', async () => {
  assert.equal(await parts.planParts(first, new Blob([bytesOf(NCCL)]), 2), null, 'below 32 MB a part');
  assert.equal(await parts.planParts(first, new Blob([new Uint8Array(4 << 20).fill(32)]), 2, 1 << 20), null);
});

test('a cut that falls inside an event larger than the first window is found with the wide one', async () => {
  // Small events, one event with a 600 KB arg where the cut is aimed (7/12 of the file), then more.
  const small = (i) => `{"ph": "X", "name": "op${i}", "pid": 1, "tid": 1, "ts": ${i}, "dur": 1}`;
  const head = Array.from({ length: 14000 }, (_, i) => small(i));
  const huge = `{"ph": "X", "name": "huge", "pid": 1, "tid": 1, "ts": 20000, "dur": 1, "args": {"s": "${'x'.repeat(600_000)}"}}`;
  const tail = Array.from({ length: 6000 }, (_, i) => small(30000 + i));
  const text = `{"traceEvents": [\n${[...head, huge, ...tail].join(',\n')}\n]}\n`;
  const bytes = new TextEncoder().encode(text);
  const hugeAt = text.indexOf('{"ph": "X", "name": "huge"');
  const next = text.indexOf('{', hugeAt + huge.length);
  const aimed = Math.floor((bytes.length * parts.kFirstPartWeight) / (parts.kFirstPartWeight + 1));
  assert.ok(aimed > hugeAt && hugeAt + huge.length - aimed > 64 << 10, 'aimed well inside the huge event');
  const plan = await parts.planParts(first, new Blob([bytes]), 2, 1 << 19);
  assert.ok(plan, 'a plan');
  assert.deepEqual(plan.starts, [next], 'the first event after the huge one');
  const r = await importInParts(bytes, plan.starts, plan.objectForm);
  assert.equal(r.absorbed, 1);
  assert.equal(r.summary, whole(bytes));
});

test('the first part is the larger: cut k just after size * (w + k - 1) / (w + n - 1), w = kFirstPartWeight', async () => {
  const bytes = bytesOf(DEEPSEEK);
  const w = parts.kFirstPartWeight;
  assert.ok(w > 1, 'the trace worker takes more than a part worker');
  for (const n of [2, 3]) {
    const plan = await parts.planParts(first, new Blob([bytes]), n, 1 << 19);
    assert.equal(plan.starts.length, n - 1);
    for (const [i, s] of plan.starts.entries()) {
      const at = Math.floor((bytes.length * (w + i)) / (w + n - 1));
      assert.ok(s >= at && s < at + 4096, `n=${n}: cut ${i} at ${s}, aimed at ${at}`); // the next event start after it
    }
  }
});
