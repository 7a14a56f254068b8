// Colours: by class (what the core says a slice is) or by name (a stable hash of the name).
import { BoundedCache } from './bounded_cache';

// Index = SliceClass in core/timeline/timeline_index.h.
export const kClassNames = [
  'other',
  'CPU op',
  'Python',
  'CUDA runtime',
  'compute kernel',
  'communication kernel',
  'memory op',
  'annotation',
  'sync',
  'comm hidden',
  'comm exposed',
];
const kClassColors = [
  '#9e9e9e',
  '#6f9bd8',
  '#9ccc65',
  '#f6b25c',
  '#3f7fcf',
  '#ef6c00',
  '#ab47bc',
  '#90a4ae',
  '#f06292',
  '#43a047',
  '#e53935',
];
export const kOverlapComputeColor = '#8fa8bf';

export function classColor(cls: number): string {
  return kClassColors[cls] ?? kClassColors[0];
}

const byName = new BoundedCache<string>(50000);

// FNV-1a hash of the name -> one of 36 hues, two lightness levels: neighbours with different names
// stay distinguishable and a name keeps its colour across zooms and sessions.
export function nameColor(name: string): string {
  return byName.get(name) ?? byName.set(name, hashColor(name));
}

function hashColor(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h >>>= 0;
  const hue = (h % 36) * 10,
    light = 52 + ((h >>> 8) % 2) * 12;
  return `hsl(${hue} 55% ${light}%)`;
}
