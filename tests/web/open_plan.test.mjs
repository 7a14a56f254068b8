// Which helpers an open uses by mode, size and cores (web/load/trace/open_plan.ts, bundled here with
// esbuild; navigator.hardwareConcurrency set per case): in 'auto', parts from 2 cores for plain
// files from 64 MB, two of them on 2-3 cores, one per core but one from 4 and at most 4; none while
// other files load; 'single' none; 'all' parts from 1 MB whatever the cores.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const MB = 1 << 20;
let plan;
before(async () => {
  plan = await loadTs('web/load/trace/open_plan.ts');
});

function withCores(n, f) {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', {
    value: { hardwareConcurrency: n },
    configurable: true,
    writable: true,
  });
  try {
    return f();
  } finally {
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete globalThis.navigator;
  }
}

test('three modes', () => {
  assert.deepEqual([...plan.kWorkersModes], ['auto', 'single', 'all']);
});

test('parts by cores in the default mode', () => {
  const expected = { 1: 1, 2: 2, 3: 2, 4: 3, 8: 4, 64: 4 };
  for (const [cores, n] of Object.entries(expected)) {
    withCores(Number(cores), () => {
      assert.equal(plan.partsFor('auto', false), n, `${cores} cores`);
      assert.equal(plan.partsFor('auto', true), 1, `${cores} cores, other files loading`);
      assert.equal(plan.partsFor('single', false), 1, `${cores} cores, single`);
      assert.equal(plan.partsFor('all', true), Math.max(2, n), `${cores} cores, all`);
    });
  }
});

test('parts by size and mode on 2 cores', () =>
  withCores(2, () => {
    assert.equal(plan.wantsParts('auto', false, 64 * MB), true);
    assert.equal(plan.wantsParts('auto', false, 64 * MB - 1), false);
    assert.equal(plan.wantsParts('auto', false, 11 * 2 ** 30), false, 'beyond the plain-file limit');
    assert.equal(plan.wantsParts('auto', true, 512 * MB), false, 'several files at once: one worker each');
    assert.equal(plan.wantsParts('single', false, 512 * MB), false);
    assert.equal(plan.wantsParts('all', false, 2 * MB), true, 'forced');
    assert.equal(plan.wantsParts('all', true, 2 * MB), true, 'forced, other files loading');
    assert.equal(plan.minPartBytes('all'), MB);
    assert.equal(plan.minPartBytes('auto'), undefined);
  }));

test('parts on one core only when forced', () =>
  withCores(1, () => {
    assert.equal(plan.wantsParts('auto', false, 512 * MB), false);
    assert.equal(plan.wantsParts('all', false, 512 * MB), true);
  }));
