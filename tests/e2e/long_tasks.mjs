// Long tasks on the page's main thread, for the browser tests that promise none: the page's own
// PerformanceObserver('longtask') (buffered) lists every task over 50 ms of wall time; a DevTools
// trace over the same steps gives each task's thread CPU time. On a shared machine a short task that
// is descheduled shows up as a long task (bench/README.md), so a long task the observer saw counts
// only if the trace's task under it also ran over 50 ms of CPU time.
const kCategories = 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';
export const kLongTaskMs = 50;

// Starts watching `page` (its observer first, so it must be on the page already or be installed
// here); returns stop(), which resolves to the long tasks since the start:
// [{ start, ms, cpuMs }] (page time, wall ms, the trace task's CPU ms; cpuMs null if not found).
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    if (window.__longTasks) return;
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  await cdp.send('Tracing.start', { categories: kCategories, transferMode: 'ReportEvents' });
  const since = await page.evaluate(() => {
    performance.mark('tw-long-tasks-from');
    return performance.now();
  });
  return async () => {
    // A task is reported once it ended: let the last one finish first.
    const until = await page.evaluate(
      () =>
        new Promise((ok) =>
          setTimeout(() => {
            performance.mark('tw-long-tasks-to');
            ok(performance.now());
          }, 100)
        )
    );
    const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    const long = await page.evaluate(
      ([a, b]) => window.__longTasks.filter((x) => x.start >= a && x.start < b),
      [since, until]
    );
    return long.map((x) => ({ ...x, cpuMs: cpuOf(events, x) }));
  };
}

// The thread CPU ms of the main-thread task under long task `x` (page time), from the trace: page
// time maps to trace time through the mark made at the start.
function cpuOf(events, x) {
  const mark = events.find((e) => e.name === 'tw-long-tasks-from' && e.cat === 'blink.user_timing');
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!mark || !main) return null;
  const markPage = mark.args?.data?.startTime;
  if (typeof markPage !== 'number') return null;
  const offsetUs = mark.ts - markPage * 1000;
  const a = offsetUs + x.start * 1000,
    b = a + x.ms * 1000;
  let best = null,
    overlap = 0;
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.name !== 'RunTask' || e.ph !== 'X') continue;
    const o = Math.min(b, e.ts + e.dur) - Math.max(a, e.ts);
    if (o > overlap) {
      overlap = o;
      best = e;
    }
  }
  return best && typeof best.tdur === 'number' ? best.tdur / 1000 : null;
}

// The long tasks that ran long on the CPU too (or whose task the trace did not show).
export const reallyLong = (tasks) => tasks.filter((x) => x.cpuMs === null || x.cpuMs > kLongTaskMs);
