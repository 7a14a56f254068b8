// The timeline's rows, top to bottom: the track list, its layout (./layout.ts), which groups are
// collapsed (./group_collapse.ts), the names of the rows on screen (./track_names.ts), and how far
// down the view is scrolled. The view draws them and turns input into these calls.
import { GroupCollapse, type CollapseState } from './group_collapse';
import { Layout, type LaneBox } from './layout';
import { keepInViewScroll, revealScroll, rowInView } from './row_scroll';
import type { TracksReply } from './track_columns';
import { kNamePage, TrackNames, type FetchNames } from './track_names';

export class TrackRows {
  tracks: TracksReply | null = null;
  layout: Layout | null = null;
  scrollY = 0;
  viewH = 0; // the track area's height (CSS px), set by the view
  names: TrackNames;
  private readonly collapse = new GroupCollapse();

  constructor(
    private readonly fetchNames: FetchNames,
    private readonly changed: () => void,
    private readonly onError: (e: unknown) => void
  ) {
    this.names = new TrackNames(fetchNames, changed, onError);
  }

  // A new track list, in place once the names of its first screen (a small trace: all) are here:
  // no row is drawn without its name, and the view draws nothing before (it fits the range first).
  // `again`: the same groups with other lanes (the aligned view showing a rank's CPU threads): the
  // groups stay collapsed or open, the lanes' names are fetched anew.
  async open(t: TracksReply, again = false): Promise<void> {
    if (!again) this.collapse.reset(t.groups);
    const layout = new Layout(t, this.collapse);
    const names = again ? new TrackNames(this.fetchNames, this.changed, this.onError) : this.names;
    const all = (n: number) => (n <= 8 * kNamePage ? [...Array(n).keys()] : []);
    await Promise.all([
      this.loadShown(layout, names),
      names.load(true, all(t.groups)),
      names.load(false, all(t.tracks)),
    ]);
    this.tracks = t;
    this.layout = layout;
    this.names = names;
    if (again) this.scrollBy(0); // the content may be shorter now
  }

  // Fetches the names of the groups and lanes on screen that are not here (a frame shows '…').
  loadShown(l: Layout | null = this.layout, names = this.names): Promise<unknown> {
    if (!l) return Promise.resolve();
    const top = this.scrollY,
      bottom = top + this.viewH;
    return Promise.all([
      names.load(
        true,
        l.groupsIn(top, bottom).map((g) => g.index)
      ),
      names.load(
        false,
        l.lanesIn(top, bottom).map((b) => b.id)
      ),
    ]);
  }

  // Lanes on screen and `screens` screens above and below (what the window cache fetches).
  lanesAround(screens: number): number[] {
    const span = screens * this.viewH;
    return this.layout?.lanesIn(this.scrollY - span, this.scrollY + this.viewH + span).map((l) => l.id) ?? [];
  }

  scrollBy(dy: number): void {
    const max = Math.max(0, (this.layout?.height ?? 0) - this.viewH + 20);
    this.scrollY = Math.round(Math.min(max, Math.max(0, this.scrollY + dy))); // whole px: a fractional y blurs rows, slower
    this.changed();
  }

  // Collapses or opens the group whose header is at content y; false when there is none.
  toggleHeaderAt(y: number): boolean {
    const g = this.layout?.groupHeaderAt(y);
    if (!g || !this.layout) return false;
    this.collapse.toggle(g.index);
    this.layout.build();
    this.scrollBy(0);
    return true;
  }

  state(): CollapseState {
    return this.collapse.state();
  }

  restore(s: CollapseState): void {
    this.collapse.restore(s);
    this.layout?.build();
    this.scrollBy(0);
  }

  // Opens the lane's group and scrolls a third of the way down to row `depth` unless it is shown.
  reveal(lane: number, depth: number): void {
    const t = this.tracks;
    if (!t || !this.layout || !(lane >= 0 && lane < t.tracks)) return;
    if (this.collapse.expand(t.trackGroup[lane])) this.layout.build();
    this.scrollTo(lane, (box) => revealScroll(box, depth, this.scrollY, this.viewH));
  }

  // Whether row `depth` of `lane` is wholly inside the track area.
  shown(lane: number, depth: number): boolean {
    const box = this.layout?.laneBox(lane);
    return box ? rowInView(box, depth, this.scrollY, this.viewH) : false;
  }

  // Scrolls the least that brings row `depth` of `lane` (with a row of margin) into the track area.
  // A collapsed lane stays collapsed.
  keepShown(lane: number, depth: number): void {
    this.scrollTo(lane, (box) => keepInViewScroll(box, depth, this.scrollY, this.viewH));
  }

  private scrollTo(lane: number, change: (box: LaneBox) => number | null): void {
    const box = this.layout?.laneBox(lane);
    const dy = box ? change(box) : null;
    if (dy !== null) this.scrollBy(dy);
  }
}
