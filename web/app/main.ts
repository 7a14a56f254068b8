// The page: opening traces (drop anywhere, a dropped folder, file picker, ?url=, the sample
// button, two runs to compare), the loading strip, the Job (several ranks), Compare (a baseline and
// a candidate), Overview (summary dashboard) and Timeline tabs, and the test hook window.__tracewise.
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { byId, clear, h } from './dom';
import { FileSet, type FileInput, type OpenedFile } from './files';
import { prepareWhileIdle } from '../load/index';
import { isEmbedMode } from '../embed/embed_mode';
import { ProgressView } from './progress_view';
import { renderDashboard } from './dashboard/dashboard';
import { TimelineHost } from './timeline_host';
import { FlameHost } from './flame_host';
import { renderJobView } from './job/job_view';
import { jobLinks } from './job/job_links';
import { dropItems, droppedFiles } from './dropped_files';
import type { Links } from './dashboard/links';
import { createAppApi, kTabs, type CompareShown, type ViewState } from './app_api';
import { installIntegrations } from '../share/install';
import { tracewiseHook } from '../hook';
import { nameOfUrl, planUrls } from './url_plan';
import { narrowConnections, openPlannedUrls } from './url_consent';
import { CompareDiff } from './compare/compare_diff';
import { renderCompareView } from './compare/compare_view';
import { installCompareEntry } from './compare/compare_entry';
import { decodeSides, type Side } from './compare/compare_sides';
import { isDiffDocument } from './compare/diff_document';

// Connections are narrowed to the hosts of the page's own `?url=` before anything connects.
const urlPlan = planUrls(new URLSearchParams(location.search).getAll('url'), location.href);
narrowConnections(urlPlan);

const hook = tracewiseHook();
hook.ready = false;
hook.summary = null;
hook.error = null;

const files = new FileSet();
const embedded = isEmbedMode();
const progress = new ProgressView(byId('loads'), files);
const overview = byId('overview');
const jobRoot = byId('job');
const compareRoot = byId('compare');
const diff = new CompareDiff();
// (After the current render: the diff changes while render() asks it to update.)
diff.onChange = () => queueMicrotask(render);
let renderedCompareKeys = '';
const timelineRoot = byId('timeline');
const empty = byId('empty');
const timeline = new TimelineHost(timelineRoot);
// The flame graph (web/flame): a frame's slices go to the timeline; a timeline area comes back as a range.
const flameRoot = byId('flame');
const flame = new FlameHost(flameRoot, (file, name, lane) => {
  setTab('timeline');
  void timeline.highlightOnLane(file, name, lane);
});
timeline.areaAction = {
  label: 'Flame graph of the selection',
  run: (file, t0, t1, originNs) => {
    const i = files.ready.indexOf(file);
    if (i >= 0 && i !== selected) {
      selected = i;
      render();
    }
    void flame.show(file, { fromNs: t0, toNs: t1, originNs });
    setTab('flame');
  },
};
let selected = 0;
let tab: ViewState['tab'] = 'overview';
// Several traces opened: the Job view comes first once two of them are ready (not in an embedded
// view, which has no tabs to leave it by); a tab the user picks meanwhile wins.
let jobFirst = false;
let renderedKeys = '';
let renderedJobKeys = '';
let dashboardShown = true;
// A summary shown read-only in place of traces that are still being opened (a summary link with
// `?url=`): the link's dashboard at once rather than an empty page; the first ready trace replaces it.
let preview: { files: OpenedFile[]; onShown: () => void } | null = null;
let opening = 0; // open() calls whose files are not yet in the FileSet (it reads them first)
const onScreen = (): OpenedFile[] => (files.ready.length || !preview ? files.ready : preview.files);

// The Compare tab is there while the files on screen (or on their way) are two runs.
function comparing(): boolean {
  return preview ? preview.files.some((f) => f.side !== null) : files.compare;
}

// The Job tab is there while two files or more are shown or on their way (not two runs compared).
function jobPossible(): boolean {
  if (comparing()) return false;
  return (
    onScreen().length >= 2 || files.files.filter((f) => f.status === 'ready' || f.status === 'loading').length >= 2
  );
}

