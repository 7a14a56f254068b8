// Vertical scrolling to one row of a lane: whether the row is wholly inside the track area (`viewH`
// px tall, scrolled to `scrollY`), and the scroll change that brings it there, or null when it is
// already shown. The view applies the change (its scrollBy clamps to the content).
import type { LaneBox } from './layout';

export function rowInView(box: LaneBox, depth: number, scrollY: number, viewH: number): boolean {
  const y = box.y + depth * box.rowH;
  return y >= scrollY && y + box.rowH <= scrollY + viewH;
}

// For a jump (a search match, a linked slice): a row not wholly shown goes a third of the way down.
export function revealScroll(box: LaneBox, depth: number, scrollY: number, viewH: number): number | null {
  if (rowInView(box, depth, scrollY, viewH)) return null;
  return box.y + depth * box.rowH - viewH / 3 - scrollY;
}

// The least change that shows the row with a row of margin, e.g. after the details panel took the
// room it was in: the rest of the view moves as little as possible.
export function keepInViewScroll(box: LaneBox, depth: number, scrollY: number, viewH: number): number | null {
  if (rowInView(box, depth, scrollY, viewH)) return null;
  const y = box.y + depth * box.rowH;
  const margin = Math.min(box.rowH, Math.max(0, (viewH - box.rowH) / 2));
  return y < scrollY ? y - margin - scrollY : y + box.rowH + margin - viewH - scrollY;
}
