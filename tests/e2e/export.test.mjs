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
