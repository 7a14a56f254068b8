#!/usr/bin/env node
// The wasm import of one plain file in parts (web/load/parts/plan.ts) against in one piece, in node,
// side by side, interleaved: node's file reads cost next to nothing, so this is the parsers' own
// scaling with the parts' costs (a second module, exporting a part from its heap, absorbing it)
// and without the browser's I/O. Each later part runs in a worker_thread with its own module, as
// in a part worker. Prints a table (medians) and each run as a JSON line on stderr.
// Usage: node bench/parts_bench.mjs FILE [PARTS=2] [RUNS=3]   (after `make build`)
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openSync, readSync, closeSync, fstatSync, openAsBlob } from 'node:fs';
import { cpus } from 'node:os';
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kChunk = 4 << 20;

async function partsModule() {
  const out = await build({
    entryPoints: [resolve(ROOT, 'web/load/parts/plan.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

// Pushes [begin, end) of the file into the session, as the workers do (staging buffer, 4 MB pushes).
function pushRange(mod, session, path, begin, end) {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(kChunk);
  try {
    for (let pos = begin; pos < end;) {
      const n = readSync(fd, buf, 0, Math.min(kChunk, end - pos), pos);
      if (n <= 0) break;
      const at = Number(session.stagingBuffer(n));
      mod.HEAPU8.set(buf.subarray(0, n), at);
      session.pushStaged(n);
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

if (!isMainThread) {
  // A part worker: its range imported as a later part, exported, transferred.
  const { path, begin, end, objectForm, last } = workerData;
  const parts = await partsModule();
  const mod = await loadModule();
  parentPort.postMessage({ kind: 'ready' });
  parentPort.once('message', () => {
    const t0 = performance.now();
    const s = new mod.Session('part');
    s.setSizeHint(end - begin);
    s.beginLaterPart(begin, objectForm);
    pushRange(mod, s, path, begin, end);
    if (last) s.endInput();
    const t1 = performance.now();
    const part = parts.exportPart(s);
    const t2 = performance.now();
    s.delete();
    parentPort.postMessage(
      { kind: 'done', part, importS: (t1 - t0) / 1000, exportS: (t2 - t1) / 1000, heapMB: mod.HEAPU8.length / 2 ** 20 },
      [part.header.buffer, ...part.columns.map((c) => c.buffer)]
    );
  });
} else {
  // `--one whole|parts FILE PARTS`: one measurement in this process (a fresh one per measurement:
  // the heaps of earlier ones being freed made later ones up to 5x slower in one process).
  const one = process.argv[2] === '--one' ? process.argv[3] : null;
  const [file, partsArg = '2', runsArg = '3'] = process.argv.slice(one ? 4 : 2);
  if (!file) {
    console.error('usage: node bench/parts_bench.mjs FILE [PARTS=2] [RUNS=3]');
    process.exit(2);
  }
  const path = resolve(file);
  const size = fstatSync(openSync(path, 'r')).size;
  const parts = await partsModule();

  const whole = async () => {
    const mod = await loadModule();
    const t0 = performance.now();
    const s = new mod.Session('trace');
    s.setSizeHint(size);
    pushRange(mod, s, path, 0, size);
    const tf = performance.now();
    s.finish();
    const r = {
      wholeS: (performance.now() - t0) / 1000,
      wholeFinishS: (performance.now() - tf) / 1000,
      wholeHeapMB: mod.HEAPU8.length / 2 ** 20,
      summary: s.summaryJson(false),
    };
    s.delete();
    return r;
  };

  const inParts = async () => {
    const mod = await loadModule();
    const plan = await parts.planParts(mod, await openAsBlob(path), Number(partsArg), 1 << 20);
    if (!plan) throw new Error('no cut found');
    // Workers start and load their module before the clock starts (a spare would have them ready).
    const workers = await Promise.all(
      plan.starts.map(
        (begin, k) =>
          new Promise((ok) => {
            const end = k + 1 < plan.starts.length ? plan.starts[k + 1] : size;
            const w = new Worker(fileURLToPath(import.meta.url), {
              workerData: { path, begin, end, objectForm: plan.objectForm, last: k + 1 === plan.starts.length },
            });
            w.once('message', () => ok(w));
          })
      )
    );
    const t0 = performance.now();
    const results = workers.map((w) => new Promise((ok) => w.once('message', ok)));
    workers.forEach((w) => w.postMessage('go'));
    const s = new mod.Session('trace');
    s.setSizeHint(size);
    pushRange(mod, s, path, 0, plan.starts[0]);
    const ownS = (performance.now() - t0) / 1000;
    let absorbS = 0;
    const later = [];
    for (const [k, r] of results.entries()) {
      const m = await r;
      const ta = performance.now();
      if (!parts.absorbPart(mod, s, m.part)) throw new Error(`part ${k + 1} refused`);
      absorbS += (performance.now() - ta) / 1000;
      later.push(m);
    }
    const tf = performance.now();
    s.finish();
    const finishS = (performance.now() - tf) / 1000;
    const partsS = (performance.now() - t0) / 1000;
    const summary = s.summaryJson(false);
    s.delete();
    await Promise.all(workers.map((w) => w.terminate()));
    return {
      partsS,
      ownS,
      absorbS,
      finishS,
      laterImportS: Math.max(...later.map((m) => m.importS)),
      exportS: Math.max(...later.map((m) => m.exportS)),
      partsHeapMB: mod.HEAPU8.length / 2 ** 20,
      laterHeapMB: Math.max(...later.map((m) => m.heapMB)),
      summary,
    };
  };

  if (one) {
    const r = one === 'whole' ? await whole() : await inParts();
    process.stdout.write(JSON.stringify(r) + '\n');
    process.exit(0);
  }
  const measure = (what) =>
    JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--one', what, file, partsArg], {
        maxBuffer: 1 << 28,
      }).toString()
    );
  const rows = [];
  for (let i = 0; i < Number(runsArg); i++) {
    const a = measure('whole');
    const b = measure('parts');
    if (a.summary !== b.summary) throw new Error('the summaries differ');
    delete a.summary;
    delete b.summary;
    const row = { ...a, ...b };
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  const med = (k) => {
    const xs = rows.map((r) => r[k]).sort((x, y) => x - y);
    return xs[xs.length >> 1];
  };
  const f = (x, d = 2) => x.toFixed(d);
  console.log(
    `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}, node ${process.version}; ${file}, ${partsArg} parts, ${rows.length} runs (medians)`
  );
  console.log(
    '| MB | whole s | parts s | whole/parts | own part s | later import s | export s | absorb s | finish s whole / parts | heap MB whole / parts / part worker |'
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${f(size / 1e6, 0)} | ${f(med('wholeS'))} | ${f(med('partsS'))} | ${f(med('wholeS') / med('partsS'))} | ${f(med('ownS'))} | ${f(med('laterImportS'))} | ` +
      `${f(med('exportS'), 3)} | ${f(med('absorbS'), 3)} | ${f(med('wholeFinishS'), 3)} / ${f(med('finishS'), 3)} | ${f(med('wholeHeapMB'), 0)} / ${f(med('partsHeapMB'), 0)} / ${f(med('laterHeapMB'), 0)} |`
  );
}
