// The summary document (`tracewise summarize` output, schema "tracewise.summary/1") as the core
// writes it: core/summary/*.cc, described in docs/summary-schema.md and
// docs/summary-detail-sections.md. tests/wasm/summary_types.test.mjs holds these types to the
// documents the core makes of every test trace, in both analysis modes.
//
// Every time is integer ns (`*_ns`; begin / end / ts are absolute trace timestamps), `*_pct` a
// percentage in 0..100, `share` and the like a fraction in 0..1. A section the trace has nothing for
// is null. Keys the core writes only in one place (per-step sections, hta_compat mode) are optional.
//
// What the page gets is not always this whole: a section sent ahead (SummaryPart) holds some keys
// only, a summary link's files are trimmed (fewer rows, shorter text, long series and deep levels
// dropped: web/share/summary_trim.ts) and a saved JSON may come from an older core. So the views read
// every section defensively, and these types say what the keys mean when they are there.
//
// Type aliases, not interfaces: an alias is assignable to Record<string, unknown>, which is how the
// generic views (tables, key/value grids) take any row or section.

// `job`: with two files or more (core/summary/job_summary.h).
export type SummaryDocument = { schema: string; files: FileSummary[]; job?: JobSummary };

// The files opened together as one job: which limiter the ranks share, which differ, which rank is
// slowest (its mean step, or its GPU span when not every rank has steps); with the files' rank
// records also the job analysis (docs/summary-schema.md "The job analysis"; absent from a document
// rebuilt from saved summaries).
export type JobSummary = {
  rank_count: number;
  ranks?: JobRank[];
  clock?: { aligned: boolean; method: 'collective_ends' | 'as_written'; reference: string | null };
  stragglers?: Straggler[];
  straggler_rule?: { k: number; late_floor_ns: number; tie_ns: number; step_margin_share: number };
  collectives?: JobCollectives;
  notes?: string[];
  verdict: {
    limiter: Limiter | null; // null: no file has a verdict
    agree: number;
    by_limiter: Partial<Record<Limiter, string[]>>; // rank labels ("rank 3", else the file name)
    slowest: { label: string; ns: number; median_ns: number; over_median: number; of: 'step_mean' | 'gpu_span' } | null;
    sentence: string | null;
  };
};

export type JobRank = {
  rank: number | null;
  label: string;
  file: string;
  aligned: boolean;
  clock_offset_ns: number; // this rank's timestamps minus it are on the reference rank's clock
  clock_residual_ns: number | null;
  collectives: number;
  last_arrivals: number;
  late_ns: number | null;
  wait_ns: number;
  transfer_ns: number;
  step_ns: number | null;
  limiter: Limiter | null;
};
export type StragglerCause =
  'gpu_compute' | 'host' | 'data_loader' | 'memory_copy' | 'unrecorded' | 'slow_link' | 'unknown';
export type Straggler = {
  rank: number | null;
  label: string;
  metric: string;
  value: number;
  median: number;
  cause: StragglerCause;
  reason: string;
  steps: Array<{ number: number; late_ns: number }>;
};
export type CollectiveHead = { group: string; op: string; step: number | null; n: number; by_seq: boolean };
export type JobCollectives = {
  instances: number;
  matched: number;
  mismatched: number;
  partial: number;
  by_op_group: Array<{
    group: string;
    op: string;
    count: number;
    group_size: number;
    bytes: number;
    sized: number;
    mean_transfer_ns: number;
    mean_skew_ns: number;
    max_skew_ns: number;
    algbw_gbps: number | null;
    busbw_gbps: number | null;
  }>;
  mismatches: Array<CollectiveHead & { problem: string }>;
  // The heatmap's columns; begin_ns / end_ns on the reference rank's clock; waits_ns per entry of ranks.
  worst: Array<
    CollectiveHead & {
      begin_ns: number;
      end_ns: number;
      skew_ns: number;
      transfer_ns: number;
      bytes: number | null;
      last: string;
      waits_ns: Array<number | null>;
    }
  >;
};

