// The ticks of a duration axis from 0 to at least `maxNs`: one unit for the axis (named once, in its
// caption), round steps of 1, 2 or 5 times a power of ten, at most `maxTicks` intervals. The axis
// ends at the last tick, so every bar on it is drawn on the same scale. Pure (no DOM).
import { type ColumnUnit, durationUnit } from '../format';

export interface DurationAxis {
  unit: ColumnUnit;
  ticks: number[]; // ns, from 0
  end_ns: number; // the last tick: the axis' full length
}

export function durationAxis(maxNs: number, maxTicks = 5): DurationAxis {
  const max = Number.isFinite(maxNs) && maxNs > 0 ? maxNs : 1;
  const raw = max / maxTicks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  // Whole ns at least: the summary's times are integer ns.
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * pow);
  const n = Math.max(1, Math.ceil(max / step - 1e-9));
  const ticks = Array.from({ length: n + 1 }, (_, i) => i * step);
  const end = ticks[ticks.length - 1];
  // The unit of the longest tick; decimals only when the step is a fraction of it (0.5 ms: one).
  const u = durationUnit(end);
  const digits = Math.max(0, -Math.floor(Math.log10(step / u.div) + 1e-9));
  return { unit: { ...u, digits }, ticks, end_ns: end };
}
