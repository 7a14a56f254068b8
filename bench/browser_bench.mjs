#!/usr/bin/env node
// Browser benchmark of the page (issue 4, "Benchmark"): for each generated trace, in one headless
// Debian Chromium (playwright-core), measures against a read floor in the same page
//   floor  : the file read in a Worker the cheapest way we know (see read_floor.mjs; gzip: inflated,
//            output discarded), timed from setInputFiles on a hidden input to the worker's reply,
//            the faster of two such reads;
//            also the default reader's floor (`stream`), for comparison;
//   load   : setInputFiles on the app's #file-input .. window.__tracewise.ready === true;
//   paint  : click on the Timeline tab .. timeline hook ready && idle() with frames > 0 (the click
//            BENCH_READ_WAIT ms after ready, default 0: a user reading the dashboard first);
//            `timeline heaps / data` as `heaps / data` below but with the trace worker's heap after
//            the timeline was drawn (and zoomed: frames), its index and windows included;
//   worker : the trace worker's open (its `seconds`), of which `wait` awaited input (the reader was
//            behind the parser) and `finish` was finish();
//   heap   : the wasm heaps (HEAPU8.length; a heap never shrinks, so each is its worker's peak), as
//            the workers' replies report them (caught by wrapping window.Worker before navigation):
//            `heap MB (trace worker after summary)` the trace worker's once its summary was made (the
//            summary reply's heapBytes: the page is ready only after it, and the summary grows the
//            heap), `open heap MB` the same worker's at the end of the open (its `open` reply's
//            heapBytes, before the summary); `part heaps MB`, for a plain file loaded in parts, the
//            part workers' heaps (each once it had imported its part: OpenResult.partHeapBytes)
//            summed; `heaps / data` all of them, with a gzip's feed worker's inflater heap
//            (readerTiming.heapBytes; in the JSON line as feedHeapMB), over the data size (inflated
//            for gzip, `data MB`): issue #43's target is <= 0.2. A sum of peaks: the part workers
//            end once their parts are absorbed, before finish() and the summary grow the trace
//            worker's heap, so the memory held at any one moment was less;
//   long   : main-thread long tasks (PerformanceObserver 'longtask', > 50 ms) during the load, and the
//            longest main-thread task in CPU time (a DevTools trace's thread time: on a shared
//            machine a short task that was descheduled shows as a long task, its CPU time does not),
//            taken from a second, traced load in a fresh page: tracing slows the page's threads, so
//            the timed load is not traced;
//   frames : p95 of requestAnimationFrame intervals (and of the view's drawTimes()) while ~100
//            W/S/A/D key presses zoom and pan the timeline (1 GB traces only by default); then the
//            same presses under a DevTools trace: p95 of the main-thread tasks that render a frame.
// Each page is measured as a user finds it: idle, with its spare trace worker warmed (web/app/
// spare_worker.ts; column `warm`: the file's worker had finished that warm-up) before the floors.
// Usage: node bench/browser_bench.mjs [FILE...]   (default bench/out/kineto_{256,1024}mb.json{,.gz})
// Environment: TW_SITE (default build/site), BENCH_PAN=all (zoom/pan on every file), BENCH_RUNS
// (default 3: each file measured that many times, interleaved; the table shows medians).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../web/serve.mjs';
import { ARGS, recordOpenReplies, waitWarmUps } from '../tests/e2e/helpers.mjs'; // the e2e tests' browser flags
import { readFloor } from './read_floor.mjs';
import { traceDuring } from './devtools_trace.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SITE = resolve(ROOT, process.env.TW_SITE || 'build/site');
const LOAD_TIMEOUT = 15 * 60_000;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 1);
const READ_WAIT_MS = Math.max(0, Number(process.env.BENCH_READ_WAIT ?? 0) || 0);

const files = process.argv.slice(2).length
  ? process.argv.slice(2).map((f) => resolve(f))
  : ['kineto_256mb.json', 'kineto_256mb.json.gz', 'kineto_1024mb.json', 'kineto_1024mb.json.gz']
      .map((f) => join(ROOT, 'bench', 'out', f))
      .filter((f) => existsSync(f));

