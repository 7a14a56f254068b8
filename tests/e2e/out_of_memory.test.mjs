// A trace that needs more memory than the browser gives the analyzer: "Out of memory" in plain words,
// and the other files load. The browser here would grow the heap to 4 GB, so a copy of the site
// caps it: its trace worker's script starts with a WebAssembly.Memory.grow that refuses to go past
// 18 MB, as a browser short of memory refuses: the warm-up and the small trace fit in the 16 MB the
// heap starts with, the 87 MB one needs 24 (a smaller model may one day fit it: then lower the cap).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE, start, openViaInput, cliSummary, trace } from './helpers.mjs';
import { siteCopy } from './share_support.mjs';
import { serve } from '../../web/serve.mjs';

const BIG = trace('hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz'); // 87 MB inflated
const GOOD = trace('hta/tests/data/trace_filter/sampled_rank-1.json.gz');
const kCapMB = 18;

const cap = `{ const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > ${kCapMB} * 2 ** 20) throw new RangeError('test: no more memory');
    return grow.call(this, pages);
  }; }
`;

let s;
let site;
let server;
before(async () => {
  s = await start();
  site = siteCopy({ 'worker.js': { text: cap + readFileSync(join(SITE, 'worker.js'), 'utf8') } });
  server = await serve(site.dir, 0);
  await s.page.goto(`http://127.0.0.1:${server.address().port}/`);
});
after(async () => {
  await s?.close();
  if (server) await new Promise((ok) => server.close(ok));
  site?.remove();
});

test('a trace too big for the memory the browser gives: "Out of memory" in plain words; the other file loads', async () => {
  const res = await openViaInput(s.page, [BIG, GOOD]);
  assert.match(res.error, /more memory after \d+ MB of mtia_rank_0\.json\.gz\. Use the command-line tool/);
  const rows = await s.page.$$eval('.load-row .msg.error', (els) => els.map((e) => e.textContent));
  assert.equal(rows.length, 1);
  assert.match(rows[0], /^Out of memory: The browser would not give the analyzer more memory/);
  assert.deepEqual(res.summary, cliSummary([GOOD]));
});

test('after running out of memory, the next file loads', async () => {
  const res = await openViaInput(s.page, [GOOD]);
  assert.equal(res.error, null);
  assert.deepEqual(res.summary, cliSummary([GOOD]));
});
