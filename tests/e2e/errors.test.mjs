// Bad input in the page: each problem is said in plain words, nothing from the file is inserted as
// HTML, and the next file loads normally. Also truncated files, bad URLs and cancelling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { start, openViaInput, openViaDrop, waitSettled, cliSummary, trace } from './helpers.mjs';

const GOOD = trace('hta/tests/data/trace_filter/sampled_rank-1.json.gz');
const NOT_TRACE = trace('hta/tests/data/execution_trace/benchmark_simple_add_et.json.gz');
const TRUNCATED = trace('speedscope/sample/profiles/trace-event/simple-partial.json');

let s;
let dir;
before(async () => {
  s = await start();
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-files-'));
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function errorRows() {
  return s.page.$$eval('.load-row .msg.error', (els) => els.map((e) => e.textContent));
}

test('a JSON file that is not a trace: plain error, then the next file loads', async () => {
  const bad = await openViaInput(s.page, [NOT_TRACE]);
  assert.equal(bad.summary, null);
  assert.match(bad.error, /Not a trace/);
  const rows = await errorRows();
  assert.equal(rows.length, 1);
  assert.match(rows[0], /^Not a trace: (?!Not a trace)/);
  assert.equal(await s.page.isVisible('#overview'), false);
  const good = await openViaInput(s.page, [GOOD]);
  assert.equal(good.error, null);
  assert.deepEqual(good.summary, cliSummary([GOOD]));
  assert.deepEqual(await errorRows(), []);
});

test('random bytes and a hostile file name: shown as text, never as HTML', async () => {
  const name = join(dir, '<img src=x onerror="window.__pwned=1">.json');
  writeFileSync(name, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 0xff, 0xfe]));
  const res = await openViaDrop(s.page, [name]);
  assert.match(res.error, /Not a trace/);
  assert.equal(await s.page.evaluate(() => window.__pwned), undefined);
  assert.equal(await s.page.$$eval('#loads img', (els) => els.length), 0);
  assert.match(await s.page.textContent('#loads'), /<img src=x onerror/);
});

test('one bad and one good file together: the good one loads, the bad one says why', async () => {
  const res = await openViaInput(s.page, [NOT_TRACE, GOOD]);
  assert.match(res.error, /Not a trace/);
  assert.deepEqual(res.summary, cliSummary([GOOD]));
  assert.equal(await s.page.isVisible('#overview'), true);
});

test('a file deleted after it was chosen: it could not be read, in plain words; the next file loads', async () => {
  // Chosen in a hidden input of the test's, deleted on disk, then dropped on the page: the browser
  // cannot read it any more (as after moving it away while the page waited).
  const gone = join(dir, 'gone.json');
  writeFileSync(gone, readFileSync(TRUNCATED));
  await s.page.evaluate(() => {
    const i = document.createElement('input');
    i.type = 'file';
    i.id = 'test-gone';
    i.hidden = true;
    document.body.append(i);
  });
  await s.page.setInputFiles('#test-gone', gone);
  rmSync(gone);
  await s.page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await s.page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(document.getElementById('test-gone').files[0]);
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.getElementById('test-gone').remove();
  });
  const res = await waitSettled(s.page);
  assert.equal(res.summary, null);
  assert.match(res.error, /could not read the file .*moved or deleted/i);
  assert.match((await errorRows()).join(' '), /^Could not read the file: /);
  const good = await openViaInput(s.page, [GOOD]);
  assert.equal(good.error, null);
  assert.deepEqual(good.summary, cliSummary([GOOD]));
});

test('truncated JSON loads what is complete, with a warning', async () => {
  const res = await openViaInput(s.page, [TRUNCATED]);
  assert.equal(res.error, null);
  assert.equal(res.summary.files[0].import.truncated, true);
  assert.deepEqual(res.summary, cliSummary([TRUNCATED]));
  assert.match(await s.page.textContent('#loads .msg.warning'), /truncated/);
});

// The event starts of a trace's events array (a plain scan: the file is valid JSON).
function eventStarts(text) {
  const starts = [];
  let depth = 0;
  let inString = false;
  let escape = false;
  for (let i = text.indexOf('[', text.indexOf('"traceEvents"')) + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escape) escape = false;
      else if (c === '\\') escape = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) starts.push(i);
    } else if (c === '}' || c === ']') {
      if (depth-- === 0) break;
    }
  }
  return starts;
}

