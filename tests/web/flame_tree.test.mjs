// The flame graph's call tree on the page (web/flame/call_tree.ts, tree_shape.ts, merge.ts): the
// core's JSON decoded into columns (and refused when malformed), children lists, the synthetic root
// over the threads, threads merged by name path, and a function's sandwich.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';
import { doc, json } from './flame_fixture.mjs';

const { decodeCallTree, CallTreeError, mapTracksToLanes } = await loadTs('web/flame/call_tree.ts');
const { childrenOf } = await loadTs('web/flame/tree_shape.ts');
const { withRoot, mergeRoots, sandwich, outermost } = await loadTs('web/flame/merge.ts');

const nameOf = (t, i) => t.names[t.name[i]];
// Each node as 'path > to > node': [count, total, self, gpu, gpuSelf].
function table(t) {
  const out = {};
  const path = (i) => (t.parent[i] < 0 ? nameOf(t, i) : `${path(t.parent[i])} > ${nameOf(t, i)}`);
  for (let i = 0; i < t.size; i++) out[path(i)] = [t.count[i], t.totalNs[i], t.selfNs[i], t.gpuNs[i], t.gpuSelfNs[i]];
  return out;
}

test('decodes the core document into typed columns', () => {
  const t = decodeCallTree(json);
  assert.equal(t.kind, 'top_down');
  assert.equal(t.size, 9);
  assert.ok(t.parent instanceof Int32Array && t.totalNs instanceof Float64Array);
  assert.deepEqual([...t.track], doc.nodes.track);
  assert.deepEqual([...t.gpuNs], doc.nodes.gpu_ns);
  assert.equal(t.gpuUnlinkedNs, 7);
  assert.equal(t.range, null);
  const ranged = decodeCallTree({ ...doc, kind: 'bottom_up', range: { begin_ns: 10, end_ns: 20 } });
  assert.deepEqual(ranged.range, { beginNs: 10, endNs: 20 });
  assert.equal(ranged.kind, 'bottom_up');
});

test('refuses documents of another shape with one sentence', () => {
  const bad =
    (nodes, extra = {}) =>
    () =>
      decodeCallTree({ ...doc, ...extra, nodes: { ...doc.nodes, ...nodes } });
  assert.throws(bad({ parent: [-1, 2, 1, 0, 3, 4, 3, -1, 7] }), CallTreeError); // child before parent
  assert.throws(bad({ name: [0, 1, 2, 3, 2, 4, 5, 6, 99] }), CallTreeError);
  assert.throws(bad({ total_ns: [1, 2] }), CallTreeError);
  assert.throws(bad({}, { kind: 'sideways' }), CallTreeError);
  assert.throws(() => decodeCallTree('[]'), CallTreeError);
  assert.throws(() => decodeCallTree({ ...doc, names: 'x' }), CallTreeError);
});

test("the core's model tracks become timeline lanes; no lane is -1", () => {
  const t = decodeCallTree(json); // tracks 3 (thread A) and 5 (thread B)
  const lanes = new Uint32Array([0, 0, 0, 11, 0, 0xffffffff]);
  mapTracksToLanes(t, lanes);
  assert.deepEqual([...t.track], [11, 11, 11, 11, 11, 11, 11, -1, -1]);
  const u = decodeCallTree(json);
  mapTracksToLanes(u, null);
  assert.ok(u.track.every((x) => x === -1));
  const v = decodeCallTree(json);
  mapTracksToLanes(v, new Uint32Array([7])); // tracks beyond the list
  assert.ok(v.track.every((x) => x === -1));
});

test('children lists keep the core order', () => {
  const t = decodeCallTree(json);
  const c = childrenOf(t);
  const kids = (n) => [...c.list.subarray(c.start[n], c.start[n + 1])];
  assert.deepEqual(kids(0), [1, 3]);
  assert.deepEqual(kids(3), [4, 6]);
  assert.deepEqual(kids(7), [8]);
  assert.deepEqual(kids(5), []);
});

test('a synthetic root over the threads sums their roots', () => {
  const t = withRoot(decodeCallTree(json), 'All threads');
  assert.equal(t.size, 10);
  assert.equal(nameOf(t, 0), 'All threads');
  assert.equal(t.totalNs[0], 150);
  assert.equal(t.gpuNs[0], 60);
  assert.equal(t.selfNs[0], 0);
  assert.deepEqual([t.parent[1], t.parent[8], t.parent[9]], [0, 0, 8]);
  assert.deepEqual([t.track[1], t.track[9], t.track[0]], [3, 5, -1]);
  assert.equal(t.depth[9], 2);
  assert.equal(t.gpuUnlinkedNs, 7);
});

test('threads merged by name path', () => {
  const t = mergeRoots(decodeCallTree(json), 'All threads merged');
  assert.deepEqual(table(t), {
    'All threads merged': [2, 150, 5, 60, 0],
    'All threads merged > backward': [1, 30, 5, 0, 0],
    'All threads merged > backward > aten::mm': [1, 25, 25, 0, 0],
    'All threads merged > forward': [1, 60, 10, 40, 0],
    'All threads merged > forward > aten::mm': [2, 30, 20, 30, 0],
    'All threads merged > forward > aten::mm > cudaLaunchKernel': [2, 10, 10, 30, 30],
    'All threads merged > forward > aten::relu': [1, 20, 20, 10, 10],
    'All threads merged > aten::mm': [1, 50, 50, 20, 20],
  });
  assert.equal(t.track[1], 3); // one thread's path keeps its track
});

test('sandwich: callers and callees of a function, merged over its calls', () => {
  const t = decodeCallTree(json);
  const { callers, callees } = sandwich(t, 2);
  assert.deepEqual(table(callees), {
    'aten::mm': [4, 105, 95, 50, 20],
    'aten::mm > cudaLaunchKernel': [2, 10, 10, 30, 30],
  });
  assert.deepEqual(table(callers), {
    'aten::mm': [4, 105, 95, 50, 20],
    'aten::mm > backward': [1, 25, 0, 0, 0],
    'aten::mm > backward > python 1 / thread MainThread 1': [1, 25, 25, 0, 0],
    'aten::mm > forward': [2, 30, 0, 30, 0],
    'aten::mm > forward > python 1 / thread MainThread 1': [2, 30, 30, 30, 30],
    'aten::mm > python 1 / thread bwd 2': [1, 50, 50, 20, 20],
  });
});

test('a recursive call counts once, with the outer call', () => {
  // f > g > f > h: the inner f is inside the outer one.
  const rec = decodeCallTree({
    kind: 'top_down',
    range: null,
    gpu_unlinked_ns: 0,
    gpu_unlinked_ops: 0,
    names: ['T', 'f', 'g', 'h'],
    nodes: {
      parent: [-1, 0, 1, 2, 3],
      name: [0, 1, 2, 1, 3],
      track: [0, 0, 0, 0, 0],
      depth: [0, 1, 2, 3, 4],
      count: [1, 1, 1, 1, 1],
      total_ns: [10, 10, 8, 6, 4],
      self_ns: [0, 2, 2, 2, 4],
      gpu_ns: [0, 0, 0, 0, 0],
      gpu_self_ns: [0, 0, 0, 0, 0],
    },
  });
  assert.deepEqual([...outermost(rec, 1)], [0, 1, 0, 0, 0]);
  const { callers, callees } = sandwich(rec, 1);
  assert.equal(callees.totalNs[0], 10);
  assert.deepEqual(table(callers), { f: [1, 10, 2, 0, 0], 'f > T': [1, 10, 10, 0, 0] });
  assert.equal(Object.keys(table(callees)).length, 4); // f > g > f > h
});
