// While the page is idle it starts a spare trace worker that runs its warm-up (web/load/warm/warm_up.ts):
// the next file opened is imported by that warmed worker (its open reply says so) with the summary
// the CLI gives, and once that file has loaded a new spare is prepared for the file after it. An
// embedded view prepares none. The spare yields to the user: with a trace on screen it starts only
// after a second without input (web/load/page/user_quiet.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace, waitWarmUps, recordOpenReplies } from './helpers.mjs';

const A = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const B = trace('kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz');

let s;
before(async () => {
  s = await start({ recordReplies: true });
});
after(async () => {
  await s?.close();
});

test('an idle page warms a spare worker, and the next file is imported by it', async () => {
  await waitWarmUps(s.page, 1);
  const { summary, error } = await openViaInput(s.page, [A]);
  assert.equal(error, null);
  const opens = await s.page.evaluate(() => window.__opens);
  assert.equal(opens.length, 1);
  assert.equal(opens[0].warm, true);
  assert.equal(opens[0].readerStartedAhead, true, 'the warm-up started the feed worker');
  assert.deepEqual(summary, cliSummary([A]));
  assert.deepEqual(s.pageErrors, []);
});

test('after a file has loaded, another spare is warmed for the next one', async () => {
  await waitWarmUps(s.page, 2);
  await s.page.evaluate(() => {
    window.__opens = [];
  });
  const { summary, error } = await openViaInput(s.page, [B]);
  assert.equal(error, null);
  const opens = await s.page.evaluate(() => window.__opens);
  assert.equal(opens[0].warm, true);
  assert.deepEqual(summary, cliSummary([B]));
  assert.deepEqual(s.pageErrors, []);
});

// From the next navigation on, window.__traceWorkers counts the trace workers the page starts
// (a wrapper around window.Worker; over recordOpenReplies' one if that came first).
function countTraceWorkers(page) {
  return page.addInitScript(() => {
    window.__traceWorkers = 0;
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(url, ...rest) {
        super(url, ...rest);
        if (String(url).includes('worker.js')) window.__traceWorkers++;
      }
    };
  });
}

test('an embedded view (?embed=1) prepares no spare worker', async () => {
  const page = await s.context.newPage();
  await countTraceWorkers(page);
  await page.goto(`${s.url}?embed=1`);
  await page.waitForFunction(() => window.__tracewise !== undefined);
  // A spare starts after 1 s without input, at the next idle moment (within 2 s more,
  // requestIdleCallback's timeout).
  await page.waitForTimeout(4000);
  assert.equal(await page.evaluate(() => window.__traceWorkers), 0);
  await page.close();
});

// Moves the mouse over the page every 100 ms for `ms`, as a user busy with it would.
async function keepMoving(page, ms) {
  for (let t0 = Date.now(), i = 0; Date.now() - t0 < ms; i++) {
    await page.mouse.move(300 + (i % 40) * 10, 300 + (i % 7) * 20);
    await page.waitForTimeout(100);
  }
}

test('with a trace on screen, a busy user holds the spare back: none starts until input stops', async () => {
  const page = await s.context.newPage();
  await recordOpenReplies(page);
  await countTraceWorkers(page);
  await page.goto(s.url);
  await page.waitForFunction(() => window.__tracewise !== undefined);
  // Nothing on screen yet: the first spare does not wait for the user, who is on the way to a file.
  await keepMoving(page, 2500);
  assert.equal(await page.evaluate(() => window.__traceWorkers), 1, 'the first spare started while the user moved');
  await waitWarmUps(page, 1, 20_000);
  const { error } = await openViaInput(page, [A]); // takes that spare
  assert.equal(error, null);
  // Without the quiet gate, the next spare would start within ~2 s (the first idle moment).
  await keepMoving(page, 3500);
  assert.equal(await page.evaluate(() => window.__traceWorkers), 1, 'no new spare while the user is busy');
  await page.waitForFunction(() => window.__traceWorkers === 2, null, { timeout: 10_000, polling: 20 });
  await waitWarmUps(page, 2, 20_000);
  await page.close();
});
