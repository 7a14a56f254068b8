// The aligned clock of several ranks' traces. Each trace's times are float64 ns relative to its own
// origin (its first timestamp, a decimal string); the job analysis gives each rank a clock offset
// (its raw timestamps minus the offset are on the reference rank's clock: docs/summary-schema.md).
// The aligned view's origin is the earliest aligned origin, so every rank's shift is >= 0 and
// aligned time = rank-relative time + shift. Origins are ~1.7e15 ns (exact in float64 below 2^53),
// but the sums are done in BigInt so that no digit depends on rounding order.

export interface AlignedClock {
  originNs: string; // the aligned view's origin: absolute ns on the reference clock
  shiftNs: number[]; // per rank: aligned time - rank-relative time
}

// `origins`: each rank's originNs; `offsetsNs`: each rank's clock_offset_ns (0 for a rank not aligned).
export function alignedClock(origins: string[], offsetsNs: number[]): AlignedClock {
  const starts = origins.map((o, r) => BigInt(o) - BigInt(Math.round(offsetsNs[r] ?? 0)));
  if (!starts.length) return { originNs: '0', shiftNs: [] };
  const first = starts.reduce((a, b) => (b < a ? b : a));
  return { originNs: String(first), shiftNs: starts.map((s) => Number(s - first)) };
}

// A window as one view shows it: [t0, t1] relative to its origin, on a clock `offsetNs` away from the
// reference (the aligned view: 0).
export interface ClockWindow {
  t0: number;
  t1: number;
  originNs: string;
  offsetNs: number;
}

// The same instants as seen by a view of origin `originNs` on a clock `offsetNs` from the reference.
export function convertWindow(w: ClockWindow, to: { originNs: string; offsetNs: number }): { t0: number; t1: number } {
  // to-relative = from-relative + (from origin - from offset) - (to origin - to offset)
  const delta = Number(
    BigInt(w.originNs) - BigInt(Math.round(w.offsetNs)) - (BigInt(to.originNs) - BigInt(Math.round(to.offsetNs)))
  );
  return { t0: w.t0 + delta, t1: w.t1 + delta };
}
