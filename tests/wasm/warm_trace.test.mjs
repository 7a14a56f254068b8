// node:test: the spare worker's synthetic warm-up trace (web/load/warm/warm_trace.ts) imports in the
// wasm build without a single problem and reaches every part of the import and the summary that a
// real Kineto trace does (so the warm-up gets those functions optimised): nested CPU ops, launches
// linked to kernels and memcpys, bound ac2g and fwd/bwd flows, NCCL collectives with sizes, steps,
// host syncs, memory samples, a counter, metadata names, device properties and distributed info;
// and that, as in real files, some events are listed out of time order on their track and some
// launches out of correlation order, so finish() merges sorted runs during the warm-up too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importBytes, loadModule } from './wasm_node.mjs';
import { importTs } from '../e2e/share_support.mjs';

test('the warm-up trace exercises the whole import and summary without problems', async () => {
  const { warmTraceText } = await importTs('web/load/warm/warm_trace.ts');
  const bytes = new TextEncoder().encode(warmTraceText());
  const mod = await loadModule();
  const session = importBytes(mod, bytes, 'warm-up');
  assert.equal(session.failed(), false);
  const f = JSON.parse(session.summaryJson(false)).files[0];
  session.delete();
  assert.deepEqual(f.import.problems, {});
  assert.equal(f.import.truncated, false);
  const m = f.model;
  assert.equal(m.slices, 16800);
  assert.equal(m.launch_links, m.gpu_ops); // every kernel and memcpy found its launch
  assert.equal(m.flows, 7200); // 3600 ac2g + 3600 fwd/bwd, all paired
  assert.equal(m.memory_samples, 3600);
  assert.equal(m.counter_series, 1);
  assert.equal(m.gpu_stream_tracks, 2);
  assert.equal(f.steps.length, 300);
  assert.equal(f.rank, 0);
  assert.equal(f.world_size, 2);
  assert.equal(f.devices.length, 8);
  assert.equal(f.collectives.by_type[0].type, 'allreduce');
  assert.ok(f.collectives.by_type[0].busbw_gbps > 0);
  assert.ok(
    f.kernels.top.some((k) => k.class === 'communication') && f.kernels.top.some((k) => k.class !== 'communication')
  );
  const recs = f.recommendations.map((r) => r.id);
  for (const id of ['exposed_communication', 'host_syncs', 'pageable_memcpy'])
    assert.ok(recs.includes(id), `${id} in ${recs}`);
});

test('the warm-up trace lists a few events out of order, as real files do', async () => {
  const { warmTraceText } = await importTs('web/load/warm/warm_trace.ts');
  const doc = JSON.parse(warmTraceText());
  const descents = new Map(); // "pid/tid" -> [events, events starting before the one listed before]
  const last = new Map();
  let launchDescents = 0,
    lastCorrelation = -1;
  for (const e of doc.traceEvents) {
    if (e.ph !== 'X') continue;
    const k = `${e.pid}/${e.tid}`;
    const d = descents.get(k) ?? [0, 0];
    d[0]++;
    if (last.has(k) && e.ts < last.get(k)) d[1]++;
    last.set(k, e.ts);
    descents.set(k, d);
    if (e.name === 'cudaLaunchKernel') {
      if (e.args.correlation < lastCorrelation) launchDescents++;
      lastCorrelation = e.args.correlation;
    }
  }
  // A few runs per track, not a shuffle: the importer sorts a shuffled track another way.
  const cpu = descents.get('4242/4243'),
    stream = descents.get('0/7');
  assert.ok(cpu[1] >= 100 && cpu[1] < cpu[0] / 64, `CPU thread: ${cpu}`);
  assert.ok(stream[1] >= 20 && stream[1] < stream[0] / 64, `compute stream: ${stream}`);
  assert.ok(launchDescents >= 20, `launches out of correlation order: ${launchDescents}`);
});

// The text does not depend on where it is cut: one piece (no joins) is the reference, and a piece
// per step joins at every step boundary.
test('the warm-up trace made in pieces is the same text, wherever it is cut', async () => {
  const { warmTracePieces } = await importTs('web/load/warm/warm_trace.ts');
  for (const steps of [41, 300]) {
    const whole = [...warmTracePieces(steps, steps)];
    assert.equal(whole.length, 1);
    for (const per of [1, 7, 20]) {
      const pieces = [...warmTracePieces(steps, per)];
      assert.equal(pieces.length, Math.ceil(steps / per), `${steps} steps, ${per} a piece`);
      assert.equal(pieces.join(''), whole[0], `${steps} steps, ${per} a piece`);
    }
  }
});
