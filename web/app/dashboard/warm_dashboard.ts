// The page's side of the spare worker's warm-up (web/worker/warm_up.ts): the dashboard of the
// warm-up's synthetic trace is built once, into an element never put on the page, while the page
// waits for its first file. The first dashboard a page builds otherwise runs all its code cold (V8
// interprets it, then compiles it as it goes): the same 256 MB file loaded twice in one page took
// 132 ms from the summary's arrival to shown the first time, 76-83 ms after; with this, a page's
// first load took 66 ms against 88 ms (site_ab medians of 5; bench/HISTORY.md, session 16).
// Nothing of it is shown, and it never touches the page's state: its tables are never connected
// (table.ts drops them), its charts never get a size (charts.ts makes them only then).
import type { OpenedFile } from '../files';
import type { Links } from './links';
import { buildDashboard } from './dashboard';

let started = false;

// Builds the warm-up dashboard of `summaryJson` (a summary document) unless one was built or begun
// before; `wanted()` false (a file is being opened) stops it at its next slice. Resolves whether it
// was built to the end.
export async function warmDashboard(summaryJson: string, wanted: () => boolean): Promise<boolean> {
  if (started || !wanted()) return false;
  started = true;
  let doc: any;
  try {
    doc = JSON.parse(summaryJson);
  } catch {
    return false;
  }
  const summary = doc?.files?.[0];
  if (!summary || typeof summary !== 'object') return false;
  const file: OpenedFile = {
    key: -1, name: String(summary.name ?? 'warm-up'), status: 'ready', client: null, progress: null, result: null,
    summary, schema: String(doc.schema), warnings: [], error: null,
  };
  const links: Links = { originNs: 0, range: () => {}, name: () => {} };
  return buildDashboard(document.createElement('div'), [file], 0, () => links, () => {}, () => {}, wanted);
}
