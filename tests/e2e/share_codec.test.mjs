// Unit tests of the share-link codecs (web/share), run in node on the bundled TS: base64url, view
// state (tables' filter/sort, trace hashes), summary links (round trip on every test trace's CLI
// summary, sizes, hostile input), and the content hash of a trace fetched again by URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, dirname } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { importTs, cliSummary } from './share_support.mjs';
import { dataPath, manifest } from '../test_data.mjs';

const m = await importTs(
  'web/share/base64url.ts',
  'web/share/view_state.ts',
  'web/share/summary_link.ts',
  'web/share/fragment.ts',
  'web/share/share_error.ts',
  'web/share/deflate.ts',
  'web/share/trace_hash.ts'
);

test('base64url round trip and strictness', () => {
  for (const n of [0, 1, 2, 3, 4, 5, 255, 1000]) {
    const b = new Uint8Array(n).map((_, i) => (i * 37 + n) & 255);
    assert.deepEqual(m.decodeBase64url(m.encodeBase64url(b), 1 << 20), b);
  }
  assert.throws(() => m.decodeBase64url('ab$d', 100), /damaged/);
  assert.throws(() => m.decodeBase64url('abcde', 100), /length/);
  assert.throws(() => m.decodeBase64url('A'.repeat(400), 100), /more data/);
});

test('view state: round trip, invalid parts dropped', () => {
  const v = {
    tab: 'timeline',
    file: 2,
    tl: { t0_ns: '1740461679470630000', t1_ns: '1740461679480630000', search: 'nccl', regex: false },
  };
  const p = m.writeViewState(v);
  assert.deepEqual(m.readViewState(new URLSearchParams(p.toString())).state, v);
  const bad = m.readViewState(new URLSearchParams('tab=<script>&file=-1&tl={"a":{"b":{"c":{"d":{"e":1}}}}}&t0=5&t1=3'));
  assert.deepEqual(bad.state, {});
  assert.deepEqual(bad.problems.sort(), ['file', 't0/t1', 'tab', 'tl']);
  assert.deepEqual(m.readViewState(new URLSearchParams('t0=10&t1=20')).state, { tl: { t0_ns: '10', t1_ns: '20' } });
  // Unset fields of the timeline's state (undefined) are left out, not a reason to drop it.
  const tl = { t0: 1.5, t1: 2e9, search: undefined, colorBy: 'name', collapsed: [], selected: undefined };
  assert.deepEqual(m.readViewState(new URLSearchParams(m.writeViewState({ tl }).toString())).state, {
    tl: { t0: 1.5, t1: 2e9, colorBy: 'name', collapsed: [] },
  });
  const f = m.parseFragment('#' + 'x'.repeat(80000));
  assert.equal(f.tooLong, true);
});

