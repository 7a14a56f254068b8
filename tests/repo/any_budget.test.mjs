// node:test: `any` in web/ stays rare and justified (issue #36). Every `any` keyword of web/**/*.ts
// (read from the TypeScript syntax tree, so comments and names do not count) must be in a file of
// the allow-list below, at most as many as its entry says, with the reason written beside it; the
// list says no more than what is left, so it shrinks as `any` go; and web/ holds at most kMaxAny.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../test_data.mjs';

const kMaxAny = 20;

// Each file that may hold `any`: how many, and why. Untyped data is `unknown` narrowed where it is
// read (web/app/summary_document.ts: field, isObject), so an entry here is a real exception.
const kAllowed = {
  // None today. An entry: 'web/path.ts': { count: 1, why: 'what cannot be typed, and why' }.
};

function tsFiles(dir) {
  const out = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(rel));
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

// Each `any` keyword of a file, as "path:line: the line".
function anyKeywords(rel) {
  const src = ts.createSourceFile(rel, readFileSync(join(ROOT, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (n) => {
    if (n.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = src.getLineAndCharacterOfPosition(n.getStart(src));
      out.push(`${rel}:${line + 1}: ${src.text.split('\n')[line].trim()}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

const files = tsFiles('web');
const found = new Map(files.map((f) => [f, anyKeywords(f)]).filter(([, a]) => a.length));
const total = [...found.values()].reduce((n, a) => n + a.length, 0);

test('every `any` in web/ is in a file the allow-list names, within its count', (t) => {
  assert.ok(files.length > 100, `only ${files.length} TypeScript files under web/`);
  const each = [...found].map(([f, a]) => `${f} ${a.length}`).join(', ');
  t.diagnostic(`${total} any in web/ (at most ${kMaxAny})${each ? `: ${each}` : ''}`);
  const over = [...found].filter(([f, a]) => a.length > (kAllowed[f]?.count ?? 0)).flatMap(([, a]) => a);
  assert.deepEqual(over, [], 'use a type, or `unknown` narrowed where the value is read');
});

test('the allow-list gives a reason for each file and counts no more than is left', () => {
  for (const [f, { count: n, why }] of Object.entries(kAllowed)) {
    assert.ok(typeof why === 'string' && why.length > 20, `${f}: say why it needs any`);
    const left = found.get(f)?.length ?? 0;
    assert.ok(left >= n, `${f} holds ${left} any, its entry allows ${n}: ${left ? `lower it to ${left}` : 'drop it'}`);
  }
});

test(`web/ holds at most ${kMaxAny} any`, () => {
  assert.ok(total <= kMaxAny, `${total} any in web/, more than ${kMaxAny}`);
});
