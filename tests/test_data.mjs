// Where the tests' real traces come from: tests/data of this checkout (its README lists every file
// and its source), or the folder the TW_TEST_DATA environment variable names (`make test-corpus`).
// The same rule as tests/core/test_data.h: tests/data stores the large traces that are plain JSON
// upstream gzipped, and a test names a trace by its upstream name ("deepseek_profile_data/train.json")
// whichever form is stored; dataPath() then inflates it once into build/test-data and returns the
// plain copy, so a test that loads a plain file gets one.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DATA = resolve(ROOT, process.env.TW_TEST_DATA || join('tests', 'data'));
// One folder of copies per corpus, so that a copy never stands in for another corpus's file.
const SCRATCH = join(ROOT, 'build', 'test-data', createHash('sha256').update(DATA).digest('hex').slice(0, 12));

// The file that holds `rel`: itself, or `rel`.gz when only that is stored.
export function storedPath(rel) {
  const path = join(DATA, rel);
  return existsSync(path) || !existsSync(`${path}.gz`) ? path : `${path}.gz`;
}

// The path of a trace as a file of that name (a plain copy when only `rel`.gz is stored).
export function dataPath(rel) {
  const stored = storedPath(rel);
  if (!stored.endsWith('.gz') || rel.endsWith('.gz')) return stored;
  const copy = join(SCRATCH, rel);
  if (existsSync(copy) && statSync(copy).mtimeMs >= statSync(stored).mtimeMs) return copy;
  mkdirSync(dirname(copy), { recursive: true });
  const tmp = `${copy}.tmp${process.pid}`; // renamed into place: a reader never sees half a file
  try {
    writeFileSync(tmp, gunzipSync(readFileSync(stored)));
    renameSync(tmp, copy);
  } finally {
    rmSync(tmp, { force: true });
  }
  return copy;
}

// The bytes of a trace, gzip inflated.
export function readData(rel) {
  const bytes = readFileSync(storedPath(rel));
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

// The rows of DATA/MANIFEST.tsv as objects keyed by its header.
export function manifest() {
  const [head, ...rows] = readFileSync(join(DATA, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const keys = head.split('\t');
  return rows.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [keys[i], v])));
}
