// A summary document for the export tests (tests/web/export_tables.test.mjs, tests/e2e/export.test.mjs):
// kernels under and over a millisecond, one with a name far over the exports' 120 characters that
// holds markup, operators, a recommendation with evidence, verdicts (the file's and the job's) and a
// job analysis (a straggler, a mismatch) holding markup.
export const longName = `void my_kernel<${'float, '.repeat(60)}<b>x</b>>(float*)`;

export const doc = {
  schema: 'tracewise.summary/1',
  files: [
    {
      name: 'run.json',
      model: { first_ts_ns: 1000 },
      kernels: {
        count: 10,
        total_ns: 3_000_000,
        distinct_names: 3,
        top: [
          {
            name: longName,
            kind: 'kernel',
            class: 'computation',
            count: 2,
            total_ns: 2_400_000,
            mean_ns: 1_200_000,
            min_ns: 1_100_000,
            max_ns: 1_300_000,
            p50_ns: 1_100_000,
            p95_ns: 1_300_000,
            share: 0.8,
          },
          {
            name: 'b',
            kind: 'kernel',
            class: 'memory',
            count: 8,
            total_ns: 500_000,
            mean_ns: 62_500,
            min_ns: 3_000,
            max_ns: 100_000,
            p50_ns: 60_000,
            p95_ns: 100_000,
            share: 0.1667,
          },
        ],
      },
      operators: {
        distinct_operators: 5,
        top: [
          {
            name: 'aten::linear',
            calls: 4,
            total_ns: 9_000_000,
            self_ns: 300_000,
            device_self_ns: 0,
            device_total_ns: 2_000_000,
            gpu_ops: 0,
          },
          {
            name: 'aten::addmm',
            calls: 4,
            total_ns: 8_000_000,
            self_ns: 900_000,
            device_self_ns: 2_000_000,
            device_total_ns: 2_000_000,
            gpu_ops: 4,
          },
        ],
      },
      verdict: {
        limiter: 'host',
        sentence: 'Host-bound: the GPU is idle 40.0% of the step time, waiting for <i>the CPU</i>.',
      },
      recommendations: [
        {
          id: 'gpu_idle',
          severity: 'high',
          title: 'The GPU is idle 40 % of the time',
          text: 'The GPU waits for the host. Launch work earlier.',
          evidence: {
            numbers: { idle_ns: 1_200_000_000, share: 0.4, gpu_span_ns: 3_000_000_000 },
            offenders: ['host_wait'],
            ranges: [],
          },
        },
      ],
    },
  ],
  job: {
    rank_count: 2,
    verdict: { limiter: 'host', sentence: 'Both ranks are host-bound <b>now</b>.' },
    // The job analysis the exports tell (web/export/job_digest.ts): group names come from the trace.
    ranks: [],
    stragglers: [{ label: 'rank 1', reason: 'rank 1 arrives last at 3 of 3 collectives <i>late</i>.' }],
    collectives: {
      instances: 4,
      matched: 3,
      mismatched: 1,
      partial: 0,
      by_op_group: [],
      worst: [],
      mismatches: [{ group: '<g>', op: 'allreduce', step: 2, n: 1, by_seq: false, problem: 'missing on rank 1' }],
    },
  },
};
