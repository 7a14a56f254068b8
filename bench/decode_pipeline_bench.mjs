#!/usr/bin/env node
// The decode worker's effect where the two threads each have a core: imports a plain trace with the
// wasm core in node, (a) on one thread, as the trace worker does alone, and (b) with the page's own
// DecodeHelper (web/load/decode/client.ts, bundled with esbuild) driving a second thread
// (worker_threads, bench/decode_pipeline_worker.mjs) that decodes the importer's batches into records
// (core/import/event_records.h). The file is read with readSync on the main thread (cheap in node;
// in the browser a feed worker reads it). Prints one table row per run and mode, and checks that
// both modes give the same summary.
// Usage: node bench/decode_pipeline_bench.mjs WASM_DIR FILE [RUNS]
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule } from '../tests/wasm/wasm_node.mjs';
import { importTs } from '../tests/e2e/share_support.mjs';

const [dirArg, path, runsArg] = process.argv.slice(2);
if (!dirArg || !path) {
  console.error('usage: node bench/decode_pipeline_bench.mjs WASM_DIR FILE [RUNS]');
  process.exit(2);
}
const dir = resolve(dirArg);
const runs = Number(runsArg || 2);
const kChunk = 4 << 20;
const kSlots = 4; // as web/load/decode/worker.ts offers
const here = dirname(fileURLToPath(import.meta.url));
const mod = await loadModule(dir);
const { DecodeHelper } = await importTs('web/load/decode/client.ts');
const tick = () => new Promise((ok) => setImmediate(ok)); // lets the worker's replies in, as the page's reads do

// A worker_threads Worker in the shape DecodeHelper expects of a browser Worker (DecodePort).
function port(w) {
  const p = {
    onmessage: null,
    onerror: null,
    postMessage: (m, t) => w.postMessage(m, t),
    terminate: () => w.terminate(),
  };
  w.on('message', (data) => p.onmessage?.({ data }));
  w.on('error', (e) => p.onerror?.({ message: String(e) }));
  return p;
}

async function importOnce(two) {
  const session = new mod.Session(basename(path));
  const fd = openSync(path, 'r');
  session.setSizeHint(fstatSync(fd).size);
  const helper = two
    ? new DecodeHelper(
        mod,
        session,
        false,
        port(new Worker(join(here, 'decode_pipeline_worker.mjs'), { workerData: { dir, slots: kSlots } }))
      )
    : null;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const buf = Buffer.allocUnsafe(kChunk);
  for (let pos = 0; ;) {
    const n = readSync(fd, buf, 0, kChunk, pos);
    if (n <= 0) break;
    mod.HEAPU8.set(buf.subarray(0, n), Number(session.stagingBuffer(n)));
    session.pushStaged(n);
    pos += n;
    if (helper) {
      await tick();
      await helper.step();
    }
  }
  closeSync(fd);
  if (helper) {
    session.endInput();
    await helper.drain();
    helper.close();
  }
  const tf = performance.now();
  session.finish();
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  const summary = session.summaryJson(false);
  session.delete();
  return {
    wall: (t1 - t0) / 1000,
    finish: (t1 - tf) / 1000,
    cpu: (cpu.user + cpu.system) / 1e6,
    local: helper?.localBatches,
    summary,
  };
}

const size = fstatSync(openSync(path, 'r')).size;
console.log(`${basename(path)}: ${(size / 1e6).toFixed(1)} MB, node ${process.version}`);
console.log(
  '| run | mode | import s (to end of finish) | MB/s | finish s | CPU s (both threads) | batches decoded on main |'
);
console.log('|---|---|---|---|---|---|---|');
let reference = null;
for (let r = 1; r <= runs; ++r) {
  for (const two of [false, true]) {
    const x = await importOnce(two);
    reference ??= x.summary;
    if (x.summary !== reference) {
      console.error('summaries differ between modes');
      process.exit(1);
    }
    console.log(
      `| ${r} | ${two ? 'two threads' : 'one thread'} | ${x.wall.toFixed(2)} | ${(size / 1e6 / x.wall).toFixed(0)} | ${x.finish.toFixed(2)} | ${x.cpu.toFixed(2)} | ${two ? x.local : '-'} |`
    );
  }
}
console.log('summaries identical between modes');
