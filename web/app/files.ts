// The files opened together (usually one per rank): one worker each, loading in parallel. Keeps
// each file's progress, summary, warnings and error, and tells listeners when anything changes.
import type { OpenResult, Progress } from '../worker/protocol';
import { WorkerClient, WorkerError } from './worker_client';

export type FileStatus = 'loading' | 'ready' | 'error' | 'cancelled';

export interface OpenedFile {
  key: number;
  name: string;
  status: FileStatus;
  client: WorkerClient;
  progress: Progress | null;
  result: OpenResult | null;
  summary: any | null;        // this file's entry of the summary document (files[0] of its worker)
  schema: string;             // the summary document's schema id
  warnings: string[];
  error: { code: string; message: string } | null;
}

export type FileInput = { name: string; blob?: Blob; url?: string };

export class FileSet {
  files: OpenedFile[] = [];
  htaCompat = false;
  private nextKey = 1;
  private readonly listeners: Array<() => void> = [];

  onChange(fn: () => void): void { this.listeners.push(fn); }
  private changed(): void { for (const fn of this.listeners) fn(); }

  get settled(): boolean { return this.files.every((f) => f.status !== 'loading'); }
  get ready(): OpenedFile[] { return this.files.filter((f) => f.status === 'ready'); }

  // Replaces whatever was open with these inputs.
  open(inputs: FileInput[]): void {
    for (const f of this.files) f.client.terminate();
    this.files = inputs.map((inp) => this.start(inp));
    this.changed();
  }

  cancel(file: OpenedFile): void {
    if (file.status !== 'loading') return;
    file.client.request('cancel').catch(() => {});
    // A worker busy inside one long wasm call cannot read the cancel message: stop it outright.
    setTimeout(() => { if (file.status === 'loading') this.fail(file, new WorkerError('cancelled', 'Loading was cancelled.')); }, 1500);
  }

  // Asks every ready worker again (e.g. after the HTA-compatible switch changed).
  async refreshSummaries(): Promise<void> {
    await Promise.all(this.ready.map((f) => this.fetchSummary(f)));
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
    const client = new WorkerClient();
    const file: OpenedFile = {
      key: this.nextKey++, name: inp.name, status: 'loading', client, progress: null, result: null,
      summary: null, schema: 'tracewise.summary/1', warnings: [], error: null,
    };
    let lastPaint = 0;
    client.onProgress = (p) => {
      file.progress = p;
      const now = performance.now();
      if (now - lastPaint > 100) { lastPaint = now; this.changed(); }
    };
    const payload: Record<string, unknown> = { name: inp.name };
    if (inp.blob) payload.blob = inp.blob;
    if (inp.url) payload.url = inp.url;
    client.request('open', payload)
      .then(async (reply) => {
        file.result = reply.result as OpenResult;
        file.warnings.push(...file.result.warnings);
        await this.fetchSummary(file);
        if (file.summary?.import?.truncated) {
          file.warnings.push(`The file ends before the trace does (truncated): the ${(file.summary.import.events ?? 0).toLocaleString('en-US')} complete events before that point are loaded.`);
        }
        file.status = 'ready';
        this.changed();
      })
      .catch((e) => this.fail(file, e));
    return file;
  }

  private async fetchSummary(file: OpenedFile): Promise<void> {
    const reply = await file.client.request('summary', { htaCompat: this.htaCompat });
    const doc = JSON.parse(reply.json as string);
    file.summary = doc.files?.[0] ?? null;
    file.schema = String(doc.schema);
  }

  private fail(file: OpenedFile, e: unknown): void {
    if (file.status !== 'loading') return;
    const err = e instanceof WorkerError ? e : new WorkerError('internal', `Internal error: ${String((e as Error)?.message ?? e)}`);
    file.status = err.code === 'cancelled' ? 'cancelled' : 'error';
    file.error = { code: err.code, message: err.message };
    file.client.terminate();  // a failed import may have left the wasm heap in any state
    this.changed();
  }
}
