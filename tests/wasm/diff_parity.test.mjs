// node:test: the comparison the page makes (each side's summary from its wasm session, then the
// core's diffSummaries and diffMarkdown) is byte for byte what the native CLI prints for
// `tracewise diff BASE CAND`, JSON and Markdown, on HTA's trace-diff pair (two real runs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { loadModule, importFile, NATIVE_CLI, WASM_DIR } from './wasm_node.mjs';
import { dataPath } from '../test_data.mjs';

const CLI = NATIVE_CLI;

let mod;
before(async () => {
  assert.ok(existsSync(CLI), 'native build missing (make native)');
  mod = await loadModule(WASM_DIR);
});

async function summaryDoc(path) {
  const session = await importFile(mod, path);
  try {
    return session.summaryJson(false);
  } finally {
    session.delete();
  }
}

test('wasm and native give the same bytes for the diff, JSON and Markdown', async () => {
  const base = dataPath('hta/tests/data/trace_diff/control/control.json.gz');
  const cand = dataPath('hta/tests/data/trace_diff/test/test.json.gz');
  const options = { fail_above_pct: 5, metric: null, confidence_pct: 95, min_impact_pct: 0.5 };
  const page = mod.diffSummaries(
    await summaryDoc(base),
    await summaryDoc(cand),
    JSON.stringify({ ...options, base_label: basename(base), cand_label: basename(cand) })
  );
  assert.ok(!JSON.parse(page).error, page.slice(0, 200));
  const native = spawnSync(CLI, ['diff', base, cand, '--fail-above', '5'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(native.status, 3, native.stderr); // the pair differs by far more than 5 %
  assert.equal(page + '\n', native.stdout);

  const md = spawnSync(CLI, ['diff', base, cand, '--fail-above', '5', '--format', 'markdown'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(mod.diffMarkdown(page), md.stdout);
  assert.match(md.stdout, /^## tracewise diff\n/);
  assert.equal(mod.diffMarkdown('{"schema": "something else"}'), '');
  assert.ok(JSON.parse(mod.diffSummaries('[]', '{}', '')).error);
});
