#!/usr/bin/env node
// Which wasm functions V8 still compiles with its top tier (TurboFan) during a load, after the
// spare's warm-up (not a test). Such a function ran in baseline code (Liftoff) until then, and its
// compiling takes CPU from the load's two cores. One fresh headless Chromium per run
// (fresh_page.mjs), with --js-flags=--trace-wasm-compilation-times; the compile lines printed
// between the file chosen and the page turning ready are listed with their times. With a site whose
// wasm has a name section (link with --profiling-funcs: see bench/README.md) each function is
// named.
// Usage: node bench/wasm_tierup.mjs [FILE=bench/out/kineto_256mb.json] [ROUNDS=1]; TW_SITE picks the
// site (default build/site).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The renderers print to the browser's stdout, which Playwright only passes on as its `pw:browser`
// debug log (on stderr): that log is turned on before Playwright loads, and its lines are taken
// from stderr here rather than printed.
process.env.DEBUG = 'pw:browser';
let onLine = (_line) => {};
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (!text.includes('pw:browser')) return writeStderr(chunk, ...rest);
  for (const line of text.split('\n')) onLine(line);
  return true;
};
const { loadFile, withWarmPage } = await import('./fresh_page.mjs');

const [file = 'bench/out/kineto_256mb.json', rounds = '1'] = process.argv.slice(2);
const SITE = resolve(process.env.TW_SITE || 'build/site');

// Function index -> name, from the module's "name" section (none: an empty map).
function functionNames(wasmPath) {
  const names = new Map();
  const section = WebAssembly.Module.customSections(new WebAssembly.Module(readFileSync(wasmPath)), 'name')[0];
  if (!section) return names;
  const b = new Uint8Array(section);
  let p = 0;
  const leb = () => {
    let r = 0,
      s = 0,
      x;
    do {
      x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  while (p < b.length) {
    const id = b[p++],
      size = leb(),
      end = p + size;
    if (id === 1) {
      // function names: a vector of (index, name)
      for (let k = leb(); k > 0; k--) {
        const index = leb(),
          len = leb();
        names.set(index, new TextDecoder().decode(b.subarray(p, p + len)));
        p += len;
      }
    }
    p = end;
  }
  return names;
}

const names = functionNames(join(SITE, 'tracewise.wasm'));
for (let r = 0; r < Number(rounds); r++) {
  const lines = [];
  let recording = false;
  onLine = (line) => {
    if (recording && line.includes('using TurboFan')) lines.push(line);
  };
  await withWarmPage(
    SITE,
    { args: ['--js-flags=--trace-wasm-compilation-times'], waitMs: Number(process.env.AB_WAIT ?? 2500) },
    async (page) => {
      recording = true;
      await loadFile(page, file);
      recording = false;
    }
  );
  // "Compiled function 0x...#487 using TurboFan, took 11239 μs and ..."
  const compiled = lines
    .map((l) => ({ index: Number(l.match(/#(\d+) using/)?.[1]), us: Number(l.match(/took (\d+)/)?.[1] ?? 0) }))
    .filter((c) => Number.isFinite(c.index));
  const ms = compiled.reduce((a, c) => a + c.us, 0) / 1000;
  console.log(`run ${r + 1}: ${compiled.length} functions compiled by TurboFan during the load, ${ms.toFixed(1)} ms`);
  for (const c of compiled.sort((a, b) => b.us - a.us)) {
    console.log(`  ${(c.us / 1000).toFixed(1).padStart(6)} ms  #${c.index} ${names.get(c.index) ?? ''}`.slice(0, 200));
  }
}
