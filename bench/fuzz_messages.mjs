// Fuzzes the postMessage parser (web/embed/parse_message.ts) with random and mutated values: the two
// message shapes with every field replaced by hostile values (getters that throw or answer
// differently each time, proxies whose traps throw or lie about their prototype, revoked proxies,
// cyclic objects, huge strings and lone surrogates, typed arrays and views with offsets, views over
// SharedArrayBuffers, detached buffers, look-alikes made with Object.create). Each value must give a
// result of the declared union (kIgnored, ping, or open with a name of 1..256 characters and a
// buffer that is a genuine ArrayBuffer or a view of one); a throw or any other result is a finding.
//
//   node bench/fuzz_messages.mjs [COUNT=200000] [--seed N] [--show I]
//
// prints executions/s and the findings (each with its seed and index; --show I prints that value).
// Exit status 1 when there are findings. tests/web/parse_message.test.mjs runs a small count.
import { inspect } from 'node:util';
import { loadTs } from '../tests/web/load_ts.mjs';

// xorshift32 seeded per (seed, index): each execution reproduces alone (--show), at no cost.
function rngFor(seed, index) {
  let x = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

// Made once: generating them per execution would measure the generator.
const kHuge = 'x'.repeat(1 << 24);
const kHugeSpaces = ' '.repeat(1 << 16) + 'a' + ' '.repeat(1 << 16);
const kShared = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(64) : new ArrayBuffer(64);
const kBacking = new ArrayBuffer(4096);
const detached = () => {
  const b = new ArrayBuffer(16);
  structuredClone(b, { transfer: [b] });
  return b;
};
const kDetached = detached();
const kStrings = [
  '',
  ' ',
  'PING',
  'PONG',
  'tracewise.open',
  'trace.json',
  '\u0000',
  '\ud800',
  '\udfff x \ud83d',
  '  name.json  ',
  '\u2028\u2029\ufeff',
  '<img src=x onerror=alert(1)>',
  '__proto__',
  'constructor',
  kHuge,
  kHugeSpaces,
  'é'.repeat(300),
];
const kNumbers = [0, -0, 1, -1, NaN, Infinity, -Infinity, 2 ** 53, Number.MIN_VALUE, 4294967295];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

function buffers(r) {
  switch (Math.floor(r() * 12)) {
    case 0:
      return new ArrayBuffer(Math.floor(r() * 64));
    case 1:
      return new Uint8Array(kBacking, Math.floor(r() * 100), Math.floor(r() * 1000));
    case 2:
      return new DataView(kBacking, Math.floor(r() * 8), 8);
    case 3:
      return new Float64Array(kBacking, 8 * Math.floor(r() * 4), 2);
    case 4:
      return new BigInt64Array(4);
    case 5:
      return kShared;
    case 6:
      return new Uint8Array(kShared);
    case 7:
      return kDetached;
    case 8:
      return Object.create(Uint8Array.prototype); // has the prototype, not the slots
    case 9:
      return Object.create(ArrayBuffer.prototype);
    case 10: {
      const v = new Uint8Array(8);
      Object.defineProperty(v, 'buffer', { value: kShared }); // an own `buffer` must not stand in
      return v;
    }
    default:
      return new Proxy(new ArrayBuffer(8), {}); // forwards everything but has no slots of its own
  }
}

function hostile(r, depth) {
  switch (Math.floor(r() * 18)) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return pick(r, kStrings);
    case 3:
      return pick(r, kNumbers);
    case 4:
      return r() < 0.5;
    case 5:
      return BigInt(Math.floor(r() * 1e9)) ** 3n;
    case 6:
      return Symbol('s');
    case 7:
      return buffers(r);
    case 8:
      return () => 'function';
    case 9:
      return [hostile(r, depth + 1), hostile(r, depth + 1)];
    case 10:
      return throwingGetters(r);
    case 11:
      return proxy(r, depth);
    case 12: {
      const o = { type: 'tracewise.open' };
      o.self = o;
      o.buffer = o;
      o.name = o;
      o.perfetto = r() < 0.5 ? o : undefined;
      return o;
    }
    case 13:
      return new String(pick(r, kStrings)); // an object, not a string
    case 14:
      return {
        toString: () => 'x',
        [Symbol.toPrimitive]: () => {
          throw new Error('toPrimitive');
        },
      };
    case 15:
      return Object.freeze(Object.create(null));
    case 16:
      return depth < 3 ? message(r, depth + 1) : null;
    default:
      return new Map([['type', 'tracewise.open']]);
  }
}

function throwingGetters(r) {
  const o = {};
  let calls = 0;
  for (const key of ['type', 'perfetto', 'buffer', 'name', 'title', 'fileName']) {
    const mode = Math.floor(r() * 3);
    if (mode === 0)
      Object.defineProperty(o, key, {
        get: () => {
          throw new Error(`getter ${key}`);
        },
      });
    else if (mode === 1)
      // Answers like a good message the first time, like a bad one after.
      Object.defineProperty(o, key, {
        get: () => (calls++ === 0 ? (key === 'type' ? 'tracewise.open' : new ArrayBuffer(4)) : kShared),
      });
  }
  return o;
}

