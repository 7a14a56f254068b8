// The trace worker: one per opened file. Its open (web/load/trace/open.ts) streams the file into a
// Session and finishes it; then it answers summary and timeline requests (./timeline_handlers.ts).
// Before an open, a spare worker warms up (web/load/warm/spare.ts). Every request gets exactly one
// reply; an exception while handling it becomes an `error` reply with a readable message.
import type { ErrorCode, OkReply, Request, SummaryReply, TraceKind, TraceReplies } from './protocol';
import { handleTimelineRequest, transferablesOf } from './timeline_handlers';
import { cancelOpen, loadCore, openStarted, openTrace, type OpenedTrace } from '../load/trace/open';
import { warmSpare } from '../load/warm/spare';
import { isOutOfMemory, outOfMemory, WorkerFailure } from '../load/failure';
import { moduleIfLoaded } from '../core/module';
import { callTreeBuffers, decodeCallTree, mapTracksToLanes } from '../flame/call_tree';

const post = (msg: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

let opened: OpenedTrace | null = null; // the session finished importing without a fatal error

// The opened file (requests that need one come after an open).
function openedTrace(): OpenedTrace {
  if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
  return opened;
}

// The summary document of the opened session (the core's summaryJson).
function summaryReply(htaCompat: boolean): SummaryReply {
  const { session } = openedTrace();
  return { json: String(session.summaryJson(htaCompat)) };
}

type Handled<K extends TraceKind> = { payload: TraceReplies[K]; transfer?: Transferable[] };

async function dispatch(req: Request): Promise<Handled<TraceKind>> {
  switch (req.kind) {
    case 'open':
      opened = await openTrace(req, (p) => post(p));
      return { payload: { result: opened.result } };
    case 'cancel':
      cancelOpen();
      return { payload: {} };
    case 'warm': // sent to a spare worker before any open
      if (openStarted()) return { payload: { warmed: false } };
      return { payload: await warmSpare(req, loadCore) };
    case 'summary':
      return { payload: summaryReply(!!req.htaCompat) };
    case 'prepareTimeline': {
      // The index is the core's (built once, on its first use); its track head is the cheapest use.
      const head = JSON.parse(String(openedTrace().session.timelineTrackHead())) as { error?: unknown };
      return { payload: { indexed: head.error === undefined } };
    }
    case 'rank':
      return { payload: { json: String(openedTrace().session.rankJson(!!req.htaCompat)) } };
    case 'job':
      return { payload: { json: String((await loadCore()).jobSummary(req.files, req.ranks)) } };
    case 'callTree': {
      // Decoded here, so the page gets transferred columns and never parses the JSON.
      const t0 = performance.now();
      const { session } = openedTrace();
      const json = String(session.callTreeJson(req.fromNs, req.toNs, req.bottomUp));
      const t1 = performance.now();
      const tree = decodeCallTree(json);
      mapTracksToLanes(tree, session.timelineLanesOfTracks());
      tree.timing = { coreMs: t1 - t0, decodeMs: performance.now() - t1 };
      return { payload: { tree }, transfer: callTreeBuffers(tree) };
    }
    case 'diff':
      return { payload: { json: String((await loadCore()).diffSummaries(req.base, req.cand, req.options)) } };
    case 'diffMarkdown':
      return { payload: { json: String((await loadCore()).diffMarkdown(req.diff)) } };
    case 'tracks':
    case 'trackNames':
    case 'window':
    case 'event':
    case 'search':
    case 'aggregate': {
      const ctx = openedTrace();
      const out = await handleTimelineRequest(ctx, req);
      // Never transfer the wasm heap itself (that would detach it): only copies made for the reply.
      const transfer = transferablesOf(out).filter((b) => b !== ctx.mod.HEAPU8.buffer);
      return { payload: out, transfer };
    }
    default:
      throw new WorkerFailure('internal', `Unknown request kind "${String((req as { kind: unknown }).kind)}".`);
  }
}

self.onmessage = async (ev: MessageEvent<Request>) => {
  const req = ev.data;
  try {
    const { payload, transfer } = await dispatch(req);
    // The heap as this request left it (the summary, a search, a call tree grow it after the open).
    const heapBytes = moduleIfLoaded()?.HEAPU8.length ?? 0;
    const reply: OkReply = { ...payload, id: req.id, kind: 'ok', heapBytes };
    post(reply, transfer ?? []);
  } catch (e) {
    const mod = moduleIfLoaded();
    const oom = !(e instanceof WorkerFailure) && isOutOfMemory(mod, e);
    const code: ErrorCode = e instanceof WorkerFailure ? e.code : oom ? 'out_of_memory' : 'internal';
    const message =
      e instanceof WorkerFailure
        ? e.message
        : oom
          ? outOfMemory(`for the ${String(req?.kind)} request`)
          : `Internal error: ${String((e as Error)?.message ?? e)}`;
    post({ id: req?.id ?? 0, kind: 'error', code, message });
  }
};
