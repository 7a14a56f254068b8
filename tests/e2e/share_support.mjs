// Helpers of the share/embed/export tests: bundle a TS module for node, run the CLI, serve the site,
// launch Debian's Chromium headless with a fresh profile.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const site = resolve(root, process.env.TW_SITE || 'build/site');
export const traces = resolve(root, '../shared/traces');  // shared/ lies beside the checkout

// Bundles one or several TS modules into one ES module (one copy of shared classes) and imports it.
export async function importTs(...entries) {
  const dir = mkdtempSync(join(tmpdir(), 'tw-share-'));
  const out = join(dir, 'm.mjs');
  const contents = entries.map((e) => `export * from ${JSON.stringify(resolve(root, e))};`).join('\n');
  await build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral', outfile: out, logLevel: 'error' });
  const mod = await import(pathToFileURL(out).href);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

export function cliSummary(...files) {
  const bin = resolve(root, process.env.TW_CLI || 'build/native/tracewise');
  return JSON.parse(execFileSync(bin, ['summarize', ...files], { maxBuffer: 256 << 20 }).toString());
}

export async function launch() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'tw-chrome-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
    serviceWorkers: 'block',
  });
  return { ctx, close: async () => { await ctx.close(); rmSync(profile, { recursive: true, force: true }); } };
}

export async function waitHook(page, expr, timeout = 30000) {
  await page.waitForFunction(expr, null, { timeout, polling: 100 });
}
