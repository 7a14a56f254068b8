// A DevTools trace of a page while `run` runs (CDP `Tracing`, events reported as they come), for
// browser_bench.mjs (main-thread tasks and frames) and worker_profile.mjs (sampled profiles).
// Resolves to the events `keep` accepts (all by default: a long trace kept whole can be large).
export async function traceDuring(page, { categories, options, keep = () => true }, run) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => {
    for (const e of d.value) if (keep(e)) events.push(e);
  });
  const complete = new Promise((ok) => cdp.on('Tracing.tracingComplete', ok));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents', ...(options ? { options } : {}) });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach().catch(() => {});
  }
  return events;
}
