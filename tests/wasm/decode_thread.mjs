// A decode worker on node's worker_threads for tests/wasm/decode_helper.test.mjs: the messages and
// BatchDecoder calls of web/load/decode/worker.ts (which needs a browser worker's `self` and fetch).
// workerData.failAfter: reply `failed` instead of the records from that many batches on.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule } from './wasm_node.mjs';

const mod = await loadModule(workerData.dir);
const decoder = new mod.BatchDecoder();
let decoded = 0;
parentPort.on('message', (m) => {
  if (m.kind !== 'batch') return;
  if (workerData.failAfter !== undefined && decoded >= workerData.failAfter) {
    parentPort.postMessage({ kind: 'failed', message: 'told to fail' });
    return;
  }
  const addr = Number(decoder.stage(m.data.length, m.refs.length / 4));
  mod.HEAPU8.set(m.data, addr);
  mod.HEAPU8.set(new Uint8Array(m.refs.buffer, m.refs.byteOffset, m.refs.byteLength), Number(decoder.refsAddress()));
  const records = decoder.decode().slice();
  decoded++;
  parentPort.postMessage({ kind: 'records', seq: m.seq, records }, [records.buffer]);
});
parentPort.postMessage({ kind: 'ready', slots: workerData.slots });
