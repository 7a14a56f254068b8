#!/usr/bin/env node
// The job benchmark (issue #39: many ranks opened together; not a test). Crafts RANKS ranks of a job
// from HTA's nccl_data.json, each its events tiled REPEAT times (tw_craft_job --repeat: ~7.9 MB of
// JSON a copy, so REPEAT 8 makes 63 MB ranks and 32 of them 2 GB), once, into DIR. Then, in fresh
// headless Chromiums (fresh_page.mjs: spare warmed first), per site and round:
//   - the job: all RANKS files chosen at once in the file input, until the page's hook turns ready
//     (every file settled, the job computed from every rank record, the dashboard shown);
//   - SINGLES single loads of one rank each (rank 0, 1, ...), each in a fresh browser, until ready;
// and prints a table: the job's wall time against RANKS x the median single (the sum of single-file
// loads), and memory.
// Memory is the browser's, from /proc: every process descended from this one (the Chromium that
// Playwright starts, with its renderer, where the page's workers run, GPU and utility processes),
// each one's PSS (smaps_rollup: shared pages split between their processes, so a sum counts each page
// once), summed, sampled every 200 ms. `idle`: the sum just before the files are chosen (the page and
// its warm spare worker, whose heap the first file takes over); `peak`: the highest sum from then to
// ready; `held`: the sum JOB_HELD_WAIT ms (2000) after ready (what the open files keep, and the
// page's next spare; ~200 MB of the page's garbage goes 10-20 s after a job of 32). A
// single load mostly reuses the spare's heap, so its own memory shows as `held` above `idle` (the
// next spare) and the marginal cost of a rank is the job's against a single's: `per rank` is
// (job - single) / (RANKS - 1), peak and held. performance.measureUserAgentSpecificMemory needs a
// cross-origin isolated page (this site is not), and CDP's heap metrics count only the page's own JS
// heap, not the workers' wasm memories: /proc sees all of it. CPU: user+system seconds of the same
// processes (exited threads included) from the files chosen to ready. Long tasks: the main thread's
// (> 50 ms, PerformanceObserver), summed, from the files chosen to ready.
// Usage: node bench/job_page.mjs [SITE...]   (default build/site; a query for the page may follow a
// site, e.g. 'build/site?workers=single'; several sites alternate round by round, so compare them in
// one run). Environment: JOB_RANKS (32), JOB_REPEAT (8), JOB_DIR (bench/out/job-RANKSxREPEAT),
// JOB_ROUNDS (1), JOB_SINGLES (3), JOB_HELD_WAIT (2000), AB_WAIT (ms after the spare's warm-up,
// default 1000).
// Linux only. Needs build/native/tw_craft_job (make build) the first time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { withWarmPage } from './fresh_page.mjs';
import { readyHookScript } from './ready_hook.mjs';

const sites = process.argv.slice(2).length ? process.argv.slice(2) : ['build/site'];
const RANKS = Number(process.env.JOB_RANKS ?? 32);
const REPEAT = Number(process.env.JOB_REPEAT ?? 8);
const DIR = resolve(process.env.JOB_DIR ?? `bench/out/job-${RANKS}x${REPEAT}`);
const ROUNDS = Number(process.env.JOB_ROUNDS ?? 1);
const SINGLES = Number(process.env.JOB_SINGLES ?? 3);
const HELD_WAIT = Number(process.env.JOB_HELD_WAIT ?? 2000);
const BASE = 'tests/data/hta/tests/data/nccl_parser_config/nccl_data.json.gz';
const kTicksPerSecond = 100; // USER_HZ on Linux
const MB = 1 << 20;

// --- data -------------------------------------------------------------------------------------------
const files = Array.from({ length: RANKS }, (_, r) => join(DIR, `rank-${r}.json`));
if (!files.every((f) => existsSync(f) && statSync(f).size > 0)) {
  mkdirSync(DIR, { recursive: true });
  console.error(`job_page: crafting ${RANKS} ranks x ${REPEAT} copies into ${DIR}`);
  // A job as it may look: one straggler (rank 1, 1.5 ms late at every collective), clocks apart.
  execFileSync(
    'build/native/tw_craft_job',
    [BASE, DIR, String(RANKS), '--repeat', String(REPEAT), '--delay', '1:1500000', '--offset', `${RANKS - 1}:25000000`],
    { stdio: 'inherit' }
  );
}
const bytes = files.reduce((a, f) => a + statSync(f).size, 0);

// --- /proc: the browser's processes ----------------------------------------------------------------
function children() {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent)
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
  }
  mine.delete(process.pid); // node itself (the bench and the site's server) is not the browser
  return [...mine];
}

// { pss: bytes, cpu: s } summed over the browser's processes.
function sample() {
  let pss = 0;
  let cpu = 0;
  for (const pid of children()) {
    try {
      const m = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
      if (m) pss += Number(m[1]) * 1024;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu += (Number(f[11]) + Number(f[12])) / kTicksPerSecond;
    } catch {
      /* ended */
    }
  }
  return { pss, cpu };
}

// Runs `run` while sampling; resolves { peak, before, cpu, result } (absolute bytes).
async function measured(run) {
  const before = sample();
  let peak = before.pss;
  const timer = setInterval(() => {
    peak = Math.max(peak, sample().pss);
  }, 200);
  let result;
  try {
    result = await run();
  } finally {
    clearInterval(timer);
  }
  const end = sample();
  peak = Math.max(peak, end.pss);
  return { peak, before: before.pss, cpu: end.cpu - before.cpu, result };
}

