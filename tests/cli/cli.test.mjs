// The native CLI's contract: exit codes (0 ok, 1 unreadable input, 2 usage), the summary document for
// several files, --hta-compat, --kernel-rules, the human-readable `info`, and inputs that are not
// regular files (devices, FIFOs, standard input).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
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
  assert.equal(run('info', '--jobs', '0', deepseek).code, 2);
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

test('the summary is the same whether its two parts run on two threads (--jobs 2) or one after the other', () => {
  const nccl = dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
  for (const file of [deepseek, rank0, nccl]) {
    for (const mode of [[], ['--hta-compat']]) {
      const one = run('summarize', '--jobs', '1', ...mode, file);
      const two = run('summarize', '--jobs', '2', ...mode, file);
      assert.equal(one.code, 0, `${file} ${mode}`);
      assert.ok(one.out.includes('"verdict"'), 'a whole summary');
      assert.equal(two.out, one.out, `${file} ${mode}`);
    }
  }
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
  assert.match(r.out, /^verdict: +GPU compute-bound: kernels run 97\.1% of the step time\./m);
  assert.match(r.out, /^comm: .* hidden under compute/m);
  assert.match(r.out, /dpsk::ep::internode::combine/);
});

test('stats imports only and prints the counts', () => {
  const r = run('stats', deepseek);
  assert.equal(r.code, 0);
  assert.match(r.out, /^events 14240$/m);
  assert.match(r.out, /^model_bytes \d+$/m);
});

// Inputs without an end or a size (cli/input_check.h): a device is refused at once; a pipe, FIFO or
// standard input is read as a stream, up to --max-bytes, and no further than the importer's verdict.
const small = dataPath('hta/tests/data/call_stack/backward_thread.json');
const endless = { timeout: 60_000 };

function runWith(stdin, ...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 30_000, ...stdin });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

// The summary of `small` read as a regular file, with the name a stream gets instead.
function smallSummaryNamed(name) {
  const doc = JSON.parse(run('summarize', small).out);
  doc.files[0].name = name;
  return doc;
}

test('a device is refused as not a regular file, without reading it', endless, () => {
  for (const dev of ['/dev/zero', '/dev/urandom', '/dev/null']) {
    const r = runWith({}, 'summarize', dev);
    assert.equal(r.code, 1, dev);
    assert.equal(r.out, '');
    assert.match(r.err, /not a regular file/, dev);
  }
  // A folder stands for the traces in it (one per rank); one without any is refused.
  const empty = join(tmp, 'empty');
  mkdirSync(empty, { recursive: true });
  const r = runWith({}, 'info', empty);
  assert.equal(r.code, 1);
  assert.match(r.err, /holds no \.json or \.json\.gz file/);
});

test('NUL bytes on standard input stop at the first byte with "Not a trace"', endless, () => {
  const zero = openSync('/dev/zero', 'r');
  try {
    const r = runWith({ stdio: [zero, 'pipe', 'pipe'] }, 'summarize', '-');
    assert.equal(r.code, 1);
    assert.match(r.err, /standard input: Not a trace: it does not start with '\{' or '\[' \(at byte 0\)/);
  } finally {
    closeSync(zero);
  }
});

test('random bytes on standard input end with "Not a trace" or at --max-bytes', endless, () => {
  const random = openSync('/dev/urandom', 'r');
  try {
    // The stream never ends: whichever comes first, the importer giving up or the cap, ends it.
    const r = runWith({ stdio: [random, 'pipe', 'pipe'] }, 'summarize', '--max-bytes', '8M', '-');
    assert.equal(r.signal, null);
    assert.equal(r.code, 1);
    assert.match(r.err, /Not a trace|more than 8388608 bytes/);
  } finally {
    closeSync(random);
  }
});

test('a trace on standard input, plain or gzip, gives the summary of the file', endless, () => {
  const text = readFileSync(small);
  const expected = smallSummaryNamed('stdin');
  const plain = runWith({ input: text }, 'summarize', '-');
  assert.equal(plain.code, 0, plain.err);
  assert.deepEqual(JSON.parse(plain.out), expected);
  const gz = runWith({ input: gzipSync(text) }, 'summarize', '-');
  assert.equal(gz.code, 0, gz.err);
  const doc = JSON.parse(gz.out);
  assert.ok(doc.files[0].bytes < text.length, 'the size shown is the compressed one');
  doc.files[0].bytes = expected.files[0].bytes;
  assert.deepEqual(doc, expected);
});

test('a FIFO fed a trace is read once, to its end', endless, () => {
  const fifo = join(tmp, 'trace.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // The writer is its own process: it blocks until the CLI opens the FIFO for reading.
  const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', small, fifo], { stdio: 'ignore' });
  const r = runWith({}, 'summarize', fifo);
  writer.kill();
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), smallSummaryNamed('trace.fifo'));
});

test('a stream longer than --max-bytes stops there with a message; a bad cap is a usage error', endless, () => {
  const event = '{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1},';
  const input = '[' + event.repeat(Math.ceil((256 << 10) / event.length));
  const r = runWith({ input }, 'summarize', '--max-bytes', '64K', '-');
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /standard input: more than 65536 bytes .*--max-bytes/);
  // Under the cap the same stream is read to its end.
  assert.equal(runWith({ input: input + event.slice(0, -1) + ']' }, 'stats', '--max-bytes', '1M', '-').code, 0);
  for (const bad of ['0', 'x', '12Q', '-5']) assert.equal(runWith({}, 'summarize', '--max-bytes', bad, small).code, 2);
  // A regular file is not capped: it has a size.
  assert.equal(runWith({}, 'stats', '--max-bytes', '1K', small).code, 0);
});
