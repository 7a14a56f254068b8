// The lines above the Kernels and Kernel classes tables: what their counts and totals take in. The count is every GPU op
// (kernels, copies and sets), the total a sum of durations; both read differently from the kernel
// count and the busy time elsewhere on the page, so the line says which is which.
import { h } from '../dom';
import { fmtCount, fmtDuration } from '../format';
import type { FileSummary } from '../summary_document';
import { isObject } from '../summary_document';

export function kernelsNote(f: FileSummary): HTMLElement | null {
  const k = f?.kernels;
  if (!k || typeof k.count !== 'number' || typeof k.total_ns !== 'number') return null;
  const kinds = isObject(k.by_kind) ? k.by_kind : null;
  const n = (key: 'kernel' | 'gpu_memcpy' | 'gpu_memset') =>
    typeof kinds?.[key]?.count === 'number' ? kinds[key].count : null;
  const split =
    n('kernel') !== null
      ? `: ${fmtCount(n('kernel')!)} kernels, ${fmtCount(n('gpu_memcpy') ?? 0)} memcpy, ${fmtCount(n('gpu_memset') ?? 0)} memset`
      : ' (kernels, memcpy and memset)';
  const busy = f?.temporal?.busy_ns;
  return h(
    'p',
    { class: 'muted small', 'data-note': 'kernels-totals' },
    `${fmtCount(k.count)} GPU ops${split}. Total ${fmtDuration(k.total_ns)} is the sum of their durations: ops that run at the same time count each` +
      (typeof busy === 'number' ? `, so it can exceed the GPU busy time (${fmtDuration(busy)}, a union).` : '.')
  );
}

// kernel_classes: per class, op count and summed durations; the time breakdown shows unions.
export function classesNote(f: FileSummary): HTMLElement | null {
  if (!isObject(f?.kernel_classes)) return null;
  return h(
    'p',
    { class: 'muted small', 'data-note': 'classes-sums' },
    'Per class: GPU ops and the sum of their durations (ops that run at the same time count each). ' +
      "The time breakdown's class bars are unions instead: a class's time with at least one of its ops running."
  );
}
