// The files opened together (usually one per rank): one worker each, loading in parallel, bounded by
// cores and memory. Keeps each file's progress, summary, rank record, warnings and error, and tells
// listeners when anything changes. Models beyond the memory budget are released (least recently used
// first) once their summary and rank record are kept, and opened again when asked for (a timeline).
import {
  isObject,
  type FileSummary,
  type JobSummary,
  type RecoveredSpans,
  type SummaryDocument,
} from './summary_document';
import {
  expectedLoadBytes,
  type FileSource,
  heldBytes,
  inputBytesOf,
  modelBudgetBytes,
  type OpenResult,
  type Progress,
  TraceLoad,
  WorkerError,
} from '../load/index';
import { validSides, type Side } from './compare/compare_sides';

export type FileStatus = 'loading' | 'ready' | 'error' | 'cancelled';

export interface OpenedFile {
  key: number;
  name: string;
  status: FileStatus;
  load: TraceLoad | null; // null for a summary JSON opened as such (no trace behind it)
  progress: Progress | null;
  result: OpenResult | null;
  summary: FileSummary | null; // this file's entry of the summary document (files[0] of its worker)
  schema: string; // the summary document's schema id
  // Its rank record (JSON) when it is one of several traces, taken right after its summary so that
  // its model can be released; null: asked of its worker when the job is made.
  rank: string | null;
  reopening: boolean; // its model was released and is being opened again (e.g. for its timeline)
  warnings: string[];
  error: { code: string; message: string } | null;
  // Its side in a comparison (the baseline or the candidate); null outside Compare mode.
  side: Side | null;
  // What it was opened as: its own name, the folder it was picked from, or the saved summary's file
  // name (several files of one document): a comparison names a side by it, as the CLI does.
  origin: string;
}

// What a loaded file's model holds: its worker's heap at the largest its replies reported (after the
// summary, not only the open's), and the rest (web/load/page/memory.ts).
const heldOf = (f: OpenedFile): number => heldBytes(f.result, f.load?.heapBytes);

// `folder`: the folder it was picked from (a comparison's side of rank files is named after it, as
// `tracewise diff DIR` names it).
export type FileInput = FileSource & { folder?: string };

const kParallel = Math.max(2, Math.min(6, navigator.hardwareConcurrency || 2));
// A set of this many files is "many" (a job of many ranks): the loading strip sums it up in one line
// (progress_view.ts), and the page hears of newly ready files at most every kReadyNoticeMs.
export const kManyFiles = 8;
const kReadyNoticeMs = 1000;
// A model whose timeline asked for data this recently is kept: a view on screen (the aligned view of
// every rank, too) is not made to open its files again at each pan when they outgrow the budget.
const kViewedMs = 10_000;

// A load or a reopen waiting for (or holding) its turn; `bytes`: the memory it is expected to take.
interface Task {
  file: OpenedFile;
  bytes: number;
  reopen: boolean;
  live: () => boolean; // still wanted (not cancelled, not replaced by another open)
  run: () => Promise<void>;
  drop: () => void; // it will never run
}

