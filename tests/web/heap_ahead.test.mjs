// How much heap a spare worker faults in ahead: the page's hint from recent files
// (web/load/page/heap_hint.ts, in localStorage) and the worker's bounds (web/load/warm/heap_ahead.ts), both
// bundled with esbuild; storage and navigator.deviceMemory are stand-ins set here.
import { test, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const MB = 2 ** 20;
let hint, ahead;
const store = new Map();
before(async () => {
  globalThis.localStorage = {
    getItem: (k) => (store.has(k) ? store.get(k) : null),
    setItem: (k, v) => {
      store.set(k, String(v));
    },
  };
  hint = await loadTs('web/load/page/heap_hint.ts');
  ahead = await loadTs('web/load/warm/heap_ahead.ts');
});
beforeEach(() => {
  store.clear();
});

test('the hint is the largest heap of the last four files, in whole MB; nothing known is 0', () => {
  assert.equal(hint.heapAheadHint(), 0);
  hint.rememberHeap(320.2 * MB);
  assert.equal(hint.heapAheadHint(), 321 * MB);
  for (const mb of [20, 30, 40]) hint.rememberHeap(mb * MB);
  assert.equal(hint.heapAheadHint(), 321 * MB, 'still one of the last four');
  hint.rememberHeap(50 * MB);
  assert.equal(hint.heapAheadHint(), 50 * MB, 'the 320 MB file was five files ago');
  hint.rememberHeap(0);
  hint.rememberHeap(NaN);
  assert.equal(hint.heapAheadHint(), 50 * MB, 'no heap is not remembered');
});

test('spoilt or refused storage gives no hint and no error', () => {
  store.set('tracewise.recentHeapMB', '{not json');
  assert.equal(hint.heapAheadHint(), 0);
  store.set('tracewise.recentHeapMB', '["1e9", -5, null, 64]');
  assert.equal(hint.heapAheadHint(), 64 * MB, 'only positive numbers count');
  const saved = globalThis.localStorage;
  globalThis.localStorage = {
    getItem() {
      throw new Error('SecurityError');
    },
    setItem() {
      throw new Error('SecurityError');
    },
  };
  try {
    assert.doesNotThrow(() => hint.rememberHeap(100 * MB));
    assert.equal(hint.heapAheadHint(), 0);
  } finally {
    globalThis.localStorage = saved;
  }
});

test('the worker takes the default at least and the maximum at most', () => {
  assert.equal(ahead.heapAheadTarget(undefined), ahead.kHeapAheadBytes);
  assert.equal(ahead.heapAheadTarget(10 * MB), ahead.kHeapAheadBytes);
  assert.equal(ahead.heapAheadTarget(321 * MB), 321 * MB);
  assert.equal(ahead.heapAheadTarget(64 * 1024 * MB), ahead.kMaxHeapAheadBytes);
  assert.equal(ahead.heapAheadTarget(NaN), ahead.kHeapAheadBytes);
  assert.equal(ahead.heapAheadTarget(Infinity), ahead.kHeapAheadBytes, 'not a finite number: the default');
});

test('a device with little memory faults in less: none under 4 GB, the default at most under 8 GB', () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const withMemory = (gb) =>
    Object.defineProperty(globalThis, 'navigator', {
      value: gb === undefined ? {} : { deviceMemory: gb },
      configurable: true,
    });
  try {
    withMemory(undefined);
    assert.equal(ahead.heapAheadBudget(321 * MB), 321 * MB, 'unknown: as asked');
    withMemory(8);
    assert.equal(ahead.heapAheadBudget(321 * MB), 321 * MB);
    withMemory(4);
    assert.equal(ahead.heapAheadBudget(321 * MB), ahead.kHeapAheadBytes);
    assert.equal(ahead.heapAheadBudget(64 * MB), 64 * MB);
    withMemory(2);
    assert.equal(ahead.heapAheadBudget(321 * MB), 0);
  } finally {
    if (saved) Object.defineProperty(globalThis, 'navigator', saved);
    else delete globalThis.navigator;
  }
});

// The one stepped fault-in loop (web/load/trace/prefault.ts) of both kinds: while the import waits for
// input, and a spare's heap ahead.
test('touchInSteps: 512 pages a step, each in its own task, until nothing is left or it is stopped', async () => {
  const { touchInSteps } = await loadTs('web/load/trace/prefault.ts');
  let left = 2000,
    asked = [],
    between = 0;
  const touch = (max) => {
    asked.push(max);
    const n = Math.min(max, left);
    left -= n;
    return n;
  };
  assert.equal(
    await touchInSteps(
      touch,
      () => false,
      async () => {
        between++;
      }
    ),
    2000
  );
  assert.deepEqual(asked, [512, 512, 512, 512, 512], 'the last call finds nothing and ends it');
  assert.equal(between, 4, 'a pause after each step that touched pages');
  left = 10_000;
  asked = [];
  let steps = 0;
  assert.equal(
    await touchInSteps(
      (max) => {
        steps++;
        return touch(max);
      },
      () => steps >= 3
    ),
    3 * 512,
    'stopped after 3 steps'
  );
  assert.equal(await touchInSteps(touch, () => true), 0, 'stopped before any step');
});

// While the import waits for input: the flow presort's steps first, then the prefault's, each in
// its own task, until a read would not wait; only the prefault's pages are counted.
test('workAheadWhileWaiting: presort steps first, then prefault steps, until input is available', async () => {
  const { workAheadWhileWaiting } = await loadTs('web/load/trace/prefault.ts');
  const calls = [];
  const session = (sorts, pages) => ({
    presortStep: () => {
      calls.push('sort');
      return sorts-- > 0;
    },
    prefault: (max) => {
      calls.push('fault');
      const n = Math.min(max, pages);
      pages -= n;
      return n;
    },
  });
  assert.equal(await workAheadWhileWaiting(session(2, 600), () => false), 600);
  assert.deepEqual(
    calls,
    ['sort', 'sort', 'sort', 'fault', 'fault', 'fault'],
    'two sorts, then faults until none are left'
  );
  calls.length = 0;
  let tasks = 0;
  const ticker = setInterval(() => tasks++, 0);
  let available = false;
  const run = workAheadWhileWaiting(session(1000, 1 << 20), () => available);
  await new Promise((ok) => setTimeout(ok, 30));
  available = true;
  assert.equal(await run, 0, 'input came while it sorted: no page touched');
  clearInterval(ticker);
  assert.ok(calls.length > 1 && calls.every((c) => c === 'sort'), 'it stopped sorting when input came');
  assert.ok(tasks > 0, 'the steps let timers run between them');
  calls.length = 0;
  assert.equal(await workAheadWhileWaiting(session(5, 100), () => true), 0);
  assert.deepEqual(calls, [], 'input already there: nothing done');
});
