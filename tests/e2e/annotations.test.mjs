// The dashboard's "GPU time by annotation" on DeepSeek's training trace: every micro-batch part
// (attn(F), attn(B), mlp(W), dispatch, combine) is a row of its own with its GPU time, names whole;
// attn(B)'s kernels come from autograd's thread; the overlapped work names the combine that runs under
// the other batch's compute, as the core's summary says. The per-name table (by_name) is not shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

test('GPU time by annotation: one row per micro-batch part, and the overlapped work', async () => {
  const { summary, error } = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(error, null);
  const want = summary.files[0].annotations;
  await s.page.waitForSelector('#overview [data-section="annotations"]');
  const shown = await s.page.$eval('#overview [data-section="annotations"]', (sec) => ({
    names: [...sec.querySelectorAll('[data-table="annotations"] tbody tr')].map(
      (tr) => tr.querySelector('td').textContent
    ),
    overlaps: [...sec.querySelectorAll('[data-table="annotation_overlaps"] tbody tr')].length,
    bars: [...sec.querySelectorAll('.ann-overlap-label')].map((x) => x.textContent),
  }));
  for (const name of ['attn(F)', 'attn(B)', 'attn(W)', 'mlp(F)', 'mlp(B)', 'mlp(W)', 'dispatch(F)', 'combine(B)'])
    assert.ok(shown.names.includes(name), `${name} in ${shown.names.join(', ')}`);
  assert.equal(shown.names.length, want.rows.length);
  assert.ok(want.rows.find((r) => r.name === 'attn(B)').gpu_ops_other_thread > 0);
  assert.equal(shown.overlaps, want.overlaps.length);
  assert.ok(
    shown.bars.some((b) => /^(combine|dispatch)\([FB]\) under (attn|mlp)\([FBW]\): /.test(b)),
    shown.bars.join(' | ')
  );
  assert.equal(await s.page.$('#overview [data-section="by_name"]'), null);
});
