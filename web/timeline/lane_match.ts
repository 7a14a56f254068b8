// A name searched for exactly (a flame graph frame's: web/flame), and its first match on one lane
// (the frame's thread), found by paging through the core's matches in time order.
import type { TimelineClient } from '../worker/protocol';

const kMaxQueryChars = 1000; // core/timeline/name_match.h
const kPage = 1000; // the core's page limit
const kMaxPages = 50; // beyond this many matches before one on the lane, the first match anywhere

// The query that matches `name` whole: an anchored regex with its metacharacters escaped; a name too
// long for that is searched as a substring of its start.
export function exactNameQuery(name: string): { query: string; regex: boolean } {
  const escaped = `^${name.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}$`;
  if (escaped.length <= kMaxQueryChars) return { query: escaped, regex: true };
  return { query: name.slice(0, kMaxQueryChars), regex: false };
}

// The id of the first match (of the search that ran last) on `lane`, or -1.
export async function firstMatchOnLane(client: TimelineClient, lane: number, count: number): Promise<number> {
  for (let offset = 0, page = 0; offset < count && page < kMaxPages; offset += kPage, page++) {
    const r = await client.request('search', { op: 'page', offset, limit: kPage });
    const hit = (r.matches ?? []).find((m) => m.lane === lane);
    if (hit) return hit.id;
    if (!r.matches?.length) break;
  }
  return -1;
}
