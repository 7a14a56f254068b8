// A dropped folder (web/app/dropped_files.ts) opens the traces inside it: .json and .json.gz files,
// in natural order of their paths, a few folders deep, each named by its path. Run on stand-ins
// for the File and Directory Entries API (what Chromium gives for a real folder drop, which a
// synthetic drop event in a browser test cannot carry), read in batches as Chromium reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const m = await loadTs('web/app/dropped_files.ts');

const file = (name) => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File([`{"traceEvents": []} ${name}`], name)),
});
// readEntries hands out at most `batch` entries per call, then an empty batch.
const dir = (name, children, batch = 2) => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader() {
    let at = 0;
    return {
      readEntries(ok) {
        const out = children.slice(at, at + batch);
        at += out.length;
        setTimeout(() => ok(out), 0);
      },
    };
  },
});

test('a folder: its traces in natural order, read across batches, named by their path', async () => {
  const job = dir('job', [
    file('rank-10.json'),
    file('rank-2.json.gz'),
    file('notes.txt'),
    file('.hidden.json'),
    file('rank-1.JSON'),
    dir('sub', [file('rank-3.json'), dir('deeper', [dir('deepest', [file('too-deep.json')])])]),
    dir('.git', [file('x.json')]),
  ]);
  const got = await m.droppedFiles([{ entry: job, file: null }]);
  assert.deepEqual(
    got.map((f) => f.name),
    ['job/rank-1.JSON', 'job/rank-2.json.gz', 'job/rank-10.json', 'job/sub/rank-3.json']
  );
  assert.ok(got.every((f) => f.blob instanceof File));
  assert.match(await got[1].blob.text(), /rank-2\.json\.gz$/);
});

test('files dropped as such open whatever their name; a synthetic drop (no entries) gives its files', async () => {
  const loose = new File(['x'], 'trace.pt.trace');
  const got = await m.droppedFiles([
    { entry: file('a.json'), file: new File(['a'], 'a.json') },
    { entry: null, file: loose },
    { entry: dir('run', [file('r0.json')]), file: null },
  ]);
  assert.deepEqual(
    got.map((f) => f.name),
    ['a.json', 'trace.pt.trace', 'run/r0.json']
  );
  assert.equal(got[1].blob, loose);
});

test('a folder holds at most kMaxFiles traces', async () => {
  const many = Array.from({ length: m.kMaxFiles + 5 }, (_, i) => file(`r${i}.json`));
  const got = await m.droppedFiles([{ entry: dir('big', many, 100), file: null }]);
  assert.equal(got.length, m.kMaxFiles);
  assert.equal(got[0].name, 'big/r0.json');
});

test('trace names', () => {
  for (const n of ['a.json', 'a.pt.trace.json', 'a.json.gz', 'A.JSON.GZ']) assert.ok(m.isTraceName(n), n);
  for (const n of ['a.txt', 'a.gz', '.a.json', 'a.json.bak']) assert.ok(!m.isTraceName(n), n);
});
