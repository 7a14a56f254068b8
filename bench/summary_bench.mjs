// The summary's own time in wasm (node): imports FILE once, then calls summaryJson REPEAT times and
// prints one JSON line: wall and CPU seconds of each call (the first call runs V8's baseline code,
// later ones the optimised code), heap, output length.
// Usage: node bench/summary_bench.mjs WASM_DIR FILE [REPEAT=4] [hta]
// CPU is the process's, so the first call's includes V8 compiling optimised code on other threads.
import { loadModule, importFile } from '../tests/wasm/wasm_node.mjs';

const [dir, path, repeat = '4', mode = ''] = process.argv.slice(2);
const mod = await loadModule(dir);
const t0 = performance.now();
const session = await importFile(mod, path);
const importS = (performance.now() - t0) / 1000;
const wall = [],
  cpu = [];
let length = 0;
for (let i = 0; i < Number(repeat); ++i) {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  length = session.summaryJson(mode === 'hta').length;
  wall.push(+((performance.now() - w0) / 1000).toFixed(3));
  const c = process.cpuUsage(c0);
  cpu.push(+((c.user + c.system) / 1e6).toFixed(3));
}
console.log(
  JSON.stringify({
    file: path.split('/').pop(),
    hta: mode === 'hta',
    import_s: +importS.toFixed(2),
    wall_s: wall,
    cpu_s: cpu,
    heap_mb: mod.HEAPU8.length >> 20,
    length,
  })
);
