// How the slices of a lane row are filled. A slice at least kWide px wide is its own rect, one pixel
// short at its right end, so that neighbouring slices stay apart. Narrower slices are filled as
// runs: touching or overlapping ones of one row, colour and dimming become one fillRect, which
// covers exactly the pixels they would. Why: the software rasteriser pays per fillRect when the
// canvas is committed, and a zoomed-out large trace draws thousands of slices of 1-3 px a frame,
// most of the slowest frames' cost (docs/performance.md, "Timeline frames"); at that width their
// seams were noise anyway.
export const kWide = 3;

export class RectRun {
  private x0 = 0;
  private x1 = -1;
  private y = 0;
  private color = '';
  private dim = false;
  private fill = '';
  // gap: leave the pixel gap after a wide slice (not in the overlap lane, whose rows are intervals).
  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private readonly h: number,
    private readonly gap = true
  ) {}

  // A slice [x0, x1) x [y, y + h) in whole pixels (x1 > x0); `wide` when its unrounded width is at
  // least kWide (so that panning does not flip it). Slices of a row in order of x0 merge best; any
  // order is drawn right.
  add(x0: number, x1: number, y: number, color: string, dim: boolean, wide: boolean): void {
    if (wide) {
      this.flush();
      this.rect(x0, this.gap ? Math.max(x0 + 1, x1 - 1) : x1, y, color, dim); // 1 px left: no gap
      return;
    }
    if (x0 <= this.x1 && x1 >= this.x0 && y === this.y && color === this.color && dim === this.dim) {
      if (x0 < this.x0) this.x0 = x0;
      if (x1 > this.x1) this.x1 = x1;
      return;
    }
    this.flush();
    this.x0 = x0;
    this.x1 = x1;
    this.y = y;
    this.color = color;
    this.dim = dim;
  }

  // Draws the pending run; call once after the last add.
  flush(): void {
    if (this.x1 < this.x0) return;
    this.rect(this.x0, this.x1, this.y, this.color, this.dim);
    this.x1 = this.x0 - 1;
  }

  private rect(x0: number, x1: number, y: number, color: string, dim: boolean): void {
    const ctx = this.ctx;
    if (color !== this.fill) {
      ctx.fillStyle = color;
      this.fill = color;
    }
    if (dim) ctx.globalAlpha = 0.3;
    ctx.fillRect(x0, y, x1 - x0, this.h);
    if (dim) ctx.globalAlpha = 1;
  }
}
