// The page's number formatting (web/app/format.ts, bundled here with esbuild): fmtCount groups
// digits by hand and must write exactly what toLocaleString('en-US') writes for integers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const loadFormat = () => loadTs('web/app/format.ts');

test('fmtCount writes what toLocaleString("en-US") writes', async () => {
  const { fmtCount } = await loadFormat();
  const values = [
    0,
    1,
    -1,
    7,
    12,
    123,
    999,
    1000,
    -1000,
    1001,
    9999,
    10000,
    99999,
    100000,
    999999,
    1000000,
    1234567,
    -1234567,
    12345678901,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
    1e21,
    1.5e22,
    0.4,
    0.5,
    1.5,
    2.5,
    -0.4,
    -2.5,
    999.5,
    1e15 + 0.5,
  ];
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; ++i)
    values.push(Math.floor(rand() * 10 ** Math.floor(rand() * 16)) * (rand() < 0.3 ? -1 : 1));
  for (const v of values) {
    const want = Math.round(v).toLocaleString('en-US');
    const got = fmtCount(v);
    // Only -0 may differ: toLocaleString writes "-0", the page "0".
    if (Object.is(Math.round(v), -0)) assert.equal(got, '0', `fmtCount(${v})`);
    else assert.equal(got, want, `fmtCount(${v})`);
  }
  assert.equal(fmtCount(NaN), '–');
  assert.equal(fmtCount(Infinity), '–');
});
