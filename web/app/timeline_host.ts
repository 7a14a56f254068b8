// Hosts the timeline of the opened files: one TimelineView (web/timeline) per file, created when
// first shown, talking to that file's worker; and, when the files are ranks of one job, the
// aligned view of all ranks (web/timeline/aligned: one group of GPU streams per rank on the
// reference rank's clock, a rank's CPU threads on demand), the default once the job is known. A
// picker switches between them; with a job, the visible window goes along (converted through the
// ranks' clock offsets). Dashboard links go to their own file's view.
//
// API for the page (web/app/main.ts) and the Job view:
//   setFiles(files, job)            the files (and the job over them) changed
//   showTab(file)                   the Timeline tab is shown with `file` picked on the dashboard
//   show(file)                      a file's own view (null: what was shown)
//   showCollective(beginNsRef, endNsRef): Promise<boolean>
//                                   the aligned view zoomed to a collective instance (absolute ns on
//                                   the reference rank's clock: job.collectives.worst[].begin_ns /
//                                   end_ns), with a margin; false when there is no aligned view
//   zoomTo(file, t0, t1, name?), search(file, name), viewState(), setViewState(file, state)
//   highlightOnLane(file, name, lane)  a flame graph frame's slices (its thread's lane) highlighted
//   areaAction                      a button beside a file view's area aggregate: run(file, t0, t1, originNs)
//   compareStep / setCompareStep(step)
//                                   Compare mode (files with sides): the aligned view is both runs
//                                   stacked (web/app/compare/compare_ranks.ts), aligned at the start
//                                   of the step picked in the bar (the first step both sides have)
import { TimelineView } from '../timeline/index';
import { AlignedClient } from '../timeline/aligned/aligned_client';
import { CpuPicker } from '../timeline/aligned/cpu_picker';
import { convertWindow } from '../timeline/aligned/rank_clock';
import { SharedNames } from '../timeline/worker_names';
import { tracewiseHook } from '../hook';
import { h, clear } from './dom';
import type { OpenedFile } from './files';
import { jobRankFiles, jobRanksKey, type JobRankFile } from './job_ranks';
import type { JobSummary } from './summary_document';
import { compareFiles, compareRankFiles, compareSteps, stepSpanNs } from './compare/compare_ranks';

interface Mounted {
  view: TimelineView;
  el: HTMLElement;
  loaded: Promise<void>;
}
type Choice = { kind: 'aligned' } | { kind: 'file'; file: OpenedFile };
interface Aligned {
  key: string;
  ranks: JobRankFile[];
  client: AlignedClient;
  mounted: Mounted | null;
}

const kAligned = 'aligned';
// showCollective's margin on each side, as a share of the instance's span (and at least this many ns).
const kCollectiveMargin = 0.5;
const kCollectiveMinMarginNs = 20_000;

export class TimelineHost {
  private views = new Map<number, Mounted>();
  private shared = new Map<number, SharedNames>(); // each file's worker, shared by its views
  private aligned: Aligned | null = null;
  private choice: Choice | null = null;
  private picked = false; // the user (or a link) chose what is shown: the job's arrival keeps it
  private tabFile: OpenedFile | null = null;
  private readonly picker = h('select', { class: 'file-pick', 'aria-label': 'File shown in the timeline' });
  private readonly cpu = new CpuPicker((rank, on) => this.setCpu(rank, on));
  private readonly stage = h('div', { class: 'tl-stage' });
  private readonly none = h(
    'p',
    { class: 'tl-none muted' },
    'No timeline: what is open is a saved summary, not a trace. Open the trace file itself to see its timeline.'
  );
  private files: OpenedFile[] = [];
  areaAction: { label: string; run: (file: OpenedFile, t0: number, t1: number, originNs: string) => void } | null =
    null;
  private all: OpenedFile[] = [];
  private job: JobSummary | null = null;
  // Compare mode: the step the runs are aligned at (null: each file's first step), and its picker.
  private step: number | null = null;
  private readonly stepPick = h('select', {
    class: 'cmp-step-pick',
    'aria-label': 'Align both runs at the start of step',
  });
  onStep: (step: number | null) => void = () => {};

