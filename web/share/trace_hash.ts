// A content fingerprint of a trace file, used to tell whether a file dropped on a summary link's page
// is the trace the link was made from, without reading a multi-GB file twice:
//
//   sha256( "tracewise-trace-hash/1\n" + <size in bytes, decimal> + "\n" + first 1 MiB + last 1 MiB )
//
// over the file bytes as given (the compressed bytes for .json.gz; the two ranges do not overlap, a
// file of 2 MiB or less is hashed whole). Re-compressing a trace therefore changes its hash; editing
// its middle does not, which is acceptable for "is this the same run" and costs two small reads.
// The first 32 hex digits (128 bits) are kept.
//
// A trace opened by `?url=` is hashed from the same bytes fetched again: two Range requests when the
// server answers them (and lets us read Content-Range), else one full download that keeps only the
// two edges in memory.
export const kHashEdgeBytes = 1 << 20;

async function digest(size: number, parts: BlobPart[]): Promise<string> {
  const bytes = await new Blob([`tracewise-trace-hash/1\n${size}\n`, ...parts]).arrayBuffer();
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of d.subarray(0, 16)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export async function traceHash(blob: Blob): Promise<string> {
  const size = blob.size;
  if (size <= 2 * kHashEdgeBytes) return digest(size, [blob]);
  return digest(size, [blob.slice(0, kHashEdgeBytes), blob.slice(size - kHashEdgeBytes, size)]);
}

export interface UrlHash {
  hash: string;
  bytes: number;
}

// Bytes [from, to] (inclusive) by a Range request, and the total size; null when the server did not
// answer with exactly that range (no Range support, Content-Range hidden by CORS, encoded body).
async function fetchRange(url: string, from: number, to: number): Promise<{ bytes: Uint8Array; total: number } | null> {
  const r = await fetch(url, { headers: { Range: `bytes=${from}-${to}` }, cache: 'no-store' });
  if (r.status !== 206) {
    void r.body?.cancel().catch(() => {});
    return null;
  }
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(r.headers.get('content-range') ?? '');
  if (!m || Number(m[1]) !== from) {
    void r.body?.cancel().catch(() => {});
    return null;
  }
  const total = Number(m[3]);
  const bytes = new Uint8Array(await r.arrayBuffer());
  return bytes.length === Math.min(to, total - 1) - from + 1 ? { bytes, total } : null;
}

async function hashByRanges(url: string): Promise<UrlHash | null> {
  const E = kHashEdgeBytes;
  const head = await fetchRange(url, 0, E - 1);
  if (!head) return null;
  const size = head.total;
  if (size <= E) return { hash: await digest(size, [head.bytes as Uint8Array<ArrayBuffer>]), bytes: size };
  const tail = await fetchRange(url, size <= 2 * E ? E : size - E, size - 1);
  if (!tail || tail.total !== size) return null;
  return {
    hash: await digest(size, [head.bytes as Uint8Array<ArrayBuffer>, tail.bytes as Uint8Array<ArrayBuffer>]),
    bytes: size,
  };
}

// One full download; memory stays at about two edges whatever the size.
async function hashByStream(url: string): Promise<UrlHash> {
  const E = kHashEdgeBytes;
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok || !r.body) throw new Error(`HTTP ${r.status}`);
  const reader = r.body.getReader();
  const head = new Uint8Array(E);
  let headLen = 0;
  let size = 0;
  const tail: Uint8Array[] = []; // the last chunks, at least E bytes of them once there are
  let tailLen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (headLen < E) {
      const n = Math.min(E - headLen, value.length);
      head.set(value.subarray(0, n), headLen);
      headLen += n;
    }
    tail.push(value);
    tailLen += value.length;
    while (tailLen - tail[0].length >= E) tailLen -= tail.shift()!.length;
  }
  // The bytes after the head that the hash needs: all of them up to 2 MiB, else the last E.
  const want = size <= 2 * E ? size - headLen : E;
  const all = new Uint8Array(tailLen);
  let off = 0;
  for (const c of tail) {
    all.set(c, off);
    off += c.length;
  }
  const last = all.subarray(tailLen - want);
  return {
    hash: await digest(size, [head.subarray(0, headLen) as Uint8Array<ArrayBuffer>, last as Uint8Array<ArrayBuffer>]),
    bytes: size,
  };
}

export async function traceHashOfUrl(url: string): Promise<UrlHash> {
  return (await hashByRanges(url).catch(() => null)) ?? hashByStream(url);
}
