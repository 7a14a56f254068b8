#!/usr/bin/env node
// The flame graph benchmark (issue #41: "the call tree of a 1 GB trace in at most 20 % of its import
// time; pans and zooms without dropped frames"; not a test). Two traces, made once into DIR:
//   - big:  gen_trace.py of FLAME_SOURCE (HTA's nccl_data.json, Kineto) up to FLAME_MB MiB (default 1024): import time
//           against the call tree's (its tree is small: the copies merge by name path);
//   - wide: a crafted Kineto trace of FLAME_WIDE_EVENTS CPU slices (default 400k) nested at random
//           with random names, each leaf launching a kernel: a call tree of 100k+ nodes to draw.
// For each, in a fresh headless Chromium (fresh_page.mjs, spare warmed first): load until the page is
// ready (import seconds from the open reply), open the Flame graph tab and time the call tree request
// (the page's round trip: core, JSON decoded in the worker, columns transferred) and the first
// layout; then zoom in and out around the widest deep frame, one step per animation frame, for
// FLAME_STEPS frames (default 120), and the same with the GPU measure: draw time per frame (p50,
// p95, max), the frame-to-frame interval and frames later than 1.5 refresh periods ("dropped").
// Prints a table. Usage: node bench/flame_page.mjs [SITE]   (default build/site)
// Environment: FLAME_ONLY (wide or big), FLAME_MB, FLAME_SOURCE, FLAME_WIDE_EVENTS, FLAME_STEPS, FLAME_DIR (bench/out/flame).
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFile, withWarmPage } from './fresh_page.mjs';

const site = process.argv[2] ?? 'build/site';
const MB = Number(process.env.FLAME_MB ?? 1024);
const WIDE = Number(process.env.FLAME_WIDE_EVENTS ?? 400_000);
const STEPS = Number(process.env.FLAME_STEPS ?? 120);
const DIR = resolve(process.env.FLAME_DIR ?? 'bench/out/flame');
const SOURCE = process.env.FLAME_SOURCE ?? 'tests/data/hta/tests/data/nccl_parser_config/nccl_data.json.gz';

// --- traces ------------------------------------------------------------------------------------------
mkdirSync(DIR, { recursive: true });
const big = join(DIR, `kineto-${MB}mb.json`);
if (!existsSync(big) || statSync(big).size === 0) {
  console.error(`flame_page: writing ${big}`);
  execFileSync('python3', ['bench/gen_trace.py', SOURCE, `${big}.tmp`, String(MB)], { stdio: 'inherit' });
  renameSync(`${big}.tmp`, big);
}
const wide = join(DIR, `wide-${WIDE}.json`);
if (!existsSync(wide) || statSync(wide).size === 0) await writeWide(wide, WIDE);

// Random nesting: each thread runs top-level calls one after another; a call has 0-4 children of
// random names drawn from a pool that grows with depth, so most paths below depth 2 are new nodes.
async function writeWide(path, events) {
  console.error(`flame_page: writing ${path}`);
  const out = createWriteStream(path);
  let seed = 12345;
  const rand = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const write = (s) => (out.write(s) ? null : new Promise((ok) => out.once('drain', ok)));
  await write('{"schemaVersion":1,"traceEvents":[\n');
  await write(
    '{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}},' +
      '{"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"GPU 0"}}'
  );
  let made = 0,
    corr = 1;
  const gpuAt = [0];
  for (let thread = 1; made < events; thread++) {
    let t = 1000;
    for (let top = 0; top < 200 && made < events; top++) {
      // One call tree of depth up to 10, written parents first (ts order inside the thread).
      const stack = [{ depth: 0, name: `step_${rand(8)}`, dur: 20000 + rand(20000) }];
      let at = t;
      const spans = [];
      while (stack.length && made < events) {
        const c = stack.pop();
        const ts = c.ts ?? at;
        spans.push({ ...c, ts });
        made++;
        const kids = c.depth < 9 ? rand(5) : 0;
        let inner = ts + 1;
        const room = Math.floor((c.dur - 2) / Math.max(1, kids));
        const list = [];
        for (let k = 0; k < kids && room > 4; k++) {
          list.push({
            depth: c.depth + 1,
            name: `fn_${c.depth}_${rand(40 + c.depth * 120)}`,
            ts: inner,
            dur: room - 2,
          });
          inner += room;
        }
        if (!kids) spans[spans.length - 1].leaf = true;
        for (let k = list.length - 1; k >= 0; k--) stack.push(list[k]);
      }
      for (const s of spans) {
        await write(
          `,\n{"ph":"X","cat":"cpu_op","name":"${s.name}","pid":1,"tid":${thread},"ts":${s.ts},"dur":${s.dur}}`
        );
        if (s.leaf && s.dur > 6) {
          const c = corr++;
          const g = Math.max(gpuAt[0], s.ts + 2);
          gpuAt[0] = g + 3;
          await write(
            `,\n{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":${thread},"ts":${s.ts + 1},"dur":2,"args":{"correlation":${c}}}` +
              `,\n{"ph":"X","cat":"kernel","name":"kernel_${rand(50)}","pid":0,"tid":7,"ts":${g},"dur":3,"args":{"correlation":${c},"device":0,"stream":7}}`
          );
        }
      }
      t += 50000;
    }
  }
  await write('\n]}\n');
  await new Promise((ok) => out.end(ok));
}

