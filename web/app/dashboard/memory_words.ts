// A device's memory peaks in words, saying only what the trace measured. The core writes 0 for a
// value no memory event carried: the CPU's events carry no reserved memory (no caching allocator),
// and a device (or a step) may have no memory event at all. Shown as "peak 0 B reserved", such a
// zero read like a measurement; here it is left out, or the device says it has no memory events.
import { fmtBytes } from '../format';
import type { MemoryDevice } from '../summary_document';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export type MemoryPeaks =
  | { kind: 'none' } // no memory event on this device
  | { kind: 'measured'; allocated: number; reserved: number | null }; // reserved: null when never recorded

// Reserved memory is at least the allocated memory wherever it is recorded: a zero peak means it
// was not recorded.
export const reservedRecorded = (d: { peak_reserved?: unknown } | null | undefined): boolean =>
  (num(d?.peak_reserved) ?? 0) > 0;

export function memoryPeaks(d: Partial<MemoryDevice> | null | undefined): MemoryPeaks {
  const samples = num(d?.samples);
  const allocated = num(d?.peak_allocated);
  if (samples === 0 || allocated === null) return { kind: 'none' };
  return { kind: 'measured', allocated, reserved: reservedRecorded(d) ? d!.peak_reserved! : null };
}

export const deviceLabel = (device: unknown) => (device === -1 ? 'CPU' : `GPU ${String(device)}`);

// "peak 6.6 GB allocated, 12.8 GB reserved", "peak 8 B allocated (no reserved memory recorded)" or
// "no memory events".
export function memoryPeakText(p: MemoryPeaks): string {
  if (p.kind === 'none') return 'no memory events';
  const reserved = p.reserved === null ? ' (no reserved memory recorded)' : `, ${fmtBytes(p.reserved)} reserved`;
  return `peak ${fmtBytes(p.allocated)} allocated${reserved}`;
}
