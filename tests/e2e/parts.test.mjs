// A plain file imported in parts (web/load/parts/), forced with ?workers=all
// (the page does so on its own from 2 cores and 64 MB): the trace worker imports the first part,
// a part worker the rest in its own heap, and the trace worker absorbs it. The summary must be the
// CLI's; a part the core refuses (the cut was not between events) or whose worker fails is read
// again by the trace worker, with the same summary; progress counts both workers' bytes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { start, openViaInput, cliSummary, trace, recordOpenReplies, waitSettled, waitWarmUps } from './helpers.mjs';
import { gatedSite, siteCopy } from './share_support.mjs';
import { serve } from '../../web/serve.mjs';

const MTIA_GZ = trace('hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz'); // 87 MB inflated
const DEEPSEEK = trace('deepseek_profile_data/train.json');
const NCCL_GZ = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');

let s;
let dir;
before(async () => {
  s = await start();
  await recordOpenReplies(s.page);
  dir = mkdtempSync(join(tmpdir(), 'tw-parts-'));
});
after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function inflated(gz, name) {
  const path = join(dir, name);
  writeFileSync(path, gunzipSync(readFileSync(gz)));
  return path;
}

// After the spare trace worker's warm-up, which starts the part workers ahead (part_client.ts).
async function openInParts(path, base = s.url) {
  await s.page.goto(`${base}?workers=all`);
  await waitWarmUps(s.page, 1);
  await s.page.evaluate(() => {
    window.__progress = [];
  });
  const res = await openViaInput(s.page, [path]);
  const { opens, progress } = await s.page.evaluate(() => ({ opens: window.__opens, progress: window.__progress }));
  return { ...res, opens, progress };
}

test('a large plain trace in two parts: the later one absorbed, the CLI summary, progress over both', async () => {
  const path = inflated(MTIA_GZ, 'mtia.json');
  const { summary, error, opens, progress } = await openInParts(path);
  assert.equal(error, null);
  assert.equal(opens.length, 1);
  assert.equal(opens[0].parts, 2);
  assert.equal(opens[0].absorbedParts, 1);
  assert.equal(opens[0].inputBytes, readFileSync(path).length);
  assert.ok(opens[0].partTimings[0].exported > 0, JSON.stringify(opens[0].partTimings));
  // The part worker's own wasm heap, once it had imported its part (whole wasm pages).
  const [partHeap] = opens[0].partHeapBytes;
  assert.ok(partHeap > 0 && partHeap % 65536 === 0, `part heap ${partHeap}`);
  assert.equal(opens[0].partsAhead, 1, 'the part worker was started and warmed ahead');
  const reading = progress.filter((p) => p.phase === 'reading');
  for (const p of reading)
    assert.ok(p.bytesRead <= p.totalBytes && p.totalBytes === opens[0].fileBytes, JSON.stringify(p));
  assert.deepEqual(summary, cliSummary([path]));
});

test('without asking, a plain trace of 64 MB+ is imported in parts from 2 cores (open_plan.ts)', async () => {
  const path = inflated(MTIA_GZ, 'mtia.json');
  await s.page.goto(s.url);
  await waitWarmUps(s.page, 1);
  const cores = await s.page.evaluate(() => navigator.hardwareConcurrency);
  const { summary, error, opens } = await openViaInput(s.page, [path]).then(async (r) => ({
    ...r,
    opens: await s.page.evaluate(() => window.__opens),
  }));
  assert.equal(error, null);
  assert.equal(opens.at(-1).parts, cores >= 2 ? Math.max(2, Math.min(4, cores - 1)) : 1, `${cores} cores`);
  if (cores >= 2) assert.equal(opens.at(-1).absorbedParts, opens.at(-1).parts - 1);
  assert.deepEqual(summary, cliSummary([path]));
});

