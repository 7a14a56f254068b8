// The Job view: several traces (one per rank) seen as one job, first thing after opening them. Its
// verdict and clocks, the stragglers with their evidence, the ranks' time on one scale, the waits
// per rank and collective, the collectives matched across ranks, and the ranks side by side. Reads
// the document's `job` (core/job, docs/summary-schema.md "The job analysis") and each file's summary.
import { clear, h } from '../dom';
import { fmtCount } from '../format';
import type { OpenedFile } from '../files';
import type { JobSummary } from '../summary_document';
import type { Links } from '../dashboard/links';
import { jobVerdictLine } from '../dashboard/verdict';
import { ranksPanel } from '../dashboard/ranks';
import type { JobLinks } from './job_links';
import { stragglersPanel } from './stragglers';
import { rankBarsPanel } from './rank_bars';
import { waitHeatmapPanel } from './wait_heatmap';
import { collectivesPanel } from './collectives_panel';
import { appendParts, type ViewPart } from '../view_parts';

export interface JobViewInput {
  files: OpenedFile[]; // the ready files on screen
  opened: number; // files opened in all (the others are loading, or failed)
  job: JobSummary | null;
  pending: boolean; // the job analysis is still being computed
  links: JobLinks;
  tableLinks: Links; // for the ranks table (it has no time ranges)
  onDownload: () => void; // the summary document, job included
}

function clockText(job: JobSummary): string | null {
  const c = job.clock;
  if (!c) return null;
  if (c.aligned && c.method === 'collective_ends')
    return `Clocks aligned on the ends of matched collectives${c.reference ? ` (reference: ${c.reference})` : ''}.`;
  return 'Clocks as written: no collective matched across the ranks to align them on.';
}

function head(input: JobViewInput): HTMLElement {
  const { files, job } = input;
  const worlds = new Set(files.map((f) => f.summary?.world_size).filter((w) => typeof w === 'number'));
  const facts = [
    `${fmtCount(files.length)} traces`,
    worlds.size === 1 ? `world size ${[...worlds][0]}` : null,
    job ? clockText(job) : null,
  ].filter((x): x is string => !!x);
  // Classes of its own: the Overview's file head (.file-head, .facts) is what its tests and embeds select.
  return h(
    'div',
    { class: 'job-head' },
    h(
      'div',
      { class: 'job-title' },
      h('h1', null, `Job: ${fmtCount(job?.rank_count ?? files.length)} ranks`),
      h(
        'button',
        {
          class: 'btn small job-download',
          onclick: input.onDownload,
          title: 'The summary JSON, as `tracewise summarize` prints it',
        },
        'Download summary JSON'
      )
    ),
    h('div', { class: 'job-facts' }, ...facts.map((t) => h('span', null, t)))
  );
}

// What the view cannot show, and why (no job analysis yet, or a document rebuilt without it).
function status(input: JobViewInput): HTMLElement | null {
  const { files, opened, job, pending } = input;
  if (files.length < 2)
    return h(
      'p',
      { class: 'panel muted', 'data-section': 'job-status' },
      `The job needs two traces or more: ${files.length} of ${opened} ready so far.`
    );
  if (pending && !job?.ranks)
    return h('p', { class: 'panel muted', 'data-section': 'job-status' }, 'Matching collectives across the ranks…');
  if (!job?.ranks)
    return h(
      'p',
      { class: 'msg warning', 'data-section': 'job-status' },
      'These summaries were saved without the job analysis (or made by an older tracewise), so stragglers, ' +
        "clock offsets, waits and collectives across ranks are not known: open the ranks' trace files together " +
        'for them. Below: what each summary holds.'
    );
  return null;
}

function notes(job: JobSummary | null): HTMLElement | null {
  if (!job?.notes?.length) return null;
  return h(
    'section',
    { class: 'panel job-notes', 'data-section': 'job-notes' },
    h('h2', null, 'Notes'),
    h('ul', null, ...job.notes.map((n) => h('li', null, n)))
  );
}

export function renderJobView(root: HTMLElement, input: JobViewInput): void {
  clear(root);
  const { files, job, links } = input;
  const summaries = files.map((f) => f.summary ?? undefined);
  const parts: ViewPart[] = [
    () => head(input),
    () => status(input),
    () => (files.length > 1 ? jobVerdictLine(job) : null),
    () => notes(job),
    () => stragglersPanel(job, links),
    () => (files.length > 1 ? rankBarsPanel(summaries, job) : null),
    () => waitHeatmapPanel(job, links),
    () => collectivesPanel(job),
    () =>
      ranksPanel(
        files.map((f) => f.summary!),
        input.tableLinks,
        job
      ),
  ];
  appendParts(root, parts, 'job view');
}
