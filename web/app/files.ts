// The files opened together (usually one per rank): one worker each, loading in parallel. Keeps
// each file's progress, summary, warnings and error, and tells listeners when anything changes.
import type { OpenResult, Progress } from '../worker/protocol';
import { takeWorker } from '../load/page/spare';
import { rememberHeap } from '../load/page/heap_hint';
import { WorkerError, type WorkerClient } from '../load/page/trace_client';

export type FileStatus = 'loading' | 'ready' | 'error' | 'cancelled';

export interface OpenedFile {
  key: number;
  name: string;
  status: FileStatus;
  client: WorkerClient | null;  // null for a summary JSON opened as such (no trace behind it)
  progress: Progress | null;
  result: OpenResult | null;
  summary: any | null;        // this file's entry of the summary document (files[0] of its worker)
  schema: string;             // the summary document's schema id
  warnings: string[];
  error: { code: string; message: string } | null;
}

export type FileInput = { name: string; blob?: Blob; url?: string };

const kParallel = Math.max(2, Math.min(6, navigator.hardwareConcurrency || 2));

// How many threads a trace worker may use (OpenRequest.workers): a lone large file is imported in
// parts on all cores (plain files, web/load/parts/plan.ts) or gets a decode worker beside its trace
// worker (web/load/decode/client.ts); several loading together already keep the cores busy.
// ?workers=single|decode|all|parts|no-parts overrides (for comparisons, tests, and browsers where
// nested workers misbehave).
type Workers = 'auto' | 'no-decode' | 'no-parts' | 'parts' | 'single' | 'decode' | 'all';
export function workersMode(othersLoading: boolean): Workers {
  const forced = new URLSearchParams(location.search).get('workers');
  const modes: Workers[] = ['single', 'decode', 'all', 'parts', 'no-parts'];
  if (modes.includes(forced as Workers)) return forced as Workers;
  return othersLoading ? 'no-decode' : 'auto';
}

export class FileSet {
  files: OpenedFile[] = [];
  htaCompat = false;
  private nextKey = 1;
  private queue: Array<{ file: OpenedFile; run: () => Promise<void> }> = [];
  private running = 0;
  private generation = 0;
  private readonly listeners: Array<() => void> = [];

  onChange(fn: () => void): void { this.listeners.push(fn); }
  onProgress: (file: OpenedFile) => void = () => {};
  // Sections of a loading file's summary that are final already (SummaryPart), parsed; made with
  // this set's htaCompat.
  onSummaryPart: (file: OpenedFile, part: Record<string, unknown>) => void = () => {};
  private changed(): void { for (const fn of this.listeners) fn(); }

  get settled(): boolean { return this.files.every((f) => f.status !== 'loading'); }
  get ready(): OpenedFile[] { return this.files.filter((f) => f.status === 'ready'); }

  // Replaces whatever was open with these inputs. A summary JSON written by `tracewise summarize`
  // is shown as it is (its dashboard, no timeline); anything else is imported as a trace.
  async open(inputs: FileInput[]): Promise<void> {
    for (const f of this.files) f.client?.terminate();
    this.files = [];
    this.queue = [];
    this.running = 0;
    const generation = ++this.generation;
    const docs = await Promise.all(inputs.map((inp) => (inp.blob ? readSummaryDocument(inp.blob) : null)));
    if (generation !== this.generation) return;  // a newer open replaced this one meanwhile
    this.files = inputs.flatMap((inp, i) => (docs[i] ? this.fromDocument(inp.name, docs[i]) : [this.start(inp)]));
    this.pump();
    this.changed();
  }

  // Shows a summary document without a trace (e.g. from a summary link). False when it is not one.
  showDocument(doc: any, name: string): boolean {
    if (!doc || typeof doc !== 'object' || !Array.isArray(doc.files) || !doc.files.every((f: unknown) => f && typeof f === 'object')) return false;
    for (const f of this.files) f.client?.terminate();
    ++this.generation;
    this.files = this.fromDocument(name, doc);
    this.changed();
    return true;
  }

  private fromDocument(name: string, doc: any): OpenedFile[] {
    return doc.files.map((summary: any) => ({
      key: this.nextKey++, name: String(summary?.name ?? name), status: 'ready', client: null, progress: null, result: null,
      summary, schema: String(doc.schema), warnings: [`${name} is a saved summary, not a trace: the timeline needs the trace itself.`], error: null,
    }));
  }

