#!/usr/bin/env node
// A sampled CPU profile of every thread of the page during one load (not a test): a fresh headless
// Chromium on the built site (fresh_page.mjs, AB_WAIT ms after the spare's warm-up, default 2500),
// one load of FILE under a DevTools trace with V8's sampling profiler on
// (`disabled-by-default-v8.cpu_profiler`, a sample every 100 us), then per thread the functions
// with the most samples (self time). The samples are wall-clock: a thread descheduled inside a
// function counts there, so compare threads' busy totals with thread_cpu.mjs's CPU seconds. For
// the wasm functions' names the site's wasm needs a name section (bench/README: a
// `--profiling-funcs` build); otherwise they show as wasm-function[N].
// Usage: node bench/worker_profile.mjs [FILE=bench/out/kineto_256mb.json] [TOP=20]; TW_SITE picks
// the site (default build/site).
import { resolve } from 'node:path';
import { traceDuring } from './devtools_trace.mjs';
import { loadFile, withWarmPage } from './fresh_page.mjs';

const [file = 'bench/out/kineto_256mb.json', top = '20'] = process.argv.slice(2);
const SITE = resolve(process.env.TW_SITE || 'build/site');
const kMinSampledUs = 50_000; // threads sampled for less than this are left out (idle helpers)

await withWarmPage(SITE, { waitMs: Number(process.env.AB_WAIT ?? 2500) }, async (page) => {
  const t0 = Date.now();
  const events = await traceDuring(
    page,
    {
      categories: 'disabled-by-default-v8.cpu_profiler,disabled-by-default-devtools.timeline',
      options: 'sampling-frequency=10000',
    },
    () => loadFile(page, file)
  );
  console.log(`${file}: loaded in ${((Date.now() - t0) / 1000).toFixed(3)} s under the trace (slower than untraced)`);
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  // A profile per thread: its nodes come in chunks, each with samples (node ids) and time deltas.
  const profiles = new Map();
  for (const e of events) {
    if (e.name === 'Profile')
      profiles.set(e.id, { thread: `${e.pid}:${e.tid}`, nodes: new Map(), self: new Map(), total: 0 });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(e.id);
    if (!p) continue;
    const chunk = e.args.data.cpuProfile ?? {};
    for (const n of chunk.nodes ?? []) p.nodes.set(n.id, n);
    const deltas = e.args.data.timeDeltas ?? [];
    (chunk.samples ?? []).forEach((id, i) => {
      const frame = p.nodes.get(id)?.callFrame;
      const fn = frame?.functionName || frame?.url || '(anonymous)';
      p.self.set(fn, (p.self.get(fn) ?? 0) + (deltas[i] ?? 0));
      p.total += deltas[i] ?? 0;
    });
  }
  for (const p of profiles.values()) {
    if (p.total < kMinSampledUs) continue;
    const idle = p.self.get('(idle)') ?? 0;
    console.log(
      `\n== ${names.get(p.thread) ?? p.thread}: ${(p.total / 1000).toFixed(0)} ms sampled, ${((p.total - idle) / 1000).toFixed(0)} ms not idle`
    );
    for (const [fn, us] of [...p.self].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
      console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${fn.slice(0, 120)}`);
  }
});