test('view state: table filters and sort orders, trace hashes', () => {
  const h1 = '0123456789abcdef0123456789abcdef';
  const v = {
    tab: 'overview',
    tables: [
      { id: 'kernels', filter: 'nccl AllReduce*x', sort: 'total_ns', desc: true },
      { id: 'operators.top', sort: 'name', desc: false },
      { id: 'steps', filter: 'ProfilerStep#2' },
    ],
    hashes: [h1, null],
  };
  const text = m.writeViewState(v).toString();
  assert.match(
    text,
    /tb=kernels\*-total_ns\*nccl\+AllReduce\*x&tb=operators\.top\*name\*&tb=steps\*\*ProfilerStep%232/
  );
  assert.match(text, new RegExp(`h=${h1}%2C$`));
  const back = m.readViewState(new URLSearchParams(text));
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.state, v);
  // Compact: three tables and a hash in under 200 characters.
  assert.ok(text.length < 200, text);
  // Invalid entries are dropped one by one and reported; the valid ones stay.
  const bad = m.readViewState(
    new URLSearchParams([
      ['tb', 'kernels*-total_ns*ok'],
      ['tb', 'kernels*name*dup'],
      ['tb', 'no-separators'],
      ['tb', 'x*-*'],
      ['tb', 'y**'],
      ['tb', `z**${'f'.repeat(201)}`],
      ['tb', 'w**a\u0001b'],
      ['tb', '-neg**a'],
      ['h', 'xyz'],
    ])
  );
  assert.deepEqual(bad.state, { tables: [{ id: 'kernels', filter: 'ok', sort: 'total_ns', desc: true }] });
  assert.deepEqual(bad.problems.sort(), ['h', 'tb']);
  const many = new URLSearchParams(Array.from({ length: 40 }, (_, i) => ['tb', `t${i}**f`]));
  const r = m.readViewState(many);
  assert.equal(r.state.tables.length, 24);
  assert.deepEqual(r.problems, ['tb']);
  assert.equal(m.readViewState(new URLSearchParams(`h=${'a'.repeat(32)},${'b'.repeat(31)}`)).problems[0], 'h');
  // Writing skips what could not be read back.
  assert.equal(
    m
      .writeViewState({
        tables: [{ id: 'a*b', filter: 'x' }, { id: 'c', filter: 'x\n' }, { id: 'd' }],
        hashes: ['nothex', null],
      })
      .toString(),
    ''
  );
});

test("view state: the traces' names and sizes (f=), old links without them, hostile entries", () => {
  const h1 = '0123456789abcdef0123456789abcdef';
  const v = {
    hashes: [h1, null],
    files: [{ name: 'rank 0*final.json.gz', bytes: 3132978 }, null],
  };
  const text = m.writeViewState(v).toString();
  assert.match(text, /&f=3132978\*rank\+0\*final\.json\.gz&f=$/);
  assert.deepEqual(m.readViewState(new URLSearchParams(text)), { state: v, problems: [] });
  // A link made before f= existed reads as it did: hashes only.
  assert.deepEqual(m.readViewState(new URLSearchParams(`h=${h1}`)), { state: { hashes: [h1] }, problems: [] });
  assert.equal(m.isEmptyViewState({ files: [{ name: 'a', bytes: 1 }] }), false);
  // Malformed entries drop the key and say so; the rest of the link stays.
  for (const bad of ['x*a.json', '12', '12*', '-1*a', `1*${'n'.repeat(257)}`, '1*a\u0007b', '99999999999999999*a']) {
    const r = m.readViewState(
      new URLSearchParams([
        ['tab', 'timeline'],
        ['f', bad],
      ])
    );
    assert.deepEqual(r, { state: { tab: 'timeline' }, problems: ['f'] }, bad);
  }
  // Writing leaves out what would not read back, and writes nothing when no file is known.
  assert.equal(m.writeViewState({ files: [null, { name: 'a\nb', bytes: 1 }, { name: '', bytes: 2 }] }).toString(), '');
});

// A static server that answers Range requests (206 + Content-Range), like most real hosts;
// web/serve.mjs does not, which exercises the full-download path.
function rangeServer(file) {
  const bytes = readFileSync(file);
  const srv = createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) {
      srv.fullDownloads++;
      res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
      return;
    }
    const a = Number(m[1]),
      b = Math.min(Number(m[2]), bytes.length - 1);
    res
      .writeHead(206, { 'content-range': `bytes ${a}-${b}/${bytes.length}`, 'content-length': b - a + 1 })
      .end(bytes.subarray(a, b + 1));
  });
  srv.fullDownloads = 0;
  return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok(srv)));
}

