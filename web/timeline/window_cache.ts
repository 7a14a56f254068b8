// The window cache: the LOD data of one request covering the visible range plus one screen on each
// side, at the current resolution. The view re-queries only when the visible range leaves the
// cached range, the zoom changes the resolution by more than a factor ~1.5, or a lane comes into
// view that the cache does not hold. One request in flight at a time; the newest need wins.

import type { WindowColumns } from './window_columns';
import type { WindowReply } from '../worker/timeline_handlers';

export interface WindowData extends WindowColumns {
  t0: number;
  t1: number;
  px: number;
  nsPerPx: number;
  search: boolean;
  lanes: number[];
  laneIndex: Map<number, number>;
}

export const kGlobalMark = 0xffffffff;

export interface Need {
  t0: number;
  t1: number;
  widthPx: number;
  lanes: number[];
  search: boolean;
}

type Fetch = (req: { lanes: number[]; t0: number; t1: number; px: number; search: boolean }) => Promise<WindowReply>;

export class WindowCache {
  data: WindowData | null = null;
  readonly names = new Map<number, string>();
  inFlight = false;
  requests = 0;
  private pending: Need | null = null;
  private generation = 0; // bumped by invalidate(): replies to older requests still show, then refetch

  constructor(
    private readonly fetch: Fetch,
    private readonly onData: () => void,
    private readonly onError: (e: unknown) => void
  ) {}

  invalidate(): void {
    this.generation++;
  }

  // The lanes were renumbered (a new track list): nothing cached or asked before stands.
  reset(): void {
    this.data = null;
    this.epoch++;
    this.generation++;
  }
  private epoch = 0;

  // True when the cache serves `need` well.
  covers(need: Need): boolean {
    const d = this.data;
    if (!d || d.search !== need.search) return false;
    if (need.t0 < d.t0 || need.t1 > d.t1) return false;
    const nsPerPx = (need.t1 - need.t0) / Math.max(1, need.widthPx);
    if (nsPerPx < d.nsPerPx / 1.5 || nsPerPx > d.nsPerPx * 3) return false;
    for (const l of need.lanes) if (!d.laneIndex.has(l)) return false;
    return true;
  }

  // Asks for data for `need` unless the cache already serves it.
  ensure(need: Need): void {
    if (this.covers(need) && this.dataGeneration === this.generation) return;
    this.pending = need;
    if (!this.inFlight) void this.run();
  }

  private dataGeneration = -1;

  private async run(): Promise<void> {
    while (this.pending) {
      const need = this.pending;
      this.pending = null;
      if (this.covers(need) && this.dataGeneration === this.generation) continue;
      const span = need.t1 - need.t0;
      const gen = this.generation,
        epoch = this.epoch;
      const req = {
        lanes: need.lanes,
        t0: need.t0 - span,
        t1: need.t1 + span,
        px: Math.round(3 * Math.max(1, need.widthPx)),
        search: need.search,
      };
      this.inFlight = true;
      this.requests++;
      try {
        const r = await this.fetch(req);
        if (epoch !== this.epoch) continue; // asked under the old lane ids (finally still runs)
        for (const [k, v] of Object.entries(r.names ?? {})) this.names.set(Number(k), String(v));
        const laneIndex = new Map<number, number>();
        req.lanes.forEach((l, i) => laneIndex.set(l, i));
        this.data = {
          ...r,
          t0: req.t0,
          t1: req.t1,
          px: req.px,
          nsPerPx: (req.t1 - req.t0) / req.px,
          search: req.search,
          lanes: req.lanes,
          laneIndex,
        } as WindowData;
        this.dataGeneration = gen;
      } catch (e) {
        this.onError(e);
      } finally {
        this.inFlight = false;
      }
      this.onData();
    }
  }
}
