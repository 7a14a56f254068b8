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
  TracePayloads,
} from '../worker/protocol';
import { kWorkersModes, type WorkersMode } from './trace/open_plan';
import { WorkerError, type WorkerClient } from './page/trace_client';
import { prepareSpareWorker, takeWorker } from './page/spare';

export { WorkerError };
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

// One file's load: its trace worker (the spare, if one is ready) from construction to close.
export class TraceLoad {
  private readonly client: WorkerClient = takeWorker();
  onProgress: (p: Progress) => void = () => {};

  constructor() {
    this.client.onProgress = (p) => this.onProgress(p);
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
    const { result } = await this.client.request('open', req);
    const summary = await this.summary(opts.htaCompat);
    return { result, summary };
  }

  summary(htaCompat: boolean): Promise<SummaryReply> {
    return this.client.request('summary', { htaCompat });
  }

  // This file's rank record, for a job of several files.
  rank(htaCompat: boolean): Promise<SummaryReply> {
    return this.client.request('rank', { htaCompat });
  }

  // The job over several files' summaries and rank records (JSON arrays; ranks '' for none),
  // computed by the core in this worker.
  job(filesJson: string, ranksJson: string): Promise<SummaryReply> {
    return this.client.request('job', { files: filesJson, ranks: ranksJson });
  }

  // The timeline's requests go to the same worker (web/worker/timeline_handlers.ts).
  readonly timeline: TimelineClient = {
    // TimelineRequest is made of TimelinePayloads, so a timeline kind's payload is its TracePayloads entry.
    // The worker sends the core's JSON objects; TimelineReplies says what the core writes in them
    // (tests/wasm/summary_types.test.mjs holds the types to the core's output).
    request: <K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]) =>
      this.client.request(kind, payload as unknown as TracePayloads[K]) as Promise<unknown> as Promise<
        TimelineReplies[K]
      >,
  };

  // Asks the open to stop (a worker inside one long wasm call reads it only after: close() ends it).
  cancel(): void {
    this.client.request('cancel', {}).catch(() => {});
  }

  close(): void {
    this.client.terminate();
  }
}

// While the page has nothing to load (`idle()` still holds when the browser is idle), a spare trace
// worker gets ready for the next file. `yieldToUser` (a trace is on screen): only after a quiet
// moment.
export function prepareWhileIdle(idle: () => boolean, yieldToUser: boolean): void {
  prepareSpareWorker(idle, workersMode(), yieldToUser);
}
