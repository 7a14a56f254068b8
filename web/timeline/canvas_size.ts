// Sizing a canvas for the device pixel ratio, shared by the timeline and the flame graph.
//
// Resizing drops a canvas's pixels; the browser allocates new ones at the next drawing call. One
// call in a task of its own keeps that allocation (tens of ms for a large canvas where page faults
// are slow, e.g. a virtual machine) out of the task that resized and out of the first paint, which
// also commits the frame: two of them together made a long task. A paint that comes first
// allocates, as before.
export function resizeCanvas(
  canvas: HTMLCanvasElement,
  ctx: CanvasRenderingContext2D,
  cssWidth: number,
  cssHeight: number,
  dpr: number
): void {
  canvas.width = Math.round(cssWidth * dpr);
  canvas.height = Math.round(cssHeight * dpr);
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  setTimeout(() => ctx.setTransform(dpr, 0, 0, dpr, 0, 0), 0);
}
