// The size hint of a gzip file (core/inflate/gzip_size.h, the page's through the wasm module's
// gzipSizeGuess): its trailer gives the inflated size modulo 4 GiB; the first guess is the smallest
// size that allows at or above the compressed size, the refined one the size it allows nearest to
// the ratio seen so far. Real trailers: gzip files of tests/data, and sizes past 4 GiB as a 10 GB
// DeepSeek trace (gzip -1) has them. (The CLI's use of it: tests/core/gzip_size_test.cc.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadModule } from './wasm_node.mjs';

let mod;
const load = async () => {
  mod ??= await loadModule();
  return {
    firstGzipGuess: (isize, compressed) => mod.gzipSizeGuess(isize, compressed, 0, 0),
    refinedGzipGuess: (isize, compressed, inflated, used) => mod.gzipSizeGuess(isize, compressed, inflated, used),
    kRefineHintAt: mod.gzipRefineHintAt,
  };
};
const G = 2 ** 32;

function gzFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) gzFiles(p, out);
    else if (name.endsWith('.json.gz')) out.push(p);
  }
  return out;
}

test('under 4 GiB the trailer is the size: both guesses give it for every gzip trace of tests/data', async () => {
  const { firstGzipGuess, refinedGzipGuess } = await load();
  const files = gzFiles('tests/data');
  assert.ok(files.length >= 3, `gzip traces found: ${files.length}`);
  let checked = 0;
  for (const f of files) {
    const gz = readFileSync(f);
    let whole;
    try {
      whole = gunzipSync(gz);
    } catch {
      continue; // a damaged file of the damage tests
    }
    const isize = gz.readUInt32LE(gz.length - 4);
    if (isize !== whole.length) continue; // several members: the trailer is the last one's
    checked++;
    assert.equal(firstGzipGuess(isize, gz.length), whole.length, f);
    // The ratio of the first half, or of all of it: the nearest size the trailer allows is the size.
    const half = Math.floor(whole.length / 2);
    assert.equal(refinedGzipGuess(isize, gz.length, half, Math.floor(gz.length / 2)), whole.length, f);
    assert.equal(refinedGzipGuess(isize, gz.length, whole.length - 1, gz.length), whole.length, f);
  }
  assert.ok(checked >= 3, `single-member gzip traces checked: ${checked}`);
});

test('past 4 GiB the ratio picks the size among those the trailer allows', async () => {
  const { firstGzipGuess, refinedGzipGuess, kRefineHintAt } = await load();
  // 10.0 GB inflated from 925 MB (the 10 GB DeepSeek probe): ISIZE is 1.41 GB.
  const size = 9536 * 2 ** 20 + 12345;
  const compressed = 925e6;
  const isize = size % G;
  assert.equal(firstGzipGuess(isize, compressed), isize); // all the trailer says: too small
  // After 24 MiB at a ratio off by 10% either way, the size itself.
  const out = kRefineHintAt;
  for (const off of [0.9, 1, 1.1]) {
    const raw = Math.round((out * compressed) / size / off);
    assert.equal(refinedGzipGuess(isize, compressed, out, raw), size, `ratio x${off}`);
  }
  // A ratio far off still gives a size the trailer allows, never one below what came out.
  const far = refinedGzipGuess(isize, compressed, out, Math.round((out * compressed) / size / 2));
  assert.equal((far - isize) % G, 0);
  assert.ok(far >= out);
});

test('a trailer below the compressed size (past 4 GiB, or another member last) still gives a size above it', async () => {
  const { firstGzipGuess, refinedGzipGuess } = await load();
  assert.equal(firstGzipGuess(1000, 5e9), 1000 + 2 * G);
  assert.equal(firstGzipGuess(5e8, 5e8), 5e8);
  // Whatever came out is below the guess.
  assert.equal(refinedGzipGuess(1000, 1e6, 3e6, 1e5), 1000 + G);
});

test('no guess without sizes that make sense', async () => {
  const { firstGzipGuess, refinedGzipGuess } = await load();
  assert.equal(firstGzipGuess(100, 0), 0);
  assert.equal(firstGzipGuess(NaN, 100), 0);
  assert.equal(firstGzipGuess(-1, 100), 0);
  assert.equal(firstGzipGuess(G, 100), 0); // not a 32-bit trailer
  assert.equal(refinedGzipGuess(100, 1000, 0, 10), 100 + G); // nothing inflated yet: the first guess
  assert.equal(refinedGzipGuess(100, 1000, 50, 0), 0);
  assert.equal(refinedGzipGuess(100, 1000, 50, 2000), 0); // read more than the file
});