  constructor(root: HTMLElement) {
    this.picker.addEventListener('change', () => {
      this.picked = true;
      if (this.picker.value === kAligned) void this.showAligned(true);
      else {
        const f = this.files.find((x) => String(x.key) === this.picker.value);
        if (f) void this.showFile(f, true);
      }
    });
    this.cpu.el.hidden = true;
    this.stepPick.hidden = true;
    this.stepPick.addEventListener('change', () => {
      const n = Number(this.stepPick.value);
      void this.setCompareStep(Number.isInteger(n) ? n : null, true);
    });
    root.append(h('div', { class: 'tl-bar' }, this.picker, this.stepPick, this.cpu.el), this.stage);
    tracewiseHook().timelineHost = {
      showCollective: (b: number, e: number) => this.showCollective(b, e),
      // 'aligned', the shown file's name, or null.
      shown: () => (this.choice?.kind === 'file' ? this.choice.file.name : (this.choice?.kind ?? null)),
    };
  }

  // The set of files (or the job over them) changed: drop the views of files that are gone, and the
  // aligned view when its ranks changed.
  setFiles(files: OpenedFile[], job: JobSummary | null = null): void {
    this.all = files;
    this.job = job;
    this.files = files.filter((f) => f.status === 'ready' && f.load);
    if (this.tabFile && !this.files.includes(this.tabFile)) {
      // Other files: nothing chosen among them yet.
      this.tabFile = null;
      this.picked = false;
    }
    for (const [key, v] of this.views) {
      if (!this.files.some((f) => f.key === key)) {
        v.view.destroy();
        v.el.remove();
        this.views.delete(key);
      }
    }
    for (const key of this.shared.keys()) if (!this.files.some((f) => f.key === key)) this.shared.delete(key);
    const compared = compareFiles(this.files);
    const ranks = compared ? compareRankFiles(compared, this.validStep(compared)) : jobRankFiles(this.files, job);
    const key = ranks ? `${compared ? 'compare:' : ''}${jobRanksKey(ranks)}` : '';
    if ((this.aligned?.key ?? '') !== key) {
      this.dropAligned();
      if (ranks) this.aligned = { key, ranks, client: this.alignedClient(ranks), mounted: null };
    }
    clear(this.picker);
    if (this.aligned)
      this.picker.append(
        h('option', { value: kAligned }, compared ? 'Baseline and candidate (stacked)' : 'All ranks (aligned)')
      );
    this.syncSteps(compared);
    for (const f of this.files)
      this.picker.append(
        h('option', { value: String(f.key) }, f.summary?.rank != null ? `rank ${f.summary.rank} — ${f.name}` : f.name)
      );
    this.picker.hidden = this.picker.options.length < 2;
    if (this.choice?.kind === 'file' && !this.files.includes(this.choice.file)) this.choice = null;
    if (this.choice?.kind === 'aligned' && !this.aligned) this.choice = null;
    this.syncBar();
  }

  // The Timeline tab is shown with `file` picked on the dashboard: a file picked there since the
  // last time is shown; else what the timeline shows stays, and until something was chosen the
  // aligned view is the default once the job is known.
  async showTab(file: OpenedFile | null): Promise<TimelineView | null> {
    const fresh = this.tabFile !== null && file !== this.tabFile;
    this.tabFile = file;
    if (fresh && file) {
      this.picked = true;
      return this.showFile(file, true);
    }
    if (this.aligned && (!this.picked || this.choice?.kind === 'aligned')) return this.showAligned(false);
    return this.show(this.choice?.kind === 'file' ? this.choice.file : file);
  }

  // Shows the timeline of `file` (what was shown when null) and resolves once it has loaded.
  show(file: OpenedFile | null = null): Promise<TimelineView | null> {
    if (!file && this.choice?.kind === 'aligned') return this.showAligned(false);
    return this.showFile(file ?? (this.choice?.kind === 'file' ? this.choice.file : null), false);
  }

  async showCollective(beginNsRef: number, endNsRef: number): Promise<boolean> {
    if (!this.aligned || !(endNsRef >= beginNsRef)) return false;
    this.picked = true;
    const view = await this.showAligned(false);
    if (!view) return false;
    const m = Math.max((endNsRef - beginNsRef) * kCollectiveMargin, kCollectiveMinMarginNs);
    // The aligned view's times are the reference clock's, relative to its origin: zoomTo's absolute
    // ns are the reference rank's own.
    view.zoomTo(beginNsRef - m, endNsRef + m);
    return true;
  }

