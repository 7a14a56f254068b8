#!/usr/bin/env node
// Where the CPU of a load goes, against the read floor (not a test): in each of ROUNDS fresh headless
// Chromiums (the site's spare warmed, then AB_WAIT ms), the file is read once the floor's way (a
// Worker, BYOB into one reused 2 MB buffer, as browser_bench.mjs's `cheapest`) and then loaded by
// the page; around each, every Chromium thread's user+system time is read from /proc. Prints each
// run's wall and total CPU, then a table of mean CPU seconds per process type and thread name
// (numbers in names folded: "DedicatedWorker" is all the page's workers together; "chromium" is a
// renderer's main thread; threads are sampled every 50 ms, so one that ends during the load is
// counted up to its last sample). On a 2-core machine the ratio load/floor is about the CPU each needs
// over what the cores give it: this says which threads the difference is on.
// Usage: node bench/thread_cpu.mjs [FILE=bench/out/kineto_256mb.json] [ROUNDS=3]; TW_SITE picks the
// site (default build/site). Linux only (/proc); clock ticks of 10 ms, so single values are coarse.
import { chromium } from 'playwright-core';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../web/serve.mjs';
import { ARGS, recordOpenReplies, waitWarmUps } from '../tests/e2e/helpers.mjs';

const [file = 'bench/out/kineto_256mb.json', rounds = '3'] = process.argv.slice(2);
const SITE = resolve(process.env.TW_SITE || 'build/site');
const kTicksPerSecond = 100;  // USER_HZ on Linux

// Every thread of every Chromium process: `${pid}/${tid}` -> { key: 'type thread-name', cpu: s }.
function threadCpu() {
  const out = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let type;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      type = (cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser') + (cmd.includes('--utility-sub-type=network') ? ':network' : '');
    } catch { continue; }  // gone meanwhile
    let tids = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields from the 3rd on
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/[0-9]+$/, '');
        out.set(`${pid}/${tid}`, { key: `${type} ${name}`, cpu: (Number(f[11]) + Number(f[12])) / kTicksPerSecond });
      } catch { /* the thread ended */ }
    }
  }
  return out;
}

// Snapshots every kSampleMs while `run` runs, each thread's last one kept: a thread that ends
// meanwhile (a part worker, once its part is absorbed) is counted up to its last sample.
const kSampleMs = 50;
async function sampled(run) {
  const seen = threadCpu();
  const take = () => { for (const [id, t] of threadCpu()) seen.set(id, t); };
  const timer = setInterval(take, kSampleMs);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  take();
  return seen;
}

// CPU seconds per key between two snapshots.
function cpuBetween(before, after) {
  const by = new Map();
  for (const [id, t] of after) {
    const d = t.cpu - (before.get(id)?.cpu ?? 0);
    if (d > 0) by.set(t.key, (by.get(t.key) ?? 0) + d);
  }
  return by;
}

const FLOOR_WORKER = `onmessage = async (ev) => {
  const r = ev.data.stream().getReader({ mode: 'byob' });
  let buf = new ArrayBuffer(2 << 20), filled = 0;
  for (;;) {
    const { done, value } = await r.read(new Uint8Array(buf, filled));
    if (done) break;
    buf = value.buffer;
    filled = (filled + value.length) % buf.byteLength;
  }
  postMessage(0);
};`;

const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
const sums = { floor: new Map(), load: new Map() };
const add = (into, m) => { for (const [k, v] of m) into.set(k, (into.get(k) ?? 0) + v); };
for (let r = 0; r < Number(rounds); r++) {
  const server = await serve(SITE, 0);
  const dir = mkdtempSync(join(tmpdir(), 'tw-cpu-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium', args: ARGS, headless: true, viewport: { width: 1400, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await recordOpenReplies(page);
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await waitWarmUps(page, 1);
    await page.waitForTimeout(Number(process.env.AB_WAIT ?? 2500));
    await page.evaluate(() => {
      const i = Object.assign(document.createElement('input'), { type: 'file', id: 'cpu-floor-input' });
      i.style.display = 'none';
      document.body.append(i);
      window.__floorFile = new Promise((ok) => i.addEventListener('change', () => ok(i.files[0]), { once: true }));
    });
    await page.setInputFiles('#cpu-floor-input', resolve(file));
    let before = threadCpu();
    let t0 = Date.now();
    const floor = cpuBetween(before, await sampled(() => page.evaluate(async (src) => {
      const f = await window.__floorFile;
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      await new Promise((ok) => { w.onmessage = ok; w.postMessage(f); });
      w.terminate();
    }, FLOOR_WORKER)));
    const floorWall = (Date.now() - t0) / 1000;
    await page.waitForTimeout(1500);
    before = threadCpu();
    t0 = Date.now();
    const load = cpuBetween(before, await sampled(async () => {
      await page.setInputFiles('#file-input', resolve(file));
      await page.waitForFunction(() => window.__tracewise.ready === true || !!window.__tracewise.error, null, { polling: 20, timeout: 600_000 });
    }));
    const loadWall = (Date.now() - t0) / 1000;
    console.log(`run ${r + 1}: floor ${floorWall.toFixed(3)} s wall, ${total(floor).toFixed(2)} CPU-s; ` +
      `load ${loadWall.toFixed(3)} s wall, ${total(load).toFixed(2)} CPU-s`);
    add(sums.floor, floor);
    add(sums.load, load);
  } finally {
    await context.close();
    await new Promise((ok) => server.close(ok));
    rmSync(dir, { recursive: true, force: true });
  }
}
const n = Number(rounds);
const keys = [...new Set([...sums.floor.keys(), ...sums.load.keys()])]
  .sort((a, b) => (sums.load.get(b) ?? 0) - (sums.load.get(a) ?? 0));
console.log('| process thread | floor CPU s | load CPU s |\n|---|---|---|');
for (const k of keys) {
  const f = (sums.floor.get(k) ?? 0) / n, l = (sums.load.get(k) ?? 0) / n;
  if (f + l >= 0.015) console.log(`| ${k} | ${f.toFixed(2)} | ${l.toFixed(2)} |`);
}
console.log(`| all | ${(total(sums.floor) / n).toFixed(2)} | ${(total(sums.load) / n).toFixed(2)} |`);
