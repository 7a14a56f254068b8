// The call trees a flame graph asked its worker for, by range and direction: each asked once, the
// last few kept (a tree of 500k nodes holds ~30 MB), a failed request forgotten so it can be asked
// again. Times the last round trip (the benchmark reads it).
import type { CallTree } from './call_tree';

export interface TreeRange {
  fromNs: number;
  toNs: number;
}

const kKept = 4;

export class TreeCache<R extends TreeRange> {
  private readonly trees = new Map<string, Promise<CallTree>>();
  lastMs = 0; // the last request's round trip

  constructor(private readonly ask: (range: R | null, bottomUp: boolean) => Promise<CallTree>) {}

  get(range: R | null, bottomUp: boolean): Promise<CallTree> {
    const key = `${range ? `${range.fromNs}:${range.toNs}` : 'all'}:${bottomUp}`;
    let p = this.trees.get(key);
    if (p) return p;
    const t = performance.now();
    p = this.ask(range, bottomUp).then((tree) => {
      this.lastMs = performance.now() - t;
      return tree;
    });
    this.trees.set(key, p);
    p.catch(() => this.trees.delete(key));
    for (const k of this.trees.keys()) if (this.trees.size > kKept) this.trees.delete(k); // oldest first
    return p;
  }
}
