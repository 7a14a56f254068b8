// The decode worker: a nested worker of a trace worker that runs the fast event decoder over
// batches the trace worker's splitter found, while the trace worker splits the next ones and
// builds the model (core/import/event_records.h). It pulls work: it offers kSlots batches' room
// when its core has loaded and one more with each reply, so the trace worker never hands it more
// than it can start at once and decodes the rest itself.
// Messages: ./protocol.ts.
import { loadModule } from '../../core/module';
import type { CoreModule, CoreBatchDecoder } from '../../core/bindings';
import type { DecodeReply, DecodeRequest } from './protocol';
import { workerScope } from '../port';

const kSlots = 4;
const scope = workerScope<DecodeRequest, DecodeReply>();
let decoder: CoreBatchDecoder | null = null;
let mod: CoreModule | null = null;

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.kind !== 'batch' || !decoder || !mod) return;
  try {
    const addr = Number(decoder.stage(m.data.length, m.refs.length / 4));
    mod.HEAPU8.set(m.data, addr);
    mod.HEAPU8.set(new Uint8Array(m.refs.buffer, m.refs.byteOffset, m.refs.byteLength), Number(decoder.refsAddress()));
    const records: Uint8Array = decoder.decode().slice(); // a copy: the view dies with the next call
    scope.postMessage({ kind: 'records', seq: m.seq, records }, [records.buffer as ArrayBuffer]);
  } catch (e) {
    decoder = null;
    scope.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) });
  }
};

loadModule().then(
  (m) => {
    mod = m;
    decoder = new m.BatchDecoder();
    scope.postMessage({ kind: 'ready', slots: kSlots });
  },
  (e) => scope.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) })
);