export type FileSummary = FileHead & {
  analysis_mode: AnalysisMode;
  temporal: Temporal | null;
  kernel_classes_ns: ClassTimes | null;
  kernel_classes: Record<KernelClass, { ops: number; sum_ns: number }> | null;
  memory_ops: MemoryOps | null;
  overlap: Overlap | null;
  stream_overlap: StreamOverlap | null;
  steps: Step[]; // empty without ProfilerSteps
  steps_source: 'cpu' | 'gpu_user_annotation' | null;
  operators: Operators; // always an object, also for CPU-only traces
  launches: Launches | null;
  memory: Memory | null;
  kernels: Kernels | null;
  by_name: ByName;
  annotations: Annotations;
  collectives: Collectives | null;
  idle: Idle | null;
  step_breakdown: StepBreakdown | null;
  utilization: Utilization | null;
  recommendations: Recommendation[];
  verdict: Verdict;
};

// --- identity, import and model (the head every part sent ahead starts with) ----------------------

export type FileHead = {
  name: string;
  bytes: number; // as given (compressed size for .gz)
  rank: number | null;
  world_size: number | null;
  devices: DeviceProperties[];
  display_time_unit: string;
  import: ImportStats;
  model: ModelCounts;
};

export type DeviceProperties = {
  id: number;
  name: string;
  total_global_mem: number;
  compute_capability: string;
  num_sms: number;
};

export type ImportStats = {
  events: number;
  bytes_read: number;
  phases: Record<string, number>; // events per `ph`
  problems: Record<string, number>; // by problem name (bad_ts, unmatched_end, ...)
  problem_first_offsets: Record<string, number>; // byte offset of each problem's first occurrence
  // Values JSON does not allow, read anyway (also among problems): lone_surrogate, non_json_number.
  invalid: Record<string, InvalidValues>;
  truncated: boolean;
  recovered?: RecoveredSpans; // only when damage in the events array was skipped
};

// Damaged spans of the events array the importer skipped to the next event (core/import/event_splitter.h).
export type RecoveredSpans = {
  regions: number;
  skipped_bytes: number;
  first_offset: number; // byte offset where the first span starts
};

export type InvalidValues = {
  count: number;
  first_offset: number;
  example: string; // an excerpt of the input around the first one
};

export type ModelCounts = {
  processes: number;
  tracks: number;
  thread_tracks: number;
  gpu_stream_tracks: number;
  slices: number;
  gpu_ops: number;
  instants: number;
  counter_series: number;
  memory_samples: number;
  flows: number;
  launch_links: number;
  first_ts_ns: number;
  last_ts_ns: number;
};

// --- analysis sections (summary-schema.md) ---------------------------------------------------------

export type AnalysisMode = {
  name: 'default' | 'hta_compat';
  kernel_rules: 'default' | 'hta' | 'user';
  hta_selection?: {
    // hta_compat only: the events HTA would keep
    step_names: number;
    last_step_dropped: boolean;
    cutoff_ns: number | null;
    kept_gpu_ops: number;
    dropped_gpu_ops: number;
    sync_events: number;
    stream_events: number;
  };
};

export type KernelClass = 'computation' | 'communication' | 'memory' | 'other';
export type ClassTimes = Record<KernelClass, number>; // union of each class's ops, ns

type OpsTime = { ops: number; sum_ns: number };
export type MemoryOps = Record<'htod' | 'dtoh' | 'dtod' | 'ptop' | 'other' | 'memset', OpsTime & { bytes: number }> & {
  host_side: Record<'pageable' | 'pinned' | 'unknown', OpsTime>;
};

// Compute, then communication, memory and other not under it, then idle: they add up to span_ns.
export type ExposedTimes = {
  computation_ns: number;
  communication_ns: number;
  memory_ns: number;
  other_ns: number;
  idle_ns: number;
};