  async zoomTo(file: OpenedFile, t0: number, t1: number, name?: string): Promise<void> {
    this.picked = true;
    const view = await this.showFile(file, false);
    if (!view) return;
    if (name) {
      view.highlight({ name, t0_ns: t0, t1_ns: t1 });
      return;
    }
    // A plain range link shows the range as it is: an earlier search would draw it dimmed.
    view.zoomTo(t0, t1);
    view.clearSearch();
  }

  // The current view's own state (range, selection, search...); `aligned` marks the job's view.
  viewState(): unknown {
    const m = this.mountedOf(this.choice);
    if (!m) return undefined;
    const s = m.view.getViewState();
    return this.choice?.kind === 'aligned' ? { ...s, aligned: true } : s;
  }

  async setViewState(file: OpenedFile | null, state: unknown): Promise<void> {
    const aligned = typeof state === 'object' && state !== null && (state as { aligned?: unknown }).aligned === true;
    if (aligned || file) this.picked = true;
    const view = aligned && this.aligned ? await this.showAligned(false) : await this.showFile(file, false);
    view?.setViewState(state as Parameters<TimelineView['setViewState']>[0]);
  }

  async highlightOnLane(file: OpenedFile, name: string, lane: number): Promise<void> {
    this.picked = true;
    const view = await this.showFile(file, false);
    view?.highlightOnLane(name, lane);
  }

  async search(file: OpenedFile, name: string): Promise<void> {
    this.picked = true;
    const view = await this.showFile(file, false);
    view?.highlight({ name });
  }

  // --- Compare mode ------------------------------------------------------------------------------

  get compareStep(): number | null {
    return this.step;
  }

  // Aligns both runs at the start of `step` (a step every file has; else each file's first step);
  // with `zoom`, the stacked view shows that step (the longest of its instances).
  async setCompareStep(step: number | null, zoom: boolean): Promise<void> {
    this.step = step;
    const compared = compareFiles(this.files);
    if (!compared) return;
    this.setFiles(this.all, this.job);
    this.onStep(this.step);
    if (!zoom) return;
    this.picked = true;
    const view = await this.showAligned(false);
    const span = stepSpanNs(compared, this.validStep(compared));
    if (view && span) view.zoomTo(span.begin, span.end);
  }

  private validStep(compared: OpenedFile[]): number | null {
    const steps = compareSteps(compared);
    if (this.step !== null && steps.includes(this.step)) return this.step;
    return steps[0] ?? null;
  }

  private syncSteps(compared: OpenedFile[] | null): void {
    const steps = compared ? compareSteps(compared) : [];
    this.stepPick.hidden = !compared || steps.length === 0;
    const want = compared ? this.validStep(compared) : null;
    const values = steps.map(String).join(',');
    if (this.stepPick.dataset.steps !== values) {
      this.stepPick.dataset.steps = values;
      clear(this.stepPick);
      for (const n of steps) this.stepPick.append(h('option', { value: String(n) }, `aligned at step ${n}`));
    }
    if (want !== null) this.stepPick.value = String(want);
  }

  // --- views -------------------------------------------------------------------------------------

  private sharedOf(f: OpenedFile): SharedNames {
    let s = this.shared.get(f.key);
    if (!s) this.shared.set(f.key, (s = new SharedNames(f.load!.timeline)));
    return s;
  }

  private alignedClient(ranks: JobRankFile[]): AlignedClient {
    const client = new AlignedClient(
      ranks.map((r) => ({
        client: this.sharedOf(r.file),
        label: r.label,
        file: r.file.name,
        offsetNs: r.offsetNs,
        record: () => r.file.load!.rank(false).then((x) => x.json),
      }))
    );
    client.onCpu = (rank, on) => this.cpu.check(rank, on);
    return client;
  }

  private dropAligned(): void {
    const m = this.aligned?.mounted;
    if (m) {
      m.view.destroy();
      m.el.remove();
    }
    this.aligned = null;
  }

