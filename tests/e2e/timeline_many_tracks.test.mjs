// The timeline scales with processes and names: traces of 100,000 and 1,000,000 single-event
// processes and one whose process, thread and slice names are 50 MB each open in the Timeline tab,
// scroll, expand a group and zoom with no main-thread task over 50 ms (a buffered
// PerformanceObserver('longtask') from the click on the tab on; a task it reports counts unless a
// DevTools trace over the same steps shows it ran under 50 ms of CPU, i.e. it was descheduled on a
// busy machine: ./long_tasks.mjs), and rows are really drawn (headers, lane names, slices; a long
// name cut, in its details too). The traces are written at test time in a temporary folder
// (bench/timeline_tracks.mjs measures the same traces and more).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openViaInput, start } from './helpers.mjs';
import { idle, textsDrawnZooming } from './timeline_helpers.mjs';
import { reallyLong, watchLongTasks } from './long_tasks.mjs';
import { writeLongNames, writeManyTracks } from './many_tracks_traces.mjs';

const kGutterX = 60; // over the lane names (web/timeline/render.ts kGutter = 190): the wheel scrolls
const kLongName = 50 << 20;

let t, dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-many-tracks-'));
  writeManyTracks(join(dir, 'processes_100k.json'), { processes: 100_000 });
  writeManyTracks(join(dir, 'processes_1m.json'), { processes: 1_000_000 });
  writeLongNames(join(dir, 'long_names.json'), kLongName);
  t = await start();
});
after(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hook = (page, f, arg) => page.evaluate(f, arg);

// Opens `file`, clicks the Timeline tab and waits for its first frame; returns stop() of the watch
// on long tasks started just before the click.
async function openTimeline(page, file) {
  await openViaInput(page, [join(dir, file)]);
  const stop = await watchLongTasks(page);
  await page.click('[data-tab="timeline"]');
  await idle(page);
  return stop;
}

async function assertNoLongTask(stop) {
  const tasks = await stop();
  assert.deepEqual(
    reallyLong(tasks),
    [],
    `no main-thread task over 50 ms (long in wall time only: ${JSON.stringify(tasks)})`
  );
}

async function clickGroup(page, g) {
  const at = await hook(page, (i) => window.__tracewise.timeline.groupHeaderPoint(i), g);
  assert.ok(at, `group ${g} has a header on screen`);
  await page.mouse.click(at.x, at.y);
  await idle(page);
}

// Opens a trace of n single-event processes; scrolls, opens the first group and one far down, zooms.
async function manyProcesses(file, n) {
  const { page } = t;
  const stop = await openTimeline(page, file);
  let s = await hook(page, () => {
    const tl = window.__tracewise.timeline;
    return { groups: tl.groupCount, shown: tl.lanesShown, headers: tl.drawnHeaders, first: tl.groupName(0) };
  });
  assert.equal(s.groups, n);
  assert.equal(s.shown, 0, 'many groups open collapsed');
  assert.ok(s.headers >= 20, `drew ${s.headers} group headers`);
  assert.equal(s.first, 'Process 1');

  // The first group opens: its lane and its slice are drawn.
  await clickGroup(page, 0);
  s = await hook(page, () => {
    const tl = window.__tracewise.timeline;
    return { shown: tl.lanesShown, items: tl.drawnItems, names: tl.drawnLaneNames, lanes: tl.lanes };
  });
  assert.equal(s.shown, 1);
  assert.ok(s.items >= 1 && s.names >= 1, JSON.stringify(s));
  assert.equal(s.lanes[0].name, 'thread 1');

  // The wheel over the names scrolls; the rows that come into view get their names.
  await page.mouse.move(kGutterX, 400);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 600);
  await idle(page);
  const shown = await hook(page, () => window.__tracewise.timeline.groupsShown());
  assert.ok(shown[0] > 50, `scrolled to group ${shown[0]}`);
  assert.equal(await hook(page, (g) => window.__tracewise.timeline.groupName(g), shown[0]), `Process ${shown[0] + 1}`);

  // Far down in one step, then the group there opens and draws its slice.
  const g = Math.floor(n * 0.61234);
  await hook(page, (i) => window.__tracewise.timeline.scrollTo(window.__tracewise.timeline.groupY(i)), g);
  await idle(page);
  await clickGroup(page, g);
  s = await hook(page, () => ({
    shown: window.__tracewise.timeline.lanesShown,
    lanes: window.__tracewise.timeline.lanes,
  }));
  assert.equal(s.shown, 2);
  const lane = s.lanes.find((l) => l.group === g);
  assert.ok(lane, 'the opened group has its lane on screen');
  // Zoom onto its slice (the whole trace spans 100,000 µs; the slice 5 µs) and see it drawn.
  await hook(
    page,
    ([us]) => {
      const tl = window.__tracewise.timeline;
      tl.view.zoomTo(BigInt(tl.originNs) + BigInt(us) * 1000n, BigInt(tl.originNs) + BigInt(us + 5) * 1000n);
    },
    [g]
  );
  await idle(page);
  await page.mouse.move(700, 400);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -200); // zoom in around the pointer
  await page.keyboard.press('s');
  await idle(page);
  assert.ok((await hook(page, () => window.__tracewise.timeline.drawnItems)) >= 1, 'the opened group draws its slice');

  await assertNoLongTask(stop);
  assert.deepEqual(t.pageErrors, []);
}