type TemporalTimes = {
  begin_ns: number;
  end_ns: number;
  span_ns: number;
  busy_ns: number;
  idle_ns: number;
  compute_ns: number;
  non_compute_ns: number;
  idle_pct: number | null;
  compute_pct: number | null;
  non_compute_pct: number | null; // null: empty span
  exposed: ExposedTimes;
};
export type Temporal = TemporalTimes & { gpu_ops: number };
export type StepTemporal = TemporalTimes & { classes_ns: ClassTimes };

export type Overlap = {
  communication_ns: number;
  overlapped_ns: number;
  exposed_ns: number;
  pct: number | null; // null: no communication
};

export type StreamActivity = {
  device: number;
  stream: number;
  ops: number;
  busy_ns: number;
  main_class: KernelClass;
  classes_ns: ClassTimes;
};
export type StreamOverlap = {
  streams: StreamActivity[]; // busiest first
  pairs: Array<{ a: number; b: number; overlap_ns: number; pct_of_smaller: number | null }>; // a, b: stream indices
  truncated: boolean; // only the busiest streams were compared
};

export type Step = {
  number: number;
  begin_ns: number;
  end_ns: number;
  duration_ns: number; // the CPU-side window
  temporal: StepTemporal | null; // null without GPU work
  overlap: Overlap | null;
  sections: StepSections | null; // null after the 32nd step
};

// --- detail sections (summary-detail-sections.md) --------------------------------------------------

export type TimeRange = { begin_ns: number; end_ns: number };

export type IdleCause = 'host_wait' | 'kernel_wait' | 'other';
export type IdleCategories = Record<IdleCause, { ns: number; count: number; share: number }>;
export type IdleGap = TimeRange & { duration_ns: number; category: IdleCause };
export type StreamIdle = {
  device: number;
  stream: number;
  ops: number;
  first_ns: number;
  last_ns: number;
  idle_ns: number;
  categories: IdleCategories;
  longest_gaps: IdleGap[];
};
export type DeviceIdle = {
  device: number;
  ops: number;
  first_ns: number;
  last_ns: number;
  busy_ns: number;
  idle_ns: number;
  categories: IdleCategories;
  longest_gaps: IdleGap[];
};
export type Idle = {
  kernel_wait_threshold_ns: number;
  streams: StreamIdle[];
  devices?: DeviceIdle[]; // the whole trace's only (and not in summaries of older cores)
};

export type KernelRow = {
  name: string;
  kind: 'kernel' | 'gpu_memcpy' | 'gpu_memset' | 'cuda_sync' | 'cpu_op'; // the last two in hta_compat mode only
  class: KernelClass;
  count: number;
  total_ns: number;
  mean_ns: number;
  min_ns: number;
  max_ns: number;
  p50_ns: number;
  p95_ns: number;
  share: number; // of the summed time of all GPU ops (of the step's, per step)
};
// count and total_ns: every GPU op (kernels, copies, sets), total_ns a sum of durations (ops that
// run at the same time count each); by_kind splits both.
export type Kernels = {
  count: number;
  total_ns: number;
  distinct_names: number;
  by_kind: Record<'kernel' | 'gpu_memcpy' | 'gpu_memset', { count: number; total_ns: number }>;
  top: KernelRow[];
};

// GPU time by user annotation and nn.Module (docs/summary-detail-sections.md, core/calltree/annotations.h).
type StreamTime = { device: number; stream: number; ns: number };
export type Annotations = {
  count: number;
  rows: Array<{
    name: string;
    module: boolean;
    count: number;
    cpu_ns: number;
    gpu_ops: number;
    gpu_ns: number;
    gpu_ops_other_thread: number;
    gpu_by_stream: StreamTime[];
    gpu_side: StreamTime[];
  }>;
  overlaps: Array<{
    a: string;
    b: string;
    overlap_ns: number;
    a_busy_ns: number;
    b_busy_ns: number;
    a_hidden_pct: number;
    b_hidden_pct: number;
  }>;
};