export class FileSet {
  files: OpenedFile[] = [];
  htaCompat = false;
  private nextKey = 1;
  private queue: Task[] = [];
  private running: Task[] = [];
  private readonly budget = modelBudgetBytes();
  private generation = 0;
  private readonly listeners: Array<() => void> = [];
  // The job over the ready files when there are two or more (the document's `job`), from the core in
  // one of their workers; a saved document brings its own. `jobAsked` / `jobFor`: the files and
  // summaries (jobKey) it was asked for / answered for.
  job: JobSummary | null = null;
  private jobAsked = '';
  private jobFor = '';
  private summaries = 0; // bumped by every summary set, so a new summary asks for the job again
  // Changes with every summary set (the comparison is computed again for new summaries).
  get summaryVersion(): number {
    return this.summaries;
  }

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }
  onProgress: (file: OpenedFile) => void = () => {};
  // What changes only the loading strip (a file's progress, a released model opening again) is told
  // to its listeners (progress_view.ts), not onChange's: the page need not lay itself out again.
  private readonly stripListeners: Array<() => void> = [];
  onStripChange(fn: () => void): void {
    this.stripListeners.push(fn);
  }
  private stripChanged(): void {
    for (const fn of this.stripListeners) fn();
  }
  // A file became ready: with many files (kManyFiles) still loading, the page, which builds its
  // dashboard again for every new file, is told at most every kReadyNoticeMs; the last one at once.
  private lastReadyNotice = 0;
  private readyTimer: ReturnType<typeof setTimeout> | null = null;
  private readyChanged(): void {
    const wait = this.lastReadyNotice + kReadyNoticeMs - performance.now();
    if (this.files.length < kManyFiles || this.settled || wait <= 0) {
      this.lastReadyNotice = performance.now();
      this.changed();
      return;
    }
    this.stripChanged();
    this.readyTimer ??= setTimeout(() => {
      this.readyTimer = null;
      this.lastReadyNotice = performance.now();
      this.changed();
    }, wait);
  }
  private changed(): void {
    this.updateJob();
    this.notify();
  }
  private notify(): void {
    for (const fn of this.listeners) fn();
  }

  // The job is known for the files on screen (one file: there is none to know).
  get jobReady(): boolean {
    return this.ready.length < 2 || this.compare || this.jobFor === this.jobKey();
  }

  // Compare mode: the files are two runs, a baseline and a candidate (each one file or several
  // ranks), not the ranks of one job (web/app/compare).
  get compare(): boolean {
    return this.files.some((f) => f.side !== null);
  }

  // Per ready file (the summary document's order), its side; null outside Compare mode.
  get sides(): Side[] | null {
    const sides = this.ready.map((f) => f.side);
    return validSides(sides) ? sides : null;
  }

  // Puts the ready files on sides (a link's `cmp=`), in the summary document's order: the files stay
  // open, only how they are seen changes. False (nothing changed) when the sides do not fit them.
  setSides(sides: readonly Side[] | null): boolean {
    const ready = this.ready;
    if (sides !== null && (!validSides(sides) || sides.length !== ready.length)) return false;
    if (sides === null && !this.compare) return true;
    if (sides !== null && ready.every((f, i) => f.side === sides[i])) return true;
    for (const f of this.files) f.side = null;
    if (sides) ready.forEach((f, i) => (f.side = sides[i]));
    this.jobAsked = '';
    this.job = null;
    this.changed();
    return true;
  }
  private jobKey(): string {
    return `${this.ready.map((f) => f.key).join(',')}/${this.summaries}`;
  }
  private updateJob(): void {
    if (this.ready.length < 2 || this.compare) this.job = null;
    if (this.ready.length < 2 || this.compare || !this.settled) return;
    const key = this.jobKey();
    if (key === this.jobAsked) return;
    this.jobAsked = key;
    // A worker that holds its model (any worker computes the job: a released one lends a fresh worker).
    const load = (this.ready.find((f) => f.load?.resident) ?? this.ready.find((f) => f.load))?.load;
    if (!load) {
      this.jobFor = key; // saved documents only: their own job (fromDocument) stands
      return;
    }
    const answered = (job: JobSummary | null) => {
      if (this.jobAsked !== key) return; // the files changed meanwhile
      this.job = job;
      this.jobFor = key;
      this.notify();
    };
    const ready = this.ready;
    const htaCompat = this.htaCompat;
    // The job analysis needs every file's rank record; a saved summary has none (the verdict only).
    const records = ready.every((f) => f.load)
      ? Promise.all(ready.map((f) => (f.rank !== null ? f.rank : f.load!.rank(htaCompat).then((r) => r.json))))
      : Promise.resolve(null);
    records
      .then((ranks) => load.job(JSON.stringify(ready.map((f) => f.summary)), ranks ? `[${ranks.join(',')}]` : ''))
      .then((r) => answered(JSON.parse(r.json) as JobSummary | null))
      .catch(() => answered(null));
  }

  get settled(): boolean {
    return this.files.every((f) => f.status !== 'loading');
  }
  get ready(): OpenedFile[] {
    return this.files.filter((f) => f.status === 'ready');
  }

  // Replaces whatever was open with these inputs. A summary JSON written by `tracewise summarize`
  // is shown as it is (its dashboard, no timeline); anything else is imported as a trace.
  // `sides`: one per input, for Compare mode (null: the normal single / job modes).
  async open(inputs: FileInput[], sides: readonly Side[] | null = null): Promise<void> {
    this.closeAll();
    this.job = null;
    await this.addInputs(inputs, sides);
  }

  // The ready files become the baseline of a comparison and `inputs` its candidate (opened beside
  // them; the others are closed).
  async addCandidate(inputs: FileInput[]): Promise<void> {
    const kept = this.ready;
    for (const f of this.files) if (!kept.includes(f)) f.load?.close();
    for (const f of kept) f.side = 'base';
    this.job = null;
    this.jobAsked = '';
    await this.addInputs(
      inputs,
      inputs.map((): Side => 'cand'),
      kept
    );
  }

  private async addInputs(inputs: FileInput[], sides: readonly Side[] | null, kept: OpenedFile[] = []): Promise<void> {
    const generation = this.generation;
    const docs = await Promise.all(inputs.map((inp) => (inp.blob ? readSummaryDocument(inp.blob) : null)));
    // What each import is expected to take (a download's size is not known before it starts).
    const sizes = await Promise.all(inputs.map((inp) => (inp.blob ? inputBytesOf(inp.blob) : 0)));
    if (generation !== this.generation) return; // a newer open replaced this one meanwhile
    const added = inputs.flatMap((inp, i) => {
      const files = docs[i] ? this.fromDocument(inp.name, docs[i]) : [this.start(inp, sizes[i])];
      for (const f of files) {
        f.side = sides?.[i] ?? null;
        if (inp.folder) f.origin = inp.folder;
      }
      return files;
    });
    this.files = [...kept, ...added];
    this.pump();
    this.changed();
  }

  // Shows a summary document without a trace (e.g. from a summary link). False when it is not one.
  // `sides`: per file of the document, for a comparison's (a summary link of Compare mode).
  showDocument(doc: unknown, name: string, sides: readonly Side[] | null = null): boolean {
    if (!isSummaryDocument(doc)) return false;
    this.closeAll();
    this.files = this.fromDocument(name, doc);
    if (sides && validSides(sides) && sides.length === this.files.length)
      this.files.forEach((f, i) => (f.side = sides[i]));
    this.changed();
    return true;
  }

  // Closes every file's worker and forgets the queue (a new set replaces this one).
  private closeAll(): void {
    for (const f of this.files) f.load?.close();
    this.files = [];
    ++this.generation;
    const dropped = this.queue;
    this.queue = [];
    this.running = [];
    for (const t of dropped) t.drop();
  }

  private fromDocument(name: string, doc: SummaryDocument): OpenedFile[] {
    this.job = isObject(doc.job) ? doc.job : null;
    return doc.files.map((summary): OpenedFile => ({
      key: this.nextKey++,
      name: String(summary?.name ?? name),
      status: 'ready',
      load: null,
      progress: null,
      result: null,
      summary,
      schema: String(doc.schema),
      rank: null,
      reopening: false,
      warnings: [`${name} is a saved summary, not a trace: the timeline needs the trace itself.`],
      error: null,
      side: null,
      origin: name,
    }));
  }

  cancel(file: OpenedFile): void {
    if (file.status !== 'loading' || !file.load) return;
    if (!file.progress) {
      this.fail(file, new WorkerError('cancelled', 'Loading was cancelled.'));
      return;
    } // still waiting its turn
    file.load.cancel();
    // A worker busy inside one long wasm call cannot read the cancel message: stop it outright.
    setTimeout(() => {
      if (file.status === 'loading') this.fail(file, new WorkerError('cancelled', 'Loading was cancelled.'));
    }, 1500);
  }

  // Asks every ready worker again (e.g. after the HTA-compatible switch changed), for the rank record
  // too when there are several traces (a released model is opened again, in turn, for both at once).
  async refreshSummaries(): Promise<void> {
    const htaCompat = this.htaCompat;
    const several = this.traceCount >= 2;
    await Promise.all(
      this.ready.map(async (f) => {
        if (!f.load) return;
        try {
          const [summary, rank] = await Promise.all([
            f.load.summary(htaCompat),
            several ? f.load.rank(htaCompat).then((r) => r.json) : null,
          ]);
          this.setSummary(f, summary);
          f.rank = rank;
        } catch {
          f.rank = null; // the job asks its worker again (the file may be gone: its old summary stays)
        }
      })
    );
    this.changed();
  }

  // Files with a trace behind them (not saved summaries).
  private get traceCount(): number {
    return this.files.filter((f) => f.load).length;
  }

  // The summary document of every file that loaded, in the order they were opened: the same JSON the
  // CLI prints for `tracewise summarize FILE...`.
  document(): SummaryDocument | null {
    const summaries = this.ready.flatMap((f) => (f.summary ? [{ summary: f.summary, schema: f.schema }] : []));
    if (summaries.length === 0) return null;
    const doc: SummaryDocument = { files: summaries.map((s) => s.summary), schema: summaries[0].schema };
    if (summaries.length >= 2 && this.job) doc.job = this.job;
    return doc;
  }

  private start(inp: FileInput, inputBytes: number): OpenedFile {
    const load = new TraceLoad();
    const file: OpenedFile = {
      key: this.nextKey++,
      name: inp.name,
      status: 'loading',
      load,
      progress: null,
      result: null,
      summary: null,
      schema: 'tracewise.summary/1',
      rank: null,
      reopening: false,
      warnings: [],
      error: null,
      side: null,
      origin: inp.name,
    };
    let lastPaint = 0;
    load.onProgress = (p) => {
      file.progress = p;
      if (file.status === 'loading') this.onProgress(file); // not while a released model opens again
      const now = performance.now();
      if (now - lastPaint > 100) {
        lastPaint = now;
        this.stripChanged();
      }
    };
    load.reopenVia = (open) => this.reopen(file, open);
    const run = () =>
      load
        .open(inp, {
          htaCompat: this.htaCompat,
          othersLoading: this.files.some((f) => f !== file && f.status === 'loading'),
        })
        .then(async ({ result, summary }) => {
          // One of several traces: its rank record now, so that its model may be released later.
          if (this.traceCount >= 2 && !this.compare)
            file.rank = await load.rank(this.htaCompat).then(
              (r) => r.json,
              () => null
            );
          file.result = result;
          file.warnings.push(...result.warnings);
          this.setSummary(file, summary);
          if (file.summary?.import?.truncated) {
            file.warnings.push(
              `The file ends before the trace does (truncated): the ${(file.summary.import.events ?? 0).toLocaleString('en-US')} complete events before that point are loaded.`
            );
          }
          const recovered = file.summary?.import?.recovered;
          if (recovered) file.warnings.push(recoveredWarning(recovered));
          file.status = 'ready';
          this.readyChanged();
          // A lone trace's timeline is the next thing asked of it; with several, the budget keeps
          // models small and the cores go to the loads still running.
          if (this.traceCount === 1) load.prepareTimeline();
        })
        .catch((e) => this.fail(file, e));
    // open() pumps once the new set is in place.
    this.queue.push({
      file,
      bytes: expectedLoadBytes(inputBytes),
      reopen: false,
      live: () => file.status === 'loading' && this.files.includes(file), // not cancelled or replaced
      run,
      drop: () => {},
    });
    return file;
  }

  // A released model is wanted again (its timeline, a new summary): `open` opens the file in a new
  // worker when its turn comes, ahead of the files still waiting for their first load (someone is
  // waiting for this one).
  private reopen(file: OpenedFile, open: (othersLoading: boolean) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const task: Task = {
        file,
        bytes: heldOf(file),
        reopen: true,
        live: () => file.status === 'ready' && this.files.includes(file),
        run: () => {
          file.reopening = true;
          file.progress = null;
          this.stripChanged();
          return open(this.running.length > 1 || this.queue.length > 0)
            .then(resolve, reject)
            .finally(() => {
              file.reopening = false;
              file.progress = null;
              this.stripChanged();
            });
        },
        drop: () => reject(new WorkerError('cancelled', 'This file was closed.')),
      };
      const at = this.queue.findIndex((t) => !t.reopen);
      this.queue.splice(at < 0 ? this.queue.length : at, 0, task);
      this.pump();
    });
  }

  // At most kParallel loads at once (each worker wants a core), and only while the loads running and
  // the models held fit the memory budget: the least recently used models are released to make room
  // (web/load/page/memory.ts). One load always runs, so a file larger than the budget still opens.
  // The others wait their turn, in order (reopens first).
  private pump(): void {
    while (this.queue.length) {
      const task = this.queue[0];
      if (!task.live()) {
        this.queue.shift();
        task.drop();
        continue;
      }
      if (this.running.length >= kParallel) return;
      const over = () => this.runningBytes() + this.heldBytes() + task.bytes - this.budget;
      if (over() > 0) this.release(over(), task.file);
      if (this.running.length > 0 && over() > 0) return; // waits for a running load to end
      this.queue.shift();
      this.running.push(task);
      // The next file in line gets its worker now: its script loads while this one imports.
      this.queue.find((t) => !t.reopen && t.live())?.file.load?.prepare();
      const gen = this.generation;
      void task.run().finally(() => {
        if (gen !== this.generation) return; // a newer open() reset the queue
        this.running.splice(this.running.indexOf(task), 1);
        this.pump();
      });
    }
  }

  private runningBytes(): number {
    return this.running.reduce((sum, t) => sum + t.bytes, 0);
  }

  // The memory of the models held by ready files.
  private heldBytes(): number {
    return this.files.reduce((sum, f) => sum + (f.status === 'ready' && f.load?.resident ? heldOf(f) : 0), 0);
  }

  // Releases models, least recently used first, until `bytes` are freed (or none is left to release):
  // only of files whose rank record is kept when there are several, never the first file (the one
  // shown first), `except`, one that is answering a request or one whose timeline was just used.
  private release(bytes: number, except: OpenedFile): void {
    const several = this.traceCount >= 2;
    const first = this.files.find((f) => f.load);
    const now = performance.now();
    const candidates = this.files
      .filter(
        (f) =>
          f !== except &&
          f !== first &&
          f.status === 'ready' &&
          f.load?.resident &&
          !f.load.busy &&
          now - f.load.lastViewed > kViewedMs &&
          (f.rank !== null || !several)
      )
      .sort((a, b) => a.load!.lastUsed - b.load!.lastUsed);
    for (const f of candidates) {
      if (bytes <= 0) return;
      const held = heldOf(f);
      if (f.load!.release()) bytes -= held;
    }
  }

  // The worker's document holds this one file (the core's summary: SummaryDocument by construction).
  private setSummary(file: OpenedFile, reply: { json: string }): void {
    const doc = JSON.parse(reply.json) as SummaryDocument;
    file.summary = doc.files?.[0] ?? null;
    this.summaries++;
    file.schema = String(doc.schema);
  }

  private fail(file: OpenedFile, e: unknown): void {
    if (file.status !== 'loading') return;
    const err =
      e instanceof WorkerError
        ? e
        : new WorkerError('internal', `Internal error: ${String((e as Error)?.message ?? e)}`);
    file.status = err.code === 'cancelled' ? 'cancelled' : 'error';
    file.error = { code: err.code, message: err.message };
    file.load?.close(); // a failed import may have left the wasm heap in any state
    this.changed();
  }
}

