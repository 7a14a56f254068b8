// Names in the aligned view: a group per rank, "rank 3 · trace-3.json"; a lane keeps its rank's
// name for it ("stream 7"), prefixed with its own group's short name ("GPU 0 · stream 7",
// "CPU · thread 12 (python)") when the rank shows lanes of more than one group. Each rank's names
// come from its worker a page at a time (../track_names.ts) and are kept: a rank's own lane ids
// never change, whichever of its lanes the aligned view shows.
import { TrackNames } from '../track_names';
import type { TimelineClient } from '../../worker/protocol';
import type { AlignedTracks } from './aligned_tracks';

export interface NamedRank {
  client: TimelineClient;
  label: string; // "rank 3" (the job's label)
  file: string;
}

export function rankGroupName(r: { label: string; file: string }): string {
  return r.file && r.file !== r.label ? `${r.label} · ${r.file}` : r.label;
}

// "GPU 0 (python3.10, pid 0)" -> "GPU 0": what tells a rank's groups apart.
export function shortGroupName(name: string): string {
  return name.replace(/\s*\(.*\)\s*$/, '') || name;
}

export class AlignedNames {
  private readonly local: TrackNames[];

  constructor(private readonly ranks: NamedRank[]) {
    const none = () => {};
    this.local = ranks.map(
      (r) =>
        new TrackNames(
          (groups, first, count) => r.client.request('trackNames', { groups, first, count }).then((x) => x.names),
          none,
          none // a page that failed shows as the lane's number (below), not as an error per page
        )
    );
  }

  groups(first: number, count: number): string[] {
    return this.ranks.slice(first, first + count).map(rankGroupName);
  }

  // Names of aligned lanes [first, first + count); `rankTracks`: each rank's own track list.
  async lanes(
    t: AlignedTracks,
    rankTracks: Array<{ trackGroup: Uint32Array }>,
    first: number,
    count: number
  ): Promise<string[]> {
    const end = Math.min(t.reply.tracks, first + count);
    const lanes = Array.from({ length: Math.max(0, end - first) }, (_, i) => first + i);
    const byRank = new Map<number, number[]>();
    for (const l of lanes) {
      const r = t.laneRank[l];
      let list = byRank.get(r);
      if (!list) byRank.set(r, (list = []));
      list.push(t.laneLocal[l]);
    }
    const prefixed = (r: number) => t.groupsShown[r].length > 1;
    await Promise.all(
      [...byRank].flatMap(([r, locals]) => [
        this.local[r].load(false, locals),
        prefixed(r) ? this.local[r].load(true, t.groupsShown[r]) : Promise.resolve(),
      ])
    );
    return lanes.map((l) => {
      const r = t.laneRank[l],
        local = t.laneLocal[l];
      const name = this.local[r].track(local) || `lane ${local}`;
      if (!prefixed(r)) return name;
      const g = rankTracks[r].trackGroup[local];
      return `${shortGroupName(this.local[r].group(g) || `group ${g}`)} · ${name}`;
    });
  }
}
