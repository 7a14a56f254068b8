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
