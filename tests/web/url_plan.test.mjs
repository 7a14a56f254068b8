// The plan of a page's `?url=` values (web/app/url_plan.ts): same-origin URLs open, other origins
// are listed for the reader's consent, other schemes and unusable values are refused with a reason,
// values past the cap are counted as ignored, and the connect-src narrowing names exactly the
// origins of the plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const load = () => loadTs('web/app/url_plan.ts');
const page = 'https://tw.example.com/app/?url=x';

test('same-origin relative URLs open, named by their last segment; other origins are listed once', async () => {
  const { planUrls } = await load();
  const plan = planUrls(
    [
      'samples/a%20b.json.gz',
      'https://cdn.example.org/r0.json',
      '//cdn.example.org/r1.json',
      'http://tw.example.com/x',
    ],
    page
  );
  assert.deepEqual(plan.open, [
    { name: 'a b.json.gz', url: 'https://tw.example.com/app/samples/a%20b.json.gz', foreign: false },
    { name: 'r0.json', url: 'https://cdn.example.org/r0.json', foreign: true },
    { name: 'r1.json', url: 'https://cdn.example.org/r1.json', foreign: true },
    { name: 'x', url: 'http://tw.example.com/x', foreign: true }, // another scheme is another origin
  ]);
  assert.deepEqual(plan.foreignOrigins, ['https://cdn.example.org', 'http://tw.example.com']);
  assert.deepEqual([plan.refused, plan.ignored], [[], 0]);
});

test('schemes other than http(s) and unusable values are refused with a reason', async () => {
  const { planUrls } = await load();
  const values = ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:,{}', 'file:///etc/passwd', 'blob:x', 'http://['];
  const plan = planUrls(values, page);
  assert.deepEqual(plan.open, []);
  assert.deepEqual(
    plan.refused.map((r) => r.reason),
    [
      'not an http(s) URL (javascript:)',
      'not an http(s) URL (javascript:)',
      'not an http(s) URL (data:)',
      'not an http(s) URL (file:)',
      'not an http(s) URL (blob:)',
      'not a valid URL',
    ]
  );
});

test('at most 16 values are used, in order; the rest are counted', async () => {
  const { planUrls, kMaxUrls } = await load();
  const values = Array.from({ length: 100 }, (_, i) => `https://h${i}.example/t.json`);
  const plan = planUrls(values, page);
  assert.equal(kMaxUrls, 16);
  assert.deepEqual(
    plan.open.map((u) => u.url),
    values.slice(0, 16)
  );
  assert.equal(plan.ignored, 84);
  assert.equal(plan.foreignOrigins.length, 16);
});

test('a page opened from file: treats every URL as another origin', async () => {
  const { planUrls } = await load();
  const plan = planUrls(['https://a.example/t.json'], 'file:///home/me/index.html');
  assert.deepEqual(plan.foreignOrigins, ['https://a.example']);
  assert.deepEqual(planUrls(['t.json'], 'file:///home/me/index.html').refused[0].reason, 'not an http(s) URL (file:)');
});

test('connect-src narrows to the page and the listed origins; an IPv6 host leaves the static policy', async () => {
  const { planUrls, connectPolicy } = await load();
  assert.equal(connectPolicy(planUrls([], page)), "connect-src 'self'");
  assert.equal(
    connectPolicy(planUrls(['https://a.example:8443/t', 'http://127.0.0.1:9/t', 'x.json'], page)),
    "connect-src 'self' https://a.example:8443 http://127.0.0.1:9"
  );
  assert.equal(connectPolicy(planUrls(['http://[::1]:8000/t.json'], page)), null);
});
