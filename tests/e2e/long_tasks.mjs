// Long tasks on the page's main thread, for the browser tests that promise none: the page's own
// PerformanceObserver('longtask') (buffered) lists every task over 50 ms of wall time; a DevTools
// trace over the same steps gives each task's thread CPU time. On a shared machine a short task that
// is descheduled shows up as a long task (bench/README.md), so a long task the observer saw counts
// only if the trace's task under it also ran over 50 ms of CPU time.
const kCategories = 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';
export const kLongTaskMs = 50;

// Starts watching `page` (its observer first, so it must be on the page already or be installed
// here); returns stop(), which resolves to the long tasks since the start:
// [{ start, ms, cpuMs, within }] (page time, wall ms, the trace task's CPU ms, null if not found, and
// what ran inside it, heaviest first).
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
    return long.map((x) => {
      const task = taskOf(events, x);
      const cpuMs = task && typeof task.tdur === 'number' ? task.tdur / 1000 : null;
      return { ...x, cpuMs, within: task ? heaviestWithin(events, task) : [] };
    });
  };
}

// What ran inside a main-thread task, heaviest first (CPU ms where the trace has it): printed with
// a failing test's long task, so that a rare one says what it was.
function heaviestWithin(events, task) {
  const end = task.ts + task.dur;
  return events
    .filter((e) => e !== task && e.pid === task.pid && e.tid === task.tid && e.ph === 'X')
    .filter((e) => e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 5000)
    .sort((a, b) => (b.tdur ?? b.dur) - (a.tdur ?? a.dur))
    .slice(0, 6)
    .map((e) => {
      const d = e.args?.data ?? {};
      const what = d.functionName || d.url || d.type || '';
      return `${e.name}${what ? ` ${what}` : ''} ${((e.tdur ?? e.dur) / 1000).toFixed(1)} ms`;
    });
}

// The main-thread task under long task `x` (page time), from the trace: page time maps to trace
// time through the mark made at the start.
function taskOf(events, x) {
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
  return best;
}

// The long tasks that ran long on the CPU too (or whose task the trace did not show).
export const reallyLong = (tasks) => tasks.filter((x) => x.cpuMs === null || x.cpuMs > kLongTaskMs);
