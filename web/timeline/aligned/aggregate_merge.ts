// An area's aggregate over several ranks: each rank aggregates its own lanes of the area (over the
// same aligned times), and the rows of the same name add up.
import type { AggregateReply } from '../replies';

// The rows an aggregate lists at most (area_aggregate's max_rows, core/timeline/area_aggregate.h).
export const kMaxRows = 500;

export function mergeAggregates(parts: AggregateReply[]): AggregateReply {
  const byName = new Map<string, AggregateReply['rows'][number]>();
  for (const p of parts)
    for (const r of p.rows ?? []) {
      const acc = byName.get(r.name);
      if (!acc) byName.set(r.name, { ...r });
      else {
        acc.count += r.count;
        acc.totalNs += r.totalNs;
        acc.selfNs += r.selfNs;
        acc.inRangeNs += r.inRangeNs;
      }
    }
  // The core's order (core/timeline/area_aggregate.cc): most total time first, then by name.
  const rows = [...byName.values()].sort((a, b) =>
    a.totalNs !== b.totalNs ? b.totalNs - a.totalNs : a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const cap = kMaxRows;
  const cut = parts.some((p) => p.truncated);
  return {
    slices: parts.reduce((n, p) => n + p.slices, 0),
    // A rank that listed only its top names hides how many the others share with it: then the
    // largest count known is given.
    names: cut ? Math.max(rows.length, ...parts.map((p) => p.names)) : rows.length,
    truncated: cut || rows.length > cap,
    rows: rows.slice(0, cap),
  };
}
