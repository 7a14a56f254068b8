#!/usr/bin/env node
// Where the CPU of a load goes, against the read floor (not a test): in each of ROUNDS fresh
// headless Chromiums (fresh_page.mjs; AB_WAIT ms after the spare's warm-up, default 2500), the file
// is read once as browser_bench.mjs's floor is (read_floor.mjs, `cheapest`) and then loaded by the
// page; during each, every Chromium thread's user+system time is read from /proc. Prints each run's
// wall and total CPU, then a table of mean CPU seconds per process type and thread name (numbers in
// names folded: "DedicatedWorker" is all the page's workers together; "chromium" is a renderer's
// main thread; threads are sampled every 50 ms, so one that ends during the load is counted up to
// its last sample). On a 2-core machine the ratio load/floor is about the CPU each needs over what
// the cores give it: this says which threads the difference is on. Each run also prints the lowest
// load/floor its CPU allows on this machine's cores (load CPU-s / cores, over the floor's wall time
// as browser_bench takes it, though from one read, not the faster of two): a ratio no scheduling
// can beat without taking CPU out of the load.
// Usage: node bench/thread_cpu.mjs [FILE=bench/out/kineto_256mb.json] [ROUNDS=3]; TW_SITE picks the
// site (default build/site; a query for the page may follow it). Linux only (/proc); clock ticks
// of 10 ms, so single values are coarse.
// Every Chromium process on the machine is counted: run it with no other browser running.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { loadFile, withWarmPage } from './fresh_page.mjs';
import { readFloor } from './read_floor.mjs';

const [file = 'bench/out/kineto_256mb.json', rounds = '3'] = process.argv.slice(2);
const SITE = process.env.TW_SITE || 'build/site'; // (a query for the page may follow it: fresh_page.mjs)
const kTicksPerSecond = 100; // USER_HZ on Linux
const cores = availableParallelism();

// Every thread of every Chromium process: `${pid}/${tid}` -> { key: 'type thread-name', cpu: s }.
function threadCpu() {
  const out = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let type;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      type =
        (cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser') +
        (cmd.includes('--utility-sub-type=network') ? ':network' : '');
    } catch {
      continue;
    } // gone meanwhile
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8')
          .trim()
          .replace(/[0-9]+$/, '');
        out.set(`${pid}/${tid}`, { key: `${type} ${name}`, cpu: (Number(f[11]) + Number(f[12])) / kTicksPerSecond });
      } catch {
        /* the thread ended */
      }
    }
  }
  return out;
}

// CPU seconds per key while `run` runs: snapshots every kSampleMs, each thread's last one kept, so
// a thread that ends meanwhile (a part worker, once its part is absorbed) is counted up to its last
// sample. Resolves [CPU per key, what run resolved].
const kSampleMs = 50;
async function measureCpu(run) {
  const before = threadCpu();
  const seen = new Map(before);
  const take = () => {
    for (const [id, t] of threadCpu()) seen.set(id, t);
  };
  const timer = setInterval(take, kSampleMs);
  let result;
  try {
    result = await run();
  } finally {
    clearInterval(timer);
  }
  take();
  const by = new Map();
  for (const [id, t] of seen) {
    const d = t.cpu - (before.get(id)?.cpu ?? 0);
    if (d > 0) by.set(t.key, (by.get(t.key) ?? 0) + d);
  }
  return [by, result];
}

const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
const sums = { floor: new Map(), load: new Map() };
const add = (into, m) => {
  for (const [k, v] of m) into.set(k, (into.get(k) ?? 0) + v);
};
const bounds = [];
for (let r = 0; r < Number(rounds); r++) {
  await withWarmPage(SITE, { waitMs: Number(process.env.AB_WAIT ?? 2500) }, async (page) => {
    let floor;
    const read = await readFloor(page, resolve(file), 'cheapest', async (run) => {
      const [cpu, result] = await measureCpu(run);
      floor = cpu;
      return result;
    });
    await page.waitForTimeout(1500);
    const t0 = Date.now();
    const [load] = await measureCpu(() => loadFile(page, file));
    const loadWall = (Date.now() - t0) / 1000;
    // The floor as browser_bench.mjs takes it: setInputFiles .. the worker's reply (as loadWall).
    const bound = total(load) / cores / read.s;
    bounds.push(bound);
    console.log(
      `run ${r + 1}: floor ${read.inWorkerS.toFixed(3)} s in its worker, ${total(floor).toFixed(2)} CPU-s; ` +
        `load ${loadWall.toFixed(3)} s wall, ${total(load).toFixed(2)} CPU-s; ` +
        `on ${cores} cores at best ${(total(load) / cores).toFixed(3)} s, ${bound.toFixed(2)}x this floor's ${read.s.toFixed(3)} s (load/floor ${(loadWall / read.s).toFixed(2)})`
    );
    add(sums.floor, floor);
    add(sums.load, load);
  });
}
const n = Number(rounds);
const keys = [...new Set([...sums.floor.keys(), ...sums.load.keys()])].sort(
  (a, b) => (sums.load.get(b) ?? 0) - (sums.load.get(a) ?? 0)
);
console.log('| process thread | floor CPU s | load CPU s |\n|---|---|---|');
for (const k of keys) {
  const f = (sums.floor.get(k) ?? 0) / n,
    l = (sums.load.get(k) ?? 0) / n;
  if (f + l >= 0.015) console.log(`| ${k} | ${f.toFixed(2)} | ${l.toFixed(2)} |`);
}
console.log(`| all | ${(total(sums.floor) / n).toFixed(2)} | ${(total(sums.load) / n).toFixed(2)} |`);
console.log(
  `lowest load/floor the load's CPU allows on ${cores} cores, per run: ${bounds.map((b) => b.toFixed(2)).join(', ')}`
);
