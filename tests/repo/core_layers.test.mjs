// node:test: the core's folders depend on each other one way (docs/ARCHITECTURE.md, "Layers"):
// every `#include "core/..."` goes from a folder to itself or to one below it, the core includes
// nothing of the CLI, the bindings or Emscripten, and no header under core/ or cli/ is left unused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../test_data.mjs';

// What each folder of core/ may include besides itself ("session" is core/session.*, the facade).
const kAllowed = {
  base: [],
  regex: ['base'],
  model: ['base'],
  import: ['model', 'base'],
  analysis: ['model', 'regex', 'base'],
  timeline: ['analysis', 'model', 'regex', 'base'],
  job: ['analysis', 'model', 'regex', 'base'],
  calltree: ['analysis', 'model', 'base'],
  summary: ['calltree', 'job', 'analysis', 'model', 'base'],
  diff: ['base'], // a pure function of two summary documents
  inflate: ['base'], // gzip/DEFLATE, no dependencies
  session: ['import', 'summary', 'calltree', 'job', 'timeline', 'analysis', 'model', 'regex', 'base'], // core/*.h, core/*.cc
};

function sources(dir) {
  const out = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(h|cc)$/.test(e.name)) out.push(rel);
  }
  return out;
}

const includes = (file) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^#include\s+["<]([^">]+)[">]/gm)].map((m) => m[1]);
const layerOf = (file) => (file.split('/').length === 2 ? 'session' : file.split('/')[1]);
const core = sources('core');

test('every folder of core/ includes only itself and the folders below it', () => {
  assert.ok(core.length > 80, `only ${core.length} core files found`);
  const wrong = [];
  for (const file of core) {
    const from = layerOf(file);
    assert.ok(from in kAllowed, `${file}: core/${from}/ is not in the layer list (tests/repo/core_layers.test.mjs)`);
    for (const inc of includes(file)) {
      if (/^(cli|wasm)\//.test(inc) || /emscripten/.test(inc)) wrong.push(`${file} -> ${inc}`);
      if (!inc.startsWith('core/')) continue;
      const to = layerOf(inc);
      if (to !== from && !kAllowed[from].includes(to)) wrong.push(`${file} -> ${inc}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no header under core/ or cli/ is left unused', () => {
  const all = [...core, ...sources('cli'), ...sources('wasm'), ...sources('tests/core')];
  const included = new Set(all.flatMap(includes));
  const unused = [...core, ...sources('cli')].filter((f) => f.endsWith('.h') && !included.has(f));
  assert.deepEqual(unused, []);
});

// The bindings only list functions (issue #36): the state of a load and of a timeline lives in the
// core's facades, so wasm/bindings.cc defines no class, keeps nothing static and holds no variable
// at namespace scope but the constant that installs the out-of-memory handler.
test('wasm/bindings.cc holds no state', () => {
  const text = readFileSync(join(ROOT, 'wasm', 'bindings.cc'), 'utf8').replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(text, /^\s*(class|struct)\s+\w+\s*[:{]/m, 'a class or struct is defined');
  assert.doesNotMatch(text, /\bstatic\b/, 'something is static');
  const globals = text.split('\n').filter((l) => /^(?!const\b|\[\[)[A-Za-z_][\w:<>, ]*\s+\w+\s*(=[^=]|;)/.test(l));
  assert.deepEqual(globals, [], 'variables at namespace scope');
  assert.match(text, /EMSCRIPTEN_BINDINGS/);
});
