// The trace worker's work while it waits for input (web/load/trace/prefault.ts, bundled with
// esbuild), against stand-in sessions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

// The stepped fault-in loop (web/load/trace/prefault.ts) while the import waits for input.
test('touchInSteps: 512 pages a step, each in its own task, until nothing is left or it is stopped', async () => {
  const { touchInSteps } = await loadTs('web/load/trace/prefault.ts');
  let left = 2000,
    asked = [];
  const touch = (max) => {
    asked.push(max);
    const n = Math.min(max, left);
    left -= n;
    return n;
  };
  assert.equal(await touchInSteps(touch, () => false), 2000);
  assert.deepEqual(asked, [512, 512, 512, 512, 512], 'the last call finds nothing and ends it');
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
