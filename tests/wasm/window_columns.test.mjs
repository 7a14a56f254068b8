// node:test: the timeline window's columns are one list on both sides of the wasm boundary: the
// names, order and array types the bindings send (core/timeline/window_columns.h) are those the page
// declares (web/timeline/window_columns.ts), and the Session's timeline answers through the core's
// TimelineSession (refusals before and after a trace, a search's matches in the window).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, importBytes } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';
import { readData } from '../test_data.mjs';

let mod;
let columns;
before(async () => {
  mod = await loadModule();
  columns = await loadTs('web/timeline/window_columns.ts');
});

test('the window columns the bindings send are the ones the page declares, in order and type', () => {
  const bytes = readData('hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
  const session = importBytes(mod, bytes, 't');
  try {
    const tracks = JSON.parse(session.timelineTracks());
    const lanes = tracks.tracks.map((_, i) => i);
    assert.ok(lanes.length > 3);
    const found = JSON.parse(session.timelineSearchQuery('cudaLaunchKernel', false, true));
    assert.ok(found.count > 0);
    const views = session.timelineWindow(lanes, 0, 1e15, 800, true);
    const declared = Object.keys(columns.kWindowColumns);
    assert.equal(declared.length, 29);
    assert.deepEqual(Object.keys(views), declared);
    for (const k of declared)
      assert.ok(views[k] instanceof columns.kWindowColumns[k], `${k} is a ${columns.kWindowColumns[k].name}`);
    assert.ok(views.start.length > 0 && views.matchId.length > 0, 'items and search matches in the window');
    for (const k of columns.kNameColumns) assert.ok(declared.includes(k));
  } finally {
    session.delete();
  }
});

test('the timeline refuses before a trace is there, and its args buffer is its own', () => {
  const session = new mod.Session('empty');
  try {
    assert.deepEqual(JSON.parse(session.timelineTracks()), { error: 'no trace' });
    assert.deepEqual(Object.keys(session.timelineWindow([0], 0, 1, 10, false)), []);
    const ev = new TextEncoder().encode('{"ph":"X","name":"k","args":{"a":1}}');
    mod.HEAPU8.set(ev, Number(session.argsBuffer(ev.length)));
    assert.ok(JSON.parse(session.eventArgs(ev.length)).args);
    assert.deepEqual(JSON.parse(session.eventArgs(1 << 30)), { error: 'bad size' });
  } finally {
    session.delete();
  }
});
