// The aligned timeline client (web/timeline/aligned/aligned_client.ts) over fake rank workers that
// answer like web/worker/timeline_handlers.ts (names sent once per worker, through SharedNames as
// the page wires them): requests fan out by rank with times shifted by each rank's clock, replies
// come back merged on the aligned clock, a collective kernel names its peers (the core's instance
// from the ranks' records, else the nearest kernel of the same op by time), CPU lanes on demand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { AlignedClient } = await loadTs('web/timeline/aligned/aligned_client.ts');
const { SharedNames } = await loadTs('web/timeline/worker_names.ts');
const { kWindowColumns } = await loadTs('web/timeline/window_columns.ts');
const { trackOffsets } = await loadTs('web/timeline/lane_heights.ts');

const kComm = 5,
  kCompute = 4;
const NAMES = ['', 'ncclKernel_AllReduce_RING_LL_Sum_float(x)', 'gemm', 'ncclKernel_Broadcast_RING_LL(x)', 'aten::mm'];

// A fake worker of one rank: group 0 its CPU process (lane 0), group 1 its GPU (lanes 1, 2).
// slices: [lane, start, dur, nameId, cls] relative to `originNs`.
function fakeWorker(originNs, slices) {
  const sent = new Set();
  const asked = [];
  const cols = {
    groupFirstTrack: Uint32Array.from([0, 1, 3]),
    groupPid: Float64Array.from([10, 0]),
    groupGpu: Uint8Array.from([0, 1]),
    trackGroup: Uint32Array.from([0, 1, 1]),
    trackKind: Uint8Array.from([0, 0, 0]),
    trackRows: Uint32Array.from([1, 1, 1]),
  };
  const details = (id) => {
    const [lane, start, dur, name, cls] = slices[id];
    return {
      id,
      name: NAMES[name],
      cat: 'kernel',
      lane,
      depth: 0,
      laneName: ['thread 1', 'stream 7', 'stream 9'][lane],
      startNs: start,
      startAbsNs: String(BigInt(originNs) + BigInt(start)),
      durNs: dur,
      srcOffset: 0,
      srcLength: 0,
      links: [],
      kind: 'kernel',
      class: cls === kComm ? 'communication' : 'compute',
      selfNs: dur,
      correlation: '',
      externalId: '',
      unclosed: false,
      overlapping: false,
    };
  };
  const handlers = {
    tracks: () => ({ ...cols, ...trackOffsets(cols), originNs, endNs: 1_000_000, groups: 2, tracks: 3 }),
    trackNames: ({ groups, first, count }) => ({
      names: (groups ? ['CPU (python, pid 10)', 'GPU 0 (python, pid 0)'] : ['thread 1', 'stream 7', 'stream 9']).slice(
        first,
        first + count
      ),
    }),
    window: ({ lanes, t0, t1 }) => {
      const out = Object.fromEntries(Object.entries(kWindowColumns).map(([k, T]) => [k, new T(0)]));
      const per = lanes.map((l) =>
        slices.map((s, id) => [id, ...s]).filter(([, lane, s, d]) => lane === l && s < t1 && s + d > t0)
      );
      const items = per.flat();
      const offsets = [0];
      for (const p of per) offsets.push(offsets[offsets.length - 1] + p.length);
      Object.assign(out, {
        itemOffset: Uint32Array.from(offsets),
        start: Float64Array.from(items, (x) => x[2]),
        dur: Float64Array.from(items, (x) => x[3]),
        depth: new Uint16Array(items.length),
        name: Uint32Array.from(items, (x) => x[4]),
        cls: Uint8Array.from(items, (x) => x[5]),
        sliceId: Uint32Array.from(items, (x) => x[0]),
        count: Uint32Array.from(items, () => 1),
        flags: new Uint8Array(items.length),
        pointOffset: new Uint32Array(lanes.length + 1),
        matchOffset: new Uint32Array(lanes.length + 1),
        instantOffset: new Uint32Array(lanes.length + 1),
      });
      const names = {};
      for (const x of items)
        if (!sent.has(x[4])) {
          sent.add(x[4]);
          names[x[4]] = NAMES[x[4]];
        }
      return { ...out, lanes, t0, t1, px: 1, names };
    },
    event: ({ sliceId }) => ({ details: details(sliceId), args: null, argsSource: 'unavailable', argsMs: 0 }),
    search: (p) => {
      const ids = slices.map((s, id) => id).filter((id) => NAMES[slices[id][3]].includes('nccl'));
      ids.sort((a, b) => slices[a][1] - slices[b][1] || a - b);
      if (p.op === 'run') return { count: ids.length, names: 2 };
      if (p.op === 'next') {
        const at = ids.findIndex((id) =>
          p.fromId < 0
            ? slices[id][1] >= p.fromNs
            : slices[id][1] > p.fromNs || (slices[id][1] === p.fromNs && id > p.fromId)
        );
        const i = at < 0 ? 0 : at;
        return { index: i, count: ids.length, event: details(ids[i]) };
      }
      return { count: 0 };
    },
    aggregate: ({ lanes, t0, t1 }) => {
      const hit = slices.filter(([l, s, d]) => lanes.includes(l) && s < t1 && s + d > t0);
      return {
        slices: hit.length,
        names: 1,
        truncated: false,
        rows: hit.map(([, , d, n]) => ({ name: NAMES[n], count: 1, totalNs: d, selfNs: d, inRangeNs: d })),
      };
    },
  };
  return {
    asked,
    request: async (kind, payload) => {
      asked.push([kind, payload]);
      return handlers[kind](payload);
    },
  };
}

