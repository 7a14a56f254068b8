#!/usr/bin/env node
// The decode worker's effect where the two threads each have a core: imports a plain trace with the
// wasm core in node, (a) on one thread, as the trace worker does alone, and (b) with a second thread
// (worker_threads) decoding the importer's batches into records (core/import/event_records.h),
// scheduled like web/worker/decode_client.ts (the worker pulls: 4 slots; more than 12 kept batches
// are decoded on the main thread). The file is read with readSync on the main thread (cheap in node;
// in the browser a feed worker reads it). Prints one table row per run and mode, and checks that
// both modes give the same summary.
// Usage: node bench/decode_pipeline_bench.mjs WASM_DIR FILE [RUNS]
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const [dirArg, path, runsArg] = process.argv.slice(2);
if (!dirArg || !path) { console.error('usage: node bench/decode_pipeline_bench.mjs WASM_DIR FILE [RUNS]'); process.exit(2); }
const dir = resolve(dirArg);
const runs = Number(runsArg || 2);
const kChunk = 4 << 20;
const kSlots = 4;
const kMaxKept = 12;
const here = dirname(fileURLToPath(import.meta.url));
const mod = await loadModule(dir);
const tick = () => new Promise((ok) => setImmediate(ok));  // lets the worker's replies in

async function importOnce(two) {
  const session = new mod.Session(basename(path));
  const fd = openSync(path, 'r');
  session.setSizeHint(fstatSync(fd).size);
  let worker = null, slots = 0, next = 0, applied = 0, local = 0, waitMs = 0;
  const arrived = new Map();
  let wake = null;
  if (two) {
    worker = new Worker(join(here, 'decode_pipeline_worker.mjs'), { workerData: { dir, slots: kSlots } });
    worker.on('message', (m) => {
      if (m.ready) slots += m.ready;
      else { arrived.set(m.seq, m.records); slots++; }
      if (wake) { const w = wake; wake = null; w(); }
    });
    session.setDeferredDecode(true);
  }
  const handOut = () => {
    while (slots > 0) {
      const b = session.nextOutgoing();
      if (b === null) return;
      const data = b.data.slice(), refs = b.refs.slice();
      slots--;
      next = Math.max(next, applied);
      worker.postMessage({ seq: next++, data, refs }, [data.buffer, refs.buffer]);
    }
  };
  const apply = (r) => {
    arrived.delete(applied);
    mod.HEAPU8.set(r, Number(session.recordsBuffer(r.length)));
    session.applyRecords(r.length);
    applied++;
  };
  const applyArrived = () => { for (let r = arrived.get(applied); r !== undefined; r = arrived.get(applied)) apply(r); };
  const applyOldest = async () => {
    if (applied < next) {
      const t = performance.now();
      while (!arrived.has(applied)) await new Promise((ok) => { wake = ok; });
      waitMs += performance.now() - t;
      apply(arrived.get(applied));
      return;
    }
    session.applyLocal();
    applied++;
    local++;
  };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const buf = Buffer.allocUnsafe(kChunk);
  for (let pos = 0; ;) {
    const n = readSync(fd, buf, 0, kChunk, pos);
    if (n <= 0) break;
    mod.HEAPU8.set(buf.subarray(0, n), Number(session.stagingBuffer(n)));
    session.pushStaged(n);
    pos += n;
    if (two) {
      await tick();
      handOut();
      applyArrived();
      while (Number(session.deferredBatches()) > kMaxKept) await applyOldest();
    }
  }
  closeSync(fd);
  if (two) {
    session.endInput();
    for (;;) {
      handOut();
      applyArrived();
      if (Number(session.deferredBatches()) === 0) break;
      await applyOldest();
    }
  }
  const tf = performance.now();
  session.finish();
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  if (worker) await worker.terminate();
  const summary = session.summaryJson(false);
  session.delete();
  return { wall: (t1 - t0) / 1000, finish: (t1 - tf) / 1000, cpu: (cpu.user + cpu.system) / 1e6, local, waitMs, summary };
}

const size = fstatSync(openSync(path, 'r')).size;
console.log(`${basename(path)}: ${(size / 1e6).toFixed(1)} MB, node ${process.version}`);
console.log('| run | mode | import s (to end of finish) | MB/s | finish s | CPU s (both threads) | batches decoded on main | main waited ms |');
console.log('|---|---|---|---|---|---|---|---|');
let reference = null;
for (let r = 1; r <= runs; ++r) {
  for (const two of [false, true]) {
    const x = await importOnce(two);
    reference ??= x.summary;
    if (x.summary !== reference) { console.error('summaries differ between modes'); process.exit(1); }
    console.log(`| ${r} | ${two ? 'two threads' : 'one thread'} | ${x.wall.toFixed(2)} | ${(size / 1e6 / x.wall).toFixed(0)} | ${x.finish.toFixed(2)} | ${x.cpu.toFixed(2)} | ${two ? x.local : '-'} | ${two ? x.waitMs.toFixed(0) : '-'} |`);
  }
}
console.log('summaries identical between modes');
