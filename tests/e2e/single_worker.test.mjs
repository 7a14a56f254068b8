// ?workers=single runs everything in the trace worker (the path for browsers without nested
// workers: no feed worker, gzip inflated in the trace worker, no parts). The summary must be the
// CLI's, for a large gzip trace, a plain trace with flows across batches and a small one; a
// truncated gzip file keeps what was inflated.
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
  dir = mkdtempSync(join(tmpdir(), 'tw-single-'));
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
  test(`workers=single: ${label}, no nested worker, the CLI summary`, async () => {
    const { summary, error, opens } = await openWith('single', path);
    assert.equal(error, null);
    assert.equal(opens[0].reader, 'trace worker');
    assert.equal(opens[0].parts, 1);
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
