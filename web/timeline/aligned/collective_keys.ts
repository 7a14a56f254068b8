// Which calls of the ranks are one collective instance, by the core's own rule (core/job/match.cc):
// within a process group, by the sequence number when every rank's calls of that group carry one
// ("Seq"; point-to-point calls are numbered apart), else the n-th call of the same op in the same
// profiler step. Read from each rank's record (core/job/rank_record_json.h, "tracewise.rank/1"):
//   calls: [[group, op, dtype (indices into strings), seq, nelems, bytes, group_size, step|null,
//            begin_ns, end_ns], ...] in begin order; times are the rank's own absolute GPU ns.

export interface Call {
  group: string;
  op: string;
  seq: number; // -1: none
  step: number | null;
  beginNs: number;
  endNs: number;
}

// The calls of a record's JSON; [] for anything else (the peers then fall back to the time rule).
export function recordCalls(json: string): Call[] {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    return [];
  }
  if (!doc || typeof doc !== 'object') return [];
  const { strings, calls } = doc as { strings?: unknown; calls?: unknown };
  if (!Array.isArray(strings) || !Array.isArray(calls)) return [];
  const str = (i: unknown) => (typeof i === 'number' ? String(strings[i] ?? '') : '');
  return calls.flatMap((c): Call[] =>
    Array.isArray(c) && c.length >= 10
      ? [
          {
            group: str(c[0]),
            op: str(c[1]),
            seq: Number(c[3]),
            step: c[7] === null ? null : Number(c[7]),
            beginNs: Number(c[8]),
            endNs: Number(c[9]),
          },
        ]
      : []
  );
}

const pointToPoint = (op: string) => op === 'send' || op === 'recv' || op === 'sendrecv';

// Per rank, each call's instance key (equal keys on two ranks: the same instance).
export function instanceKeys(ranks: Call[][]): string[][] {
  const allSeq = new Map<string, boolean>();
  for (const calls of ranks) for (const c of calls) allSeq.set(c.group, (allSeq.get(c.group) ?? true) && c.seq >= 0);
  return ranks.map((calls) => {
    const ordinal = new Map<string, number>();
    return calls.map((c) => {
      if (allSeq.get(c.group)) return JSON.stringify([c.group, pointToPoint(c.op) ? 'p2p' : '', null, c.seq]);
      const within = JSON.stringify([c.group, c.op, c.step]);
      const n = ordinal.get(within) ?? 0;
      ordinal.set(within, n + 1);
      return JSON.stringify([c.group, c.op, c.step, n]);
    });
  });
}

// The ranks' calls with their keys, for finding a kernel's instance on the other ranks.
export class Instances {
  private readonly keys: string[][];
  private readonly byKey: Array<Map<string, number>>;

  constructor(readonly calls: Call[][]) {
    this.keys = instanceKeys(calls);
    this.byKey = this.keys.map((ks) => new Map(ks.map((k, i) => [k, i] as [string, number]).reverse()));
  }

  // The call of each other rank in the instance of rank `rank`'s call starting at `beginNs` (its
  // own clock); null when that rank has no such call.
  peersOf(rank: number, beginNs: number): Map<number, Call> | null {
    const calls = this.calls[rank] ?? [];
    let lo = 0,
      hi = calls.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (calls[mid].beginNs < beginNs) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= calls.length || calls[lo].beginNs !== beginNs) return null;
    const key = this.keys[rank][lo];
    const out = new Map<number, Call>();
    this.byKey.forEach((m, r) => {
      const i = m.get(key);
      if (r !== rank && i !== undefined) out.set(r, this.calls[r][i]);
    });
    return out;
  }
}