// Every kernel and operator per short name with its time in each of the first step_columns steps:
// what the run comparison reads (docs/summary-detail-sections.md, docs/diff-schema.md).
type ByNameRow = { name: string; variants: number; count: number; total_ns: number; steps_ns: number[] };
export type ByName = {
  step_columns: number;
  kernels: Array<ByNameRow & { kind: KernelRow['kind']; class: KernelClass }>;
  operators: Array<ByNameRow & { self_ns: number }>;
};

type OperatorTimes = { name: string; calls: number; total_ns: number; self_ns: number; device_total_ns: number };
export type Operators = {
  distinct_operators: number;
  top: Array<OperatorTimes & { device_self_ns: number; gpu_ops: number }>;
  distinct_modules: number;
  modules: Array<OperatorTimes & { depth: number }>;
  operator_kernels: Array<{
    operator: string;
    kernel: string;
    count: number;
    gpu_ns: number;
    mean_op_to_launch_ns: number;
    mean_launch_to_start_ns: number;
  }>;
  launches: number;
  launches_attributed: number;
  launches_by_external_id: number;
};

export type Distribution = {
  count: number;
  min_ns: number;
  p50_ns: number;
  p90_ns: number;
  p99_ns: number;
  max_ns: number;
  mean_ns: number;
};
export type StreamQueue = {
  device: number;
  stream: number;
  changes: number;
  max: number;
  mean: number;
  time_weighted_mean: number;
  time_at_max_ns: number;
  series: { ts_ns: number[]; max_length: number[] };
};
export type SyncKind = 'device_synchronize' | 'stream_synchronize' | 'event_synchronize' | 'blocking_memcpy';
export type HostSyncs = {
  count: number;
  blocked_ns: number;
  kinds: Array<{ kind: SyncKind; count: number; blocked_ns: number }>;
  top_sites: Array<{ name: string | null; count: number; blocked_ns: number }>; // null: called from no operator
  longest: Array<TimeRange & { name: string; duration_ns: number }>;
};
export type Launches = {
  count: number;
  delay: Distribution;
  negative_delays: number;
  delay_outlier_threshold_ns: number;
  delay_outliers: number;
  worst_delays: Array<{
    kernel: string;
    launch: string;
    correlation: number | null;
    launch_end_ns: number;
    gpu_start_ns: number;
    delay_ns: number;
    cpu_ns: number;
    gpu_ns: number;
  }>;
  cpu: Distribution;
  runtime_outlier_threshold_ns: number;
  runtime_outliers: number;
  short_ops: { count: number; gpu_ns: number; top: Array<{ name: string; count: number }> };
  launch_cpu_ns: number;
  launched_gpu_ns: number;
  launch_bound: boolean;
  host_syncs: HostSyncs;
  queues?: StreamQueue[]; // the whole trace's only
};

export type MemoryDevice = {
  device: number; // -1: the CPU
  samples: number;
  peak_allocated: number;
  peak_allocated_ts_ns: number;
  peak_reserved: number;
  peak_reserved_ts_ns: number;
  final_allocated: number;
  final_reserved: number;
  // null when the device's memory size is unknown
  total_global_mem: number | null;
  peak_allocated_share: number | null;
  peak_reserved_share: number | null;
  series?: { ts_ns: number[]; allocated: number[]; reserved: number[] }; // the whole trace's only
};
export type Memory = { devices: MemoryDevice[] };

export type CollectiveType = {
  type: string;
  count: number;
  total_ns: number;
  mean_ns: number;
  exposed_ns: number;
  sized_ops: number;
  bytes: number; // bytes of the sized ops only
  group_size: number | null;
  algbw_gbps: number | null;
  busbw_gbps: number | null;
};
export type Collectives = {
  count: number;
  total_ns: number;
  union_ns: number;
  exposed_ns: number;
  by_type: CollectiveType[];
  worst_exposed: TimeRange[];
};

export type StepCategory =
  'kernel' | 'memcpy' | 'memset' | 'communication' | 'runtime' | 'dataloader' | 'cpu_exec' | 'other';
