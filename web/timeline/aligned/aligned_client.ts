// AlignedClient: the timeline client of a whole job. A TimelineView (../timeline_view.ts) talks to
// one client; this one stands for several ranks' trace workers. Each request is split by rank and
// sent to those workers in parallel, and the replies are merged into one: a group per rank
// (./aligned_tracks.ts), times moved onto the aligned clock (./rank_clock.ts: the job's clock
// offsets; request times minus a rank's shift on the way in, reply times plus it on the way out),
// ids and names numbered apart per rank (./id_space.ts), windows merged column by column
// (./window_merge.ts). A communication kernel's event names its peers on the other ranks as links
// of dir 'peer' (./peers.ts). Only the ranks with lanes in a window are asked for it, so a job of
// many ranks costs what is on screen; each worker keeps its own level of detail.
//
// The ranks' workers are shared with their own single-rank views: their names go through
// SharedNames (../worker_names.ts), and the name search is one per worker (the view that searched
// last owns it; TimelineView.refreshSearch() runs a view's own query again when it comes back).
import type { TimelineClient, TimelineKind, TimelinePayloads, TimelineReplies } from '../../worker/protocol';
import type { WindowReply } from '../../worker/timeline_handlers';
import type { AggregateReply, EventView, SearchReply } from '../replies';
import type { TracksReply } from '../track_columns';
import { mergeAggregates } from './aggregate_merge';
import { AlignedNames } from './aligned_names';
import { mergeTracks, type AlignedTracks } from './aligned_tracks';
import { alignedEvent, alignedDetails, alignedRef, type RankMap } from './event_map';
import { NameIds, splitId } from './id_space';
import { PeerFinder } from './peers';
import { alignedClock, type AlignedClock } from './rank_clock';
import { mergePages, pickStep, rankStepFrom, type RankStep, type StepOrigin } from './search_merge';
import { mergeWindows, type LaneSource, type RankWindow } from './window_merge';

// A rank's worker as the aligned view needs it: its timeline client and the texts of the names it sent.
export interface RankClient extends TimelineClient {
  text(id: number): string | undefined;
}

export interface AlignedRank {
  client: RankClient;
  label: string; // the job's label: "rank 3"
  file: string;
  offsetNs: number; // clock_offset_ns: this rank's raw times minus it are on the reference clock
  record?: () => Promise<string>; // its rank record JSON, for the core's collective instances
}

type Handlers = { [K in TimelineKind]: (p: TimelinePayloads[K]) => Promise<TimelineReplies[K]> };

// The largest search page a core gives (core/timeline/search.h).
const kMaxPage = 1000;

export class AlignedClient implements TimelineClient {
  private loading: Promise<void> | null = null;
  private own: TracksReply[] = [];
  private clock: AlignedClock = { originNs: '0', shiftNs: [] };
  private readonly cpu: boolean[];
  private merged: AlignedTracks | null = null;
  private readonly nameIds: NameIds;
  private readonly names: AlignedNames;
  private readonly peers: PeerFinder;
  private readonly handlers: Handlers = {
    tracks: () => this.tracks(),
    trackNames: (p) => this.trackNames(p),
    window: (p) => this.window(p),
    event: (p) => this.event(p),
    search: (p) => this.search(p),
    aggregate: (p) => this.aggregate(p),
  };

  constructor(readonly ranks: AlignedRank[]) {
    this.cpu = ranks.map(() => false);
    this.nameIds = new NameIds(ranks.length);
    this.names = new AlignedNames(ranks);
    this.peers = new PeerFinder({
      ranks: ranks.length,
      shiftNs: (r) => this.clock.shiftNs[r],
      originNs: (r) => this.own[r].originNs,
      gpuLanes: (r) => this.merged?.gpuLanes[r] ?? [],
      alignedLane: (r, l) => this.merged?.aligned[r][l] ?? -1,
      window: (r, req) => this.ranks[r].client.request('window', req),
      nameText: (r, id) => this.ranks[r].client.text(id) ?? '',
      records: () => Promise.all(ranks.map((x) => (x.record ? x.record().catch(() => null) : Promise.resolve(null)))),
    });
  }

