// Details-panel arg rows (web/timeline/arg_rows.ts, bundled with esbuild): the [key, text, json] the
// core sends (strings as themselves, everything else compact JSON) become readable rows: arrays on
// one spaced line, objects one row per field, number text kept exactly, invalid JSON as it came,
// long values cut with the whole text in the title.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let m;
before(async () => {
  m = await loadTs('web/timeline/arg_rows.ts');
});

const one = (key, value) => [{ key, value }];

test('Kineto array args: one line, a space after each comma, strings quoted', () => {
  assert.deepEqual(m.argRows('Input Dims', '[[2048,4096],[4096]]'), one('Input Dims', '[[2048, 4096], [4096]]'));
  assert.deepEqual(m.argRows('Input type', '["c10::BFloat16",""]'), one('Input type', '["c10::BFloat16", ""]'));
  assert.deepEqual(m.argRows('grid', '[132,1,1]'), one('grid', '[132, 1, 1]'));
  assert.deepEqual(m.argRows('Input Strides', '[[4096,1],[],[1]]'), one('Input Strides', '[[4096, 1], [], [1]]'));
  assert.deepEqual(m.argRows('Concrete Inputs', '["","","1"]'), one('Concrete Inputs', '["", "", "1"]'));
  assert.deepEqual(m.argRows('empty', '[]'), one('empty', '[]'));
  assert.deepEqual(m.argRows('spaced', '[ 1 ,\n 2 ]'), one('spaced', '[1, 2]'));
  // An object inside an array stays on the array's line.
  assert.deepEqual(m.argRows('groups', '[{"rank":0,"size":8}]'), one('groups', '[{"rank": 0, "size": 8}]'));
});

test('scalars are shown as the core sent them (strings without quotes)', () => {
  for (const [k, v] of [
    ['name', 'aten::mm'],
    ['External id', '42'],
    ['blocks per SM', '0.4'],
    ['big', '1e+20'],
    ['flag', 'true'],
    ['none', 'null'],
    ['empty', ''],
    ['stream', '-1'],
    ['spaced', ' [1, 2]'],
    ['text', 'a "quoted" word'],
  ]) {
    assert.deepEqual(m.argRows(k, v), one(k, v), `${k}: ${v}`);
  }
});

test('objects become one row per field, key.field, recursively', () => {
  assert.deepEqual(m.argRows('cfg', '{"a":{"b":1}}'), one('cfg.a.b', '1'));
  assert.deepEqual(
    m.argRows(
      'Collective',
      '{"name":"nccl:all_reduce","dtype":"BFloat16","in msg nelems":8388608,"groups":[0,1,2,3],"async":false,"tag":"","extra":{}}'
    ),
    [
      { key: 'Collective.name', value: 'nccl:all_reduce' },
      { key: 'Collective.dtype', value: 'BFloat16' },
      { key: 'Collective.in msg nelems', value: '8388608' },
      { key: 'Collective.groups', value: '[0, 1, 2, 3]' },
      { key: 'Collective.async', value: 'false' },
      { key: 'Collective.tag', value: '' },
      { key: 'Collective.extra', value: '{}' },
    ]
  );
  assert.deepEqual(m.argRows('e', '{}'), one('e', '{}'));
  // Escapes are decoded in strings and in keys.
  assert.deepEqual(m.argRows('p', '{"file\\u0020name":"C:\\\\dir\\n\\"q\\""}'), one('p.file name', 'C:\\dir\n"q"'));
  // Duplicate keys (valid JSON text, kept in order by the core) are all shown.
  assert.deepEqual(m.argRows('d', '{"x":1,"x":2}'), [
    { key: 'd.x', value: '1' },
    { key: 'd.x', value: '2' },
  ]);
});

