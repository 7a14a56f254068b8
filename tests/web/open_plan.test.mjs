// Which helpers an open uses by mode, size and cores (web/load/trace/open_plan.ts, bundled here with
// esbuild; navigator.hardwareConcurrency set per case): parts from 2 cores for plain files from
// 64 MB, two of them on 2-3 cores, one per core but one from 4 and at most 4; never with several
// files at once ('no-decode') or 'no-parts'; forced from 1 MB with 'parts'; a decode worker only
// from 4 cores.
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
  Object.defineProperty(globalThis, 'navigator', { value: { hardwareConcurrency: n }, configurable: true, writable: true });
  try { return f(); } finally {
    if (had) Object.defineProperty(globalThis, 'navigator', had); else delete globalThis.navigator;
  }
}

test('parts by cores in the default mode', () => {
  const expected = { 1: 1, 2: 2, 3: 2, 4: 3, 8: 4, 64: 4 };
  for (const [cores, n] of Object.entries(expected)) {
    withCores(Number(cores), () => {
      assert.equal(plan.partsFor('auto'), n, `${cores} cores`);
      assert.equal(plan.partsFor(undefined), n, `${cores} cores, no mode`);
    });
  }
});

test('parts by size and mode on 2 cores', () => withCores(2, () => {
  assert.equal(plan.wantsParts('auto', 64 * MB), true);
  assert.equal(plan.wantsParts('auto', 64 * MB - 1), false);
  assert.equal(plan.wantsParts('auto', 11 * 2 ** 30), false, 'beyond the plain-file limit');
  assert.equal(plan.wantsParts('no-parts', 512 * MB), false);
  assert.equal(plan.wantsParts('no-decode', 512 * MB), false, 'several files at once: one worker each');
  assert.equal(plan.wantsParts('single', 512 * MB), false);
  assert.equal(plan.wantsParts('parts', 2 * MB), true, 'forced');
  assert.equal(plan.minPartBytes('parts'), MB);
  assert.equal(plan.minPartBytes('auto'), undefined);
}));

test('a decode worker only from 4 cores (or asked for)', () => {
  withCores(2, () => {
    assert.equal(plan.wantsDecodeWorker('auto', 512 * MB), false);
    assert.equal(plan.wantsDecodeWorker('decode', 1), true);
    assert.equal(plan.wantsDecodeWorker('all', 1), true);
  });
  withCores(4, () => {
    assert.equal(plan.wantsDecodeWorker('auto', 512 * MB), true);
    assert.equal(plan.wantsDecodeWorker('auto', 16 * MB), false);
    assert.equal(plan.wantsDecodeWorker('no-decode', 512 * MB), false);
  });
});