export type StepTimes = {
  number: number;
  begin_ns: number;
  end_ns: number;
  duration_ns: number;
  categories_ns: Record<StepCategory, number>;
};
export type StepBreakdown = {
  count: number;
  mean_ns: number;
  p50_ns: number;
  min_ns: number;
  max_ns: number;
  total_ns: number;
  categories_ns: Record<StepCategory, number>;
  steps: StepTimes[];
};

export type Utilization = {
  begin_ns: number;
  end_ns: number;
  bucket_ns: number;
  buckets: number;
  all: number[]; // busy fraction per bucket, any device
  devices: Array<{ device: number; busy_ns: number; busy: number[] }>;
};

export type RecommendationRule =
  | 'data_loading'
  | 'exposed_communication'
  | 'gpu_idle'
  | 'launch_bound'
  | 'host_syncs'
  | 'pageable_memcpy'
  | 'memory_peak'
  | 'no_tensor_cores'
  | 'unbalanced_micro_batches';
export type Recommendation = {
  id: RecommendationRule;
  severity: 'high' | 'medium' | 'low';
  title: string;
  text: string;
  evidence: { numbers: Record<string, number>; offenders: Array<string | null>; ranges: TimeRange[] };
};

// What limits the run, in one sentence (core/analysis/verdict.h): judged over the profiler steps
// when there are any, else over the GPU's active span, else the trace (no GPU work).
export type Limiter =
  'compute' | 'communication' | 'memory_copy' | 'data_loader' | 'launch' | 'host' | 'gpu_wait' | 'cpu_only';
export type VerdictPartId =
  | 'gpu_compute'
  | 'exposed_communication'
  | 'memory_copy'
  | 'other_gpu'
  | 'data_loader'
  | 'runtime'
  | 'cpu'
  | 'untraced'
  | 'gpu_idle'
  | 'gpu_idle_host_wait'
  | 'gpu_idle_kernel_wait'
  | 'gpu_idle_other';
export type Verdict = {
  limiter: Limiter;
  basis: 'steps' | 'gpu_span' | 'trace';
  basis_ns: number; // the steps' total, the GPU span or the trace span
  steps: number;
  sentence: string;
  parts: Array<{ id: VerdictPartId; ns: number; share: number }>; // of basis_ns, largest first; add up to it
  gpu_idle_part: VerdictPartId | null; // the GPU-idle part that made a host-side call
  top: Array<{ name: string; ns: number; share: number }>; // the names behind the limiter (at most 3)
  top_of: 'computation_kernel_sum' | 'memory_op_sum' | 'exposed_communication' | 'operator_self_sum' | null;
  recommendations: RecommendationRule[]; // the fired rules that back it
};

// A step's sections, each shaped as the whole trace's (without the keys marked "the whole trace's only").
export type StepSections = {
  idle: Idle | null;
  kernels: Kernels | null;
  launches: Launches | null;
  collectives: Collectives | null;
  memory: Memory | null;
  operators: Operators;
};

// --- reading values of unknown shape ---------------------------------------------------------------

// `v?.[key]` for a value of unknown shape (an older or hand-written summary, a parsed reply).
export function field(v: unknown, key: string): unknown {
  return v === null || v === undefined ? undefined : (v as Record<string, unknown>)[key];
}

// A value that can be read by key: an object (or array), not null.
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object';
}

// A recommendation as the dashboard and the exports read it: the core's keys (Recommendation) and
// the other names they accept too (message, level, detail, description), or a plain sentence.
type RecKey = 'id' | 'severity' | 'title' | 'text' | 'message' | 'level' | 'detail' | 'description' | 'evidence';
export type RecommendationLike = string | { [K in RecKey]?: unknown };

// A summary's recommendations: its array, or (not the core's shape) the `items` of an object.
export function recommendationsOf(f: FileSummary): RecommendationLike[] | null {
  if (Array.isArray(f?.recommendations)) return f.recommendations;
  const items = field(f?.recommendations, 'items');
  return Array.isArray(items) ? items : null;
}
