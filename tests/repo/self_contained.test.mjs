// node:test: the repository stands on its own. Its test data is complete, described and within its
// budget (tests/data/README.md); no file outside the docs reads a folder beside the checkout; the
// license and the third-party notices exist and name what the site and the CLI ship or build from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DATA, ROOT, manifest } from '../test_data.mjs';

const kBudgetBytes = 25 * 1000 * 1000;

function filesUnder(dir, skip = () => false) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (skip(path, e)) continue;
    if (e.isDirectory()) out.push(...filesUnder(path, skip));
    else if (e.isFile()) out.push(path);
  }
  return out;
}

const dataFiles = filesUnder(DATA).map((p) => relative(DATA, p));
const rows = manifest();

test('tests/data stays within its budget', () => {
  const bytes = dataFiles.reduce((sum, f) => sum + statSync(join(DATA, f)).size, 0);
  assert.ok(bytes <= kBudgetBytes, `tests/data holds ${bytes} bytes, over the budget of ${kBudgetBytes}`);
  assert.ok(bytes > kBudgetBytes / 2, `tests/data holds only ${bytes} bytes: is it complete?`);
});

test('every trace in tests/data is in MANIFEST.tsv and README.md, and every listed one is there', () => {
  const own = new Set(['MANIFEST.tsv', 'README.md', 'import.sh']);
  const traces = dataFiles.filter((f) => !own.has(f) && !f.startsWith('reference/'));
  const listed = rows.map((r) => r.local_path);
  assert.deepEqual([...traces].sort(), [...listed].sort());
  const readme = readFileSync(join(DATA, 'README.md'), 'utf8');
  for (const r of rows) {
    assert.ok(readme.includes(`| \`${r.local_path}\` |`), `README.md does not list ${r.local_path}`);
    assert.ok(readme.includes(`| ${r.source_repo} |`), `README.md gives no license for ${r.source_repo}`);
    assert.match(r.commit, /^[0-9a-f]{40}$/, `${r.local_path}: no source commit`);
  }
});

test('each stored trace has the size MANIFEST.tsv gives, inflated where it is gzip', () => {
  for (const r of rows) {
    const bytes = readFileSync(join(DATA, r.local_path));
    assert.equal(bytes.length, Number(r.bytes), `${r.local_path}: stored size`);
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
    assert.equal(gzip, r.compression === 'gzip', `${r.local_path}: compression`);
    const inflated = gzip ? gunzipSync(bytes).length : bytes.length;
    assert.equal(inflated, Number(r.uncompressed_bytes), `${r.local_path}: uncompressed size`);
  }
});

test('the HTA reference numbers the parity tests read are here', () => {
  const ref = join(DATA, 'reference', 'hta_no_ns_rounding');
  assert.ok(statSync(join(ref, 'summary.tsv')).size > 0);
  const cases = readdirSync(ref, { withFileTypes: true }).filter((e) => e.isDirectory());
  assert.ok(cases.length >= 30, `only ${cases.length} reference cases`);
  const summary = readFileSync(join(ref, 'summary.tsv'), 'utf8');
  for (const c of cases) {
    assert.ok(statSync(join(ref, c.name, 'result.json')).isFile(), `${c.name}/result.json`);
    assert.ok(summary.includes(`\n${c.name}\t`), `summary.tsv has no row for ${c.name}`);
  }
});

test('no file outside the docs reads a folder beside the checkout', () => {
  const beside = `..${'/'}shared`; // spelled apart, so that this file does not match itself
  const skipDirs = new Set(['.git', 'build', 'node_modules', 'tests/data', 'bench/out']);
  const files = filesUnder(ROOT, (p, e) => e.isDirectory() && skipDirs.has(relative(ROOT, p)));
  // Also the form path.join writes: the folder's name as the argument after '..'.
  const joined = new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${'shared'}['"]`);
  const offenders = files.filter((f) => {
    if (f.endsWith('.md')) return false;
    const text = readFileSync(f, 'latin1');
    return text.includes(beside) || joined.test(text);
  });
  assert.deepEqual(
    offenders.map((f) => relative(ROOT, f)),
    []
  );
  assert.ok(files.length > 100, `only ${files.length} files scanned`);
});

test('a license and the third-party notices exist and name what is shipped or built from', () => {
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /MIT License/);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  const notices = readFileSync(join(ROOT, 'THIRD_PARTY_NOTICES.md'), 'utf8');
  for (const name of ['simdjson', 'nlohmann/json', 'uPlot', 'Emscripten', 'zlib', 'nccl_data.json.gz', 'tests/data']) {
    assert.ok(notices.includes(name), `THIRD_PARTY_NOTICES.md does not mention ${name}`);
  }
});

test('the built site carries the license texts', () => {
  const dir = join(ROOT, 'build', 'site', 'licenses');
  for (const f of [
    'LICENSE.txt',
    'THIRD_PARTY_NOTICES.md',
    'simdjson-LICENSE.txt',
    'uplot-LICENSE.txt',
    'nlohmann-json-copyright.txt',
    'emscripten-copyright.txt',
  ]) {
    assert.ok(statSync(join(dir, f)).size > 100, `build/site/licenses/${f}`);
  }
});
