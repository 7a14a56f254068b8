// X-axis ticks of the charts over time (x in ms from the trace start). uPlot's default puts ticks
// 50 px apart whatever the labels' length and prints each value in its own unit and precision, so
// long labels ran into each other ("+900.0 ms+950.0 ms+1.00 s"). Here one axis has one unit and one
// number of decimals, chosen from the tick increment, and ticks are spaced by the labels' width.
// Pure (no DOM): tests/web/time_ticks.test.mjs runs it in node.

export interface TickFormat {
  unit: string;
  ms: number;
  decimals: number;
}

const kUnits = [
  { unit: 'ns', ms: 1e-6 },
  { unit: 'µs', ms: 1e-3 },
  { unit: 'ms', ms: 1 },
  { unit: 's', ms: 1e3 },
];
// uPlot's numeric increments (its default for a non-time scale): 1, 2, 2.5 and 5 times powers of ten.
const kMults = [1, 2, 2.5, 5];

// Decimals needed to write every multiple of x exactly: 2.5 needs 1, 0.05 needs 2, 20 none.
function decimalsOf(x: number): number {
  for (let d = 0; d < 9; d++) {
    const s = x * 10 ** d;
    if (Math.abs(s - Math.round(s)) <= 1e-9 * Math.max(1, Math.abs(s))) return d;
  }
  return 9;
}

export function formatTick(v: number, f: TickFormat): string {
  const x = v / f.ms;
  const s = Math.abs(x).toFixed(f.decimals);
  const sign = Number(s) === 0 ? '' : x < 0 ? '−' : '+';
  return `${sign}${s} ${f.unit}`;
}

// The unit whose labels for ticks `incr` apart between lo and hi are shortest ("+2.05 s" rather than
// "+2050 ms", "+120 ms" rather than "+0.12 s": on a tie the one needing fewer decimals).
export function tickFormat(incr: number, lo: number, hi: number): TickFormat {
  let best: TickFormat | null = null;
  let bestKey = [Infinity, Infinity];
  for (const u of kUnits) {
    const f = { unit: u.unit, ms: u.ms, decimals: decimalsOf(incr / u.ms) };
    const key = [Math.max(formatTick(lo, f).length, formatTick(hi, f).length), f.decimals];
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = f;
      bestKey = key;
    }
  }
  return best!;
}

// Increments from about `from` up, in uPlot's sequence.
function incrsFrom(from: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(from)) - 1; out.length < 64; e++) {
    for (const m of kMults) {
      const v = m * 10 ** e;
      if (v >= from * 0.999) out.push(v);
    }
  }
  return out;
}

// uPlot axis `space` (the minimum px between ticks): the smallest increment whose labels, with the
// gap, fit between two ticks, returned as just under its spacing so that uPlot picks that increment
// (it takes the first increment at least `space` apart; the one before is at most 1/1.25 of it).
// measure(text) is the label's width in px.
export function tickSpace(
  lo: number,
  hi: number,
  dimPx: number,
  measure: (text: string) => number,
  gapPx = 16
): number {
  const range = hi - lo;
  if (!(range > 0) || !(dimPx > 0)) return 50;
  for (const incr of incrsFrom(range / dimPx)) {
    const px = (incr / range) * dimPx;
    const f = tickFormat(incr, lo, hi);
    const w = Math.max(measure(formatTick(lo, f)), measure(formatTick(hi, f)));
    if (px >= w + gapPx) return px * (1 - 1e-6);
  }
  return dimPx;
}