test('objects deeper than four levels stay one JSON line', () => {
  assert.deepEqual(m.argRows('x', '{"a":{"b":{"c":{"d":1}}}}'), one('x.a.b.c.d', '1'));
  assert.deepEqual(
    m.argRows('x', '{"a":{"b":{"c":{"d":{"e":1,"f":[1,2]}}}}}'),
    one('x.a.b.c.d', '{"e": 1, "f": [1, 2]}')
  );
});

test('number text is kept exactly (64-bit ids, exponents)', () => {
  assert.deepEqual(
    m.argRows('ids', '[18446744073709551615,9007199254740993]'),
    one('ids', '[18446744073709551615, 9007199254740993]')
  );
  assert.deepEqual(m.argRows('o', '{"id":18446744073709551615,"x":-1.5e-7,"z":0}'), [
    { key: 'o.id', value: '18446744073709551615' },
    { key: 'o.x', value: '-1.5e-7' },
    { key: 'o.z', value: '0' },
  ]);
});

test('text that is not valid JSON is shown as it came', () => {
  for (const bad of [
    '{"a":1',
    '[1,2,]',
    '{"a":1}x',
    '[01]',
    '{a:1}',
    '[1 2]',
    '{"a" 1}',
    '[1,2,3…',
    '[',
    '{',
    '["unterminated]',
    '[tru]',
    '[1.]',
    '["tab\there"]',
    '{"a":1,}',
  ]) {
    assert.deepEqual(m.argRows('k', bad), one('k', bad), bad);
  }
});

test('a nesting deeper than the core allows is shown raw, without a stack overflow', () => {
  const deep = '['.repeat(100000) + ']'.repeat(100000);
  const rows = m.argRows('deep', deep);
  assert.equal(rows.length, 1);
  assert.ok(rows[0].value.startsWith('[[[['));
});

test('long values are cut with an ellipsis, the whole text in the title', () => {
  const long = 'x'.repeat(5000);
  const [r] = m.argRows('stack', long);
  assert.equal(r.value, 'x'.repeat(m.kMaxValueChars) + '…');
  assert.equal(r.title, long);
  const arr = `[${Array.from({ length: 1500 }, (_, i) => i).join(',')}]`;
  const [a] = m.argRows('sizes', arr);
  assert.ok(a.value.endsWith('…') && a.value.length === m.kMaxValueChars + 1, a.value.slice(-20));
  assert.equal(a.title, `[${JSON.parse(arr).join(', ')}]`);
  // A value of exactly the limit is not cut; a surrogate pair at the cut is not split.
  assert.deepEqual(m.argRows('k', 'y'.repeat(m.kMaxValueChars)), one('k', 'y'.repeat(m.kMaxValueChars)));
  const [e] = m.argRows('k', 'y'.repeat(m.kMaxValueChars - 1) + '😀' + 'z');
  assert.equal(e.value, 'y'.repeat(m.kMaxValueChars - 1) + '…');
});

test('an object that would take too many rows stays one line', () => {
  const fields = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, i]));
  const rows = m.argRows('many', JSON.stringify(fields));
  assert.equal(rows.length, 1);
  assert.ok(rows[0].value.startsWith('{"f0": 0, "f1": 1, '), rows[0].value.slice(0, 40));
  assert.equal(
    m.argRows('few', JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, i])))).length,
    20
  );
});

test('what an array row shows is JSON equal to the value', () => {
  const values = [
    [1, [2, [3, []]]],
    ['a,b', '', 'q"uote', 'ü€😀'],
    [true, false, null, -0.5, 1e21],
    [{ a: [1, { b: 'c' }] }],
  ];
  for (const v of values) {
    const [r] = m.argRows('v', JSON.stringify(v));
    assert.deepEqual(JSON.parse(r.value), v, r.value);
  }
});

test('a string arg that looks like JSON stays one row of text', () => {
  assert.deepEqual(m.argRows('s', '{"a":1}', false), one('s', '{"a":1}'));
  assert.deepEqual(m.argRows('s', '[1,2]', false), one('s', '[1,2]'));
  assert.deepEqual(m.argRows('o', '{"a":1}', true), one('o.a', '1'));
});
