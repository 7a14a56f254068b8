// Units on the dashboard: a table's durations are in one unit per column, named in its header, and
// still sort by the summary's ns; a memory chart shows no "0 B" the trace never measured; a launch
// queue's length says what it counts; a device without a name in the trace says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json');
// CPU and GPU memory events (the CPU's carry no reserved memory), launch queues, V100s.
const DF = trace('hta/tests/data/df_index_resolver/df_index_resolver.json.gz');

let s;
let dir;
before(async () => {
  s = await start();
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-units-'));
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const kDiv = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 };

test('kernel table: each duration column in one unit named in its header, sorted by the raw ns', async () => {
  const { summary, error } = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(error, null);
  const rows = summary.files[0].kernels.top;
  const durationKeys = ['total_ns', 'mean_ns', 'p50_ns', 'p95_ns', 'min_ns', 'max_ns'];
  // The trace is a real case of the fault: a column holds values under and over a millisecond.
  assert.ok(
    durationKeys.some((k) => rows.some((r) => r[k] < 1e6) && rows.some((r) => r[k] >= 1e6)),
    'some column spans µs and ms'
  );
  const table = () =>
    s.page.$eval('#overview [data-table="kernels.top"]', (t) => ({
      keys: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.dataset.key),
      heads: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.textContent.replace(/ [▾▴]$/, '')),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => ({ text: td.textContent, raw: td.dataset.raw ?? null }))
      ),
    }));
  const t = await table();
  let checked = 0;
  for (const key of durationKeys) {
    const j = t.keys.indexOf(key);
    assert.ok(j >= 0, `${key} shown: ${t.keys.join()}`);
    const unit = /\((ns|µs|ms|s)\)$/.exec(t.heads[j])?.[1];
    assert.ok(unit, `"${t.heads[j]}" names its unit`);
    for (const r of t.rows) {
      const { text, raw } = r[j];
      // A bare number in the header's unit (or "<0.01": not zero, but under the column's last digit).
      const m = /^(<)?(\d+(?:\.(\d+))?)$/.exec(text);
      assert.ok(m, `${key}: "${text}" is a bare number`);
      const step = 10 ** -(m[3]?.length ?? 0);
      const v = Number(raw) / kDiv[unit];
      if (m[1]) assert.ok(v > 0 && v < Number(m[2]), `${key}: ${text} for ${raw} ns`);
      else assert.ok(Math.abs(v - Number(m[2])) <= step / 2 + 1e-9, `${key}: ${text} ${unit} for ${raw} ns`);
      checked++;
    }
  }
  assert.ok(checked > 50, `${checked} cells checked`);

  // Sorting reads the ns, not the text: ascending by mean, the raw values ascend.
  await s.page.click('#overview [data-table="kernels.top"] th[data-key="mean_ns"]'); // descending first
  await s.page.click('#overview [data-table="kernels.top"] th[data-key="mean_ns"]');
  const sorted = await table();
  const j = sorted.keys.indexOf('mean_ns');
  const raws = sorted.rows.map((r) => Number(r[j].raw));
  assert.deepEqual(
    raws,
    [...raws].sort((a, b) => a - b)
  );
  assert.ok(raws[0] < raws.at(-1));
});

test('memory, queue lengths and unnamed devices: every number with its unit, no 0 B unmeasured', async () => {
  // A saved summary of the trace, its devices left without names (as deviceProperties may).
  const doc = cliSummary([DF]);
  const f = doc.files[0];
  assert.ok(f.memory.devices.some((d) => d.device === -1 && d.peak_reserved === 0 && d.samples > 0));
  f.devices = f.devices.map((d, i) => ({ ...d, name: '', compute_capability: i === 0 ? '7.0' : '0.0' }));
  const path = join(dir, 'df.summary.json');
  writeFileSync(path, JSON.stringify(doc));
  const { error } = await openViaInput(s.page, [path]);
  assert.equal(error, null);

  const facts = await s.page.textContent('.file-head .facts');
  assert.match(facts, /Devices GPU \(no name in trace, compute capability 7\.0\) × 1, GPU \(no name in trace\) × 1/);
  assert.doesNotMatch(facts, /(Devices|, ) × /, 'no device without a name');

  // Memory: the CPU's chart says the trace records no reserved memory, and draws no reserved line.
  await s.page.evaluate(() => document.querySelector('[data-section="memory-chart"]').scrollIntoView());
  await s.page.waitForFunction(
    () => document.querySelectorAll('[data-section="memory-chart"] .chart .chart-legend').length >= 2,
    null,
    { timeout: 20_000 }
  );
  const charts = await s.page.$$eval('[data-section="memory-chart"] .subsection', (subs) =>
    subs.map((e) => ({
      head: e.querySelector('h4').textContent,
      legend: [...e.querySelectorAll('.chart-legend .legend-item:has(.swatch)')].map((i) => i.textContent.trim()),
    }))
  );
  const cpu = charts.find((c) => c.head.startsWith('CPU:'));
  assert.ok(cpu, JSON.stringify(charts));
  assert.equal(cpu.head, 'CPU: peak 8 B allocated (no reserved memory recorded)');
  assert.deepEqual(cpu.legend, ['allocated']);
  const gpu = charts.find((c) => c.head.startsWith('GPU 1:'));
  assert.match(gpu.head, /^GPU 1: peak 6\.6 GB allocated, 12\.8 GB reserved of 34\.1 GB$/);
  assert.deepEqual(gpu.legend, ['allocated', 'reserved']);
  for (const c of charts) assert.doesNotMatch(c.head, /\b0 B\b/);

  // The memory table: the CPU's reserved memory is not known ("–"), not 0 B; the GPU's is.
  const mem = await s.page.$eval('#overview [data-table="memory.devices"]', (t) => ({
    keys: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.dataset.key),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  }));
  const [dev, reserved] = ['device', 'peak_reserved'].map((k) => mem.keys.indexOf(k));
  assert.ok(dev >= 0 && reserved >= 0, mem.keys.join());
  assert.equal(mem.rows.find((r) => r[dev] === '-1')?.[reserved], '–');
  assert.equal(mem.rows.find((r) => r[dev] === '1')?.[reserved], '12.8 GB');

  // Launch queues: the length says what it counts.
  const queues = await s.page.$$eval('[data-section="queues"] h4', (hs) => hs.map((x) => x.textContent));
  assert.ok(queues.length > 0);
  for (const q of queues) {
    assert.match(q, /^GPU \d+ stream \d+: [\d,]+ ops? queued at most, \d+\.\d\d on average$/);
    assert.doesNotMatch(q, /max \d/);
  }
  assert.ok(queues.includes('GPU 1 stream 7: 77 ops queued at most, 7.59 on average'), queues.join(' | '));

  // A step's memory peak: the CPU without reserved memory, in the same words.
  const stepMemory = await s.page.$$eval('[data-section="step-detail"] .fact[data-key^="memory."]', (els) =>
    els.map((e) => e.textContent)
  );
  assert.ok(stepMemory.includes('CPU peak 8 B allocated (no reserved memory recorded)'), stepMemory.join(' | '));
  assert.deepEqual(s.pageErrors, []);
});
