// The panel under the timeline: details of the clicked slice or instant (every arg, duration, self time,
// linked launch / kernel) or the aggregate of a dragged area. Trace text only ever goes into
// textContent, never into HTML.
import { argRows } from './arg_rows';
import { absoluteNs, formatDuration } from './time_format';
import type { AggregateReply, EventView, SliceRef } from './replies';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// `title`: the whole value, when `value` shows only its start.
function row(table: HTMLTableElement, key: string, value: string | Node, title?: string): void {
  const tr = el('tr');
  tr.append(el('th', undefined, key));
  const td = el('td');
  if (typeof value === 'string') td.textContent = value;
  else td.append(value);
  if (title !== undefined) td.title = title;
  tr.append(td);
  table.append(tr);
}

const kLinkLabel: Record<string, string> = {
  kernel: 'Launched GPU op',
  launch: 'Launched by',
  flow_out: 'Flow to',
  flow_in: 'Flow from',
  peer: 'Peer',
};

export class DetailsPanel {
  readonly root = el('div', 'twtl-panel');
  private readonly body = el('div', 'twtl-panel-body');
  // A button shown with an area's aggregate (the page's: a flame graph of the range).
  areaAction: { label: string; run: (t0: number, t1: number) => void } | null = null;

  constructor(
    private readonly onJump: (ref: SliceRef) => void,
    onClose: () => void
  ) {
    const close = el('button', 'twtl-close', '×');
    close.title = 'Close (Esc)';
    close.setAttribute('aria-label', 'Close details');
    close.addEventListener('click', onClose);
    this.root.append(close, this.body);
    this.root.hidden = true;
  }

  hide(): void {
    this.root.hidden = true;
    this.body.replaceChildren();
  }

  loading(title: string): void {
    this.root.hidden = false;
    this.body.replaceChildren(el('div', 'twtl-muted', title));
  }

  error(message: string): void {
    this.root.hidden = false;
    this.body.replaceChildren(el('div', 'twtl-error', message));
  }

  showEvent(reply: EventView, originNs: string, laneName: (lane: number) => string): void {
    const d = reply.details ?? {};
    this.root.hidden = false;
    const title = el('div', 'twtl-title', String(d.name ?? ''));
    title.setAttribute('data-testid', 'timeline-details-name');
    const t = el('table', 'twtl-kv');
    if (d.instant) {
      row(t, 'Instant', `${String(d.scope ?? 'thread')} scope`);
    } else {
      row(t, 'Duration', formatDuration(d.durNs));
      row(t, 'Self time', formatDuration(d.selfNs));
    }
    row(
      t,
      'Start',
      `${formatDuration(d.startNs)} after the trace start (ts ${d.startAbsNs ?? absoluteNs(originNs, d.startNs)} ns)`
    );
    row(t, 'Category', String(d.cat ?? ''));
    if (!d.instant) row(t, 'Kind / class', `${d.kind ?? ''} / ${d.class ?? ''}`);
    row(t, 'Track', d.instant ? String(d.laneName ?? '') : `${d.laneName ?? ''} (depth ${d.depth ?? 0})`);
    if (d.correlation) row(t, 'Correlation', String(d.correlation));
    if (d.externalId) row(t, 'External id', String(d.externalId));
    if (d.unclosed) row(t, 'Note', 'never closed: ends at the end of the trace');
    if (d.overlapping) row(t, 'Note', 'overlaps an earlier slice without nesting in it');
    if (d.gpu)
      for (const [k, v] of Object.entries(d.gpu)) row(t, `GPU ${k}`, Array.isArray(v) ? v.join(' × ') : String(v));
    for (const l of d.links ?? []) {
      if (!l.to) continue;
      // A lane the view does not show (the aligned view without that rank's CPU threads) has no name.
      const lane = laneName(l.to.lane);
      const a = el('a', 'twtl-link', `${l.to.name} (${formatDuration(l.to.durNs)}${lane ? `, ${lane}` : ''})`);
      a.href = '#';
      a.addEventListener('click', (e) => {
        e.preventDefault();
        this.onJump(l.to);
      });
      row(t, l.rank ? `${kLinkLabel[l.dir] ?? l.dir} on ${l.rank}` : (kLinkLabel[l.dir] ?? l.dir), a);
    }
    const parts: Node[] = [title, t];
    const args = reply.args;
    if (args && Array.isArray(args.args)) {
      const at = el('table', 'twtl-kv twtl-args');
      at.setAttribute('data-testid', 'timeline-args');
      for (const [k, v, json] of args.args) {
        for (const r of argRows(String(k), String(v), json !== false)) row(at, r.key, r.value, r.title);
      }
      if (!args.args.length) row(at, '', '(no args)');
      parts.push(el('div', 'twtl-subtitle', 'Args'), at);
      const ft = el('table', 'twtl-kv');
      for (const [k, v] of args.fields ?? []) row(ft, String(k), String(v));
      const det = el('details');
      det.append(el('summary', undefined, 'Event fields'), ft);
      parts.push(det);
    } else if (reply.argsError) {
      parts.push(el('div', 'twtl-muted', `Args: ${reply.argsError}`));
    }
    // Args are read again from the file; from a gzip file that means decompressing up to the event,
    // which is worth a word only when it took long enough to notice.
    if (reply.argsSource === 'gzip' && typeof reply.argsMs === 'number' && reply.argsMs >= 300)
      parts.push(
        el('div', 'twtl-muted', `Args read again from the compressed file (${(reply.argsMs / 1000).toFixed(1)} s).`)
      );
    this.body.replaceChildren(...parts);
  }

  showAggregate(r: AggregateReply, t0: number, t1: number, lanes: number): void {
    this.root.hidden = false;
    const title = el(
      'div',
      'twtl-title',
      `${r.slices} slices, ${r.names} names in ${formatDuration(t1 - t0)} (${formatDuration(t0)} – ${formatDuration(t1)}) on ${lanes} lane${lanes === 1 ? '' : 's'}`
    );
    const t = el('table', 'twtl-agg');
    t.setAttribute('data-testid', 'timeline-aggregate');
    const head = el('tr');
    for (const h of ['Name', 'Count', 'Total', 'Self', 'In range']) head.append(el('th', undefined, h));
    t.append(head);
    for (const x of r.rows ?? []) {
      const tr = el('tr');
      tr.append(
        el('td', 'twtl-name', String(x.name)),
        el('td', 'num', String(x.count)),
        el('td', 'num', formatDuration(x.totalNs)),
        el('td', 'num', formatDuration(x.selfNs)),
        el('td', 'num', formatDuration(x.inRangeNs))
      );
      t.append(tr);
    }
    const parts: Node[] = [title];
    if (this.areaAction) {
      const { label, run } = this.areaAction;
      const b = el('button', 'twtl-area-action', label);
      b.setAttribute('data-testid', 'timeline-area-action');
      b.addEventListener('click', () => run(t0, t1));
      parts.push(b);
    }
    parts.push(t);
    if (r.truncated)
      parts.push(el('div', 'twtl-muted', `only the ${(r.rows ?? []).length} names with the most time are listed`));
    this.body.replaceChildren(...parts);
  }
}
