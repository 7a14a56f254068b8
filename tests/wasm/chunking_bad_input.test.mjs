// node:test over the wasm build (which has its own simd128 event splitter): real traces pushed in
// random chunk sizes, down to one byte at a time, give the native CLI's summary byte for byte; and
// bad input never aborts the module: a fatal message with a byte offset, or a counted problem.
// Overrides: TW_NATIVE_CLI, TW_WASM_DIR, TW_TEST_DATA.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadModule, WASM_DIR } from './wasm_node.mjs';
import { dataPath } from '../test_data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
const CLI = process.env.TW_NATIVE_CLI ?? join(ROOT, 'build', 'native', 'tracewise');
const DIR = process.env.TW_WASM_DIR ?? WASM_DIR;

// Small deterministic PRNG (mulberry32), so failures reproduce.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let mod;
before(async () => {
  assert.ok(existsSync(join(DIR, 'tracewise.wasm')), `wasm build missing in ${DIR} (make wasm)`);
  mod = await loadModule(DIR);
});

// Pushes `bytes` (a Buffer) in chunks of nextSize() bytes; returns the finished session.
function importBytes(name, bytes, nextSize, fileBytes = bytes.length) {
  const session = new mod.Session(name);
  for (let pos = 0; pos < bytes.length;) {
    const n = Math.max(1, Math.min(nextSize(), bytes.length - pos));
    const ptr = Number(session.stagingBuffer(n));
    mod.HEAPU8.set(bytes.subarray(pos, pos + n), ptr);
    session.pushStaged(n);
    pos += n;
  }
  session.setFileBytes(fileBytes);
  session.finish();
  return session;
}

function withSession(session, fn) {
  try {
    return fn(session);
  } finally {
    session.delete();
  }
}

function nativeSummary(path) {
  const r = spawnSync(CLI, ['summarize', path], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, `native failed: ${r.stderr}`);
  return r.stdout.replace(/\n$/, '');
}

const CHUNKED = [
  // [trace, largest chunk]: one byte at a time for the small ones, random sizes for the others.
  ['kineto/docs/traces/before_fix_trace.json', 1],
  ['speedscope/sample/profiles/trace-event/simple-partial-whitespace.json', 1],
  ['perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v2.json', 1],
  ['hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz', 7],
  ['speedscope/sample/profiles/Chrome/69/simple.json', 100],
  ['deepseek_profile_data/train.json', 300],
  ['hta/tests/data/nccl_parser_config/nccl_data.json.gz', 100000],
];

for (const [rel, maxChunk] of CHUNKED) {
  test(`wasm, chunks of 1..${maxChunk} bytes, equals native: ${rel}`, () => {
    assert.ok(existsSync(CLI), `native CLI not built: ${CLI} (make native)`);
    const path = dataPath(rel);
    const raw = readFileSync(path);
    const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
    const next = rng(maxChunk);
    const got = withSession(
      importBytes(basename(path), bytes, () => 1 + Math.floor(next() * maxChunk), statSync(path).size),
      (s) => {
        assert.ok(!s.failed(), s.error());
        return s.summaryJson(false);
      }
    );
    assert.equal(got, nativeSummary(path));
  });
}

// --- bad input in wasm ----------------------------------------------------------------------------

