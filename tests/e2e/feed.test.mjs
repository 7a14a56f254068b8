// Local files are read, and gzip inflated, by a nested worker beside the parser (web/load/feed/):
// the open reply says which thread read the file, and what arrives through the worker's batches and
// credits is the whole file (summaries identical to the CLI's, for traces many batches long), and
// when the feed worker's read began and ended (bench/browser_bench.mjs splits a load there).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';
import { siteCopy } from './share_support.mjs';
import { serve } from '../../web/serve.mjs';

const GZ = trace('hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz'); // 87 MB inflated
const PLAIN_GZ = trace('hta/tests/data/trace_diff/control/control.json.gz'); // 35 MB inflated

let s;
let dir;
before(async () => {
  s = await start({ recordReplies: true });
  dir = mkdtempSync(join(tmpdir(), 'tw-feed-'));
});
after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openAndReport(paths) {
  const requestAt = await s.page.evaluate(() => {
    window.__opens = [];
    window.__progress = [];
    return performance.timeOrigin + performance.now();
  });
  const res = await openViaInput(s.page, paths);
  const { opens, progress, timeOrigin } = await s.page.evaluate(() => ({
    opens: window.__opens,
    progress: window.__progress,
    timeOrigin: performance.timeOrigin,
  }));
  // When each open reply reached the page, in epoch ms as the feed worker stamps its read.
  for (const o of opens) o.replyAt = timeOrigin + o.at;
  return { ...res, opens, progress, requestAt };
}

// The feed worker's read (readerTiming) lies between the request and the reply, and its credit
// waits within it. The stamps come from three threads' clocks: 5 ms of slack.
function assertReadWithin(open, requestAt) {
  const t = open.readerTiming;
  assert.ok(t, "the open reply carries the feed worker's timing");
  assert.ok(
    requestAt - 5 <= t.startedAt && t.startedAt <= t.endedAt && t.endedAt <= open.replyAt + 5,
    `request ${requestAt}, read ${t.startedAt}..${t.endedAt}, reply ${open.replyAt}`
  );
  assert.ok(t.creditWaitSeconds >= 0 && t.creditWaitSeconds <= (t.endedAt - t.startedAt) / 1000, JSON.stringify(t));
}

test('a gzip file is inflated by the feed worker; the summary is the CLI one', async () => {
  const { summary, error, opens, progress, requestAt } = await openAndReport([GZ]);
  assert.equal(error, null);
  assertReadWithin(opens[0], requestAt);
  assert.equal(opens.length, 1);
  // Progress while reading counts compressed bytes of the file and reports the inflated rate too
  // (the last report: at first the inflated bytes still lag the compressed ones in the pipeline).
  const reading = progress.filter((p) => p.phase === 'reading');
  assert.ok(reading.length > 0, 'progress while reading');
  for (const p of reading) assert.ok(p.gzip === true && p.bytesRead <= p.totalBytes, JSON.stringify(p));
  const last = reading.at(-1);
  assert.ok(last.inputBytes > 4 * last.bytesRead, `${last.bytesRead} compressed, ${last.inputBytes} inflated`);
  assert.ok(last.inputMbPerSec > 4 * last.mbPerSec, `${last.inputMbPerSec} vs ${last.mbPerSec} MB/s`);
  assert.equal(opens[0].reader, 'feed worker');
  assert.equal(opens[0].gzip, true);
  assert.equal(opens[0].readerTiming.inflater, 'core', "gzip inflated by the core's inflater (core/inflate)");
  const feedHeap = opens[0].readerTiming.heapBytes;
  assert.ok(feedHeap > 0 && feedHeap % 65536 === 0, `the feed worker's wasm heap is reported (${feedHeap})`);
  assert.ok(
    opens[0].inputBytes > 40 * 2 ** 20,
    `${opens[0].inputBytes} bytes: more than the credits' worth of batches`
  );
  assert.equal(opens[0].inputBytes, gunzipSync(readFileSync(GZ)).length);
  assert.deepEqual(summary, cliSummary([GZ]));
});

// The reader's batch buffers come back once copied (blob_stream.ts): a file many batches long is read
// into a handful of them (the feed worker's credits and the one it fills; here the trace worker's one).
const kBatchBytes = 2 << 20;

function plainCopy() {
  const plain = join(dir, 'control.json');
  writeFileSync(plain, gunzipSync(readFileSync(PLAIN_GZ)));
  return plain;
}

test('a plain file is read by the feed worker, every byte of it, into reused buffers', async () => {
  const plain = plainCopy();
  const { summary, error, opens, requestAt } = await openAndReport([plain]);
  assert.equal(error, null);
  assert.equal(opens[0].reader, 'feed worker');
  assertReadWithin(opens[0], requestAt);
  assert.equal(opens[0].gzip, false);
  assert.equal(opens[0].inputBytes, readFileSync(plain).length);
  assert.ok(opens[0].inputBytes > 12 * kBatchBytes, `${opens[0].inputBytes} bytes`);
  assert.ok(opens[0].readBuffers >= 1 && opens[0].readBuffers <= 6, `${opens[0].readBuffers} buffers`);
  assert.equal(opens[0].readerTiming.heapBytes, null, 'a plain file: the feed worker loads no core');
  assert.deepEqual(summary, cliSummary([plain]));
});

test('a site without feed.js: the trace worker reads the file itself', async () => {
  // A copy of the site missing the feed worker's script, on its own origin (its own service worker).
  const site = siteCopy();
  rmSync(join(site.dir, 'feed.js'));
  const server = await serve(site.dir, 0);
  try {
    await s.page.goto(`http://127.0.0.1:${server.address().port}/`);
    const { summary, error, opens } = await openAndReport([PLAIN_GZ]);
    assert.equal(error, null);
    assert.equal(opens[0].reader, 'trace worker');
    assert.equal(opens[0].readerStartedAhead, false);
    assert.equal(opens[0].readBuffers, null, "gzip: read into the browser's buffers");
    assert.equal(opens[0].readerTiming, null, 'no feed worker, no timing of one');
    assert.deepEqual(summary, cliSummary([PLAIN_GZ]));
    const plain = plainCopy();
    const res = await openAndReport([plain]);
    assert.equal(res.error, null);
    assert.equal(res.opens[0].reader, 'trace worker');
    assert.ok(res.opens[0].readBuffers >= 1 && res.opens[0].readBuffers <= 2, `${res.opens[0].readBuffers} buffers`);
    assert.deepEqual(res.summary, cliSummary([plain]));
  } finally {
    await new Promise((ok) => server.close(ok));
    site.remove();
    await s.page.goto(s.url);
  }
});

test("a site built without 'inflate': the feed worker inflates with DecompressionStream, same summary", async () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const out = join(dir, 'without-inflate');
  const b = spawnSync(process.execPath, [join(root, 'web/build.mjs'), '--without', 'inflate', '--out', out], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(b.status, 0, b.stderr);
  const server = await serve(out, 0);
  try {
    await s.page.goto(`http://127.0.0.1:${server.address().port}/`);
    const { summary, error, opens } = await openAndReport([PLAIN_GZ]);
    assert.equal(error, null);
    assert.equal(opens[0].reader, 'feed worker');
    assert.equal(opens[0].readerTiming.inflater, 'DecompressionStream');
    assert.equal(opens[0].readerTiming.heapBytes, null, 'DecompressionStream: the feed worker loads no core');
    assert.deepEqual(summary, cliSummary([PLAIN_GZ]));
  } finally {
    await new Promise((ok) => server.close(ok));
    await s.page.goto(s.url);
  }
});
