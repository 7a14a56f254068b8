// node:test: the page's TypeScript types of the JSON the core writes say what it writes: the summary
// document (web/app/summary_document.ts) and the timeline's event details, args and area aggregates
// (web/timeline/replies.ts). The wasm build summarizes every trace of tests/data in both analysis
// modes and answers timeline requests on it; each summary and each reply is type-checked as an object literal of those types: a key
// the types lack, a key they require that the core does not write, or a value of another type (a
// null, a string for a number) fails with the trace and the line. Arrays keep a few elements (their
// first three and the last): the shape is what is checked.
// Overrides: TW_WASM_DIR, TW_TEST_DATA.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import ts from 'typescript';
import { loadModule, importFile, WASM_DIR } from './wasm_node.mjs';
import { DATA, ROOT, manifest } from '../test_data.mjs';

const DIR = process.env.TW_WASM_DIR ?? WASM_DIR;
const kImports = {
  [join(ROOT, 'web', 'app', 'summary_document')]: ['FileSummary', 'SummaryDocument'],
  [join(ROOT, 'web', 'timeline', 'replies')]: ['AggregateReply', 'EventArgs', 'EventDetails'],
};
const CHECKED = join(ROOT, 'build', 'summary_types_check.ts'); // in memory only: never written

// The first three elements and the last (e.g. a step after the 32nd, whose sections are null).
function shrink(v) {
  if (Array.isArray(v)) return (v.length > 4 ? [...v.slice(0, 3), v[v.length - 1]] : v).map(shrink);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrink(x)]));
  return v;
}

// Type-checks `decls` ([what, type, value] each) against the types; returns the errors, each with
// the `what` of the declaration it is in and the line.
function typeErrors(decls) {
  const lines = [];
  const owner = []; // each line's `what`
  const add = (what, text) => {
    for (const line of text.split('\n')) {
      lines.push(line);
      owner.push(what);
    }
  };
  for (const [from, names] of Object.entries(kImports)) {
    add('imports', `import type { ${names.join(', ')} } from ${JSON.stringify(from)};`);
  }
  decls.forEach(([what, type, v], i) => add(what, `export const v${i}: ${type} = ${JSON.stringify(v, null, 1)};`));
  const lib = ['lib.es2022.d.ts', 'lib.dom.d.ts']; // the DOM: replies.ts reaches the worker protocol's types
  const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (name, lang, ...rest) =>
    name === CHECKED ? ts.createSourceFile(name, lines.join('\n'), lang) : read.call(host, name, lang, ...rest);
  const program = ts.createProgram([CHECKED], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    if (!d.file) return ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const where = d.file.fileName === CHECKED ? `${owner[line]}: ${lines[line].trim()}` : d.file.fileName;
    return `${where}\n  ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
  });
}

let mod;
before(async () => {
  assert.ok(existsSync(join(DIR, 'tracewise.wasm')), `wasm build missing in ${DIR} (make wasm)`);
  mod = await loadModule(DIR);
});

// Up to `n` ids spread evenly over 0..count-1.
function spread(count, n) {
  const k = Math.min(count, n);
  return Array.from({ length: k }, (_, i) => Math.floor((i * count) / k));
}

// The timeline's replies on one trace: details of some slices and instants, the args of those
// slices (their bytes re-read from `bytes`, the trace as imported), the whole trace's aggregate.
function timelineDecls(session, bytes, rel, model) {
  const out = [];
  const tracks = JSON.parse(session.timelineTracks());
  for (const id of spread(model.slices, 40)) {
    const d = JSON.parse(session.timelineEvent(id));
    out.push([`${rel} slice ${id}`, 'EventDetails', shrink(d)]);
    if (!(d.srcLength > 0)) continue;
    const ev = bytes.subarray(d.srcOffset, d.srcOffset + d.srcLength);
    mod.HEAPU8.set(ev, Number(session.argsBuffer(ev.length)));
    out.push([`${rel} slice ${id} args`, 'EventArgs', shrink(JSON.parse(session.eventArgs(ev.length)))]);
  }
  for (const id of spread(model.instants, 10)) {
    out.push([`${rel} instant ${id}`, 'EventDetails', shrink(JSON.parse(session.timelineInstant(id)))]);
  }
  const all = JSON.parse(
    session.timelineAggregate(
      tracks.tracks.map((_, i) => i),
      -1,
      tracks.endNs + 1
    )
  );
  out.push([`${rel} aggregate`, 'AggregateReply', shrink(all)]);
  return out;
}

test("the types hold every test trace's summary, parts and timeline replies, in both modes", async () => {
  const paths = manifest().map((r) => r.local_path);
  assert.ok(paths.length >= 50, `only ${paths.length} files in ${DATA}/MANIFEST.tsv`);
  const decls = [];
  let summaries = 0;
  const files = []; // every trace's file summary (default mode), for the job over all of them
  const ranks = []; // and its rank record
  for (const rel of paths) {
    const path = join(DATA, rel);
    const session = await importFile(mod, path);
    try {
      if (session.failed()) continue; // not a trace: no summary
      let model = null;
      for (const htaCompat of [false, true]) {
        const doc = JSON.parse(session.summaryJson(htaCompat));
        model = doc.files[0].model;
        if (!htaCompat) {
          files.push(doc.files[0]);
          ranks.push(session.rankJson(false));
        }
        decls.push([`${rel} (hta_compat=${htaCompat})`, 'SummaryDocument', shrink(doc)]);
        summaries++;
      }
      const raw = readFileSync(path);
      decls.push(...timelineDecls(session, raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw, rel, model));
    } finally {
      session.delete();
    }
  }
  assert.ok(summaries >= 100, `only ${summaries} summaries made`);
  // The document's job (two files or more), as the page asks the core for it: over all the traces,
  // and over two (a different sentence: "both").
  // With the rank records (the job analysis) and without (a document rebuilt from saved summaries).
  for (const n of [files.length, 2]) {
    for (const records of [`[${ranks.slice(0, n).join(',')}]`, '']) {
      const job = JSON.parse(mod.jobSummary(JSON.stringify(files.slice(0, n)), records));
      assert.equal(job.rank_count, n);
      assert.equal(Array.isArray(job.ranks), records !== '');
      decls.push([`job over ${n} files`, 'SummaryDocument', { schema: 'tracewise.summary/1', files: [], job }]);
    }
  }
  const errors = typeErrors(decls);
  assert.deepEqual(errors.slice(0, 20), [], `${errors.length} type errors`);
});
