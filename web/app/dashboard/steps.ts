// ProfilerStep table: one row per step with its duration, GPU time split and comm/compute overlap;
// each row links to its window in the timeline. Below it, the picked step's details (step_detail.ts).
import { h } from '../dom';
import { DataTable, type Column } from './table';
import type { Links } from './links';
import { stepDetailPanel } from './step_detail';
import { type FileSummary, field } from '../summary_document';

// Every time and percentage column in one unit, named in its header ("GPU busy (ms)", "GPU idle (%)"):
// the columns mix durations and percentages, and a unit per cell made "111.2 ms | 0.90 %" read alike.
const kColumns: Column[] = (
  [
    { key: 'number', label: 'Step', kind: 'count' },
    { key: 'begin_ns', label: 'Begin', kind: 'ts' },
    { key: 'duration_ns', label: 'Duration', kind: 'ns' },
    { key: 'temporal.busy_ns', label: 'GPU busy', kind: 'ns' },
    { key: 'temporal.idle_pct', label: 'GPU idle', kind: 'pct' },
    { key: 'temporal.exposed.computation_ns', label: 'Compute', kind: 'ns' },
    { key: 'temporal.exposed.communication_ns', label: 'Exposed comm', kind: 'ns' },
    { key: 'temporal.exposed.memory_ns', label: 'Exposed memory', kind: 'ns' },
    { key: 'overlap.communication_ns', label: 'Communication', kind: 'ns' },
    { key: 'overlap.pct', label: 'Comm overlap', kind: 'pct' },
    { key: 'end_ns', label: 'End', kind: 'ts' },
  ] as Column[]
).map((c) => ({ ...c, fixedUnit: c.kind !== 'count' }));

export function stepsPanel(f: FileSummary, links: Links): HTMLElement | null {
  const steps = Array.isArray(f?.steps) ? f.steps : null;
  if (!steps || steps.length === 0) return null;
  const has = (key: string) => steps.some((s) => key.split('.').reduce<unknown>(field, s) !== undefined);
  const cols = kColumns.filter((c) => has(c.key));
  const source = f.steps_source === 'gpu_user_annotation' ? ' (from GPU annotations)' : '';
  return h(
    'section',
    { class: 'panel', 'data-section': 'steps' },
    h('h2', null, `Profiler steps${source}`),
    new DataTable(steps, cols, links, undefined, 'steps').root,
    stepDetailPanel(steps, links)
  );
}
