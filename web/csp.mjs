// The site's Content-Security-Policy, in one place: web/build.mjs writes it into the <meta
// http-equiv> of every page (a static host may send no headers), web/serve.mjs sends the page's
// meta again as a header with frame-ancestors (which a <meta> cannot carry). docs/security.md says
// what each directive guards. The page narrows connect-src further at run time to the origins its
// own `?url=` names (web/app/url_plan.ts), which a static policy cannot know.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The timeline component injects its stylesheet as a <style> element (web/timeline/style.ts); a
// policy without 'unsafe-inline' admits that one text by its hash, so the hash follows the source.
export function timelineStyleHash(root) {
  const src = readFileSync(join(root, 'web/timeline/style.ts'), 'utf8');
  const m = /const kCss = `([^`$\\]*)`;/.exec(src);
  if (!m) throw new Error('web/csp.mjs: web/timeline/style.ts no longer has a plain `const kCss = `...``');
  return `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`;
}

export function pagePolicy(root) {
  return [
    "default-src 'none'",
    // app.js, tracewise-view.js and embed.js; no inline script, no eval. WebAssembly runs only in the
    // workers, whose policy comes with their own responses; 'wasm-unsafe-eval' keeps a browser that
    // would apply this one to them working.
    "script-src 'self' 'wasm-unsafe-eval'",
    `style-src 'self' ${timelineStyleHash(root)}`,
    "img-src 'self'",
    // embed-config.json, the `?url=` traces (fetched again for a link's content hash) and their
    // hosts, which only the page's own address names: narrowed at run time (web/app/url_plan.ts).
    "connect-src 'self' http: https:",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

// The header web/serve.mjs sends with a page: its meta policy, and where it may be framed. The
// embed page (embed.html, or any page with embed=1) is made to be framed by any site; the messages
// it reads are gated by origin (web/embed/embed_config.ts). The full page is never framed.
export function headerPolicy(metaPolicy, embed) {
  return embed ? metaPolicy : `${metaPolicy}; frame-ancestors 'none'`;
}

// The policy of a page's <meta http-equiv="Content-Security-Policy">, or null.
export function metaPolicyOf(html) {
  return /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? null;
}
