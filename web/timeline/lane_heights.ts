// How tall the timeline's rows are, and where each lane sits inside its group: computed once in the
// trace worker (web/worker/timeline_handlers.ts) from the track list's columns and sent with them, so
// that the page's main thread never loops over a million lanes (./layout.ts reads these arrays).
import { kLaneKinds, type LaneKind, type TrackColumns } from './track_columns';

export const kHeaderH = 22;
export const kRowH = 18;
export const kOverlapRowH = 10;
export const kCounterH = 36;
export const kLaneGap = 4;

export function rowHeight(kind: LaneKind): number {
  return kind === 'overlap' ? kOverlapRowH : kind === 'slices' ? kRowH : kCounterH;
}

export function laneHeight(kind: LaneKind, rows: number): number {
  return kind === 'counter' || kind === 'memory' ? kCounterH : Math.max(1, rows) * rowHeight(kind);
}

export interface TrackOffsets {
  trackTop: Float64Array; // per lane: its y below its group's header
  groupBodyBefore: Float64Array; // groups + 1: the lanes' heights (with gaps) of the groups before
  groupHeadersBefore: Float64Array; // groups + 1: the headers before (an empty group has none)
}

export function trackOffsets(c: TrackColumns): TrackOffsets {
  const groups = c.groupPid.length;
  const first = c.groupFirstTrack;
  const trackTop = new Float64Array(c.trackGroup.length);
  const groupBodyBefore = new Float64Array(groups + 1);
  const groupHeadersBefore = new Float64Array(groups + 1);
  for (let g = 0; g < groups; g++) {
    let y = 0;
    for (let l = first[g]; l < first[g + 1]; l++) {
      trackTop[l] = y;
      y += laneHeight(kLaneKinds[c.trackKind[l]] ?? 'slices', c.trackRows[l]) + kLaneGap;
    }
    groupBodyBefore[g + 1] = groupBodyBefore[g] + y;
    groupHeadersBefore[g + 1] = groupHeadersBefore[g] + (first[g + 1] > first[g] ? 1 : 0);
  }
  return { trackTop, groupBodyBefore, groupHeadersBefore };
}