function setTab(t: typeof tab): void {
  if (t === 'job' && !jobPossible()) t = 'overview';
  if (t === 'compare' && !comparing()) t = 'overview';
  tab = t;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]'))
    b.setAttribute('aria-selected', String(b.dataset.tab === t));
  byId('job-tab').hidden = !jobPossible();
  byId('compare-tab').hidden = !comparing();
  const any = onScreen().length > 0;
  jobRoot.hidden = !any || t !== 'job';
  compareRoot.hidden = !any || t !== 'compare';
  overview.hidden = !any || t !== 'overview';
  timelineRoot.hidden = !any || t !== 'timeline';
  flameRoot.hidden = !any || t !== 'flame';
  document.body.classList.toggle('tab-timeline', any && t === 'timeline');
  if (t === 'timeline' && any) void timeline.showTab(files.ready[Math.min(selected, files.ready.length - 1)]);
  if (t === 'flame' && any) void flame.show(files.ready[Math.min(selected, files.ready.length - 1)] ?? null);
}

function linksFor(file: OpenedFile): Links {
  return {
    originNs: Number(file.summary?.model?.first_ts_ns ?? 0),
    range: (t0, t1, name) => {
      setTab('timeline');
      void timeline.zoomTo(file, t0, t1, name);
    },
    name: (name) => {
      setTab('timeline');
      void timeline.search(file, name);
    },
  };
}

// The Job view's clicks: that rank's file becomes the one shown (its Overview, its timeline).
function showRankRange(file: OpenedFile, t0: number, t1: number): void {
  const i = files.ready.indexOf(file);
  if (i >= 0 && i !== selected) {
    selected = i;
    render();
  }
  linksFor(file).range(t0, t1);
}

