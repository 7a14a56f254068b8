import type { PartTiming } from '../load/parts/protocol';
import type { ReaderTiming } from '../load/feed/protocol';
import type { WorkersMode } from '../load/trace/open_plan';
import type { TimelineReply, WindowReply } from './timeline_handlers';
import type { AggregateReply, EventView, SearchReply } from '../timeline/replies';
import type { TracksReply } from '../timeline/track_columns';
import type { CoreModule, CoreSession } from '../core/bindings';
import type { CallTree } from '../flame/call_tree';

// The messages between the page (web/app) and a trace worker (web/worker). One worker holds one
// opened file. Requests carry an id; the worker answers each with exactly one `ok` or `error`
// message carrying the same id, and sends unsolicited `progress` messages while opening.

export type ErrorCode =
  | 'not_trace' // the bytes are not a trace (the core's one-sentence message says why)
  | 'too_large' // refused before reading: bigger than the browser build can hold
  | 'out_of_memory' // the wasm heap (or the browser) ran out of memory while importing
  | 'cancelled' // the user pressed cancel
  | 'network' // ?url= download failed (HTTP status, unreachable host)
  | 'cors' // ?url= download blocked by the other server's CORS policy (most likely)
  | 'read' // the browser could not read the file (moved, permission)
  | 'no_file' // a request that needs an opened file came first
  | 'internal'; // a bug: anything else thrown while handling a request

export interface OpenRequest {
  id: number;
  kind: 'open';
  name: string;
  blob?: Blob; // File or Blob (streamed; kept for re-reading event args)
  buffer?: ArrayBuffer; // bytes already in memory (transferred)
  url?: string; // downloaded by the worker (streamed)
  // Nested workers beside this one (../load/trace/open_plan.ts): 'auto' (default) by size and cores,
  // 'single' none, 'all' parts whatever the size (tests, comparisons).
  workers?: WorkersMode;
  // Other files load at the same time: they keep the cores busy already, so no parts (a feed worker
  // still reads the file).
  othersLoading?: boolean;
}

export interface OpenResult {
  name: string;
  fileBytes: number; // as given (compressed size for gzip)
  inputBytes: number; // bytes the importer saw (decompressed)
  events: number;
  gzip: boolean;
  seconds: number;
  finishSeconds: number; // of `seconds`, the time in finish() (sorting and linking the model)
  waitSeconds: number; // of `seconds`, the time spent waiting for input (the reader was behind)
  firstInputSeconds: number; // from the request to the first input bytes (module, file and reader set up)
  modelBytes: number;
  heapBytes: number; // the wasm heap at the end of the open (the summary grows it further: HeapReport)
  warnings: string[]; // plain sentences (e.g. gzip data ended early)
  reader: 'feed worker' | 'trace worker'; // which thread read (and inflated) the file
  readerStartedAhead: boolean; // the feed worker was started by the spare worker's warm-up (../load/feed/client.ts)
  readBuffers: number | null; // batch buffers a plain file was read into (reused once copied; ../load/input/blob_stream.ts)
  readerTiming: ReaderTiming | null; // the feed worker's read of this worker's input (with parts: its own part); null: no feed worker
  warm: boolean; // the worker had run its warm-up (../load/warm/warm_up.ts) to the end before this file
  parts: number; // the file was imported in this many parts (1: in one, by this worker)
  absorbedParts: number; // later parts absorbed as imported by their workers (the rest were read again here)
  partsSeconds: number; // of `seconds`, waiting for and absorbing the later parts
  ownPartSeconds: number; // of `seconds`, until this worker had imported its own part
  partTimings: Array<PartTiming | null>; // each later part's worker (../load/parts/client.ts); null: it failed
  // Each later part's worker's wasm heap once it had imported its part (its peak: the heap never
  // shrinks, and streaming the columns out grows it no further); null: it failed before that. The
  // workers end once their part is absorbed, so these heaps are gone before finish().
  partHeapBytes: Array<number | null>;
  partsAhead: number; // of those, started (and warmed) ahead by the spare worker's warm-up
}

