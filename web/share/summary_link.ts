// Summary links: the analysis itself travels in the URL fragment (which browsers never send to a
// server), so a teammate sees the dashboard without the trace and without any upload.
//
//   #s=1.<base64url(deflate-raw(JSON payload))>[&<view state keys>]
//
// payload = { tw: "tracewise.link/1", schema, files: [trimmed file summaries],
//             traces: [{ name, bytes, hash } | null per file], trim: { rows, text, series },
//             job?: the document's job (two files or more),
//             compare?: { sides: ["base" | "cand" per file], diff: the trimmed tracewise.diff/1 } }
//
// Decoding treats the link as hostile: size limits at every stage (fragment characters, compressed
// bytes, decompressed bytes, JSON nodes, nesting depth), strict UTF-8, a structural check, and keys
// that could reach an object's prototype are dropped. Every failure is a ShareError with a sentence.
import { decodeBase64url, encodeBase64url } from './base64url';
import { deflateRaw, inflateRaw } from './deflate';
import { ShareError } from './share_error';
import { kTrimLevels, trimDiff, trimSummary, type TrimLevel } from './summary_trim';
import type { FileSummary, SummaryDocument } from '../app/summary_document';
import { validSides, type Side } from '../app/compare/compare_sides';

// A comparison's link (Compare mode): each file's side and the diff shown (the receiver has no
// trace to compute it from, and trimmed summaries would give another one).
export interface LinkCompare {
  sides: Side[];
  diff: Record<string, unknown>;
}

export const kLinkVersion = '1';
export const kPayloadTag = 'tracewise.link/1';
export const kTargetLinkChars = 8000; // aim: the whole fragment value under ~8 KB
export const kMaxEncodeChars = 32 * 1024; // refuse to make links longer than this
export const kMaxDecodeChars = 64 * 1024; // refuse to read fragment values longer than this
export const kMaxInflatedBytes = 2 << 20;
const kMaxNodes = 200_000;
const kMaxDepth = 24;
const kMaxFiles = 1024;

export interface TraceRef {
  name: string;
  bytes: number;
  hash: string;
}

export interface LinkPayload {
  tw: typeof kPayloadTag;
  schema: string;
  files: Record<string, unknown>[];
  traces: (TraceRef | null)[];
  trim: { rows: number; text: number; series: number };
  job?: Record<string, unknown>;
  compare?: LinkCompare;
}

// The link's summaries as a summary document, for the dashboard and the exports: checked for their
// structure only (validatePayload) and trimmed (summary_trim.ts), which the views' defensive reads
// of every section are for.
export function linkDocument(p: LinkPayload): SummaryDocument {
  const doc: SummaryDocument = { files: p.files as FileSummary[], schema: p.schema };
  if (p.job) doc.job = p.job as SummaryDocument['job'];
  return doc;
}

export interface EncodedLink {
  value: string;
  level: TrimLevel;
  payloadBytes: number;
  cuts: Record<string, number>;
}

// Encodes `doc` ({files, schema}, the CLI's summary document) into the fragment value of `s=`.
// Tries the trim levels from the most generous and returns the first that fits `targetChars` (the
// rest of the link shares the 8 KB aim), else the smallest one if it fits kMaxEncodeChars.
export async function encodeSummaryLink(
  doc: { files?: unknown[]; schema?: unknown; job?: unknown },
  traces: (TraceRef | null)[],
  targetChars = kTargetLinkChars,
  compare: LinkCompare | null = null
): Promise<EncodedLink> {
  let best: EncodedLink | null = null;
  for (const level of kTrimLevels) {
    const { doc: trimmed, cuts } = trimSummary(doc, level);
    const payload: LinkPayload = {
      tw: kPayloadTag,
      schema: trimmed.schema,
      files: trimmed.files as Record<string, unknown>[],
      traces: trimmed.files.map((_, i) => traces[i] ?? null),
      trim: { rows: level.rows, text: level.text, series: level.series },
    };
    if (isObj(trimmed.job)) payload.job = trimmed.job;
    if (compare && validSides(compare.sides) && compare.sides.length === payload.files.length) {
      const diff = trimDiff(compare.diff, level, cuts);
      if (isObj(diff)) payload.compare = { sides: compare.sides, diff };
    }
    const json = new TextEncoder().encode(JSON.stringify(payload));
    const value = `${kLinkVersion}.${encodeBase64url(await deflateRaw(json))}`;
    best = { value, level, payloadBytes: json.length, cuts };
    if (value.length <= targetChars) return best;
  }
  if (best && best.value.length <= kMaxEncodeChars) return best;
  throw new ShareError(
    'too_large',
    'This summary is too large for a link even when trimmed; use "Download report" instead.'
  );
}

