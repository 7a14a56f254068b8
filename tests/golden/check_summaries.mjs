// Golden check of the importer's part of the summary: for a few real traces, the `import` and
// `model` sections (plus name, bytes, rank, world_size, devices, display_time_unit) of
// `tracewise summarize FILE` must equal the snapshots in tests/golden/expected/. Any change in what
// the importer loads, counts or reports shows up here as a readable diff.
//
//   node tests/golden/check_summaries.mjs            # check, exit 1 on a difference
//   node tests/golden/check_summaries.mjs --update   # rewrite the snapshots (review the git diff!)
//
// Overrides: TW_NATIVE_CLI (default build/native/tracewise), TW_TEST_DATA.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
export const CLI = process.env.TW_NATIVE_CLI ?? join(ROOT, 'build', 'native', 'tracewise');
export const EXPECTED_DIR = join(here, 'expected');

// Small and medium traces that between them cover every importer path: Kineto (CUDA, AMD, CPU-only,
// NCCL, integers beyond int64, gpu_user_annotation, 2021 schema), Chrome DevTools, hand-written
// trace-event files (truncated, unbalanced B/E), flow v1/v2, and one file that is not a trace.
export const GOLDEN_TRACES = [
  'hta/tests/data/call_stack/backward_thread.json',
  'hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz',
  'hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz',
  'hta/tests/data/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz',
  'hta/tests/data/large_integer_trace/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz',
  'hta/tests/data/with_gpu_user_annotation/step_based_trace_2543932.json.gz',
  'hta/tests/data/nccl_parser_config/nccl_data.json.gz',
  'hta/tests/data/execution_trace/benchmark_simple_add_et.json.gz',
  'deepseek_profile_data/train.json',
  'kineto/tb_plugin/test/gpu_metrics_input.json',
  'kineto/docs/traces/before_fix_trace.json',
  'kineto/profiler/plugin/trace_viewer/tf_trace_viewer/data/trace.json',
  'speedscope/sample/profiles/Chrome/69/simple.json',
  'speedscope/sample/profiles/Chrome/116/Trace-20230603T221323.json',
  'speedscope/sample/profiles/trace-event/too-many-end-events.json',
  'speedscope/sample/profiles/trace-event/simple-partial-trailing-comma.json',
  'perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v1.json',
  'perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v2.json',
];

const KEPT_KEYS = ['name', 'bytes', 'import', 'model', 'rank', 'world_size', 'devices', 'display_time_unit'];

export function snapshotName(rel) {
  return rel.replace(/[^A-Za-z0-9._-]+/g, '__') + '.json';
}

// Keys sorted at every level so snapshots are stable whatever order the CLI writes.
function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted(v[k])])
    );
  }
  return v;
}

// What the CLI says about one trace, reduced to the importer's sections.
export function currentSnapshot(rel) {
  const path = dataPath(rel);
  const r = spawnSync(CLI, ['summarize', path], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    return { exit_code: r.status, stderr: r.stderr.split(path).join(`<traces>/${rel}`) };
  }
  const doc = JSON.parse(r.stdout);
  const file = doc.files[0];
  const kept = {};
  for (const k of KEPT_KEYS) if (k in file) kept[k] = file[k];
  return sorted({ schema: doc.schema, file: kept });
}

export function render(snapshot) {
  return JSON.stringify(snapshot, null, 2) + '\n';
}

// Paths of the values that differ between two snapshots ("file.import.problems.unmatched_end").
export function differences(expected, got, prefix = '') {
  if (JSON.stringify(expected) === JSON.stringify(got)) return [];
  const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(expected) || !isObj(got)) {
    return [`${prefix || '<root>'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`];
  }
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])].sort();
  return keys.flatMap((k) => differences(expected[k], got[k], prefix ? `${prefix}.${k}` : k));
}

// Checks (or with update=true rewrites) one snapshot; returns the list of differences.
export function checkOne(rel, { update = false } = {}) {
  const file = join(EXPECTED_DIR, snapshotName(rel));
  const got = currentSnapshot(rel);
  if (update) {
    mkdirSync(EXPECTED_DIR, { recursive: true });
    writeFileSync(file, render(got));
    return [];
  }
  if (!existsSync(file)) return [`no snapshot ${file} (run with --update)`];
  return differences(JSON.parse(readFileSync(file, 'utf8')), got);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const update = process.argv.includes('--update');
  if (!existsSync(CLI)) {
    console.error(`native CLI not built: ${CLI} (make native)`);
    process.exit(2);
  }
  let failed = 0;
  for (const rel of GOLDEN_TRACES) {
    const diffs = checkOne(rel, { update });
    if (diffs.length) {
      failed++;
      console.log(`DIFF ${rel}`);
      for (const d of diffs.slice(0, 20)) console.log(`  ${d}`);
    } else {
      console.log(`${update ? 'updated' : 'ok'}   ${rel}`);
    }
  }
  if (failed) console.log(`${failed} snapshot(s) differ; if the change is intended, rerun with --update`);
  process.exit(failed ? 1 : 0);
}
