// The postMessage API's allowed origins (embed-config.json): a parent page on a 127.0.0.1 port the
// deployment lists opens a trace by both protocols and gets `loaded` with the CLI's summary; a parent
// on another 127.0.0.1 port that is not listed gets no PONG, no progress and no `loaded` (only an
// error answer to tracewise.open), and the embedded page shows nothing loaded; without the file, so
// is every origin but the page's own (local ports included). Unreadable bytes get tracewise.error
// with the CLI's message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { launch, cliSummary, site, siteCopy } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const trace = dataPath('hta/tests/data/critical_path/cuda_event_sync/event_sync_trace.json.gz');
let dir, allowedHost, refusedHost, copy, app, appUrl, browser;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-origins-'));
  copyFileSync(trace, join(dir, 'event_sync_trace.json.gz'));
  writeFileSync(join(dir, 'bad.json'), 'hello, this is not a trace\n');
  writeFileSync(
    join(dir, 'parent.html'),
    '<!doctype html><meta charset="utf-8"><body><iframe id="f" style="width:900px;height:400px"></iframe></body>'
  );
  allowedHost = await serve(dir, 0);
  refusedHost = await serve(dir, 0);
  const allowed = `http://127.0.0.1:${allowedHost.address().port}`;
  copy = siteCopy({
    'embed-config.json': { text: JSON.stringify({ allowedOrigins: [allowed, 'https://docs.example.com'] }) },
  });
  app = await serve(copy.dir, 0);
  appUrl = `http://127.0.0.1:${app.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const s of [app, allowedHost, refusedHost]) s?.close();
  copy?.remove();
  rmSync(dir, { recursive: true, force: true });
});

// In the parent page: loads the embed page in the iframe, speaks one protocol for `ms`, or until
// `loaded` / `error`; returns every message the iframe sent (strings as they are, objects by type).
function talk(page, protocol, ms, file = 'event_sync_trace.json.gz', at = appUrl) {
  return page.evaluate(
    async ({ appUrl, protocol, ms, file }) => {
      const frame = document.getElementById('f');
      const origin = new URL(appUrl).origin;
      const buffer = await (await fetch(file)).arrayBuffer();
      const seen = [];
      let summary = null;
      let error = null;
      let ping = null;
      await new Promise((done) => {
        const timer = setTimeout(done, ms);
        addEventListener('message', (ev) => {
          if (ev.source !== frame.contentWindow) return;
          const d = ev.data;
          seen.push(typeof d === 'string' ? d : d?.type);
          if (protocol === 'tracewise' && d?.type === 'tracewise.ready') {
            frame.contentWindow.postMessage({ type: 'tracewise.open', name: file, buffer: buffer.slice(0) }, origin);
          }
          if (protocol === 'perfetto' && d === 'PONG' && ping) {
            clearInterval(ping);
            ping = null;
            frame.contentWindow.postMessage({ perfetto: { buffer: buffer.slice(0), title: file } }, origin);
          }
          if (d?.type === 'tracewise.loaded') {
            summary = d.summary;
            clearTimeout(timer);
            done();
          }
          if (d?.type === 'tracewise.error') {
            error = d.message;
            clearTimeout(timer);
            setTimeout(done, 300);
          }
        });
        frame.src = `${appUrl}embed.html?panels=cards`;
        // Perfetto's clients PING until PONG; a refused parent also pushes a trace without waiting.
        if (protocol === 'perfetto') {
          ping = setInterval(() => frame.contentWindow?.postMessage('PING', '*'), 50);
          setTimeout(
            () =>
              frame.contentWindow?.postMessage({ perfetto: { buffer: buffer.slice(0), title: 'pushed.json.gz' } }, '*'),
            1500
          );
        }
      });
      if (ping) clearInterval(ping);
      return { seen, summary, error };
    },
    { appUrl: at, protocol, ms, file }
  );
}

const embedded = (page) => page.frames().find((f) => f.url().includes('embed=1'));

for (const protocol of ['tracewise', 'perfetto']) {
  test(
    `an allowed parent origin opens a trace (${protocol} protocol) and gets the CLI's summary`,
    { timeout: 60000 },
    async () => {
      const page = await browser.ctx.newPage();
      await page.goto(`http://127.0.0.1:${allowedHost.address().port}/parent.html`);
      const { seen, summary } = await talk(page, protocol, 40000);
      const cli = cliSummary(trace);
      assert.deepEqual(summary, cli);
      assert.ok(seen.includes('tracewise.progress'), seen.join());
      if (protocol === 'perfetto') assert.ok(seen.includes('PONG'));
      await page.close();
    }
  );

  test(`a parent origin not in embed-config.json gets nothing (${protocol} protocol)`, { timeout: 60000 }, async () => {
    const page = await browser.ctx.newPage();
    const refused = `http://127.0.0.1:${refusedHost.address().port}`;
    await page.goto(`${refused}/parent.html`);
    const { seen, summary } = await talk(page, protocol, 4000);
    assert.equal(summary, null);
    for (const never of ['PONG', 'tracewise.progress', 'tracewise.loaded'])
      assert.ok(!seen.includes(never), `${never} in ${seen.join()}`);
    assert.ok(seen.includes('tracewise.ready'));
    assert.ok(seen.includes('tracewise.error'), 'tracewise.open is answered with an error');
    const frame = embedded(page);
    const state = await frame.evaluate(() => ({
      summary: window.__tracewise.summary,
      messages: window.__tracewise.messages,
      empty: !document.getElementById('empty').hidden,
      cards: document.querySelectorAll('#overview [data-card]').length,
    }));
    assert.deepEqual(
      { summary: state.summary, opened: state.messages.opened, cards: state.cards, empty: state.empty },
      { summary: null, opened: [], cards: 0, empty: true }
    );
    assert.ok(state.messages.refused.includes(refused));
    await page.close();
  });
}

