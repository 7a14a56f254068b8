// The first screen judges the run: the verdict line is the core's sentence, above the headline cards,
// with its parts and the recommendations behind it; the GPU-busy card is judged over the steps when
// there are steps; totals that are sums and totals that are unions say which they are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const LOADER = trace('kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz');
const NO_STEPS = trace('hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
const DEEPSEEK = trace('deepseek_profile_data/train.json');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

const text = (sel) => s.page.$eval(sel, (e) => e.textContent);

test('the verdict comes first: the core sentence, its parts, the rules behind it', async () => {
  const { summary, error } = await openViaInput(s.page, [LOADER]);
  assert.equal(error, null);
  const v = cliSummary([LOADER]).files[0].verdict;
  assert.equal(v.limiter, 'data_loader');
  assert.equal(await text('[data-section="verdict"] .verdict-sentence'), v.sentence);
  assert.equal(await text('[data-section="verdict"] .verdict-label'), 'Data-loader-bound:');
  // Above the cards, right under the file's facts.
  const order = await s.page.$$eval('#overview > *', (els) => els.map((e) => e.dataset.section ?? e.className));
  assert.ok(order.indexOf('verdict') >= 0 && order.indexOf('verdict') < order.indexOf('cards'), order.join(' '));
  // One legend entry per part, in the core's order.
  const legend = await s.page.$$eval('[data-section="verdict"] .legend-item', (els) => els.map((e) => e.textContent));
  assert.equal(legend.length, v.parts.length);
  assert.match(legend[0], /^GPU computation 54\.9/);
  // The rules behind it link to their recommendations.
  const recs = await s.page.$$eval('[data-section="verdict"] .verdict-rec', (els) => els.map((e) => e.dataset.rec));
  assert.deepEqual(recs, v.recommendations);
  assert.deepEqual(recs, ['data_loading', 'gpu_idle']);
  for (const id of recs) assert.equal(await s.page.$$eval(`li.rec[data-rec="${id}"]`, (els) => els.length), 1);
  assert.equal(summary.files[0].verdict.sentence, v.sentence);
});

test('GPU busy is judged over the steps, and says so', async () => {
  await openViaInput(s.page, [LOADER]);
  const f = cliSummary([LOADER]).files[0];
  const c = f.step_breakdown.categories_ns;
  const want = (100 * (c.kernel + c.memcpy + c.memset + c.communication)) / f.step_breakdown.total_ns;
  assert.equal(await text('[data-card="gpu-busy"] .card-label'), 'GPU busy in steps');
  assert.ok(
    Math.abs(Number(await s.page.$eval('[data-card="gpu-busy"] .card-value', (e) => e.dataset.raw)) - want) < 1e-9
  );
  assert.match(await text('[data-card="gpu-busy"] .card-sub'), /of the GPU span$/);
  // Without steps: over the GPU span.
  await openViaInput(s.page, [NO_STEPS]);
  assert.equal(await text('[data-card="gpu-busy"] .card-label'), 'GPU busy');
  assert.match(
    await text('[data-section="verdict"] .verdict-sentence'),
    /No profiler steps: judged over the GPU's active span/
  );
});

test('sums and unions say which they are', async () => {
  await openViaInput(s.page, [DEEPSEEK]);
  const f = cliSummary([DEEPSEEK]).files[0];
  const note = await text('[data-note="kernels-totals"]');
  const k = f.kernels.by_kind;
  assert.match(
    note,
    new RegExp(
      `^${f.kernels.count} GPU ops: ${k.kernel.count} kernels, ${k.gpu_memcpy.count} memcpy, ${k.gpu_memset.count} memset\\.`
    )
  );
  assert.match(note, /sum of their durations/);
  assert.match(await text('[data-note="class-union"]'), /a union/);
  assert.match(await text('[data-note="classes-sums"]'), /sum of their durations/);
  assert.match(await text('[data-section="idle"] h2'), /per stream/);
  assert.match(await text('[data-card="idle-causes"] .card-sub'), /no stream running/);
});
