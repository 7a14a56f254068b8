// node:test: the job object the page gets (each rank's summary and rank record from its wasm
// session, then the core's jobSummary in a worker) is byte for byte the `job` of the native CLI's
// `tracewise summarize DIR`, on a job crafted from a real rank (tw_craft_job: clock offsets, a
// late rank and a collective missing on another).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule, importFile, WASM_DIR } from './wasm_node.mjs';
import { dataPath } from '../test_data.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'build', 'native', 'tracewise');
const CRAFT = join(ROOT, 'build', 'native', 'tw_craft_job');

let mod;
before(async () => {
  assert.ok(existsSync(CLI) && existsSync(CRAFT), 'native build missing (make native)');
  mod = await loadModule(WASM_DIR);
});

test('wasm and native give the same bytes for the job object', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-job-parity-'));
  const made = spawnSync(CRAFT, [
    dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz'),
    dir,
    '3',
    '--offset',
    '1:-2500000',
    '--offset',
    '2:1700000',
    '--delay',
    '1:300000',
    '--drop',
    '2:4',
  ]);
  assert.equal(made.status, 0, String(made.stderr));
  const native = spawnSync(CLI, ['summarize', dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(native.status, 0, native.stderr);

  const summaries = [];
  const ranks = [];
  for (const name of readdirSync(dir).sort()) {
    const session = await importFile(mod, join(dir, name));
    try {
      summaries.push(JSON.parse(session.summaryJson(false)).files[0]);
      ranks.push(session.rankJson(false));
    } finally {
      session.delete();
    }
  }
  const job = mod.jobSummary(JSON.stringify(summaries), `[${ranks.join(',')}]`);
  assert.ok(JSON.parse(job).collectives.mismatched >= 1, 'the dropped collective is a mismatch');
  assert.ok(native.stdout.includes(`"job":${job},"schema"`), 'the native document holds the same job bytes');
});
