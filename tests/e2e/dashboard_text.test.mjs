// What the dashboard says, beyond its numbers: recommendation offenders link into the timeline only
// when they are event names; generic sections keep acronyms, put the identifying column first, drop
// columns with nothing to say and show unknown sizes as "–"; idle causes read as the legend writes
// them; step columns name their one unit; the share / export buttons wait for a summary; the drop
// card survives a failed file; a missing call site reads as words; a section's "top" table comes
// first; and at 800 px the page does not scroll sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json');
const RANK0 = trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz');
const NOT_TRACE = trace('hta/tests/data/execution_trace/benchmark_simple_add_et.json.gz');

let s;
let dir;
before(async () => {
  s = await start();
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-text-'));
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each recommendation's offenders: the ones shown as timeline links and the ones shown as text.
const offenders = () =>
  s.page.$$eval('[data-section="recommendations"] li.rec', (lis) =>
    lis.map((li) => ({
      title: li.querySelector('.rec-title')?.textContent ?? '',
      links: [...li.querySelectorAll('.offenders .tl-link')].map((a) => a.textContent),
      text: [...li.querySelectorAll('.offenders .offender')].map((e) => e.textContent),
    }))
  );

test('recommendations: only event names link into the timeline; idle causes read as words', async () => {
  // A saved summary (opens read-only) with one recommendation of each kind of offender.
  const doc = cliSummary([RANK0]);
  const rec = (id, list) => ({
    id,
    severity: 'medium',
    title: id,
    text: id,
    evidence: { numbers: {}, offenders: list, ranges: [] },
  });
  doc.files[0].recommendations = [
    rec('launch_bound', ['aten::add_', 'void my_kernel<float>(float*)']),
    rec('host_syncs', ['aten::item', null]),
    rec('data_loading', ['ProfilerStep#3']),
    rec('no_tensor_cores', ['volta_sgemm_128x64_nn']),
    rec('gpu_idle', ['host_wait']),
    rec('exposed_communication', ['sendrecv', 'allreduce']),
    rec('unbalanced_micro_batches', ['stream 7', 'stream 20']),
    rec('a_rule_from_the_future', ['something']),
  ];
  const path = join(dir, 'recs.summary.json');
  writeFileSync(path, JSON.stringify(doc));
  const { error } = await openViaInput(s.page, [path]);
  assert.equal(error, null);
  const byTitle = Object.fromEntries((await offenders()).map((r) => [r.title.replace(/^medium/i, ''), r]));
  assert.deepEqual(byTitle.launch_bound, {
    title: 'mediumlaunch_bound',
    links: ['aten::add_', 'void my_kernel<float>(float*)'],
    text: [],
  });
  assert.deepEqual(byTitle.host_syncs.links, ['aten::item']);
  assert.deepEqual(byTitle.host_syncs.text, ['code outside any operator']);
  assert.deepEqual(byTitle.data_loading.links, ['ProfilerStep#3']);
  assert.deepEqual(byTitle.no_tensor_cores.links, ['volta_sgemm_128x64_nn']);
  assert.deepEqual(byTitle.gpu_idle, { title: 'mediumgpu_idle', links: [], text: ['host wait'] });
  assert.deepEqual(byTitle.exposed_communication, {
    title: 'mediumexposed_communication',
    links: [],
    text: ['sendrecv', 'allreduce'],
  });
  assert.deepEqual(byTitle.unbalanced_micro_batches.links, []);
  assert.deepEqual(byTitle.a_rule_from_the_future.links, []);

  // The live page on a real trace: whatever fired, no idle cause or collective type is a link.
  const live = await openViaInput(s.page, [RANK0]);
  assert.equal(live.error, null);
  const recs = live.summary.files[0].recommendations;
  const shown = await offenders();
  recs.forEach((r, i) => {
    const o = shown.find((x) => x.title.endsWith(r.title));
    assert.ok(o, `recommendation ${i} shown`);
    if (r.id === 'gpu_idle' || r.id === 'exposed_communication') assert.deepEqual(o.links, [], r.id);
    if (r.id === 'gpu_idle')
      assert.ok(
        o.text.every((t) => !t.includes('_')),
        o.text.join()
      );
  });
});

test('generic sections: acronyms, identifying column first, no empty columns, unknown bytes, durations', async () => {
  const { summary, error } = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(error, null);
  const f = summary.files[0];
  const labels = await s.page.$$eval('#overview th, #overview dt', (els) =>
    els.map((e) => e.textContent.replace(/ [▾▴]$/, ''))
  );
  const bad = labels.filter((l) => /\b(Gpu|Cpu|Nccl|Hta|Id|Mb|Gb)\b/.test(l));
  assert.deepEqual(bad, [], 'labels write acronyms in capitals');
  assert.ok(labels.includes('GPU ops'), 'operators: "GPU ops"');
  assert.ok(labels.includes('Launch CPU'), 'launches: "Launch CPU"');

  const table = (id) =>
    s.page.$eval(`#overview [data-table="${id}"]`, (t) => ({
      keys: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.dataset.key),
      heads: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => ({
          text: td.textContent,
          raw: td.dataset.raw ?? null,
          title: td.title,
        }))
      ),
    }));
  // Collectives by type: the type first; no column that is "–" in every row. This trace's collectives
  // carry no message sizes (sized_ops 0): bytes and bandwidths are unknown, so not shown.
  const byType = await table('collectives.by_type');
  assert.equal(byType.keys[0], 'type');
  byType.keys.forEach((k, j) =>
    assert.ok(
      byType.rows.some((r) => r[j].text !== '–'),
      `column ${k} is not empty`
    )
  );
  assert.ok(f.collectives.by_type.every((r) => r.sized_ops === 0 && r.bytes === 0));
  assert.ok(
    !byType.keys.includes('bytes') && !byType.keys.includes('algbw_gbps') && !byType.keys.includes('group_size'),
    byType.keys.join()
  );

  // Longest exposed stretches: a duration column (end - begin), not only the two timestamps.
  const worst = await table('collectives.worst_exposed');
  const j = worst.keys.indexOf('duration_ns');
  assert.ok(j >= 0, worst.keys.join());
  // The column names its one unit ("Duration (ms)"); its cells are bare numbers in it, to its last
  // digit; each cell's title has the value in its own unit ("72.96 µs"), to 1 %.
  const unit = /\((ns|µs|ms|s)\)$/.exec(worst.heads[j])?.[1];
  assert.ok(unit, worst.heads[j]);
  const kNs = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 };
  worst.rows.forEach((r, i) => {
    const want = f.collectives.worst_exposed[i].end_ns - f.collectives.worst_exposed[i].begin_ns;
    const step = 10 ** -(r[j].text.split('.')[1]?.length ?? 0);
    assert.ok(
      Math.abs(Number(r[j].text) - want / kNs[unit]) <= step / 2 + 1e-9,
      `stretch ${i}: ${r[j].text} ${unit} for ${want} ns`
    );
    const [v, u] = r[j].title.split(' ');
    assert.ok(Math.abs(Number(v) * kNs[u] - want) <= want * 0.01, `stretch ${i}: title ${r[j].title} for ${want} ns`);
    assert.equal(r[j].raw, null, 'a derived value carries no data-raw');
  });

  // Idle: causes as the legend writes them, and the bars' right-hand number says what it is.
  const gaps = await table('idle_gaps');
  const cause = gaps.keys.indexOf('category');
  assert.ok(
    gaps.rows.length > 0 && gaps.rows.every((r) => !r[cause].text.includes('_')),
    'no host_wait in the idle table'
  );
  assert.ok(gaps.rows.some((r) => r[cause].text === 'host wait'));
  const legend = await s.page.$$eval('[data-section="idle"] .legend-item', (els) =>
    els.map((e) => e.textContent.trim())
  );
  for (const r of gaps.rows) assert.ok(legend.includes(r[cause].text), `${r[cause].text} is in the legend ${legend}`);
  const right = await s.page.$$eval('[data-section="idle"] .bd-right', (els) => els.map((e) => e.textContent));
  assert.ok(right.length > 0 && right.every((t) => / idle$/.test(t)), right.join(' | '));

  // This trace's one host sync is called from no operator: its call site says so, not "–".
  assert.equal(f.launches.host_syncs.top_sites[0].name, null);
  const sites = await table('launches.host_syncs.top_sites');
  assert.equal(sites.rows[0][sites.keys.indexOf('name')].text, '(outside any operator)');
  // A section's main table ("top") comes before its other tables.
  const operatorTables = await s.page.$$eval('[data-section="operators"] [data-table]', (ts) =>
    ts.map((t) => t.dataset.table)
  );
  assert.equal(operatorTables[0], 'operators.top', operatorTables.join());

  // Table rows render only near the viewport (content-visibility), on their own: Chrome's autofill
  // lays out each skipped panel that holds a form field when it scans the fields, and must not lay
  // out the rows with it. So a field's only skippable ancestor is its panel, never a rows box.
  const cv = await s.page.evaluate(() => ({
    scrolls: [...document.querySelectorAll('#overview .table-scroll')].map(
      (e) => getComputedStyle(e).contentVisibility
    ),
    fieldsSkippedBy: [...document.querySelectorAll('#overview input, #overview select')].map((el) => {
      const by = [];
      for (let p = el.parentElement; p; p = p.parentElement)
        if (getComputedStyle(p).contentVisibility !== 'visible') by.push(p.className);
      return by.join(' / ');
    }),
  }));
  assert.ok(cv.scrolls.length > 5 && cv.scrolls.every((v) => v === 'auto'), cv.scrolls.join());
  assert.ok(cv.fieldsSkippedBy.length > 5, cv.fieldsSkippedBy.join());
  for (const by of cv.fieldsSkippedBy) assert.equal(by, 'panel layout-when-near');

  // Steps: every time / percentage column in one unit, named in its header; cells are bare numbers.
  const steps = await s.page.$eval('[data-section="steps"] [data-table="steps"]', (t) => ({
    heads: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.textContent),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  }));
  assert.ok(steps.heads.includes('GPU idle (%)'), steps.heads.join());
  steps.heads.forEach((head, k) => {
    if (head === 'Step') return;
    assert.match(head, /\((s|ms|µs|ns|%)\)$/, `${head} names its unit`);
    for (const r of steps.rows) assert.match(r[k], /^(\+?(<|>-)?-?\d+(\.\d+)?|–)$/, `${head}: ${r[k]}`);
  });
});