// A summary document (schema "tracewise.summary/N"; keys are sorted, so "schema" comes last), or null.
async function readSummaryDocument(blob: Blob): Promise<SummaryDocument | null> {
  if (blob.size > 64 << 20 || blob.size < 20) return null;
  const tail = await blob.slice(Math.max(0, blob.size - 80)).text();
  if (!/"schema"\s*:\s*"tracewise\.summary\/\d+"\s*\}\s*$/.test(tail)) return null;
  try {
    const doc: unknown = JSON.parse(await blob.text());
    return isSummaryDocument(doc) ? doc : null;
  } catch {
    return null;
  }
}

// A document whose files are objects: shown as a summary (each section is read defensively, as a
// saved or linked summary may be trimmed or come from an older core: summary_document.ts).
function isSummaryDocument(doc: unknown): doc is SummaryDocument {
  return isObject(doc) && Array.isArray(doc.files) && doc.files.every(isObject);
}

// Damaged spans skipped by the importer: where the first one starts, so the user can look at it.
function recoveredWarning(r: RecoveredSpans): string {
  const spans = r.regions === 1 ? 'a damaged span' : `${r.regions.toLocaleString('en-US')} damaged spans`;
  return (
    `The file is damaged: ${spans} (${r.skipped_bytes.toLocaleString('en-US')} bytes, the first at byte ` +
    `${r.first_offset.toLocaleString('en-US')}) could not be read and ${r.regions === 1 ? 'was' : 'were'} skipped; ` +
    'every event outside ' +
    (r.regions === 1 ? 'it' : 'them') +
    ' is loaded.'
  );
}
