// The postMessage parser (web/embed/parse_message.ts) on hostile values: it never throws, reads the
// two message shapes exactly, recognises buffers by their slots (not by prototype or an own
// `buffer` property), and a small run of the fuzzer (bench/fuzz_messages.mjs; long runs are a
// benchmark, not a test) finds nothing, while it does find the faults of a naive parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz, loadParser } from '../../bench/fuzz_messages.mjs';

const parse = await loadParser();

test('the two shapes and PING are read exactly; anything else is ignored', () => {
  const bytes = new ArrayBuffer(8);
  const view = new Uint8Array(new ArrayBuffer(64), 8, 16);
  assert.deepEqual(parse('PING'), { kind: 'ping' });
  assert.deepEqual(parse({ type: 'tracewise.open', name: '  rank0.json.gz ', buffer: bytes }), {
    kind: 'open',
    protocol: 'tracewise',
    name: 'rank0.json.gz',
    buffer: bytes,
  });
  const p = parse({ perfetto: { buffer: view, title: 'Title', fileName: 'f.json' } });
  // Perfetto names the trace by its title (fileName is what it saves it as); without one, the file name.
  assert.deepEqual([p.protocol, p.name, p.buffer === view], ['perfetto', 'Title', true]);
  assert.equal(parse({ perfetto: { buffer: bytes, title: 'Title' } }).name, 'Title');
  assert.equal(parse({ perfetto: { buffer: bytes, title: '  ', fileName: 'f.json' } }).name, 'f.json');
  assert.equal(parse({ perfetto: { buffer: bytes, title: 7, fileName: 'f.json' } }).name, 'f.json');
  assert.equal(parse({ perfetto: { buffer: bytes } }).name, 'trace.json');
  // A title is text on one line: its line breaks and other control characters become spaces.
  assert.equal(parse({ perfetto: { buffer: bytes, title: 'Run 7\n\t<b>rank 0</b>' } }).name, 'Run 7 <b>rank 0</b>');
  for (const v of [undefined, null, 0, 'PONG', 'ping', [], {}, { type: 'tracewise.opened' }, { perfetto: 1 }, 1n])
    assert.deepEqual(parse(v), { kind: 'ignored' }, String(v));
});

test('names: trimmed, at most 256 characters, else trace.json', () => {
  const name = (n) => parse({ type: 'tracewise.open', name: n, buffer: new ArrayBuffer(1) }).name;
  assert.equal(name('x'.repeat(10_000_000)).length, 256);
  for (const bad of ['', '   ', 42, null, {}, new String('boxed'), Symbol('s')]) assert.equal(name(bad), 'trace.json');
  assert.equal(name('\ud800 a'), '\ud800 a'); // text, shown as text: kept as it is
});

test('a message without a genuine ArrayBuffer opens with buffer null (answered with an error)', () => {
  const shared = new SharedArrayBuffer(8);
  const ownBuffer = new Uint8Array(8);
  Object.defineProperty(ownBuffer, 'buffer', { value: shared });
  const fakes = [
    undefined,
    'bytes',
    shared,
    new Uint8Array(shared),
    Object.create(ArrayBuffer.prototype),
    Object.create(Uint8Array.prototype),
    new Proxy(new ArrayBuffer(8), {}),
    new Proxy({}, { getPrototypeOf: () => ArrayBuffer.prototype }),
    { [Symbol.toStringTag]: 'ArrayBuffer', byteLength: 8 },
  ];
  for (const [i, buffer] of fakes.entries()) {
    const m = parse({ type: 'tracewise.open', name: 'x', buffer });
    assert.deepEqual([m.kind, m.buffer], ['open', null], `fake ${i}`);
  }
  // A view keeps its own buffer (an own `buffer` property is not read), offset and length.
  const m = parse({ type: 'tracewise.open', name: 'x', buffer: ownBuffer });
  assert.equal(m.buffer, ownBuffer);
  const dv = new DataView(new ArrayBuffer(32), 4, 8);
  assert.equal(parse({ perfetto: { buffer: dv } }).buffer, dv);
});

test('getters that throw, lying or revoked proxies and cycles are ignored, never thrown', () => {
  const throwing = Object.defineProperty({}, 'type', {
    get() {
      throw new Error('no');
    },
  });
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const cyclic = { type: 'tracewise.open' };
  cyclic.buffer = cyclic;
  cyclic.name = cyclic;
  const trap = () => {
    throw new Error('trap');
  };
  for (const v of [throwing, proxy, new Proxy({}, { get: trap }), { perfetto: new Proxy({}, { get: trap }) }])
    assert.deepEqual(parse(v), { kind: 'ignored' });
  assert.deepEqual(parse(cyclic), { kind: 'open', protocol: 'tracewise', name: 'trace.json', buffer: null });
  // A getter read once: a second, different answer cannot slip past the checks.
  let calls = 0;
  const flip = Object.defineProperty({ type: 'tracewise.open', name: 'f' }, 'buffer', {
    get: () => (calls++ === 0 ? new ArrayBuffer(4) : 'not bytes'),
  });
  const m = parse(flip);
  assert.ok(m.buffer instanceof ArrayBuffer);
  assert.equal(calls, 1);
});

test('fuzz smoke run: 20,000 executions, no findings; a naive parser is caught', () => {
  const run = fuzz(parse, 20_000, 7);
  assert.deepEqual(run.findings, []);
  // The checks before parse_message.ts: instanceof and property reads without a guard.
  const naive = (d) => {
    if (d === 'PING') return { kind: 'ping' };
    const src = d && typeof d === 'object' && d.type === 'tracewise.open' ? d : null;
    if (!src) return { kind: 'ignored' };
    const buffer = src.buffer instanceof ArrayBuffer || ArrayBuffer.isView(src.buffer) ? src.buffer : null;
    return { kind: 'open', protocol: 'tracewise', name: 'trace.json', buffer };
  };
  const caught = fuzz(naive, 5_000, 7).findings;
  assert.ok(caught.some((f) => /^threw/.test(f.problem)));
  assert.ok(caught.some((f) => /^buffer/.test(f.problem)));
});
