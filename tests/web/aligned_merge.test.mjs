// The aligned timeline's pure parts (web/timeline/aligned/): the aligned clock and window
// conversion, ids numbered apart per rank, track lists and windows merged column by column, search
// steps over several ranks, aggregates, and the core's collective instance keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { alignedClock, convertWindow } = await loadTs('web/timeline/aligned/rank_clock.ts');
const { alignedId, splitId, kNoId, NameIds } = await loadTs('web/timeline/aligned/id_space.ts');
const { mergeTracks, shownLanes } = await loadTs('web/timeline/aligned/aligned_tracks.ts');
const { mergeWindows, kColumnRoles, kLaneSegments, kMarkColumns } = await loadTs(
  'web/timeline/aligned/window_merge.ts'
);
const { pickStep, rankStepFrom, mergePages } = await loadTs('web/timeline/aligned/search_merge.ts');
const { mergeAggregates } = await loadTs('web/timeline/aligned/aggregate_merge.ts');
const { instanceKeys, Instances, recordCalls } = await loadTs('web/timeline/aligned/collective_keys.ts');
const { collectiveFamily } = await loadTs('web/timeline/aligned/peers.ts');
const { kWindowColumns } = await loadTs('web/timeline/window_columns.ts');
const { trackOffsets } = await loadTs('web/timeline/lane_heights.ts');

test('the aligned clock: origin at the earliest aligned start, shifts exact beyond 2^53 origins', () => {
  // Kineto-sized origins; offsets of +3.7 ms and -1.2 ms.
  const c = alignedClock(['4458676388068751', '4458676391768751', '4458676386868751'], [0, 3_700_000, -1_200_000]);
  assert.deepEqual(c, { originNs: '4458676388068751', shiftNs: [0, 0, 0] });
  const d = alignedClock(['9007199254740993', '9007199254740000'], [0, -1000]);
  // 2^53 + 1 is not a float64: BigInt keeps the last digit.
  assert.equal(d.originNs, '9007199254740993');
  assert.deepEqual(d.shiftNs, [0, 7]);
  assert.deepEqual(alignedClock([], []), { originNs: '0', shiftNs: [] });
});

test('a window converts between views through origins and clock offsets, both ways', () => {
  // The aligned view (offset 0, origin O) and rank 1 (origin O + 5 ms, offset +3.7 ms): the same
  // reference instant is 1.3 ms earlier on rank 1's relative axis.
  const O = '4458676388068751';
  const r1 = { originNs: '4458676393068751', offsetNs: 3_700_000 };
  const w = convertWindow({ t0: 10_000_000, t1: 12_000_000, originNs: O, offsetNs: 0 }, r1);
  assert.deepEqual(w, { t0: 8_700_000, t1: 10_700_000 });
  assert.deepEqual(convertWindow({ ...w, ...r1 }, { originNs: O, offsetNs: 0 }), { t0: 10_000_000, t1: 12_000_000 });
});

test('ids: slice ids interleave by rank and split back; no-id and overflow stay no-id; names number on first sight', () => {
  for (const [local, rank] of [
    [0, 0],
    [5, 3],
    [123456, 1],
  ])
    assert.deepEqual(splitId(alignedId(local, rank, 4), 4), { rank, local });
  assert.equal(alignedId(kNoId, 2, 4), kNoId);
  assert.equal(alignedId(2 ** 31, 3, 4), kNoId);
  assert.equal(splitId(kNoId, 4), null);
  assert.equal(splitId(-1, 4), null);
  const ids = new NameIds(2);
  const fresh = [];
  assert.equal(
    ids.id(0, 0, (i) => fresh.push(i)),
    0
  );
  const a = ids.id(0, 7, (i) => fresh.push(i));
  const b = ids.id(1, 7, (i) => fresh.push(i));
  assert.notEqual(a, b);
  assert.equal(
    ids.id(0, 7, (i) => fresh.push(i)),
    a
  );
  assert.deepEqual(fresh, [a, b]);
});

// A rank's track list: group 0 a CPU process (lanes 0, 1), group 1 a GPU (lanes 2 overlap, 3, 4).
function rankTracks(originNs, endNs) {
  const cols = {
    groupFirstTrack: Uint32Array.from([0, 2, 5]),
    groupPid: Float64Array.from([100, 0]),
    groupGpu: Uint8Array.from([0, 1]),
    trackGroup: Uint32Array.from([0, 0, 1, 1, 1]),
    trackKind: Uint8Array.from([0, 1, 3, 0, 0]), // slices, counter, overlap, slices, slices
    trackRows: Uint32Array.from([4, 1, 3, 2, 1]),
  };
  return { ...cols, ...trackOffsets(cols), originNs, endNs, groups: 2, tracks: 5 };
}