// Installed before any page script: the long-task log, and the moment the page's hook turns ready
// (window.__tracewise is the page's own hook object, created here with an accessor for `ready`), so
// the load is timed to that moment rather than to the next poll of it. The workers' open replies are
// recorded by the e2e tests' recordOpenReplies (window.__opens).
function initScript() {
  window.__bench = { longtasks: [], readyAt: 0 };
  let ready = false;
  window.__tracewise = { summary: null, error: null };
  Object.defineProperty(window.__tracewise, 'ready', {
    enumerable: true,
    configurable: true,
    get: () => ready,
    set: (v) => {
      if (v && !ready) window.__bench.readyAt = Date.now();
      ready = v;
    },
  });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longtasks.push({ start: e.startTime, dur: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    window.__bench.longtaskError = String(e);
  }
}

// Main-thread tasks of the page while `run` runs, from a DevTools trace: the longest in thread (CPU)
// time and in wall time; with `frames`, also the p95 of the tasks that render a frame (those holding
// the frame's rAF callbacks or its commit to the compositor), in wall and CPU time.
const kFrameEvents = new Set(['FireAnimationFrame', 'Commit', 'BeginMainThreadFrame']);
async function traceMainTasks(page, run, { frames = false } = {}) {
  const keep = (e) => e.name === 'RunTask' || e.name === 'thread_name' || (frames && kFrameEvents.has(e.name));
  const categories = frames
    ? 'devtools.timeline,disabled-by-default-devtools.timeline'
    : 'disabled-by-default-devtools.timeline';
  const events = await traceDuring(page, { categories, keep }, run);
  const main = new Set(
    events.filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`)
  );
  const onMain = events.filter(
    (e) => (e.ph === 'X' || e.ph === 'B' || e.ph === 'I' || e.ph === 'i') && main.has(`${e.pid}:${e.tid}`)
  );
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X');
  const out = {
    cpuMaxMs: tasks.reduce((m, e) => Math.max(m, (e.tdur ?? 0) / 1000), 0),
    wallMaxMs: tasks.reduce((m, e) => Math.max(m, e.dur / 1000), 0),
  };
  if (frames) {
    const marks = onMain
      .filter((e) => kFrameEvents.has(e.name))
      .map((e) => e.ts)
      .sort((a, b) => a - b);
    const holds = (t) => {
      let lo = 0,
        hi = marks.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (marks[mid] < t.ts) lo = mid + 1;
        else hi = mid;
      }
      return lo < marks.length && marks[lo] <= t.ts + t.dur;
    };
    const frameTasks = tasks.filter(holds);
    out.frameTasks = frameTasks.length;
    out.p95FrameTaskMs = p95(frameTasks.map((t) => t.dur / 1000));
    out.p95FrameTaskCpuMs = p95(frameTasks.map((t) => (t.tdur ?? 0) / 1000));
  }
  return out;
}

const p95 = (a) => {
  if (!a.length) return NaN;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))];
};

async function zoomPan(page) {
  const c = await page.evaluate(() => {
    const r = document.querySelector('[data-testid="timeline-canvas"]').getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.move(c.x, c.y);
  const draws0 = await page.evaluate(() => window.__tracewise.timeline.drawTimes().length);
  await page.evaluate(() => {
    const b = window.__bench;
    b.raf = [];
    b.rafOn = true;
    const tick = (t) => {
      b.raf.push(t);
      if (b.rafOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const keys = [
    ...'wwwwwwwwwwwwwwwwwwww',
    ...'aaaaaaaaaaaaaaaaaaaa',
    ...'dddddddddddddddddddddddddddddd',
    ...'ssssssssssssssssssss',
    ...'wwwwwwwwww',
  ];
  const press = async () => {
    for (const k of keys) {
      // one key per animation frame, as a held key would arrive
      await page.keyboard.press(k);
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
    }
    await page.waitForFunction(() => window.__tracewise.timeline.idle(), null, { timeout: 120_000, polling: 50 });
  };
  const t0 = Date.now();
  await press();
  const wall = (Date.now() - t0) / 1000;
  const r = await page.evaluate((d0) => {
    const b = window.__bench;
    b.rafOn = false;
    const dt = [];
    for (let i = 1; i < b.raf.length; i++) dt.push(b.raf[i] - b.raf[i - 1]);
    return { dt, draws: window.__tracewise.timeline.drawTimes().slice(d0) };
  }, draws0);
  // The same presses again under a DevTools trace (which slows the page: an upper bound): what each
  // frame costs the main thread, which rAF intervals (never below 16.7 ms at 60 Hz) cannot show.
  const traced = await traceMainTasks(page, press, { frames: true });
  return {
    keys: keys.length,
    wall,
    frames: r.dt.length,
    p95frame: p95(r.dt),
    maxFrame: Math.max(...r.dt),
    p95draw: p95(r.draws),
    draws: r.draws.length,
    frameTasks: traced.frameTasks,
    p95FrameTask: traced.p95FrameTaskMs,
    p95FrameTaskCpu: traced.p95FrameTaskCpuMs,
  };
}

async function benchOne(context, url, path, pan, traced) {
  const row = { file: basename(path), inMB: statSync(path).size / 1e6 };
  const page = await context.newPage();
  await recordOpenReplies(page);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('crash', () => pageErrors.push('page crashed'));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__tracewise && document.getElementById('file-input'));
    // As a user would find it: the page idle, its spare worker warmed (and not competing with the floor).
    await waitWarmUps(page, 1, 10_000).catch(() => {}); // a site without spare workers: measured cold
    // The floor is the faster of two reads: one read alone swung by 1.7x between runs (plain files).
    // Chromium's BYOB read of one Blob past ~4.2 GB in a worker made from a Blob URL kills its
    // renderer (and the app's page with it; the app's readers, nested workers each with a part of
    // the file, are not hit): above 4 GB the default reader is the floor.
    const byobFails = statSync(path).size > 4e9;
    if (byobFails) row.floorNote = 'over 4 GB: floor = the default reader (a BYOB read crashes Chromium there)';
    const cheapest = () => readFloor(page, path, byobFails ? 'stream' : 'cheapest');
    const f = await cheapest();
    const again = await cheapest();
    row.floorS = Math.min(f.s, again.s);
    row.gzip = f.gzip;
    row.dataMB = (f.gzip ? f.out : f.raw) / 1e6;
    row.streamFloorS = f.gzip ? row.floorS : (await readFloor(page, path, 'stream')).s; // the same read for gzip

    const t0page = await page.evaluate(() => performance.now());
    const load = await timedLoad(page, path);
    row.loadS = load.seconds;
    const st = await page.evaluate((t0p) => {
      const b = window.__bench,
        t1 = performance.now();
      const lt = b.longtasks.filter((e) => e.start >= t0p && e.start <= t1);
      const opens = window.__opens ?? [];
      const summaries = window.__summaryReplies ?? [];
      const open = opens.at(-1);
      const known = (xs) => (xs ?? []).filter((x) => typeof x === 'number');
      return {
        ready: window.__tracewise.ready,
        error: window.__tracewise.error,
        heap: Math.max(0, ...opens.map((o) => o.heapBytes)),
        heapAfterSummary: Math.max(0, ...opens.map((o) => o.heapBytes), ...known(summaries.map((r) => r.heapBytes))),
        summaryHeapReported: known(summaries.map((r) => r.heapBytes)).length > 0,
        partHeaps: open && open.parts > 1 ? known(open.partHeapBytes).reduce((a, b) => a + b, 0) : null,
        feedHeap: open?.readerTiming?.heapBytes ?? null,
        openS: opens.at(-1)?.seconds ?? null,
        finishS: opens.at(-1)?.finishSeconds ?? null,
        waitS: opens.at(-1)?.waitSeconds ?? null,
        firstInputS: opens.at(-1)?.firstInputSeconds ?? null,
        warm: opens.at(-1)?.warm ?? null,
        lt: lt.length,
        readerTiming: opens.at(-1)?.readerTiming ?? null,
        parts: opens.at(-1)?.parts ?? null,
        ltMax: lt.reduce((m, e) => Math.max(m, e.dur), 0),
        ltErr: b.longtaskError ?? null,
      };
    }, t0page);
    row.heapMB = st.heap ? st.heap / 2 ** 20 : null;
    // (a site whose summary reply reports no heap, from before issue #43: the column stays empty)
    row.heapAfterSummaryMB = st.summaryHeapReported ? st.heapAfterSummary / 2 ** 20 : null;
    row.partHeapsMB = st.partHeaps === null ? null : st.partHeaps / 2 ** 20;
    row.feedHeapMB = st.feedHeap === null ? null : st.feedHeap / 2 ** 20;
    row.heapsPerData =
      row.heapAfterSummaryMB === null
        ? null
        : ((row.heapAfterSummaryMB + (row.partHeapsMB ?? 0) + (row.feedHeapMB ?? 0)) * 2 ** 20) / (row.dataMB * 1e6);
    row.workerOpenS = st.openS;
    row.finishS = st.finishS;
    row.waitS = st.waitS;
    row.firstInputS = st.firstInputS; // in the JSON line only: module, file and reader set up
    row.warm = st.warm;
    // The feed worker's own read, and the tail from its last byte to ready (one reader only: a file in
    // parts has other readers; Date.now() in the page and the worker's epoch stamps share a clock).
    const rt = st.readerTiming;
    row.readS = rt ? (rt.endedAt - rt.startedAt) / 1000 : null;
    row.creditWaitS = rt ? rt.creditWaitSeconds : null;
    row.tailS = rt && st.parts === 1 ? (load.readyAt - rt.endedAt) / 1000 : null;
    row.longtasks = st.lt;
    row.longtaskMax = st.ltMax;
    if (st.error || !st.ready) {
      row.error = st.error || 'not ready';
      return row;
    }
    row.ratio = row.loadS / row.floorS;
    row.streamRatio = row.loadS / row.streamFloorS;

    // A user reads the dashboard before opening the timeline (what the worker does meanwhile counts).
    if (READ_WAIT_MS > 0) await page.waitForTimeout(READ_WAIT_MS);
    const t1 = Date.now();
    await page.click('[data-tab="timeline"]');
    await page.waitForFunction(
      () => {
        const tl = window.__tracewise.timeline;
        return tl && tl.ready && tl.idle() && tl.frames > 0;
      },
      null,
      { timeout: 300_000, polling: 20 }
    );
    row.paintS = (Date.now() - t1) / 1000;
    if (pan) row.pan = await zoomPan(page);
    // The trace worker's heap with the timeline in use too (its index, the windows asked so far).
    const timelineHeap = await page.evaluate(() =>
      Math.max(0, ...window.__workerHeaps.filter((w) => w.summaries > 0).map((w) => w.maxHeapBytes))
    );
    row.timelineHeapMB = timelineHeap / 2 ** 20;
    row.timelineHeapsPerData =
      ((row.timelineHeapMB + (row.partHeapsMB ?? 0) + (row.feedHeapMB ?? 0)) * 2 ** 20) / (row.dataMB * 1e6);
    await page.close();
    if (traced) row.taskCpuMaxMs = await tracedLoadTasks(context, url, path);
  } catch (e) {
    row.error = String(e?.message ?? e)
      .split('\n')[0]
      .slice(0, 160);
  } finally {
    if (pageErrors.length) row.pageErrors = pageErrors;
    await page.close().catch(() => {});
  }
  return row;
}

// setInputFiles on the app's input .. the hook turns ready (or an error shows): the seconds, and
// readyAt, the Date.now() of that moment (browser_bench's tail column measures up to it).
async function timedLoad(page, path) {
  const t0 = Date.now();
  await page.setInputFiles('#file-input', path);
  await page.waitForFunction(() => window.__tracewise.ready === true || !!window.__tracewise.error, null, {
    timeout: LOAD_TIMEOUT,
    polling: 50,
  });
  await page
    .waitForFunction(() => window.__tracewise.ready === true, null, { timeout: 5_000, polling: 50 })
    .catch(() => {});
  const readyAt = await page.evaluate(() => window.__bench.readyAt);
  const at = readyAt > t0 ? readyAt : Date.now();
  return { seconds: (at - t0) / 1000, readyAt: at };
}

// The longest main-thread task in CPU time while the file loads, from a second load in a fresh
// page: the DevTools trace that measures it slows every thread of the page (~0.25 s of a 1 GB load
// here), so the timed load above runs untraced.
async function tracedLoadTasks(context, url, path) {
  const page = await context.newPage();
  try {
    await recordOpenReplies(page); // counts the warm-up
    await page.goto(url);
    await waitWarmUps(page, 1, 10_000).catch(() => {});
    const tasks = await traceMainTasks(page, () => timedLoad(page, path));
    return tasks.cpuMaxMs;
  } finally {
    await page.close().catch(() => {});
  }
}

// One row per file from its runs: the timed columns are medians over the runs that loaded (the
// ratio's range is shown too), the others come from the first run. Any run's error is the row's.
function median(values) {
  const s = values.filter((x) => typeof x === 'number' && !Number.isNaN(x)).sort((x, y) => x - y);
  if (!s.length) return null;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
function combineRuns(rs) {
  const ok = rs.filter((r) => !r.error);
  const row = { ...rs[0], runs: ok.length };
  if (!ok.length) return row;
  const timed = [
    'floorS',
    'loadS',
    'ratio',
    'streamFloorS',
    'streamRatio',
    'workerOpenS',
    'waitS',
    'finishS',
    'readS',
    'creditWaitS',
    'tailS',
    'heapMB',
    'heapAfterSummaryMB',
    'partHeapsMB',
    'feedHeapMB',
    'heapsPerData',
    'timelineHeapsPerData',
  ];
  for (const k of timed) row[k] = median(ok.map((r) => r[k]));
  row.longtasks = Math.max(...ok.map((r) => r.longtasks ?? 0));
  row.longtaskMax = Math.max(...ok.map((r) => r.longtaskMax ?? 0));
  row.ratioMin = Math.min(...ok.map((r) => r.ratio));
  row.ratioMax = Math.max(...ok.map((r) => r.ratio));
  const failed = rs.find((r) => r.error);
  if (failed) row.error = failed.error;
  return row;
}

const fmt = (v, d = 2) => (v === null || v === undefined || Number.isNaN(v) ? '-' : Number(v).toFixed(d));

async function main() {
  if (!files.length) {
    console.error('no input files (bench/out/kineto_*.json[.gz]: run bench/run.sh first)');
    process.exit(2);
  }
  const server = await serve(SITE, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const userDir = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: '/usr/bin/chromium',
    args: ARGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
  await context.addInitScript(initScript);
  const version = context.browser()?.version() ?? (await (await context.newPage()).evaluate(() => navigator.userAgent));
  console.log(
    `machine: ${cpus().length} cores, ${cpus()[0]?.model}, node ${process.version}, chromium ${version}, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`
  );
  const runs = files.map(() => []);
  try {
    // Runs interleave the files, so that the machine's drift touches each alike; the zoom/pan and
    // the traced load (not timed) only in the first.
    for (let run = 0; run < RUNS; run++) {
      for (const [i, f] of files.entries()) {
        const pan = run === 0 && (process.env.BENCH_PAN === 'all' || /1024mb/.test(basename(f)));
        const row = await benchOne(context, url, f, pan, run === 0);
        runs[i].push(row);
        console.error(JSON.stringify(row));
      }
    }
  } finally {
    await context.close();
    await new Promise((ok) => server.close(ok));
    rmSync(userDir, { recursive: true, force: true });
  }
  console.log(
    `load after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`
  );
  const rows = runs.map(combineRuns);
  const head = [
    'file',
    'runs',
    'in MB',
    'data MB',
    'floor s',
    'load s',
    'load/floor',
    'range',
    'target',
    'stream floor s',
    'load/stream',
    'worker s',
    'wait s',
    'finish s',
    'read s',
    'stall s',
    'tail s',
    'warm',
    'paint s',
    'heap MB (trace worker after summary)',
    'open heap MB',
    'part heaps MB',
    'heaps / data',
    'timeline heaps / data',
    'longtasks',
    'max lt ms',
    'max task cpu ms',
    'p95 frame ms',
    'p95 frame task ms',
    'p95 draw ms',
  ];
  const lines = rows.map((r) =>
    r.error && r.loadS === undefined
      ? [r.file, String(r.runs), fmt(r.inMB, 1), fmt(r.dataMB, 1), fmt(r.floorS), `ERROR: ${r.error}`]
      : [
          r.file,
          String(r.runs),
          fmt(r.inMB, 1),
          fmt(r.dataMB, 1),
          fmt(r.floorS),
          r.error ? `${fmt(r.loadS)} ERROR: ${r.error}` : fmt(r.loadS),
          fmt(r.ratio),
          `${fmt(r.ratioMin)}-${fmt(r.ratioMax)}`,
          r.gzip ? '<= 0.8' : '<= 1.0',
          fmt(r.streamFloorS),
          fmt(r.streamRatio),
          fmt(r.workerOpenS),
          fmt(r.waitS),
          fmt(r.finishS),
          fmt(r.readS),
          fmt(r.creditWaitS),
          fmt(r.tailS),
          r.warm ? 'yes' : 'no',
          fmt(r.paintS),
          fmt(r.heapAfterSummaryMB, 0),
          fmt(r.heapMB, 0),
          fmt(r.partHeapsMB, 0),
          fmt(r.heapsPerData, 3),
          fmt(r.timelineHeapsPerData, 3),
          String(r.longtasks ?? '-'),
          fmt(r.longtaskMax, 0),
          fmt(r.taskCpuMaxMs, 0),
          r.pan ? fmt(r.pan.p95frame, 1) : '-',
          r.pan ? `${fmt(r.pan.p95FrameTask, 1)} (cpu ${fmt(r.pan.p95FrameTaskCpu, 1)})` : '-',
          r.pan ? fmt(r.pan.p95draw, 1) : '-',
        ]
  );
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const l of lines) console.log(`| ${l.join(' | ')} |`);
  for (const r of rows)
    if (r.pan)
      console.log(
        `${r.file}: ${r.pan.keys} keys in ${fmt(r.pan.wall)} s, ${r.pan.frames} rAF intervals (max ${fmt(r.pan.maxFrame, 1)} ms), ${r.pan.draws} draws; traced again: ${r.pan.frameTasks} frame tasks`
      );
  for (const r of rows) if (r.pageErrors) console.log(`${r.file}: page errors: ${r.pageErrors.join('; ')}`);
  for (const r of rows) if (r.floorNote) console.log(`${r.file}: ${r.floorNote}`);
}

await main();
