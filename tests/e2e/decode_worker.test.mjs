// Events decoded by a decode worker beside the trace worker (web/worker/decode_client.ts,
// core/import/event_records.h): forced on with ?decode-worker=always, the summary must be the CLI's
// (the model is built from the worker's records in the same order), for a large gzip trace, a plain
// trace with flows across batches, and a small one. Forced off, no decode worker is used.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace, recordOpenReplies } from './helpers.mjs';

const MTIA = trace('hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz');  // 87 MB inflated
const DEEPSEEK = trace('deepseek_profile_data/train.json');
const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');

let s;
before(async () => {
  s = await start();
  await recordOpenReplies(s.page);
});
after(async () => { await s?.close(); });

async function openWith(mode, path) {
  await s.page.goto(`${s.url}?decode-worker=${mode}`);
  const res = await openViaInput(s.page, [path]);
  return { ...res, opens: await s.page.evaluate(() => window.__opens) };
}

for (const [label, path] of [['large gzip (MTIA)', MTIA], ['plain, flows (DeepSeek)', DEEPSEEK], ['small gzip (NCCL)', NCCL]]) {
  test(`decode worker on: ${label} gives the CLI summary`, async () => {
    const { summary, error, opens } = await openWith('always', path);
    assert.equal(error, null);
    assert.equal(opens.length, 1);
    assert.equal(opens[0].decodeWorker, true);
    assert.equal(opens[0].localBatches, 0, 'every batch decoded by the decode worker');
    assert.deepEqual(summary, cliSummary([path]));
  });
}

test('decode worker off: not started, same summary', async () => {
  const { summary, error, opens } = await openWith('never', MTIA);
  assert.equal(error, null);
  assert.equal(opens[0].decodeWorker, false);
  assert.equal(opens[0].localBatches, null);
  assert.deepEqual(summary, cliSummary([MTIA]));
});
