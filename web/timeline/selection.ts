// What is selected in the timeline (a slice, an instant, or an area of lanes and time) and the
// details panel that shows it: an event's details and args, or an area's aggregate, both fetched
// from the trace worker. The view draws the selection (and the selected slice's links) and tells
// this what was clicked; this moves the view through its host to show what it fetched.
import { DetailsPanel } from './details_panel';
import type { AggregateReply, EventView, SliceRef } from './replies';
import { rangeForJump, rangeForSlice, type Range } from './time_range';
import type { TimelineClient } from '../worker/protocol';

export interface Selected {
  id: number;
  lane: number;
  depth: number;
  startNs: number;
  durNs: number;
  instant?: boolean;
}

// An area dragged with shift: its times, its rows' y range in the track area, and its slice lanes.
export interface Area {
  t0: number;
  t1: number;
  y0: number;
  y1: number;
  lanes: number[];
}

// What the selection needs of the view.
export interface SelectionHost {
  readonly client: TimelineClient;
  destroyed(): boolean;
  originNs(): string;
  laneName(lane: number): string; // '' when its name is not fetched: loadLaneNames first
  loadLaneNames(lanes: number[]): Promise<void>;
  range(): Range;
  goTo(r: Range | null): void;
  measure(): void; // the panel may have taken room from the stage
  invalidate(): void;
  revealLane(lane: number, depth: number): void; // expands its group, scrolls it into view
  // A slice on a lane the client does not show (lane -1): shows its lane if the client can (the
  // aligned view of a job: that rank's CPU threads); true when the track list changed.
  showLaneOf(id: number): Promise<boolean>;
  keepRowShown(lane: number, depth: number): void;
}

export class TimelineSelection {
  selected: Selected | null = null;
  links: SliceRef[] = []; // the selected slice's linked slices (kernel, launch, flows)
  peers: SliceRef[] = []; // a collective kernel's peers on the other ranks (the aligned view's 'peer' links)
  area: Area | null = null;
  lastDetails: EventView | null = null;
  lastAggregate: AggregateReply | null = null;
  pending = 0; // event / aggregate requests in flight
  readonly panel: DetailsPanel;

  constructor(private readonly host: SelectionHost) {
    this.panel = new DetailsPanel(
      (ref) => this.jumpTo(ref),
      () => this.clear()
    );
  }

  clear(): void {
    this.selected = null;
    this.links = [];
    this.peers = [];
    this.area = null;
    this.lastDetails = null;
    this.panel.hide();
    this.host.invalidate();
  }

  zoomTo(): void {
    if (this.area && this.area.t1 > this.area.t0) this.host.goTo(this.area);
    else if (this.selected) this.host.goTo(rangeForSlice(this.host.range(), this.selected, true));
  }

  // A slice's details; `reveal`: scroll and zoom to it (a search step, a link), else only keep its
  // row on screen. `showLane`: a slice on a lane the client does not show has its lane shown (not
  // when the lanes were just hidden by the user: the selection then stays, undrawn).
  async select(id: number, reveal: boolean, showLane = true): Promise<void> {
    this.area = null;
    this.pending++;
    try {
      const reply = await this.host.client.request('event', { sliceId: id });
      if (this.host.destroyed()) return;
      const d = reply.details;
      if (d.lane < 0 && showLane && (await this.host.showLaneOf(id))) {
        if (!this.host.destroyed()) void this.select(id, reveal);
        return;
      }
      this.selected = { id, lane: d.lane, depth: d.depth, startNs: d.startNs, durNs: d.durNs };
      const links = (d.links ?? []).filter((l) => l.to);
      this.links = links.filter((l) => l.dir !== 'peer').map((l) => l.to);
      this.peers = links.filter((l) => l.dir === 'peer').map((l) => l.to);
      await this.host.loadLaneNames(links.map((l) => l.to.lane)); // the panel names the linked lanes
      if (this.host.destroyed()) return;
      this.show(reply);
      if (reveal) this.host.revealLane(d.lane, d.depth);
      else this.host.keepRowShown(d.lane, d.depth);
      if (reveal) this.host.goTo(rangeForSlice(this.host.range(), this.selected, false));
      this.host.invalidate();
    } catch (e) {
      this.panel.error(`This event could not be shown: ${String((e as Error)?.message ?? e)}`);
    } finally {
      this.pending--;
    }
  }

  // An instant's details: the same panel, args re-read from the file like a slice's.
  async selectInstant(id: number): Promise<void> {
    this.area = null;
    this.pending++;
    try {
      const reply = await this.host.client.request('event', { instantId: id });
      if (this.host.destroyed()) return;
      const d = reply.details;
      this.selected = { id, lane: d.lane, depth: 0, startNs: d.startNs, durNs: 0, instant: true };
      this.links = [];
      this.peers = [];
      this.show(reply);
      if (d.scope === 'thread') this.host.keepRowShown(d.lane, 0); // the others sit on headers and the ruler
      this.host.invalidate();
    } catch (e) {
      this.panel.error(`This instant could not be shown: ${String((e as Error)?.message ?? e)}`);
    } finally {
      this.pending--;
    }
  }

  private show(reply: EventView): void {
    this.lastDetails = reply;
    this.panel.showEvent(reply, this.host.originNs(), (lane) => this.host.laneName(lane));
    this.host.measure();
  }

  // A link in the panel: to its slice, keeping the current one in view as well when the two are close.
  jumpTo(ref: SliceRef): void {
    this.host.revealLane(ref.lane, ref.depth);
    if (this.selected) this.host.goTo(rangeForJump(this.host.range(), this.selected, ref));
    void this.select(ref.id, true);
  }

  // The dragged area's aggregate table.
  async aggregate(): Promise<void> {
    const a = this.area;
    if (!a) return;
    if (!a.lanes.length) {
      this.panel.error('The area holds no slice lanes.');
      return;
    }
    this.pending++;
    this.panel.loading('Aggregating…');
    try {
      const r = await this.host.client.request('aggregate', { lanes: a.lanes, t0: a.t0, t1: a.t1 });
      if (this.area !== a) return;
      this.lastAggregate = r;
      this.selected = null;
      this.links = [];
      this.peers = [];
      this.panel.showAggregate(r, a.t0, a.t1, a.lanes.length);
    } catch (e) {
      this.panel.error(`The area could not be aggregated: ${String((e as Error)?.message ?? e)}`);
    } finally {
      this.pending--;
    }
  }
}
