// The hold on background work (web/worker/hold.ts, bundled with esbuild): a spare worker's warm-up
// and heap fault-in wait in whileHeld() while the page says the user is busy, go on when the hold
// ends, and at once when an open releases it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let m;
before(async () => {
  m = await loadTs('web/worker/hold.ts');
});

const elapsed = async (f) => { const t = performance.now(); await f(); return performance.now() - t; };

test('no hold: whileHeld resolves at once', async () => {
  assert.ok(await elapsed(() => m.whileHeld()) < 20);
});

test('a hold keeps whileHeld waiting until it ends, and a later hold extends it', async () => {
  m.holdFor(120);
  setTimeout(() => m.holdFor(150), 60);  // ends ~210 ms after the start
  const ms = await elapsed(() => m.whileHeld());
  assert.ok(ms >= 200 && ms < 600, `${ms} ms`);
});

test('a shorter hold does not shorten one in force', async () => {
  m.holdFor(200);
  m.holdFor(10);
  const ms = await elapsed(() => m.whileHeld());
  assert.ok(ms >= 190, `${ms} ms`);
});

test('release() lets every waiting step go on at once', async () => {
  m.holdFor(10_000);
  const waits = [elapsed(() => m.whileHeld()), elapsed(() => m.whileHeld())];
  setTimeout(() => m.release(), 30);
  for (const ms of await Promise.all(waits)) assert.ok(ms >= 25 && ms < 500, `${ms} ms`);
  assert.ok(await elapsed(() => m.whileHeld()) < 20, 'no hold after release');
});