test('share / export buttons wait for a summary; the drop card stays after a failed file', async () => {
  await s.page.goto(s.url);
  await s.page.waitForSelector('#share-actions button');
  const buttons = () => s.page.$$eval('#share-actions button', (bs) => bs.map((b) => [b.textContent, b.disabled]));
  const names = ['Copy link', 'Copy summary link', 'Download report', 'Copy Markdown'];
  for (const n of names)
    assert.ok(
      (await buttons()).some(([t, d]) => t === n && d === true),
      `${n} disabled on the empty page`
    );

  const bad = await openViaInput(s.page, [NOT_TRACE]);
  assert.match(bad.error, /Not a trace/);
  assert.ok(
    (await buttons()).every(([, d]) => d),
    'still disabled after a failed file'
  );
  assert.equal(await s.page.isVisible('#empty .drop-card'), true, 'the drop card stays');
  assert.equal(await s.page.isVisible('#empty [data-sample]'), true, '"Try a sample" stays');

  const good = await openViaInput(s.page, [RANK0]);
  assert.equal(good.error, null);
  assert.ok(
    (await buttons()).every(([, d]) => !d),
    'enabled once a summary is shown'
  );
  assert.equal(await s.page.isVisible('#empty'), false);
});

test('800 px wide: no horizontal page scroll, every top bar control on screen', async () => {
  await s.page.setViewportSize({ width: 800, height: 900 });
  try {
    await s.page.goto(s.url);
    await s.page.waitForSelector('#share-actions button');
    const check = async (when) => {
      const m = await s.page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        off: [...document.querySelectorAll('.topbar button, .topbar label, .topbar a')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
          .filter(([, r]) => r.left < 0 || r.right > 800)
          .map(([t]) => t),
      }));
      assert.ok(m.width <= 800, `${when}: page ${m.width} px wide`);
      assert.deepEqual(m.off, [], `${when}: off-screen`);
    };
    await check('empty page');
    const { error } = await openViaInput(s.page, [DEEPSEEK]);
    assert.equal(error, null);
    await s.page.evaluate(() => {
      for (const e of document.querySelectorAll('#overview > *')) e.style.contentVisibility = 'visible';
    });
    await check('dashboard');
  } finally {
    await s.page.setViewportSize({ width: 1400, height: 900 });
  }
});