test('the aligned track list: a group per rank, GPU lanes first, CPU lanes on demand, maps both ways', () => {
  const a = rankTracks('1000', 5000),
    b = rankTracks('2000', 9000);
  assert.deepEqual(shownLanes(a, false), [2, 3, 4]);
  assert.deepEqual(shownLanes(a, true), [2, 3, 4, 0, 1]);
  const m = mergeTracks(
    [
      { tracks: a, shiftNs: 0, cpu: false },
      { tracks: b, shiftNs: 700, cpu: true },
    ],
    '1000'
  );
  const t = m.reply;
  assert.equal(t.groups, 2);
  assert.equal(t.tracks, 8);
  assert.deepEqual([...t.groupFirstTrack], [0, 3, 8]);
  assert.deepEqual([...t.trackGroup], [0, 0, 0, 1, 1, 1, 1, 1]);
  assert.deepEqual([...t.trackKind], [3, 0, 0, 3, 0, 0, 0, 1]);
  assert.deepEqual([...t.trackRows], [3, 2, 1, 3, 2, 1, 4, 1]);
  assert.deepEqual([...m.laneRank], [0, 0, 0, 1, 1, 1, 1, 1]);
  assert.deepEqual([...m.laneLocal], [2, 3, 4, 2, 3, 4, 0, 1]);
  assert.deepEqual([...m.aligned[0]], [-1, -1, 0, 1, 2]);
  assert.deepEqual([...m.aligned[1]], [6, 7, 3, 4, 5]);
  assert.deepEqual(m.groupsShown, [[1], [1, 0]]);
  assert.deepEqual(m.gpuLanes, [
    [3, 4],
    [3, 4],
  ]);
  assert.equal(t.endNs, 9700);
  assert.equal(t.originNs, '1000');
  // The offsets the layout reads are the merged list's own.
  assert.deepEqual([...t.groupHeadersBefore], [0, 1, 2]);
  assert.equal(t.trackTop[0], 0);
});

test('every window column has one role and one place: a per-lane segment or the marks', () => {
  const names = Object.keys(kWindowColumns).sort();
  assert.deepEqual(Object.keys(kColumnRoles).sort(), names);
  const placed = [...kLaneSegments.flatMap((s) => [s.offset, ...s.columns]), ...kMarkColumns].sort();
  assert.deepEqual(placed, names);
  for (const s of kLaneSegments) assert.equal(kColumnRoles[s.offset], 'offset');
});

// A window reply with the given items per lane, one instant on lane 0, no points or matches.
function reply(lanes, marks = []) {
  const cols = Object.fromEntries(Object.entries(kWindowColumns).map(([k, T]) => [k, new T(0)]));
  const items = lanes.flat();
  const offsets = [0];
  for (const l of lanes) offsets.push(offsets[offsets.length - 1] + l.length);
  Object.assign(cols, {
    itemOffset: Uint32Array.from(offsets),
    start: Float64Array.from(items, (x) => x.start),
    dur: Float64Array.from(items, (x) => x.dur),
    depth: Uint16Array.from(items, (x) => x.depth ?? 0),
    name: Uint32Array.from(items, (x) => x.name),
    cls: Uint8Array.from(items, (x) => x.cls ?? 4),
    sliceId: Uint32Array.from(items, (x) => x.id),
    count: Uint32Array.from(items, () => 1),
    flags: Uint8Array.from(items, () => 0),
    pointOffset: new Uint32Array(lanes.length + 1),
    matchOffset: new Uint32Array(lanes.length + 1),
    // One thread instant, on lane 0 (at 42).
    instantOffset: Uint32Array.from([0, ...lanes.map(() => 1)]),
    instantTs: Float64Array.from([42]),
    instantId: Uint32Array.from([9]),
    instantName: Uint32Array.from([3]),
    instantCount: Uint32Array.from([1]),
    markGroup: Uint32Array.from(marks, (m) => m.group),
    markTs: Float64Array.from(marks, (m) => m.ts),
    markId: Uint32Array.from(marks, (m) => m.id),
    markName: Uint32Array.from(marks, (m) => m.name),
    markCount: Uint32Array.from(marks, () => 1),
  });
  return { ...cols, lanes: [], t0: 0, t1: 1, px: 1, names: {} };
}

