// The summary dashboard of the opened files: a rank picker when several files are open, the
// file's facts, headline cards, the time breakdown of every rank, charts, recommendations, the
// big tables, and every other summary section rendered generically. The ranks side by side are the
// Job view's (web/app/job).
import { h, clear } from '../dom';
import { postedTask } from '../../posted_task';
import { fmtBytes, fmtCount, fmtDuration, labelOf } from '../format';
import type { OpenedFile } from '../files';
import { devicesLine } from '../device_names';
import type { FileSummary, JobSummary } from '../summary_document';
import { headlineCards, renderCards } from './cards';
import { renderValue } from './generic';
import type { Links } from './links';
import { breakdownPanel } from './breakdown';
import { chartPanels } from './series';
import { recommendationsPanel } from './recommendations';
import { stepsPanel } from './steps';
import { idlePanel } from './idle';
import { importNotes } from './import_notes';
import { streamsPanel } from './streams';
import { annotationsPanel } from './annotations';
import { jobVerdictLine, verdictPanel } from './verdict';
import { classesNote, kernelsNote } from './kernels_note';

// Sections with their own view (or shown in the header), in the order the dashboard shows them.
// The big tables, rendered generically after the panels.
const kTableSections: readonly string[] = ['kernels', 'operators', 'collectives', 'launches', 'memory'];
const kHandled = new Set([
  'name',
  'by_name', // what the run comparison reads (docs/diff-schema.md), not a table to read
  'annotations',
  'bytes',
  'rank',
  'world_size',
  'devices',
  'display_time_unit',
  'model',
  'import',
  'recommendations',
  'temporal',
  'overlap',
  'kernel_classes_ns',
  'steps',
  'steps_source',
  'analysis_mode',
  'idle',
  'step_breakdown',
  'utilization',
  'stream_overlap',
  'verdict',
]);

export function section(title: string, id: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { class: 'panel', 'data-section': id }, h('h2', null, title), ...body);
}

function fileFacts(f: FileSummary, file: OpenedFile): HTMLElement {
  const facts: Array<[string, string]> = [];
  if (f.rank !== null && f.rank !== undefined)
    facts.push(['Rank', f.world_size ? `${f.rank} of ${f.world_size}` : String(f.rank)]);
  const devices = devicesLine(f.devices);
  if (devices) facts.push(['Devices', devices]);
  facts.push(['File', `${fmtBytes(f.bytes)}${file.result?.gzip ? ' gzip' : ''}`]);
  facts.push(['Events', fmtCount(f.import?.events ?? 0)]);
  if (f.model)
    facts.push([
      'Tracks',
      `${fmtCount(f.model.thread_tracks)} CPU threads, ${fmtCount(f.model.gpu_stream_tracks)} GPU streams`,
    ]);
  if (file.result) facts.push(['Loaded in', `${file.result.seconds.toFixed(2)} s`]);
  const mode = f.analysis_mode;
  if (mode && typeof mode === 'object')
    facts.push([
      'Analysis',
      `${mode.name === 'hta_compat' ? 'HTA-compatible' : String(mode.name ?? 'default')}, ${String(mode.kernel_rules ?? 'default')} kernel rules`,
    ]);
  return h(
    'div',
    { class: 'facts' },
    ...facts.map(([k, v]) => h('span', { class: 'fact' }, h('span', { class: 'muted' }, `${k} `), v))
  );
}

// Lets input and a frame in between slices (setTimeout(0)'s clamp was idle time paid per slice).
function yieldToBrowser(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : postedTask();
}

let generation = 0;
// A slice ends once it has run this long. Each yield lets a frame in, which lays out what was
// added so far, so shorter slices make the dashboard slower to show; longer ones bring the longest
// main-thread task of a load too close to a long task's 50 ms.
const kSliceMs = 20;
const kEagerParts = 4; // the file head, the job's and the file's verdicts, the headline cards: the first screen

// Panels below the headline cards are laid out and painted only once scrolled near
// (content-visibility: auto). Added in one step at the end of a load, the panels' style and layout
// were one long task right after the summary was shown (large files). Panels holding a form field
// (the tables' filters, the step picker) are lazy too: Chrome's autofill, when it scans the page's
// new fields, lays out each skipped panel that holds one, but their rows are skipped on their own
// (table.ts), so that scan stays short. A chart in a lazy panel is made only once it comes near the
// viewport (its size comes from layout: charts.ts).
function layoutWhenNear(n: Node): void {
  if (n instanceof HTMLElement && n.classList.contains('panel')) n.classList.add('layout-when-near');
}