// Two ranks: rank 1's origin is 50 us later and its clock 30 us ahead, so its shift is 20 us.
// Each runs one all-reduce (rank 1 arrives 5 us late, both end at aligned 1000 us) and one broadcast.
function job({ records: withRecords = true } = {}) {
  const w0 = fakeWorker('1000000000000000', [
    [1, 900_000, 100_000, 1, kComm], // 0: all-reduce
    [2, 950_000, 10_000, 2, kCompute],
    [1, 2_000_000, 40_000, 3, kComm], // 2: broadcast
    [0, 800_000, 30_000, 4, 1],
  ]);
  const w1 = fakeWorker('1000000000050000', [
    [2, 885_000, 95_000, 1, kComm], // 0: all-reduce on stream 9, aligned 905..1000 us
    [1, 1_200_000, 10_000, 1, kComm], // 1: a later all-reduce, nearer in time to nothing
    [1, 1_980_000, 40_000, 3, kComm],
    [0, 700_000, 20_000, 4, 1],
  ]);
  // Rank records (core/job/rank_record_json.h): [op, step, begin, end] per call. Rank 1 puts its
  // first all-reduce in step 3, so the core's instance of rank 0's all-reduce (step 4) is rank 1's
  // later one, not the one beside it in time.
  const record = (calls) =>
    JSON.stringify({
      strings: ['0', 'allreduce', 'broadcast', 'Float'],
      calls: calls.map(([op, step, begin, end]) => [0, op, 3, -1, 8, 32, 2, step, begin, end]),
    });
  const records = [
    record([
      [1, 4, 1000000000900000, 1000000001000000],
      [2, 4, 1000000002000000, 1000000002040000],
    ]),
    record([
      [1, 3, 1000000000935000, 1000000001030000],
      [1, 4, 1000000001250000, 1000000001260000],
      [2, 4, 1000000002030000, 1000000002070000],
    ]),
  ];
  const ranks = [
    { worker: w0, label: 'rank 0', file: 'a.json', offsetNs: 0 },
    { worker: w1, label: 'rank 1', file: 'b.json', offsetNs: 30_000 },
  ];
  const client = new AlignedClient(
    ranks.map((r, i) => ({
      client: new SharedNames(r.worker),
      label: r.label,
      file: r.file,
      offsetNs: r.offsetNs,
      record: withRecords ? async () => records[i] : undefined,
    }))
  );
  return { client, w0, w1 };
}

test('tracks: a group per rank of its GPU lanes, names prefixed once CPU lanes show, the aligned clock', async () => {
  const { client } = job();
  const t = await client.request('tracks', {});
  assert.equal(client.originNs, '1000000000000000');
  assert.deepEqual([client.shiftNs(0), client.shiftNs(1)], [0, 20_000]);
  assert.deepEqual([...t.groupFirstTrack], [0, 2, 4]);
  assert.equal(t.endNs, 1_020_000);
  assert.deepEqual((await client.request('trackNames', { groups: true, first: 0, count: 10 })).names, [
    'rank 0 · a.json',
    'rank 1 · b.json',
  ]);
  assert.deepEqual((await client.request('trackNames', { groups: false, first: 0, count: 256 })).names, [
    'stream 7',
    'stream 9',
    'stream 7',
    'stream 9',
  ]);
  client.setCpu(1, true);
  const t2 = await client.request('tracks', {});
  assert.equal(t2.tracks, 5);
  assert.deepEqual((await client.request('trackNames', { groups: false, first: 2, count: 256 })).names, [
    'GPU 0 · stream 7',
    'GPU 0 · stream 9',
    'CPU · thread 1',
  ]);
});

