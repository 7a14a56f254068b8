// The dashboard's big tables laid out before the summary is complete. While a file's worker computes
// the summary, it posts the sections that are final already (SummaryPart: operators, launches and
// memory first, then kernels and collectives); their tables are built off the page here, one section
// per task, and the dashboard takes them instead of building them again once the summary has come
// (docs/performance.md, "Summary sections sent early").
// Only one file's sections are kept: the file being opened last.
import { postedTask } from '../../posted_task';
import { renderValue } from './generic';
import type { Links } from './links';

// The sections built early: the tables the dashboard renders generically (dashboard.ts).
export const kEarlySections: readonly string[] = ['kernels', 'operators', 'collectives', 'launches', 'memory'];

interface Early {
  file: object;
  htaCompat: boolean;
  bodies: Map<string, HTMLElement | null>; // built, not yet taken
  taken: Set<string>; // taken (or built by the dashboard itself): never built here
  queue: Array<[string, unknown]>;
  links: Links;
  running: boolean;
}

let early: Early | null = null;

// Lays out the early sections in `part` (a SummaryPart's keys) for `file`, in tasks of their own.
// `links` are the file's, made from the first part (which holds the model section: the tables show
// times relative to its first timestamp); later parts use those.
export function layOutEarly(file: object, htaCompat: boolean, part: Record<string, unknown>, links: Links): void {
  if (!early || early.file !== file || early.htaCompat !== htaCompat) {
    if (!('model' in part)) return; // a later part whose first did not come: nothing to time from
    early = { file, htaCompat, bodies: new Map(), taken: new Set(), queue: [], links, running: false };
  }
  const e = early;
  for (const key of kEarlySections) if (key in part) e.queue.push([key, part[key]]);
  if (!e.running) void run(e);
}

// The first section at once (in the task of the part's message), each next one in a task of its
// own: the worker's next message (the summary itself) may come in between.
async function run(e: Early): Promise<void> {
  e.running = true;
  while (e.queue.length && early === e) {
    const [key, value] = e.queue.shift()!;
    if (e.taken.has(key)) continue;
    try {
      e.bodies.set(key, renderValue(key, value, e.links, key));
    } catch {
      /* the dashboard builds it again and says why */
    }
    await postedTask();
  }
  e.running = false;
}

// The body laid out early for section `key` of `file`'s summary made with `htaCompat`, once; undefined
// when there is none (the caller builds it). Asking marks the key taken either way, so a section is
// never built twice.
export function takeEarly(file: object, htaCompat: boolean, key: string): { body: HTMLElement | null } | undefined {
  const e = early;
  if (!e || e.file !== file || e.htaCompat !== htaCompat) return undefined;
  e.taken.add(key);
  if (!e.bodies.has(key)) return undefined;
  const body = e.bodies.get(key)!;
  e.bodies.delete(key);
  if (e.bodies.size === 0 && e.queue.length === 0) early = null;
  return { body };
}
