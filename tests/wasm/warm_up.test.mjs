// node:test: the spare worker's warm-up (web/load/warm/warm_up.ts, bundled here with esbuild) through
// the wasm build: it imports the synthetic trace in two parts and absorbs the later one, as a large
// plain file is opened (parts.ts), then finishes and makes the summary (its sections sent ahead, as
// a file's are), so that V8 has optimised every function the first file's load runs (the absorb
// among them) before that file comes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';

// The module with every Session call recorded (name and result), in order.
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
          calls.push({ session: name, call: String(key), out });
          return out;
        };
      },
    });
  };
  return mod;
}

test('the warm-up imports in two parts, absorbs the later one, finishes and summarises, three rounds', async () => {
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
    .filter((c) => ['absorbPart', 'finish', 'summaryJson', 'delete'].includes(c));
  assert.deepEqual(
    order,
    Array(3).fill(['absorbPart', 'finish', 'summaryJson', 'delete']).flat(),
    'each round absorbed, then finished, then summarised, then freed'
  );
  assert.equal(of('delete').length, 6, 'both sessions freed each round');
});
