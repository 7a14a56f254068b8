// Offline once loaded: after one visit the service worker serves the site, so a reload without
// network still opens and analyses a trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

test('the page and the analyzer work offline after the first visit', async () => {
  const s = await start();
  try {
    await s.page.evaluate(() => navigator.serviceWorker.ready);
    // The first visit's fetches may have happened before the worker took control: load once more.
    await s.page.reload();
    await s.page.evaluate(() => navigator.serviceWorker.ready);
    await s.context.setOffline(true);
    await s.page.reload();
    const file = trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz');
    const { summary, error } = await openViaInput(s.page, [file]);
    assert.equal(error, null);
    assert.deepEqual(summary, cliSummary([file]));
  } finally {
    await s.context.setOffline(false);
    await s.close();
  }
});
