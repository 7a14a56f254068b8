// Remembers where the traces the user opens came from (drop, file pickers, buffers from postMessage,
// `?url=`, the sample buttons), because the content-hash check of links needs their bytes and the
// app shell keeps no reference. Listens in the capture phase, before the page's own handlers clear the file inputs.
// Hashes are cached per source (a Blob, or a URL fetched again), so each is computed once.
import { traceHash, traceHashOfUrl } from './trace_hash';

type Source = { blob: Blob } | { url: string };
export type Hashed = { hash: string; bytes: number };
const sourcesByName = new Map<string, Source>();
const blobHashes = new WeakMap<Blob, Promise<Hashed>>();
const urlHashes = new Map<string, Promise<Hashed>>();
const known = new WeakMap<Source, Hashed>(); // hashes already computed (readable synchronously)

function remember(name: string, src: Source): void {
  sourcesByName.delete(name);
  sourcesByName.set(name, src);
  if (sourcesByName.size > 64) sourcesByName.delete(sourcesByName.keys().next().value as string);
}

export function rememberTrace(name: string, blob: Blob): void {
  remember(name, { blob });
}
export function rememberTraceUrl(name: string, url: string): void {
  remember(name, { url });
}

export function traceSource(name: string): Source | undefined {
  return sourcesByName.get(name);
}

export function traceBlob(name: string): Blob | undefined {
  const s = sourcesByName.get(name);
  return s && 'blob' in s ? s.blob : undefined;
}

function hashOfSource(src: Source): Promise<Hashed> {
  if ('blob' in src) {
    let p = blobHashes.get(src.blob);
    if (!p) blobHashes.set(src.blob, (p = traceHash(src.blob).then((hash) => ({ hash, bytes: src.blob.size }))));
    return p;
  }
  let p = urlHashes.get(src.url);
  if (!p) {
    urlHashes.set(src.url, (p = traceHashOfUrl(src.url)));
    p.catch(() => urlHashes.delete(src.url)); // a failed fetch may be retried later
  }
  return p;
}

// The content hash of the trace opened under this name; null when its source is unknown or the
// bytes cannot be read again (e.g. the URL now fails).
export async function hashOfTrace(name: string): Promise<Hashed | null> {
  const src = sourcesByName.get(name);
  if (!src) return null;
  try {
    const h = await hashOfSource(src);
    known.set(src, h);
    return h;
  } catch {
    return null;
  }
}

// The hash and size when already computed, without any I/O (for the address bar, updated every second).
export function knownHash(name: string): Hashed | null {
  const src = sourcesByName.get(name);
  return (src && known.get(src)) ?? null;
}

export function watchTraceInputs(): void {
  const keep = (list: FileList | null | undefined) => {
    for (const f of list ?? []) rememberTrace(f.name, f);
  };
  window.addEventListener('drop', (e) => keep(e.dataTransfer?.files), true);
  window.addEventListener(
    'change',
    (e) => {
      const t = e.target as HTMLInputElement | null;
      if (t && t.tagName === 'INPUT' && t.type === 'file') keep(t.files);
    },
    true
  );
  // The page opens `?url=` traces and the sample buttons' `data-sample` (relative to the document)
  // by URL, under the last path segment of the URL (web/app/main.ts).
  const keepUrl = (u: string, base: string) => {
    try {
      const abs = new URL(u, base);
      rememberTraceUrl(decodeURIComponent(abs.pathname.split('/').pop() || 'trace'), abs.href);
    } catch {
      /* an unusable URL: the page reports it when it fails to open */
    }
  };
  for (const u of new URLSearchParams(location.search).getAll('url')) keepUrl(u, location.href);
  window.addEventListener(
    'click',
    (e) => {
      const sample =
        e.target instanceof Element ? e.target.closest<HTMLElement>('[data-sample]')?.dataset.sample : undefined;
      if (sample) keepUrl(sample, document.baseURI);
    },
    true
  );
}
