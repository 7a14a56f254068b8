// Call trees made on the page from the core's top-down tree, merged by name path: every thread under
// one synthetic root (side by side, or merged into one tree), and a function's sandwich (its callers
// above it, its callees below, over all the places it is called from). Values are summed; a node of a
// merged tree belongs to no one thread (track -1).
import { emptyTree, type CallTree } from './call_tree';

// A growing tree: nodes are keyed by (parent, name) and made in order, parents first.
class TreeBuilder {
  private readonly key = new Map<number, number>();
  parent: number[] = [];
  name: number[] = [];
  track: number[] = [];
  readonly sums: number[][] = [[], [], [], [], []]; // count, total, self, gpu, gpu self

  constructor(private readonly nameCount: number) {}

  node(parent: number, name: number, track = -1): number {
    const k = (parent + 1) * (this.nameCount + 1) + name;
    let n = this.key.get(k);
    if (n === undefined) {
      n = this.parent.length;
      this.key.set(k, n);
      this.parent.push(parent);
      this.name.push(name);
      this.track.push(track);
      for (const s of this.sums) s.push(0);
    } else if (this.track[n] !== track) this.track[n] = -1;
    return n;
  }

  // Adds node `i` of `t`'s values to node `n` (`self`: also its self times).
  add(n: number, t: CallTree, i: number, self = true): void {
    this.sums[0][n] += t.count[i];
    this.sums[1][n] += t.totalNs[i];
    this.sums[3][n] += t.gpuNs[i];
    if (!self) return;
    this.sums[2][n] += t.selfNs[i];
    this.sums[4][n] += t.gpuSelfNs[i];
  }

  tree(names: string[]): CallTree {
    const out = emptyTree('top_down', names, this.parent.length);
    out.parent.set(this.parent);
    out.name.set(this.name);
    out.track.set(this.track);
    for (let i = 0; i < out.size; i++) out.depth[i] = out.parent[i] < 0 ? 0 : out.depth[out.parent[i]] + 1;
    out.count.set(this.sums[0]);
    out.totalNs.set(this.sums[1]);
    out.selfNs.set(this.sums[2]);
    out.gpuNs.set(this.sums[3]);
    out.gpuSelfNs.set(this.sums[4]);
    return out;
  }
}

// `t` with a synthetic root named `label` (node 0) above its roots: thread roots side by side.
export function withRoot(t: CallTree, label: string): CallTree {
  const out = emptyTree(t.kind, [...t.names, label], t.size + 1);
  out.range = t.range;
  out.gpuUnlinkedNs = t.gpuUnlinkedNs;
  out.gpuUnlinkedOps = t.gpuUnlinkedOps;
  out.parent[0] = -1;
  out.name[0] = t.names.length;
  for (let i = 0; i < t.size; i++) {
    out.parent[i + 1] = t.parent[i] + 1; // a root's -1 becomes the new root 0
    out.name[i + 1] = t.name[i];
    out.track[i + 1] = t.track[i];
    out.depth[i + 1] = t.depth[i] + 1;
  }
  out.count.set(t.count, 1);
  out.totalNs.set(t.totalNs, 1);
  out.selfNs.set(t.selfNs, 1);
  out.gpuNs.set(t.gpuNs, 1);
  out.gpuSelfNs.set(t.gpuSelfNs, 1);
  for (let i = 0; i < t.size; i++)
    if (t.parent[i] < 0) {
      out.count[0] += t.count[i];
      out.totalNs[0] += t.totalNs[i];
      out.gpuNs[0] += t.gpuNs[i];
    }
  return out;
}

// The nodes of `t` whose own name is `name` and none of whose ancestors has it: where a function is
// entered from elsewhere (a recursive call inside it is counted with the outer one).
export function outermost(t: CallTree, name: number): Uint8Array {
  const inside = new Uint8Array(t.size);
  const out = new Uint8Array(t.size);
  for (let i = 0; i < t.size; i++) {
    const p = t.parent[i];
    const above = p >= 0 && inside[p] === 1;
    out[i] = t.name[i] === name && !above ? 1 : 0;
    inside[i] = above || t.name[i] === name ? 1 : 0;
  }
  return out;
}

// The subtrees of the nodes marked in `starts` merged by name path under one root named `rootName`
// (an index into t.names): the root sums the starts, each path below them sums its nodes.
export function mergeSubtrees(t: CallTree, starts: Uint8Array, rootName: number, names = t.names): CallTree {
  const b = new TreeBuilder(names.length);
  const root = b.node(-1, rootName);
  const mapped = new Int32Array(t.size).fill(-1);
  for (let i = 0; i < t.size; i++) {
    const p = t.parent[i];
    if (starts[i]) {
      mapped[i] = root;
      b.add(root, t, i);
    } else if (p >= 0 && mapped[p] >= 0) {
      mapped[i] = b.node(mapped[p], t.name[i], t.track[i]);
      b.add(mapped[i], t, i);
    }
  }
  return b.tree(names);
}

// Every root of `t` merged into one tree under a root named `label`: each path summed over the threads.
export function mergeRoots(t: CallTree, label: string): CallTree {
  const starts = new Uint8Array(t.size);
  for (let i = 0; i < t.size; i++) starts[i] = t.parent[i] < 0 ? 1 : 0;
  const names = [...t.names, label];
  return mergeSubtrees(t, starts, names.length - 1, names);
}

// What calls function `name` (node 0 is the function; its children its callers, theirs their
// callers, up to the thread roots), each path with the time of the calls made through it; and what
// it calls (node 0 the function, below it its callees merged over every call).
export function sandwich(t: CallTree, name: number): { callers: CallTree; callees: CallTree } {
  const starts = outermost(t, name);
  const callees = mergeSubtrees(t, starts, name);
  const b = new TreeBuilder(t.names.length);
  const root = b.node(-1, name);
  for (let i = 0; i < t.size; i++) {
    if (!starts[i]) continue;
    b.add(root, t, i);
    let n = root;
    for (let p = t.parent[i]; p >= 0; p = t.parent[p]) {
      n = b.node(n, t.name[p], t.track[p]);
      b.add(n, t, i, false);
    }
  }
  const callers = b.tree(t.names);
  // A caller's self: the calls that end at it (the time not passed on to a further caller).
  for (let i = callers.size - 1; i > 0; i--) {
    callers.selfNs[i] += callers.totalNs[i];
    callers.gpuSelfNs[i] += callers.gpuNs[i];
    const p = callers.parent[i];
    if (p > 0) {
      callers.selfNs[p] -= callers.totalNs[i];
      callers.gpuSelfNs[p] -= callers.gpuNs[i];
    }
  }
  return { callers, callees };
}