// Builds the dashboard in slices of a few ms, so the main thread never blocks for long; resolves
// once everything is on screen (false when a newer render replaced this one). The first screen is
// shown at once; the panels below it are built off the page and added in one step at the end: added
// slice by slice, every frame in between laid the page out again.
export function renderDashboard(
  root: HTMLElement,
  files: OpenedFile[],
  selected: number,
  links: (file: OpenedFile) => Links,
  onSelect: (i: number) => void,
  onDownload: () => void,
  job: JobSummary | null = null
): Promise<boolean> {
  const gen = ++generation;
  return buildDashboard(root, files, selected, links, onSelect, onDownload, () => gen === generation, job);
}

// The same without replacing a render under way: it stops at its next slice once `current()` is
// false.
export async function buildDashboard(
  root: HTMLElement,
  files: OpenedFile[],
  selected: number,
  links: (file: OpenedFile) => Links,
  onSelect: (i: number) => void,
  onDownload: () => void,
  current: () => boolean,
  job: JobSummary | null = null
): Promise<boolean> {
  clear(root);
  if (files.length === 0) return true;
  const file = files[Math.min(selected, files.length - 1)];
  // The files on screen are ready: each has its summary (a whole one, a saved one or a link's).
  const f = file.summary!;
  const sections: Record<string, unknown> = f; // by key, for the sections rendered generically
  const l = links(file);
  const all = files.map((x) => x.summary!);

  const head = h('div', { class: 'file-head' });
  if (files.length > 1) {
    head.append(
      h(
        'div',
        { class: 'chips', role: 'tablist' },
        ...files.map((x, i) =>
          h(
            'button',
            {
              class: `chip${x === file ? ' active' : ''}`,
              role: 'tab',
              'aria-selected': x === file ? 'true' : 'false',
              onclick: () => onSelect(i),
            },
            x.summary?.rank !== null && x.summary?.rank !== undefined ? `rank ${x.summary.rank}` : x.name
          )
        )
      )
    );
  }
  head.append(
    h(
      'div',
      { class: 'file-title' },
      h('h1', { title: f.name }, f.name),
      h(
        'button',
        { class: 'btn small', onclick: onDownload, title: 'The summary JSON, as `tracewise summarize` prints it' },
        'Download summary JSON'
      )
    )
  );
  head.append(fileFacts(f, file));

  const notes: Record<string, () => HTMLElement | null> = {
    kernels: () => kernelsNote(f),
    kernel_classes: () => classesNote(f),
  };
  const generic = (key: string) => () => {
    const body = renderValue(key, sections[key], l, key);
    return body ? section(labelOf(key), key, notes[key]?.() ?? null, body) : null;
  };
  const span = (f.model?.last_ts_ns ?? 0) - (f.model?.first_ts_ns ?? 0);
  const parts: Array<() => Node | Node[] | null> = [
    () => head,
    () => (files.length > 1 ? jobVerdictLine(job) : null),
    () => verdictPanel(f, l),
    () => renderCards(headlineCards(f)),
    () => importNotes(f),
    () =>
      f.model?.gpu_ops === 0
        ? h(
            'p',
            { class: 'panel muted', 'data-section': 'no-gpu' },
            'This trace has no GPU kernels, copies or memsets, so the GPU analyses (utilisation, overlap, idle time, kernels) do not apply. ' +
              'Its CPU threads are in the timeline.'
          )
        : null,
    () => recommendationsPanel(f, l),
    () => breakdownPanel(all, f, l),
    () => chartPanels(f, l),
    () => idlePanel(f, l),
    () => stepsPanel(f, l),
    () => streamsPanel(f, l),
    () => annotationsPanel(f, l),
    ...kTableSections.filter((k) => sections[k] !== undefined && sections[k] !== null).map(generic),
    ...Object.keys(f)
      .filter(
        (k) => !kHandled.has(k) && !kTableSections.includes(k) && sections[k] !== null && sections[k] !== undefined
      )
      .map(generic),
    () =>
      h(
        'p',
        { class: 'muted foot-note' },
        `Times in ns from the trace, shown relative to its first event (+0 = ${fmtDuration(0)}; span ${fmtDuration(span)}).`
      ),
  ];
  let t0 = performance.now();
  const rest = document.createDocumentFragment(); // below the first screen, until the end
  for (const [index, part] of parts.entries()) {
    if (!current()) return false;
    let out: Node | Node[] | null = null;
    try {
      out = part();
    } catch (e) {
      // A section whose shape surprised a view: say so in place, keep the rest of the dashboard.
      out = h(
        'p',
        { class: 'msg error' },
        `A summary section could not be shown: ${String((e as Error)?.message ?? e)}`
      );
    }
    for (const n of Array.isArray(out) ? out : out ? [out] : []) {
      if (index >= kEagerParts) layoutWhenNear(n);
      (index >= kEagerParts ? rest : root).append(n);
    }
    if (performance.now() - t0 > kSliceMs) {
      await yieldToBrowser();
      t0 = performance.now();
    }
  }
  if (!current()) return false;
  root.append(rest);
  return true;
}
