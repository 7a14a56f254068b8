// The page's one entry to loading a trace: everything behind it (a spare worker warmed ahead, the
// trace worker's open with its feed and part workers) is drawn in
// ./README.md. The page opens a file with a TraceLoad, reads its summary, and hands its timeline
// client to the timeline view; while idle it lets a spare worker get ready for the next file.
import type {
  OpenResult,
  Progress,
  SummaryReply,
  TimelineClient,
  TimelineKind,
  TimelinePayloads,
  TimelineReplies,
  TraceKind,
  TracePayloads,
  TraceReplies,
} from '../worker/protocol';
import { kWorkersModes, type WorkersMode } from './trace/open_plan';
import { WorkerClient, WorkerError } from './page/trace_client';
import { prepareSpareWorker, takeWorker } from './page/spare';
import { whenIdle } from './page/user_quiet';
import type { CallTree } from '../flame/call_tree';

export { WorkerError };
export { expectedLoadBytes, heldBytes, inputBytesOf, modelBudgetBytes } from './page/memory';
export type { OpenResult, Progress };

// The mode of the page's opens: ?workers=single|all in its URL (comparisons, tests, and browsers
// where nested workers misbehave), else 'auto'.
function workersMode(): WorkersMode {
  const asked = new URLSearchParams(location.search).get('workers');
  return kWorkersModes.find((m) => m === asked) ?? 'auto';
}

export interface FileSource {
  name: string;
  blob?: Blob;
  url?: string;
}

// One file's load: its trace worker (the spare, if one is ready, taken when the open starts) from the
// open to close(). release() ends the worker and its model but keeps what opens the file again: the
// next request that needs the model (summary, rank record, timeline) opens it in a new worker first,
// through `reopenVia` (the page's scheduler; web/app/files.ts), so many files can be opened while
// only some models are held.
export class TraceLoad {
  private client: WorkerClient | null = null;
  private request: TracePayloads['open'] | null = null; // the open, for opening again after release()
  private released = false;
  private closed = false;
  private reopening: Promise<void> | null = null;
  private inFlight = 0;
  lastUsed = 0; // performance.now() of the latest request's end (least recently used goes first)
  lastViewed = -Infinity; // ... of the latest timeline request's (a view on screen wants its model kept)
  // Rank records by htaCompat: the model's, so they outlive a release (the aligned timeline asks
  // every rank for its record; web/app/timeline_host.ts).
  private readonly ranks = new Map<boolean, SummaryReply>();
  private releasedHeapBytes = 0; // the largest heap of its released workers
  onProgress: (p: Progress) => void = () => {};
  // How a released load opens its file again: `open(othersLoading)` does it; the caller decides when.
  reopenVia: (open: (othersLoading: boolean) => Promise<void>) => Promise<void> = (open) => open(false);

  private worker(): WorkerClient {
    if (!this.client) {
      this.client = takeWorker();
      this.client.onProgress = (p) => this.onProgress(p);
    }
    return this.client;
  }

  // Starts the worker ahead of open() (its script loads meanwhile), e.g. for the next file in line.
  prepare(): void {
    if (!this.closed && !this.request) this.worker();
  }

  // Opens the file and returns its open reply and summary. `othersLoading`: other files load
  // meanwhile, so this one uses no part workers.
  async open(
    src: FileSource,
    opts: { htaCompat: boolean; othersLoading: boolean }
  ): Promise<{ result: OpenResult; summary: SummaryReply }> {
    const req: TracePayloads['open'] = { name: src.name, workers: workersMode(), othersLoading: opts.othersLoading };
    if (src.blob) req.blob = src.blob;
    if (src.url) req.url = src.url;
    this.request = req;
    const { result } = await this.call('open', req, false);
    const summary = await this.summary(opts.htaCompat);
    return { result, summary };
  }

  summary(htaCompat: boolean): Promise<SummaryReply> {
    return this.call('summary', { htaCompat });
  }

  // Asks the worker to build the timeline's index once the page is idle after the summary (its
  // dashboard drawn: on 2 cores the build would take a core from that frame's raster), while the
  // user reads it (web/worker/protocol.ts, PrepareTimelineRequest). Only while the model is held: a
  // released one is not opened again for it. A failure is left to the timeline's own requests.
  prepareTimeline(): void {
    whenIdle(() => {
      if (this.released || this.closed) return;
      this.call('prepareTimeline', {}).catch(() => {});
    });
  }

  // This file's rank record, for a job of several files.
  async rank(htaCompat: boolean): Promise<SummaryReply> {
    const known = this.ranks.get(htaCompat);
    if (known) return known;
    const reply = await this.call('rank', { htaCompat });
    this.ranks.set(htaCompat, reply);
    return reply;
  }

  // The call tree for the flame graph (fromNs < 0: the whole trace), as columns.
  async callTree(fromNs: number, toNs: number, bottomUp: boolean): Promise<CallTree> {
    return (await this.call('callTree', { fromNs, toNs, bottomUp })).tree;
  }

