// The aligned timeline of a job (web/timeline/aligned, web/app/timeline_host.ts) on four ranks
// crafted from one real rank (tw_craft_job: HTA's nccl_data.json with clock offsets 0, +3.7 ms,
// -1.2 ms, +0.25 ms and a 500 us delay before every collective on rank 2): the view lists a group
// of GPU streams per rank; on its axis every collective kernel ends together on all ranks and
// rank 2's starts 500 us late (the offsets were applied); a rank's CPU threads come on demand; a
// clicked collective outlines its three peers; switching to one rank (and between ranks, and back)
// keeps the visible window, converted through the offsets. A link to a hidden CPU lane shows it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openViaInput, start, trace } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const offsets = [0, 3_700_000, -1_200_000, 250_000];
const kDelayNs = 500_000;
const kTolNs = 1000;

let t, dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-job-tl-'));
  const made = spawnSync(join(ROOT, 'build/native/tw_craft_job'), [
    trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz'),
    dir,
    '4',
    ...offsets.flatMap((o, r) => ['--offset', `${r}:${o}`]),
    '--delay',
    `2:${kDelayNs}`,
  ]);
  assert.equal(made.status, 0, String(made.stderr));
  t = await start();
  const { summary } = await openViaInput(
    t.page,
    [0, 1, 2, 3].map((r) => join(dir, `rank-${r}.json`))
  );
  assert.equal(summary.job.ranks.length, 4, 'the job is known');
  await t.page.click('[data-tab="timeline"]');
  await idle(t.page);
});
after(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const tl = (f, arg) => t.page.evaluate(f, arg);
const job = () => tl(() => window.__tracewise.summary.job);
const files = () => tl(() => window.__tracewise.summary.files.map((f) => f.model.first_ts_ns));

async function showCollective(w) {
  const ok = await tl(([b, e]) => window.__tracewise.timelineHost.showCollective(b, e), [w.begin_ns, w.end_ns]);
  assert.equal(ok, true, 'showCollective found the aligned view');
  await idle(t.page);
}

// Ticks or unticks rank `rank` in the CPU-threads drop-down (opened for it, closed after).
async function setCpu(rank, on) {
  const picker = '[data-testid="timeline-cpu-picker"]';
  if (!(await t.page.$eval(picker, (d) => d.open))) await t.page.click(`${picker} summary`);
  await t.page.setChecked(`${picker} input[data-rank="${rank}"]`, on);
  await t.page.click(`${picker} summary`);
  assert.equal(await t.page.$eval(picker, (d) => d.open), false);
}

// Per rank group, the NCCL kernel (not merged) that overlaps [a, b] (relative ns) the most.
function kernelsIn(items, a, b) {
  const best = new Map();
  for (const x of items) {
    if (x.merged) continue;
    const overlap = Math.min(b, x.start + x.dur) - Math.max(a, x.start);
    if (overlap > 0 && !(best.get(x.group)?.overlap >= overlap)) best.set(x.group, { ...x, overlap });
  }
  return best;
}

test('the aligned view is the default: one group of GPU streams per rank, in rank order', async () => {
  const v = await tl(() => {
    const h = window.__tracewise.timeline;
    return {
      shown: window.__tracewise.timelineHost.shown(),
      picked: document.querySelector('.file-pick').value,
      options: [...document.querySelector('.file-pick').options].map((o) => o.textContent),
      groups: Array.from({ length: h.groupCount }, (_, g) => h.groupName(g)),
      lanes: h.lanes,
    };
  });
  assert.equal(v.shown, 'aligned');
  assert.equal(v.picked, 'aligned');
  assert.equal(v.options[0], 'All ranks (aligned)');
  assert.equal(v.options.length, 5);
  assert.deepEqual(
    v.groups,
    [0, 1, 2, 3].map((r) => `rank ${r} · rank-${r}.json`)
  );
  for (let g = 0; g < 4; g++) {
    const lanes = v.lanes.filter((l) => l.group === g);
    const streams = lanes.filter((l) => l.kind === 'slices' && /^stream \d+$/.test(l.name));
    assert.equal(streams.length, 2, `rank ${g}: ${lanes.map((l) => l.name).join(', ')}`);
    // GPU lanes only: its streams and its comm overlap lane.
    assert.deepEqual(
      lanes.filter((l) => !streams.includes(l)).map((l) => l.kind),
      ['overlap']
    );
  }
});

test('on the aligned axis every collective kernel ends with rank 2, whose kernel starts 500 us after rank 0', async () => {
  const j = await job();
  j.ranks.forEach((r, i) => assert.ok(Math.abs(r.clock_offset_ns - offsets[i]) <= kTolNs, r.label));
  const worst = [...j.collectives.worst].sort((a, b) => a.begin_ns - b.begin_ns);
  assert.equal(worst.length, 21);
  let checked = 0;
  for (const w of worst) {
    await showCollective(w);
    const { items, origin } = await tl(() => ({
      items: window.__tracewise.timeline.items('ncclKernel'),
      origin: window.__tracewise.timeline.originNs,
    }));
    const a = Number(BigInt(w.begin_ns) - BigInt(origin)),
      b = Number(BigInt(w.end_ns) - BigInt(origin));
    const k = kernelsIn(items, a, b);
    assert.deepEqual([...k.keys()].sort(), [0, 1, 2, 3], `${w.op} #${w.n}: a kernel on every rank`);
    const end = (g) => k.get(g).start + k.get(g).dur;
    for (const g of [0, 1, 3])
      assert.ok(
        Math.abs(end(g) - end(2)) <= kTolNs,
        `${w.op} #${w.n}: rank ${g} ends ${end(g) - end(2)} ns from rank 2`
      );
    const late = k.get(2).start - k.get(0).start;
    assert.ok(Math.abs(late - kDelayNs) <= kTolNs, `${w.op} #${w.n}: rank 2 starts ${late} ns after rank 0`);
    assert.ok(Math.abs(end(2) - b) <= kTolNs, 'the kernels end where the job says the instance ends');
    checked++;
  }
  assert.equal(checked, 21);
});

test('a clicked collective kernel outlines its peers on the three other ranks; its launch link shows its CPU threads', async () => {
  const w = [...(await job()).collectives.worst].sort((a, b) => a.begin_ns - b.begin_ns)[3];
  await showCollective(w);
  const at = await tl(() => window.__tracewise.timeline.locate('ncclKernel'));
  assert.ok(at, 'a collective kernel is drawn');
  await t.page.mouse.click(at.x, at.y);
  await t.page.waitForFunction((id) => window.__tracewise.timeline.details?.details?.id === id, at.id, {
    timeout: 15_000,
  });
  await idle(t.page);
  const v = await tl(() => {
    const h = window.__tracewise.timeline;
    const group = (lane) => h.lanes.find((l) => l.id === lane)?.group;
    const d = h.details.details;
    return {
      group: group(d.lane),
      end: d.startNs + d.durNs,
      peers: d.links
        .filter((l) => l.dir === 'peer')
        .map((l) => ({ rank: l.rank, group: group(l.to.lane), name: l.to.name, end: l.to.startNs + l.to.durNs })),
      outlined: h.peers,
      panel: document.querySelector('[data-testid="timeline-details"]').textContent,
    };
  });
  assert.equal(v.peers.length, 3);
  assert.equal(v.outlined, 3);
  assert.deepEqual(
    v.peers.map((p) => p.group).sort(),
    [0, 1, 2, 3].filter((g) => g !== v.group)
  );
  assert.deepEqual(
    v.peers.map((p) => p.rank),
    v.peers.map((p) => `rank ${p.group}`)
  );
  for (const p of v.peers) {
    assert.match(p.name, /^ncclKernel_/);
    assert.ok(Math.abs(p.end - v.end) <= kTolNs, `${p.rank} ends with the clicked kernel`);
  }
  assert.match(v.panel, /Peer on rank \d/);

  // Its launch is on a CPU thread the aligned view does not show yet: following the link shows
  // that rank's CPU threads, and selects the launch there.
  await t.page.click('[data-testid="timeline-details"] a.twtl-link >> text=/^cudaLaunchKernel/');
  await t.page.waitForFunction(
    () => /^cudaLaunchKernel/.test(window.__tracewise.timeline.details?.details?.name ?? ''),
    null,
    { timeout: 15_000 }
  );
  await idle(t.page);
  const launch = await tl(() => {
    const h = window.__tracewise.timeline,
      d = h.details.details;
    return {
      lane: h.lanes.find((l) => l.id === d.lane),
      box: document.querySelector(
        `[data-testid="timeline-cpu-picker"] input[data-rank="${h.lanes.find((l) => l.id === d.lane)?.group}"]`
      )?.checked,
    };
  });
  assert.equal(launch.lane?.group, v.group, 'the launch is on the clicked rank');
  assert.match(launch.lane.name, /^CPU · thread/);
  assert.equal(launch.box, true, "the picker shows the rank's CPU threads as on");
  await setCpu(v.group, false);
  await t.page.waitForFunction(
    () => !window.__tracewise.timeline.lanes.some((l) => /thread/.test(l.name ?? '')),
    null,
    {
      timeout: 15_000,
    }
  );
  await t.page.keyboard.press('Escape');
});

test("a rank's CPU threads come on demand, under its GPU streams, and go again", async () => {
  const before = await tl(() => ({
    lanes: window.__tracewise.timeline.lanes.length,
    range: window.__tracewise.timeline.visibleRange(),
  }));
  await setCpu(1, true);
  await t.page.waitForFunction(
    () => window.__tracewise.timeline.lanes.some((l) => l.group === 1 && /^CPU · thread/.test(l.name ?? '')),
    null,
    { timeout: 15_000 }
  );
  await idle(t.page);
  const v = await tl(() => ({
    lanes: window.__tracewise.timeline.lanes,
    range: window.__tracewise.timeline.visibleRange(),
    summary: document.querySelector('[data-testid="timeline-cpu-picker"] summary').textContent,
  }));
  const rank1 = v.lanes.filter((l) => l.group === 1).map((l) => l.name);
  assert.deepEqual(rank1.slice(0, 3), ['GPU 0 · comm overlap (GPU 0)', 'GPU 0 · stream 7', 'GPU 0 · stream 40']);
  assert.equal(rank1.filter((n) => /^CPU · thread/.test(n)).length, 3);
  assert.equal(v.lanes.filter((l) => l.group !== 1 && /thread/.test(l.name)).length, 0, 'the other ranks: GPU only');
  assert.deepEqual(v.range, before.range, 'the range stays');
  assert.equal(v.summary, 'CPU threads: 1 of 4 ranks');
  await setCpu(1, false);
  await t.page.waitForFunction((n) => window.__tracewise.timeline.lanes.length === n, before.lanes, {
    timeout: 15_000,
  });
});

// Shows `option` (a picker value) and waits for its view's hook, whose origin is `originNs`.
async function pick(value, originNs) {
  await t.page.selectOption('.file-pick', value);
  await t.page.waitForFunction((o) => window.__tracewise.timeline?.originNs === o, originNs, { timeout: 15_000 });
  await idle(t.page);
  return tl(() => ({ ...window.__tracewise.timeline.visibleRange(), origin: window.__tracewise.timeline.originNs }));
}

test('switching to one rank, to another, and back keeps the visible window through the clock offsets', async () => {
  const w = [...(await job()).collectives.worst].sort((a, b) => a.begin_ns - b.begin_ns)[10];
  await showCollective(w);
  const aligned = await tl(() => ({
    ...window.__tracewise.timeline.visibleRange(),
    origin: window.__tracewise.timeline.originNs,
  }));
  const off = (await job()).ranks.map((r) => r.clock_offset_ns);
  const origins = (await files()).map(String);
  const keys = await tl(() =>
    Object.fromEntries([...document.querySelector('.file-pick').options].map((o) => [o.textContent, o.value]))
  );
  const keyOf = (r) => Object.entries(keys).find(([text]) => text.endsWith(`rank-${r}.json`))[1];
  // The same instants on a rank's own clock: its raw times = reference times + its offset.
  const onRank = (r, v) => {
    for (const k of ['t0', 't1']) {
      const raw = BigInt(v.origin) + BigInt(Math.round(v[k]));
      const ref = BigInt(aligned.origin) + BigInt(Math.round(aligned[k])) + BigInt(off[r]);
      assert.ok(Math.abs(Number(raw - ref)) <= 1, `rank ${r} ${k}: ${raw} vs ${ref}`);
    }
  };
  const r1 = await pick(keyOf(1), origins[1]);
  onRank(1, r1);
  const r2 = await pick(keyOf(2), origins[2]);
  onRank(2, r2);
  const back = await pick('aligned', aligned.origin);
  assert.ok(Math.abs(back.t0 - aligned.t0) <= 1 && Math.abs(back.t1 - aligned.t1) <= 1, 'back where it was');
  assert.equal(await tl(() => window.__tracewise.timelineHost.shown()), 'aligned');
  assert.deepEqual(t.pageErrors, []);
});
