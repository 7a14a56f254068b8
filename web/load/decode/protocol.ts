// The messages between a trace worker and its decode worker (decode.js, ./worker.ts). The decode
// worker pulls work: `ready` offers room for `slots` batches, and each `records` reply one more.

export type DecodeRequest = { kind: 'batch'; seq: number; data: Uint8Array; refs: Uint32Array };

export type DecodeReply =
  | { kind: 'ready'; slots: number }
  | { kind: 'records'; seq: number; records: Uint8Array }
  | { kind: 'failed'; message: string };
