// The decode worker of bench/decode_pipeline_bench.mjs (node worker_threads): the same BatchDecoder
// calls as web/worker/decode_worker.ts, the same pull protocol (ready with slots, one slot back per reply).
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule } from '../tests/wasm/wasm_node.mjs';

const mod = await loadModule(workerData.dir);
const decoder = new mod.BatchDecoder();
parentPort.on('message', (m) => {
  const addr = Number(decoder.stage(m.data.length, m.refs.length / 4));
  mod.HEAPU8.set(m.data, addr);
  mod.HEAPU8.set(new Uint8Array(m.refs.buffer, m.refs.byteOffset, m.refs.byteLength), Number(decoder.refsAddress()));
  const records = decoder.decode().slice();
  parentPort.postMessage({ seq: m.seq, records }, [records.buffer]);
});
parentPort.postMessage({ ready: workerData.slots });