test('windows merge in the request order: segments per lane, times shifted, ids interleaved, names renumbered', () => {
  const r0 = reply([[{ start: 10, dur: 5, name: 1, id: 4 }], []], [{ group: 1, ts: 3, id: 2, name: 1 }]);
  const r1 = reply(
    [
      [
        { start: 20, dur: 1, name: 1, id: 0 },
        { start: 30, dur: 2, name: 2, id: kNoId, depth: 1 },
      ],
    ],
    [{ group: 0xffffffff, ts: 7, id: 5, name: 2 }]
  );
  const ids = new NameIds(2);
  const seen = [];
  const merged = mergeWindows(
    // aligned lanes: [rank 1 lane 0, rank 0 lane 1, unknown, rank 0 lane 0]
    [{ part: 1, index: 0 }, { part: 0, index: 1 }, null, { part: 0, index: 0 }],
    [
      { reply: r0, rank: 0, shiftNs: 0 },
      { reply: r1, rank: 1, shiftNs: 1000 },
    ],
    { ranks: 2, name: (r, local) => ids.id(r, local, (id) => seen.push([id, r, local])) }
  );
  assert.deepEqual([...merged.itemOffset], [0, 2, 2, 2, 3]);
  assert.deepEqual([...merged.start], [1020, 1030, 10]);
  assert.deepEqual([...merged.dur], [1, 2, 5]);
  assert.deepEqual([...merged.depth], [0, 1, 0]);
  assert.deepEqual([...merged.sliceId], [1, kNoId, 8]); // 0*2+1, none, 4*2+0
  const textOf = new Map(seen.map(([id, r, local]) => [id, `${r}:${local}`]));
  assert.deepEqual(
    [...merged.name].map((n) => textOf.get(n)),
    ['1:1', '1:2', '0:1']
  );
  assert.ok(merged.start instanceof Float64Array && merged.depth instanceof Uint16Array);
  // Thread instants follow their lane (rank 1's one lane, rank 0's lane 0).
  assert.deepEqual([...merged.instantOffset], [0, 1, 1, 1, 2]);
  assert.deepEqual([...merged.instantTs], [1042, 42]);
  assert.deepEqual([...merged.instantId], [19, 18]); // 9*2+1, 9*2+0
  // Marks: every rank's over its own group, times shifted.
  assert.deepEqual([...merged.markGroup], [0, 1]);
  assert.deepEqual([...merged.markTs], [3, 1007]);
  assert.deepEqual([...merged.markId], [4, 11]);
  assert.deepEqual([...merged.pointOffset], [0, 0, 0, 0, 0]);
});

test('search steps over ranks: nearest ahead in (aligned time, rank, id) order, ties by rank, wrap, index', () => {
  const ev = (startNs) => ({ startNs, id: 0 });
  // From rank 1's match at 100: rank 0 is asked strictly after 100, rank 2 from 100 on.
  const o = { ns: 100, rank: 1, local: 7 };
  assert.deepEqual(rankStepFrom(o, 1, 10), { fromNs: 90, fromId: 7 });
  assert.deepEqual(rankStepFrom(o, 0, 10), { fromNs: 91, fromId: -1 });
  assert.deepEqual(rankStepFrom(o, 2, 10), { fromNs: 90, fromId: -1 });
  // Rank 2 has a match at the same time, after rank 1 in the order: it comes next.
  const steps = [
    { rank: 0, local: 3, index: 4, count: 10, event: ev(150) },
    { rank: 1, local: 8, index: 6, count: 8, event: ev(120) },
    { rank: 2, local: 1, index: 2, count: 5, event: ev(100) },
  ];
  let r = pickStep(1, o, steps);
  assert.equal(r.event.startNs, 100);
  assert.equal(r.count, 23);
  // Before it: rank 0's first 4, rank 1's 6 (up to its next), rank 2's own 2.
  assert.equal(r.index, 12);
  // Going back from the same origin: the latest behind it.
  const back = [
    { rank: 0, local: 2, index: 3, count: 10, event: ev(100) }, // same ns, lower rank: behind
    { rank: 1, local: 6, index: 4, count: 8, event: ev(60) },
    { rank: 2, local: 4, index: 4, count: 5, event: ev(400) }, // wrapped to its last
  ];
  r = pickStep(-1, o, back);
  assert.equal(r.event.startNs, 100);
  assert.equal(r.index, 3 + 5 + 0);
  // Nothing ahead: wrap to the first of all.
  r = pickStep(1, { ns: 1000, rank: -1, local: -1 }, [
    { rank: 0, local: 0, index: 0, count: 2, event: ev(5) },
    { rank: 1, local: 0, index: 0, count: 3, event: ev(3) },
  ]);
  assert.deepEqual([r.event.startNs, r.index, r.count], [3, 0, 5]);
  r = pickStep(-1, { ns: -1e300, rank: -1, local: -1 }, [
    { rank: 0, local: 0, index: 1, count: 2, event: ev(50) },
    { rank: 1, local: 0, index: 2, count: 3, event: ev(40) },
  ]);
  assert.deepEqual([r.event.startNs, r.index], [50, 4]);
  assert.deepEqual(pickStep(1, o, [{ rank: 0, local: -1, index: -1, count: 0, event: null }]), { index: -1, count: 0 });
  const page = mergePages(1, 2, [
    {
      rank: 0,
      count: 2,
      matches: [
        { id: 0, startNs: 5 },
        { id: 2, startNs: 9 },
      ],
    },
    { rank: 1, count: 1, matches: [{ id: 1, startNs: 5 }] },
  ]);
  assert.deepEqual(
    page.matches.map((m) => m.id),
    [1, 2]
  );
  assert.equal(page.count, 3);
});

