// The name search over several ranks. Each rank's core keeps its own matches in time order and
// steps through them (core/timeline/search.cc: from a time, or from its current match, wrapping
// at the ends). The aligned view orders all matches by (aligned start, rank, the rank's slice id)
// and steps through that order: each rank is asked for its next (previous) match from the current
// position, and the nearest one that lies ahead wins; with none ahead the search wraps to the
// first (last) match of all. The index shown ("k / n") is counted from the ranks' own indexes.
import type { EventDetails, SearchReply, SliceRef } from '../replies';

// Where a step starts: a time (rank -1: no current match), or a rank's match (its local id).
export interface StepOrigin {
  ns: number; // aligned
  rank: number;
  local: number;
}

// What rank `rank` is asked (times relative to the rank: aligned - shift). Matches of another rank
// at the very same aligned ns sort by rank: a lower rank's are behind the current match, a higher
// rank's ahead (starts are whole ns in Kineto traces, so "after T" is "from T + 1").
export function rankStepFrom(o: StepOrigin, rank: number, shiftNs: number): { fromNs: number; fromId: number } {
  if (o.rank === rank) return { fromNs: o.ns - shiftNs, fromId: o.local };
  const after = o.rank >= 0 && rank < o.rank;
  return { fromNs: (after ? o.ns + 1 : o.ns) - shiftNs, fromId: -1 };
}

// One rank's answer to a step, its event on the aligned clock.
export interface RankStep {
  rank: number;
  local: number; // the event's id on its rank (-1: none)
  index: number; // -1: the rank has no match
  count: number;
  event: EventDetails | null;
}

type Key = [number, number, number];
const cmp = (a: Key, b: Key) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const keyOf = (s: RankStep): Key => [s.event!.startNs, s.rank, s.local];

export function pickStep(dir: number, o: StepOrigin, steps: RankStep[]): SearchReply {
  const count = steps.reduce((n, s) => n + Math.max(0, s.count), 0);
  const found = steps.filter((s) => s.index >= 0 && s.event);
  if (!found.length) return { index: -1, count };
  const at: Key = [o.ns, o.rank, o.local];
  // Ahead of the origin: after a match's key; from a time, at or after it going forward and before
  // it going back (the core's own rule).
  const ahead = (s: RankStep): boolean => {
    if (o.rank < 0) return dir > 0 ? s.event!.startNs >= o.ns : s.event!.startNs < o.ns;
    const c = cmp(keyOf(s), at);
    return dir > 0 ? c > 0 : c < 0;
  };
  const isAhead = new Map(found.map((s) => [s, ahead(s)]));
  const pool = found.some((s) => isAhead.get(s)) ? found.filter((s) => isAhead.get(s)) : found;
  const best = pool.reduce((a, b) => ((dir > 0 ? cmp(keyOf(b), keyOf(a)) < 0 : cmp(keyOf(b), keyOf(a)) > 0) ? b : a));
  const wrapped = !isAhead.get(best);
  let index: number;
  if (wrapped) index = dir > 0 ? 0 : count - 1;
  else
    index = found.reduce((n, s) => {
      if (s === best) return n + s.index;
      // Going forward, a rank's matches before its next one lie behind the winner (all of them
      // when it had none ahead); going back, those up to its previous one (none when it wrapped).
      if (dir > 0) return n + (isAhead.get(s) ? s.index : s.count);
      return n + (isAhead.get(s) ? s.index + 1 : 0);
    }, 0);
  return { index, count, event: best.event! };
}

// Matches [offset, offset + limit) of all ranks in the aligned order, from each rank's first
// offset + limit matches (already on the aligned clock).
export function mergePages(
  offset: number,
  limit: number,
  pages: Array<{ rank: number; count: number; matches: SliceRef[] }>
): SearchReply {
  const all = pages.flatMap((p) => p.matches.map((m) => ({ m, rank: p.rank })));
  all.sort((a, b) => a.m.startNs - b.m.startNs || a.rank - b.rank || a.m.id - b.m.id);
  return {
    count: pages.reduce((n, p) => n + p.count, 0),
    offset,
    matches: all.slice(offset, offset + limit).map((x) => x.m),
  };
}
