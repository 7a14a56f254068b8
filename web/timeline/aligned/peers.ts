// A communication kernel's peers: the kernels of the same collective instance on the other ranks.
// 1. The instance the core matched: the ranks' records (./collective_keys.ts) give the call that
//    starts where the clicked kernel starts, and each other rank's call of the same instance; its
//    kernel is the communication slice that starts there on that rank's GPU lanes.
// 2. Without records (or a kernel no record lists), by time on the aligned clock: on each other
//    rank, among the communication kernels of the same family (NCCL: the same op, e.g. AllReduce;
//    others: the same name up to its template or parameter list) within a margin of the clicked
//    one, the one whose aligned interval overlaps it most, else the nearest (smallest gap).
import type { WindowReply } from '../../worker/timeline_handlers';
import type { SliceDetails, SliceRef } from '../replies';
import { alignedId } from './id_space';
import { Instances, recordCalls, type Call } from './collective_keys';

const kCommunication = 5; // SliceClass::kCommunication (core/timeline/timeline_index.h)
const kMarginNs = 1_000_000; // the time rule looks this far (or one kernel length) each side
const kLookupPx = 4096; // pixel columns of a lookup: a kernel under ~1/4096 of the window may merge

// What finding peers needs of the aligned view.
export interface PeerHost {
  ranks: number;
  shiftNs(rank: number): number;
  originNs(rank: number): string;
  gpuLanes(rank: number): number[]; // local GPU slice lanes
  alignedLane(rank: number, local: number): number;
  window(rank: number, req: { lanes: number[]; t0: number; t1: number; px: number }): Promise<WindowReply>;
  nameText(rank: number, local: number): string;
  records(): Promise<Array<string | null>>; // each rank's record JSON (null: none)
}

export function collectiveFamily(name: string): string {
  const nccl = /nccl(?:Dev)?Kernel_([A-Za-z]+)/i.exec(name);
  if (nccl) return `nccl ${nccl[1].toLowerCase()}`;
  return name.replace(/[<(][\s\S]*$/, '').trim();
}

// A candidate kernel on one rank, on the aligned clock.
interface Item {
  ref: SliceRef;
  cls: number;
}

export class PeerFinder {
  private instances: Promise<Instances | null> | null = null;

  constructor(private readonly host: PeerHost) {}

  // `d`: the clicked slice of rank `rank`, on the aligned clock. Peers in rank order.
  async peers(rank: number, d: SliceDetails): Promise<Array<{ rank: number; ref: SliceRef }>> {
    if (d.class !== 'communication') return [];
    const matched = (await this.matched())?.peersOf(rank, Number(d.startAbsNs)) ?? null;
    const found = await Promise.all(
      [...Array(this.host.ranks).keys()].map(async (r) => {
        if (r === rank) return null;
        const call = matched?.get(r);
        const ref = (call && (await this.kernelOf(r, call))) ?? (await this.byTime(r, d));
        return ref && { rank: r, ref };
      })
    );
    return found.filter((x) => x !== null);
  }

  private matched(): Promise<Instances | null> {
    this.instances ??= this.host.records().then(
      (docs) => (docs.some((d) => d) ? new Instances(docs.map((d) => (d ? recordCalls(d) : []))) : null),
      () => null
    );
    return this.instances;
  }

  // The communication kernel starting at the call's start on rank r.
  private async kernelOf(r: number, call: Call): Promise<SliceRef | null> {
    const t0 = Number(BigInt(Math.round(call.beginNs)) - BigInt(this.host.originNs(r)));
    const t1 = Math.max(t0 + 1, t0 + (call.endNs - call.beginNs));
    const items = await this.items(r, t0, t1, 64);
    const shift = this.host.shiftNs(r);
    return items.find((x) => x.cls === kCommunication && Math.abs(x.ref.startNs - shift - t0) < 0.5)?.ref ?? null;
  }

  // The rule by time (see the header).
  private async byTime(r: number, d: SliceDetails): Promise<SliceRef | null> {
    const a = d.startNs,
      b = d.startNs + d.durNs;
    const margin = Math.max(kMarginNs, d.durNs);
    const shift = this.host.shiftNs(r);
    const family = collectiveFamily(d.name);
    const items = (await this.items(r, a - margin - shift, b + margin - shift, kLookupPx)).filter(
      (x) => x.cls === kCommunication && collectiveFamily(x.ref.name) === family
    );
    let best: { ref: SliceRef; overlap: number; gap: number } | null = null;
    for (const { ref } of items) {
      const lo = Math.max(a, ref.startNs),
        hi = Math.min(b, ref.startNs + ref.durNs);
      const overlap = Math.max(0, hi - lo),
        gap = Math.max(0, lo - hi);
      if (!best || overlap > best.overlap || (overlap === best.overlap && gap < best.gap)) best = { ref, overlap, gap };
    }
    return best?.ref ?? null;
  }

  // The items of rank r's GPU lanes over [t0, t1] (its own relative times), on the aligned clock.
  private async items(r: number, t0: number, t1: number, px: number): Promise<Item[]> {
    const lanes = this.host.gpuLanes(r);
    if (!lanes.length) return [];
    const w = await this.host.window(r, { lanes, t0, t1, px });
    const shift = this.host.shiftNs(r);
    const out: Item[] = [];
    lanes.forEach((lane, k) => {
      for (let i = w.itemOffset[k]; i < w.itemOffset[k + 1]; i++) {
        if (w.flags[i] & 1) continue; // merged: stands for several slices
        out.push({
          cls: w.cls[i],
          ref: {
            id: alignedId(w.sliceId[i], r, this.host.ranks),
            name: this.host.nameText(r, w.name[i]),
            lane: this.host.alignedLane(r, lane),
            depth: w.depth[i],
            startNs: w.start[i] + shift,
            durNs: w.dur[i],
          },
        });
      }
    });
    return out;
  }
}