test('a small plain trace with flows across the cut: absorbed, the CLI summary', async () => {
  const { summary, error, opens } = await openInParts(DEEPSEEK);
  assert.equal(error, null);
  assert.equal(opens[0].parts, 2);
  assert.equal(opens[0].absorbedParts, 1);
  assert.deepEqual(summary, cliSummary([DEEPSEEK]));
});

test('a cut inside a top-level value is refused: the trace worker reads that part, the CLI summary', async () => {
  // Events first, then a value as long as them full of objects that look like events to the cut finder.
  const text = gunzipSync(readFileSync(NCCL_GZ)).toString('utf8').trimEnd();
  assert.ok(text.endsWith('}'));
  const filler = Array.from({ length: 800_000 }, (_, i) => `{"ph": "X", "n": ${i}}`).join(',\n  ');
  const path = join(dir, 'refused.json');
  writeFileSync(path, `${text.slice(0, -1)}, "otherData": [\n  ${filler}\n]}`);
  const { summary, error, opens } = await openInParts(path);
  assert.equal(error, null);
  assert.equal(opens[0].parts, 2);
  assert.equal(opens[0].absorbedParts, 0);
  assert.deepEqual(summary, cliSummary([path]));
});

test('a site without part.js: the part worker fails, the trace worker reads its part, the CLI summary', async () => {
  const site = siteCopy();
  rmSync(join(site.dir, 'part.js'));
  const server = await serve(site.dir, 0);
  try {
    const { summary, error, opens } = await openInParts(DEEPSEEK, `http://127.0.0.1:${server.address().port}/`);
    assert.equal(error, null);
    assert.equal(opens[0].parts, 2);
    assert.equal(opens[0].absorbedParts, 0);
    assert.deepEqual(opens[0].partTimings, [null]);
    assert.deepEqual(opens[0].partHeapBytes, [null], 'no heap reported by a part worker that never ran');
    assert.equal(opens[0].partsAhead, 0, 'the one started ahead failed too');
    assert.deepEqual(summary, cliSummary([DEEPSEEK]));
  } finally {
    await new Promise((ok) => server.close(ok));
    site.remove();
  }
});

test('cancel while the trace worker waits for a part worker that never starts; the next file loads', async () => {
  const site = await gatedSite({}, '/part.js');
  site.gate.close(); // the part worker's script never comes
  try {
    await s.page.goto(`${site.base}?workers=all`);
    await s.page.evaluate(() => {
      window.__tracewise.ready = false;
      window.__progress = [];
    });
    await s.page.setInputFiles('#file-input', [DEEPSEEK]);
    await s.page.waitForFunction(() => document.querySelector('.load-row.status-loading button'), null, {
      timeout: 20_000,
    });
    for (let i = 0; i < 100 && site.gate.seen === 0; i++) await new Promise((ok) => setTimeout(ok, 50));
    assert.ok(site.gate.seen > 0, 'a part worker was started');
    // The trace worker has its own part in (its progress says so) and waits for the other.
    const size = readFileSync(DEEPSEEK).length;
    await s.page.waitForFunction((n) => window.__progress.some((p) => p.inputBytes >= 0.4 * n), size, {
      timeout: 20_000,
    });
    await s.page.evaluate(() => {
      window.__errors = [];
    });
    await s.page.click('.load-row.status-loading button');
    const res = await waitSettled(s.page);
    assert.equal(res.summary, null);
    assert.match(await s.page.textContent('#loads'), /Cancelled: Loading was cancelled/);
    // The trace worker answered the cancel itself (the page stops a worker that does not, 1.5 s on).
    await s.page.waitForFunction(() => window.__errors.some((e) => e.code === 'cancelled'), null, { timeout: 5_000 });
    const next = await openViaInput(s.page, [NCCL_GZ]); // gzip: no parts
    assert.equal(next.error, null);
    assert.deepEqual(next.summary, cliSummary([NCCL_GZ]));
  } finally {
    site.close();
  }
});
