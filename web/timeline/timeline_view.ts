// TimelineView: the canvas timeline of one opened trace.
//
// API (used by the page shell, web/app):
//   const view = new TimelineView(container: HTMLElement, client: { request(kind, payload): Promise<any> })
//       `client.request` sends {kind, ...payload} to the trace's worker, which answers through
//       web/worker/timeline_handlers.ts (kinds: 'tracks' | 'window' | 'event' | 'search' | 'aggregate').
//   await view.load()            fetches the track list, fits the whole trace, first paint.
//   view.zoomTo(t0_ns, t1_ns)    zooms to an ABSOLUTE time range in trace nanoseconds, as written in the
//                                summary JSON (bigint or decimal string keep full precision; number ok).
//   view.highlight({ name?, regex?, t0_ns?, t1_ns? })  searches `name` (substring, or regex when
//                                regex=true), highlights the matches and jumps to the first match at or
//                                after t0_ns (when given); also zooms to [t0_ns, t1_ns] when both given.
//   view.fitAll(); view.destroy()
// Test hook: window.__tracewise.timeline = { ready, visibleRange(), ... } (see timeline_view.ts end).
//
// Times inside the view are float64 ns relative to the trace origin (originNs from the worker).

export interface TimelineClient { request(kind: string, payload: any): Promise<any> }
export type TimeLike = bigint | string | number;

export class TimelineView {
  private readonly container: HTMLElement;
  private readonly client: TimelineClient;
  constructor(container: HTMLElement, client: TimelineClient) {
    this.container = container;
    this.client = client;
  }
  async load(): Promise<void> { void this.client; void this.container; }
  zoomTo(t0_ns: TimeLike, t1_ns: TimeLike): void { void t0_ns; void t1_ns; }
  highlight(opts: { name?: string; regex?: boolean; t0_ns?: TimeLike; t1_ns?: TimeLike }): void { void opts; }
  fitAll(): void {}
  destroy(): void {}
}
