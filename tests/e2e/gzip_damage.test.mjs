// Damaged and multi-member gzip in the page: every member inflated, all the data of a member whose
// trailer is wrong kept (with a warning), the start of a cut file kept (with a warning), alike for
// a local file (inflated in the feed worker, or in the trace worker with ?workers=single) and a
// download (?url=, inflated in the trace worker).
// The page's summary document is the CLI's, byte for byte, and both say the same about the damage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, start, openViaInput, openViaDrop, waitSettled, trace } from './helpers.mjs';
import { siteCopy } from './share_support.mjs';
import { damagedGzips } from '../gzip_damaged.mjs';

const files = damagedGzips(readFileSync(trace('deepseek_profile_data/train.json')));
let s, site;
before(async () => {
  site = siteCopy();
  mkdirSync(join(site.dir, 'damaged'));
  for (const [name, { bytes }] of Object.entries(files)) writeFileSync(join(site.dir, 'damaged', name), bytes);
  s = await start({ site: site.dir, recordReplies: true });
});
after(async () => {
  await s?.close();
  site?.remove();
});

// The CLI's summary document as it prints it, and the damage it reports (its words, without the
// "tracewise: PATH: " in front).
function cli(path) {
  const r = spawnSync(CLI, ['summarize', path], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const said = r.stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(`tracewise: ${path}: `.length));
  return { text: r.stdout, said };
}

// The page's summary document, as the core in its trace worker wrote it; and the one the page
// shows, which must be that one.
async function pageDocument() {
  const texts = await s.page.evaluate(() => window.__summaryReplies.splice(0).map((r) => r.json));
  assert.equal(texts.length, 1);
  assert.deepEqual(await s.page.evaluate(() => window.__tracewise.summary), JSON.parse(texts[0]));
  return texts[0];
}

const pageWarnings = () => s.page.$$eval('#loads .msg.warning', (els) => els.map((e) => e.textContent));

async function check(name, opened) {
  const { text, said } = cli(join(site.dir, 'damaged', name));
  assert.equal(opened.error, null, name);
  assert.equal(`${await pageDocument()}\n`, text, `${name}: the page's summary document is the CLI's`);
  const warnings = await pageWarnings();
  for (const w of said)
    assert.ok(
      warnings.some((shown) => shown.includes(w)),
      `${name}: "${w}" in ${warnings.join(' | ')}`
    );
  assert.equal(said.length > 0, files[name].kind !== 'whole', `${name}: ${said.join(' | ')}`);
  if (files[name].kind === 'whole')
    assert.deepEqual(
      warnings.filter((w) => /gzip/.test(w)),
      [],
      name
    );
  return JSON.parse(text).files[0];
}

for (const name of Object.keys(files)) {
  test(`${name}: a local file gives the CLI's summary and warning`, async () => {
    const path = join(site.dir, 'damaged', name);
    const drop = name.startsWith('bad') ? openViaDrop : openViaInput;
    const file = await check(name, await drop(s.page, [path]));
    assert.equal(
      file.import.events === 14240,
      files[name].kind !== 'truncated',
      `${name}: ${file.import.events} events`
    );
  });

  test(`${name}: a download (?url=) gives the CLI's summary and warning`, async () => {
    await s.page.goto(`${s.url}?url=damaged/${name}`);
    await check(name, await waitSettled(s.page));
  });
}

// Without nested workers the trace worker inflates the file itself (the same code as for a download).
for (const name of ['bad-crc-first-of-two.json.gz', 'members-at-read-edges.json.gz']) {
  test(`${name}: a local file read by the trace worker alone (?workers=single)`, async () => {
    await s.page.goto(`${s.url}?workers=single`);
    await check(name, await openViaInput(s.page, [join(site.dir, 'damaged', name)]));
  });
}

test('no page errors', () => {
  assert.deepEqual(s.pageErrors, []);
});