function proxy(r, depth) {
  const target = r() < 0.5 ? { type: 'tracewise.open', buffer: new ArrayBuffer(4), name: 'p.json' } : [];
  const lie = () => pick(r, [ArrayBuffer.prototype, Uint8Array.prototype, null, Object.prototype]);
  const thrower = () => {
    throw new Error('trap');
  };
  switch (Math.floor(r() * 4)) {
    case 0:
      return new Proxy(target, { get: thrower, has: thrower, getPrototypeOf: thrower });
    case 1:
      return new Proxy(target, { getPrototypeOf: lie, get: (t, k) => (k === 'buffer' ? hostile(r, depth + 1) : t[k]) });
    case 2: {
      const { proxy: p, revoke } = Proxy.revocable(target, {});
      revoke();
      return p;
    }
    default:
      return new Proxy(target, { get: () => hostile(r, depth + 1) });
  }
}

// A value shaped like one of the two messages, each field kept or replaced by a hostile one.
function message(r, depth = 0) {
  const field = (good) => (r() < 0.4 ? good : hostile(r, depth + 1));
  if (r() < 0.5) return { type: field('tracewise.open'), name: field('a.json'), buffer: field(new ArrayBuffer(8)) };
  return {
    perfetto: field({ buffer: field(new ArrayBuffer(8)), title: field('t'), fileName: field('f.json') }),
  };
}

function valueAt(seed, i) {
  const r = rngFor(seed, i);
  return r() < 0.7 ? message(r) : hostile(r, 0);
}

const isGenuineBuffer = (v) => {
  try {
    Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get.call(v);
    return true;
  } catch {
    return false;
  }
};
const viewGetter = (v) => {
  for (const proto of [Object.getPrototypeOf(Uint8Array.prototype), DataView.prototype]) {
    try {
      return Object.getOwnPropertyDescriptor(proto, 'buffer').get.call(v);
    } catch {
      /* the other kind of view */
    }
  }
  return undefined;
};

// What is wrong with a result, or null.
export function checkResult(res) {
  if (res === null || typeof res !== 'object') return `not an object: ${String(res)}`;
  if (res.kind === 'ignored' || res.kind === 'ping') return Object.keys(res).length === 1 ? null : 'extra keys';
  if (res.kind !== 'open') return `unknown kind ${String(res.kind)}`;
  if (res.protocol !== 'tracewise' && res.protocol !== 'perfetto') return `protocol ${String(res.protocol)}`;
  if (typeof res.name !== 'string' || res.name.length < 1 || res.name.length > 256) return 'name out of bounds';
  const b = res.buffer;
  if (b === null || isGenuineBuffer(b)) return null;
  if (ArrayBuffer.isView(b) && isGenuineBuffer(viewGetter(b))) return null;
  return 'buffer is neither null, an ArrayBuffer, nor a view of one';
}

// Runs `count` executions from `seed`; returns {executions, seconds, findings: [{index, problem}]}.
export function fuzz(parseMessage, count, seed = 1) {
  const findings = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    let problem;
    try {
      problem = checkResult(parseMessage(valueAt(seed, i)));
    } catch (e) {
      problem = `threw ${String(e?.message ?? e)}`;
    }
    if (problem && findings.length < 100) findings.push({ index: i, problem });
  }
  // Fixed cases beside the random ones: the two good shapes read exactly.
  const bytes = new ArrayBuffer(4);
  const view = new Uint8Array(new ArrayBuffer(64), 8, 16);
  const want = [
    ['PING', { kind: 'ping' }],
    [
      { type: 'tracewise.open', name: ' a.json ', buffer: bytes },
      { kind: 'open', protocol: 'tracewise', name: 'a.json', buffer: bytes },
    ],
    [{ perfetto: { buffer: view, title: 'T' } }, { kind: 'open', protocol: 'perfetto', name: 'T', buffer: view }],
  ];
  for (const [input, expected] of want) {
    const got = parseMessage(input);
    if (inspect(got) !== inspect(expected) || got.buffer !== expected.buffer)
      findings.push({ index: -1, problem: `${inspect(input)} gave ${inspect(got)}` });
  }
  return { executions: count, seconds: (performance.now() - t0) / 1000, findings };
}

export const loadParser = async () => (await loadTs('web/embed/parse_message.ts')).parseMessage;

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : null;
  };
  const seed = flag('--seed') ?? 1;
  const show = flag('--show');
  if (show !== null) {
    console.log(inspect(valueAt(seed, show), { depth: 4, showProxy: true, getters: false, maxStringLength: 80 }));
    process.exit(0);
  }
  const count = Number(args[0] ?? 200_000);
  const parseMessage = await loadParser();
  // In rounds, so that a long run says where it is.
  const kRound = 1_000_000;
  const total = { executions: 0, seconds: 0, findings: [] };
  for (let done = 0; done < count; done += kRound) {
    const n = Math.min(kRound, count - done);
    const r = fuzz((v) => parseMessage(v), n, (seed + done) >>> 0);
    total.executions += r.executions;
    total.seconds += r.seconds;
    total.findings.push(...r.findings.map((f) => ({ ...f, seed: (seed + done) >>> 0 })));
    if (count > kRound)
      console.log(`${total.executions} executions, ${(total.executions / total.seconds).toFixed(0)}/s`);
  }
  console.log(
    `fuzz_messages: ${total.executions} executions in ${total.seconds.toFixed(1)} s ` +
      `(${(total.executions / total.seconds).toFixed(0)} executions/s), ${total.findings.length} findings`
  );
  for (const f of total.findings.slice(0, 20))
    console.log(`  seed ${f.seed} index ${f.index}: ${f.problem} (--seed ${f.seed} --show ${f.index})`);
  process.exit(total.findings.length ? 1 : 0);
}
