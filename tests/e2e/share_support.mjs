// Helpers of the share/embed/export tests: bundle a TS module for node, run the CLI, copy the site
// (and hold its trace requests back), launch Debian's Chromium headless with a fresh profile, open
// the sample, press the share buttons.
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { ARGS, closeChecked, watchPolicy } from './helpers.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const site = resolve(root, process.env.TW_SITE || 'build/site');

// Bundles one or several TS modules into one ES module (one copy of shared classes) and imports it.
export async function importTs(...entries) {
  const dir = mkdtempSync(join(tmpdir(), 'tw-share-'));
  const out = join(dir, 'm.mjs');
  const contents = entries.map((e) => `export * from ${JSON.stringify(resolve(root, e))};`).join('\n');
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: out,
    logLevel: 'error',
  });
  const mod = await import(pathToFileURL(out).href);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

export { cliSummary } from './helpers.mjs'; // cliSummary(path | paths, {htaCompat})

// A private copy of the built site plus extra files ({relative path: source file or {text}}), for
// tests that need a deployment setting (embed-config.json) or traces served beside the page.
export function siteCopy(extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tw-site-'));
  cpSync(site, dir, { recursive: true });
  for (const [rel, src] of Object.entries(extra)) {
    const to = join(dir, rel);
    mkdirSync(dirname(to), { recursive: true });
    if (typeof src === 'string') cpSync(src, to);
    else writeFileSync(to, src.text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function launch() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'tw-chrome-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    serviceWorkers: 'block',
  });
  const violations = await watchPolicy(ctx);
  return {
    ctx,
    violations,
    close: async () => {
      try {
        await closeChecked(ctx, violations);
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

export async function waitHook(page, expr, timeout = 30000) {
  await page.waitForFunction(expr, null, { timeout, polling: 100 });
}

// Opens trace files through the page's file input and waits until their dashboard is on screen.
export async function openTraces(page, files) {
  await page.evaluate(() => {
    if (window.__tracewise) window.__tracewise.ready = false;
  });
  await page.setInputFiles('#file-input', files);
  await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.summary?.files.length > 0);
}

// Opens a link, waits until the page has handled it (shown or refused), then opens the traces the
// link is about through the file input.
export async function openLinkThenTraces(page, link, files) {
  await page.goto(link);
  await waitHook(page, () => window.__tracewise?.share?.ready);
  await openTraces(page, files);
}

// A new page at `url` (the site, or a link to it) on which "Try a sample" was clicked once the page
// had handled the link, returned once the sample's dashboard is on screen; `errors` collects page errors.
export async function openSamplePage(ctx, url) {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await waitHook(page, () => window.__tracewise?.share?.ready);
  await page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await page.click('.topbar [data-sample]');
  await waitHook(page, () => window.__tracewise.ready && window.__tracewise.summary?.files.length > 0);
  return { page, errors };
}

// Clicks one of the share buttons ('Copy link', 'Copy summary link') and returns the link it made.
export async function copyLink(page, button) {
  await page.evaluate(() => {
    window.__tracewise.share.lastLink = null;
  });
  await page.click(`#share-actions >> text=${button}`);
  await waitHook(page, () => window.__tracewise.share.lastLink);
  return page.evaluate(() => window.__tracewise.share.lastLink);
}

// For tests that look at a page while its trace downloads (a node:http server of web/serve.mjs).
// Requests under `prefix` wait while the gate is closed; open() lets them (and later ones) through.
export function gateRequests(srv, prefix) {
  const [handler] = srv.listeners('request');
  srv.removeAllListeners('request');
  const g = {
    closed: false,
    held: [],
    seen: 0,
    close() {
      this.closed = true;
    },
    open() {
      this.closed = false;
      for (const [req, res] of this.held.splice(0)) handler(req, res);
    },
    drop() {
      for (const [, res] of this.held.splice(0)) res.destroy();
    },
  };
  srv.on('request', (req, res) => {
    if (!req.url.startsWith(prefix)) {
      handler(req, res);
      return;
    }
    g.seen++;
    if (g.closed) g.held.push([req, res]);
    else handler(req, res);
  });
  return g;
}

// A served copy of the site with `extra` files (siteCopy) whose requests under `prefix` go through
// a gate (gateRequests): {dir, base (its URL), gate, close()}.
export async function gatedSite(extra, prefix) {
  const copy = siteCopy(extra);
  const server = await serve(copy.dir, 0);
  const gate = gateRequests(server, prefix);
  return {
    dir: copy.dir,
    base: `http://127.0.0.1:${server.address().port}/`,
    gate,
    close() {
      gate.drop();
      server.close();
      copy.remove();
    },
  };
}

// Opens `link` in a new page while `gate` holds the trace's requests back; returns once the page has
// asked for the trace.
export async function openHeld(ctx, link, gate) {
  gate.close();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const seen = gate.seen;
  await page.goto(link);
  await waitHook(page, () => window.__tracewise?.share?.ready);
  for (let i = 0; i < 100 && gate.seen === seen; i++) await new Promise((ok) => setTimeout(ok, 50));
  assert.ok(gate.seen > seen, 'the page asked for the trace');
  return { page, errors };
}

// A private copy of the site (siteCopy(extra)) served on a port of its own, and a browser:
// {base (the site's address), browser (launch()), close()}.
export async function servedSite(extra = {}) {
  const copy = siteCopy(extra);
  const server = await serve(copy.dir, 0);
  const browser = await launch();
  return {
    base: `http://127.0.0.1:${server.address().port}/`,
    browser,
    async close() {
      await browser.close();
      server.close();
      copy.remove();
    },
  };
}
