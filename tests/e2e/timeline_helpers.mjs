// Shared by the timeline browser tests: wait for the timeline to settle, open a trace and show it.
import { openViaInput, trace } from './helpers.mjs';

export const idle = (page) =>
  page.waitForFunction(
    () => {
      const tl = window.__tracewise && window.__tracewise.timeline;
      return tl && tl.ready && tl.idle();
    },
    null,
    { timeout: 20_000, polling: 50 }
  );

export async function showTimeline(page, file) {
  await openViaInput(page, [trace(file)]);
  await page.click('[data-tab="timeline"]');
  await idle(page);
}

// The texts the page draws with fillText while the view zooms to [t0 + dt0, t1 * f1] of the visible
// range (relative ns), over the two frames after.
export function textsDrawnZooming(page, dt0, f1) {
  return page.evaluate(
    async ([dt0, f1]) => {
      const drawn = [];
      const proto = CanvasRenderingContext2D.prototype,
        fill = proto.fillText;
      proto.fillText = function (text, ...rest) {
        drawn.push(String(text));
        return fill.call(this, text, ...rest);
      };
      const h = window.__tracewise.timeline,
        r = h.visibleRange(),
        o = BigInt(h.originNs);
      h.view.zoomTo(o + BigInt(Math.round(r.t0 + dt0)), o + BigInt(Math.round(r.t1 * f1)));
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      proto.fillText = fill;
      return drawn;
    },
    [dt0, f1]
  );
}