test('aggregates add up by name, in the core order', () => {
  const row = (name, count, totalNs) => ({ name, count, totalNs, selfNs: totalNs / 2, inRangeNs: totalNs });
  const m = mergeAggregates([
    { slices: 3, names: 2, truncated: false, rows: [row('a', 2, 10), row('b', 1, 4)] },
    { slices: 2, names: 2, truncated: false, rows: [row('b', 1, 8), row('c', 1, 12)] },
  ]);
  assert.equal(m.slices, 5);
  assert.equal(m.names, 3);
  assert.equal(m.truncated, false);
  assert.deepEqual(
    m.rows.map((r) => [r.name, r.count, r.totalNs, r.selfNs]),
    [
      ['b', 2, 12, 6],
      ['c', 1, 12, 6],
      ['a', 2, 10, 5],
    ]
  );
});

test("collective instances by the core's rule: Seq where every rank has it, else the n-th call of the op in the step", () => {
  const call = (group, op, seq, step, beginNs) => ({ group, op, seq, step, beginNs, endNs: beginNs + 10 });
  const r0 = [
    call('0', 'allreduce', -1, 4, 100),
    call('0', 'broadcast', -1, 4, 200),
    call('0', 'allreduce', -1, 4, 300),
  ];
  const r1 = [
    call('0', 'broadcast', -1, 4, 150),
    call('0', 'allreduce', -1, 4, 250),
    call('0', 'allreduce', -1, 4, 350),
  ];
  const k = instanceKeys([r0, r1]);
  assert.equal(k[0][0], k[1][1]); // first allreduce of step 4
  assert.equal(k[0][2], k[1][2]);
  assert.equal(k[0][1], k[1][0]);
  // With Seq on every call of group 1, the sequence number decides (whatever the op's order).
  const s0 = [call('1', 'allreduce', 5, null, 10), call('1', 'send', 0, null, 20)];
  const s1 = [call('1', 'recv', 0, null, 12), call('1', 'allreduce', 5, null, 30)];
  const ks = instanceKeys([s0, s1]);
  assert.equal(ks[0][0], ks[1][1]);
  assert.equal(ks[0][1], ks[1][0]); // point-to-point numbered apart: send 0 = recv 0
  const inst = new Instances([r0, r1]);
  assert.deepEqual([...inst.peersOf(0, 300)], [[1, r1[2]]]);
  assert.equal(inst.peersOf(0, 301), null);
  // The record's JSON form (core/job/rank_record_json.h).
  const json = JSON.stringify({
    strings: ['0', 'allreduce', 'Float'],
    calls: [[0, 1, 2, -1, 8, 32, 2, 4, 4458676423385774, 4458676423916749]],
  });
  assert.deepEqual(recordCalls(json), [
    { group: '0', op: 'allreduce', seq: -1, step: 4, beginNs: 4458676423385774, endNs: 4458676423916749 },
  ]);
  assert.deepEqual(recordCalls('not json'), []);
});

test('collective families: the NCCL op, else the name before its parameters', () => {
  assert.equal(collectiveFamily('ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)'), 'nccl allreduce');
  assert.equal(
    collectiveFamily('ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)'),
    'nccl allreduce'
  );
  assert.equal(collectiveFamily('ncclKernel_Broadcast_RING_LL_Sum_int8_t(x)'), 'nccl broadcast');
  assert.equal(collectiveFamily('void deep_ep::internode::combine<8>(int*)'), 'void deep_ep::internode::combine');
});
