// node:test: the spare worker's warm-up (web/load/warm/warm_up.ts, bundled here with esbuild) through
// the wasm build: it imports the synthetic trace in two parts and absorbs the later one, as a large
// plain file is opened (parts.ts), then finishes, makes the summary (its sections sent ahead, as
// a file's are) and asks the timeline for a zoom's windows, so that V8 has optimised every function
// the first file's load and first zooms run (the absorb among them) before that file comes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';

// The module with every Session call recorded (name, arguments and result; a window's items and the
// track columns' lanes counted as they come: views into the heap do not outlive the next call), in
// order.
async function recordedModule(calls) {
  const mod = await loadModule();
  const Real = mod.Session;
  mod.Session = function Session(name) {
    const s = new Real(name);
    return new Proxy(s, {
      get(target, key) {
        const v = target[key];
        if (typeof v !== 'function') return v;
        return (...args) => {
          const out = v.apply(target, args);
          const items = out?.start?.length,
            lanes = out?.trackGroup?.length;
          calls.push({ session: name, call: String(key), args, out, items, lanes });
          return out;
        };
      },
    });
  };
  return mod;
}

test('the warm-up imports in two parts, absorbs the later one, finishes, summarises and zooms, three rounds', async () => {
  const calls = [];
  const mod = await recordedModule(calls);
  const { warmUp, warmedUp } = await loadTs('web/load/warm/warm_up.ts');
  await warmUp(async () => mod);
  assert.equal(warmedUp(), true, 'ran to its end');
  const of = (call) => calls.filter((c) => c.call === call);
  assert.equal(new Set(calls.map((c) => c.session)).size, 2, 'two sessions a round');
  assert.equal(of('finish').length, 3, 'three rounds (V8 optimises what has run enough)');
  assert.equal(of('beginLaterPart').length, 3, 'a later part each round');
  assert.ok(of('pushStaged').filter((c) => c.session === 'warm-up part').length > 0, 'the later part is imported');
  assert.deepEqual(
    of('absorbPart').map((c) => c.out),
    [true, true, true],
    'and absorbed'
  );
  const order = calls
    .filter((c) => c.session === 'warm-up')
    .map((c) => c.call)
    .filter((c) => ['absorbPart', 'finish', 'summaryJson', 'timelineWindow', 'delete'].includes(c));
  const round = ['absorbPart', 'finish', 'summaryJson', ...Array(4).fill('timelineWindow'), 'delete'];
  assert.deepEqual(
    order,
    Array(3).fill(round).flat(),
    'each round absorbed, then finished, summarised, four windows asked for, then freed'
  );
  const windows = of('timelineWindow');
  assert.ok(
    windows.every((c) => c.items > 0),
    `every window holds slices: ${windows.map((c) => c.items)}`
  );
  const lanes = of('timelineTrackColumns').map((c) => c.lanes);
  assert.ok(lanes.length === 3 && lanes.every((n) => n > 1), `the track columns each round: ${lanes}`);
  assert.ok(
    windows.every((c, i) => c.args[0].length === lanes[Math.floor(i / 4)]),
    'each window over every lane'
  );
  assert.equal(of('delete').length, 6, 'both sessions freed each round');
});