  cancel(file: OpenedFile): void {
    if (file.status !== 'loading' || !file.client) return;
    if (!file.progress) { this.fail(file, new WorkerError('cancelled', 'Loading was cancelled.')); return; }  // still waiting its turn
    file.client.request('cancel').catch(() => {});
    // A worker busy inside one long wasm call cannot read the cancel message: stop it outright.
    setTimeout(() => { if (file.status === 'loading') this.fail(file, new WorkerError('cancelled', 'Loading was cancelled.')); }, 1500);
  }

  // Asks every ready worker again (e.g. after the HTA-compatible switch changed).
  async refreshSummaries(): Promise<void> {
    await Promise.all(this.ready.filter((f) => f.client).map((f) => this.fetchSummary(f)));
    this.changed();
  }

  // The summary document of every file that loaded, in the order they were opened: the same JSON the
  // CLI prints for `tracewise summarize FILE...`.
  document(): any | null {
    const ready = this.ready.filter((f) => f.summary);
    if (ready.length === 0) return null;
    return { files: ready.map((f) => f.summary), schema: ready[0].schema };
  }

  private start(inp: FileInput): OpenedFile {
    const client = takeWorker();
    const file: OpenedFile = {
      key: this.nextKey++, name: inp.name, status: 'loading', client, progress: null, result: null,
      summary: null, schema: 'tracewise.summary/1', warnings: [], error: null,
    };
    let lastPaint = 0;
    client.onProgress = (p) => {
      file.progress = p;
      this.onProgress(file);
      const now = performance.now();
      if (now - lastPaint > 100) { lastPaint = now; this.changed(); }
    };
    client.onSummaryPart = (p) => {
      if (file.status !== 'loading' || p.htaCompat !== this.htaCompat) return;
      let part: unknown;
      try { part = JSON.parse(p.json); } catch { return; }  // advisory: the summary reply has it all
      if (part && typeof part === 'object') this.onSummaryPart(file, part as Record<string, unknown>);
    };
    const payload: Record<string, unknown> = { name: inp.name };
    if (inp.blob) payload.blob = inp.blob;
    if (inp.url) payload.url = inp.url;
    const run = () => client.request('open', {
      ...payload, workers: workersMode(this.files.some((f) => f !== file && f.status === 'loading')),
      summaryNext: { htaCompat: this.htaCompat },
    })
      .then(async (reply) => {
        file.result = reply.result as OpenResult;
        file.warnings.push(...file.result.warnings);
        rememberHeap(await this.fetchSummary(file));
        if (file.summary?.import?.truncated) {
          file.warnings.push(`The file ends before the trace does (truncated): the ${(file.summary.import.events ?? 0).toLocaleString('en-US')} complete events before that point are loaded.`);
        }
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
    this.queue.push({ file, run });  // open() pumps once the new set is in place
  }

  private pump(): void {
    while (this.running < kParallel && this.queue.length) {
      const { file, run } = this.queue.shift()!;
      if (file.status !== 'loading' || !this.files.includes(file)) continue;  // cancelled or replaced while waiting
      this.running++;
      const gen = this.generation;
      void run().finally(() => {
        if (gen !== this.generation) return;  // a newer open() reset the queue
        this.running--;
        this.pump();
      });
    }
  }

  // Returns the heap the file's worker has needed so far (SummaryReply.heapUsedBytes), 0 if unknown.
  private async fetchSummary(file: OpenedFile): Promise<number> {
    if (!file.client) return 0;
    const reply = await file.client.request('summary', { htaCompat: this.htaCompat });
    const doc = JSON.parse(reply.json as string);
    file.summary = doc.files?.[0] ?? null;
    file.schema = String(doc.schema);
    return typeof reply.heapUsedBytes === 'number' ? reply.heapUsedBytes : 0;
  }

  private fail(file: OpenedFile, e: unknown): void {
    if (file.status !== 'loading') return;
    const err = e instanceof WorkerError ? e : new WorkerError('internal', `Internal error: ${String((e as Error)?.message ?? e)}`);
    file.status = err.code === 'cancelled' ? 'cancelled' : 'error';
    file.error = { code: err.code, message: err.message };
    file.client?.terminate();  // a failed import may have left the wasm heap in any state
    this.changed();
  }
}

// A summary document (schema "tracewise.summary/N"; keys are sorted, so "schema" comes last), or null.
async function readSummaryDocument(blob: Blob): Promise<any | null> {
  if (blob.size > 64 << 20 || blob.size < 20) return null;
  const tail = await blob.slice(Math.max(0, blob.size - 80)).text();
  if (!/"schema"\s*:\s*"tracewise\.summary\/\d+"\s*\}\s*$/.test(tail)) return null;
  try {
    const doc = JSON.parse(await blob.text());
    return Array.isArray(doc?.files) && doc.files.every((f: unknown) => f && typeof f === 'object') ? doc : null;
  } catch {
    return null;
  }
}
