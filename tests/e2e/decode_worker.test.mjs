// The trace worker's helpers, forced with ?workers=: `all` decodes every batch of a gzip input in a
// decode worker (web/load/decode/client.ts, core/import/event_records.h) and imports a plain one in
// parts, and `single` runs everything in the
// trace worker (the path for browsers without nested workers: no feed worker, gzip inflated in the
// trace worker). Either way the summary must be the CLI's, for a large gzip trace, a plain trace
// with flows across batches and a small one; a truncated gzip file keeps what was inflated. Batches
// shared between the two as they come (what 'auto' does on 4+ cores) are tested in node:
// tests/wasm/decode_helper.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { start, openViaInput, cliSummary, trace, recordOpenReplies } from './helpers.mjs';

const MTIA = trace('hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz'); // 87 MB inflated
const DEEPSEEK = trace('deepseek_profile_data/train.json');
const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');

let s;
let dir;
before(async () => {
  s = await start();
  await recordOpenReplies(s.page);
  dir = mkdtempSync(join(tmpdir(), 'tw-workers-'));
});
after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openWith(workers, path) {
  await s.page.goto(`${s.url}?workers=${workers}`);
  const res = await openViaInput(s.page, [path]);
  return { ...res, opens: await s.page.evaluate(() => window.__opens) };
}

for (const [label, path] of [
  ['large gzip (MTIA)', MTIA],
  ['plain, flows (DeepSeek)', DEEPSEEK],
  ['small gzip (NCCL)', NCCL],
]) {
  test(`workers=all: ${label}, every helper, the CLI summary`, async () => {
    const { summary, error, opens } = await openWith('all', path);
    assert.equal(error, null);
    assert.equal(opens.length, 1);
    assert.equal(opens[0].reader, 'feed worker');
    if (opens[0].gzip) {
      assert.equal(opens[0].decodeWorker, true);
      assert.equal(opens[0].localBatches, 0, 'every batch decoded by the decode worker');
    } else {
      // A plain file goes in parts (from 1 MB each: tests/e2e/parts.test.mjs), each part imported whole.
      assert.ok(opens[0].parts >= 2, `${opens[0].parts} parts`);
      assert.equal(opens[0].decodeWorker, false);
    }
    assert.deepEqual(summary, cliSummary([path]));
  });

  test(`workers=single: ${label}, no nested worker, the CLI summary`, async () => {
    const { summary, error, opens } = await openWith('single', path);
    assert.equal(error, null);
    assert.equal(opens[0].decodeWorker, false);
    assert.equal(opens[0].localBatches, null);
    assert.equal(opens[0].reader, 'trace worker');
    assert.deepEqual(summary, cliSummary([path]));
  });
}

test('workers=single: truncated gzip inflated in the trace worker keeps what came before', async () => {
  const whole = readFileSync(MTIA);
  const cut = join(dir, 'cut.json.gz');
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
  const { summary, error, opens } = await openWith('single', cut);
  assert.equal(error, null);
  assert.equal(opens[0].reader, 'trace worker');
  assert.ok(
    opens[0].warnings.some((w) => /gzip data ends early/.test(w)),
    opens[0].warnings.join('|')
  );
  // All that zlib can inflate from the cut file, but for the data still inside the decompressor.
  const inflatable = gunzipSync(readFileSync(cut), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).length;
  assert.ok(
    opens[0].inputBytes > inflatable - (1 << 20) && opens[0].inputBytes <= inflatable,
    `${opens[0].inputBytes} of ${inflatable} bytes inflated before the cut`
  );
  assert.equal(summary.files[0].import.events, cliSummary([cut]).files[0].import.events);
});
