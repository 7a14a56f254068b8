// Where to cut a gzip file's compressed bytes into DecompressionStream writes, and what a failed
// write means. Pure: the browser side is ./gunzip.ts.
//
// Why cut at all: Chromium's DecompressionStream inflates one gzip member only. At the end of a
// member it throws "junk after end" at the next byte written, and a trailer whose CRC-32 or size is
// wrong throws too; an errored stream drops what it had inflated but not yet handed out (all of
// the failing write's output past its first chunk). A write's inflation starts only once every
// earlier output was read, so a failing write loses nothing exactly when it inflates nothing. So
// wherever a member may end, the eight trailer bytes before it go in writes of their own (they
// inflate nothing), and the first byte after it too (a failure there means the member ended
// there: a fresh stream starts at that byte). A member may end where another one's header starts
// (1f 8b 08, no reserved flag bit: rare inside deflate data, found with indexOf, not byte by
// byte), and at the end of the file.

export const kTrailerBytes = 8;
const kHeaderBytes = 4; // checked of the 10: ID1 ID2 CM FLG
const kMinMemberBytes = 20; // 10 header + 2 (an empty final block) + 8 trailer
// Bytes of the following input a plan looks at: a header that starts up to 8 bytes past the
// chunk (its trailer is in the chunk) and its 4 checked bytes.
export const kAheadBytes = kTrailerBytes + kHeaderBytes;

export type Piece =
  | { begin: number; end: number; role: 'data' }
  // Within the 8 bytes before `boundary` (a possible member start, or the end of the input).
  | { begin: number; end: number; role: 'trailer'; boundary: number; atEnd: boolean }
  // The first byte of a possible member.
  | { begin: number; end: number; role: 'probe' };

function isHeader(b0?: number, b1?: number, b2?: number, b3?: number): boolean {
  return b0 === 0x1f && b1 === 0x8b && b2 === 0x08 && b3 !== undefined && (b3 & 0xe0) === 0;
}

// Positions p in [0, chunk.length + 8) where a member header starts, `ahead` (the input's next
// bytes, at least kAheadBytes of them unless the input ends) read past the chunk's end.
export function headersIn(chunk: Uint8Array, ahead: Uint8Array | null): number[] {
  const n = chunk.length;
  const at = (i: number) => (i < n ? chunk[i] : ahead?.[i - n]);
  const found: number[] = [];
  for (let i = chunk.indexOf(0x1f); i >= 0; i = chunk.indexOf(0x1f, i + 1))
    if (isHeader(0x1f, at(i + 1), at(i + 2), at(i + 3))) found.push(i);
  if (ahead)
    for (let i = ahead.indexOf(0x1f); i >= 0 && i < kTrailerBytes; i = ahead.indexOf(0x1f, i + 1))
      if (isHeader(0x1f, ahead[i + 1], ahead[i + 2], ahead[i + 3])) found.push(n + i);
  return found;
}

// The writes of one chunk of the input that starts at `base` in it, in order, covering it whole,
// none longer than `maxPiece`; positions are the input's. `ahead`: the bytes that follow
// (kAheadBytes of them at least), null when the chunk ends the input.
export function planPieces(chunk: Uint8Array, base: number, ahead: Uint8Array | null, maxPiece: number): Piece[] {
  const n = chunk.length;
  const headers = headersIn(chunk, ahead);
  const ends = headers.map((at) => ({ at, atEnd: false }));
  if (!ahead) ends.push({ at: n, atEnd: true });
  const clip = (x: number) => Math.min(n, Math.max(0, x));
  const cuts = new Set<number>([n]);
  for (const h of headers) cuts.add(clip(h)).add(clip(h + 1));
  for (const e of ends) cuts.add(clip(e.at - kTrailerBytes)).add(clip(e.at));
  cuts.delete(0);
  const role = (begin: number, end: number): Piece => {
    const [b, e] = [base + begin, base + end];
    if (end === begin + 1 && headers.includes(begin)) return { begin: b, end: e, role: 'probe' };
    const t = ends.find((x) => x.at - kTrailerBytes <= begin && end <= x.at);
    if (t) return { begin: b, end: e, role: 'trailer', boundary: base + t.at, atEnd: t.atEnd };
    return { begin: b, end: e, role: 'data' };
  };
  const pieces: Piece[] = [];
  let begin = 0;
  for (const cut of [...cuts].sort((x, y) => x - y)) {
    for (; cut - begin > maxPiece; begin += maxPiece) pieces.push(role(begin, begin + maxPiece));
    pieces.push(role(begin, cut));
    begin = cut;
  }
  return pieces;
}

// What follows a failed write of `piece` (positions in the whole input), in a member that began at
// `memberStart`: start a fresh stream at `at` (after a trailer that did not match: `damaged`), or
// stop with the damage.
export type AfterFailure =
  { kind: 'resume'; at: number; damaged: boolean } | { kind: 'stop'; damage: 'trailer' | 'corrupt' };

export function afterFailure(piece: Piece, memberStart: number): AfterFailure {
  if (piece.role === 'trailer' && piece.boundary - memberStart >= kMinMemberBytes)
    return piece.atEnd ? { kind: 'stop', damage: 'trailer' } : { kind: 'resume', at: piece.boundary, damaged: true };
  // A member began before this byte, and its trailer went through: it ended here.
  if (piece.role === 'probe' && piece.begin - memberStart >= kMinMemberBytes)
    return { kind: 'resume', at: piece.begin, damaged: false };
  return { kind: 'stop', damage: 'corrupt' };
}
