// The track list as the worker sends it: a head (origin, end, counts) and columns named and typed as
// core/timeline/track_columns.h sends them (tests/wasm/track_columns.test.mjs holds the two lists
// together). A million tracks cross as a few transferred typed arrays, not a million objects: their
// names come apart, a page at a time for the rows on screen (./track_names.ts).
import type { TrackOffsets } from './lane_heights';

export const kTrackColumns = {
  groupFirstTrack: Uint32Array, // groups + 1 entries: a group's tracks are [first[g], first[g + 1])
  groupPid: Float64Array, // -1 for the derived / memory group
  groupGpu: Uint8Array,
  trackGroup: Uint32Array,
  trackKind: Uint8Array, // an index into kLaneKinds
  trackRows: Uint32Array,
} as const;

export type TrackColumnName = keyof typeof kTrackColumns;
export type TrackColumns = { [K in TrackColumnName]: InstanceType<(typeof kTrackColumns)[K]> };

// LaneKind in core/timeline/timeline_index.h, in its order.
export const kLaneKinds = ['slices', 'counter', 'memory', 'overlap'] as const;
export type LaneKind = (typeof kLaneKinds)[number];

// With the lanes' offsets, computed in the worker (./lane_heights.ts).
export interface TracksReply extends TrackColumns, TrackOffsets {
  originNs: string; // the trace's first timestamp, absolute ns as a decimal string
  endNs: number; // relative to originNs
  groups: number;
  tracks: number;
}

export function laneKind(t: TracksReply, lane: number): LaneKind {
  return kLaneKinds[t.trackKind[lane]] ?? 'slices';
}
