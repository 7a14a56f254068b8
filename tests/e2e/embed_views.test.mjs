// postMessage with a typed-array view or a DataView as `buffer`: the page opens exactly the bytes the
// view covers (byteOffset, byteLength), not the whole buffer behind it, here a trace between junk
// bytes. The parent page is on the page's own origin (allowed whatever the embed's origin policy).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { siteCopy, launch, cliSummary } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

// A plain trace, a space added when its length is odd (a Uint16Array covers it whole then).
const plain = readFileSync(dataPath('kineto/docs/traces/after_fix_trace.json'));
const traceBytes = plain.length % 2 ? Buffer.concat([plain, Buffer.from(' ')]) : plain;
let copy, server, base, browser;

before(async () => {
  copy = siteCopy({
    'views/parent.html': {
      text: '<!doctype html><meta charset="utf-8"><body><iframe id="f" style="width:900px;height:400px"></iframe></body>',
    },
  });
  writeFileSync(join(copy.dir, 'views', 'trace.json'), traceBytes);
  server = await serve(copy.dir, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  copy?.remove();
});

// Runs in the parent page: the trace 100 bytes into a buffer with 37 more after it (all '#', not
// JSON), posted as a view of kind `view` (the buffer transferred with it when `transfer`);
// resolves with the loaded summary, rejects with an error answer.
function openView(page, { view, protocol = 'tracewise', transfer = false }) {
  return page.evaluate(
    async ({ view, protocol, transfer }) => {
      const trace = new Uint8Array(await (await fetch('trace.json')).arrayBuffer());
      const before = 100;
      const buf = new ArrayBuffer(before + trace.length + 37);
      new Uint8Array(buf).fill(0x23);
      new Uint8Array(buf, before).set(trace);
      const make = {
        Uint8Array: () => new Uint8Array(buf, before, trace.length),
        DataView: () => new DataView(buf, before, trace.length),
        Uint16Array: () => new Uint16Array(buf, before, trace.length / 2),
      };
      const frame = document.getElementById('f');
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timeout')), 40000);
        let ping = null;
        addEventListener('message', (ev) => {
          if (ev.source !== frame.contentWindow) return;
          const d = ev.data;
          if (protocol === 'tracewise' && d?.type === 'tracewise.ready') {
            const msg = { type: 'tracewise.open', name: 'trace.json', buffer: make[view]() };
            frame.contentWindow.postMessage(msg, location.origin, transfer ? [buf] : []);
          }
          if (protocol === 'perfetto' && d === 'PONG' && ping) {
            clearInterval(ping);
            ping = null;
            frame.contentWindow.postMessage(
              { perfetto: { buffer: make[view](), title: 'trace.json' } },
              location.origin
            );
          }
          if (d?.type === 'tracewise.loaded') {
            clearTimeout(timer);
            resolve(d.summary);
          }
          if (d?.type === 'tracewise.error') {
            clearTimeout(timer);
            reject(new Error(d.message));
          }
        });
        frame.src = '../embed.html?panels=cards';
        if (protocol === 'perfetto') ping = setInterval(() => frame.contentWindow?.postMessage('PING', '*'), 50);
      });
    },
    { view, protocol, transfer }
  );
}

const cases = [
  { view: 'Uint8Array' },
  { view: 'Uint8Array', transfer: true },
  { view: 'DataView' },
  { view: 'Uint16Array' },
  { view: 'Uint8Array', protocol: 'perfetto' },
];
for (const c of cases) {
  const how = `${c.transfer ? ', transferred' : ''}, ${c.protocol ?? 'tracewise'} protocol`;
  test(`a ${c.view} of part of a buffer${how}: only its bytes are opened`, { timeout: 60000 }, async () => {
    const page = await browser.ctx.newPage();
    try {
      await page.goto(`${base}views/parent.html`);
      assert.deepEqual(await openView(page, c), cliSummary(join(copy.dir, 'views', 'trace.json')));
    } finally {
      await page.close();
    }
  });
}
