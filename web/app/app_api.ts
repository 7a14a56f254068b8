// AppApi: what other parts of the page (share links, embed mode, export; web/share, web/embed,
// web/export) may ask of the app shell, so they need no knowledge of its internals.
//
//   open(inputs)                open files / URLs / buffers (replaces what is open; several = ranks)
//   openBuffer(name, buffer)    open bytes the caller already has (e.g. postMessage from a parent page)
//   showSummary(doc, name, compare?)  show a summary document read-only (no trace behind it, no
//                               timeline); `compare`: the sides of its files and their diff (a
//                               summary link of Compare mode)
//   previewSummary(doc, name, onShown, compare?)  the same in place of the traces being opened, until
//                               one is ready (they go on loading); false when none is being opened
//   getDiff()                   the comparison on screen (tracewise.diff/1), or null
//   diffMarkdown()              its Markdown, from the core (= `tracewise diff --format markdown`)
//   getSummary()                the summary document of what is open (same JSON as the CLI), or null
//   getFiles()                  [{name, status, error, hasTrace}] of what is open
//   onLoaded(cb) / onProgress(cb) / onError(cb)   subscribe; each returns an unsubscribe function
//   getViewState() / setViewState(s)              tab, selected file, timeline state (when it has one),
//                               Compare mode's sides and step
//   panel(id)                   the element of a dashboard panel ('cards', 'temporal', 'steps', ...)
import type { FileInput, FileSet } from './files';
import type { Progress } from '../worker/protocol';
import type { SummaryDocument } from './summary_document';
import type { Side } from './compare/compare_sides';
import type { DiffDocument } from './compare/diff_document';

export type Tab = 'job' | 'compare' | 'overview' | 'timeline' | 'flame';
export const kTabs: readonly Tab[] = ['job', 'compare', 'overview', 'timeline', 'flame'];

export interface ViewState {
  tab: Tab; // job: only with two files or more; compare: only in Compare mode
  file: number;
  timeline?: unknown;
  compare?: Side[] | null; // per file (the summary document's order), its side; null: not comparing
  step?: number; // Compare mode: the step both timelines are aligned at
}

// A summary shown read-only as a comparison: its files' sides and the diff it carries.
export interface CompareShown {
  sides: Side[];
  diff: unknown;
}

export interface AppApi {
  open(inputs: FileInput[]): void;
  openBuffer(name: string, buffer: ArrayBuffer): void;
  showSummary(doc: unknown, name: string, compare?: CompareShown): boolean;
  previewSummary(doc: unknown, name: string, onShown: () => void, compare?: CompareShown): boolean;
  getDiff(): DiffDocument | null;
  diffMarkdown(): Promise<string | null>;
  getSummary(): SummaryDocument | null;
  getFiles(): Array<{ name: string; status: string; error: string | null; hasTrace: boolean }>;
  onLoaded(cb: (summary: SummaryDocument) => void): () => void;
  onProgress(cb: (name: string, p: Progress) => void): () => void;
  onError(cb: (name: string, message: string, code: string) => void): () => void;
  getViewState(): ViewState;
  setViewState(s: Partial<ViewState>): void;
  panel(id: string): HTMLElement | null;
}

type Listener<A extends unknown[]> = (...a: A) => void;

export class Emitter<A extends unknown[]> {
  private fns = new Set<Listener<A>>();
  on(fn: Listener<A>): () => void {
    this.fns.add(fn);
    return () => this.fns.delete(fn);
  }
  emit(...a: A): void {
    for (const fn of this.fns) {
      try {
        fn(...a);
      } catch (e) {
        console.error(e);
      }
    }
  }
}

export interface AppInternals {
  files: FileSet;
  open(inputs: FileInput[]): void;
  showSummary(doc: unknown, name: string, compare?: CompareShown): boolean;
  previewSummary(doc: unknown, name: string, onShown: () => void, compare?: CompareShown): boolean;
  getDiff(): DiffDocument | null;
  diffMarkdown(): Promise<string | null>;
  getViewState(): ViewState;
  setViewState(s: Partial<ViewState>): void;
  overview: HTMLElement;
}

export function createAppApi(app: AppInternals): AppApi & {
  loaded: Emitter<[SummaryDocument]>;
  progress: Emitter<[string, Progress]>;
  errors: Emitter<[string, string, string]>;
} {
  // The page emits the summary document on screen (FileSet.document()), which reaches it typed
  // unknown (as its hook's `summary`); onLoaded adds each callback as it is, so it gets that document.
  const loaded = new Emitter<[SummaryDocument]>();
  const progress = new Emitter<[string, Progress]>();
  const errors = new Emitter<[string, string, string]>();
  return {
    loaded,
    progress,
    errors,
    open: (inputs) => app.open(inputs),
    openBuffer: (name, buffer) => app.open([{ name, blob: new Blob([buffer]) }]),
    showSummary: (doc, name, compare) => app.showSummary(doc, name, compare),
    previewSummary: (doc, name, onShown, compare) => app.previewSummary(doc, name, onShown, compare),
    getDiff: () => app.getDiff(),
    diffMarkdown: () => app.diffMarkdown(),
    getSummary: () => app.files.document(),
    getFiles: () =>
      app.files.files.map((f) => ({
        name: f.name,
        status: f.status,
        error: f.error?.message ?? null,
        hasTrace: !!f.load,
      })),
    onLoaded: (cb) => loaded.on(cb),
    onProgress: (cb) => progress.on(cb),
    onError: (cb) => errors.on(cb),
    getViewState: () => app.getViewState(),
    setViewState: (s) => app.setViewState(s),
    panel: (id) =>
      id === 'cards'
        ? app.overview.querySelector<HTMLElement>('.cards')
        : app.overview.querySelector<HTMLElement>(`[data-section="${CSS.escape(id)}"]`),
  };
}