  private mount(client: ConstructorParameters<typeof TimelineView>[1], attrs: Record<string, string>): Mounted {
    const el = h('div', { class: 'tl-view', ...attrs });
    this.stage.append(el);
    const view = new TimelineView(el, client);
    const m: Mounted = { view, el, loaded: Promise.resolve() };
    m.loaded = view.load().catch((e) => {
      el.append(
        h('p', { class: 'msg error' }, `The timeline could not be drawn: ${String((e as Error)?.message ?? e)}`)
      );
    });
    return m;
  }

  private mountedOf(c: Choice | null): Mounted | null {
    if (c?.kind === 'aligned') return this.aligned?.mounted ?? null;
    return c ? (this.views.get(c.file.key) ?? null) : null;
  }

  // Shows `m` alone (null: the saved-summary note), synchronously: the last call wins.
  private reveal(c: Choice | null, m: Mounted | null): void {
    const from = this.mountedOf(this.choice);
    this.choice = c;
    if (!this.none.isConnected) this.stage.append(this.none);
    this.none.hidden = m !== null;
    for (const v of this.views.values()) v.el.hidden = v !== m;
    if (this.aligned?.mounted) this.aligned.mounted.el.hidden = this.aligned.mounted !== m;
    this.picker.value = c?.kind === 'aligned' ? kAligned : c ? String(c.file.key) : '';
    this.syncBar();
    if (from && from !== m) m?.view.refreshSearch();
  }

  private async showFile(file: OpenedFile | null, keepWindow: boolean): Promise<TimelineView | null> {
    // A saved summary has no trace behind it: say so rather than show another file's timeline.
    const f = file ? (this.files.includes(file) ? file : null) : (this.files[0] ?? null);
    if (!f) {
      this.reveal(null, null);
      return null;
    }
    let m = this.views.get(f.key);
    if (!m) {
      m = this.mount(this.sharedOf(f).consumer(), { 'data-file': f.name });
      this.views.set(f.key, m);
      const action = this.areaAction;
      if (action) m.view.setAreaAction(action.label, (t0, t1, o) => action.run(f, t0, t1, o));
    }
    this.keepWindow(keepWindow, m, this.offsetOf(f));
    this.reveal({ kind: 'file', file: f }, m);
    await m.loaded;
    return m.view;
  }

  private async showAligned(keepWindow: boolean): Promise<TimelineView | null> {
    const a = this.aligned;
    if (!a) return this.showFile(null, false);
    a.mounted ??= this.mount(a.client, { 'data-view': kAligned });
    const m = a.mounted;
    this.keepWindow(keepWindow, m, 0);
    this.reveal({ kind: 'aligned' }, m);
    await m.loaded;
    return m.view;
  }

  // With `keep`, `m` shows the window on screen (before `m` is), converted to its clock (`offsetNs`
  // from the reference); nothing without a job to convert through, or before the shown view loaded.
  private keepWindow(keep: boolean, m: Mounted, offsetNs: number | null): void {
    const c = this.choice;
    const w = keep && c && this.aligned ? this.mountedOf(c)?.view.visibleWindow() : null;
    const from = c?.kind === 'aligned' ? 0 : c ? this.offsetOf(c.file) : null;
    if (!w || from === null || offsetNs === null || this.mountedOf(c) === m) return;
    m.view.showRange((originNs) => convertWindow({ ...w, offsetNs: from }, { originNs, offsetNs }));
  }

  // A file's clock offset from the reference rank (0 for the aligned view); null: not a rank of the job.
  private offsetOf(f: OpenedFile): number | null {
    return this.aligned?.ranks.find((r) => r.file === f)?.offsetNs ?? null;
  }

  private setCpu(rank: number, on: boolean): void {
    const a = this.aligned;
    if (!a) return;
    a.client.setCpu(rank, on);
    void a.mounted?.view.reloadTracks();
  }

  private syncBar(): void {
    const a = this.aligned;
    this.cpu.el.hidden = this.choice?.kind !== 'aligned' || !a;
    if (!a || a.key === this.cpuFor) return;
    this.cpuFor = a.key;
    this.cpu.set(a.ranks.map((r, i) => ({ label: r.label, on: a.client.cpuShown(i) })));
  }
  private cpuFor = ''; // the aligned view the CPU picker lists the ranks of
}
