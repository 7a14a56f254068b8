// The decode worker of bench/decode_pipeline_bench.mjs on node's worker_threads: the messages and
// BatchDecoder calls of web/load/decode/worker.ts (which needs a browser worker's `self` and fetch).
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const mod = await loadModule(workerData.dir);
const decoder = new mod.BatchDecoder();
parentPort.on('message', (m) => {
  if (m.kind !== 'batch') return;
  const addr = Number(decoder.stage(m.data.length, m.refs.length / 4));
  mod.HEAPU8.set(m.data, addr);
  mod.HEAPU8.set(new Uint8Array(m.refs.buffer, m.refs.byteOffset, m.refs.byteLength), Number(decoder.refsAddress()));
  const records = decoder.decode().slice();
  parentPort.postMessage({ kind: 'records', seq: m.seq, records }, [records.buffer]);
});
parentPort.postMessage({ kind: 'ready', slots: workerData.slots });
