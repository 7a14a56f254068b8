// The timeline's window queries in wasm in node, as tw_timeline_query replays them natively
// (bench/timeline_query.cc): imports FILE with the wasm build in WASM_DIR (one thread, 4 MB pushes),
// builds the timeline index, then replays REQUESTS.json (the page's window requests {lanes, t0, t1,
// px, search}) ROUNDS times and prints the best time of each request summed, and items.
// Usage: node bench/timeline_query.mjs WASM_DIR FILE REQUESTS.json [ROUNDS=6]
import { openSync, readSync, closeSync, fstatSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const [dir, path, reqPath, roundsArg = '6'] = process.argv.slice(2);
if (!reqPath) {
  console.error('usage: node bench/timeline_query.mjs WASM_DIR FILE REQUESTS.json [ROUNDS=6]');
  process.exit(2);
}
const mod = await loadModule(dir);
const fd = openSync(path, 'r');
const session = new mod.Session(basename(path));
session.setSizeHint(fstatSync(fd).size);
const buf = Buffer.allocUnsafe(4 << 20);
for (let pos = 0; ;) {
  const n = readSync(fd, buf, 0, buf.length, pos);
  if (n <= 0) break;
  const ptr = Number(session.stagingBuffer(n));
  mod.HEAPU8.set(buf.subarray(0, n), ptr);
  session.pushStaged(n);
  pos += n;
}
closeSync(fd);
session.finish();
if (session.failed()) {
  console.error(`import failed: ${session.error()}`);
  process.exit(1);
}
const reqs = JSON.parse(readFileSync(reqPath, 'utf8'));
const q0 = reqs[0];
let t = performance.now();
session.timelineWindow(q0.lanes, q0.t0, q0.t1, q0.px, Boolean(q0.search)); // builds the index
const first = performance.now() - t;
const best = reqs.map(() => Infinity);
let items = 0;
for (let round = 0; round < Math.max(1, Number(roundsArg)); round++) {
  reqs.forEach((q, i) => {
    t = performance.now();
    const v = session.timelineWindow(q.lanes, q.t0, q.t1, q.px, Boolean(q.search));
    best[i] = Math.min(best[i], performance.now() - t);
    if (round === 0) items += v.start ? v.start.length : 0;
  });
}
console.log(
  `${dir}: index and first request ${first.toFixed(0)} ms; ${reqs.length} requests, ${items} items, best total ${best
    .reduce((a, b) => a + b, 0)
    .toFixed(1)} ms`
);
