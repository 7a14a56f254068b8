#!/usr/bin/env node
// A/B of two built sites on one file (not a test): alternates them, each run in a fresh headless
// Chromium with its spare worker warmed first (as browser_bench.mjs), and prints per run and as
// medians: load (file chosen .. the hook turns ready), the trace worker's open, and the tail after
// it, split into the summary (open reply .. summary reply arrive on the page) and the dashboard
// (summary reply .. ready); the worker's finish(); the time from the reader's last batch to ready
// (`after read`, as browser_bench's `tail s`); and for a file in parts the parts' timings.
// Interleaving keeps machine noise out of the ratio.
// Usage: node bench/site_ab.mjs SITE_A SITE_B FILE [ROUNDS=3]   (e.g. a copy of build/site as A)
// A site may carry a query for the page (`build/site?workers=single`): one site, two ways; a site
// without one speed mechanism: node web/build.mjs --without NAME --out DIR (web/load/switches.ts).
// AB_WAIT: ms to wait after the spare's warm-up before the file is chosen (default 400; its part
// workers warm up after it, e.g. 2500 lets them finish).
// Also per run: the main thread's long tasks (> 50 ms, PerformanceObserver) from the file chosen to
// 1 s after ready, each as its start relative to ready and its length (`+4:66` = a 66 ms task that
// began 4 ms after ready, e.g. the dashboard's layout at the end of a load).
import { resolve } from 'node:path';
import { withWarmPage } from './fresh_page.mjs';
import { readyHookScript } from './ready_hook.mjs';

const [siteA, siteB, file, rounds = '3'] = process.argv.slice(2);
if (!siteA || !siteB || !file) {
  console.error('usage: node bench/site_ab.mjs SITE_A SITE_B FILE [ROUNDS]');
  process.exit(2);
}

async function once(site) {
  const beforeGoto = (page) => page.addInitScript(readyHookScript);
  return withWarmPage(site, { beforeGoto, waitMs: Number(process.env.AB_WAIT ?? 400) }, async (page) => {
    const t0 = await page.evaluate(() => {
      window.__tracewise.ready = false;
      window.__readyAt = 0;
      return performance.now();
    });
    await page.setInputFiles('#file-input', [resolve(file)]);
    await page.waitForFunction(() => window.__readyAt > 0, null, { polling: 20, timeout: 15 * 60_000 });
    await page.waitForTimeout(1000); // the dashboard's layout and charts come after ready
    const r = await page.evaluate(() => ({
      at: window.__readyAt,
      origin: performance.timeOrigin,
      open: window.__opens.at(-1),
      summary: window.__summaryReplies.at(-1),
      longTasks: window.__longTasks,
    }));
    const load = (r.at - t0) / 1000;
    return {
      longTasks: r.longTasks.filter((e) => e.start >= t0).map((e) => ({ fromReady: e.start - r.at, dur: e.dur })),
      parts: r.open?.parts > 1 ? r.open : null,
      load,
      open: r.open?.seconds ?? NaN,
      tail: load - (r.open?.seconds ?? NaN),
      summary: ((r.summary?.at ?? NaN) - (r.open?.at ?? NaN)) / 1000,
      show: (r.at - (r.summary?.at ?? NaN)) / 1000,
      // The trace worker's finish(), and the time from the feed worker's last batch to ready (one
      // reader only; epoch ms on both sides, as browser_bench's `tail s`).
      finish: r.open?.finishSeconds ?? NaN,
      afterRead:
        r.open?.readerTiming && !(r.open.parts > 1) ? (r.origin + r.at - r.open.readerTiming.endedAt) / 1000 : NaN,
    };
  });
}

const runs = new Map([
  [siteA, []],
  [siteB, []],
]);
for (let i = 0; i < Number(rounds); i++) {
  for (const site of [siteA, siteB]) {
    const x = await once(site);
    runs.get(site).push(x);
    // In parts: when the trace worker had its own part, each part worker its part imported and
    // exported (from its start), and how long the trace worker then waited for and absorbed them.
    const p =
      x.parts &&
      `  parts ${x.parts.parts}: own ${x.parts.ownPartSeconds.toFixed(3)}, later ` +
        `${x.parts.partTimings.map((t) => (t ? `${t.imported.toFixed(3)}/${t.exported.toFixed(3)}` : 'failed')).join(' ')}, ` +
        `waiting + absorbing ${x.parts.partsSeconds.toFixed(3)}`;
    const lt =
      x.longTasks.map((e) => `${e.fromReady >= 0 ? '+' : ''}${e.fromReady.toFixed(0)}:${e.dur.toFixed(0)}`).join(' ') ||
      'none';
    console.log(
      `${site}  load ${x.load.toFixed(3)} s  open ${x.open.toFixed(3)} s  tail ${x.tail.toFixed(3)} s ` +
        `(summary ${x.summary.toFixed(3)}, show ${x.show.toFixed(3)})  finish ${x.finish.toFixed(3)} s  after read ${x.afterRead.toFixed(3)} s  long tasks ${lt}${p || ''}`
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  '| site | runs | load s (median) | open s | tail s | summary s | show s | finish s | after read s | runs with a long task (longest ms) |\n|---|---|---|---|---|---|---|---|---|---|'
);
for (const [site, xs] of runs) {
  const m = (k) => {
    const v = median(xs.map((x) => x[k]));
    return Number.isNaN(v) ? '-' : v.toFixed(3);
  };
  const withLong = xs.filter((x) => x.longTasks.length).length;
  const longest = Math.max(0, ...xs.flatMap((x) => x.longTasks.map((e) => e.dur)));
  console.log(
    `| ${site} | ${xs.length} | ${m('load')} | ${m('open')} | ${m('tail')} | ${m('summary')} | ${m('show')} | ${m('finish')} | ${m('afterRead')} | ${withLong} (${longest.toFixed(0)}) |`
  );
}
