// The page's memory budget for its trace workers (web/load/page/memory.ts) and the heaps it is fed
// (issue #43): a loaded file's worker holds its wasm heap at its largest so far, which grows after
// the open (the summary, timeline requests) and never shrinks. Every `ok` reply of a trace worker
// reports its heap (web/worker/protocol.ts, HeapReport); WorkerClient keeps the largest, TraceLoad
// keeps it over a release. The workers here are fakes that answer like web/worker/worker.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const MB = 1 << 20;
const saved = {};
const kGlobals = ['Worker', 'document', 'location', 'navigator'];
function setGlobal(name, value) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

// The heap each request kind leaves behind, per fake worker made (the n-th worker made takes the
// n-th plan; a kind it does not list leaves the heap as it was).
let plans = [];
const made = [];
class FakeWorker {
  constructor(url) {
    this.url = String(url);
    this.plan = plans[made.length] ?? {};
    this.heap = 0;
    this.onmessage = null;
    this.terminated = false;
    made.push(this);
  }
  postMessage(msg) {
    queueMicrotask(() => {
      if (this.terminated) return;
      this.heap = Math.max(this.heap, this.plan[msg.kind] ?? 0);
      const payload =
        msg.kind === 'open'
          ? { result: { name: msg.name, heapBytes: this.heap, warnings: [] } }
          : msg.kind === 'summary' || msg.kind === 'rank'
            ? { json: '{"schema":"tracewise.summary/1","files":[]}' }
            : msg.kind === 'warm'
              ? { warmed: true }
              : {};
      // A progress message first (it carries no heap), then the reply.
      if (msg.kind === 'open') this.onmessage?.({ data: { kind: 'progress', id: msg.id, phase: 'reading' } });
      this.onmessage?.({ data: { ...payload, id: msg.id, kind: 'ok', heapBytes: this.heap } });
    });
  }
  terminate() {
    this.terminated = true;
  }
}

let memory, client, load;
before(async () => {
  for (const g of kGlobals) saved[g] = Object.getOwnPropertyDescriptor(globalThis, g);
  setGlobal('Worker', FakeWorker);
  setGlobal('document', { baseURI: 'http://127.0.0.1/' });
  setGlobal('location', { search: '' });
  setGlobal('navigator', { hardwareConcurrency: 2 });
  memory = await loadTs('web/load/page/memory.ts');
  client = await loadTs('web/load/page/trace_client.ts');
  load = await loadTs('web/load/index.ts');
});
after(() => {
  for (const g of kGlobals) {
    if (saved[g]) Object.defineProperty(globalThis, g, saved[g]);
    else delete globalThis[g];
  }
});

test('heldBytes: no result is a load of nothing; else the heap and the worker beside it', () => {
  const { heldBytes, expectedLoadBytes, kWorkerBytes } = memory;
  assert.equal(heldBytes(null), expectedLoadBytes(0));
  assert.equal(heldBytes(null, 500 * MB), expectedLoadBytes(0), 'not loaded: its heap is not known to be a model');
  const result = { heapBytes: 100 * MB };
  assert.equal(heldBytes(result), 100 * MB + kWorkerBytes, 'only the open reported: its heap');
  assert.equal(heldBytes(result, 0), 100 * MB + kWorkerBytes);
  assert.equal(heldBytes(result, 140 * MB), 140 * MB + kWorkerBytes, 'the heap after the summary when larger');
  assert.equal(heldBytes(result, 60 * MB), 100 * MB + kWorkerBytes, 'never below what the open reported');
});

test('expectedLoadBytes and the budget keep their shape', () => {
  const { expectedLoadBytes, modelBudgetBytes, kWorkerBytes } = memory;
  assert.equal(expectedLoadBytes(0), kWorkerBytes + 28 * MB);
  assert.equal(expectedLoadBytes(1000 * MB) - expectedLoadBytes(0), 0.36 * 1000 * MB);
  setGlobal('location', { search: '?memory=64' });
  assert.equal(modelBudgetBytes(), 64 * MB);
  setGlobal('location', { search: '' });
  setGlobal('navigator', { deviceMemory: 8 });
  assert.equal(modelBudgetBytes(), 1024 * MB);
  setGlobal('navigator', { deviceMemory: 1 });
  assert.equal(modelBudgetBytes(), 256 * MB);
  setGlobal('navigator', {});
  assert.equal(modelBudgetBytes(), 512 * MB, '4 GB assumed');
  setGlobal('navigator', { hardwareConcurrency: 2 });
});

test('WorkerClient: every reply carries the heap, heapBytes is the largest so far', async () => {
  plans = [{ open: 100 * MB, summary: 140 * MB, window: 150 * MB }];
  made.length = 0;
  const c = new client.WorkerClient();
  assert.equal(c.heapBytes, 0, 'before any reply');
  const progress = [];
  c.onProgress = (p) => progress.push(p);
  const { result, heapBytes } = await c.request('open', { name: 'a.json' });
  assert.equal(progress.length, 1);
  assert.equal(result.heapBytes, 100 * MB);
  assert.equal(heapBytes, 100 * MB, "the open's reply carries the heap too");
  assert.equal(c.heapBytes, 100 * MB);
  const summary = await c.request('summary', { htaCompat: false });
  assert.equal(summary.heapBytes, 140 * MB, "the summary's reply: the heap after the summary");
  assert.equal(c.heapBytes, 140 * MB);
  await c.request('window', { lanes: [0], t0: 0, t1: 1, px: 100 });
  assert.equal(c.heapBytes, 150 * MB, 'a timeline request that grew it');
  made[0].plan = {}; // (a fake that reported less would be a bug of the worker: never below the largest)
  made[0].heap = 10 * MB;
  await c.request('summary', { htaCompat: true });
  assert.equal(c.heapBytes, 150 * MB);
  c.terminate();
});

test('TraceLoad: the heap after the summary is what the model holds, kept over a release', async () => {
  // The first worker: the open leaves 100 MB, the summary 140 MB, a search 160 MB. The second (the
  // model opened again after its release) leaves 90 MB after its open.
  plans = [
    { open: 100 * MB, summary: 140 * MB, search: 160 * MB },
    { open: 90 * MB, summary: 120 * MB },
  ];
  made.length = 0;
  const t = new load.TraceLoad();
  const blob = new Blob(['{"traceEvents": []}']);
  const { result, summary } = await t.open({ name: 'a.json', blob }, { htaCompat: false, othersLoading: false });
  assert.equal(result.heapBytes, 100 * MB, 'the open reported its heap before the summary ran');
  assert.equal(summary.heapBytes, 140 * MB);
  assert.equal(t.heapBytes, 140 * MB, 'after the summary');
  assert.equal(memory.heldBytes(result, t.heapBytes), 140 * MB + memory.kWorkerBytes);
  await t.timeline.request('search', { op: 'run', query: 'gemm' });
  assert.equal(t.heapBytes, 160 * MB);
  assert.ok(t.release(), 'released');
  assert.equal(t.resident, false);
  assert.equal(t.heapBytes, 160 * MB, 'a released model: the heap it grew to, for opening it again');
  await t.summary(false); // opens it again in the second worker
  assert.equal(made.length, 2);
  assert.equal(t.resident, true);
  assert.equal(t.heapBytes, 160 * MB, 'the largest any of its workers reported');
  t.close();
});