function downloadSummary(): void {
  const doc = files.document();
  if (!doc) return;
  const a = h('a', {
    href: URL.createObjectURL(new Blob([JSON.stringify(doc) + '\n'], { type: 'application/json' })),
    download: 'summary.json',
  });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function render(): void {
  progress.render();
  if (files.ready.length) preview = null;
  const ready = onScreen();
  const shown = preview; // its files' keys are their own FileSet's: the key says which set
  const fileKeys =
    (shown ? 'preview:' : '') +
    ready.map((f) => `${f.key}:${f.summary ? 1 : 0}${f.side ?? ''}`).join(',') +
    `|${files.htaCompat}|${shown ? 0 : files.job ? 1 : 0}`;
  const keys = `${fileKeys}|${selected}`;
  if (jobFirst && ready.length >= 2) {
    jobFirst = false;
    tab = 'job';
  } else if (jobFirst && !jobPossible()) jobFirst = false;
  const jobKeys = `${fileKeys}|${files.jobReady}|${files.files.length}|${jobPossible()}`; // whichever rank is selected
  if (jobKeys !== renderedJobKeys) {
    renderedJobKeys = jobKeys;
    const job = shown ? null : files.job;
    if (!jobPossible() || ready.length === 0) clear(jobRoot);
    else
      renderJobView(jobRoot, {
        files: ready,
        opened: files.files.length,
        job,
        pending: !shown && !files.jobReady,
        links: jobLinks(job, ready, showRankRange, (b, e) => {
          setTab('timeline');
          return timeline.showCollective(b, e);
        }),
        tableLinks: linksFor(ready[0]),
        onDownload: downloadSummary,
      });
  }
  if (!shown) diff.update(files);
  const compareKeys = `${fileKeys}|${comparing()}|${diff.state.kind}|${diff.doc ? diffSerial(diff.doc) : ''}`;
  if (compareKeys !== renderedCompareKeys) {
    renderedCompareKeys = compareKeys;
    if (!comparing()) clear(compareRoot);
    else {
      const names = (side: Side) => (shown?.files ?? files.files).filter((f) => f.side === side).map((f) => f.name);
      renderCompareView(compareRoot, { state: diff.state, base: names('base'), cand: names('cand') });
    }
  }
  if (keys !== renderedKeys) {
    renderedKeys = keys;
    timeline.setFiles(files.files, shown ? null : files.job);
    flame.setFiles(files.files);
    dashboardShown = false;
    void renderDashboard(
      overview,
      ready,
      selected,
      linksFor,
      (i) => {
        selected = i;
        render();
      },
      downloadSummary,
      shown ? null : files.job
    ).then((done) => {
      if (done) {
        dashboardShown = true;
        updateHook();
      }
      if (done && shown && preview === shown) shown.onShown();
    });
  }
  // The drop card stays while nothing is loading or shown (no file yet, or every file failed), so
  // the next file can be opened from there.
  empty.hidden = ready.length > 0 || files.files.some((f) => f.status === 'loading');
  byId('tabs').hidden = ready.length === 0;
  syncSummaryActions();
  setTab(tab);
  updateHook();
  // For the next file; not in an embedded view, which shows the file its host gave it (a spare there
  // would hold a worker and its heap in every embed of a docs page for a file that rarely comes).
  // With a trace on screen the user may be working with it, and the spare waits for a quiet moment.
  if (!embedded && nothingLoading()) prepareWhileIdle(nothingLoading, onScreen().length > 0);
}

function nothingLoading(): boolean {
  return opening === 0 && files.settled;
}

// The share and export buttons (#share-actions) act on the summary on screen: without one they are
// disabled rather than answering "open a trace first".
function syncSummaryActions(): void {
  const any = onScreen().some((f) => f.summary);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#share-actions button')) b.disabled = !any;
}

// The hook: ready once every opened file has settled and its summary is on screen.
function updateHook(): void {
  const errors = files.files.filter((f) => f.error && f.status === 'error');
  hook.error = errors.length ? `${errors[errors.length - 1].name}: ${errors[errors.length - 1].error!.message}` : null;
  const doc = files.document();
  hook.summary = doc;
  const wasReady = hook.ready;
  hook.ready =
    files.files.length > 0 &&
    files.settled &&
    files.jobReady &&
    dashboardShown &&
    (!files.compare || diff.state.kind === 'ready' || diff.state.kind === 'failed');
  hook.compare = files.compare || comparing() ? { state: diff.state.kind, diff: diff.doc, sides: files.sides } : null;
  for (const f of errors)
    if (!announced.has(f.key)) {
      announced.add(f.key);
      app.errors.emit(f.name, f.error!.message, f.error!.code);
    }
  if (hook.ready && !wasReady && doc) app.loaded.emit(doc);
}
const announced = new Set<number>();

files.onChange(render);

function getViewState(): ViewState {
  const st: ViewState = { tab, file: selected };
  const tl = timeline.viewState();
  if (tl !== undefined) st.timeline = tl;
  const sides = files.sides;
  if (sides) {
    st.compare = sides;
    if (timeline.compareStep !== null) st.step = timeline.compareStep;
  }
  return st;
}

function setViewState(st: Partial<ViewState>): void {
  if (typeof st.file === 'number' && st.file >= 0 && st.file < files.ready.length) selected = Math.floor(st.file);
  if (st.compare !== undefined) files.setSides(st.compare);
  if (typeof st.step === 'number') void timeline.setCompareStep(st.step, false);
  if (st.tab !== undefined && kTabs.includes(st.tab)) {
    tab = st.tab;
    jobFirst = false;
  }
  render();
  if (st.timeline !== undefined) void timeline.setViewState(files.ready[selected] ?? null, st.timeline);
}

// Shows `doc` read-only until one of the traces being opened is ready; false when none is being
// opened (or `doc` is not a summary document). A FileSet of its own reads the document, so the
// loading traces go on loading.
function previewSummary(doc: unknown, name: string, onShown: () => void, compare?: CompareShown): boolean {
  if (!opening && !files.files.some((f) => f.status === 'loading')) return false;
  const set = new FileSet();
  if (!set.showDocument(doc, name, compare?.sides ?? null)) return false;
  preview = { files: set.files, onShown };
  if (compare) showGivenDiff(compare.diff);
  render();
  return true;
}

// Extensions (share links, embed mode, export) plug in through this object: see app_api.ts.
export const app = createAppApi({
  files,
  open: (inputs) => open(inputs),
  showSummary: (doc, name, compare) => {
    if (compare) showGivenDiff(compare.diff); // first: the document's files need not be compared again
    return files.showDocument(doc, name, compare?.sides ?? null);
  },
  getDiff: () => diff.doc,
  diffMarkdown: () => diff.markdown(),
  previewSummary,
  getViewState,
  setViewState,
  overview,
});
files.onProgress = (f) => {
  if (f.progress) app.progress.emit(f.name, f.progress);
};

function showGivenDiff(doc: unknown): void {
  if (isDiffDocument(doc)) diff.given(doc);
  tab = 'compare';
  jobFirst = false;
}

// What identifies a diff document on screen (a new one is drawn again).
const diffSerials = new WeakMap<object, number>();
let nextDiffSerial = 1;
function diffSerial(doc: object): number {
  let n = diffSerials.get(doc);
  if (n === undefined) diffSerials.set(doc, (n = nextDiffSerial++));
  return n;
}

// `sides`: one per input (Compare mode), else null.
function open(inputs: FileInput[], sides: Side[] | null = null): void {
  if (!inputs.length) return;
  selected = 0;
  tab = sides ? 'compare' : 'overview';
  jobFirst = !embedded && !sides;
  hook.ready = false;
  hook.error = null;
  progress.reset();
  clear(overview);
  clear(jobRoot);
  renderedKeys = '';
  renderedJobKeys = '';
  renderedCompareKeys = '';
  preview = null;
  opening++;
  void files.open(inputs, sides).finally(() => {
    opening--;
  });
}

// --- ways to open ------------------------------------------------------------------------------
for (const id of ['file-input', 'file-input-2']) {
  const input = byId<HTMLInputElement>(id);
  // The visible button is the input's <label>: make it reachable and usable from the keyboard.
  const label = input.closest('label');
  if (label) {
    label.tabIndex = 0;
    label.setAttribute('role', 'button');
    label.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        input.click();
      }
    });
  }
  input.addEventListener('change', () => {
    open([...(input.files ?? [])].map((f) => ({ name: f.name, blob: f })));
    input.value = '';
  });
}

