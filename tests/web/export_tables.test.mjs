// The exports' tables read like the dashboard (web/export/digest.ts, digest_table.ts,
// export_columns.ts, markdown.ts): the dashboard's labels rather than the summary's keys, one unit
// per duration column named in its header, a share column and a total row for kernels and
// operators, long names shortened with the whole name kept, and recommendations with their text and
// evidence numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';
import { doc, longName } from './export_doc.mjs';

test('kernel and operator tables: labels, one unit per column, share column, total row', async () => {
  const { digestFile } = await loadTs('web/export/digest.ts');
  const d = digestFile(doc.files[0]);
  const kernels = d.tables.find((t) => t.path === 'kernels.top');
  assert.equal(kernels.title, 'Kernels › Top by total time');
  assert.deepEqual(
    kernels.columns.map((c) => c.label),
    ['Name', 'Count', 'Total (ms)', 'Share (%)', 'Mean (ms)', 'p50 (ms)', 'p95 (ms)', 'Max (ms)']
  );
  // 500 µs beside 2.4 ms: both in ms, as bare numbers.
  assert.deepEqual(
    kernels.rows.map((r) => r.slice(1).map((c) => c.text)),
    [
      ['2', '2.40', '80.00', '1.20', '1.10', '1.30', '1.30'],
      ['8', '0.50', '16.67', '0.06', '0.06', '0.10', '0.10'],
    ]
  );
  // The name is cut at 120 characters, the whole one kept.
  const name = kernels.rows[0][0];
  assert.equal(Array.from(name.text).length, 120);
  assert.ok(name.text.endsWith('…'));
  assert.equal(name.full, longName);
  assert.deepEqual(kernels.rows[1][0], { text: 'b' });
  // The total row: all GPU ops of the section, not only those listed.
  assert.deepEqual(
    kernels.totalRow.map((c) => c.text),
    ['All GPU ops (3 names)', '10', '3.00', '100.00', '0.30', '', '', '']
  );

  const ops = d.tables.find((t) => t.path === 'operators.top');
  assert.deepEqual(
    ops.columns.map((c) => c.label),
    ['Name', 'Calls', 'Total (ms)', 'Self (µs)', 'Share of self time (%)', 'Device self (ms)', 'Device total (ms)']
  );
  assert.deepEqual(
    ops.rows.map((r) => r.map((c) => c.text)),
    [
      ['aten::linear', '4', '9.00', '300.0', '25.00', '0.00', '2.00'],
      ['aten::addmm', '4', '8.00', '900.0', '75.00', '2.00', '2.00'],
    ]
  );
  // Inclusive times nest, so the total row leaves them out; it says whose total it is.
  assert.deepEqual(
    ops.totalRow.map((c) => c.text),
    ['The 2 operators listed of 5 (self times)', '8', '', '1200.0', '100.00', '2.00', '']
  );
});

test('recommendations carry their text and evidence numbers with units', async () => {
  const { digestFile } = await loadTs('web/export/digest.ts');
  const [rec] = digestFile(doc.files[0]).recommendations;
  assert.equal(rec.severity, 'high');
  assert.equal(rec.title, 'The GPU is idle 40 % of the time');
  assert.equal(rec.detail, 'The GPU waits for the host. Launch work earlier.');
  assert.deepEqual(rec.evidence, [
    ['Share', '40.0 %'],
    ['Idle', '1.20 s'],
    ['GPU span', '3.00 s'],
  ]);
  assert.deepEqual(rec.offenders, [{ text: 'host_wait' }]);
});

