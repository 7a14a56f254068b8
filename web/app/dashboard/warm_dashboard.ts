// The page's side of the spare worker's warm-up (web/load/warm/warm_up.ts): the dashboard of the
// warm-up's synthetic trace is built (kWarmBuilds times), into an element never put on the page,
// while the page waits for its first file. The first dashboard a page builds otherwise runs all its
// code cold (V8 interprets it, then compiles it as it goes), and the same file loaded a second
// time in one page is shown sooner after its summary arrives (docs/performance.md, "Warm
// dashboards"). Nothing of it is shown, and it never touches the page's state: its tables are never
// connected (table.ts finds tables through the document), its charts never get a size (charts.ts
// makes them only then).
import type { OpenedFile } from '../files';
import type { Links } from './links';
import { buildDashboard } from './dashboard';
import { type FileSummary, field, isObject } from '../summary_document';

let started = false;

// How many times it is built. V8 compiles a function with its mid tier (Maglev) only once it has
// run a while: after one build, some of that compiling still ran during a load's last moments, on
// the second core the worker's summary needs, and the dashboard's own code ran slower meanwhile.
// Three builds move it out of the load, for idle main-thread CPU spent in slices while the page
// waits for a file.
export const kWarmBuilds = 3;

// Builds the warm-up dashboard of `summaryJson` (a summary document) kWarmBuilds times unless that
// was begun before; `wanted()` false (a file is being opened) stops it at its next slice. Resolves
// how many builds ran to their end.
export async function warmDashboard(summaryJson: string, wanted: () => boolean): Promise<number> {
  if (started || !wanted()) return 0;
  started = true;
  let doc: unknown;
  try {
    doc = JSON.parse(summaryJson);
  } catch {
    return 0;
  }
  const summary = field(field(doc, 'files'), '0');
  if (!isObject(summary)) return 0;
  const file: OpenedFile = {
    key: -1,
    name: String(summary.name ?? 'warm-up'),
    status: 'ready',
    load: null,
    progress: null,
    result: null,
    summary: summary as FileSummary, // the core's summary of the warm-up's trace
    schema: String(field(doc, 'schema')),
    warnings: [],
    error: null,
  };
  const links: Links = { originNs: 0, range: () => {}, name: () => {} };
  let built = 0;
  while (
    built < kWarmBuilds &&
    (await buildDashboard(
      document.createElement('div'),
      [file],
      0,
      () => links,
      () => {},
      () => {},
      wanted
    ))
  )
    built++;
  return built;
}
