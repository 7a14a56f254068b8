// The Content-Security-Policy of both pages (web/csp.mjs): served in the page's <meta> and as a
// header (with frame-ancestors, which only the full page sets), and it works: a script or an inline
// event handler put into the page through the DOM does not run and is reported as a violation; the
// full page cannot be framed by another site while the embed page can; without `?url=` the page
// cannot connect to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { otherOrigin, start } from './helpers.mjs';

let s, other, otherUrl;

before(async () => {
  s = await start();
  // Another origin: a page that frames tracewise, and a JSON that any origin may read.
  other = await otherOrigin((req, res) => {
    if (req.url.startsWith('/frame')) {
      const src = `${s.url}${req.url.slice('/frame?'.length)}`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><iframe id="f" src="${src}"></iframe>`);
    } else res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' }).end('{}');
  });
  otherUrl = other.url;
});
after(async () => {
  await s.close();
  await other.close();
});

// Puts a script element and an inline handler into the page; resolves with what ran and what the
// page reported as refused.
const inject = (page) =>
  page.evaluate(async () => {
    const refused = [];
    addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
    const script = document.createElement('script');
    script.textContent = 'window.pwned = 1';
    document.body.append(script);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.pwned = 2');
    img.src = 'no-such-image.png';
    document.body.append(img);
    await new Promise((ok) => setTimeout(ok, 500));
    return { pwned: window.pwned ?? null, refused: [...new Set(refused)].sort() };
  });

for (const [name, path, embed] of [
  ['index.html', '', false],
  ['embed.html', 'embed.html?panels=cards', true],
]) {
  test(`${name}: the policy is in the page and its header, and an injected inline script does not run`, async () => {
    const res = await s.page.goto(`${s.url}${path}`);
    await s.page.waitForFunction(() => window.__tracewise !== undefined);
    if (embed) assert.match(s.page.url(), /\/\?embed=1&panels=cards$/, 'embed.html redirects by its script file');
    const header = res.headers();
    const meta = await s.page.$$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.map((e) => e.content));
    // The site's policy, and the page's own narrowing to its origin (it has no `?url=`).
    assert.equal(meta[1], "connect-src 'self'");
    for (const directive of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'"])
      assert.ok(meta[0].includes(directive), meta[0]);
    assert.ok(!/unsafe-inline/.test(meta[0]));
    const sent = header['content-security-policy'];
    assert.equal(sent, embed ? meta[0] : `${meta[0]}; frame-ancestors 'none'`);

    assert.deepEqual(await inject(s.page), { pwned: null, refused: ['script-src-attr', 'script-src-elem'] });
    s.violations.length = 0; // provoked on purpose
  });
}

test('another site cannot frame the full page; it can frame the embed page', async () => {
  const page = await s.context.newPage();
  await page.goto(`${otherUrl}/frame?`);
  await page.waitForTimeout(1000);
  const framed = await (await page.$('#f')).contentFrame();
  assert.equal(await framed.evaluate(() => window.__tracewise === undefined), true, 'the full page was not loaded');
  await page.goto(`${otherUrl}/frame?embed.html`);
  const embedded = await (await page.waitForSelector('#f')).contentFrame();
  await embedded.waitForFunction(() => window.__tracewise !== undefined, null, { timeout: 10_000 });
  await page.close();
  s.violations.length = 0; // the refused frame is logged as a policy violation on purpose
});

test('without ?url= the page connects to no other origin', async () => {
  await s.page.goto(s.url);
  const outcome = await s.page.evaluate(async (u) => {
    const refused = [];
    addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
    let fetched = 'yes';
    await fetch(`${u}/x.json`).catch(() => (fetched = 'no'));
    await new Promise((ok) => setTimeout(ok, 200)); // the event comes in a task of its own
    return { fetched, refused };
  }, otherUrl);
  assert.deepEqual(outcome, { fetched: 'no', refused: ['connect-src'] });
  s.violations.length = 0;
  // With the origin in ?url= (and before the reader agrees), the page may connect there.
  await s.page.goto(`${s.url}?url=${encodeURIComponent(`${otherUrl}/x.json`)}`);
  const ok = await s.page.evaluate((u) => fetch(`${u}/x.json`).then((r) => r.status), otherUrl);
  assert.equal(ok, 200);
});
