// The call tree as the core writes it (Session.callTreeJson, core/calltree/) and as it crosses from the
// trace worker to the page: names once, then one typed-array column per field, parents before
// children. decodeCallTree runs in the worker (web/worker/call_tree_handler.ts): the page gets the
// columns transferred, never the JSON. Names come from the trace: untrusted text, drawn on a canvas or
// put in textContent only.

// The core's document (callTreeJson(fromNs, toNs, bottomUp)).
export interface CallTreeDocument {
  kind: 'top_down' | 'bottom_up';
  range: { begin_ns: number; end_ns: number } | null;
  gpu_unlinked_ns: number;
  gpu_unlinked_ops: number;
  names: string[];
  nodes: Record<(typeof kIntColumns)[number] | (typeof kNumberColumns)[number], number[]>;
}

// Node columns: indexes as Int32Array, counts and times (ns) as Float64Array.
export const kIntColumns = ['parent', 'name', 'track', 'depth'] as const;
export const kNumberColumns = ['count', 'total_ns', 'self_ns', 'gpu_ns', 'gpu_self_ns'] as const;

export interface CallTree {
  kind: 'top_down' | 'bottom_up';
  range: { beginNs: number; endNs: number } | null;
  gpuUnlinkedNs: number;
  gpuUnlinkedOps: number;
  names: string[];
  size: number; // nodes
  parent: Int32Array; // -1 for a root; always a smaller index than the node's
  name: Int32Array; // index into names
  // The core's model track of the node's thread; the worker maps it to the timeline track (lane) it
  // is drawn on (mapTracksToLanes); -1 when none (a thread without a lane, a node of merged threads).
  track: Int32Array;
  depth: Int32Array;
  count: Float64Array;
  totalNs: Float64Array;
  selfNs: Float64Array;
  gpuNs: Float64Array;
  gpuSelfNs: Float64Array;
  // Set by the trace worker: ms in the core (callTreeJson) and decoding its JSON (benchmarks).
  timing?: { coreMs: number; decodeMs: number };
}

export class CallTreeError extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function finite(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new CallTreeError(`The call tree's ${what} is not a number.`);
  return v;
}

function column(nodes: Record<string, unknown>, key: string, size: number): unknown[] {
  const c = nodes[key];
  if (!Array.isArray(c) || c.length !== size)
    throw new CallTreeError(`The call tree's column "${key}" is missing or of another length.`);
  return c;
}

// The core's JSON text (or the parsed value) as columns; throws a CallTreeError with one sentence when
// the document is not of the shape above (a parent after its child, a name index out of range...).
export function decodeCallTree(json: string | unknown): CallTree {
  const doc: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (!isRecord(doc) || !isRecord(doc.nodes) || !Array.isArray(doc.names))
    throw new CallTreeError('The call tree is not a call tree document.');
  if (doc.kind !== 'top_down' && doc.kind !== 'bottom_up') throw new CallTreeError('The call tree has no kind.');
  const names = doc.names.map((n) => (typeof n === 'string' ? n : String(n)));
  const parents = doc.nodes.parent;
  const size = Array.isArray(parents) ? parents.length : 0;
  // (The typed-array constructors convert each value as Number() does, many times faster than from().)
  const nodes = doc.nodes as Record<string, unknown>;
  const ints = kIntColumns.map((k) => new Int32Array(column(nodes, k, size) as ArrayLike<number>));
  const nums = kNumberColumns.map((k) => new Float64Array(column(nodes, k, size) as ArrayLike<number>));
  const [parent, name, track, depth] = ints;
  for (let i = 0; i < size; i++) {
    if (parent[i] >= i || parent[i] < -1) throw new CallTreeError(`Node ${i} comes before its parent.`);
    if (name[i] < 0 || name[i] >= names.length) throw new CallTreeError(`Node ${i} names no name.`);
  }
  for (const c of nums) for (let i = 0; i < size; i++) if (!Number.isFinite(c[i])) c[i] = 0;
  const r = doc.range;
  return {
    kind: doc.kind,
    range: isRecord(r) ? { beginNs: finite(r.begin_ns, 'range'), endNs: finite(r.end_ns, 'range') } : null,
    gpuUnlinkedNs: finite(doc.gpu_unlinked_ns ?? 0, 'gpu_unlinked_ns'),
    gpuUnlinkedOps: finite(doc.gpu_unlinked_ops ?? 0, 'gpu_unlinked_ops'),
    names,
    size,
    parent,
    name,
    track,
    depth,
    count: nums[0],
    totalNs: nums[1],
    selfNs: nums[2],
    gpuNs: nums[3],
    gpuSelfNs: nums[4],
  };
}

// The core names model tracks; the timeline draws lanes: `lanes[track]` (0xffffffff: no lane), from
// the timeline facade (Session.timelineLanesOfTracks). In place; every track without a lane is -1.
export function mapTracksToLanes(t: CallTree, lanes: ArrayLike<number> | null): void {
  for (let i = 0; i < t.size; i++) {
    const k = t.track[i];
    const lane = lanes && k >= 0 && k < lanes.length ? lanes[k] : 0xffffffff;
    t.track[i] = lane === 0xffffffff ? -1 : lane;
  }
}

// The buffers a reply can transfer (the columns were made for it).
export function callTreeBuffers(t: CallTree): ArrayBuffer[] {
  return [t.parent, t.name, t.track, t.depth, t.count, t.totalNs, t.selfNs, t.gpuNs, t.gpuSelfNs].map(
    (a) => a.buffer as ArrayBuffer
  );
}

// An empty tree of `size` nodes (filled by the caller: sandwich.ts, roots.ts).
export function emptyTree(kind: CallTree['kind'], names: string[], size: number): CallTree {
  return {
    kind,
    range: null,
    gpuUnlinkedNs: 0,
    gpuUnlinkedOps: 0,
    names,
    size,
    parent: new Int32Array(size),
    name: new Int32Array(size),
    track: new Int32Array(size).fill(-1),
    depth: new Int32Array(size),
    count: new Float64Array(size),
    totalNs: new Float64Array(size),
    selfNs: new Float64Array(size),
    gpuNs: new Float64Array(size),
    gpuSelfNs: new Float64Array(size),
  };
}
