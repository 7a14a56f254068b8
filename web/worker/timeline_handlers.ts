// Timeline requests inside the worker: the bridge between the page's TimelineView and the wasm core
// (core/timeline_session.h, listed by wasm/bindings.cc).
//
// API (used by the worker, web/worker/worker.ts):
//   handleTimelineRequest(ctx, req): Promise<payload>
//     ctx = { mod, session, source: { blob?: Blob, gzip: boolean } }  (mod = Emscripten module,
//           session = the finished Embind Session, blob = the file as opened, for re-reading events)
//     req = { kind: 'tracks' | 'window' | 'event' | 'search' | 'aggregate', ...fields } :
//       tracks    {}                                   -> { originNs, endNs, groups, tracks (counts), groupFirstTrack,
//                                                          groupPid, groupGpu, trackGroup, trackKind, trackRows }
//                                                          (typed arrays: ../timeline/track_columns.ts)
//       trackNames { groups, first, count }            -> { names } (cut to kTrackNameBytes; at most 4096)
//       window    { lanes, t0, t1, px, search? }       -> { lanes, t0, t1, px, names, itemOffset, start, dur,
//                                                          depth, name, cls, sliceId, count, flags, point*, match*,
//                                                          instant* (thread instants per lane), mark* (process /
//                                                          global instants; markGroup 0xffffffff = global) }
//       event     { sliceId } | { instantId }          -> { details, args, argsSource, argsMs, argsError? }
//       search    { op: 'run', query, regex?, caseSensitive? } -> { count, names, error? }  (matched in the core)
//                 { op: 'page', offset, limit }        -> { count, offset, matches: [{ id, name, lane, depth, startNs, durNs }] }
//                 { op: 'next' | 'prev', fromNs, fromId } -> { index, count, event? }
//                 { op: 'clear' }                      -> { count: 0 }
//       aggregate { lanes, t0, t1 }                    -> { slices, names, truncated, rows }
//     Strings in event, search and aggregate replies are cut to kDetailsChars (cutStrings): the page
//     lays them out as text.
//     The payload is a plain object that may hold typed arrays; pass transferablesOf(payload) as the
//     postMessage transfer list to avoid a copy (optional: structured clone also works).
//   `id` and `kind` are the worker protocol's envelope fields: never used as payload fields here.
//   Errors are thrown as Error with a readable message (the worker turns them into error replies).
//
// Times crossing this boundary are float64 nanoseconds RELATIVE to the trace origin (the trace's
// first timestamp, `originNs` in the tracks reply, a decimal string), so they stay exact in JS.
//
// Event args are not kept in memory: they are re-read from the file. Plain files: Blob.slice at the
// event's byte range. Gzip files cannot seek, so the file is decompressed again from the start up
// to the event (DecompressionStream, stopping there), and the decompressed bytes around it are kept
// (kGzipCacheBytes) so that clicks on nearby events are answered without decompressing again.

import { trackOffsets } from '../timeline/lane_heights';
import { kTrackColumns, type TrackColumnName, type TrackColumns, type TracksReply } from '../timeline/track_columns';
import { kNameColumns, kWindowColumns, type WindowColumnName, type WindowColumns } from '../timeline/window_columns';
import type { TimelineContext, TimelineRequest } from './protocol';

type WindowRequest = Extract<TimelineRequest, { kind: 'window' }>;
type EventRequest = Extract<TimelineRequest, { kind: 'event' }>;
type SearchRequest = Extract<TimelineRequest, { kind: 'search' }>;

const kGzipCacheBytes = 32 << 20;
// Names are cut in the core to what the page can show: a lane name in its gutter, a slice name in a
// tip (a kernel's full signature fits). A 50 MB name is never copied out of the wasm heap whole.
const kTrackNameBytes = 512;
const kSliceNameBytes = 4096;
// Strings of an event's details and args: what the details panel lays out.
const kDetailsChars = 8192;

interface PerSession {
  sentNames: Set<number>;
  gzipCache?: { start: number; bytes: Uint8Array };
}
const state = new WeakMap<object, PerSession>();

function stateOf(session: object): PerSession {
  let s = state.get(session);
  if (!s) {
    s = { sentNames: new Set() };
    state.set(session, s);
  }
  return s;
}

// A JSON object from the core; an {error} reply is thrown.
type Json = Record<string, unknown>;

function parseJson(text: string): Json {
  const v = JSON.parse(text);
  if (v && typeof v === 'object' && typeof v.error === 'string') throw new Error(v.error);
  return v;
}

function finiteOr(v: unknown, dflt: number): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : dflt;
}

function laneList(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) => Math.trunc(Number(x))).filter((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 31);
}

