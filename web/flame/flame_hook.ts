// window.__tracewise.flame: the test and benchmark hook of the flame graph on screen: what it shows
// (measure, order, focus, totals, frames laid out and drawn, frame times) and where a named frame is
// drawn, in client coordinates, so tests can click what they mean.
import { tracewiseHook } from '../hook';
import type { FlamePane } from './flame_pane';
import type { FlameView } from './flame_view';
import { totalOf } from './tree_shape';

type PaneName = 'main' | 'callers' | 'callees';

function paneOf(view: FlameView, which: PaneName): FlamePane {
  return which === 'callers' ? view.sandwich.callers : which === 'callees' ? view.sandwich.callees : view.pane;
}

function probe(view: FlameView) {
  const t = view.tree;
  const p = view.pane;
  const s = view.sandwich;
  return {
    ready: !!t && view.idle && p.frames > 0,
    measure: view.controls.measureChoice,
    order: view.controls.orderChoice,
    bottomUp: view.controls.bottomUp,
    roots: String(view.controls.rootsChoice),
    range: view.range,
    nodes: t?.size ?? 0,
    focus: view.focus,
    focusName: t ? t.names[t.name[view.focus]] : null,
    selectedName: t && view.selected >= 0 ? t.names[t.name[view.selected]] : null,
    selectedTrack: t && view.selected >= 0 ? t.track[view.selected] : null,
    // The top of the graph: every thread (or function) summed, in both measures.
    rootTotals: t ? { cpu: totalOf(t, 'cpu')[0], gpu: totalOf(t, 'gpu')[0] } : null,
    focusValue: p.layout?.focusValue ?? 0,
    items: p.layout?.items ?? 0,
    rows: p.layout?.rows ?? 0,
    drawn: p.stats.drawn,
    coalesced: p.stats.coalesced,
    labels: p.stats.labels,
    frames: p.frames,
    drawMs: [...p.drawMs],
    layoutMs: [...p.layoutMs],
    requestMs: view.requestMs,
    requestTiming: view.shown?.raw.timing ?? null,
    view: p.view(),
    matched: view.matched,
    sandwich: s.el.hidden
      ? null
      : {
          name: s.trees ? s.trees.callees.names[s.name] : null,
          callers: s.trees?.callers.size ?? 0,
          callees: s.trees?.callees.size ?? 0,
          drawn: s.callers.stats.drawn + s.callees.stats.drawn,
          cpu: s.trees?.callees.totalNs[0] ?? 0,
        },
  };
}

export type FlameProbe = ReturnType<typeof probe>;

export function installFlameHook(view: FlameView): void {
  tracewiseHook().flame = {
    view,
    probe: () => probe(view),
    // The widest drawn frame named `name` (exactly) in a pane: its centre in client coordinates.
    locate: (name: string, which: PaneName = 'main') => {
      const pane = paneOf(view, which);
      const t = pane.tree,
        l = pane.layout;
      if (!t || !l) return null;
      let best = -1;
      for (let i = 0; i < l.items; i++)
        if (t.names[t.name[l.node[i]]] === name && (best < 0 || l.w[i] > l.w[best])) best = i;
      return best < 0 ? null : pane.locate(l.node[best]);
    },
    setView: (v0: number, v1: number, which: PaneName = 'main') => paneOf(view, which).setView(v0, v1),
    // The `count` widest frames below the focused one (name, node, share of the focused width, row, track).
    widest: (count = 5, which: PaneName = 'main') => {
      const pane = paneOf(view, which);
      const t = pane.tree,
        l = pane.layout;
      if (!t || !l) return [];
      const out: Array<{ name: string; node: number; w: number; row: number; track: number }> = [];
      for (let r = l.focusRow + 1; r < l.rows; r++)
        for (let i = l.rowStart[r]; i < l.rowStart[r + 1]; i++)
          out.push({ name: t.names[t.name[l.node[i]]], node: l.node[i], w: l.w[i], row: r, track: t.track[l.node[i]] });
      return out.sort((a, b) => b.w - a.w || a.row - b.row).slice(0, count);
    },
  };
}