  request<K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]): Promise<TimelineReplies[K]> {
    return this.handlers[kind](payload);
  }

  // Every rank's track list (asked in parallel) and the aligned clock from their origins.
  load(): Promise<void> {
    this.loading ??= Promise.all(this.ranks.map((r) => r.client.request('tracks', {}))).then((own) => {
      this.own = own;
      this.clock = alignedClock(
        own.map((t) => t.originNs),
        this.ranks.map((r) => r.offsetNs)
      );
      this.merged = this.merge();
    });
    return this.loading;
  }

  // Valid once loaded: the aligned view's origin (absolute ns on the reference clock), and how far
  // rank r's relative times are from the aligned ones (aligned = relative + shift).
  get originNs(): string {
    return this.clock.originNs;
  }
  shiftNs(rank: number): number {
    return this.clock.shiftNs[rank] ?? 0;
  }

  cpuShown(rank: number): boolean {
    return this.cpu[rank] ?? false;
  }

  // Shows or hides rank `rank`'s CPU threads (and its other non-GPU lanes). The track list changes:
  // the view asks for it again (TimelineView.reloadTracks()).
  setCpu(rank: number, on: boolean): void {
    if (!(rank >= 0 && rank < this.cpu.length) || this.cpu[rank] === on) return;
    this.cpu[rank] = on;
    if (this.own.length) this.merged = this.merge();
    this.onCpu(rank, on);
  }
  onCpu: (rank: number, on: boolean) => void = () => {}; // the CPU picker follows

  // A slice the view does not show (a CPU thread's, e.g. the launch of a clicked kernel): its rank's
  // CPU lanes are shown (TimelineView's LaneShower).
  async showLaneOf(sliceId: number): Promise<boolean> {
    const at = splitId(sliceId, this.ranks.length);
    if (!at || this.cpuShown(at.rank)) return false;
    this.setCpu(at.rank, true);
    return true;
  }

  private merge(): AlignedTracks {
    return mergeTracks(
      this.own.map((tracks, r) => ({ tracks, shiftNs: this.clock.shiftNs[r], cpu: this.cpu[r] })),
      this.clock.originNs
    );
  }

  private async current(): Promise<AlignedTracks> {
    await this.load();
    return this.merged!;
  }

  private rankMap(rank: number, t: AlignedTracks): RankMap {
    return {
      rank,
      ranks: this.ranks.length,
      shiftNs: this.shiftNs(rank),
      label: this.ranks[rank].label,
      lane: (local) => t.aligned[rank][local] ?? -1,
    };
  }

  // --- requests --------------------------------------------------------------------------------------

  private async tracks(): Promise<TracksReply> {
    return (await this.current()).reply;
  }

  private async trackNames(p: TimelinePayloads['trackNames']): Promise<{ names: string[] }> {
    const t = await this.current();
    if (p.groups) return { names: this.names.groups(p.first, p.count) };
    return { names: await this.names.lanes(t, this.own, p.first, p.count) };
  }

  // Lanes by rank: each rank's local lanes in request order, and where each requested lane is.
  private split(t: AlignedTracks, lanes: number[]): { byRank: Array<[number, number[]]>; sources: LaneSource[] } {
    const parts = new Map<number, number[]>();
    const sources = lanes.map((lane): LaneSource => {
      if (!(Number.isInteger(lane) && lane >= 0 && lane < t.reply.tracks)) return null;
      const r = t.laneRank[lane];
      let list = parts.get(r);
      if (!list) parts.set(r, (list = []));
      list.push(t.laneLocal[lane]);
      return { part: r, index: list.length - 1 };
    });
    return { byRank: [...parts], sources };
  }

  private async window(p: TimelinePayloads['window']): Promise<WindowReply> {
    const t = await this.current();
    const { byRank, sources } = this.split(t, p.lanes);
    const replies = await Promise.all(
      byRank.map(([r, lanes]) => {
        const s = this.shiftNs(r);
        return this.ranks[r].client.request('window', { ...p, lanes, t0: p.t0 - s, t1: p.t1 - s });
      })
    );
    const partOf = new Map(byRank.map(([r], k) => [r, k]));
    const parts: RankWindow[] = replies.map((reply, k) => ({
      reply,
      rank: byRank[k][0],
      shiftNs: this.shiftNs(byRank[k][0]),
    }));
    const names: Record<number, string> = {};
    const columns = mergeWindows(
      sources.map((s) => s && { part: partOf.get(s.part)!, index: s.index }),
      parts,
      {
        ranks: this.ranks.length,
        name: (r, local) =>
          this.nameIds.id(r, local, (id) => {
            names[id] = this.ranks[r].client.text(local) ?? '';
          }),
      }
    );
    return { ...columns, lanes: p.lanes, t0: p.t0, t1: p.t1, px: p.px, names };
  }

  private async event(p: TimelinePayloads['event']): Promise<EventView> {
    const t = await this.current();
    const instant = 'instantId' in p;
    const at = splitId(instant ? p.instantId : p.sliceId, this.ranks.length);
    if (!at) throw new Error('no such event');
    const client = this.ranks[at.rank].client;
    const reply = await client.request('event', instant ? { instantId: at.local } : { sliceId: at.local });
    const out = alignedEvent(reply, this.rankMap(at.rank, t));
    const d = out.details;
    if (d.instant) return out;
    const peers = await this.peers.peers(at.rank, d).catch(() => []);
    if (!peers.length) return out;
    const links = peers.map(({ rank, ref }) => ({ dir: 'peer', to: ref, rank: this.ranks[rank].label }));
    return { ...out, details: { ...d, links: [...d.links, ...links] } };
  }

  private async search(p: TimelinePayloads['search']): Promise<SearchReply> {
    const t = await this.current();
    const all = <R>(f: (c: RankClient, r: number) => Promise<R>) =>
      Promise.all(this.ranks.map((x, r) => f(x.client, r)));
    switch (p.op) {
      case 'run': {
        const rs = await all((c) => c.request('search', p));
        const refused = rs.find((r) => r.error !== undefined);
        if (refused) return { count: 0, names: 0, error: refused.error };
        return { count: rs.reduce((n, r) => n + r.count, 0), names: rs.reduce((n, r) => n + (r.names ?? 0), 0) };
      }
      case 'clear':
        await all((c) => c.request('search', p));
        return { count: 0 };
      case 'page': {
        const limit = Math.min(kMaxPage, p.offset + p.limit);
        const pages = await all((c, r) =>
          c.request('search', { op: 'page', offset: 0, limit }).then((x) => ({
            rank: r,
            count: x.count,
            matches: (x.matches ?? []).map((m) => alignedRef(m, this.rankMap(r, t))),
          }))
        );
        return mergePages(p.offset, p.limit, pages);
      }
      default: {
        const from = splitId(p.fromId, this.ranks.length);
        const o: StepOrigin = { ns: p.fromNs, rank: from?.rank ?? -1, local: from?.local ?? -1 };
        const steps = await all((c, r): Promise<RankStep> =>
          c.request('search', { op: p.op, ...rankStepFrom(o, r, this.shiftNs(r)) }).then((x) => ({
            rank: r,
            local: x.event?.id ?? -1,
            index: x.index ?? -1,
            count: x.count,
            event: x.event ? alignedDetails(x.event, this.rankMap(r, t)) : null,
          }))
        );
        return pickStep(p.op === 'next' ? 1 : -1, o, steps);
      }
    }
  }

  private async aggregate(p: TimelinePayloads['aggregate']): Promise<AggregateReply> {
    const t = await this.current();
    const { byRank } = this.split(t, p.lanes);
    const parts = await Promise.all(
      byRank.map(([r, lanes]) => {
        const s = this.shiftNs(r);
        return this.ranks[r].client.request('aggregate', { lanes, t0: p.t0 - s, t1: p.t1 - s });
      })
    );
    return mergeAggregates(parts);
  }
}
