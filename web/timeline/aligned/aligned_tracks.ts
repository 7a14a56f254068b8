// The aligned view's track list: one group per rank (in the job's rank order) holding that rank's
// GPU lanes (its streams and comm overlap lane) and, when asked, every other lane of the rank (CPU
// threads, counters, memory) after them. Lanes keep their kind and rows; their ids are renumbered
// top to bottom, as a track list's are, and the maps here lead back to each rank's own lane ids.
import { trackOffsets } from '../lane_heights';
import { kLaneKinds, type TrackColumns, type TracksReply } from '../track_columns';

const kSlices = kLaneKinds.indexOf('slices');

export interface RankLanes {
  tracks: TracksReply; // the rank's own track list
  shiftNs: number; // aligned time - the rank's relative time (./rank_clock.ts)
  cpu: boolean; // its non-GPU lanes are shown too
}

export interface AlignedTracks {
  reply: TracksReply;
  laneRank: Uint32Array; // per aligned lane: its rank
  laneLocal: Uint32Array; // per aligned lane: its id in its rank's track list
  aligned: Int32Array[]; // per rank: local lane -> aligned lane, -1 where not shown
  groupsShown: number[][]; // per rank: its local groups that have lanes shown, in order
  gpuLanes: number[][]; // per rank: its local GPU slice lanes (where a collective's kernel runs)
}

// A rank's local lanes in the aligned view's order: GPU groups first, then (cpu) the others.
export function shownLanes(t: TracksReply, cpu: boolean): number[] {
  const out: number[] = [];
  for (const gpu of cpu ? [1, 0] : [1])
    for (let g = 0; g < t.groups; g++)
      if ((t.groupGpu[g] === 1 ? 1 : 0) === gpu)
        for (let l = t.groupFirstTrack[g]; l < t.groupFirstTrack[g + 1]; l++) out.push(l);
  return out;
}

export function mergeTracks(ranks: RankLanes[], originNs: string): AlignedTracks {
  const lists = ranks.map((r) => shownLanes(r.tracks, r.cpu));
  const total = lists.reduce((n, l) => n + l.length, 0);
  const columns: TrackColumns = {
    groupFirstTrack: new Uint32Array(ranks.length + 1),
    groupPid: Float64Array.from(ranks, (_, r) => r),
    groupGpu: new Uint8Array(ranks.length).fill(1),
    trackGroup: new Uint32Array(total),
    trackKind: new Uint8Array(total),
    trackRows: new Uint32Array(total),
  };
  const laneRank = new Uint32Array(total);
  const laneLocal = new Uint32Array(total);
  const aligned = ranks.map((r) => new Int32Array(r.tracks.tracks).fill(-1));
  let l = 0;
  let endNs = 0;
  lists.forEach((list, r) => {
    const t = ranks[r].tracks;
    columns.groupFirstTrack[r] = l;
    for (const local of list) {
      columns.trackGroup[l] = r;
      columns.trackKind[l] = t.trackKind[local];
      columns.trackRows[l] = t.trackRows[local];
      laneRank[l] = r;
      laneLocal[l] = local;
      aligned[r][local] = l;
      l++;
    }
    endNs = Math.max(endNs, t.endNs + ranks[r].shiftNs);
  });
  columns.groupFirstTrack[ranks.length] = l;
  const groupsShown = lists.map((list, r) => [...new Set(list.map((x) => ranks[r].tracks.trackGroup[x]))]);
  const gpuLanes = ranks.map((r) => shownLanes(r.tracks, false).filter((x) => r.tracks.trackKind[x] === kSlices));
  const reply: TracksReply = {
    ...columns,
    ...trackOffsets(columns),
    originNs,
    endNs,
    groups: ranks.length,
    tracks: total,
  };
  return { reply, laneRank, laneLocal, aligned, groupsShown, gpuLanes };
}
