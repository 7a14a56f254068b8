// Group and track names, fetched from the trace worker a page at a time for the rows on screen: a
// trace of a million processes never sends a million names to the page. The core cuts each name to
// a length a row can show. Pages are forgotten all at once past kMaxPages (scrolling through a
// million rows must not keep them all); a forgotten page is fetched again when its rows return.

export type FetchNames = (groups: boolean, first: number, count: number) => Promise<string[]>;

export const kNamePage = 256;
const kMaxPages = 1024;

export class TrackNames {
  private readonly pages = new Map<number, string[]>(); // key: page * 2 + (groups ? 1 : 0)
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly fetch: FetchNames,
    private readonly onLoaded: () => void,
    private readonly onError: (e: unknown) => void
  ) {}

  get pending(): number {
    return this.inFlight.size;
  }

  group(g: number): string | undefined {
    return this.pages.get(key(true, g))?.[g % kNamePage];
  }

  track(t: number): string | undefined {
    return this.pages.get(key(false, t))?.[t % kNamePage];
  }

  // Fetches the pages holding `ids` that are not here yet; resolves when they are.
  load(groups: boolean, ids: Iterable<number>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const id of ids) {
      const k = key(groups, id);
      if (this.pages.has(k)) continue;
      waits.push(this.inFlight.get(k) ?? this.fetchPage(groups, k));
    }
    return waits.length ? Promise.all(waits).then(() => {}) : Promise.resolve();
  }

  private fetchPage(groups: boolean, k: number): Promise<void> {
    const first = (k >> 1) * kNamePage;
    const p = this.fetch(groups, first, kNamePage).then(
      (names) => {
        if (this.pages.size >= kMaxPages) this.pages.clear();
        this.pages.set(k, names);
        this.inFlight.delete(k);
        this.onLoaded();
      },
      (e) => {
        // Kept empty (rows show no name) rather than asked for again on every frame.
        this.pages.set(k, []);
        this.inFlight.delete(k);
        this.onError(e);
      }
    );
    this.inFlight.set(k, p);
    return p;
  }
}

function key(groups: boolean, id: number): number {
  return Math.floor(id / kNamePage) * 2 + (groups ? 1 : 0);
}
