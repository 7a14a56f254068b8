// Installed before any page script by the page benchmarks (site_ab.mjs, job_page.mjs): the
// main-thread long tasks (window.__longTasks), and the moment the page's hook turns ready
// (window.__readyAt; window.__tracewise is created here with an accessor for `ready`), so a load is
// timed to that moment rather than to the next poll of it. Playwright serialises the function.
export function readyHookScript() {
  let ready = false;
  window.__readyAt = 0;
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, dur: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    /* no longtask entries in this browser: none reported */
  }
  window.__tracewise = { summary: null, error: null };
  Object.defineProperty(window.__tracewise, 'ready', {
    enumerable: true,
    configurable: true,
    get: () => ready,
    set: (v) => {
      if (v && !ready) window.__readyAt = performance.now();
      ready = v;
    },
  });
}
