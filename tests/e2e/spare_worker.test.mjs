// While the page is idle it starts a spare trace worker that runs its warm-up (web/worker/warm_up.ts)
// and faults in heap for the next file (heap_ahead.ts):
// the next file opened is imported by that warmed worker (its open reply says so) with the summary
// the CLI gives, and once that file has loaded a new spare is prepared for the file after it. An
// embedded view prepares none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace, waitWarmUps } from './helpers.mjs';

const A = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const B = trace('kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz');

let s;
before(async () => {
  s = await start({ recordReplies: true });
});
after(async () => { await s?.close(); });

test('an idle page warms a spare worker, and the next file is imported by it', async () => {
  await waitWarmUps(s.page, 1);
  const { summary, error } = await openViaInput(s.page, [A]);
  assert.equal(error, null);
  const opens = await s.page.evaluate(() => window.__opens);
  assert.equal(opens.length, 1);
  assert.equal(opens[0].warm, true);
  assert.equal(opens[0].readerStartedAhead, true, 'the warm-up started the feed worker');
  // After its warm-up it faulted in heap for the file (web/worker/heap_ahead.ts), up to its 128 MB.
  assert.ok(opens[0].heapAheadPages > 1000 && opens[0].heapAheadPages <= (128 << 20) / 4096, `${opens[0].heapAheadPages} pages ahead`);
  assert.deepEqual(summary, cliSummary([A]));
  assert.deepEqual(s.pageErrors, []);
});

test('after a file has loaded, another spare is warmed for the next one', async () => {
  await waitWarmUps(s.page, 2);
  await s.page.evaluate(() => { window.__opens = []; });
  const { summary, error } = await openViaInput(s.page, [B]);
  assert.equal(error, null);
  const opens = await s.page.evaluate(() => window.__opens);
  assert.equal(opens[0].warm, true);
  assert.deepEqual(summary, cliSummary([B]));
  assert.deepEqual(s.pageErrors, []);
});

test('an embedded view (?embed=1) prepares no spare worker', async () => {
  const page = await s.context.newPage();
  await page.addInitScript(() => {
    window.__traceWorkers = 0;
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(url, ...rest) {
        super(url, ...rest);
        if (String(url).includes('worker.js')) window.__traceWorkers++;
      }
    };
  });
  await page.goto(`${s.url}?embed=1`);
  await page.waitForFunction(() => window.__tracewise !== undefined);
  // A spare starts at the first idle moment (within 2 s, requestIdleCallback's timeout).
  await page.waitForTimeout(3000);
  assert.equal(await page.evaluate(() => window.__traceWorkers), 0);
  await page.close();
});
