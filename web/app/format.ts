// Number formatting for the dashboard. Durations arrive as integer nanoseconds and are shown in the
// largest unit that keeps them readable; counts get thousands separators.

// Thousands grouped with commas, as toLocaleString('en-US') writes integers, but by hand: that
// call goes through ICU, and the dashboard formats thousands of cells on the main thread at the
// end of a load.
export function fmtCount(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const r = Math.round(n);
  const digits = String(Math.abs(r));
  if (digits.length <= 3) return r < 0 ? `-${digits}` : digits;
  if (digits.includes('e')) return r.toLocaleString('en-US'); // >= 1e21: String() switches to exponents
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return r < 0 ? `-${out}` : out;
}

export function fmtNum(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (Number.isInteger(n)) return fmtCount(n);
  const a = Math.abs(n);
  return a >= 100 ? n.toFixed(1) : a >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

export function fmtDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '–';
  const a = Math.abs(ns);
  const fix = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(2));
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${fix(ns / 1e3)} µs`;
  if (a < 1e9) return `${fix(ns / 1e6)} ms`;
  return `${fix(ns / 1e9)} s`;
}

// One unit for a whole column, so its numbers compare at a glance (the header names the unit): the
// largest unit in which the column's largest magnitude is at least 1, and as many decimals as that
// magnitude needs for 4 significant digits (at most 2).
export interface ColumnUnit {
  unit: string;
  div: number;
  digits: number;
}
export function durationUnit(maxAbsNs: number): ColumnUnit {
  const [unit, div] =
    maxAbsNs >= 1e9 ? ['s', 1e9] : maxAbsNs >= 1e6 ? ['ms', 1e6] : maxAbsNs >= 1e3 ? ['µs', 1e3] : ['ns', 1];
  return { unit, div, digits: div === 1 ? 0 : decimalsFor(maxAbsNs / div) };
}
export function pctUnit(maxAbsPct: number): ColumnUnit {
  return { unit: '%', div: 1, digits: decimalsFor(maxAbsPct) };
}
const decimalsFor = (max: number) => (max >= 100 ? 1 : 2);

// A value that is not zero but rounds to zero in the column's unit says so ("<0.01"): a 3 µs kernel
// in a column of milliseconds would otherwise read "0.00", as if it took no time.
export function fmtInUnit(v: number, u: ColumnUnit): string {
  if (!Number.isFinite(v)) return '–';
  const x = v / u.div;
  const s = x.toFixed(u.digits);
  if (x === 0 || Number(s) !== 0) return s;
  return `${x < 0 ? '>-' : '<'}${(10 ** -u.digits).toFixed(u.digits)}`;
}

// The one unit of a column of `kind` over its values (timestamps: from the trace's start, originNs),
// from its largest magnitude; null for kinds shown without a column unit (counts, bytes, text).
export function columnUnit(kind: FieldKind, values: Iterable<unknown>, originNs = 0): ColumnUnit | null {
  let max = 0;
  for (const v of values)
    if (typeof v === 'number' && Number.isFinite(v)) max = Math.max(max, Math.abs(kind === 'ts' ? v - originNs : v));
  if (kind === 'ns' || kind === 'ts') return durationUnit(max);
  if (kind === 'pct') return pctUnit(max);
  if (kind === 'frac') return { ...pctUnit(100 * max), div: 0.01 };
  return null;
}

// A value in its column's unit, the unit left to the header (timestamps: "+" and from originNs).
export function fmtInColumn(kind: FieldKind, v: number, u: ColumnUnit, originNs = 0): string {
  return kind === 'ts' ? `+${fmtInUnit(v - originNs, u)}` : fmtInUnit(v, u);
}

// Where a host sync was called from when its call site is null in the summary (no operator around
// it): the summary's only null name (docs/summary-detail-sections.md).
export const kNoOperator = 'outside any operator';

// Percentages in the summary are already 0..100.
export function fmtPct(p: number): string {
  if (!Number.isFinite(p)) return '–';
  return `${Math.abs(p) >= 10 ? p.toFixed(1) : p.toFixed(2)} %`;
}

export function fmtBytes(b: number): string {
  if (!Number.isFinite(b)) return '–';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

export function fmtRate(mbPerSec: number): string {
  return `${mbPerSec >= 100 ? mbPerSec.toFixed(0) : mbPerSec.toFixed(1)} MB/s`;
}

export function fmtSeconds(s: number): string {
  if (!Number.isFinite(s)) return '–';
  if (s < 60) return `${Math.ceil(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`;
}

// How a summary field is shown, decided by its key (units are in the names: *_ns, *_bytes, *pct).
export type FieldKind = 'ns' | 'ts' | 'pct' | 'frac' | 'bytes' | 'count' | 'num' | 'text' | 'bool';

export function kindOfKey(key: string, sample: unknown): FieldKind {
  if (typeof sample === 'boolean') return 'bool';
  if (typeof sample !== 'number') return 'text';
  const k = key.toLowerCase();
  // Timestamps: begin_ns, end_ns, ts_ns, first_ns, peak_allocated_ts_ns, launch_end_ns, gpu_start_ns; not
  // durations that merely end in "start" (mean_launch_to_start_ns).
  if (
    /^(ts|begin|start|end|first|last|t0|t1|cutoff)_ns$/.test(k) ||
    /_ts_ns$/.test(k) ||
    /^[a-z0-9]+_(begin|start|end)_ns$/.test(k)
  )
    return 'ts';
  if (k.endsWith('_ns') || k === 'ns') return 'ns';
  if (/(^|_)pct(_|$)/.test(k) || k.includes('percent')) return 'pct';
  // Fractions 0..1 (imbalance: 1 - the lighter stream's busy time / the heavier one's)
  if (k === 'share' || k.endsWith('_share') || k === 'busy' || k === 'imbalance') return 'frac';
  if (k.includes('bytes') || k.endsWith('_mem') || /(^|_)(allocated|reserved)$/.test(k)) return 'bytes';
  if (Number.isInteger(sample)) return 'count';
  return 'num';
}

export function fmtField(kind: FieldKind, v: unknown, originNs = 0): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v !== 'number') return String(v);
  switch (kind) {
    case 'ns':
      return fmtDuration(v);
    case 'ts':
      return `+${fmtDuration(v - originNs)}`;
    case 'pct':
      return fmtPct(v);
    case 'frac':
      return fmtPct(100 * v);
    case 'bytes':
      return fmtBytes(v);
    case 'count':
      return fmtCount(v);
    default:
      return fmtNum(v);
  }
}

const kLabels: Record<string, string> = {
  top: 'Top by total time',
  by_type: 'By type',
  worst_exposed: 'Longest exposed stretches',
  worst_delays: 'Worst launch delays',
  top_sites: 'Top call sites',
  short_ops: 'Ops shorter than their launch',
  host_syncs: 'Host synchronisations',
  algbw_gbps: 'Alg BW (GB/s)',
  busbw_gbps: 'Bus BW (GB/s)',
  p50_ns: 'p50',
  p90_ns: 'p90',
  p95_ns: 'p95',
  p99_ns: 'p99',
  step_breakdown: 'Step breakdown',
  memory_ops: 'Memory ops',
  stream_overlap: 'Stream overlap',
};

// Words of key names written as they are spoken: "launch_cpu_ns" is "Launch CPU", not "Launch cpu".
const kWords: Record<string, string> = {
  gpu: 'GPU',
  gpus: 'GPUs',
  cpu: 'CPU',
  cpus: 'CPUs',
  id: 'ID',
  ids: 'IDs',
  hta: 'HTA',
  nccl: 'NCCL',
  cuda: 'CUDA',
  kb: 'KB',
  mb: 'MB',
  gb: 'GB',
  tb: 'TB',
  bw: 'BW',
  sm: 'SM',
  sms: 'SMs',
  dl: 'DL',
  htod: 'HtoD',
  dtoh: 'DtoH',
  dtod: 'DtoD',
  ptop: 'PtoP',
};
const phrase = (s: string) =>
  s
    .split('_')
    .filter(Boolean)
    .map((w) => kWords[w.toLowerCase()] ?? w)
    .join(' ');

// A key as words, lower case but for acronyms, without its unit: "launched_gpu_ns" -> "launched GPU".
// For labels built of several keys ("Classes" + "memory").
export function wordsOf(key: string): string {
  const label = labelOf(key);
  return kAcronyms.has(label.split(' ')[0]) ? label : label[0].toLowerCase() + label.slice(1);
}
const kAcronyms = new Set(Object.values(kWords));

// An identifier the summary uses as a value (an idle cause, an op kind), as the legends write it:
// "host_wait" -> "host wait", "gpu_memcpy" -> "GPU memcpy". Anything else is returned as it is.
export function valueLabel(v: unknown): string {
  if (typeof v !== 'string') return v === null || v === undefined ? '–' : String(v);
  return /^[a-z0-9]+(_[a-z0-9]+)+$/.test(v) ? phrase(v) : v;
}

// "kernel_wait_ns" -> "Kernel wait", "gpu_ops" -> "GPU ops"
export function labelOf(key: string): string {
  if (kLabels[key]) return kLabels[key];
  const s = phrase(key.replace(/_(ns|pct|bytes)$/, '')).trim();
  return s ? s[0].toUpperCase() + s.slice(1) : key;
}
