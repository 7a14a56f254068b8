// A page of a built site as a user finds it, for the browser benchmarks that load one file per
// fresh browser (site_ab.mjs, thread_cpu.mjs, wasm_tierup.mjs): the site served on 127.0.0.1 (port
// 0), a headless Debian Chromium with a fresh user-data dir and the e2e flags, the trace workers'
// replies recorded (tests/e2e/helpers.mjs), the spare worker's warm-up waited for, then `waitMs`
// more (its part workers warm up after it).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../web/serve.mjs';
import { ARGS, recordOpenReplies, waitWarmUps } from '../tests/e2e/helpers.mjs';

// Runs fn(page) on such a page and closes it all after. `site`: the built site's directory, which
// may carry the page's query (`build/site?workers=single`, as the benches' TW_SITE or site_ab's
// sites); `query`: the page's query string otherwise (without '?'); `args`: more browser flags;
// `beforeGoto(page)`: e.g. init scripts to install before the page's own scripts run.
export async function withWarmPage(site, { query = '', args = [], waitMs = 2500, beforeGoto = async () => {} }, fn) {
  const [siteDir, inSite] = site.split('?');
  query = inSite ?? query;
  const server = await serve(resolve(siteDir), 0);
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-page-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium',
    args: [...ARGS, ...args],
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await recordOpenReplies(page);
    await beforeGoto(page);
    await page.goto(`http://127.0.0.1:${server.address().port}/${query ? `?${query}` : ''}`);
    await waitWarmUps(page, 1, 10_000).catch(() => {}); // a site without a spare worker: measured cold
    await page.waitForTimeout(waitMs);
    return await fn(page);
  } finally {
    await context.close();
    await new Promise((ok) => server.close(ok));
    rmSync(dir, { recursive: true, force: true });
  }
}

// Chooses `path` in the page's file input and waits until the page is ready or shows an error.
export async function loadFile(page, path) {
  await page.setInputFiles('#file-input', resolve(path));
  await page.waitForFunction(() => window.__tracewise.ready === true || !!window.__tracewise.error, null, {
    polling: 20,
    timeout: 15 * 60_000,
  });
}
