// A worker's own scope typed by the messages it takes and sends (each nested worker's protocol.ts),
// so that a message of the wrong shape does not compile.
export interface TypedScope<In, Out> {
  onmessage: ((ev: MessageEvent<In>) => void) | null;
  postMessage(message: Out, transfer?: Transferable[]): void;
}

export const workerScope = <In, Out>() => self as unknown as TypedScope<In, Out>;

// A nested worker as its client sees it: what it may be sent, and what comes back.
export interface TypedWorker<Out, In> {
  onmessage: ((ev: MessageEvent<In>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
  postMessage(message: Out, transfer?: Transferable[]): void;
  terminate(): void;
}
