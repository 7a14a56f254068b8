// A content fingerprint of a trace file, used to tell whether a file dropped on a summary link's page
// is the trace the link was made from, without reading a multi-GB file twice:
//
//   sha256( "tracewise-trace-hash/1\n" + <size in bytes, decimal> + "\n" + first 1 MiB + last 1 MiB )
//
// over the file bytes as given (the compressed bytes for .json.gz; the two ranges do not overlap, a
// file of 2 MiB or less is hashed whole). Re-compressing a trace therefore changes its hash; editing
// its middle does not, which is acceptable for "is this the same run" and costs two small reads.
// The first 32 hex digits (128 bits) are kept.
export const kHashEdgeBytes = 1 << 20;

export async function traceHash(blob: Blob): Promise<string> {
  const size = blob.size;
  const parts: BlobPart[] = [`tracewise-trace-hash/1\n${size}\n`];
  if (size <= 2 * kHashEdgeBytes) {
    parts.push(blob);
  } else {
    parts.push(blob.slice(0, kHashEdgeBytes), blob.slice(size - kHashEdgeBytes, size));
  }
  const bytes = await new Blob(parts).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