// --- one trace in the page -----------------------------------------------------------------------------
const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

async function zoomRun(page, steps) {
  return page.evaluate(async (n) => {
    const f = window.__tracewise.flame;
    const deep = f.widest(50).filter((x) => x.row >= 3)[0] ?? f.widest(1)[0];
    const l = f.view.pane.layout;
    let i = 0;
    while (i < l.items && l.node[i] !== deep.node) i++;
    const cx = l.x[i] + l.w[i] / 2;
    const before = f.probe().frames;
    const gaps = [];
    let last = performance.now();
    for (let k = 0; k < n; k++) {
      // In for the first half (to 1/1000 of the width), out for the second.
      const phase = k < n / 2 ? k / (n / 2) : 2 - k / (n / 2);
      const span = Math.pow(10, -3 * phase);
      f.setView(cx - span / 2, cx + span / 2);
      await new Promise((ok) => requestAnimationFrame(() => ok()));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    await new Promise((ok) => requestAnimationFrame(() => ok()));
    const p = f.probe();
    return { draw: p.drawMs.slice(-Math.max(1, p.frames - before)), gaps, drawn: p.drawn, coalesced: p.coalesced };
  }, steps);
}

async function measure(path) {
  return withWarmPage(site, {}, async (page) => {
    await loadFile(page, path);
    const open = await page.evaluate(() => window.__opens[0]);
    await page.click('[data-tab="flame"]');
    await page.waitForFunction(() => window.__tracewise.flame?.probe().ready, null, { timeout: 600_000, polling: 20 });
    const p = await page.evaluate(() => window.__tracewise.flame.probe());
    const cpu = await zoomRun(page, STEPS);
    await page.selectOption('[data-testid="flame-measure"]', 'gpu');
    await page.waitForFunction(() => window.__tracewise.flame.probe().ready, null, { timeout: 60_000, polling: 20 });
    const g = await page.evaluate(() => window.__tracewise.flame.probe());
    const gpu = await zoomRun(page, STEPS);
    return { open, p, g, cpu, gpu };
  });
}

const rows = [];
for (const [label, path] of [
  ['wide', wide],
  ['big', big],
].filter(([l]) => (process.env.FLAME_ONLY ?? l) === l)) {
  const r = await measure(path);
  const mb = statSync(path).size / (1 << 20);
  for (const [m, z, pr] of [
    ['cpu', r.cpu, r.p],
    ['gpu', r.gpu, r.g],
  ]) {
    const refresh = q(z.gaps, 0.5);
    rows.push({
      trace: `${label} ${mb.toFixed(0)} MB`,
      measure: m,
      'import s': r.open.seconds.toFixed(2),
      'tree req s': (r.p.requestMs / 1000).toFixed(3),
      'core/decode s': r.p.requestTiming
        ? `${(r.p.requestTiming.coreMs / 1000).toFixed(3)} / ${(r.p.requestTiming.decodeMs / 1000).toFixed(3)}`
        : '—',
      'req/import': `${((r.p.requestMs / 1000 / r.open.seconds) * 100).toFixed(1)} %`,
      nodes: pr.nodes,
      items: pr.items,
      'layout ms': q(pr.layoutMs, 0.5).toFixed(1),
      'draw p50/p95/max ms': `${q(z.draw, 0.5).toFixed(2)} / ${q(z.draw, 0.95).toFixed(2)} / ${Math.max(...z.draw).toFixed(2)}`,
      'frame p50/max ms': `${refresh.toFixed(1)} / ${Math.max(...z.gaps).toFixed(1)}`,
      dropped: z.gaps.filter((x) => x > refresh * 1.5).length,
    });
  }
}
console.table(rows);
