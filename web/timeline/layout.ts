// Vertical layout of the timeline: group headers (one per process, collapsible) and the lanes under
// them, in the order the core gives. Heights are CSS pixels; y is from the top of the content.

export interface GroupInfo {
  name: string;
  pid: number;
  gpu: boolean;
}
export interface LaneInfo {
  id: number;
  group: number;
  kind: 'slices' | 'counter' | 'memory' | 'overlap';
  name: string;
  rows: number;
}
export interface TracksReply {
  originNs: string;
  endNs: number;
  groups: GroupInfo[];
  tracks: LaneInfo[];
}

export const kHeaderH = 22;
export const kRowH = 18;
export const kOverlapRowH = 10;
export const kCounterH = 36;
export const kLaneGap = 4;

export interface GroupBox {
  index: number;
  info: GroupInfo;
  y: number;
  h: number;
  collapsed: boolean;
  lanes: number;
}
export interface LaneBox {
  info: LaneInfo;
  y: number;
  h: number;
  rowH: number;
}

export class Layout {
  groups: GroupBox[] = [];
  lanes: LaneBox[] = []; // visible (not collapsed) lanes, top to bottom
  byLane = new Map<number, LaneBox>();
  height = 0;

  constructor(
    readonly tracks: TracksReply,
    readonly collapsed: Set<number>
  ) {
    this.build();
  }

  build(): void {
    this.groups = [];
    this.lanes = [];
    this.byLane.clear();
    let y = 0;
    const { groups, tracks } = this.tracks;
    for (let g = 0; g < groups.length; g++) {
      const mine = tracks.filter((t) => t.group === g);
      if (!mine.length) continue;
      const collapsed = this.collapsed.has(g);
      const group: GroupBox = { index: g, info: groups[g], y, h: kHeaderH, collapsed, lanes: mine.length };
      this.groups.push(group);
      y += kHeaderH;
      if (collapsed) continue;
      for (const t of mine) {
        const rowH = t.kind === 'overlap' ? kOverlapRowH : t.kind === 'slices' ? kRowH : kCounterH;
        const h = t.kind === 'slices' || t.kind === 'overlap' ? Math.max(1, t.rows) * rowH : kCounterH;
        const box = { info: t, y, h, rowH };
        this.lanes.push(box);
        this.byLane.set(t.id, box);
        y += h + kLaneGap;
      }
      group.h = y - group.y;
    }
    this.height = y;
  }

  // Lanes that intersect [y0, y1) of the content.
  lanesIn(y0: number, y1: number): LaneBox[] {
    return this.lanes.filter((l) => l.y + l.h > y0 && l.y < y1);
  }

  laneAt(y: number): LaneBox | null {
    for (const l of this.lanes) if (y >= l.y && y < l.y + l.h) return l;
    return null;
  }

  groupHeaderAt(y: number): GroupBox | null {
    for (const g of this.groups) if (y >= g.y && y < g.y + kHeaderH) return g;
    return null;
  }
}