  // The job over several files' summaries and rank records (JSON arrays; ranks '' for none),
  // computed by the core in this worker (the core alone: a released load lends a fresh worker
  // rather than opening its file again).
  async job(filesJson: string, ranksJson: string): Promise<SummaryReply> {
    if (!this.released) return this.call('job', { files: filesJson, ranks: ranksJson }, false);
    const lent = new WorkerClient();
    try {
      return await lent.request('job', { files: filesJson, ranks: ranksJson });
    } finally {
      lent.terminate();
    }
  }

  // The comparison of two summary documents (docs/diff-schema.md) and its Markdown, computed by the
  // core alone, as the job is (a released load lends a fresh worker).
  diff(baseJson: string, candJson: string, optionsJson: string): Promise<SummaryReply> {
    return this.coreOnly('diff', { base: baseJson, cand: candJson, options: optionsJson });
  }
  diffMarkdown(diffJson: string): Promise<SummaryReply> {
    return this.coreOnly('diffMarkdown', { diff: diffJson });
  }

  private async coreOnly<K extends 'diff' | 'diffMarkdown'>(kind: K, payload: TracePayloads[K]): Promise<SummaryReply> {
    if (!this.released) return this.call(kind, payload, false);
    const lent = new WorkerClient();
    try {
      return await lent.request(kind, payload);
    } finally {
      lent.terminate();
    }
  }

  // The timeline's requests go to the same worker (web/worker/timeline_handlers.ts).
  readonly timeline: TimelineClient = {
    // TimelineRequest is made of TimelinePayloads, so a timeline kind's payload is its TracePayloads entry.
    // The worker sends the core's JSON objects; TimelineReplies says what the core writes in them
    // (tests/wasm/summary_types.test.mjs holds the types to the core's output).
    request: <K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]) => {
      this.lastViewed = performance.now();
      return this.call(kind, payload as unknown as TracePayloads[K]).finally(() => {
        this.lastViewed = performance.now();
      }) as Promise<unknown> as Promise<TimelineReplies[K]>;
    },
  };

  // A request to the worker; one that needs the model waits for the file to be opened again if it
  // was released.
  private async call<K extends TraceKind>(kind: K, payload: TracePayloads[K], model = true): Promise<TraceReplies[K]> {
    if (this.closed) throw new WorkerError('cancelled', 'This file was closed.');
    this.inFlight++;
    try {
      if (model && this.released) await this.reopen();
      return await this.worker().request(kind, payload);
    } finally {
      this.inFlight--;
      this.lastUsed = performance.now();
    }
  }

  private reopen(): Promise<void> {
    this.reopening ??= this.reopenVia(async (othersLoading) => {
      if (this.closed) throw new WorkerError('cancelled', 'This file was closed.');
      if (!this.released) return; // opened again by an earlier caller
      const client = this.worker();
      try {
        await client.request('open', { ...this.request!, othersLoading });
        this.released = false;
      } catch (e) {
        client.terminate();
        if (this.client === client) this.client = null;
        throw e;
      }
    }).finally(() => {
      this.reopening = null;
    });
    return this.reopening;
  }

  // The largest wasm heap its workers reported, after the open, the summary and any request since
  // (the heap never shrinks; a released model opened again is taken to grow as large):
  // web/load/page/memory.ts budgets the model by it.
  get heapBytes(): number {
    return Math.max(this.releasedHeapBytes, this.client?.heapBytes ?? 0);
  }

  // The model is in a live worker (opened, not released or closed).
  get resident(): boolean {
    return !!this.client?.alive && !!this.request && !this.released && !this.closed;
  }

  // A request is waiting for its reply (releasing now would fail it).
  get busy(): boolean {
    return this.inFlight > 0 || this.reopening !== null;
  }

  // Ends the worker and its model; the file opens again on the next request that needs it. False
  // (nothing done) while a request is in flight, or before the file was opened from a Blob (a
  // download is not fetched twice).
  release(): boolean {
    if (!this.resident || this.busy || !this.request?.blob) return false;
    this.releasedHeapBytes = this.heapBytes;
    this.client!.terminate();
    this.client = null;
    this.released = true;
    return true;
  }

  get isReleased(): boolean {
    return this.released;
  }

  // Asks the open to stop (a worker inside one long wasm call reads it only after: close() ends it).
  cancel(): void {
    this.client?.request('cancel', {}).catch(() => {});
  }

  close(): void {
    this.closed = true;
    this.client?.terminate();
  }
}

// While the page has nothing to load (`idle()` still holds when the browser is idle), a spare trace
// worker gets ready for the next file. `yieldToUser` (a trace is on screen): only after a quiet
// moment.
export function prepareWhileIdle(idle: () => boolean, yieldToUser: boolean): void {
  prepareSpareWorker(idle, workersMode(), yieldToUser);
}
