// One trace worker seen by several timelines: a rank's own view and the aligned view of all ranks
// (./aligned/) ask the same worker. The worker sends the text of a name id once per session, then
// only the id (web/worker/timeline_handlers.ts), so a second consumer would get ids without text.
// SharedNames sits between the worker and its consumers: it remembers every text the worker sent,
// and each consumer's window replies carry the text of every id new to that consumer.
import { kNameColumns } from './window_columns';
import type { WindowReply } from '../worker/timeline_handlers';
import type { TimelineClient, TimelineKind, TimelinePayloads, TimelineReplies } from '../worker/protocol';

export class SharedNames implements TimelineClient {
  private readonly texts = new Map<number, string>();

  constructor(private readonly worker: TimelineClient) {}

  // The worker's reply, its names remembered (this client's own replies keep `names` as sent).
  async request<K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]): Promise<TimelineReplies[K]> {
    const r = await this.worker.request(kind, payload);
    if (kind === 'window') this.absorb((r as WindowReply).names);
    return r;
  }

  // The text of a name id the worker sent (to any consumer).
  text(id: number): string | undefined {
    return this.texts.get(id);
  }

  // A client for one more consumer: its window replies name every id it has not been given yet.
  consumer(): TimelineClient {
    const given = new Set<number>();
    return {
      request: async <K extends TimelineKind>(kind: K, payload: TimelinePayloads[K]) => {
        const r = await this.request(kind, payload);
        return kind === 'window' ? (this.complete(r as WindowReply, given) as TimelineReplies[K]) : r;
      },
    };
  }

  private absorb(names: Record<number, string> | undefined): void {
    for (const [k, v] of Object.entries(names ?? {})) this.texts.set(Number(k), v);
  }

  private complete(r: WindowReply, given: Set<number>): WindowReply {
    const names: Record<number, string> = {};
    for (const col of kNameColumns)
      for (const id of r[col]) {
        if (id === 0 || given.has(id)) continue;
        given.add(id);
        names[id] = this.texts.get(id) ?? '';
      }
    return { ...r, names };
  }
}
