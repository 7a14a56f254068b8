// node:test: the TypeScript face of the wasm core (web/core/bindings.ts) lists exactly what the
// built module has: every Session and Inflater method, no more, no less (Embind's own methods
// aside), and every module function.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './wasm_node.mjs';
import { loadTs } from '../web/load_ts.mjs';

const kEmbindOwn = new Set(['constructor', 'clone', 'delete', 'deleteLater', 'isAliasOf', 'isDeleted']);
const methodsOf = (cls) =>
  Object.getOwnPropertyNames(cls.prototype)
    .filter((n) => !kEmbindOwn.has(n))
    .sort();

let mod;
let b;
before(async () => {
  mod = await loadModule();
  b = await loadTs('web/core/bindings.ts');
});

test('Session methods: the built module and web/core/bindings.ts agree', () => {
  assert.deepEqual(methodsOf(mod.Session), [...b.kSessionMethods].sort());
});

test('Inflater methods: the built module and web/core/bindings.ts agree', () => {
  assert.deepEqual(methodsOf(mod.Inflater), [...b.kInflaterMethods].sort());
});

test('module functions: the built module has each that web/core/bindings.ts lists', () => {
  for (const f of b.kModuleFunctions) assert.equal(typeof mod[f], 'function', f);
});
