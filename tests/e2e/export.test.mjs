// Export: the downloaded HTML report opens with no network request at all (request log) and shows
// the numbers of the dashboard; the Markdown summary has the headline table and escapes trace text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { site, launch, waitHook, importTs } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';
import { doc as tablesDoc, longName } from '../web/export_doc.mjs';

const trace = dataPath('hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
let server, base, browser, dir;
before(async () => {
  server = await serve(site, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
  dir = mkdtempSync(join(tmpdir(), 'tw-export-'));
});
after(async () => {
  await browser?.close();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the HTML report opens with no network request and shows the dashboard numbers', { timeout: 60000 }, async () => {
  const page = await browser.ctx.newPage();
  await page.goto(base);
  await page.setInputFiles('#file-input', trace);
  await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.summary);
  const shown = await page.$$eval('#overview [data-card] .card-value', (els) => els.map((e) => e.textContent));
  const download = page.waitForEvent('download');
  await page.click('#share-actions >> text=Download report');
  const file = join(dir, (await download).suggestedFilename());
  await (await download).saveAs(file);
  assert.match(file, /\.tracewise\.html$/);
  assert.equal(readFileSync(file, 'utf8'), await page.evaluate(() => window.__tracewise.export.lastHtml));

  const report = await browser.ctx.newPage();
  const requests = [];
  report.on('request', (r) => requests.push(r.url()));
  await report.goto(`file://${file}`);
  await report.waitForLoadState('networkidle');
  assert.deepEqual(requests, [`file://${file}`]);
  const inReport = await report.$$eval('[data-card] .v', (els) => els.map((e) => e.textContent));
  assert.deepEqual(inReport, shown);
  assert.match(await report.textContent('h1'), /benchmark_result_2869224_1695835535_trace/);
  // The kernel table's headers are the dashboard's labels (with the column's unit), not summary keys.
  const dashboardLabels = await page.$$eval('#overview [data-table="kernels.top"] th[data-key]', (ths) =>
    ths.map((th) => th.textContent.replace(/ \([^)]*\)$/, ''))
  );
  const reportLabels = await report.$$eval('table[data-path="kernels.top"] th', (ths) =>
    ths.map((th) => th.textContent.replace(/ \([^)]*\)$/, ''))
  );
  assert.ok(reportLabels.length >= 5, reportLabels.join());
  for (const l of reportLabels) assert.ok(dashboardLabels.includes(l), `${l} is a dashboard label: ${dashboardLabels}`);

  await page.click('#share-actions >> text=Copy Markdown');
  await waitHook(page, () => window.__tracewise.export.lastMarkdown);
  const md = await page.evaluate(() => window.__tracewise.export.lastMarkdown);
  assert.match(md, /\| Metric \| Value \|/);
  for (const v of shown) assert.ok(md.includes(v.replace(/([|*_])/g, '\\$1')), v);
  await page.close();
  await report.close();
});

test('exports escape hostile trace text', async () => {
  const m = await importTs('web/export/html_report.ts', 'web/export/markdown.ts');
  const evil = '<img src=x onerror=alert(1)>|`x`[a](http://e)';
  const doc = {
    schema: 'tracewise.summary/1',
    files: [
      {
        name: evil,
        kernels: [
          { name: evil, total_ns: 5 },
          { name: 'b', total_ns: 3 },
        ],
        recommendations: [{ title: evil, severity: '<b>', detail: '</style><script>1</script>' }],
      },
    ],
  };
  const html = m.buildHtmlReport(doc);
  assert.ok(!/<img|<script|<b>/.test(html));
  assert.ok(html.includes("default-src 'none'"));
  const md = m.buildMarkdown(doc);
  assert.ok(!md.includes('<img') && !md.includes('](http'));
  writeFileSync(join(dir, 'evil.html'), html);
  const page = await browser.ctx.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`file://${join(dir, 'evil.html')}`);
  assert.equal(requests.length, 1);
  assert.equal(await page.$('img'), null);
  await page.close();
});

test('the report reads like the dashboard: units, totals, shortened names, whole recommendations', async () => {
  const m = await importTs('web/export/html_report.ts');
  writeFileSync(join(dir, 'tables.html'), m.buildHtmlReport(tablesDoc));
  const page = await browser.ctx.newPage();
  await page.goto(`file://${join(dir, 'tables.html')}`);
  const kernels = await page.$eval('table[data-path="kernels.top"]', (t) => ({
    heads: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
    total: [...t.querySelectorAll('tfoot td')].map((td) => td.textContent),
    nameTitle: t.querySelector('tbody td.name').title,
  }));
  assert.deepEqual(kernels.heads, [
    'Name',
    'Count',
    'Total (ms)',
    'Share (%)',
    'Mean (ms)',
    'p50 (ms)',
    'p95 (ms)',
    'Max (ms)',
  ]);
  assert.deepEqual(kernels.rows[1], ['b', '8', '0.50', '16.67', '0.06', '0.06', '0.10', '0.10']);
  assert.deepEqual(kernels.total, ['All GPU ops (3 names)', '10', '3.00', '100.00', '0.30', '', '', '']);
  // The name is shortened on the page and whole in its title; its markup stayed text.
  assert.equal([...kernels.rows[0][0]].length, 120);
  assert.equal(kernels.nameTitle, longName);
  assert.equal(await page.$('td b, th b'), null);
  const opsTotal = await page.$$eval('table[data-path="operators.top"] tfoot td', (tds) =>
    tds.map((t) => t.textContent)
  );
  assert.equal(opsTotal[0], 'The 2 operators listed of 5 (self times)');

  const recs = await page.$$eval('li.rec', (lis) =>
    lis.map((li) => ({
      severity: li.querySelector('.sev').textContent,
      title: li.querySelector('.rec-title').textContent,
      text: li.querySelector('.rec-text').textContent,
      evidence: [...li.querySelectorAll('.evidence div')].map((d) => [
        d.firstChild.textContent,
        d.lastChild.textContent,
      ]),
    }))
  );
  assert.deepEqual(recs, [
    {
      severity: 'high',
      title: 'The GPU is idle 40 % of the time',
      text: 'The GPU waits for the host. Launch work earlier.',
      evidence: [
        ['Share', '40.0 %'],
        ['Idle', '1.20 s'],
        ['GPU span', '3.00 s'],
      ],
    },
  ]);
  await page.close();
});
