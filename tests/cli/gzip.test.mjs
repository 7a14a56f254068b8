// The CLI inflates every member of a multi-member gzip file, keeps all the data of a member whose
// trailer (CRC-32 or size) is wrong and goes on with the next one, and keeps what came before the
// end of a cut file; each damage is one line on stderr, in the page's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';
import { damagedGzips } from '../gzip_damaged.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TW_CLI || join(root, 'build', 'native', 'tracewise');
const plain = dataPath('deepseek_profile_data/train.json');

function summarize(path) {
  const r = spawnSync(cli, ['summarize', path], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return { file: JSON.parse(r.stdout).files[0], err: r.stderr };
}

// A summary without what differs between forms of one trace (its name and its size on disk).
const content = ({ name, bytes, ...rest }) => rest;

test('damaged and multi-member gzip: all the data is loaded, and each damage is said once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-cli-gz-'));
  try {
    const whole = content(summarize(plain).file);
    for (const [name, { bytes, kind }] of Object.entries(damagedGzips(readFileSync(plain)))) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const { file, err } = summarize(path);
      assert.equal(file.bytes, bytes.length, name);
      const lines = err.split('\n').filter(Boolean);
      if (kind === 'truncated') {
        assert.ok(file.import.truncated && file.import.events < whole.import.events, name);
        assert.deepEqual(lines, [
          `tracewise: ${path}: The gzip data ends early (truncated); what was decompressed before that point is loaded.`,
        ]);
        continue;
      }
      assert.deepEqual(content(file), whole, name);
      const said = `tracewise: ${path}: gzip member 1: the CRC-32 or size in its trailer does not match its data; all of its data is loaded.`;
      assert.deepEqual(lines, kind === 'trailer' ? [said] : [], name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
