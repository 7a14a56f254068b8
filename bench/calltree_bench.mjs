// The call tree's cost against the import's (issue #41: the tree of a 1 GB trace in at most 20 % of
// its import time), in wasm (node; the page's worker runs the same module), and the native CLI's
// `tracewise flame` against `tracewise stats` (import only). Prints one table row per file.
// Usage: node bench/calltree_bench.mjs WASM_DIR NATIVE_CLI FILE... (plain or .gz; bench/run.sh makes
// bench/out/kineto_1024mb.json).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadModule, importFile } from '../tests/wasm/wasm_node.mjs';

const [dir, cli, ...files] = process.argv.slice(2);
if (!dir || !cli || files.length === 0) {
  console.error('usage: node bench/calltree_bench.mjs WASM_DIR NATIVE_CLI FILE...');
  process.exit(2);
}
const mod = await loadModule(dir);
const seconds = (t0) => (performance.now() - t0) / 1000;
const wall = (args) => {
  const t0 = performance.now();
  const r = spawnSync(cli, args, { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cli} ${args.join(' ')}: ${r.stderr}`);
  return seconds(t0);
};

const rows = [];
for (const path of files) {
  const t0 = performance.now();
  const session = await importFile(mod, path);
  const importS = seconds(t0);
  const time = (f) => {
    const t = performance.now();
    const out = f();
    return [seconds(t), out];
  };
  const [first, json] = time(() => session.callTreeJson(-1, -1, false));
  const [second] = time(() => session.callTreeJson(-1, -1, false));
  const [bottomUp] = time(() => session.callTreeJson(-1, -1, true));
  const nodes = JSON.parse(json).nodes.parent.length;
  session.delete();
  const nativeImport = wall(['stats', path]);
  const nativeFlame = wall(['flame', path]);
  rows.push({
    file: path.split('/').pop(),
    MB: Math.round(statSync(path).size / 2 ** 20),
    nodes,
    'wasm import s': importS.toFixed(2),
    'tree s (1st, 2nd)': `${first.toFixed(2)}, ${second.toFixed(2)}`,
    'bottom-up s': bottomUp.toFixed(2),
    'tree / import': `${((100 * first) / importS).toFixed(1)} %`,
    'native stats s': nativeImport.toFixed(2),
    'native flame s': nativeFlame.toFixed(2),
    'flame − stats': `${((100 * (nativeFlame - nativeImport)) / nativeImport).toFixed(1)} %`,
  });
}
console.table(rows);
