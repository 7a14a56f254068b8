// The colour scale of the wait heatmap: a sequential ramp from a light cream (no wait) to a dark
// red (the longest wait of the map), linear in the wait so that twice the colour step is twice the
// wait. Stops from ColorBrewer's OrRd (perceptually ordered, readable in grey and by the common
// colour-vision deficiencies). Pure: tests/web/job_data.test.mjs.

const kStops: ReadonlyArray<readonly [number, number, number]> = [
  [255, 247, 236],
  [253, 212, 158],
  [252, 141, 89],
  [215, 48, 31],
  [127, 0, 0],
];

// Position of `ns` on the scale, 0..1 (0 when the map has no wait at all).
export function heatLevel(ns: number, maxNs: number): number {
  if (!(maxNs > 0) || !(ns > 0)) return 0;
  return Math.min(1, ns / maxNs);
}

// The colour at level t (0..1) as rgb().
export function heatColor(t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (kStops.length - 1);
  const i = Math.min(kStops.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [kStops[i], kStops[i + 1]];
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

// Ink that stays legible on the colour at level t (the last-arrival mark drawn on a cell).
export function heatInk(t: number): 'dark' | 'light' {
  return t < 0.55 ? 'dark' : 'light';
}

// The CSS gradient of the legend, the same stops.
export function heatGradient(): string {
  return `linear-gradient(to right, ${kStops.map((_, i) => heatColor(i / (kStops.length - 1))).join(', ')})`;
}
