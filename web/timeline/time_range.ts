// The timeline's visible time range: where a zoom, a pan, a link or a selection moves it. Times are
// float64 ns relative to the trace origin; a range is [t0, t1]. Pure, so the rules are tested in
// node (tests/web/time_range.test.mjs).

// An absolute trace time as given from outside the view: bigint or a decimal string keep every
// digit of a Kineto timestamp in ns (beyond 2^53); a number is taken as it is.
export type TimeLike = bigint | string | number;

export type Range = { t0: number; t1: number };

export const kMinSpanNs = 20;

// `t` relative to the trace origin (`originNs`, a decimal string).
export function relativeNs(t: TimeLike, originNs: string): number {
  if (typeof t === 'bigint') return Number(t - BigInt(originNs));
  if (typeof t === 'string') {
    try {
      return Number(BigInt(t.trim()) - BigInt(originNs));
    } catch {
      return Number(t) - Number(originNs);
    }
  }
  return t - Number(originNs);
}

// [t0, t1] kept sane for a trace ending at `endNs`: a span of at least kMinSpanNs and at most four
// traces, never further than one and a half traces beyond either end.
export function clampRange(t0: number, t1: number, endNs: number): Range {
  const end = Math.max(endNs, 1000);
  const span = Math.min(Math.max(t1 - t0, kMinSpanNs), end * 4);
  const a = Math.min(Math.max((t0 + t1) / 2 - span / 2, -end * 1.5), end * 2.5 - span);
  return { t0: a, t1: a + span };
}

// The whole trace, with a margin.
export function fitRange(endNs: number): Range {
  const end = Math.max(endNs, 1000);
  return { t0: -end * 0.01, t1: end * 1.01 };
}

// A link's range [a, b] (either order) with 5% of room on each side.
export function paddedRange(a: number, b: number): Range {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const pad = Math.max((hi - lo) * 0.05, kMinSpanNs / 2);
  return { t0: lo - pad, t1: hi + pad };
}

// Zoomed by `factor` (< 1: in) around the time `at`.
export function zoomedRange(r: Range, at: number, factor: number): Range {
  return { t0: at - (at - r.t0) * factor, t1: at + (r.t1 - at) * factor };
}

// Where the view goes to show a slice `s`: `fit` (or a slice too long or too short to see at this
// zoom) frames it; one outside the view is centred at the same zoom; null: it is in view already.
export function rangeForSlice(r: Range, s: { startNs: number; durNs: number }, fit: boolean): Range | null {
  const span = r.t1 - r.t0;
  if (fit || s.durNs > span * 0.8 || s.durNs < span / 5000) {
    const w = Math.max(s.durNs, kMinSpanNs);
    return { t0: s.startNs - w * 0.25, t1: s.startNs + w * 1.25 };
  }
  if (s.startNs >= r.t0 && s.startNs + s.durNs <= r.t1) return null;
  const mid = s.startNs + s.durNs / 2;
  return { t0: mid - span / 2, t1: mid + span / 2 };
}

// Following a link from slice `from` to `to`: both in view when they are close enough (within four
// views' span), else `to` framed.
export function rangeForJump(
  r: Range,
  from: { startNs: number; durNs: number },
  to: { startNs: number; durNs: number }
): Range {
  const a = Math.min(from.startNs, to.startNs);
  const b = Math.max(from.startNs + from.durNs, to.startNs + to.durNs);
  if (b - a < (r.t1 - r.t0) * 4) return { t0: a - (b - a) * 0.3, t1: b + (b - a) * 0.3 };
  return rangeForSlice(r, to, true)!;
}
