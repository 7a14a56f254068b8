// Stepping through the timeline's search matches: where the next / previous match is looked for
// from (the selected match, a link's time, the visible start), and the search a link or the page
// asks for. The box and the requests are search_bar.ts; selecting a match and bringing it into view
// is the view's (the host's) job.
import type { TimelineSearch } from './search_bar';

// Search steps from these times reach the first / last match (the core clamps them).
const kBeforeAll = -Number.MAX_VALUE;
const kAfterAll = Number.MAX_VALUE;

export interface StepHost {
  // The selected slice or instant, if any (times are relative ns).
  selected(): { id: number; startNs: number; instant?: boolean } | null;
  // The start of the visible range.
  visibleStart(): number;
  // Selects the event, and reveals and zooms to it.
  reveal(id: number): Promise<void>;
}

export class SearchSteps {
  constructor(
    private readonly search: TimelineSearch,
    private readonly host: StepHost
  ) {}

  // Runs the box's query if it changed, then selects and reveals the next / previous match: after
  // the selected match, or from `fromNs` when `fromTime` or none is selected. A new query starts at
  // its first (last, going back) match in time, as Perfetto and chrome://tracing do; a query already
  // stepped through without a selection goes on from the visible start.
  async step(dir: number, fromNs?: number, fromTime = false): Promise<void> {
    await this.search.run();
    if (!this.search.active || this.search.count === 0) return;
    const fresh = this.search.index < 0;
    const sel = this.host.selected();
    const cur = !fromTime && !fresh && sel && !sel.instant ? sel : null;
    const from = fromNs ?? (fresh ? (dir > 0 ? kBeforeAll : kAfterAll) : this.host.visibleStart());
    const event = await this.search.step(dir, cur ? cur.startNs : from, cur ? cur.id : -1);
    if (event) await this.host.reveal(event.id);
  }

  // Puts `query` in the box and goes to its first match at or after `fromNs` (else the first of the
  // trace), whatever was selected: a link names what to find.
  find(query: string, regex: boolean, fromNs?: number): void {
    this.search.set(query, regex);
    void this.step(1, fromNs ?? kBeforeAll, true);
  }

  // Empties the box and drops the highlight.
  clear(): void {
    this.search.set('', this.search.regex);
    void this.search.run();
  }
}
