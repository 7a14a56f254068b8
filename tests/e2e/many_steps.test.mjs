// A trace with many profiler steps (300, from the spare worker's synthetic trace generator): the
// summary shown is the CLI's, and the time breakdown's per-step bars come 100 at a time with a
// "Show more steps" button (one DOM row per step for thousands of steps blocked the main thread
// for over a second), for both the temporal and the TensorBoard-category bars.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openViaInput, cliSummary } from './helpers.mjs';
import { importTs } from './share_support.mjs';

let s;
let dir;
let file;
before(async () => {
  const { warmTraceText } = await importTs('web/load/warm/warm_trace.ts');
  dir = mkdtempSync(join(tmpdir(), 'tw-steps-'));
  file = join(dir, 'many_steps.json');
  writeFileSync(file, warmTraceText(300));
  s = await start();
});
after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const stepBars = () =>
  s.page.evaluate(() =>
    [...document.querySelectorAll('[data-section="temporal"] .bd')].map((bd) => ({
      rows: bd.querySelectorAll('.bd-row').length,
      steps: [...bd.querySelectorAll('.bd-label')].filter((l) => /^step \d+$/.test(l.textContent.trim())).length,
    }))
  );

test('300 steps: the CLI summary, and step bars paged 100 then 200 at a time', async () => {
  const { summary, error } = await openViaInput(s.page, [file]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary(file));
  assert.equal(summary.files[0].steps.length, 300);
  // Two lists: temporal (the file's row + steps) and TensorBoard categories ("all steps" + steps).
  assert.deepEqual(await stepBars(), [
    { rows: 101, steps: 100 },
    { rows: 101, steps: 100 },
  ]);
  const buttons = s.page.locator('[data-section="temporal"] .bd-more button');
  assert.equal(await buttons.count(), 2);
  assert.match(await buttons.first().textContent(), /Show more steps \(200 hidden\)/);
  await buttons.first().click();
  assert.deepEqual(await stepBars(), [
    { rows: 301, steps: 300 },
    { rows: 101, steps: 100 },
  ]);
  assert.equal(await buttons.count(), 1); // the first list is complete: its button is gone
  await buttons.first().click();
  assert.deepEqual(await stepBars(), [
    { rows: 301, steps: 300 },
    { rows: 301, steps: 300 },
  ]);
  assert.equal(await buttons.count(), 0);
  assert.deepEqual(s.pageErrors, []);
});