test('a trace that cannot be read is answered with tracewise.error (and no loaded)', { timeout: 60000 }, async () => {
  const page = await browser.ctx.newPage();
  await page.goto(`http://127.0.0.1:${allowedHost.address().port}/parent.html`);
  const { seen, summary, error } = await talk(page, 'tracewise', 30000, 'bad.json');
  assert.equal(summary, null);
  assert.ok(!seen.includes('tracewise.loaded'), seen.join());
  assert.match(error ?? '', /^bad\.json: Not a trace/); // the CLI's message for the same bytes
  await page.close();
});

test('embed-config parsing: a listed origin is exact; without a list, only the page itself', async () => {
  const { importTs } = await import('./share_support.mjs');
  const m = await importTs('web/embed/embed_config.ts');
  const cfg = m.parseConfig({ allowedOrigins: ['https://docs.example.com'] });
  const self = 'https://tw.example.com';
  assert.equal(m.originAllowed('https://docs.example.com', cfg, self), true);
  assert.equal(m.originAllowed(self, cfg, self), true);
  assert.equal(m.originAllowed('http://127.0.0.1:9999', cfg, self), false);
  assert.equal(m.originAllowed('https://docs.example.com.evil.net', cfg, self), false);
  for (const bad of [null, {}, { allowedOrigins: 'x' }, undefined, 'https://docs.example.com']) {
    const c = m.parseConfig(bad);
    assert.equal(m.originAllowed(self, c, self), true);
    // Local ports are not trusted for being local (the default allowed them once).
    for (const other of [
      'http://127.0.0.1:9999',
      'http://localhost:8000',
      'http://[::1]:80',
      'https://docs.example.com',
    ])
      assert.equal(m.originAllowed(other, c, self), false, other);
  }
  assert.equal(m.originAllowed('https://any.example', m.parseConfig({ allowedOrigins: ['*'] }), self), true);
});

test('without embed-config.json a parent on another local port is refused', { timeout: 60000 }, async () => {
  const plain = await serve(site, 0);
  try {
    const page = await browser.ctx.newPage();
    await page.goto(`http://127.0.0.1:${allowedHost.address().port}/parent.html`);
    const { seen, summary } = await talk(
      page,
      'tracewise',
      4000,
      'event_sync_trace.json.gz',
      `http://127.0.0.1:${plain.address().port}/`
    );
    assert.equal(summary, null);
    assert.ok(seen.includes('tracewise.error') && !seen.includes('tracewise.progress'), seen.join());
    await page.close();
  } finally {
    plain.close();
  }
});
