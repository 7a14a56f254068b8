// Shared by the browser tests: a static server for the built site, a headless Debian Chromium
// through playwright-core (never a downloaded browser), and ways to open traces in the page.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { dataPath } from '../test_data.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SITE = resolve(ROOT, process.env.TW_SITE || process.env.TW_SITE_DIR || 'build/site');
export const CLI = resolve(ROOT, process.env.TW_CLI || 'build/native/tracewise');

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Every page a test opens runs under the site's Content-Security-Policy (web/csp.mjs); a violation
// there means the page broke its own policy (or a test forgot to say it provoked one). Each is kept
// in the returned list, and closeChecked() fails the test for them after closing the browser. The
// list is filled from the pages' securitypolicyviolation events and the console's policy messages.
export async function watchPolicy(context) {
  const violations = [];
  await context.addInitScript(() =>
    addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `tw-csp-violation: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} in ${e.documentURI} (${e.sample})`
      )
    )
  );
  context.on('console', (m) => {
    if (/tw-csp-violation|Content Security Policy/.test(m.text())) violations.push(m.text());
  });
  return violations;
}

export async function closeChecked(context, violations) {
  await context.close();
  if (violations.length) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
}

// Starts the server and a browser; returns {page, url, close}.
// recordReplies: recordOpenReplies from the first navigation on; site: the folder served.
export async function start({ recordReplies = false, site = SITE } = {}) {
  const server = await serve(site, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const userDir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: '/usr/bin/chromium',
    args: ARGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
  const violations = await watchPolicy(context);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  if (recordReplies) await recordOpenReplies(page);
  await page.goto(url);
  return {
    page,
    url,
    context,
    pageErrors,
    violations,
    async close() {
      try {
        await closeChecked(context, violations);
      } finally {
        await new Promise((ok) => server.close(ok));
        rmSync(userDir, { recursive: true, force: true });
      }
    },
  };
}

// A server on another 127.0.0.1 port (another origin than the site's), answering with `handler`;
// returns {url (no trailing slash), close}.
export async function otherOrigin(handler) {
  const { createServer } = await import('node:http');
  const server = createServer(handler);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close() {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}

// A test trace by its upstream name (tests/test_data.mjs).
export const trace = dataPath;

// From the next navigation on, the trace workers' open replies (OpenResult) are kept in
// window.__opens, their progress messages in window.__progress, the arrival of each summary reply in
// window.__summaryReplies (the page's performance.now(), `at`, the document's text as the core
// wrote it, `json`, and the worker's wasm heap after it, `heapBytes`), error replies in window.__errors,
// each worker's largest heap any of its replies reported in window.__workerHeaps ({ maxHeapBytes,
// summaries: its summary replies }), window.__timelinePrepared counts the workers' replies to
// `prepareTimeline` that built an index, and window.__warmed counts the spare
// workers that finished their warm-up (web/load/page/spare.ts: a spare answers its `warm` request
// with {warmed: true}): a wrapper around window.Worker installed before any page script runs (once
// per page, however often this is called).
export async function recordOpenReplies(page) {
  await page.addInitScript(() => {
    if (window.__opens) return;
    window.__opens = [];
    window.__progress = [];
    window.__warmed = 0;
    window.__summaryReplies = [];
    window.__errors = [];
    window.__workerHeaps = [];
    window.__timelinePrepared = 0;
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        const heaps = { maxHeapBytes: 0, summaries: 0 };
        window.__workerHeaps.push(heaps);
        this.addEventListener('message', (ev) => {
          if (ev.data?.kind === 'ok' && ev.data.heapBytes > heaps.maxHeapBytes) heaps.maxHeapBytes = ev.data.heapBytes;
          if (ev.data?.indexed === true) window.__timelinePrepared++;
          if (ev.data?.result?.reader) window.__opens.push({ ...ev.data.result, at: performance.now() });
          if (ev.data?.kind === 'ok' && typeof ev.data?.json === 'string') {
            heaps.summaries++;
            window.__summaryReplies.push({ at: performance.now(), json: ev.data.json, heapBytes: ev.data.heapBytes });
          }
          if (ev.data?.kind === 'progress') window.__progress.push(ev.data);
          if (ev.data?.warmed === true) window.__warmed++;
          if (ev.data?.kind === 'error') window.__errors.push(ev.data);
        });
      }
    };
  });
}

// Waits until `n` spare workers have finished their warm-up (counted by recordOpenReplies).
export function waitWarmUps(page, n = 1, timeout = 30_000) {
  return page.waitForFunction((k) => window.__warmed >= k, n, { timeout, polling: 50 });
}

export async function waitSettled(page, timeout = 45_000) {
  await page.waitForFunction(() => window.__tracewise && window.__tracewise.ready === true, null, {
    timeout,
    polling: 50,
  });
  return page.evaluate(() => ({ summary: window.__tracewise.summary, error: window.__tracewise.error }));
}

// Opens files through the header's file input.
export async function openViaInput(page, paths) {
  await page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await page.setInputFiles('#file-input', paths);
  return waitSettled(page);
}

// Opens files through a synthetic drop event carrying a DataTransfer with the files' bytes.
export async function openViaDrop(page, paths) {
  const files = paths.map((p) => ({ name: basename(p), b64: readFileSync(p).toString('base64') }));
  await page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name));
    }
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  return waitSettled(page);
}

// The CLI's summary of the same files (the page must show the identical document): `paths` is one
// path or an array of them. The one implementation for all e2e tests (share_support.mjs re-exports it).
export function cliSummary(paths, { htaCompat = false } = {}) {
  const args = ['summarize', ...(htaCompat ? ['--hta-compat'] : []), ...[paths].flat()];
  return JSON.parse(execFileSync(CLI, args, { maxBuffer: 1 << 28 }).toString());
}
