// Embedding: a parent page on another 127.0.0.1 port opens a trace in the iframe by postMessage
// (tracewise's protocol and Perfetto's PING/PONG) and receives `loaded` with the CLI's summary; two
// <tracewise-view> elements on one page load independently and size their iframes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { launch, cliSummary, siteCopy } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const t1 = dataPath('hta/tests/data/triton_example/triton_example.json.gz');
const t2 = dataPath('kineto/docs/traces/after_fix_trace.json');
let app, host, appUrl, hostUrl, dir, copy, browser;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-embed-'));
  copyFileSync(t1, join(dir, 'triton_example.json.gz'));
  copyFileSync(t2, join(dir, 'after_fix_trace.json'));
  // The docs host first: the site's embed-config.json names its origin (no other origin is allowed).
  host = await serve(dir, 0);
  hostUrl = `http://127.0.0.1:${host.address().port}/`;
  copy = siteCopy({ 'embed-config.json': { text: JSON.stringify({ allowedOrigins: [hostUrl.slice(0, -1)] }) } });
  app = await serve(copy.dir, 0);
  appUrl = `http://127.0.0.1:${app.address().port}/`;
  writeFileSync(
    join(dir, 'parent.html'),
    `<!doctype html><meta charset="utf-8"><body><iframe id="f" style="width:900px;height:400px"></iframe></body>`
  );
  writeFileSync(
    join(dir, 'elements.html'),
    `<!doctype html><meta charset="utf-8"><body><h1>docs</h1>
<tracewise-view id="a" src="triton_example.json.gz" panels="cards"></tracewise-view>
<tracewise-view id="b" src="after_fix_trace.json" panels="cards,recommendations" theme="dark"></tracewise-view>
<script src="${appUrl}tracewise-view.js"></script></body>`
  );
  browser = await launch();
});
after(async () => {
  await browser?.close();
  app?.close();
  host?.close();
  copy?.remove();
  rmSync(dir, { recursive: true, force: true });
});

// Runs in the parent page: loads the iframe, speaks one protocol, resolves with the messages seen.
// `perfetto`: the Perfetto message's fields besides its buffer (its title: the file name).
async function openInIframe(page, protocol, file, perfetto = { title: file }) {
  return page.evaluate(
    async ({ appUrl, protocol, file, perfetto }) => {
      const frame = document.getElementById('f');
      const seen = [];
      const buffer = await (await fetch(file)).arrayBuffer();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timeout; seen ${JSON.stringify(seen)}`)), 40000);
        let ping = null;
        addEventListener('message', (ev) => {
          if (ev.source !== frame.contentWindow) return;
          const d = ev.data;
          seen.push(typeof d === 'string' ? d : d.type);
          if (protocol === 'tracewise' && d?.type === 'tracewise.ready' && !seen.includes('sent')) {
            seen.push('sent');
            frame.contentWindow.postMessage({ type: 'tracewise.open', name: file, buffer }, new URL(appUrl).origin, [
              buffer,
            ]);
          }
          if (protocol === 'perfetto' && d === 'PONG' && ping) {
            clearInterval(ping);
            ping = null;
            frame.contentWindow.postMessage({ perfetto: { ...perfetto, buffer } }, new URL(appUrl).origin);
          }
          if (d?.type === 'tracewise.loaded') {
            clearTimeout(timer);
            resolve({ seen, summary: d.summary });
          }
          if (d?.type === 'tracewise.error') {
            clearTimeout(timer);
            reject(new Error(d.message));
          }
        });
        frame.src = `${appUrl}embed.html?panels=cards,kernels`;
        if (protocol === 'perfetto') ping = setInterval(() => frame.contentWindow?.postMessage('PING', '*'), 50);
      });
    },
    { appUrl, protocol, file, perfetto }
  );
}

for (const protocol of ['tracewise', 'perfetto']) {
  test(`parent on another port opens a trace by postMessage (${protocol} protocol)`, { timeout: 60000 }, async () => {
    const page = await browser.ctx.newPage();
    await page.goto(`${hostUrl}parent.html`);
    const { seen, summary } = await openInIframe(page, protocol, 'triton_example.json.gz');
    const cli = cliSummary(t1);
    cli.files[0].name = 'triton_example.json.gz';
    assert.deepEqual(summary, cli);
    assert.ok(seen.includes(protocol === 'perfetto' ? 'PONG' : 'tracewise.ready'));
    assert.ok(seen.includes('tracewise.height'));
    await page.close();
  });
}

test("Perfetto's title names the trace: the dashboard's heading and the document title, as text", async () => {
  const page = await browser.ctx.newPage();
  await page.goto(`${hostUrl}parent.html`);
  const title = 'Nightly <b>run</b> 7';
  const { summary } = await openInIframe(page, 'perfetto', 'triton_example.json.gz', {
    title,
    fileName: 'triton_example.json.gz',
    url: `${hostUrl}triton_example.json.gz`,
  });
  assert.equal(summary.files[0].name, title);
  const frame = page.frames().find((f) => f.url().includes('embed=1'));
  await frame.waitForFunction(() => window.__tracewise?.ready === true, null, { timeout: 20000 });
  assert.equal(await frame.textContent('.file-title h1'), title);
  assert.equal(await frame.$('.file-title h1 b'), null, 'the title stays text');
  assert.equal(await frame.evaluate(() => document.title), `${title} – tracewise`);
  await page.close();
});

test('two <tracewise-view> elements on one page render independently', { timeout: 60000 }, async () => {
  const page = await browser.ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${hostUrl}elements.html`);
  await page.waitForFunction(() => ['a', 'b'].every((id) => document.getElementById(id).summary), null, {
    timeout: 40000,
  });
  const names = await page.evaluate(() => ['a', 'b'].map((id) => document.getElementById(id).summary.files[0].name));
  assert.deepEqual(names, ['triton_example.json.gz', 'after_fix_trace.json']);
  for (const [id, file] of [
    ['a', t1],
    ['b', t2],
  ]) {
    const s = await page.evaluate((id) => document.getElementById(id).summary, id);
    assert.deepEqual(s.files[0].import, cliSummary(file).files[0].import);
  }
  // Each iframe was sized from its own height messages, and shows cards only (no top bar).
  await page.waitForFunction(
    () => [...document.querySelectorAll('tracewise-view iframe')].every((f) => parseInt(f.style.height) !== 160),
    null,
    { timeout: 10000 }
  );
  for (const f of page.frames().filter((x) => x.url().includes('embed=1'))) {
    assert.equal(await f.evaluate(() => getComputedStyle(document.querySelector('.topbar')).display), 'none');
    assert.ok((await f.evaluate(() => document.querySelectorAll('#overview [data-card]').length)) > 0);
  }
  const theme = await Promise.all(
    page
      .frames()
      .filter((x) => x.url().includes('embed=1'))
      .map((f) => f.evaluate(() => document.documentElement.dataset.theme ?? ''))
  );
  assert.deepEqual(theme.sort(), ['', 'dark']);
  assert.deepEqual(errors, []);
});
