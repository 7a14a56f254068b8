// Time text for the ruler and the panels. Times are float64 ns (relative to the trace origin).

const kUnits: Array<[number, string]> = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'µs'],
  [1, 'ns'],
];

// "1.23 ms", "52 µs", "0 ns": three significant digits in the largest unit that keeps it >= 1.
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  const a = Math.abs(ns);
  for (const [scale, unit] of kUnits) {
    if (a >= scale || scale === 1) {
      const v = ns / scale;
      const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
      return `${v.toFixed(scale === 1 ? 0 : digits)} ${unit}`;
    }
  }
  return `${ns} ns`;
}

// A ruler step of 1, 2 or 5 × 10^k ns so that ticks are at least minPx apart.
export function niceStep(nsPerPx: number, minPx: number): number {
  const raw = Math.max(1, nsPerPx * minPx);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

// Tick label for time t on a ruler with the given step. One unit per ruler, chosen by the size of
// the times shown (`magnitude`, e.g. the larger end of the view) so that deep zooms read
// "12.85001 ms" rather than "12850010 ns"; as many decimals as the step needs.
export function formatTick(t: number, step: number, magnitude: number = Math.abs(t)): string {
  let scale = 1,
    unit = 'ns';
  const m = Math.max(Math.abs(magnitude), step);
  for (const [s, u] of kUnits)
    if (m >= s) {
      scale = s;
      unit = u;
      break;
    }
  const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / scale) - 1e-9)));
  return `${(t / scale).toFixed(decimals)} ${unit}`;
}

// An absolute time in ns (decimal string origin + relative float) as a decimal string; the
// relative part is rounded to whole ns.
export function absoluteNs(originNs: string, relNs: number): string {
  try {
    return (BigInt(originNs) + BigInt(Math.round(relNs))).toString();
  } catch {
    return '?';
  }
}
