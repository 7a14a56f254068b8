// The headline cards: the few numbers people look at first. Each card reads the summary
// defensively and is left out when its section is absent (analyses may not apply to a trace).
import { h } from '../dom';
import { fmtCount, fmtDuration, fmtPct } from '../format';
import { type FileSummary, isObject } from '../summary_document';

export interface Card {
  id: string;
  label: string;
  value: string;
  raw: number | string;
  path: string;
  sub?: string;
  tone?: 'good' | 'warn' | 'bad';
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// The step times a summary holds: its steps, or (not the core's shape) steps nested one level deeper.
type StepWindow = { duration_ns?: unknown; begin_ns?: unknown; end_ns?: unknown };
function stepsOf(f: FileSummary): StepWindow[] | null {
  const steps: unknown = f.steps;
  return Array.isArray(f.steps) ? f.steps : isObject(steps) && Array.isArray(steps.steps) ? steps.steps : null;
}

function stepCard(f: FileSummary): Card | null {
  const sb = f.step_breakdown;
  if (sb && num(sb.mean_ns) !== null && num(sb.count)) {
    return {
      id: 'step-time',
      label: 'Step time',
      value: fmtDuration(sb.mean_ns),
      raw: sb.mean_ns,
      path: 'step_breakdown.mean_ns',
      sub: `mean of ${sb.count} step${sb.count === 1 ? '' : 's'}${num(sb.max_ns) !== null ? `, max ${fmtDuration(sb.max_ns)}` : ''}`,
    };
  }
  const steps = stepsOf(f);
  if (!steps || steps.length === 0) return null;
  const durs = steps
    .map((s) => num(s.duration_ns) ?? (num(s.end_ns) ?? 0) - (num(s.begin_ns) ?? 0))
    .filter((d) => d > 0);
  if (!durs.length) return null;
  const mean = durs.reduce((a: number, b: number) => a + b, 0) / durs.length;
  return {
    id: 'step-time',
    label: 'Step time',
    value: fmtDuration(mean),
    raw: mean,
    path: 'steps[].duration_ns (mean)',
    sub: `mean of ${durs.length} step${durs.length === 1 ? '' : 's'}`,
  };
}

// The GPU's busy share of the step time (the step categories in which a GPU op runs), when the trace
// has steps: a GPU busy through its own span can idle half of every step while the CPU prepares the
// next batch, and the step is what the user waits for. Tones: the gpu_idle rule's thresholds
// (core/analysis/recommendations.h: it fires from 20% idle, high from 50%).
const kGpuCategories = ['kernel', 'memcpy', 'memset', 'communication'] as const;
function stepBusy(f: FileSummary): { busy: number; total: number } | null {
  const sb = f.step_breakdown;
  const total = num(sb?.total_ns);
  if (!sb || total === null || total <= 0 || !isObject(sb.categories_ns)) return null;
  let busy = 0;
  for (const k of kGpuCategories) busy += num(sb.categories_ns[k]) ?? 0;
  return { busy, total };
}
const busyTone = (pct: number): Card['tone'] => (pct >= 80 ? 'good' : pct >= 50 ? 'warn' : 'bad');

function busyCard(f: FileSummary): Card | null {
  const t = f.temporal;
  const span = num(t?.span_ns),
    idle = num(t?.idle_ns);
  if (span === null || idle === null || span <= 0) return null;
  const busy = num(t?.busy_ns) ?? span - idle;
  const pct = (100 * busy) / span;
  const steps = stepBusy(f);
  if (steps) {
    const stepPct = (100 * steps.busy) / steps.total;
    return {
      id: 'gpu-busy',
      label: 'GPU busy in steps',
      value: fmtPct(stepPct),
      raw: stepPct,
      path: 'step_breakdown.categories_ns (GPU)/total_ns',
      sub: `idle ${fmtDuration(steps.total - steps.busy)} of ${fmtDuration(steps.total)} step time · ${fmtPct(pct)} of the GPU span`,
      tone: busyTone(stepPct),
    };
  }
  return {
    id: 'gpu-busy',
    label: 'GPU busy',
    value: fmtPct(pct),
    raw: pct,
    path: 'temporal.busy_ns/span_ns',
    sub: `idle ${fmtDuration(idle)} of the ${fmtDuration(span)} GPU span`,
    tone: busyTone(pct),
  };
}

function exposedCommCard(f: FileSummary): Card | null {
  const t = f.temporal,
    o = f.overlap;
  const span = num(t?.span_ns);
  if (span === null || span <= 0) return null;
  let exposed = num(t?.exposed?.communication_ns);
  let path = 'temporal.exposed.communication_ns/span_ns';
  if (exposed === null && o && num(o.communication_ns) !== null && num(o.overlapped_ns) !== null) {
    exposed = o.communication_ns - o.overlapped_ns;
    path = 'overlap.communication_ns-overlapped_ns';
  }
  if (exposed === null) return null;
  const pct = (100 * exposed) / span;
  return {
    id: 'exposed-comm',
    label: 'Exposed communication',
    value: fmtPct(pct),
    raw: pct,
    path,
    sub: `${fmtDuration(exposed)} not hidden by compute`,
    tone: pct <= 5 ? 'good' : pct <= 10 ? 'warn' : 'bad',
  };
}

function overlapCard(f: FileSummary): Card | null {
  const o = f.overlap;
  if (!o || typeof o !== 'object') return null;
  const pct = num(o.pct);
  if (pct === null) {
    if (num(o.communication_ns) === 0)
      return {
        id: 'overlap',
        label: 'Comm/compute overlap',
        value: '–',
        raw: 'null',
        path: 'overlap.pct',
        sub: 'no communication kernels',
      };
    return null;
  }
  return {
    id: 'overlap',
    label: 'Comm/compute overlap',
    value: fmtPct(pct),
    raw: pct,
    path: 'overlap.pct',
    sub: num(o.communication_ns) !== null ? `of ${fmtDuration(o.communication_ns)} communication` : undefined,
    tone: pct >= 70 ? 'good' : pct >= 30 ? 'warn' : 'bad',
  };
}

// The GPU's idle time split by cause (host wait / kernel wait / other), summed over its devices:
// each idle stretch of a device counts once, put down to the op that ended it (idle.devices). The
// per-stream breakdown (idle.streams, HTA's) counts a stream's gaps while other streams run, so a
// stream with a few ops makes "host wait" look large on a GPU that is busy (summaries written
// before idle.devices existed fall back to it).
export function idleCauses(
  f: FileSummary
): { causes: Record<string, number>; over: 'devices' | 'streams'; n: number } | null {
  const devices = Array.isArray(f?.idle?.devices) ? f.idle.devices : null;
  const streams = Array.isArray(f?.idle?.streams) ? f.idle.streams : null;
  const rows = devices ?? streams;
  if (!rows || rows.length === 0) return null;
  const causes: Record<string, number> = {};
  for (const s of rows) {
    for (const [k, v] of Object.entries(s?.categories ?? {})) {
      const ns = num(v?.ns);
      if (ns !== null) causes[k] = (causes[k] ?? 0) + ns;
    }
  }
  return Object.keys(causes).length ? { causes, over: devices ? 'devices' : 'streams', n: rows.length } : null;
}

function idleCard(f: FileSummary): Card | null {
  const split = idleCauses(f);
  if (!split) return null;
  const { causes, over, n } = split;
  const total = Object.values(causes).reduce((a, b) => a + b, 0);
  const [top, v] = Object.entries(causes).sort((a, b) => b[1] - a[1])[0];
  const label = top.replace(/_/g, ' ');
  const of =
    over === 'devices'
      ? `GPU idle time, no stream running (${fmtDuration(total)}${n > 1 ? `, ${n} GPUs` : ''})`
      : `stream idle time (${fmtDuration(total)}, ${n} stream${n === 1 ? '' : 's'})`;
  return {
    id: 'idle-causes',
    label: 'Idle causes',
    value: total > 0 ? label : 'none',
    raw: total,
    path: `idle.${over}[].categories`,
    sub: total > 0 ? `${fmtPct((100 * v) / total)} of ${of}` : 'no idle time',
  };
}

function spanCard(f: FileSummary): Card | null {
  const m = f.model;
  if (num(m?.first_ts_ns) === null || num(m?.last_ts_ns) === null) return null;
  const span = m.last_ts_ns - m.first_ts_ns;
  return {
    id: 'span',
    label: 'Trace span',
    value: fmtDuration(span),
    raw: span,
    path: 'model.last_ts_ns-first_ts_ns',
    sub: `${fmtCount(f.import?.events ?? 0)} events`,
  };
}

function kernelsCard(f: FileSummary): Card | null {
  const n = num(f.model?.gpu_ops);
  if (n === null) return null;
  return {
    id: 'gpu-ops',
    label: 'GPU ops',
    value: fmtCount(n),
    raw: n,
    path: 'model.gpu_ops',
    sub: `${fmtCount(f.model?.gpu_stream_tracks ?? 0)} streams · ${fmtCount(f.model?.launch_links ?? 0)} launches linked`,
  };
}

export function headlineCards(f: FileSummary): Card[] {
  return [stepCard, busyCard, exposedCommCard, overlapCard, idleCard, spanCard, kernelsCard]
    .map((fn) => {
      try {
        return fn(f);
      } catch {
        return null;
      }
    })
    .filter((c): c is Card => c !== null);
}

export function renderCards(cards: Card[]): HTMLElement {
  return h(
    'div',
    { class: 'cards' },
    ...cards.map((c) =>
      h(
        'div',
        { class: `card${c.tone ? ` tone-${c.tone}` : ''}`, 'data-card': c.id },
        h('div', { class: 'card-label' }, c.label),
        h('div', { class: 'card-value', 'data-path': c.path, 'data-raw': String(c.raw) }, c.value),
        c.sub ? h('div', { class: 'card-sub' }, c.sub) : null
      )
    )
  );
}
