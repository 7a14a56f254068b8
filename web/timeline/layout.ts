// Vertical layout of the timeline: group headers (one per process, collapsible) and the lanes under
// them, in the order the core gives. Heights are CSS pixels; y is from the top of the content.
//
// Virtual, and nothing in it is per group or per lane on the main thread: the worker sends each
// lane's offset in its group and the prefix sums of the groups' headers and bodies
// (./lane_heights.ts). A group's y is then those sums with every group open or every group collapsed
// (the default), corrected by the few groups the user toggled (a binary search in them), so a
// collapse or an expand costs O(toggled groups), whatever the number of groups. Boxes are made only
// for what a frame asks for (the rows on screen), found by binary search.
import type { GroupCollapse } from './group_collapse';
import { kHeaderH, laneHeight, rowHeight } from './lane_heights';
import { kLaneKinds, type LaneKind, type TracksReply } from './track_columns';

export { kHeaderH } from './lane_heights';

export interface GroupBox {
  index: number;
  pid: number;
  y: number;
  h: number; // the header and, when open, its lanes
  collapsed: boolean;
  lanes: number;
}
export interface LaneBox {
  id: number;
  group: number;
  kind: LaneKind;
  rows: number;
  y: number;
  h: number;
  rowH: number;
}

export class Layout {
  height = 0;
  shownLanes = 0; // lanes in open groups
  private toggled: number[] = []; // groups toggled from the default, in order
  private toggledBody: number[] = []; // [i]: the bodies of toggled[0..i), signed (+ opened, - collapsed)

  constructor(
    readonly tracks: TracksReply,
    readonly collapse: GroupCollapse
  ) {
    this.build();
  }

  // After a collapse or an expand.
  build(): void {
    const t = this.tracks;
    this.toggled = this.collapse.toggledGroups().filter((g) => g < t.groups);
    const sign = this.collapse.collapsedByDefault ? 1 : -1;
    this.toggledBody = [0];
    let lanes = this.collapse.collapsedByDefault ? 0 : t.tracks;
    for (const g of this.toggled) {
      this.toggledBody.push(this.toggledBody[this.toggledBody.length - 1] + sign * this.bodyH(g));
      lanes += sign * (t.groupFirstTrack[g + 1] - t.groupFirstTrack[g]);
    }
    this.height = this.groupY(t.groups);
    this.shownLanes = lanes;
  }

  groupBox(g: number): GroupBox | null {
    if (!(g >= 0 && g < this.tracks.groups)) return null;
    const lanes = this.tracks.groupFirstTrack[g + 1] - this.tracks.groupFirstTrack[g];
    if (lanes === 0) return null;
    const collapsed = this.collapse.isCollapsed(g);
    const y = this.groupY(g);
    return {
      index: g,
      pid: this.tracks.groupPid[g],
      y,
      h: kHeaderH + (collapsed ? 0 : this.bodyH(g)),
      collapsed,
      lanes,
    };
  }

  // The lane's box, or null when its group is collapsed (or there is no such lane).
  laneBox(lane: number): LaneBox | null {
    if (!(lane >= 0 && lane < this.tracks.tracks)) return null;
    const g = this.tracks.trackGroup[lane];
    if (this.collapse.isCollapsed(g)) return null;
    return this.box(lane, this.groupY(g) + kHeaderH);
  }

  // Groups whose box intersects [y0, y1) of the content, top to bottom.
  groupsIn(y0: number, y1: number): GroupBox[] {
    const out: GroupBox[] = [];
    for (let g = this.groupAtY(y0); g < this.tracks.groups; g++) {
      const b = this.groupBox(g);
      if (b && b.y >= y1) break;
      if (b) out.push(b);
    }
    return out;
  }

  // Lanes that intersect [y0, y1) of the content, top to bottom.
  lanesIn(y0: number, y1: number): LaneBox[] {
    const out: LaneBox[] = [];
    const { groupFirstTrack: first, trackTop } = this.tracks;
    for (const g of this.groupsIn(y0, y1)) {
      if (g.collapsed) continue;
      const body = g.y + kHeaderH;
      // The first lane that ends after y0, then down to y1.
      let lo = first[g.index],
        hi = first[g.index + 1];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (body + trackTop[mid] + this.laneH(mid) <= y0) lo = mid + 1;
        else hi = mid;
      }
      for (let l = lo; l < first[g.index + 1] && body + trackTop[l] < y1; l++) out.push(this.box(l, body));
    }
    return out;
  }

  laneAt(y: number): LaneBox | null {
    const l = this.lanesIn(y, y + 1)[0];
    return l && y >= l.y && y < l.y + l.h ? l : null;
  }

  groupHeaderAt(y: number): GroupBox | null {
    const b = this.groupBox(this.groupAtY(y));
    return b && y >= b.y && y < b.y + kHeaderH ? b : null;
  }

  // y of group g's header (g = groups: the content's height).
  private groupY(g: number): number {
    const t = this.tracks;
    const base = t.groupHeadersBefore[g] * kHeaderH + (this.collapse.collapsedByDefault ? 0 : t.groupBodyBefore[g]);
    // The toggled groups before g.
    let lo = 0,
      hi = this.toggled.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.toggled[mid] < g) lo = mid + 1;
      else hi = mid;
    }
    return base + this.toggledBody[lo];
  }

  private bodyH(g: number): number {
    return this.tracks.groupBodyBefore[g + 1] - this.tracks.groupBodyBefore[g];
  }

  private laneH(lane: number): number {
    return laneHeight(kLaneKinds[this.tracks.trackKind[lane]] ?? 'slices', this.tracks.trackRows[lane]);
  }

  private box(lane: number, body: number): LaneBox {
    const t = this.tracks;
    const kind = kLaneKinds[t.trackKind[lane]] ?? 'slices';
    const rows = t.trackRows[lane];
    return {
      id: lane,
      group: t.trackGroup[lane],
      kind,
      rows,
      y: body + t.trackTop[lane],
      h: laneHeight(kind, rows),
      rowH: rowHeight(kind),
    };
  }

  // The first group whose box ends after y (past the end: the number of groups).
  private groupAtY(y: number): number {
    let lo = 0,
      hi = this.tracks.groups;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.groupY(mid + 1) <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
