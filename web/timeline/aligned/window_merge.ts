// Merging the ranks' window replies into the aligned view's one window. A window is columnar
// (./../window_columns.ts): per-lane segments (lane i owns [offset[i], offset[i + 1]) of the columns
// its offset column indexes) and the process / global marks, which belong to no lane. The merged
// window lists the requested aligned lanes in the request's order, each lane's segments copied from
// its rank's reply, every column transformed by what it holds (kColumnRoles): times shifted onto the
// aligned clock, slice / instant ids interleaved and name ids renumbered (./id_space.ts), and marks
// drawn over their rank's group (a rank's global instant is global to that rank only).
import { kWindowColumns, type WindowColumnName, type WindowColumns } from '../window_columns';
import type { WindowReply } from '../../worker/timeline_handlers';
import { alignedId } from './id_space';

type Role = 'offset' | 'time' | 'name' | 'id' | 'group' | 'value';

export const kColumnRoles = {
  itemOffset: 'offset',
  start: 'time',
  dur: 'value',
  depth: 'value',
  name: 'name',
  cls: 'value',
  sliceId: 'id',
  count: 'value',
  flags: 'value',
  pointOffset: 'offset',
  pointTs: 'time',
  pointMin: 'value',
  pointMax: 'value',
  pointLast: 'value',
  matchOffset: 'offset',
  matchStart: 'time',
  matchDur: 'value',
  matchDepth: 'value',
  matchId: 'id',
  instantOffset: 'offset',
  instantTs: 'time',
  instantId: 'id',
  instantName: 'name',
  instantCount: 'value',
  markGroup: 'group',
  markTs: 'time',
  markId: 'id',
  markName: 'name',
  markCount: 'value',
} as const satisfies Record<WindowColumnName, Role>;

// Each offset column and the columns it indexes per lane (core/timeline/lod_query.h).
export const kLaneSegments = [
  { offset: 'itemOffset', columns: ['start', 'dur', 'depth', 'name', 'cls', 'sliceId', 'count', 'flags'] },
  { offset: 'pointOffset', columns: ['pointTs', 'pointMin', 'pointMax', 'pointLast'] },
  { offset: 'matchOffset', columns: ['matchStart', 'matchDur', 'matchDepth', 'matchId'] },
  { offset: 'instantOffset', columns: ['instantTs', 'instantId', 'instantName', 'instantCount'] },
] as const satisfies ReadonlyArray<{ offset: WindowColumnName; columns: readonly WindowColumnName[] }>;
export const kMarkColumns = [
  'markGroup',
  'markTs',
  'markId',
  'markName',
  'markCount',
] as const satisfies readonly WindowColumnName[];

// One rank's reply to its part of the request.
export interface RankWindow {
  reply: WindowReply;
  rank: number;
  shiftNs: number;
}

// Where a requested aligned lane comes from: parts[part]'s lane `index`; null: no such lane (it
// gets an empty segment, as the core gives a lane it does not know).
export type LaneSource = { part: number; index: number } | null;

export interface MergeIds {
  ranks: number;
  name(rank: number, local: number): number; // the aligned name id (0 stays 0)
}

type Column = WindowColumns[WindowColumnName];

export function mergeWindows(sources: LaneSource[], parts: RankWindow[], ids: MergeIds): WindowColumns {
  const out = {} as Record<WindowColumnName, Column>;
  for (const seg of kLaneSegments) {
    const offsets = new Uint32Array(sources.length + 1);
    const spans = sources.map((s) => (s ? span(parts[s.part].reply[seg.offset], s.index) : null));
    let n = 0;
    spans.forEach((sp, i) => {
      offsets[i] = n;
      if (sp) n += sp[1] - sp[0];
    });
    offsets[sources.length] = n;
    out[seg.offset] = offsets;
    for (const col of seg.columns) {
      const dst = new kWindowColumns[col](n);
      spans.forEach((sp, i) => {
        if (sp) copy(dst, offsets[i], parts[sources[i]!.part], col, sp[0], sp[1], ids);
      });
      out[col] = dst;
    }
  }
  const marks = parts.map((p) => p.reply.markTs.length);
  const total = marks.reduce((a, b) => a + b, 0);
  for (const col of kMarkColumns) {
    const dst = new kWindowColumns[col](total);
    let at = 0;
    parts.forEach((p, k) => {
      copy(dst, at, p, col, 0, marks[k], ids);
      at += marks[k];
    });
    out[col] = dst;
  }
  return out as WindowColumns;
}

// [begin, end) of lane i's segment (an offset column has lanes + 1 entries).
function span(offsets: Uint32Array, i: number): [number, number] {
  const a = offsets[i] ?? 0;
  return [a, offsets[i + 1] ?? a];
}

// src[a, b) of `part`'s column `col`, transformed by its role, into dst from `at`.
function copy(dst: Column, at: number, part: RankWindow, col: WindowColumnName, a: number, b: number, ids: MergeIds) {
  const src = part.reply[col];
  const role: Role = kColumnRoles[col];
  const d = at - a;
  switch (role) {
    case 'time':
      for (let i = a; i < b; i++) dst[i + d] = src[i] + part.shiftNs;
      return;
    case 'name':
      for (let i = a; i < b; i++) dst[i + d] = ids.name(part.rank, src[i]);
      return;
    case 'id':
      for (let i = a; i < b; i++) dst[i + d] = alignedId(src[i], part.rank, ids.ranks);
      return;
    case 'group':
      dst.fill(part.rank, at, at + b - a);
      return;
    default:
      // The same typed array type on both sides (kWindowColumns): one block copy. (The cast: TS cannot
      // call `set` on a union of typed arrays.)
      (dst as Uint8Array).set((src as Uint8Array).subarray(a, b), at);
  }
}
