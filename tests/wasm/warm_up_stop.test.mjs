// node:test: an `open` that reaches a spare worker early in its warm-up (web/load/warm/warm_up.ts)
// waits for one small step, not for the whole synthetic trace to be made: before the page's
// JavaScript is optimised, making the trace in one call is slow, and a file opened right after the
// page loaded (the sample button clicked at once) would wait for all of it. The warm-up module keeps its state per worker, so this file has its own process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a stop while the warm-up makes its trace ends it before any session, a few tasks in', async () => {
  const mod = await loadModule();
  let sessions = 0;
  const Real = mod.Session;
  mod.Session = function Session(name) {
    sessions++;
    return new Real(name);
  };
  const { warmUp, stopWarmUp, warmedUp } = await loadTs('web/load/warm/warm_up.ts');
  const running = warmUp(async () => mod);
  // Three tasks in, the trace (15 pieces of 20 steps, one a task) is still being made.
  for (let k = 0; k < 3; k++) await nextTask();
  await stopWarmUp();
  await running;
  assert.equal(sessions, 0, 'no session was made: the open waited for one piece of the trace at most');
  assert.equal(warmedUp(), false);
});
