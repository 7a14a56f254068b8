// What the page's `?url=` values may open, decided before anything is fetched. A link is untrusted
// input: it may name any number of hosts and any scheme. So at most kMaxUrls values are used (the
// rest are named as ignored), only http(s) URLs are fetched (`javascript:`, `data:`, `file:`,
// `blob:` ... get "not an http(s) URL" rather than a download error), and the origins other than
// the page's own are listed, for the page to ask the reader before it downloads from them
// (web/app/url_consent.ts). Same-origin URLs (the bundled sample, share links) open at once.
// Pure: node tests (tests/web/url_plan.test.mjs) run it.

export const kMaxUrls = 16;

export interface PlannedUrl {
  name: string;
  url: string; // absolute
  foreign: boolean; // another origin than the page's
}

export interface UrlPlan {
  open: PlannedUrl[]; // in the order given
  refused: { value: string; reason: string }[];
  ignored: number; // values past kMaxUrls
  foreignOrigins: string[]; // the distinct origins of `open` that are not the page's
}

// The name a trace opened from `u` goes by: its last path segment (web/share/trace_inputs.ts
// remembers `?url=` traces under the same name).
export function nameOfUrl(u: string, base: string): string {
  try {
    return decodeURIComponent(new URL(u, base).pathname.split('/').pop() || 'trace');
  } catch {
    return 'trace';
  }
}

export function planUrls(values: readonly string[], pageHref: string): UrlPlan {
  const page = new URL(pageHref);
  const plan: UrlPlan = { open: [], refused: [], ignored: Math.max(0, values.length - kMaxUrls), foreignOrigins: [] };
  for (const value of values.slice(0, kMaxUrls)) {
    let url: URL;
    try {
      url = new URL(value, page);
    } catch {
      plan.refused.push({ value, reason: 'not a valid URL' });
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      plan.refused.push({ value, reason: `not an http(s) URL (${url.protocol.slice(0, 32)})` });
      continue;
    }
    // A page from file: has the opaque origin "null", which no URL shares.
    const foreign = page.origin === 'null' || url.origin !== page.origin;
    if (foreign && !plan.foreignOrigins.includes(url.origin)) plan.foreignOrigins.push(url.origin);
    plan.open.push({ name: nameOfUrl(url.href, page.href), url: url.href, foreign });
  }
  return plan;
}

// The page's connections narrowed to its own origin and the ones its address names: a second
// policy that the browser enforces beside web/csp.mjs's static one (policies only ever add
// restrictions). Null when an origin cannot be written as a CSP source (an IPv6 literal host).
export function connectPolicy(plan: UrlPlan): string | null {
  if (!plan.foreignOrigins.every((o) => /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/.test(o))) return null;
  return ["connect-src 'self'", ...plan.foreignOrigins].join(' ');
}