test('100,000 processes: collapsed groups, scrolling, expanding and zooming without a long task', () =>
  manyProcesses('processes_100k.json', 100_000));

test('1,000,000 processes: the same', () => manyProcesses('processes_1m.json', 1_000_000));

test('50 MB names: drawn cut, without a long task', async () => {
  const { page } = t;
  const stop = await openTimeline(page, 'long_names.json');
  const texts = await textsDrawnZooming(page, 0, 0.5);
  const drawn = await hook(page, () => {
    const tl = window.__tracewise.timeline;
    return { items: tl.drawnItems, lanes: tl.lanes.map((l) => l.name?.length ?? -1) };
  });
  await idle(page);
  assert.ok(drawn.items >= 3, `drew ${drawn.items} items`);
  const longest = Math.max(...texts.map((x) => x.length));
  assert.ok(longest < 300, `the longest text drawn has ${longest} characters`);
  assert.ok(
    texts.some((x) => x.startsWith('▾ ppp') && x.includes('…')),
    'the long process name, cut'
  );
  assert.ok(
    texts.some((x) => x.startsWith('ttt') && x.endsWith('…')),
    'the long thread name, cut'
  );
  assert.ok(
    texts.some((x) => x.startsWith('sss') && x.endsWith('…')),
    'the long slice name, cut'
  );
  assert.ok(Math.max(...drawn.lanes) < 1000, 'lane names reach the page cut');

  // Hovering the long slice shows its name cut too.
  await page.keyboard.press('f');
  await idle(page);
  const at = await hook(page, () => window.__tracewise.timeline.locate('sss'));
  assert.ok(at, 'the long slice is drawn');
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, 100);
  await page.keyboard.press('w');
  await idle(page);
  // Its details: the name (and the event's own bytes in the args) cut too.
  const hit = await hook(page, () => window.__tracewise.timeline.locate('sss'));
  await page.mouse.click(hit.x, hit.y);
  await page.waitForFunction(() => window.__tracewise.timeline.details?.details?.name?.startsWith('sss'), null, {
    timeout: 20_000,
  });
  await idle(page);
  const shownName = await page.textContent('[data-testid="timeline-details-name"]');
  assert.ok(shownName.startsWith('sss') && shownName.length < 10_000, `a name of ${shownName.length} characters`);
  assert.ok(shownName.endsWith(`(${kLongName.toLocaleString('en-US')} characters)`), shownName.slice(-40));
  await assertNoLongTask(stop);
  assert.deepEqual(t.pageErrors, []);
});
