// The hold on background work (web/load/warm/hold.ts, bundled with esbuild): a spare worker's warm-up
// and heap fault-in wait in whileHeld() while the page says the user is busy, go on when the hold
// ends, and at once when an open releases it. Run on a scripted clock: no test depends on how fast
// this machine is.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let m;
before(async () => {
  m = await loadTs('web/load/warm/hold.ts');
});

// A clock that moves only when told; its timers fire in time order as it passes them.
function scriptedClock() {
  let now = 0;
  const timers = new Set();
  return {
    now: () => now,
    setTimeout(wake, ms) {
      const t = { at: now + ms, wake };
      timers.add(t);
      return t;
    },
    clearTimeout(t) {
      timers.delete(t);
    },
    pending: () => timers.size,
    // Moves to `to`, firing each timer due on the way (and letting its promise turns run).
    async advanceTo(to) {
      for (;;) {
        const due = [...timers].filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.delete(due);
        now = due.at;
        due.wake();
        await settle();
      }
      now = to;
      await settle();
    },
  };
}
const settle = () => new Promise((ok) => setImmediate(ok));

// Whether `p` has resolved by now.
async function done(p) {
  let resolved = false;
  p.then(() => {
    resolved = true;
  });
  await settle();
  return resolved;
}

test('no hold: whileHeld resolves at once', async () => {
  const hold = new m.Hold(scriptedClock());
  assert.equal(await done(hold.whileHeld()), true);
});

test('a hold keeps whileHeld waiting until it ends, and a later hold extends it', async () => {
  const clock = scriptedClock();
  const hold = new m.Hold(clock);
  hold.holdFor(120);
  const waited = hold.whileHeld();
  await clock.advanceTo(60);
  hold.holdFor(150); // now ends at 210
  await clock.advanceTo(209);
  assert.equal(await done(waited), false, 'still held at 209');
  await clock.advanceTo(210);
  assert.equal(await done(waited), true, 'free at 210');
  assert.equal(clock.pending(), 0, 'no timer left behind');
});

test('a shorter hold does not shorten one in force', async () => {
  const clock = scriptedClock();
  const hold = new m.Hold(clock);
  hold.holdFor(200);
  hold.holdFor(10);
  const waited = hold.whileHeld();
  await clock.advanceTo(199);
  assert.equal(await done(waited), false);
  await clock.advanceTo(200);
  assert.equal(await done(waited), true);
});

test('release() lets every waiting step go on at once', async () => {
  const clock = scriptedClock();
  const hold = new m.Hold(clock);
  hold.holdFor(10_000);
  const waits = [hold.whileHeld(), hold.whileHeld()];
  await clock.advanceTo(30);
  assert.deepEqual(await Promise.all(waits.map(done)), [false, false]);
  hold.release();
  assert.deepEqual(await Promise.all(waits.map(done)), [true, true]);
  assert.equal(clock.pending(), 0, 'their timers are cleared');
  assert.equal(await done(hold.whileHeld()), true, 'no hold after release');
});

test('the worker-wide functions share one hold', async () => {
  m.holdFor(60_000);
  const waited = m.whileHeld();
  assert.equal(await done(waited), false);
  m.release();
  assert.equal(await done(waited), true);
});
