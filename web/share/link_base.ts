// The part of a link before '#': the page, and the traces its receiver opens by itself (`?url=`).
// When every trace on screen was opened from a URL of this site that the page's own address does not
// name (the "Try a sample" button), the link lists those URLs as `?url=`, relative to the page like
// a hand-written `?url=samples/x.json`: whoever opens it gets the same trace without a file. Else it
// is the address the page was opened with: `?url=` pages keep their URLs, traces from local files
// or buffers get none (the receiver drops the file).
import { traceSource } from './trace_inputs';

const resolve = (u: string, base: string): string | null => {
  try {
    return new URL(u, base).href;
  } catch {
    return null;
  }
};
const keyOf = (kv: string): string => {
  const k = kv.split('=')[0];
  try {
    return decodeURIComponent(k.replace(/\+/g, ' '));
  } catch {
    return k;
  }
};

// `u` as seen from the page's directory when it lies below it, else absolute.
function relativeTo(page: URL, u: string): string {
  const abs = new URL(u);
  const dir = page.pathname.slice(0, page.pathname.lastIndexOf('/') + 1);
  if (abs.origin !== page.origin || !abs.pathname.startsWith(dir) || abs.pathname.length === dir.length)
    return abs.href;
  return abs.pathname.slice(dir.length) + abs.search;
}

// `opened`: the page's address without fragment as it was loaded; `names`: per file on screen, the
// name its trace was opened under, or null when no trace is behind it (a saved summary).
export function linkBase(opened: string, names: (string | null)[]): string {
  const page = new URL(opened);
  const urls = names.map((n) => {
    const s = n === null ? undefined : traceSource(n);
    return s && 'url' in s ? s.url : null;
  });
  // (A page from file: has an opaque origin, "null", that any other file would seem to share.)
  if (!urls.length || page.origin === 'null' || urls.some((u) => u === null || new URL(u).origin !== page.origin))
    return opened;
  const named = page.searchParams.getAll('url').map((u) => resolve(u, opened));
  if (urls.length === named.length && urls.every((u, i) => u === named[i])) return opened;
  // Written by hand rather than by URLSearchParams, which would escape every '/' of the paths.
  const query = page.search
    .slice(1)
    .split('&')
    .filter((kv) => kv && keyOf(kv) !== 'url');
  for (const u of urls)
    query.push(`url=${encodeURIComponent(relativeTo(page, u!)).replace(/%2F/gi, '/').replace(/%3A/gi, ':')}`);
  return `${page.origin}${page.pathname}?${query.join('&')}`;
}
