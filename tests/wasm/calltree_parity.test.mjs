// node:test: the call tree the page's flame graph gets (wasm Session.callTreeJson) is the tree the
// native CLI prints as collapsed stacks (`tracewise flame`), CPU and GPU, whole trace and a range;
// the bottom-up tree puts each function's self time at its top.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadModule, importFile, NATIVE_CLI, WASM_DIR } from './wasm_node.mjs';
import { dataPath } from '../test_data.mjs';

const CLI = NATIVE_CLI;

let mod;
before(async () => {
  assert.ok(existsSync(CLI), 'native build missing (make native)');
  mod = await loadModule(WASM_DIR);
});

// The collapsed lines of a top-down tree document, as core/calltree/collapsed.cc writes them.
function collapsed(doc, measure) {
  const { names, nodes } = doc;
  const frame = (s) => (s === '' ? '(unnamed)' : s.replace(/;/g, ':').replace(/[\r\n]/g, ' '));
  const paths = [];
  let out = '';
  for (let k = 0; k < nodes.parent.length; k++) {
    const p = nodes.parent[k];
    paths[k] = p < 0 ? frame(names[nodes.name[k]]) : `${paths[p]};${frame(names[nodes.name[k]])}`;
    const v = measure === 'gpu' ? nodes.gpu_self_ns[k] : nodes.self_ns[k];
    if (v > 0 && p >= 0) out += `${paths[k]} ${v}\n`;
  }
  return out;
}

test('wasm callTreeJson equals the native flame output', async () => {
  const path = dataPath('deepseek_profile_data/train.json');
  const session = await importFile(mod, path);
  try {
    const summary = JSON.parse(session.summaryJson(false)).files[0];
    // Epoch nanoseconds exceed 2^53: the page's doubles hold them to ~256 ns. Both sides get the same
    // double here, written out whole for the CLI.
    const step = summary.steps[0];
    const [from, to] = [step.begin_ns, step.end_ns];
    for (const [a, b, range] of [
      [-1, -1, []],
      [from, to, ['--from', BigInt(from).toString(), '--to', BigInt(to).toString()]],
    ]) {
      const doc = JSON.parse(session.callTreeJson(a, b, false));
      assert.equal(doc.kind, 'top_down');
      for (const measure of ['cpu', 'gpu']) {
        const native = spawnSync(CLI, ['flame', '--measure', measure, ...range, path], { encoding: 'utf8' });
        assert.equal(native.status, 0, native.stderr);
        assert.equal(collapsed(doc, measure), native.stdout, `${measure} ${range.join(' ')}`);
      }
    }
    const bu = JSON.parse(session.callTreeJson(-1, -1, true));
    assert.equal(bu.kind, 'bottom_up');
    const tops = new Map();
    for (let k = 0; k < bu.nodes.parent.length; k++)
      if (bu.nodes.parent[k] < 0) tops.set(bu.names[bu.nodes.name[k]], bu.nodes.gpu_ns[k]);
    assert.ok(tops.get('cudaLaunchKernel') > 0);
  } finally {
    session.delete();
  }
});
