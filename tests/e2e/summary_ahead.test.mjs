// The trace worker computes the summary the page will ask for as soon as it has replied to the open
// (OpenRequest.summaryNext), so the page's summary request is answered with it: the same document
// the CLI prints, for the default and the HTA-compatible analysis alike.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const RANK0 = trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz');

let s;
before(async () => {
  s = await start({ recordReplies: true });
});
after(async () => { await s?.close(); });

const replies = () => s.page.evaluate(() => window.__summaryReplies.splice(0).map((r) => ({ precomputed: r.precomputed })));

test('the summary of an opened file was computed ahead, and is the CLI one', async () => {
  const { summary, error } = await openViaInput(s.page, [NCCL]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([NCCL]));
  assert.deepEqual(await replies(), [{ precomputed: true }]);
});

test('a switch of the analysis asks again; the next file gets the switched summary ahead', async () => {
  await s.page.check('#hta-compat');
  await s.page.waitForFunction((want) => JSON.stringify(window.__tracewise.summary) === want,
    JSON.stringify(cliSummary([NCCL], { htaCompat: true })), { timeout: 20_000 });
  assert.deepEqual(await replies(), [{ precomputed: false }]);
  const { summary, error } = await openViaInput(s.page, [RANK0]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([RANK0], { htaCompat: true }));
  assert.deepEqual(await replies(), [{ precomputed: true }]);
  await s.page.uncheck('#hta-compat');
  assert.deepEqual(s.pageErrors, []);
});
