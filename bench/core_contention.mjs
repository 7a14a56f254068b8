#!/usr/bin/env node
// Whether this machine's cores slow each other down (not a test): a warm wasm import of FILE in
// node, alone and while a second process keeps another core busy, alternating, and the slowdown.
// On a VM whose vCPUs share a physical core, or a host that is oversubscribed, two busy threads
// each run slower than one alone, so a page load that keeps two threads busy gets less than twice
// one core's work done. That bounds every load/floor ratio browser_bench.mjs reports; this says by
// how much. The busy process is a bare loop (little memory traffic): a lower bound of the effect.
// Usage: node bench/core_contention.mjs [FILE=bench/out/kineto_256mb.json] [ROUNDS=4]; WASM_DIR
// (default build/wasm).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importBytes, loadModule } from '../tests/wasm/wasm_node.mjs';

const [file = 'bench/out/kineto_256mb.json', rounds = '4'] = process.argv.slice(2);
const mod = await loadModule(resolve(process.env.WASM_DIR || 'build/wasm'));
const bytes = readFileSync(resolve(file));
const kPush = 2 << 20; // as the page's trace worker pushes (heap_pusher.ts: batches of a few MB)

// One import as the worker does it (the size known up front), seconds from the first push to finish().
function importOnce() {
  const t0 = performance.now();
  const session = importBytes(mod, bytes, 'contention', kPush, bytes.length);
  const s = (performance.now() - t0) / 1000;
  if (session.failed()) throw new Error(`import failed: ${session.error()}`);
  session.delete();
  return s;
}

// A second process spinning on another core until killed; resolves once it runs.
async function busy() {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("on\\n"); for (;;) {}'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ok) => child.stdout.once('data', ok));
  return child;
}

importOnce(); // V8's tiers and the heap's growth, once, outside the timings
const alone = [],
  shared = [];
for (let r = 0; r < Number(rounds); r++) {
  alone.push(importOnce());
  const child = await busy();
  try {
    shared.push(importOnce());
  } finally {
    child.kill();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (xs) => xs.map((x) => x.toFixed(3)).join(' ');
console.log(`import alone s: ${fmt(alone)}\nimport beside a busy core s: ${fmt(shared)}`);
console.log('| file | MB | alone s (median) | beside a busy core s | slowdown |\n|---|---|---|---|---|');
console.log(
  `| ${file} | ${(bytes.length / 1e6).toFixed(1)} | ${median(alone).toFixed(3)} | ${median(shared).toFixed(3)} | ` +
    `${(median(shared) / median(alone)).toFixed(2)}x |`
);
