// The native CLI's contract: exit codes (0 ok, 1 unreadable input, 2 usage), the summary document for
// several files, --hta-compat, --kernel-rules, and the human-readable `info`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TW_CLI || join(root, 'build', 'native', 'tracewise');
const deepseek = dataPath('deepseek_profile_data/train.json');
const rank0 = dataPath('hta/tests/data/trace_filter/sampled_rank-0.json.gz');
const rank1 = dataPath('hta/tests/data/trace_filter/sampled_rank-1.json.gz');
const tmp = mkdtempSync(join(tmpdir(), 'tw-cli-'));

function run(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('usage errors exit 2', () => {
  assert.equal(run().code, 2);
  assert.equal(run('summarize').code, 2);
  assert.equal(run('frobnicate', deepseek).code, 2);
  assert.equal(run('summarize', '--no-such-flag', deepseek).code, 2);
  assert.equal(run('info', deepseek, deepseek).code, 2);
});

test('unreadable input exits 1 with one message on stderr', () => {
  const missing = run('summarize', join(tmp, 'missing.json'));
  assert.equal(missing.code, 1);
  assert.match(missing.err, /cannot open/);
  const notTrace = join(tmp, 'a.json');
  writeFileSync(notTrace, '{"a":1}');
  const r = run('summarize', notTrace);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /Not a trace: .*traceEvents.*byte \d+/);
});

test('several files (ranks) give one document with one entry each, in order', () => {
  const r = run('summarize', rank0, rank1);
  assert.equal(r.code, 0);
  const doc = JSON.parse(r.out);
  assert.equal(doc.schema, 'tracewise.summary/1');
  assert.deepEqual(
    doc.files.map((f) => f.name),
    ['sampled_rank-0.json.gz', 'sampled_rank-1.json.gz']
  );
  assert.deepEqual(
    doc.files.map((f) => f.rank),
    [0, 1]
  );
  // Deterministic: the same bytes twice.
  assert.equal(run('summarize', rank0, rank1).out, r.out);
});

test('--hta-compat changes the mode and DeepEP kernels stop being communication', () => {
  const def = JSON.parse(run('summarize', deepseek).out).files[0];
  const hta = JSON.parse(run('summarize', '--hta-compat', deepseek).out).files[0];
  assert.equal(def.analysis_mode.name, 'default');
  assert.equal(hta.analysis_mode.name, 'hta_compat');
  assert.ok(def.kernel_classes_ns.communication > 0);
  assert.equal(hta.kernel_classes_ns.communication, 0);
});

test('--kernel-rules extends the rules; an invalid rules file is a usage error', () => {
  const rules = join(tmp, 'rules.json');
  writeFileSync(rules, JSON.stringify({ rules: [{ pattern: '^void at::native', class: 'other' }] }));
  const f = JSON.parse(run('summarize', '--kernel-rules', rules, deepseek).out).files[0];
  assert.equal(f.analysis_mode.kernel_rules, 'user');
  assert.ok(f.kernel_classes_ns.other > 0);
  const bad = join(tmp, 'bad.json');
  writeFileSync(bad, '{"rules":[{"pattern":"(","class":"other"}]}');
  const r = run('summarize', '--kernel-rules', bad, deepseek);
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid kernel rules/);
  assert.equal(run('summarize', '--kernel-rules', join(tmp, 'nope.json'), deepseek).code, 1);
  // What the linear-time engine cannot run is refused with the reason, not silently never matched.
  const lookahead = join(tmp, 'lookahead.json');
  writeFileSync(lookahead, JSON.stringify({ rules: [{ pattern: 'elementwise(?=_kernel)', class: 'other' }] }));
  const l = run('summarize', '--kernel-rules', lookahead, deepseek);
  assert.equal(l.code, 2);
  assert.match(l.err, /invalid regex: look-ahead/);
});

test('info prints the overview and the analysis highlights', () => {
  const r = run('info', deepseek);
  assert.equal(r.code, 0);
  assert.match(r.out, /^events: +14240$/m);
  assert.match(r.out, /^rank: +0 of 64$/m);
  assert.match(r.out, /^GPU time: +span [\d.]+ ms, idle/m);
  assert.match(r.out, /^comm: .* hidden under compute/m);
  assert.match(r.out, /dpsk::ep::internode::combine/);
});

test('stats imports only and prints the counts', () => {
  const r = run('stats', deepseek);
  assert.equal(r.code, 0);
  assert.match(r.out, /^events 14240$/m);
  assert.match(r.out, /^model_bytes \d+$/m);
});
