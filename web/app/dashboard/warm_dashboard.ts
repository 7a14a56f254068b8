// The page's side of the spare worker's warm-up (web/worker/warm_up.ts): the dashboard of the
// warm-up's synthetic trace is built (kWarmBuilds times), into an element never put on the page,
// while the page waits for its first file. The first dashboard a page builds otherwise runs all its
// code cold (V8 interprets it, then compiles it as it goes): the same 256 MB file loaded twice in
// one page took 132 ms from the summary's arrival to shown the first time, 76-83 ms after; with
// this, a page's first load took 66 ms against 88 ms (site_ab medians of 5; bench/HISTORY.md,
// session 16). Nothing of it is shown, and it never touches the page's state: its tables are never
// connected (table.ts finds tables through the document), its charts never get a size (charts.ts
// makes them only then).
import type { OpenedFile } from '../files';
import type { Links } from './links';
import { buildDashboard } from './dashboard';

let started = false;

// How many times it is built. V8 compiles a function with its mid tier (Maglev) only once it has
// run a while: after one build, ~25-30 ms of that compiling still ran during a 256 MB load's last
// 0.1 s, on the second core the worker's summary needs, and the dashboard's own code ran slower
// meanwhile. After three: the open reply to ready took 78-100 ms against 94-107 (medians of 3, four
// runs each, alternating; bench/HISTORY.md, session 19). The three cost 168-169 ms of idle
// main-thread CPU in all (2 of 3 fresh pages; one took 430), in slices.
export const kWarmBuilds = 3;

// Builds the warm-up dashboard of `summaryJson` (a summary document) kWarmBuilds times unless that
// was begun before; `wanted()` false (a file is being opened) stops it at its next slice. Resolves
// how many builds ran to their end.
export async function warmDashboard(summaryJson: string, wanted: () => boolean): Promise<number> {
  if (started || !wanted()) return 0;
  started = true;
  let doc: any;
  try {
    doc = JSON.parse(summaryJson);
  } catch {
    return 0;
  }
  const summary = doc?.files?.[0];
  if (!summary || typeof summary !== 'object') return 0;
  const file: OpenedFile = {
    key: -1, name: String(summary.name ?? 'warm-up'), status: 'ready', client: null, progress: null, result: null,
    summary, schema: String(doc.schema), warnings: [], error: null,
  };
  const links: Links = { originNs: 0, range: () => {}, name: () => {} };
  let built = 0;
  while (built < kWarmBuilds && await buildDashboard(document.createElement('div'), [file], 0, () => links, () => {}, () => {}, wanted)) built++;
  return built;
}