// Opens `paths` together in a fresh page; returns wall s, memory, CPU and what the page shows.
async function load(site, paths) {
  const beforeGoto = (page) => page.addInitScript(readyHookScript);
  return withWarmPage(site, { beforeGoto, waitMs: Number(process.env.AB_WAIT ?? 1000) }, async (page) => {
    const t0 = await page.evaluate(() => {
      window.__tracewise.ready = false;
      window.__readyAt = 0;
      return performance.now();
    });
    const m = await measured(async () => {
      await page.setInputFiles('#file-input', paths);
      await page.waitForFunction(() => window.__readyAt > 0, null, { polling: 50, timeout: 30 * 60_000 });
    });
    const shown = await page.evaluate(
      (t0) => ({
        at: window.__readyAt,
        longTasks: window.__longTasks.filter((e) => e.start >= t0 && e.start <= window.__readyAt).map((e) => e.dur),
        files: window.__tracewise.summary?.files?.length ?? 0,
        job: !!window.__tracewise.summary?.job,
        errors: document.querySelectorAll('#loads .status-error').length,
        opens: window.__opens.map((o) => o.seconds),
        heaps: window.__opens.map((o) => o.heapBytes),
        // Each file's worker heap after its summary (the summary can grow it past the open's).
        summaryHeaps: window.__summaryReplies.map((r) => r.heapBytes).filter((h) => h > 0),
      }),
      t0
    );
    await page.waitForTimeout(HELD_WAIT);
    const held = sample().pss;
    const longTasks = shown.longTasks.reduce((a, b) => a + b, 0) / 1000;
    return { s: (shown.at - t0) / 1000, idle: m.before, peak: m.peak, held, cpu: m.cpu, ...shown, longTasks };
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = new Map(sites.map((s) => [s, { jobs: [], singles: [] }]));
console.log(
  `machine: ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ` +
    `${RANKS} ranks of ${(bytes / RANKS / 1e6).toFixed(1)} MB (${(bytes / 1e9).toFixed(2)} GB) in ${DIR}`
);
for (let round = 0; round < ROUNDS; round++) {
  for (const site of sites) {
    const r = results.get(site);
    const job = await load(site, files);
    r.jobs.push(job);
    console.log(
      `${site} job: ${job.s.toFixed(2)} s, ${job.files}/${RANKS} files${job.job ? ' + job' : ', NO JOB'}, ${job.errors} errors, ` +
        `idle ${(job.idle / MB).toFixed(0)} MB, peak ${(job.peak / MB).toFixed(0)} MB, held ${(job.held / MB).toFixed(0)} MB, ` +
        `${job.cpu.toFixed(1)} CPU-s, long tasks ${job.longTasks.toFixed(2)} s, ` +
        `median open ${median(job.opens).toFixed(3)} s, opens ${job.opens.length}, median heap ${(median(job.heaps) / MB).toFixed(0)} MB ` +
        `(after the summary ${((median(job.summaryHeaps) ?? 0) / MB).toFixed(0)} MB)`
    );
    for (let i = 0; i < SINGLES; i++) {
      const one = await load(site, [files[i % RANKS]]);
      r.singles.push(one);
      console.log(
        `${site} single rank-${i % RANKS}: ${one.s.toFixed(3)} s, idle ${(one.idle / MB).toFixed(0)} MB, ` +
          `peak ${(one.peak / MB).toFixed(0)} MB, held ${(one.held / MB).toFixed(0)} MB, ${one.cpu.toFixed(2)} CPU-s, ` +
          `heap ${(one.heaps[0] / MB).toFixed(0)} MB (after the summary ${(Math.max(0, ...one.summaryHeaps) / MB).toFixed(0)} MB)`
      );
    }
  }
}

console.log(
  `\n| site | job s | ${RANKS} x single s | job / sum | CPU-s job / sum | long tasks s | idle MB | job peak MB | job held MB | single peak MB | single held MB | per rank: peak MB | held MB | errors |`
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const [site, { jobs, singles }] of results) {
  if (!jobs.length) continue;
  const m = (xs, k) => median(xs.map((x) => x[k]));
  const single = m(singles, 's');
  const job = m(jobs, 's');
  const f0 = (v) => (v / MB).toFixed(0);
  const perRank = (k) => ((m(jobs, k) - m(singles, k)) / (RANKS - 1) / MB).toFixed(1);
  console.log(
    `| ${site} | ${job.toFixed(2)} | ${(RANKS * single).toFixed(2)} (${single.toFixed(3)}) | ${(job / (RANKS * single)).toFixed(2)} | ` +
      `${(m(jobs, 'cpu') / (RANKS * m(singles, 'cpu'))).toFixed(2)} | ${m(jobs, 'longTasks').toFixed(2)} | ${f0(m(jobs, 'idle'))} | ` +
      `${f0(m(jobs, 'peak'))} | ${f0(m(jobs, 'held'))} | ${f0(m(singles, 'peak'))} | ${f0(m(singles, 'held'))} | ` +
      `${perRank('peak')} | ${perRank('held')} | ${jobs.reduce((a, j) => a + j.errors + (RANKS - j.files), 0)} |`
  );
}
