// Ids in the aligned view of several ranks. Each rank's worker numbers its own slices, instants and
// name strings from 0; the aligned view needs one number space for each.
// - Slice and instant ids interleave: rank r's id i is i * ranks + r, so an event request finds its
//   rank and local id with no table (a view may show millions of slices). kNoId (overlap lanes'
//   items) stays kNoId, and so does an id past 2^32 (a rank of more than 2^32 / ranks slices, far
//   beyond what a browser's heap holds for a job of a few tens of ranks): such an item shows but
//   cannot be clicked.
// - Name ids are given out in the order they are first seen: only names on screen get one, and 0
//   (no name) stays 0.
export const kNoId = 0xffffffff;

export function alignedId(local: number, rank: number, ranks: number): number {
  if (local === kNoId) return kNoId;
  const id = local * ranks + rank;
  return id < kNoId ? id : kNoId;
}

export function splitId(id: number, ranks: number): { rank: number; local: number } | null {
  if (!Number.isInteger(id) || id < 0 || id >= kNoId || ranks < 1) return null;
  return { rank: id % ranks, local: Math.floor(id / ranks) };
}

export class NameIds {
  private readonly byRank: Array<Map<number, number>>;
  private next = 1;

  constructor(ranks: number) {
    this.byRank = Array.from({ length: ranks }, () => new Map());
  }

  // The aligned id of rank `rank`'s name id `local`; `fresh` is called with it the first time.
  id(rank: number, local: number, fresh: (id: number) => void): number {
    if (local === 0) return 0;
    const m = this.byRank[rank];
    let id = m.get(local);
    if (id === undefined) {
      id = this.next++;
      m.set(local, id);
      fresh(id);
    }
    return id;
  }
}
