// The Timeline tab on traces of many tracks, in a fresh page per trace: the time from the click on the
// tab to its first frame with rows, and the longest main-thread task from that click until the
// timeline is idle, then through scrolling, opening a group far down and zooming
// (PerformanceObserver('longtask'), with each such task's thread CPU time from a DevTools trace over
// the same steps: tests/e2e/long_tasks.mjs).
// Prints one table row per trace. The traces are written once into bench/out/ (gitignored) by
// tests/e2e/many_tracks_traces.mjs.
// Usage: node bench/timeline_tracks.mjs [SITE=build/site] [CASES=100k,1m,threads100k,names50mb]
//   100k / 1m: that many processes of one thread and one slice; threads100k: one process of 100,000
//   threads; names50mb: process, thread and slice names of 50 MB each.
// TRACKS_TIMEOUT_S (default 600): a step that takes longer is reported as "> N s" and the trace skipped.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFile, withWarmPage } from './fresh_page.mjs';
import { writeLongNames, writeManyTracks } from '../tests/e2e/many_tracks_traces.mjs';
import { watchLongTasks } from '../tests/e2e/long_tasks.mjs';

const [site = 'build/site', casesArg = '100k,1m,threads100k,names50mb'] = process.argv.slice(2);
const timeoutMs = Number(process.env.TRACKS_TIMEOUT_S || 600) * 1000;
const out = resolve('bench/out');
mkdirSync(out, { recursive: true });

const kCases = {
  '100k': { tracks: 100_000, write: (p) => writeManyTracks(p, { processes: 100_000 }) },
  '1m': { tracks: 1_000_000, write: (p) => writeManyTracks(p, { processes: 1_000_000 }) },
  threads100k: { tracks: 100_000, write: (p) => writeManyTracks(p, { processes: 1, threads: 100_000 }) },
  names50mb: { tracks: 103, write: (p) => writeLongNames(p, 50 << 20) },
};

// The longest of the long tasks: "wall ms / cpu ms", or 0 when none ran over 50 ms.
function longest(tasks) {
  if (!tasks.length) return '0';
  const t = tasks.reduce((a, b) => (b.ms > a.ms ? b : a));
  return `${t.ms.toFixed(0)} / ${t.cpuMs === null ? '?' : t.cpuMs.toFixed(0)}`;
}

const settled = (page) =>
  page.waitForFunction(
    () => {
      const tl = window.__tracewise.timeline;
      return tl && tl.ready && tl.idle();
    },
    null,
    { polling: 20, timeout: timeoutMs }
  );

// Scrolls over the names, jumps to the middle (when the page can), opens the group there, zooms.
async function use(page) {
  await page.mouse.move(60, 400);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 600);
  await settled(page);
  const opened = await page.evaluate(() => {
    const tl = window.__tracewise.timeline;
    if (!tl.scrollTo || !tl.groupCount) return false;
    tl.scrollTo(tl.groupY(Math.floor(tl.groupCount / 2)));
    return true;
  });
  await settled(page);
  if (opened) {
    const at = await page.evaluate(() => {
      const tl = window.__tracewise.timeline;
      return tl.groupHeaderPoint(tl.groupsShown()[0]);
    });
    if (at) await page.mouse.click(at.x, at.y);
    await settled(page);
  }
  await page.mouse.move(700, 400);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -200);
  await page.keyboard.press('s');
  await settled(page);
}

async function measure(name) {
  const c = kCases[name];
  const file = join(out, `timeline_${name}.json`);
  if (!existsSync(file)) c.write(file);
  return withWarmPage(site, { waitMs: 500 }, async (page) => {
    const t0 = Date.now();
    await loadFile(page, file);
    const loadS = (Date.now() - t0) / 1000;
    await page.waitForTimeout(1000); // the dashboard's last panels
    const stopOpen = await watchLongTasks(page);
    const clickedAt = await page.evaluate(() => performance.now());
    await page.click('[data-tab="timeline"]');
    const row = {
      trace: name,
      tracks: c.tracks,
      MB: (statSync(file).size / 2 ** 20).toFixed(0),
      'load s': loadS.toFixed(1),
    };
    try {
      await page.waitForFunction(() => window.__tracewise.timeline?.ready, null, { polling: 10, timeout: timeoutMs });
      const firstMs = (await page.evaluate(() => performance.now())) - clickedAt;
      await settled(page);
      const opening = await stopOpen();
      const stopUse = await watchLongTasks(page);
      await use(page);
      const using = await stopUse();
      Object.assign(row, {
        'first rows ms': firstMs.toFixed(0),
        'longest task opening (wall / cpu ms)': longest(opening),
        'longest task using (wall / cpu ms)': longest(using),
      });
    } catch {
      Object.assign(row, { 'first rows ms': `> ${timeoutMs / 1000} s` });
    }
    return row;
  });
}

const rows = [];
for (const name of casesArg.split(',')) {
  if (!kCases[name]) throw new Error(`unknown case ${name} (${Object.keys(kCases).join(', ')})`);
  rows.push(await measure(name));
  console.error(JSON.stringify(rows.at(-1)));
}
console.log(`site: ${site}`);
console.table(rows);
