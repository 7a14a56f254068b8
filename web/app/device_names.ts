// The devices of a trace in one line, as the dashboard's facts and the exports write them:
// "NVIDIA H800 × 8". deviceProperties may leave a device's name out (the core writes ""), and
// " × 8" alone read as if something were missing from the page; such a device is named by what the
// trace does say (its compute capability) and says its name is not in the trace.
import type { DeviceProperties } from './summary_document';

// The core writes "0.0" when the trace gives no computeMajor / computeMinor.
const kNoCapability = '0.0';

export function deviceName(d: Partial<DeviceProperties> | null | undefined): string {
  const name = typeof d?.name === 'string' ? d.name.trim() : '';
  if (name) return name;
  const cc = typeof d?.compute_capability === 'string' ? d.compute_capability.trim() : '';
  return cc && cc !== kNoCapability ? `GPU (no name in trace, compute capability ${cc})` : 'GPU (no name in trace)';
}

// "A × 2, B × 1" in the order the names first appear; null without devices.
export function devicesLine(devices: unknown): string | null {
  if (!Array.isArray(devices) || devices.length === 0) return null;
  const counts = new Map<string, number>();
  for (const d of devices as Array<Partial<DeviceProperties> | null>) {
    const n = deviceName(d);
    counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  return [...counts].map(([n, c]) => `${n} × ${c}`).join(', ');
}
