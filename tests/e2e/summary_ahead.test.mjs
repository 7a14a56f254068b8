// The trace worker computes the summary the page will ask for as soon as it has replied to the open
// (OpenRequest.summaryNext), so the page's summary request is answered with it: the same document
// the CLI prints, for the default and the HTA-compatible analysis alike. Its big tables are sent
// ahead of it in two parts (SummaryPart), whose tables the page lays out early.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const RANK0 = trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz');

let s;
before(async () => {
  s = await start({ recordReplies: true });
});
after(async () => {
  await s?.close();
});

const replies = () =>
  s.page.evaluate(() => window.__summaryReplies.splice(0).map((r) => ({ precomputed: r.precomputed })));
// The parts sent since the last call: their keys, and whether each came before the summary reply.
const parts = () =>
  s.page.evaluate(() => {
    const reply = window.__summaryReplies.at(-1)?.at ?? Infinity;
    return window.__summaryParts.splice(0).map((p) => ({ keys: p.keys.sort().join(' '), before: p.at <= reply }));
  });
const kParts = [
  { keys: 'bytes devices display_time_unit import launches memory model name operators rank world_size', before: true },
  { keys: 'collectives kernels', before: true },
];
const early = () => s.page.$$eval('#overview [data-early]', (els) => els.map((e) => e.dataset.section));

test('the summary of an opened file was computed ahead, and is the CLI one', async () => {
  const { summary, error } = await openViaInput(s.page, [NCCL]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([NCCL]));
  assert.deepEqual(await parts(), kParts);
  assert.deepEqual(await replies(), [{ precomputed: true }]);
  assert.ok((await early()).includes('operators'));
});

test('a switch of the analysis asks again; the next file gets the switched summary ahead', async () => {
  await s.page.check('#hta-compat');
  await s.page.waitForFunction(
    (want) => JSON.stringify(window.__tracewise.summary) === want,
    JSON.stringify(cliSummary([NCCL], { htaCompat: true })),
    { timeout: 20_000 }
  );
  assert.deepEqual(await parts(), []); // asked for, not made ahead: nothing sent ahead
  assert.deepEqual(await replies(), [{ precomputed: false }]);
  assert.deepEqual(await early(), []);
  const { summary, error } = await openViaInput(s.page, [RANK0]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([RANK0], { htaCompat: true }));
  assert.deepEqual(await parts(), kParts);
  assert.deepEqual(await replies(), [{ precomputed: true }]);
  assert.ok((await early()).includes('operators')); // made with the switched analysis, so used
  await s.page.uncheck('#hta-compat');
  assert.deepEqual(s.pageErrors, []);
});
