// node:test: the trace worker's DecodeHelper (web/load/decode/client.ts, bundled with esbuild) over a
// decode worker on worker_threads (decode_thread.mjs), as the page runs it: batches shared between
// the two as they come ('auto' on 4+ cores), every batch to the worker ('all'), and a worker that
// fails part way (the rest decoded here). The summary must be the one-thread import's, byte for byte.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule, importBytes, WASM_DIR } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';
import { readData } from '../test_data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const kChunk = 256 << 10; // pushes of this size: the importer keeps several batches of the trace
let DecodeHelper;
let mod;
let bytes;
let reference;
before(async () => {
  ({ DecodeHelper } = await loadTs('web/load/decode/client.ts'));
  mod = await loadModule();
  bytes = readData('deepseek_profile_data/train.json');
  const s = importBytes(mod, bytes, 'train.json', kChunk, bytes.length);
  reference = s.summaryJson(false);
  s.delete();
});

// A worker_threads Worker in the shape DecodeHelper expects of a browser Worker (DecodePort).
function port(workerData) {
  const w = new Worker(join(here, 'decode_thread.mjs'), { workerData: { dir: WASM_DIR, slots: 4, ...workerData } });
  const p = {
    onmessage: null,
    onerror: null,
    postMessage: (m, t) => w.postMessage(m, t),
    terminate: () => w.terminate(),
  };
  w.on('message', (data) => p.onmessage?.({ data }));
  w.on('error', (e) => p.onerror?.({ message: String(e) }));
  return p;
}

const tick = () => new Promise((ok) => setImmediate(ok)); // lets the worker's replies in, as the page's reads do

async function importWith(strict, workerData = {}) {
  const session = new mod.Session('train.json');
  session.setSizeHint(bytes.length);
  const helper = new DecodeHelper(mod, session, strict, port(workerData));
  for (let pos = 0; pos < bytes.length; pos += kChunk) {
    const chunk = bytes.subarray(pos, pos + kChunk);
    mod.HEAPU8.set(chunk, Number(session.stagingBuffer(chunk.length)));
    session.pushStaged(chunk.length);
    await tick();
    await helper.step();
  }
  session.endInput();
  await helper.drain();
  helper.close();
  session.finish();
  const summary = session.summaryJson(false);
  const batches = Number(session.eventsSoFar()) > 0;
  session.delete();
  return { summary, local: helper.localBatches, batches };
}

test('batches shared as they come: the one-thread summary', async () => {
  const r = await importWith(false);
  assert.ok(r.batches);
  assert.equal(r.summary, reference);
});

test('every batch to the decode worker: none decoded here, the one-thread summary', async () => {
  const r = await importWith(true);
  assert.equal(r.local, 0);
  assert.equal(r.summary, reference);
});

test('a decode worker that fails part way: the rest decoded here, the one-thread summary', async () => {
  const r = await importWith(true, { failAfter: 1 });
  assert.ok(r.local > 0, `${r.local} batches decoded here`);
  assert.equal(r.summary, reference);
});