export interface SummaryRequest {
  id: number;
  kind: 'summary';
  htaCompat?: boolean;
}
// Its reply: the summary document's JSON.
export interface SummaryReply {
  json: string;
}
// What the opened file contributes to a job of several ranks: its rank record (core/job/rank_record_json.h,
// "tracewise.rank/1"), under the same options as its summary. Its reply: the record's JSON (SummaryReply).
export interface RankRequest {
  id: number;
  kind: 'rank';
  htaCompat?: boolean;
}
// The job over several opened files (one per rank): their summaries as one JSON array of file
// summaries, and their rank records as another ('' when not every file has one: the job's verdict
// only). Any worker answers it (no open file needed). Its reply: the core's job JSON (SummaryReply).
export interface JobRequest {
  id: number;
  kind: 'job';
  files: string;
  ranks: string;
}
// The call tree for the flame graph (core/calltree/, issue #41): of the whole trace (fromNs < 0) or of
// [fromNs, toNs) in the core's ABSOLUTE trace ns (as doubles: epoch ns beyond 2^53 are held to ~256
// ns); top-down, or bottom-up (a function's callers). Its reply: the tree as typed-array columns,
// transferred, each node's track mapped to its timeline lane (web/flame/call_tree.ts).
export interface CallTreeRequest {
  id: number;
  kind: 'callTree';
  fromNs: number;
  toNs: number;
  bottomUp: boolean;
}
export interface CallTreeReply {
  tree: CallTree;
}
// The comparison of two runs (docs/diff-schema.md): each side's summary document (`{schema, files}`)
// and the options (JSON, '' for the core's defaults). Any worker answers it (no open file needed).
// Its reply: the core's `tracewise.diff/1` JSON (SummaryReply).
export interface DiffRequest {
  id: number;
  kind: 'diff';
  base: string;
  cand: string;
  options: string;
}
// A diff document as Markdown (the core's, the same bytes as `tracewise diff --format markdown`).
// Its reply: the Markdown (SummaryReply's json holds it).
export interface DiffMarkdownRequest {
  id: number;
  kind: 'diffMarkdown';
  diff: string;
}
export interface CancelRequest {
  id: number;
  kind: 'cancel';
}
// Sent to a spare worker while the page is idle: load the core and run the warm-up (../load/warm/warm_up.ts).
// Replies {warmed} once it finished, or stopped because an `open` came.
// `workers`: the mode the page's next open will ask for, so that the part workers it would use
// (../load/parts/plan.ts) are started and warmed ahead too.
export interface WarmRequest {
  id: number;
  kind: 'warm';
  workers?: WorkersMode;
}
export interface WarmReply {
  warmed: boolean;
}
// Sent by the page once a lone file's summary is shown (web/app/files.ts): the worker builds the
// timeline's index while the user reads the dashboard, so the Timeline tab opens without it.
export interface PrepareTimelineRequest {
  id: number;
  kind: 'prepareTimeline';
}
export interface PrepareTimelineReply {
  indexed: boolean; // false: the trace has no timeline (its requests say why)
}
// The timeline's requests (web/worker/timeline_handlers.ts answers them; its header lists the
// replies). Times are float64 ns relative to the trace origin; lanes are timeline track ids.
export type SearchOp =
  | { op: 'run'; query: string; regex?: boolean; caseSensitive?: boolean }
  | { op: 'page'; offset: number; limit: number }
  | { op: 'next' | 'prev'; fromNs: number; fromId: number }
  | { op: 'clear' };
export interface TimelinePayloads {
  tracks: Record<string, never>;
  trackNames: { groups: boolean; first: number; count: number };
  window: { lanes: number[]; t0: number; t1: number; px: number; search?: boolean };
  event: { sliceId: number } | { instantId: number };
  search: SearchOp;
  aggregate: { lanes: number[]; t0: number; t1: number };
}
export type TimelineKind = keyof TimelinePayloads;
// The timeline's replies as the view reads them: the handlers' objects (timeline_handlers.ts) with
// the JSON the core writes in them typed (web/timeline/replies.ts).
export interface TimelineReplies {
  tracks: TracksReply;
  trackNames: { names: string[] };
  window: WindowReply;
  event: EventView;
  search: SearchReply;
  aggregate: AggregateReply;
}
// The trace worker as the timeline view asks it.
export interface TimelineClient {
  request<K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]): Promise<TimelineReplies[K]>;
}
export type TimelineRequest = { [K in TimelineKind]: { id: number; kind: K } & TimelinePayloads[K] }[TimelineKind];

export type Request =
  | OpenRequest
  | SummaryRequest
  | RankRequest
  | JobRequest
  | CallTreeRequest
  | DiffRequest
  | DiffMarkdownRequest
  | CancelRequest
  | WarmRequest
  | PrepareTimelineRequest
  | TimelineRequest;
export type TraceKind = Request['kind'];
// A request's fields but its id and kind, by kind (what a client passes).
export type TracePayloads = { [K in TraceKind]: Omit<Extract<Request, { kind: K }>, 'id' | 'kind'> };
// The fields of each kind's `ok` reply.
export interface TraceReplies {
  open: { result: OpenResult };
  summary: SummaryReply;
  rank: SummaryReply;
  job: SummaryReply;
  callTree: CallTreeReply;
  diff: SummaryReply;
  diffMarkdown: SummaryReply;
  cancel: Record<string, never>;
  warm: WarmReply;
  prepareTimeline: PrepareTimelineReply;
  tracks: TimelineReply;
  trackNames: TimelineReply;
  window: TimelineReply;
  event: TimelineReply;
  search: TimelineReply;
  aggregate: TimelineReply;
}

export interface Progress {
  kind: 'progress';
  id: number; // the open request's id
  phase: 'loading' | 'reading' | 'finishing';
  bytesRead: number; // of the file as given (compressed bytes for gzip)
  totalBytes: number | null;
  inputBytes: number; // decompressed bytes handed to the importer
  events: number;
  mbPerSec: number; // file bytes per second so far
  gzip: boolean; // the file is gzip (known once reading starts)
  inputMbPerSec: number; // decompressed bytes per second so far (= mbPerSec for plain files)
  secondsLeft: number | null;
}

// Every `ok` reply also reports the worker's wasm heap (HEAPU8.length) once the request was answered
// (0: no core loaded yet): the heap never shrinks, and requests after the open grow it (the summary
// by tens of MB), so the page budgets a worker's memory by the largest one reported
// (web/load/page/memory.ts).
export interface HeapReport {
  heapBytes: number;
}
export type OkReply = { id: number; kind: 'ok' } & HeapReport & TraceReplies[TraceKind];
export interface ErrorReply {
  id: number;
  kind: 'error';
  code: ErrorCode;
  message: string;
}
export type Reply = OkReply | ErrorReply | Progress;

// What the timeline handlers get from the worker: the wasm module, the finished session, and the
// source so an event's bytes can be re-read (plain files: Blob.slice at the event's byte range).
export interface TimelineContext {
  mod: CoreModule;
  session: CoreSession;
  source: { blob?: Blob; gzip: boolean };
}
