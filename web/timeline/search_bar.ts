// The timeline's name search: the query box, its regex switch and match count, and the requests to
// the worker, where the core matches names (web/worker/timeline_handlers.ts, kind 'search': `run` a
// query, then `next` / `prev` from a time). The view owns what a match does (select and reveal it).
import { h as el } from './element';
import type { TimelineClient } from '../worker/protocol';

export class TimelineSearch {
  readonly input = el('input', {
    type: 'search',
    placeholder: 'Search names (Enter = next)',
    'aria-label': 'Search slices by name',
    'data-testid': 'timeline-search',
  });
  private readonly regexBox = el('input', { type: 'checkbox', 'aria-label': 'Regular expression' });
  private readonly countText = el('span', { class: 'twtl-count', 'data-testid': 'timeline-search-count' });
  private readonly prevButton = el(
    'button',
    { title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match' },
    '◀'
  );
  private readonly nextButton = el(
    'button',
    { title: 'Next match (Enter)', 'aria-label': 'Next match', 'data-testid': 'timeline-search-next' },
    '▶'
  );
  private state = { query: '', regex: false, count: 0, index: -1, active: false, ran: '' };
  pending = 0; // requests in flight

  // `changed`: the set of matches changed (redraw with the new highlight); `step(dir)`: the user asked
  // for the next (1) or previous (-1) match.
  constructor(
    private readonly client: TimelineClient,
    private readonly changed: () => void,
    step: (dir: number) => void
  ) {
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        step(e.shiftKey ? -1 : 1);
      }
      if (e.key === 'Escape') {
        this.input.value = '';
        void this.run();
      }
      e.stopPropagation();
    });
    this.input.addEventListener('search', () => {
      if (!this.input.value) void this.run();
    });
    this.regexBox.addEventListener('change', () => {
      if (this.state.query) void this.run();
    });
    this.prevButton.addEventListener('click', () => step(-1));
    this.nextButton.addEventListener('click', () => step(1));
  }

  // The controls, in toolbar order.
  controls(): HTMLElement[] {
    const regexLabel = el('label', { title: 'Regular expression' });
    regexLabel.append(this.regexBox, document.createTextNode(' regex'));
    return [this.input, regexLabel, this.prevButton, this.nextButton, this.countText];
  }

  get query(): string {
    return this.state.query;
  }
  get regex(): boolean {
    return this.state.regex;
  }
  get count(): number {
    return this.state.count;
  }
  get active(): boolean {
    return this.state.active;
  }
  // The last match stepped to (-1: none since the query ran).
  get index(): number {
    return this.state.index;
  }

  // Puts a query in the box (a link's, or a name from the dashboard); run() searches it.
  set(query: string, regex: boolean): void {
    this.input.value = query;
    this.regexBox.checked = regex;
  }

  // Runs the query in the box unless it is the one that ran last.
  async run(): Promise<void> {
    const query = this.input.value;
    const regex = this.regexBox.checked;
    const key = `${regex ? 'r' : 's'}:${query}`;
    if (key === this.state.ran) return;
    this.pending++;
    try {
      const r = await this.client.request('search', { op: 'run', query, regex });
      const refused = r.error; // the pattern was refused: why
      this.state = {
        query,
        regex,
        count: r.count ?? 0,
        index: -1,
        active: query.length > 0 && refused === undefined,
        ran: key,
      };
      this.countText.textContent =
        refused ?? (query ? `${this.state.count} match${this.state.count === 1 ? '' : 'es'}` : '');
      this.changed();
    } catch (e) {
      this.state = { query, regex, count: 0, index: -1, active: false, ran: '' };
      this.countText.textContent = String((e as Error)?.message ?? e);
    } finally {
      this.pending--;
    }
  }

  // Runs the last query again (another client of the same worker may have searched meanwhile).
  rerun(): Promise<void> {
    if (!this.state.ran || !this.state.query) return Promise.resolve();
    this.state.ran = '';
    return this.run();
  }

  // The next (dir > 0) or previous match from `fromNs` (after / before the event `fromId` at that
  // time, -1 for none); its event, or null when there is none.
  async step(dir: number, fromNs: number, fromId: number): Promise<{ id: number } | null> {
    this.pending++;
    try {
      const r = await this.client.request('search', { op: dir > 0 ? 'next' : 'prev', fromNs, fromId });
      const index = r.index ?? -1;
      if (index < 0 || !r.event) return null;
      this.state.index = index;
      this.countText.textContent = `${index + 1} / ${r.count}`;
      return r.event;
    } finally {
      this.pending--;
    }
  }
}