test('a stray byte mid-file: every event loads, the damage is a warning with its byte offset', async () => {
  const text = gunzipSync(readFileSync(trace('deepseek_profile_data/train.json.gz'))).toString('latin1');
  const at = eventStarts(text)[99];
  const damaged = join(dir, 'train-damaged.json');
  writeFileSync(damaged, Buffer.from(text.slice(0, at) + '@' + text.slice(at), 'latin1'));
  const res = await openViaInput(s.page, [damaged]);
  assert.equal(res.error, null);
  const imp = res.summary.files[0].import;
  assert.equal(imp.events, 14240);
  assert.equal(imp.truncated, false);
  assert.deepEqual(imp.recovered, { regions: 1, skipped_bytes: 1, first_offset: at });
  assert.deepEqual(res.summary, cliSummary([damaged]));
  const warnings = await s.page.$$eval('#loads .msg.warning', (els) => els.map((e) => e.textContent));
  const offset = at.toLocaleString('en-US');
  assert.ok(
    warnings.some((w) => w.includes('damaged') && w.includes(`byte ${offset}`)),
    warnings.join('|')
  );
});

test('truncated gzip loads what was decompressed, with a warning', async () => {
  const whole = readFileSync(trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz'));
  const cut = join(dir, 'cut.json.gz');
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
  const res = await openViaInput(s.page, [cut]);
  assert.equal(res.error, null);
  const f = res.summary.files[0];
  assert.ok(f.import.events > 1000 && f.import.events < 40573, String(f.import.events));
  const warnings = await s.page.$$eval('#loads .msg.warning', (els) => els.map((e) => e.textContent));
  assert.ok(
    warnings.some((w) => /gzip data ends early/.test(w)),
    warnings.join('|')
  );
  // The CLI also loads what was decompressed (with a warning on stderr): same summary.
  assert.deepEqual(res.summary, cliSummary([cut]));
});

test('?url= that does not exist: the HTTP status in plain words; a cross-origin URL mentions CORS', async () => {
  await s.page.goto(`${s.url}?url=${encodeURIComponent('nope/missing.json')}`);
  let res = await waitSettled(s.page);
  assert.match(res.error, /Could not download .*404/);
  await s.page.goto(`${s.url}?url=${encodeURIComponent('http://127.0.0.1:9/trace.json')}`);
  await s.page.click('[data-consent="yes"]'); // another origin: only once the reader agrees
  res = await waitSettled(s.page);
  assert.match(res.error, /CORS/);
  await s.page.goto(`${s.url}?url=samples/nccl_data.json.gz`);
  res = await waitSettled(s.page);
  assert.equal(res.error, null);
  assert.equal(res.summary.files[0].import.events, 40573);
});

test('cancel stops a load that would never end; the next file loads', async () => {
  // Another origin streaming an endless trace slowly (with CORS allowed): the load cannot finish
  // before the click, whatever the machine's speed.
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.write('{"traceEvents":[');
    let i = 0;
    const timer = setInterval(() => {
      let chunk = '';
      for (let k = 0; k < 2000; k++, i++) chunk += `{"ph":"X","name":"op${i % 97}","pid":1,"tid":1,"ts":${i},"dur":1},`;
      res.write(chunk);
    }, 20);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const url = `http://127.0.0.1:${server.address().port}/endless.json`;
    await s.page.goto(`${s.url}?url=${encodeURIComponent(url)}`);
    await s.page.click('[data-consent="yes"]');
    await s.page.waitForFunction(
      () => /events/.test(document.querySelector('.load-row.status-loading .load-text')?.textContent ?? ''),
      null,
      { timeout: 20_000 }
    );
    assert.equal(
      await s.page.$eval('.load-row.status-loading .bar', (e) => e.classList.contains('indeterminate')),
      true
    );
    await s.page.click('.load-row.status-loading button');
    const res = await waitSettled(s.page);
    assert.equal(res.summary, null);
    assert.match(await s.page.textContent('#loads'), /Cancelled: Loading was cancelled/);
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
  const good = await openViaInput(s.page, [GOOD]);
  assert.deepEqual(good.summary, cliSummary([GOOD]));
  assert.deepEqual(s.pageErrors, []);
});

test('a file too large for the browser is refused before reading it', async () => {
  const huge = join(dir, 'huge.json');
  const { truncateSync, closeSync, openSync } = await import('node:fs');
  closeSync(openSync(huge, 'w'));
  truncateSync(huge, 11 * 2 ** 30); // sparse: costs no disk
  const t0 = Date.now();
  const res = await openViaInput(s.page, [huge]);
  assert.match(res.error, /too large for the browser \(11\.0 GiB/);
  assert.match(await s.page.textContent('#loads .msg.error'), /^Too large: .*tracewise summarize/);
  assert.ok(Date.now() - t0 < 10_000);
  rmSync(huge);
});

test('gzip detection is by magic bytes, not by name', async () => {
  const plain = readFileSync(trace('speedscope/sample/profiles/trace-event/simple.json'));
  const disguised = join(dir, 'looks-plain.json');
  writeFileSync(disguised, gzipSync(plain));
  const res = await openViaInput(s.page, [disguised]);
  assert.equal(res.error, null);
  assert.equal(res.summary.files[0].import.events, 6);
});
