// The comparison of the two sides on screen: once both sides' files have settled, their summary
// documents go to the core (`diff` request, web/worker/protocol.ts) in one of the files' workers,
// and its `tracewise.diff/1` document comes back. A summary link of a comparison brings its diff
// along instead (given()). The Markdown export asks the core too (`diffMarkdown`): the same bytes
// as `tracewise diff --format markdown`.
import { TraceLoad } from '../../load/index';
import type { FileSet, OpenedFile } from '../files';
import { diffError, isDiffDocument, pageDiffOptions, type DiffDocument } from './diff_document';
import { sideDocuments, sideLabel, type Side } from './compare_sides';

// window.__tracewise.compare (web/hook.ts).
export interface CompareHook {
  state: DiffState['kind'];
  diff: DiffDocument | null;
  sides: Side[] | null; // per ready file (the summary document's order)
}

export type DiffState =
  | { kind: 'none' } // not comparing
  | { kind: 'waiting' } // a side is still loading (or has no summary)
  | { kind: 'computing' }
  | { kind: 'ready'; doc: DiffDocument; json: string }
  | { kind: 'failed'; message: string };

// A worker for a request of the core alone: a file's (one holding its model first), else a new one.
async function withLoad<T>(files: OpenedFile[], f: (load: TraceLoad) => Promise<T>): Promise<T> {
  const own = (files.find((x) => x.load?.resident) ?? files.find((x) => x.load))?.load;
  if (own) return f(own);
  const lent = new TraceLoad();
  try {
    return await f(lent);
  } finally {
    lent.close();
  }
}

export class CompareDiff {
  state: DiffState = { kind: 'none' };
  onChange: () => void = () => {};
  private key = '';
  private files: OpenedFile[] = [];

  // The files changed: compute the diff again when what it is made of changed.
  update(set: FileSet): void {
    const sides = set.sides;
    if (!set.compare || !sides) {
      const was = this.state.kind;
      this.key = '';
      this.state = set.compare ? { kind: 'waiting' } : { kind: 'none' };
      if (was !== this.state.kind) this.onChange();
      return;
    }
    const ready = set.ready;
    if (this.key === 'given' && ready.every((f) => !f.load)) return; // the link's summaries, trimmed: its diff stands
    const key = `${ready.map((f) => `${f.key}${f.side}`).join(',')}|${set.summaryVersion}|${set.htaCompat}`;
    if (key === this.key) return;
    this.key = key;
    this.files = ready;
    const docs = set.settled ? sideDocuments(ready) : null;
    if (!docs) {
      this.state = { kind: 'waiting' };
      this.onChange();
      return;
    }
    this.state = { kind: 'computing' };
    this.onChange();
    // A side is named by what it was opened as (a file, a folder, a saved summary), once each.
    const names = (side: 'base' | 'cand') => [...new Set(ready.filter((f) => f.side === side).map((f) => f.origin))];
    const opts = pageDiffOptions(sideLabel(names('base')), sideLabel(names('cand')));
    withLoad(ready, (load) => load.diff(JSON.stringify(docs.base), JSON.stringify(docs.cand), opts))
      .then((r) => {
        if (this.key !== key) return;
        const doc: unknown = JSON.parse(r.json);
        this.state = isDiffDocument(doc)
          ? { kind: 'ready', doc, json: r.json }
          : { kind: 'failed', message: diffError(doc) ?? 'The core gave no comparison document.' };
        this.onChange();
      })
      .catch((e: unknown) => {
        if (this.key !== key) return;
        this.state = { kind: 'failed', message: String((e as Error)?.message ?? e) };
        this.onChange();
      });
  }

  // A comparison brought by a summary link (no trace, nothing to compute).
  given(doc: DiffDocument): void {
    this.key = 'given';
    this.files = [];
    this.state = { kind: 'ready', doc, json: JSON.stringify(doc) };
    this.onChange();
  }

  get doc(): DiffDocument | null {
    return this.state.kind === 'ready' ? this.state.doc : null;
  }

  // The core's Markdown of the diff on screen; null when there is none.
  async markdown(): Promise<string | null> {
    const s = this.state;
    if (s.kind !== 'ready') return null;
    const md = await withLoad(this.files, (load) => load.diffMarkdown(s.json)).then((r) => r.json);
    if (!md) throw new Error('the core could not read the comparison');
    return md;
  }
}
