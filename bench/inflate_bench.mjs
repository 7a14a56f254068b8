// Inflate speed, one table: core/inflate natively against zlib (build/native/tw_inflate_bench, its
// own alternating runs) and `gzip -dc`; core/inflate built to wasm, in node, against node's zlib
// (createGunzip) and node's DecompressionStream, alternating in one process (wasm, zlib, stream,
// wasm, ...). Every column is MB/s of output, the median of RUNS; each file is read into memory once
// and fed in 1 MB pieces. The wasm side copies each piece into the heap and its output is counted,
// not copied out (the page's feed worker copies it once into a transferred batch).
// Usage: node bench/inflate_bench.mjs [RUNS=5] FILE.gz...   (after `make native wasm`)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createGunzip, gzipSync } from 'node:zlib';
import { loadModule, NATIVE_CLI } from '../tests/wasm/wasm_node.mjs';

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 5;
const files = args.length ? args : ['bench/out/kineto_1024mb.json.gz', 'bench/out/ds/ds_1024mb.json.gz'];
const nativeBench = join(NATIVE_CLI, '..', 'tw_inflate_bench');
const kPiece = 1 << 20;

const mod = await loadModule();

function wasmInflate(gz) {
  const inf = new mod.Inflater();
  let out = 0;
  const drain = () => {
    for (let v = inf.inflate(); v.length > 0; v = inf.inflate()) out += v.length;
  };
  for (let at = 0; at < gz.length;) {
    const room = Math.min(inf.inputRoom(), gz.length - at);
    mod.HEAPU8.set(gz.subarray(at, at + room), inf.inputSpace());
    inf.commitInput(room);
    at += room;
    drain();
  }
  inf.endInput();
  drain();
  const damage = JSON.parse(inf.damageJson());
  inf.delete();
  if (damage.length) throw new Error(`wasm inflater: damage ${JSON.stringify(damage)}`);
  return out;
}

function zlibInflate(gz) {
  return new Promise((resolve, reject) => {
    const z = createGunzip({ chunkSize: kPiece });
    let out = 0;
    z.on('data', (c) => (out += c.length));
    z.on('end', () => resolve(out));
    z.on('error', reject);
    for (let at = 0; at < gz.length; at += kPiece) z.write(gz.subarray(at, at + kPiece));
    z.end();
  });
}

async function streamInflate(gz) {
  const reader = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  let out = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) out += r.value.length;
  return out;
}

function gzipDc(path) {
  const r = spawnSync('sh', ['-c', 'gzip -dc "$1" > /dev/null', 'sh', path]);
  if (r.status !== 0) throw new Error(`gzip -dc ${path}: ${r.stderr}`);
}

async function seconds(f) {
  const t0 = performance.now();
  const out = await f();
  return { s: (performance.now() - t0) / 1000, out };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(
  `| file | side | core/inflate MB/s | zlib MB/s | DecompressionStream MB/s | gzip -dc MB/s | own vs zlib | own vs stream |`
);
console.log('|---|---|---|---|---|---|---|---|');
for (const path of files) {
  const gz = readFileSync(path);
  wasmInflate(gzipSync(gz.subarray(0, 4 << 20))); // the module's first calls (tier-up goes on in the first run)
  const t = { wasm: [], zlib: [], stream: [], gzip: [] };
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    const w = await seconds(() => wasmInflate(gz));
    const z = await seconds(() => zlibInflate(gz));
    const d = await seconds(() => streamInflate(gz));
    const g = await seconds(() => gzipDc(path));
    if (w.out !== z.out || d.out !== z.out) throw new Error(`${path}: sizes differ: ${w.out} ${z.out} ${d.out}`);
    bytes = w.out;
    (t.wasm.push(w.s), t.zlib.push(z.s), t.stream.push(d.s), t.gzip.push(g.s));
  }
  const mbs = (xs) => (bytes / 1e6 / median(xs)).toFixed(0);
  const gzipCol = mbs(t.gzip);
  const native = spawnSync(nativeBench, ['--runs', String(runs), path], { encoding: 'utf8' });
  const row = native.stdout
    .trim()
    .split('\n')
    .pop()
    .split('|')
    .map((c) => c.trim());
  // tw_inflate_bench: | file | MB out | own MB/s | zlib MB/s | zlib s / own s |
  console.log(`| ${basename(path)} | native | ${row[3]} | ${row[4]} | – | ${gzipCol} | ${row[5]}x | – |`);
  const ratio = (xs) => (median(xs) / median(t.wasm)).toFixed(2);
  console.log(
    `| ${basename(path)} | wasm in node | ${mbs(t.wasm)} | ${mbs(t.zlib)} | ${mbs(t.stream)} | ${gzipCol} | ${ratio(t.zlib)}x | ${ratio(t.stream)}x |`
  );
}