export interface WindowReply extends WindowColumns {
  lanes: number[];
  t0: number;
  t1: number;
  px: number;
  names: Record<number, string>; // the texts of name ids not sent before to this page
}
export interface EventReply {
  details: Json;
  args: Json | null;
  argsSource: 'unavailable' | 'gzip' | 'file';
  argsMs: number;
  argsError?: string;
}

export type TimelineReply = Json | TracksReply | { names: string[] } | WindowReply | EventReply;

export async function handleTimelineRequest(ctx: TimelineContext, req: TimelineRequest): Promise<TimelineReply> {
  const { session } = ctx;
  if (!session) throw new Error('no trace is loaded in this worker');
  switch (req.kind) {
    case 'tracks':
      return tracksReply(ctx);
    case 'trackNames': {
      const names = JSON.parse(
        session.timelineTrackNames(Boolean(req.groups), finiteOr(req.first, 0), finiteOr(req.count, 0), kTrackNameBytes)
      );
      if (!Array.isArray(names)) throw new Error(String(names?.error ?? 'no track names'));
      return { names: names.map(String) };
    }
    case 'window':
      return windowReply(ctx, req);
    case 'event':
      return eventReply(ctx, req);
    case 'search':
      return cutStrings(searchReply(ctx, req), kDetailsChars) as Json;
    case 'aggregate':
      return cutStrings(
        parseJson(session.timelineAggregate(laneList(req.lanes), finiteOr(req.t0, 0), finiteOr(req.t1, 0))),
        kDetailsChars
      ) as Json;
    default:
      throw new Error(`unknown timeline request '${String((req as { kind: unknown }).kind)}'`);
  }
}

function tracksReply(ctx: TimelineContext): TracksReply {
  const head = parseJson(ctx.session.timelineTrackHead());
  const views = ctx.session.timelineTrackColumns();
  // Views into the wasm heap, copied (and the copies transferred) like a window's columns.
  const columns = Object.fromEntries(
    (Object.keys(kTrackColumns) as TrackColumnName[]).map((k) => [
      k,
      views[k] ? views[k].slice() : new kTrackColumns[k](k === 'groupFirstTrack' ? 1 : 0),
    ])
  ) as unknown as TrackColumns;
  return {
    ...columns,
    ...trackOffsets(columns), // here, not on the page's main thread: a loop over every lane
    originNs: String(head.originNs),
    endNs: finiteOr(head.endNs, 0),
    groups: columns.groupPid.length,
    tracks: columns.trackGroup.length,
  };
}

function windowReply(ctx: TimelineContext, req: WindowRequest): WindowReply {
  const { session } = ctx;
  const lanes = laneList(req.lanes);
  const t0 = finiteOr(req.t0, 0),
    t1 = finiteOr(req.t1, t0 + 1);
  const px = Math.max(1, Math.min(65535, Math.round(finiteOr(req.px, 1000))));
  const views = session.timelineWindow(lanes, t0, t1, px, Boolean(req.search));
  // The views point into the wasm heap: copy them all before the next call into wasm.
  const columns = Object.fromEntries(
    (Object.keys(kWindowColumns) as WindowColumnName[]).map((k) => [
      k,
      views[k] ? views[k].slice() : new kWindowColumns[k](0),
    ])
  ) as unknown as WindowColumns;
  const out: WindowReply = { ...columns, lanes, t0, t1, px, names: {} };
  // Names travel once per session, then by id.
  const st = stateOf(session);
  for (const col of kNameColumns) {
    for (const id of out[col]) {
      if (id === 0 || st.sentNames.has(id)) continue;
      st.sentNames.add(id);
      out.names[id] = session.stringPrefix(id, kSliceNameBytes);
    }
  }
  return out;
}

async function eventReply(ctx: TimelineContext, req: EventRequest): Promise<EventReply> {
  const { session } = ctx;
  const instantId = 'instantId' in req ? req.instantId : undefined;
  const instant = instantId !== undefined;
  const id = Math.trunc(finiteOr(instant ? instantId : 'sliceId' in req ? req.sliceId : undefined, -1));
  const details = parseJson(instant ? session.timelineInstant(id) : session.timelineEvent(id));
  const t = performance.now();
  let args: Json | null = null,
    argsSource: EventReply['argsSource'] = 'unavailable',
    argsError: string | undefined;
  try {
    const bytes = await eventBytes(ctx, Number(details.srcOffset), Number(details.srcLength));
    if (bytes) {
      argsSource = ctx.source.gzip ? 'gzip' : 'file';
      const ptr = Number(session.argsBuffer(bytes.length));
      ctx.mod.HEAPU8.set(bytes, ptr);
      const parsed = JSON.parse(session.eventArgs(bytes.length));
      if (parsed.error) argsError = String(parsed.error);
      else args = parsed;
    } else {
      argsError = 'the file is no longer available to re-read this event';
    }
  } catch (e) {
    argsError = `could not re-read the event: ${String((e as Error)?.message ?? e)}`;
  }
  // A 50 MB name or arg laid out in the details panel blocked the page for seconds: strings are cut.
  return {
    details: cutStrings(details, kDetailsChars) as Json,
    args: cutStrings(args, kDetailsChars) as Json | null,
    argsSource,
    argsMs: performance.now() - t,
    argsError,
  };
}