test('Markdown: the same table with its headers, units and bold total row; evidence listed', async () => {
  const { buildMarkdown } = await loadTs('web/export/markdown.ts');
  const md = buildMarkdown(doc);
  assert.match(md, /\| Name \| Count \| Total \\\(ms\\\) \| Share \\\(%\\\) \| Mean \\\(ms\\\) \|/);
  assert.match(md, /\| b \| 8 \| 0\.50 \| 16\.67 \|/);
  assert.match(md, /\| \*\*All GPU ops \\\(3 names\\\)\*\* \| \*\*10\*\* \| \*\*3\.00\*\* \|/);
  assert.doesNotMatch(md, /total_ns|mean_ns|p50_ns/);
  assert.ok(!md.includes('<b>'), 'trace text escaped');
  assert.match(md, /The GPU waits for the host\. Launch work earlier\./);
  assert.match(md, /Evidence: Share 40\.0 %, Idle 1\.20 s, GPU span 3\.00 s/);
});

test('the verdicts lead, as on the dashboard: the job first, then each file, escaped', async () => {
  const { buildMarkdown } = await loadTs('web/export/markdown.ts');
  const { buildHtmlReport } = await loadTs('web/export/html_report.ts');
  const md = buildMarkdown(doc);
  assert.ok(md.startsWith('**Job (2 files):** Both ranks are host-bound &lt;b\\>now&lt;/b\\>.'), md.slice(0, 80));
  assert.match(md, /\*\*Verdict:\*\* Host-bound: the GPU is idle 40\.0% of the step time, waiting for &lt;i\\>the CPU/);
  assert.ok(md.indexOf('**Verdict:**') < md.indexOf('**Kernels'), 'the verdict before the tables');
  const html = buildHtmlReport(doc);
  assert.match(html, /<strong>Job \(2 files\):<\/strong> Both ranks are host-bound &lt;b&gt;now&lt;\/b&gt;\./);
  assert.match(
    html,
    /<p class="verdict"><strong>Verdict:<\/strong> Host-bound: [^<]*&lt;i&gt;the CPU&lt;\/i&gt;\.<\/p>/
  );
  assert.ok(!html.includes('<i>the CPU'), 'trace text escaped');
});

test("the job's stragglers and collectives follow its verdict, escaped", async () => {
  const { buildMarkdown } = await loadTs('web/export/markdown.ts');
  const { buildHtmlReport } = await loadTs('web/export/html_report.ts');
  const md = buildMarkdown(doc);
  assert.match(md, /\*\*Stragglers\*\*\n\n- rank 1 arrives last at 3 of 3 collectives &lt;i\\>late&lt;\/i\\>\./);
  assert.match(
    md,
    /\*\*Collectives across ranks:\*\* 4 collective instances across the ranks: 3 matched .*, 1 mismatched, 0 partial/
  );
  assert.match(md, /- Mismatch: allreduce \\#1 of group &lt;g\\>, step 2: missing on rank 1/);
  assert.ok(md.indexOf('**Stragglers**') < md.indexOf('### tracewise'), 'the job before the files');
  const html = buildHtmlReport(doc);
  assert.match(
    html,
    /<ul class="stragglers"><li>rank 1 arrives last at 3 of 3 collectives &lt;i&gt;late&lt;\/i&gt;\.<\/li><\/ul>/
  );
  assert.match(html, /<p class="job-counts">4 collective instances across the ranks: 3 matched/);
  assert.match(
    html,
    /<ul class="mismatches"><li>allreduce #1 of group &lt;g&gt;, step 2: missing on rank 1<\/li><\/ul>/
  );
  assert.ok(!html.includes('<g>') && !html.includes('<i>late'), 'trace text escaped');
  // No straggler: said so; a document without the job analysis: the verdict line only.
  const none = { ...doc, job: { ...doc.job, stragglers: [] } };
  assert.match(buildMarkdown(none), /\*\*Stragglers:\*\* none found\./);
  assert.match(buildHtmlReport(none), /<p class="stragglers">None found\.<\/p>/);
  const saved = { ...doc, job: { rank_count: 2, verdict: doc.job.verdict } };
  assert.ok(!buildMarkdown(saved).includes('Stragglers'));
  assert.ok(!buildHtmlReport(saved).includes('Stragglers'));
});