test('the content hash of a trace fetched by URL equals the hash of the file (with and without Range support)', async () => {
  // Below 1 MiB, between 1 and 2 MiB (hashed whole), above 2 MiB (two edges).
  const files = [
    'hta/tests/data/triton_example/triton_example.json.gz',
    'hta/tests/data/trace_diff/test/test.json.gz',
    'deepseek_profile_data/train.json',
  ];
  for (const rel of files) {
    const file = dataPath(rel);
    const plain = await serve(dirname(file), 0);
    try {
      const want = await m.traceHash(new Blob([readFileSync(file)]));
      const ranged = await rangeServer(file);
      try {
        const viaRange = await m.traceHashOfUrl(`http://127.0.0.1:${ranged.address().port}/t`);
        assert.deepEqual(viaRange, { hash: want, bytes: readFileSync(file).length }, `${rel} (Range)`);
        assert.equal(ranged.fullDownloads, 0, 'two Range requests, no full download');
      } finally {
        ranged.close();
      }
      const viaStream = await m.traceHashOfUrl(`http://127.0.0.1:${plain.address().port}/${basename(file)}`);
      assert.deepEqual(viaStream, { hash: want, bytes: readFileSync(file).length }, `${rel} (full download)`);
      await assert.rejects(m.traceHashOfUrl(`http://127.0.0.1:${plain.address().port}/missing.json`), /404/);
    } finally {
      plain.close();
    }
  }
  // Different content under the same size gives a different hash.
  const a = readFileSync(dataPath(files[2]));
  assert.ok(a.length > 2 << 20, 'the last file is above 2 MiB');
  const b = Buffer.from(a);
  b[b.length - 10] ^= 1;
  assert.notEqual(await m.traceHash(new Blob([a])), await m.traceHash(new Blob([b])));
});

const kinetoTraces = manifest()
  .filter((r) => r.kind === 'pytorch/kineto')
  .map((r) => r.local_path);

// Every scalar of the original that the trimmed copy still has must be identical.
function sameScalars(orig, trimmed, path = '') {
  if (trimmed === null || typeof trimmed !== 'object') {
    assert.deepEqual(trimmed, orig, path);
    return;
  }
  for (const [k, v] of Object.entries(trimmed)) {
    if (typeof v === 'string' && typeof orig[k] === 'string' && v.endsWith('…')) continue;
    sameScalars(orig[k], v, `${path}.${k}`);
  }
}

test('summary links of the test traces: round trip and size', async () => {
  const sizes = [];
  for (const rel of kinetoTraces) {
    const doc = cliSummary(dataPath(rel));
    const enc = await m.encodeSummaryLink(doc, [{ name: 'x.json', bytes: 123, hash: 'ab'.repeat(16) }]);
    const back = await m.decodeSummaryLink(enc.value);
    assert.equal(back.schema, doc.schema);
    assert.equal(back.files.length, doc.files.length);
    sameScalars(doc.files[0], back.files[0]);
    assert.deepEqual(back.traces[0], { name: 'x.json', bytes: 123, hash: 'ab'.repeat(16) });
    assert.ok(enc.value.length <= m.kTargetLinkChars, `${rel}: ${enc.value.length} chars`);
    sizes.push([rel, enc.value.length, enc.level.rows]);
  }
  // Multi-rank: both ranks of a pair in one link.
  const pair = [0, 1].map((r) => dataPath(`hta/tests/data/trace_filter/sampled_rank-${r}.json.gz`));
  const pairDoc = cliSummary(pair);
  const enc = await m.encodeSummaryLink(pairDoc, []);
  assert.ok(enc.value.length <= m.kTargetLinkChars, `two ranks: ${enc.value.length} chars`);
  // The job's verdict and each file's travel whole.
  const pairBack = m.linkDocument(await m.decodeSummaryLink(enc.value));
  assert.equal(pairBack.job.verdict.sentence, pairDoc.job.verdict.sentence);
  assert.equal(pairBack.files[1].verdict.sentence, pairDoc.files[1].verdict.sentence);
  sizes.push(['trace_filter/sampled_rank-0+1 (2 files)', enc.value.length, enc.level.rows]);
  console.log('summary link sizes (chars of the s= value, rows kept):');
  for (const [f, n, rows] of sizes) console.log(`   ${n}\t${rows}\t${f}`);
});