// `v` with every string longer than `max` characters cut there (never inside a surrogate pair) and
// marked with how long it was. Arrays and objects are copied; the core's JSON is at most 64 deep.
export function cutStrings(v: unknown, max: number, depth = 0): unknown {
  if (typeof v === 'string') {
    if (v.length <= max) return v;
    const end = /[\uD800-\uDBFF]/.test(v[max - 1]) ? max - 1 : max;
    return `${v.slice(0, end)}… (${v.length.toLocaleString('en-US')} characters)`;
  }
  if (v === null || typeof v !== 'object' || depth > 128) return v;
  if (Array.isArray(v)) return v.map((x) => cutStrings(x, max, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [cutStrings(k, max), cutStrings(x, max, depth + 1)]));
}

async function eventBytes(ctx: TimelineContext, offset: number, length: number): Promise<Uint8Array | null> {
  const blob = ctx.source.blob;
  if (!blob || !(length > 0) || !(offset >= 0)) return null;
  if (!ctx.source.gzip) {
    if (offset + length > blob.size) return null;
    return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
  }
  const st = stateOf(ctx.session);
  const c = st.gzipCache;
  if (c && offset >= c.start && offset + length <= c.start + c.bytes.length)
    return c.bytes.slice(offset - c.start, offset - c.start + length);
  // Decompress from the start; keep [offset - half, offset + half) of the output for later clicks.
  const half = Math.max(kGzipCacheBytes / 2, length);
  const keepStart = Math.max(0, offset - half),
    keepEnd = offset + Math.max(half, length);
  const keep = new Uint8Array(keepEnd - keepStart);
  let kept = 0;
  const reader = blob.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  let pos = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      const end = pos + value.length;
      if (end > keepStart && pos < keepEnd) {
        const a = Math.max(pos, keepStart),
          b = Math.min(end, keepEnd);
        keep.set(value.subarray(a - pos, b - pos), a - keepStart);
        kept = Math.max(kept, b - keepStart);
      }
      pos = end;
      if (pos >= keepEnd) break;
    }
  } catch {
    // A corrupt tail: use what was decompressed.
  } finally {
    reader.cancel().catch(() => {});
  }
  st.gzipCache = { start: keepStart, bytes: keep.subarray(0, kept) };
  if (offset + length > keepStart + kept) return null;
  return keep.slice(offset - keepStart, offset - keepStart + length);
}

// Names are matched in the core (core/timeline/name_match.h): the string table never leaves the
// wasm heap, and regexes run in linear time there.
function searchReply(ctx: TimelineContext, req: SearchRequest): Json {
  const { session } = ctx;
  switch (req.op) {
    case 'clear':
      session.timelineSearchClear();
      return { count: 0 };
    case 'next':
    case 'prev':
      return parseJson(
        session.timelineSearchStep(finiteOr(req.fromNs, 0), finiteOr(req.fromId, -1), req.op === 'next' ? 1 : -1)
      );
    case 'page':
      return parseJson(session.timelineSearchPage(finiteOr(req.offset, 0), finiteOr(req.limit, 100)));
    default: {
      const query = String(req.query ?? '');
      if (query.length === 0) {
        session.timelineSearchClear();
        return { count: 0, names: 0 };
      }
      // A refused query (invalid regex, look-ahead, too long) is an answer, not a failure: { count: 0, error }.
      const r = JSON.parse(session.timelineSearchQuery(query, Boolean(req.regex), Boolean(req.caseSensitive)));
      return typeof r.error === 'string' ? { count: 0, names: 0, error: r.error } : r;
    }
  }
}

// Every distinct ArrayBuffer under `payload` (typed arrays one level deep or nested in objects/arrays).
export function transferablesOf(payload: unknown): Transferable[] {
  const out = new Set<ArrayBuffer>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
      return;
    }
    if (v instanceof ArrayBuffer) {
      out.add(v);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v as object)) walk(x, depth + 1);
  };
  walk(payload, 0);
  return [...out];
}
