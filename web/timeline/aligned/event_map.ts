// A rank's event replies as the aligned view shows them: ids interleaved (./id_space.ts), lanes
// renumbered (-1: a lane the aligned view does not show, e.g. a CPU thread of a rank whose CPU
// lanes are hidden), times on the aligned clock, and the lane's name prefixed with its rank. The
// absolute timestamp (startAbsNs) stays the file's own: it is what the file says.
import type { EventDetails, EventView, SliceRef } from '../replies';
import { alignedId } from './id_space';

// What mapping one rank's replies needs.
export interface RankMap {
  rank: number;
  ranks: number;
  shiftNs: number;
  label: string; // "rank 3"
  lane(local: number): number; // aligned lane, -1 when not shown
}

export function alignedRef(ref: SliceRef, m: RankMap): SliceRef {
  return {
    ...ref,
    id: alignedId(ref.id, m.rank, m.ranks),
    lane: m.lane(ref.lane),
    startNs: ref.startNs + m.shiftNs,
  };
}

export function alignedDetails(d: EventDetails, m: RankMap): EventDetails {
  return {
    ...d,
    id: alignedId(d.id, m.rank, m.ranks),
    lane: m.lane(d.lane),
    laneName: `${m.label} · ${d.laneName}`,
    startNs: d.startNs + m.shiftNs,
    links: (d.links ?? []).map((l) => ({ dir: l.dir, to: alignedRef(l.to, m) })),
  };
}

export function alignedEvent(e: EventView, m: RankMap): EventView {
  return { ...e, details: alignedDetails(e.details, m) };
}