export async function decodeSummaryLink(value: string): Promise<LinkPayload> {
  if (value.length > kMaxDecodeChars) {
    throw new ShareError(
      'too_large',
      `The link is too long (${value.length} characters; tracewise reads at most ${kMaxDecodeChars}).`
    );
  }
  const dot = value.indexOf('.');
  const version = dot < 0 ? '' : value.slice(0, dot);
  if (!/^\d{1,3}$/.test(version))
    throw new ShareError('bad_encoding', 'The link is damaged (it does not start with a version number).');
  if (version !== kLinkVersion)
    throw new ShareError(
      'unsupported',
      `The link was made by a newer tracewise (link version ${version}); open it with that version.`
    );
  const packed = decodeBase64url(value.slice(dot + 1), kMaxDecodeChars);
  const raw = await inflateRaw(packed, kMaxInflatedBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ShareError('bad_data', 'The link is damaged (its text is not valid UTF-8).');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ShareError('bad_data', 'The link is damaged (its data is not valid JSON).');
  }
  return validatePayload(parsed);
}

function fail(why: string): never {
  throw new ShareError('bad_data', `The link does not hold a tracewise summary (${why}).`);
}

// Copies plain JSON data, refusing deep nesting and huge node counts, and dropping prototype keys.
function cleanJson(v: unknown, depth: number, budget: { nodes: number }): unknown {
  if (--budget.nodes < 0) fail('too many values');
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : fail('a number is not finite');
  if (depth > kMaxDepth) fail('nested too deeply');
  if (Array.isArray(v)) return v.map((x) => cleanJson(x, depth + 1, budget));
  if (typeof v !== 'object') fail('unexpected value');
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    o[k] = cleanJson(x, depth + 1, budget);
  }
  return o;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function validatePayload(parsed: unknown): LinkPayload {
  if (!isObj(parsed)) fail('not an object');
  const p = cleanJson(parsed, 0, { nodes: kMaxNodes }) as Record<string, unknown>;
  if (p.tw !== kPayloadTag) fail('missing its tag');
  if (typeof p.schema !== 'string' || !/^tracewise\.summary\/\d+$/.test(p.schema)) fail('unknown summary schema');
  if (!Array.isArray(p.files) || p.files.length === 0 || p.files.length > kMaxFiles || !p.files.every(isObj))
    fail('no file summaries');
  const files = p.files as Record<string, unknown>[];
  const tracesIn = Array.isArray(p.traces) ? p.traces : [];
  const traces = files.map((_, i): TraceRef | null => {
    const t = tracesIn[i];
    if (!isObj(t)) return null;
    const ok =
      typeof t.name === 'string' &&
      t.name.length <= 1024 &&
      Number.isSafeInteger(t.bytes) &&
      (t.bytes as number) >= 0 &&
      typeof t.hash === 'string' &&
      /^[0-9a-f]{32}$/.test(t.hash);
    return ok ? { name: t.name as string, bytes: t.bytes as number, hash: t.hash as string } : null;
  });
  const tr = isObj(p.trim) ? p.trim : {};
  const int = (x: unknown) => (Number.isSafeInteger(x) && (x as number) >= 0 ? (x as number) : 0);
  const out: LinkPayload = {
    tw: kPayloadTag,
    schema: p.schema,
    files,
    traces,
    trim: { rows: int(tr.rows), text: int(tr.text), series: int(tr.series) },
  };
  if (isObj(p.job)) out.job = p.job; // read defensively by the views, as the files are
  // A comparison's: sides that fit the files, and a diff the views read defensively too.
  const c = p.compare;
  if (isObj(c) && validSides(c.sides) && c.sides.length === files.length && isObj(c.diff))
    out.compare = { sides: c.sides, diff: c.diff };
  return out;
}
