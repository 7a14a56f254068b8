// The "Try a sample" button opens the site's sample trace through its URL: links made after it carry
// the sample's content hash (as for `?url=` traces), opening the sample again on such a link finds
// the same trace, and a sample that changed since the link was made is reported as a stale link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { launch, waitHook, siteCopy, openSamplePage, copyLink } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const other = dataPath('hta/tests/data/trace_filter/sampled_rank-1.json.gz');
let copy, server, base, sample, original;
before(async () => {
  copy = siteCopy();
  sample = join(copy.dir, 'samples/nccl_data.json.gz');
  original = readFileSync(sample);
  server = await serve(copy.dir, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => {
  server?.close();
  copy?.remove();
});

// web/share/trace_hash.ts for a file of at most 2 MiB: sha256 over a header and the whole file.
function traceHash(bytes) {
  assert.ok(bytes.length <= 2 << 20);
  return createHash('sha256')
    .update(`tracewise-trace-hash/1\n${bytes.length}\n`)
    .update(bytes)
    .digest('hex')
    .slice(0, 32);
}

async function openLinkThenSample(ctx, link) {
  const { page, errors } = await openSamplePage(ctx, link);
  await waitHook(page, () => ['same', 'different', 'unknown'].includes(window.__tracewise.share.match));
  return { page, errors, share: await page.evaluate(() => window.__tracewise.share) };
}

test(
  'links made on the sample carry its hash; the sample re-opened on them matches, a changed one is stale',
  { timeout: 120000 },
  async () => {
    const hash = traceHash(original);
    let link;
    const a = await launch();
    try {
      const { page } = await openSamplePage(a.ctx, base);
      link = await copyLink(page, 'Copy link');
      assert.match(link, new RegExp(`[#&]h=${hash}(&|$)`));
      // The address bar's link carries it too, once known.
      await page.waitForFunction((h) => location.hash.includes(`h=${h}`), hash, { timeout: 10000, polling: 100 });
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const r = await openLinkThenSample(b.ctx, link);
      assert.equal(r.share.match, 'same');
      assert.equal(r.share.stale, false);
      assert.equal(await r.page.textContent('#share-banner'), '');
      assert.deepEqual(r.errors, []);
    } finally {
      await b.close();
    }

    copyFileSync(other, sample);
    const c = await launch();
    try {
      const r = await openLinkThenSample(c.ctx, link);
      assert.equal(r.share.match, 'different');
      assert.equal(r.share.stale, true);
      assert.match(
        await r.page.textContent('#share-banner'),
        new RegExp(`This link is stale: the trace at ${base}samples/nccl_data\\.json\\.gz has changed`)
      );
      assert.deepEqual(r.errors, []);
    } finally {
      await c.close();
    }
  }
);
