// The timeline's virtual layout (web/timeline/layout.ts) gives the boxes a plain top-to-bottom walk
// gives: every group and lane, the content's height, the rows in any band, what is under any y,
// with all groups open, all collapsed (the default past kManyGroups) and groups toggled from either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { Layout } = await loadTs('web/timeline/layout.ts');
const { GroupCollapse, kManyGroups } = await loadTs('web/timeline/group_collapse.ts');
const { trackOffsets, laneHeight, rowHeight, kHeaderH, kLaneGap } = await loadTs('web/timeline/lane_heights.ts');
const { kLaneKinds } = await loadTs('web/timeline/track_columns.ts');

// A track list of `groups` groups with 0..4 lanes each (group 1 empty), kinds and rows varied.
function trackList(groups) {
  let seed = 7;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
  const first = [0],
    group = [],
    kind = [],
    rows = [];
  for (let g = 0; g < groups; g++) {
    const n = g === 1 ? 0 : 1 + rand(4);
    for (let i = 0; i < n; i++) (group.push(g), kind.push(rand(4)), rows.push(rand(5)));
    first.push(group.length);
  }
  const cols = {
    groupFirstTrack: Uint32Array.from(first),
    groupPid: Float64Array.from({ length: groups }, (_, g) => g + 100),
    groupGpu: new Uint8Array(groups),
    trackGroup: Uint32Array.from(group),
    trackKind: Uint8Array.from(kind),
    trackRows: Uint32Array.from(rows),
  };
  return { ...cols, ...trackOffsets(cols), originNs: '0', endNs: 1, groups, tracks: group.length };
}

// The boxes of a walk down the groups and their lanes.
function walk(t, collapsed) {
  const groups = [],
    lanes = [];
  let y = 0;
  for (let g = 0; g < t.groups; g++) {
    const first = t.groupFirstTrack[g],
      end = t.groupFirstTrack[g + 1];
    if (end === first) continue;
    const box = { index: g, pid: t.groupPid[g], y, h: kHeaderH, collapsed: collapsed(g), lanes: end - first };
    groups.push(box);
    y += kHeaderH;
    if (box.collapsed) continue;
    for (let l = first; l < end; l++) {
      const kind = kLaneKinds[t.trackKind[l]];
      const h = laneHeight(kind, t.trackRows[l]);
      lanes.push({ id: l, group: g, kind, rows: t.trackRows[l], y, h, rowH: rowHeight(kind) });
      y += h + kLaneGap;
    }
    box.h = y - box.y;
  }
  return { groups, lanes, height: y };
}

function check(t, collapse) {
  const layout = new Layout(t, collapse);
  const ref = walk(t, (g) => collapse.isCollapsed(g));
  assert.equal(layout.height, ref.height);
  assert.equal(layout.shownLanes, ref.lanes.length);
  for (const g of ref.groups) assert.deepEqual(layout.groupBox(g.index), g);
  assert.equal(layout.groupBox(1), null, 'an empty group has no box');
  const shown = new Map(ref.lanes.map((l) => [l.id, l]));
  for (let l = 0; l < t.tracks; l++) assert.deepEqual(layout.laneBox(l), shown.get(l) ?? null);
  for (let y0 = -30; y0 < ref.height + 30; y0 += 37) {
    const y1 = y0 + 211;
    assert.deepEqual(
      layout.groupsIn(y0, y1),
      ref.groups.filter((g) => g.y + g.h > y0 && g.y < y1)
    );
    assert.deepEqual(
      layout.lanesIn(y0, y1),
      ref.lanes.filter((l) => l.y + l.h > y0 && l.y < y1)
    );
    assert.deepEqual(layout.laneAt(y0), ref.lanes.find((l) => y0 >= l.y && y0 < l.y + l.h) ?? null);
    assert.deepEqual(layout.groupHeaderAt(y0), ref.groups.find((g) => y0 >= g.y && y0 < g.y + kHeaderH) ?? null);
  }
}

test('few groups: all open, then some collapsed', () => {
  const t = trackList(12);
  const c = new GroupCollapse();
  c.reset(t.groups);
  check(t, c);
  for (const g of [0, 5, 11, 3]) c.toggle(g);
  check(t, c);
  assert.deepEqual(c.state(), { collapsed: [0, 5, 11, 3] });
});

test('many groups: all collapsed, then some opened; a link restores either default', () => {
  const t = trackList(kManyGroups + 40);
  const c = new GroupCollapse();
  c.reset(t.groups);
  check(t, c);
  for (const g of [kManyGroups + 39, 2, 50, 0]) assert.equal(c.expand(g), true);
  assert.equal(c.expand(2), false, 'open already');
  check(t, c);
  assert.deepEqual(c.state(), { expanded: [kManyGroups + 39, 2, 50, 0] });
  c.restore({ collapsed: [4] });
  check(t, c);
  assert.equal(c.isCollapsed(4) && !c.isCollapsed(5), true);
  c.restore({ expanded: [7] });
  check(t, c);
  assert.equal(!c.isCollapsed(7) && c.isCollapsed(8), true);
});