const overlay = byId('drop-overlay');
let dragDepth = 0;
const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
window.addEventListener('dragenter', (e) => {
  if (hasFiles(e)) {
    dragDepth++;
    overlay.hidden = false;
    e.preventDefault();
  }
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) overlay.hidden = true;
});
window.addEventListener('dragover', (e) => {
  if (hasFiles(e)) {
    e.preventDefault();
    e.dataTransfer!.dropEffect = 'copy';
  }
});
window.addEventListener('drop', (e) => {
  dragDepth = 0;
  overlay.hidden = true;
  if (!hasFiles(e)) return; // text dropped into a field keeps its default behaviour
  e.preventDefault();
  // Folders are read after the event (their entries stay readable); the items only during it.
  const items = dropItems(e.dataTransfer);
  opening++;
  void droppedFiles(items)
    .then(
      (inputs) => (inputs.length ? open(inputs) : noTraceDropped()),
      () => open(items.flatMap((i) => (i.file ? [{ name: i.file.name, blob: i.file }] : [])))
    )
    .finally(() => {
      opening--;
    });
});

// A dropped folder without a trace in it: said on the drop card (what stays on screen otherwise).
function noTraceDropped(): void {
  const card = empty.querySelector('.drop-card');
  card?.querySelector('.drop-note')?.remove();
  card?.append(
    h(
      'p',
      { class: 'msg warning drop-note' },
      'The dropped folder holds no .json or .json.gz file (nor its subfolders).'
    )
  );
}

for (const b of document.querySelectorAll<HTMLButtonElement>('[data-sample]')) {
  b.addEventListener('click', () =>
    open([
      { name: nameOfUrl(b.dataset.sample!, location.href), url: new URL(b.dataset.sample!, document.baseURI).href },
    ])
  );
}

// `?url=`: capped, http(s) only, other hosts only once the reader agrees (url_plan.ts, url_consent.ts).
// A link of a comparison (`#cmp=`, one side per `url=`) opens in Compare mode.
const linkSides = decodeSides(new URLSearchParams(location.hash.slice(1)).get('cmp'));
openPlannedUrls(document.querySelector('main')!, urlPlan, (urls) =>
  open(
    urls.map(({ name, url }) => ({ name, url })),
    linkSides && linkSides.length === urls.length ? linkSides : null
  )
);

// Compare mode: two pickers (a side each), or the traces on screen as the baseline.
installCompareEntry(document.querySelector<HTMLElement>('.topbar .actions')!, byId('compare-entry'), {
  openBoth: (base, cand) =>
    open([...base, ...cand], [...base.map((): Side => 'base'), ...cand.map((): Side => 'cand')]),
  withCandidate: (cand) => {
    tab = 'compare';
    jobFirst = false;
    hook.ready = false;
    opening++;
    void files.addCandidate(cand).finally(() => {
      opening--;
    });
  },
  canKeepOpen: () => files.ready.some((f) => f.load) && !files.compare,
});

byId<HTMLInputElement>('hta-compat').addEventListener('change', (e) => {
  files.htaCompat = (e.target as HTMLInputElement).checked;
  void files.refreshSummaries();
});

for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]'))
  b.addEventListener('click', () => {
    jobFirst = false;
    setTab(b.dataset.tab as typeof tab);
  });

// Offline once loaded: a network-first service worker keeps the last copy of the site.
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}
render();
// Share links, embed mode, the postMessage API and exports (web/share, web/embed, web/export).
installIntegrations(app, {
  main: document.querySelector('main')!,
  actions: document.querySelector<HTMLElement>('.topbar .actions')!,
});
syncSummaryActions(); // the buttons exist from here on
