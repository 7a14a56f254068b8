// The verdict line on top of the dashboard: what limits this run, in the core's one sentence
// (core/analysis/verdict.h), above the split of the time it was judged over (the steps, the GPU span
// or the trace) and the names behind it. The recommendations that back it are linked below it.
import { h } from '../dom';
import { fmtDuration, fmtPct } from '../format';
import { legend, stackedBar, type BarPart } from './charts';
import { nameLink, type Links } from './links';
import type { FileSummary, JobSummary, Verdict, VerdictPartId } from '../summary_document';
import { isObject } from '../summary_document';

// Each part's legend words and colour (the time breakdown's colours for the same things).
const kParts: Record<VerdictPartId, { label: string; color: string }> = {
  gpu_compute: { label: 'GPU computation', color: '--c-compute' },
  exposed_communication: { label: 'exposed communication', color: '--c-comm' },
  memory_copy: { label: 'memory copies / sets', color: '--c-mem' },
  other_gpu: { label: 'other GPU work', color: '--c-other' },
  data_loader: { label: 'DataLoader (GPU idle)', color: '--c6' },
  runtime: { label: 'CUDA runtime (GPU idle)', color: '--c5' },
  cpu: { label: 'CPU ops / Python (GPU idle)', color: '--c3' },
  untraced: { label: 'nothing recorded (GPU idle)', color: '--c-idle' },
  gpu_idle: { label: 'GPU idle', color: '--c-idle' },
  gpu_idle_host_wait: { label: 'GPU idle: host wait', color: '--c2' },
  gpu_idle_kernel_wait: { label: 'GPU idle: kernel wait', color: '--c4' },
  gpu_idle_other: { label: 'GPU idle: other', color: '--c-idle' },
};

// The names behind the limiter are event names the timeline can search for, except collective types.
const kSearchable = new Set(['computation_kernel_sum', 'memory_op_sum', 'operator_self_sum']);

function basisText(v: Verdict): string {
  if (v.basis === 'steps')
    return `Judged over ${v.steps} profiler step${v.steps === 1 ? '' : 's'} (${fmtDuration(v.basis_ns)} in all)`;
  if (v.basis === 'gpu_span')
    return `Judged over the GPU's active span (${fmtDuration(v.basis_ns)}): the trace has no profiler steps`;
  return `Judged over the trace (${fmtDuration(v.basis_ns)})`;
}

const isVerdict = (v: unknown): v is Verdict =>
  isObject(v) && typeof v.sentence === 'string' && typeof v.limiter === 'string' && Array.isArray(v.parts);

export function verdictPanel(f: FileSummary, links: Links): HTMLElement | null {
  const v: unknown = f?.verdict;
  if (!isVerdict(v)) return null; // a summary from an older core
  const parts: BarPart[] = v.parts.map((p) => ({
    label: kParts[p.id]?.label ?? p.id,
    value: p.ns,
    color: kParts[p.id]?.color ?? '--c-other',
    title: `${kParts[p.id]?.label ?? p.id}: ${fmtDuration(p.ns)} (${fmtPct(100 * p.share)})`,
  }));
  const top = v.top.length
    ? h(
        'p',
        { class: 'verdict-top small' },
        h('span', { class: 'muted' }, 'Behind it: '),
        ...v.top.flatMap((t, i) => [
          i ? ', ' : '',
          kSearchable.has(String(v.top_of)) ? nameLink(links, t.name) : h('span', null, t.name),
          ` ${fmtPct(100 * t.share)}`,
        ])
      )
    : null;
  return h(
    'section',
    { class: `panel verdict limiter-${v.limiter}`, 'data-section': 'verdict', 'data-limiter': v.limiter },
    h('p', { class: 'verdict-line' }, h('span', { class: 'verdict-sentence' }, ...sentenceParts(v.sentence))),
    parts.length ? stackedBar(parts, v.basis_ns > 0 ? v.basis_ns : undefined) : null,
    parts.length
      ? legend(
          parts.map((p) => ({ label: `${p.label} ${fmtPct((100 * p.value) / (v.basis_ns || 1))}`, color: p.color }))
        )
      : null,
    top,
    h('p', { class: 'muted small' }, `${basisText(v)}.`),
    v.recommendations.length
      ? h(
          'p',
          { class: 'small verdict-recs' },
          h('span', { class: 'muted' }, 'See the recommendations: '),
          ...v.recommendations.flatMap((id, i) => [
            i ? ', ' : '',
            h('a', { href: '#', class: 'verdict-rec', 'data-rec': id, onclick: showRecommendation }, recTitle(f, id)),
          ])
        )
      : null
  );
}

// Several files (ranks) open: the job's verdict above the shown rank's (core/summary/job_summary.h).
export function jobVerdictLine(job: JobSummary | null): HTMLElement | null {
  const sentence = job?.verdict?.sentence;
  if (typeof sentence !== 'string') return null;
  return h(
    'p',
    { class: 'panel verdict job-verdict', 'data-section': 'job-verdict', 'data-limiter': String(job?.verdict.limiter) },
    h('strong', null, `Job (${job?.rank_count} files): `),
    h('span', { class: 'verdict-sentence' }, sentence)
  );
}

// The core's sentence opens with the limiter ("Host-bound: the GPU is idle ..."): that head in bold.
function sentenceParts(sentence: string): Node[] {
  const colon = sentence.indexOf(': ');
  if (colon <= 0 || colon > 40) return [document.createTextNode(sentence)];
  return [
    h('strong', { class: 'verdict-label' }, sentence.slice(0, colon + 1)),
    document.createTextNode(sentence.slice(colon + 1)),
  ];
}

function recTitle(f: FileSummary, id: string): string {
  const r = Array.isArray(f.recommendations) ? f.recommendations.find((x) => x?.id === id) : undefined;
  return typeof r?.title === 'string' ? r.title : id;
}

// Scrolls to the recommendation (recommendations.ts marks each rule's first item with data-rec); the
// location's fragment is left alone (it holds shared views: web/share/fragment.ts).
function showRecommendation(e: Event): void {
  e.preventDefault();
  const id = (e.currentTarget as HTMLElement).dataset.rec ?? '';
  const item = [...document.querySelectorAll<HTMLElement>('li.rec[data-rec]')].find((el) => el.dataset.rec === id);
  item?.scrollIntoView({ block: 'center' });
}
