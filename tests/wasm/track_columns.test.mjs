// node:test: the track list's columns are one list on both sides of the wasm boundary (the names,
// order and array types core/timeline/track_columns.h sends are those web/timeline/track_columns.ts
// declares), they say what the JSON track list says, and names come by page, cut to the bytes asked.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, importBytes } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';
import { readData } from '../test_data.mjs';

let mod;
let columns;
before(async () => {
  mod = await loadModule();
  columns = await loadTs('web/timeline/track_columns.ts');
});

test('the track columns the bindings send are the ones the page declares, and agree with the JSON list', () => {
  const bytes = readData('hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
  const session = importBytes(mod, bytes, 't');
  try {
    const list = JSON.parse(session.timelineTracks());
    const head = JSON.parse(session.timelineTrackHead());
    assert.deepEqual(head, {
      originNs: list.originNs,
      endNs: list.endNs,
      groups: list.groups.length,
      tracks: list.tracks.length,
    });
    const views = session.timelineTrackColumns();
    const declared = Object.keys(columns.kTrackColumns);
    assert.deepEqual(Object.keys(views), declared);
    for (const k of declared)
      assert.ok(views[k] instanceof columns.kTrackColumns[k], `${k} is a ${columns.kTrackColumns[k].name}`);
    assert.equal(views.groupFirstTrack.length, list.groups.length + 1);
    list.groups.forEach((g, i) => {
      assert.equal(views.groupPid[i], g.pid);
      assert.equal(views.groupGpu[i] === 1, g.gpu);
    });
    list.tracks.forEach((t, i) => {
      assert.equal(views.trackGroup[i], t.group);
      assert.equal(columns.kLaneKinds[views.trackKind[i]], t.kind);
      assert.equal(views.trackRows[i], t.rows);
      assert.ok(views.groupFirstTrack[t.group] <= i && i < views.groupFirstTrack[t.group + 1]);
    });
    assert.deepEqual(
      JSON.parse(session.timelineTrackNames(false, 0, 1000, 512)),
      list.tracks.map((t) => t.name)
    );
    assert.deepEqual(JSON.parse(session.timelineTrackNames(true, 1, 1, 512)), [list.groups[1].name]);
    const cut = JSON.parse(session.timelineTrackNames(false, 0, 1, 3))[0];
    assert.equal(cut, `${list.tracks[0].name.slice(0, 3)}…`);
    assert.equal(session.stringPrefix(1, 2).length <= 3, true);
  } finally {
    session.delete();
  }
});

test('before a trace: no columns, and the head and names refuse', () => {
  const session = new mod.Session('empty');
  try {
    assert.deepEqual(Object.keys(session.timelineTrackColumns()), []);
    assert.deepEqual(JSON.parse(session.timelineTrackHead()), { error: 'no trace' });
    assert.deepEqual(JSON.parse(session.timelineTrackNames(true, 0, 10, 100)), { error: 'no trace' });
    assert.equal(session.stringPrefix(1, 10), '');
  } finally {
    session.delete();
  }
});
