// `?url=` is untrusted (web/app/url_plan.ts, url_consent.ts): a trace on another origin is
// downloaded only after the reader clicks "Download and open" (declining downloads nothing); at most
// 16 values are used and the page says the rest were ignored; other schemes are answered with "not
// an http(s) URL" and nothing is fetched; a same-origin URL opens without a question. A server of
// its own on another port counts what is asked of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cliSummary, otherOrigin, start, trace, waitSettled } from './helpers.mjs';

const kTrace = trace('hta/tests/data/critical_path/cuda_event_sync/event_sync_trace.json.gz');
let s, other, otherUrl;
const asked = [];

before(async () => {
  s = await start();
  const bytes = readFileSync(kTrace);
  other = await otherOrigin((req, res) => {
    asked.push(req.url);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/gzip' }).end(bytes);
  });
  otherUrl = other.url;
});
after(async () => {
  await s.close();
  await other.close();
});

const pageState = (page) =>
  page.evaluate(() => ({
    consent: document.getElementById('url-consent')?.textContent ?? null,
    notes: document.getElementById('url-notes')?.textContent ?? null,
    ready: window.__tracewise.ready,
    loading: document.querySelectorAll('#loads .load-row').length,
  }));

test('a trace on another origin is downloaded only after the reader agrees', async () => {
  asked.length = 0;
  await s.page.goto(`${s.url}?url=${encodeURIComponent(`${otherUrl}/event_sync_trace.json.gz`)}`);
  await s.page.waitForSelector('#url-consent');
  await s.page.waitForTimeout(500);
  const st = await pageState(s.page);
  assert.match(st.consent, new RegExp(`download a trace from another site: ${otherUrl}\\. Nothing is downloaded`));
  assert.deepEqual({ asked, loading: st.loading, notes: st.notes }, { asked: [], loading: 0, notes: null });
  await s.page.click('[data-consent="yes"]');
  const res = await waitSettled(s.page);
  assert.deepEqual(res.summary, cliSummary(kTrace));
  assert.ok(asked.length > 0);
  assert.equal(await s.page.$('#url-consent'), null);
});

test('declining downloads nothing and says so; the same-origin URLs of the link still open', async () => {
  asked.length = 0;
  const foreign = `${otherUrl}/other.json.gz`;
  await s.page.goto(`${s.url}?url=samples/nccl_data.json.gz&url=${encodeURIComponent(foreign)}`);
  await s.page.click('[data-consent="no"]');
  const res = await waitSettled(s.page);
  assert.equal(res.summary.files.length, 1);
  assert.equal(res.summary.files[0].import.events, 40573);
  const st = await pageState(s.page);
  assert.equal(st.notes, `Not downloaded: ${foreign} (another site; you declined).`);
  assert.deepEqual(asked, []);
});

test('a same-origin ?url= opens without a question', async () => {
  await s.page.goto(`${s.url}?url=samples/nccl_data.json.gz`);
  const res = await waitSettled(s.page);
  assert.equal(res.summary.files[0].import.events, 40573);
  assert.deepEqual(await pageState(s.page).then((x) => [x.consent, x.notes]), [null, null]);
});

test('at most 16 ?url= values are used; the page names how many were ignored', async () => {
  asked.length = 0;
  const query = Array.from({ length: 20 }, (_, i) => `url=${encodeURIComponent(`${otherUrl}/t${i}.json.gz`)}`);
  await s.page.goto(`${s.url}?${query.join('&')}`);
  const st = await pageState(s.page);
  assert.match(st.consent, /download 16 traces from another site/);
  assert.equal(st.notes, 'This address names 20 traces; only the first 16 were used, the other 4 were ignored.');
  await s.page.click('[data-consent="yes"]');
  const res = await waitSettled(s.page, 120_000);
  assert.equal(res.summary.files.length, 16);
  const paths = new Set(asked.map((u) => u.split('?')[0]));
  assert.deepEqual([...paths].sort(), Array.from({ length: 16 }, (_, i) => `/t${i}.json.gz`).sort());
});

for (const value of [
  'javascript:alert(1)',
  'data:application/json,{"traceEvents":[]}',
  'file:///etc/passwd',
  'blob:http://127.0.0.1/0a1b2c3d',
  'ftp://example.com/trace.json',
  'view-source:http://example.com/',
]) {
  test(`?url=${value.split(':')[0]}:… is answered with "not an http(s) URL", and nothing is fetched`, async () => {
    const requests = [];
    const onRequest = (r) => requests.push(r.url());
    s.page.on('request', onRequest);
    await s.page.goto(`${s.url}?url=${encodeURIComponent(value)}`);
    await s.page.waitForSelector('#url-notes');
    await s.page.waitForTimeout(300);
    s.page.off('request', onRequest);
    const st = await pageState(s.page);
    assert.equal(st.notes, `Not opened: ${value}: not an http(s) URL (${value.split(':')[0]}:).`);
    assert.equal(st.consent, null);
    assert.equal(st.loading, 0);
    assert.ok(!requests.some((u) => !u.startsWith(s.url)), requests.join('\n'));
    assert.deepEqual(s.pageErrors, []);
  });
}
