// Imports one trace with the wasm build in node, on one thread, and prints one JSON line:
// {bytes, import_s, import_cpu_s, summary_s, events, model_bytes, heap_bytes (peak through finish),
// heap_before_finish_bytes, heap_after_summary_bytes, rss_bytes}.
// Usage: node bench/wasm_bench.mjs WASM_DIR FILE
// Like the web worker it pushes chunks of a few MB (V8 optimises many short calls better than one
// long one). gzip files are decompressed by node's zlib on the same thread, as the browser's
// DecompressionStream would on the worker. The size hint is File.size, or for gzip the trailer's
// ISIZE when not below the file (the page refines it from the ratio, core/inflate/gzip_size.h:
// BENCH_HINT=BYTES sets it, e.g. to the inflated size; BENCH_NO_HINT=1 gives none).
import { openSync, readSync, closeSync, createReadStream, fstatSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { basename } from 'node:path';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const [dir, path] = process.argv.slice(2);
const mod = await loadModule(dir);
const kChunk = 4 << 20;

let maxHeap = 0;
let bytes = 0;
function push(session, chunk) {
  const ptr = Number(session.stagingBuffer(chunk.length));
  mod.HEAPU8.set(chunk, ptr);
  session.pushStaged(chunk.length);
  bytes += chunk.length;
  maxHeap = Math.max(maxHeap, mod.HEAPU8.length);
}

const fd = openSync(path, 'r');
const head = Buffer.alloc(2);
readSync(fd, head, 0, 2, 0);
const gzip = head[0] === 0x1f && head[1] === 0x8b;
const session = new mod.Session(basename(path));
// The size hint a web worker can know up front: File.size, or for gzip the trailer's ISIZE
// (uncompressed size mod 4 GiB). BENCH_NO_HINT=1 measures without it.
const size = fstatSync(fd).size;
let hint = size;
if (gzip) {
  const tail = Buffer.alloc(4);
  readSync(fd, tail, 0, 4, size - 4);
  hint = tail.readUInt32LE(0);
  if (hint < size) hint = 0;
}
if (process.env.BENCH_HINT) hint = Number(process.env.BENCH_HINT);
if (session.setSizeHint && !process.env.BENCH_NO_HINT) session.setSizeHint(hint);
const t0 = performance.now();
const c0 = process.cpuUsage();
if (gzip) {
  closeSync(fd);
  const stream = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: kChunk }));
  for await (const chunk of stream) push(session, chunk);
} else {
  const buf = Buffer.allocUnsafe(kChunk);
  for (let pos = 0; ;) {
    const n = readSync(fd, buf, 0, kChunk, pos);
    if (n <= 0) break;
    push(session, buf.subarray(0, n));
    pos += n;
  }
  closeSync(fd);
}
const heapBeforeFinish = Math.max(maxHeap, mod.HEAPU8.length);
session.finish();
const t1 = performance.now();
const c1 = process.cpuUsage(c0);
maxHeap = Math.max(maxHeap, mod.HEAPU8.length);
const importHeap = maxHeap;
if (session.failed()) {
  console.error(`wasm import failed: ${session.error()}`);
  process.exit(1);
}
const summary = session.summaryJson(false);
const t2 = performance.now();
const events = JSON.parse(summary).files[0].import.events;
console.log(
  JSON.stringify({
    bytes,
    import_s: (t1 - t0) / 1000,
    import_cpu_s: (c1.user + c1.system) / 1e6,
    summary_s: (t2 - t1) / 1000,
    events,
    model_bytes: session.modelBytes(),
    heap_bytes: importHeap,
    heap_before_finish_bytes: heapBeforeFinish,
    heap_after_summary_bytes: mod.HEAPU8.length,
    rss_bytes: process.memoryUsage().rss,
  })
);