test('a fat synthetic summary (500 long kernel names) is trimmed under the target', async () => {
  const doc = cliSummary(dataPath('deepseek_profile_data/train.json'));
  const long = (i) =>
    `void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<${i}, cute::tuple<cute::C<1>, cute::C<${i}>>, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true>>>(Params)`;
  doc.files[0].kernels = {
    top: Array.from({ length: 500 }, (_, i) => ({
      name: long(i),
      count: i + 1,
      total_ns: 1e9 - i * 997,
      mean_ns: 12345 + i,
    })),
  };
  doc.files[0].utilization = {
    bucket_ns: 1000000,
    begin_ns: 0,
    busy: Array.from({ length: 2000 }, (_, i) => (i % 100) / 100),
  };
  doc.files[0].recommendations = [
    { id: 'r1', severity: 'warn', title: 'GPU idle 40% of the step', detail: 'Host waits dominate.' },
  ];
  const enc = await m.encodeSummaryLink(doc, []);
  assert.ok(enc.value.length <= m.kTargetLinkChars, `${enc.value.length}`);
  const back = await m.decodeSummaryLink(enc.value);
  assert.equal(back.files[0].recommendations[0].title, 'GPU idle 40% of the step');
  assert.equal(back.files[0].kernels.top[0].total_ns, 1e9);
  console.log(`   fat synthetic: ${enc.value.length} chars, ${enc.level.rows} rows kept`);
});

test('hostile summary links are refused with a ShareError', async () => {
  const doc = cliSummary(dataPath('hta/tests/data/triton_example/triton_example.json.gz'));
  const good = (await m.encodeSummaryLink(doc, [])).value;
  const cases = {
    tampered: good.slice(0, 20) + (good[20] === 'A' ? 'B' : 'A') + good.slice(21, -3),
    truncated: good.slice(0, good.length - 7),
    badchars: good.slice(0, 10) + '!!' + good.slice(12),
    noversion: good.slice(2),
    future: '9' + good.slice(1),
    oversized: '1.' + 'A'.repeat(70000),
  };
  for (const [name, value] of Object.entries(cases)) {
    await assert.rejects(m.decodeSummaryLink(value), (e) => e instanceof m.ShareError && e.message.length > 10, name);
  }
  // A zip bomb: 8 MB of zeros compress to a few KB; inflation stops at the limit.
  const bomb = '1.' + m.encodeBase64url(await m.deflateRaw(new Uint8Array(8 << 20)));
  await assert.rejects(m.decodeSummaryLink(bomb), /refuses|expands/);
  // Valid compression of the wrong JSON.
  const wrong = async (obj) =>
    '1.' + m.encodeBase64url(await m.deflateRaw(new TextEncoder().encode(JSON.stringify(obj))));
  await assert.rejects(
    m.decodeSummaryLink(await wrong({ tw: 'tracewise.link/1', schema: 'x', files: [{}] })),
    /schema/
  );
  await assert.rejects(
    m.decodeSummaryLink(await wrong({ tw: 'tracewise.link/1', schema: 'tracewise.summary/1', files: [] })),
    /no file/
  );
  let deep = {};
  for (let i = 0; i < 100; i++) deep = { a: deep };
  await assert.rejects(
    m.decodeSummaryLink(await wrong({ tw: 'tracewise.link/1', schema: 'tracewise.summary/1', files: [deep] })),
    /deeply/
  );
  // Prototype keys are dropped, not applied.
  const proto = await m.decodeSummaryLink(
    '1.' +
      m.encodeBase64url(
        await m.deflateRaw(
          new TextEncoder().encode(
            '{"tw":"tracewise.link/1","schema":"tracewise.summary/1","files":[{"name":"x","__proto__":{"polluted":1}}]}'
          )
        )
      )
  );
  assert.equal(proto.files[0].polluted, undefined);
  assert.equal({}.polluted, undefined);
});