function nested(depth, open, close, inner = '1') {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function expectFatal(session, fragment) {
  assert.ok(session.failed(), 'expected a fatal error');
  const msg = session.error();
  assert.match(msg, /^Not a trace: /);
  assert.ok(msg.includes(fragment), msg);
  assert.match(msg, /\(at byte \d+\)$/);
}

function expectLoaded(session) {
  assert.ok(!session.failed(), session.error());
  return JSON.parse(session.summaryJson(false)).files[0];
}

const B = (s) => Buffer.from(s, 'latin1');
const whole = (bytes) => () => bytes.length;
const byteByByte = () => 1;

test('wasm bad input: empty, whitespace, PNG, gzip, not a trace', () => {
  withSession(importBytes('empty', B(''), whole(B(''))), (s) => expectFatal(s, 'empty'));
  withSession(importBytes('ws', B(' \n\t'), byteByByte), (s) => expectFatal(s, 'whitespace'));
  withSession(importBytes('png', B('\x89PNG\r\n\x1a\n\0\0\0\rIHDR'), byteByByte), (s) => expectFatal(s, 'PNG'));
  withSession(importBytes('gz', B('\x1f\x8b\x08\0\0\0\0\0'), byteByByte), (s) => expectFatal(s, 'gzip'));
  withSession(importBytes('obj', B('{"a":1}'), byteByByte), (s) => expectFatal(s, '"traceEvents"'));
  withSession(importBytes('arr', B('[1,2,[3]]'), byteByByte), (s) => expectFatal(s, 'no event objects'));
});

test('wasm bad input: random bytes never abort', () => {
  const next = rng(99);
  for (let round = 0; round < 100; round++) {
    const bytes = Buffer.alloc(1 + Math.floor(next() * 3000));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    if (round % 2) bytes[0] = 0x5b; // '['
    withSession(
      importBytes(`r${round}`, bytes, () => 1 + Math.floor(next() * 64)),
      (s) => {
        if (!s.failed()) JSON.parse(s.summaryJson(false));
      }
    );
  }
});

test('wasm bad input: numbers, invalid UTF-8, malformed args', () => {
  const text =
    '[{"ph":"X","name":"a","ts":1e400,"dur":1},{"ph":"X","name":"b","ts":-0,"dur":-3},' +
    '{"ph":"X","name":"c\xff","ts":"18446744073709551616","dur":1},{"ph":"X","name":"d","ts":1,"dur":1,' +
    '"args":{"correlation":18446744073709551616}},{"args":{n}},{"ph":"C","name":"k","ts":1,"args":{"v":"NaN"}}]';
  const file = withSession(importBytes('nums', B(text), byteByByte), expectLoaded);
  const p = file.import.problems;
  assert.equal(p.bad_ts, 2);
  assert.equal(p.negative_dur, 1);
  assert.equal(p.invalid_utf8, 1);
  assert.equal(p.integer_beyond_int64, 1);
  // {"args":{n}} breaks the structure (a key was due): a damaged span, skipped to the next event.
  assert.equal(file.import.recovered.regions, 1);
  assert.equal(p.bad_counter_value, 1);
});

test('wasm bad input: nesting 100k deep (the wasm stack is small)', () => {
  const d = 100000;
  const text =
    `{"distributedInfo":{"pg_config":${nested(d, '[', ']')}},"traceEvents":[` +
    `{"ph":"X","name":"a","ts":1,"dur":1,"args":{"x":${nested(d, '{"a":', '}')}}},` +
    `{"ph":"i","name":"b","ts":1,"id2":${nested(d, '{"local":', '}')}},` +
    `${nested(d, '[', ']')},{"ph":"i","name":"ok","ts":2}]}`;
  const file = withSession(importBytes('deep', B(text), whole(B(text))), expectLoaded);
  assert.equal(file.import.events, 3);
  assert.equal(file.import.problems.skipped_non_object, 1);
});

test('wasm bad input: one 100 MB string', () => {
  const session = new mod.Session('huge');
  const push = (buf) => {
    const ptr = Number(session.stagingBuffer(buf.length));
    mod.HEAPU8.set(buf, ptr);
    session.pushStaged(buf.length);
  };
  push(B('[{"ph":"i","name":"before","ts":1},{"ph":"i","ts":2,"name":"'));
  const chunk = Buffer.alloc(4 << 20, 0x78);
  for (let i = 0; i < 25; i++) push(chunk);
  push(B('"},{"ph":"i","name":"after","ts":3}]'));
  session.finish();
  const file = withSession(session, expectLoaded);
  assert.equal(file.import.events, 3);
  assert.equal(file.import.problems.event_too_large, 1);
  assert.equal(file.model.instants, 2);
});
