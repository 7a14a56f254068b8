// The files opened together (usually one per rank): one worker each, loading in parallel. Keeps
// each file's progress, summary, warnings and error, and tells listeners when anything changes.
import {
  isObject,
  type FileSummary,
  type JobSummary,
  type RecoveredSpans,
  type SummaryDocument,
} from './summary_document';
import { type FileSource, type OpenResult, type Progress, TraceLoad, WorkerError } from '../load/index';

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
  warnings: string[];
  error: { code: string; message: string } | null;
}

export type FileInput = FileSource;

const kParallel = Math.max(2, Math.min(6, navigator.hardwareConcurrency || 2));

export class FileSet {
  files: OpenedFile[] = [];
  htaCompat = false;
  private nextKey = 1;
  private queue: Array<{ file: OpenedFile; run: () => Promise<void> }> = [];
  private running = 0;
  private generation = 0;
  private readonly listeners: Array<() => void> = [];
  // The job over the ready files when there are two or more (the document's `job`), from the core in
  // one of their workers; a saved document brings its own. `jobAsked` / `jobFor`: the files and
  // summaries (jobKey) it was asked for / answered for.
  job: JobSummary | null = null;
  private jobAsked = '';
  private jobFor = '';
  private summaries = 0; // bumped by every summary set, so a new summary asks for the job again

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }
  onProgress: (file: OpenedFile) => void = () => {};
  private changed(): void {
    this.updateJob();
    this.notify();
  }
  private notify(): void {
    for (const fn of this.listeners) fn();
  }

  // The job is known for the files on screen (one file: there is none to know).
  get jobReady(): boolean {
    return this.ready.length < 2 || this.jobFor === this.jobKey();
  }
  private jobKey(): string {
    return `${this.ready.map((f) => f.key).join(',')}/${this.summaries}`;
  }
  private updateJob(): void {
    if (this.ready.length < 2) this.job = null;
    if (this.ready.length < 2 || !this.settled) return;
    const key = this.jobKey();
    if (key === this.jobAsked) return;
    this.jobAsked = key;
    const load = this.ready.find((f) => f.load)?.load;
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
      ? Promise.all(ready.map((f) => f.load!.rank(htaCompat).then((r) => r.json)))
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
  async open(inputs: FileInput[]): Promise<void> {
    for (const f of this.files) f.load?.close();
    this.files = [];
    this.job = null;
    this.queue = [];
    this.running = 0;
    const generation = ++this.generation;
    const docs = await Promise.all(inputs.map((inp) => (inp.blob ? readSummaryDocument(inp.blob) : null)));
    if (generation !== this.generation) return; // a newer open replaced this one meanwhile
    this.files = inputs.flatMap((inp, i) => (docs[i] ? this.fromDocument(inp.name, docs[i]) : [this.start(inp)]));
    this.pump();
    this.changed();
  }

  // Shows a summary document without a trace (e.g. from a summary link). False when it is not one.
  showDocument(doc: unknown, name: string): boolean {
    if (!isSummaryDocument(doc)) return false;
    for (const f of this.files) f.load?.close();
    ++this.generation;
    this.files = this.fromDocument(name, doc);
    this.changed();
    return true;
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
      warnings: [`${name} is a saved summary, not a trace: the timeline needs the trace itself.`],
      error: null,
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

  // Asks every ready worker again (e.g. after the HTA-compatible switch changed).
  async refreshSummaries(): Promise<void> {
    await Promise.all(
      this.ready.map(async (f) => {
        if (f.load) this.setSummary(f, await f.load.summary(this.htaCompat));
      })
    );
    this.changed();
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

  private start(inp: FileInput): OpenedFile {
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
      warnings: [],
      error: null,
    };
    let lastPaint = 0;
    load.onProgress = (p) => {
      file.progress = p;
      this.onProgress(file);
      const now = performance.now();
      if (now - lastPaint > 100) {
        lastPaint = now;
        this.changed();
      }
    };
    const run = () =>
      load
        .open(inp, {
          htaCompat: this.htaCompat,
          othersLoading: this.files.some((f) => f !== file && f.status === 'loading'),
        })
        .then(({ result, summary }) => {
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
          this.changed();
        })
        .catch((e) => this.fail(file, e));
    this.schedule(file, run);
    return file;
  }

  // At most kParallel files import at once (each worker wants a core and its own heap); the others
  // wait their turn, in order.
  private schedule(file: OpenedFile, run: () => Promise<void>): void {
    this.queue.push({ file, run }); // open() pumps once the new set is in place
  }

  private pump(): void {
    while (this.running < kParallel && this.queue.length) {
      const { file, run } = this.queue.shift()!;
      if (file.status !== 'loading' || !this.files.includes(file)) continue; // cancelled or replaced while waiting
      this.running++;
      const gen = this.generation;
      void run().finally(() => {
        if (gen !== this.generation) return; // a newer open() reset the queue
        this.running--;
        this.pump();
      });
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