test('windows: each rank asked for its lanes over its own times, items back on the aligned clock with names', async () => {
  const { client, w0, w1 } = job();
  await client.request('tracks', {});
  const r = await client.request('window', { lanes: [3, 0], t0: 800_000, t1: 1_100_000, px: 100 });
  const asked = (w) => w.asked.filter(([k]) => k === 'window').map(([, p]) => p);
  assert.deepEqual(
    asked(w1).map((p) => [p.lanes, p.t0, p.t1]),
    [[[2], 780_000, 1_080_000]]
  );
  assert.deepEqual(
    asked(w0).map((p) => [p.lanes, p.t0, p.t1]),
    [[[1], 800_000, 1_100_000]]
  );
  assert.deepEqual(r.lanes, [3, 0]);
  assert.deepEqual([...r.itemOffset], [0, 1, 2]);
  assert.deepEqual([...r.start], [905_000, 900_000]);
  assert.deepEqual([...r.sliceId], [1, 0]); // rank 1's 0, rank 0's 0
  assert.deepEqual(
    [...r.name].map((n) => r.names[n]),
    [NAMES[1], NAMES[1]]
  );
  assert.notEqual(r.name[0], r.name[1]); // one name id per rank
  // Only ranks with lanes in the window are asked.
  await client.request('window', { lanes: [0, 1], t0: 0, t1: 10, px: 10 });
  assert.equal(asked(w1).length, 1);
});

test('an event: its rank asked by id, its times aligned, its lane renumbered and named with its rank', async () => {
  const { client } = job({ records: false });
  await client.request('tracks', {});
  const e = await client.request('event', { sliceId: 1 * 2 + 1 }); // rank 1's slice 1
  assert.equal(e.details.id, 3);
  assert.equal(e.details.lane, 2);
  assert.equal(e.details.startNs, 1_220_000);
  assert.equal(e.details.laneName, 'rank 1 · stream 7');
  assert.equal(e.details.startAbsNs, '1000000001250000'); // the file's own timestamp
  // A CPU slice: no lane while its rank's CPU lanes are hidden; showLaneOf shows them (once).
  const cpu = await client.request('event', { sliceId: 3 * 2 }); // rank 0's slice 3, on its thread
  assert.equal(cpu.details.lane, -1);
  const told = [];
  client.onCpu = (rank, on) => told.push([rank, on]);
  assert.equal(await client.showLaneOf(3 * 2), true);
  assert.equal(await client.showLaneOf(3 * 2), false);
  assert.deepEqual(told, [[0, true]]);
  assert.equal((await client.request('event', { sliceId: 3 * 2 })).details.lane, 2);
});

test("a collective's peer: the core's instance from the records, else the nearest same-op kernel in time", async () => {
  for (const records of [true, false]) {
    const { client } = job({ records });
    await client.request('tracks', {});
    const e = await client.request('event', { sliceId: 0 }); // rank 0's all-reduce
    const peers = e.details.links.filter((l) => l.dir === 'peer');
    assert.equal(peers.length, 1, `records: ${records}`);
    assert.equal(peers[0].rank, 'rank 1');
    // The records match it with rank 1's step-4 all-reduce; by time it is the one beside it.
    assert.deepEqual(
      [peers[0].to.id, peers[0].to.lane, peers[0].to.startNs, peers[0].to.durNs],
      records ? [1 * 2 + 1, 2, 1_220_000, 10_000] : [0 * 2 + 1, 3, 905_000, 95_000]
    );
    const b = await client.request('event', { sliceId: 2 * 2 }); // rank 0's broadcast
    assert.deepEqual(
      b.details.links.filter((l) => l.dir === 'peer').map((l) => l.to.id),
      [2 * 2 + 1]
    );
    // A compute kernel has none.
    const c = await client.request('event', { sliceId: 1 * 2 });
    assert.equal(c.details.links.length, 0);
  }
});

test('search steps in aligned order across ranks; aggregates add up over ranks', async () => {
  const { client } = job();
  await client.request('tracks', {});
  const run = await client.request('search', { op: 'run', query: 'nccl' });
  assert.equal(run.count, 5);
  const order = [];
  let at = { fromNs: -Number.MAX_VALUE, fromId: -1 };
  for (let i = 0; i < 5; i++) {
    const s = await client.request('search', { op: 'next', ...at });
    order.push([s.index, s.event.startNs, s.event.id]);
    at = { fromNs: s.event.startNs, fromId: s.event.id };
  }
  assert.deepEqual(order, [
    [0, 900_000, 0],
    [1, 905_000, 1],
    [2, 1_220_000, 3],
    [3, 2_000_000, 4],
    [4, 2_000_000, 5],
  ]);
  const agg = await client.request('aggregate', { lanes: [0, 3], t0: 850_000, t1: 1_000_000 });
  assert.equal(agg.slices, 2);
  assert.deepEqual(
    agg.rows.map((r) => [r.name, r.count, r.totalNs]),
    [[NAMES[1], 2, 195_000]]
  );
});
